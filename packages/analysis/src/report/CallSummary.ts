/**
 * The call's summary near the top of the report: what the buyer needs, what was agreed, the open
 * risks, each item's sentence with the quotes it rests on, linked to their moment in the transcript.
 */
import type { Summary } from "../text/Summary.js"
import { e } from "./Format.js"
import { llmMark, type ReportView } from "./View.js"

const PARTS = [
  ["needs", "What the buyer needs", "No need of the buyer side was found in the words."],
  ["agreed", "What was agreed", "Nothing was agreed with a day."],
  ["risks", "Open risks", "No open risk was found."]
] as const

/** The summary; nothing for an analysis without one (no transcript, or analysed before summaries). */
export const callSummarySection = (view: ReportView, summary: Summary | null | undefined): string => {
  if (summary == null) return ""
  const { momentLink, speakerCell } = view
  const part = ([key, title, none]: typeof PARTS[number]) => {
    const items = summary[key]
    return `<div class="sum-part sum-${key}"><h3>${title}</h3>${
      items.length === 0
        ? `<p class="na">${none}</p>`
        : `<ul>${
          items.map((item) =>
            `<li class="sum-item sum-${e(item.kind)}"><span class="sum-text">${e(item.text)}</span>${llmMark(item.source)}${
              item.quotes.map((q) =>
                `<div class="reply"><span class="quote">“${e(q.quote)}”</span> ${momentLink(q.start)} <span class="q-who">${speakerCell(q.speaker)}</span></div>`
              ).join("")
            }</li>`
          ).join("")
        }</ul>`
    }</div>`
  }
  return `<section class="card call-summary" id="summary">
<h2>Summary</h2>
<p class="lede">${
    summary.source === "llm"
      ? "Written by the tenant's LLM where it could quote the call (every quote found in the transcript), else from the method's findings."
      : "From the method's findings, in the words said on the call."
  }</p>
${PARTS.map(part).join("\n")}
</section>`
}
