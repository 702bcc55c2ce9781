/**
 * The evidence list: every moment behind a score, numbered as the scorecard and the timeline link
 * to it, with its dimension, time (linked to the transcript when it is shown), speaker, what it is
 * and its effect.
 */
import { e, formatClock, signed } from "./Format.js"
import { dimensionLabel } from "./Labels.js"
import { effectKind, llmMark, type ReportView } from "./View.js"

/** The evidence. */
export const evidenceSection = (view: ReportView): string => {
  const { anchorAt, dims, evidence, hasTranscript, speakerCell, wholeCall } = view
  const parts: Array<string> = []
  parts.push(`<section class="card evidence allow-break" id="evidence">
<h2>Evidence</h2>
<p class="lede">The moments behind every point${hasTranscript ? "" : "; quotes appear once there is a transcript"}.</p>`)
  if (evidence.length === 0) {
    parts.push(`<p class="na">No evidence: no dimension could be assessed.</p>`)
  } else {
    parts.push(`<table><thead><tr><th>#</th><th>Dimension</th><th>When</th><th>Speaker</th><th>Moment</th><th class="num">Effect</th></tr></thead><tbody>`)
    for (const m of evidence) {
      const span = `${formatClock(m.item.start)}–${formatClock(m.item.end)}`
      const anchor = anchorAt(m.item.start)
      const when = wholeCall(m.item)
        ? "whole call"
        : anchor === null
        ? span
        : `<a href="#${e(anchor)}" title="Jump to ${formatClock(m.item.start)} in the transcript">${span}</a>`
      const dimension = e(dimensionLabel(m.item.dimension))
      const quote = m.item.quote !== null && m.item.quote.trim().length > 0 && !m.text.includes(m.item.quote)
        ? `<small>“${e(m.item.quote)}”</small>`
        : ""
      parts.push(
        `<tr id="ev-${m.n}"><td class="n">${m.n}</td><td>${
          dims.some((d) => d.dimension === m.item.dimension) ? `<a href="#dim-${e(m.item.dimension)}">${dimension}</a>` : dimension
        }</td><td class="when">${when}</td><td>${speakerCell(m.item.speaker)}</td><td>${e(m.text)}${llmMark(m.item.source)}${quote}</td><td class="num effect effect-${
          effectKind(m.item.effect)
        }">${signed(m.item.effect)}</td></tr>`
      )
    }
    parts.push(`</tbody></table>`)
  }
  parts.push(`</section>`)
  return parts.join("\n")
}
