/**
 * What the words show, with a transcript: the qualification checklist, the objections with the
 * rep's responses, and the next steps, each linked to its moment.
 */
import type { ObjectionItem, TranscriptSegmentItem } from "../Types.js"
import { clip, e, fixed1, isNum, pct } from "./Format.js"
import { elementOf, LEVELS, lookup, OBJECTION_LABELS, RESPONSES } from "./Labels.js"
import { llmMark, type ReportView } from "./View.js"

/** The qualification checklist. */
export const qualificationSection = (view: ReportView): string => {
  const { momentLink, qualification, speakerCell } = view
  if (qualification === null) {
    return `<section class="card" id="qualification">
<h2>Qualification checklist</h2>
<p class="na">Not assessed for this call.</p>
</section>`
  }
  const els = qualification.elements
  const points = els.reduce((sum, x) => sum + x.score, 0)
  const specific = els.filter((x) => x.score === 2).length
  const vague = els.filter((x) => x.score === 1).length
  const none = els.length - specific - vague
  const bar = `<div class="q-bar" role="img" aria-label="${specific} specific, ${vague} vague, ${none} not covered">${
    ([["specific", specific], ["vague", vague], ["none", none]] as const)
      .map(([cls, n]) => (n > 0 ? `<i class="lvl-${cls}" style="flex:${n}"></i>` : ""))
      .join("")
  }</div>`
  return `<section class="card" id="qualification">
<div class="card-head"><h2>Qualification checklist</h2><span class="framework">${e(qualification.framework)}</span></div>
<p class="lede">Each element of the framework as covered on the call: <b class="lvl-text-none">0</b> not covered, <b class="lvl-text-vague">1</b> vague, <b class="lvl-text-specific">2</b> specific (a number, a name, a date).</p>
${
    els.length === 0
      ? `<p class="na">No elements were assessed.</p>`
      : `<div class="q-head"><div class="q-total"><b>${points}</b><span>of ${2 * els.length} points · ${
        pct(points / (2 * els.length))
      }</span></div>${bar}<div class="q-counts"><span><i class="lvl-specific"></i>${specific} specific</span><span><i class="lvl-vague"></i>${vague} vague</span><span><i class="lvl-none"></i>${none} not covered</span></div></div>
<ol class="checklist">${
        els
          .map((x, i) => {
            const { hint, label } = elementOf(x.element)
            const level = LEVELS[x.score] ?? LEVELS[0]
            const ev = x.evidence
            const said = ev === null
              ? `<div class="q-quote na">${x.score === 0 ? "Not raised on the call" : "No quote"}</div>`
              : `<div class="q-quote">${ev.quote !== null && ev.quote.trim().length > 0 ? `<span class="quote">“${e(clip(ev.quote, 200))}”</span>` : ""}${
                momentLink(ev.start)
              }${ev.speaker !== null ? `<span class="q-who">${speakerCell(ev.speaker)}</span>` : ""}</div>`
            return `<li class="q lvl-${level.cls}" id="q-${i + 1}"><span class="q-letter">${e(label.charAt(0))}</span><div class="q-body"><div class="q-name"><b>${e(label)}</b>${
              hint ? `<small>${e(hint)}</small>` : ""
            }</div>${said}</div><div class="q-level"><span class="pips" aria-hidden="true"><i${x.score >= 1 ? ` class="on"` : ""}></i><i${
              x.score >= 2 ? ` class="on"` : ""
            }></i></span><span class="q-score">${x.score}</span><span class="q-label">${level.label}</span></div></li>`
          })
          .join("")
      }</ol>`
  }
</section>`
}

/** Objections, each with the rep's first words after it (within 30 s). */
export const objectionsSection = (view: ReportView): string => {
  const { laneOf, momentLink, objections, tx } = view
  const replyTo = (o: ObjectionItem): TranscriptSegmentItem | null =>
    tx!.order
      .map((i) => tx!.segments[i]!)
      .find((seg) => seg.start > o.at && seg.start <= o.at + 30 && laneOf.get(seg.speaker)?.role === "rep") ?? null
  return `<section class="card objections" id="objections">
<h2>Objections and responses</h2>
<p class="lede">What the buyer side pushed back on, and what the rep did next. Pausing or asking a question back before answering goes with better outcomes than answering at length.</p>
${
    objections.length === 0
      ? `<p class="na">No objections were raised on this call.</p>`
      : `<table>
<colgroup><col style="width:9%"><col style="width:12%"><col style="width:38%"><col><col style="width:9%"></colgroup>
<thead><tr><th>When</th><th>Objection</th><th>Buyer side said</th><th>Rep's response</th><th class="num">Pause</th></tr></thead>
<tbody>${
        objections
          .map((o, i) => {
            const r = lookup(RESPONSES, o.response) ?? RESPONSES.other
            const reply = replyTo(o)
            return `<tr id="obj-${i + 1}"><td class="when">${momentLink(o.at)}</td><td><span class="kind kind-${e(o.kind)}">${
              e(lookup(OBJECTION_LABELS, o.kind) ?? o.kind)
            }</span>${llmMark(o.source)}</td><td><span class="quote">“${e(clip(o.quote, 260))}”</span></td><td><span class="badge badge-${r.tone}">${e(r.label)}</span>${
              r.hint ? `<small>${e(r.hint)}</small>` : ""
            }${
              reply !== null
                ? `<div class="reply"><span class="quote">“${e(clip(reply.text, 150))}”</span>${momentLink(reply.start)}</div>`
                : ""
            }</td><td class="num">${isNum(o.response_pause_s) ? `${fixed1(o.response_pause_s)} s` : `<span class="na">—</span>`}</td></tr>`
          })
          .join("")
      }</tbody></table>`
  }
</section>`
}

/** Next steps. */
export const nextStepsSection = (view: ReportView): string => {
  const { laneOf, momentLink, nextSteps, speakerCell } = view
  return `<section class="card next-steps" id="next-steps">
<h2>Next steps</h2>
<p class="lede">What was agreed for after the call. A strong next step is concrete, dated, and has an owner.</p>
${
    nextSteps.length === 0
      ? `<p class="na">No next step was agreed on this call.</p>`
      : `<table>
<colgroup><col style="width:9%"><col><col style="width:18%"><col style="width:16%"><col style="width:14%"></colgroup>
<thead><tr><th>When</th><th>Next step</th><th>Owner</th><th>Due</th><th class="num">Complete</th></tr></thead>
<tbody>${
        nextSteps
          .map((x, i) => {
            const [tone, status] = x.owner !== null && x.due !== null
              ? ["ok", "dated, with owner"]
              : x.owner === null && x.due === null
              ? ["bad", "no date, no owner"]
              : x.due === null
              ? ["warn", "no date"]
              : ["warn", "no owner"]
            const owner = x.owner === null
              ? `<span class="na">not named</span>`
              : laneOf.has(x.owner)
              ? speakerCell(x.owner)
              : `<b>${e(x.owner)}</b>`
            return `<tr id="ns-${i + 1}"><td class="when">${momentLink(x.at)}</td><td><span class="quote">“${e(clip(x.quote, 260))}”</span>${llmMark(x.source)}</td><td>${owner}</td><td>${
              x.due !== null ? `<b>${e(x.due)}</b>` : `<span class="na">no date</span>`
            }</td><td class="num"><span class="badge badge-${tone}">${status}</span></td></tr>`
          })
          .join("")
      }</tbody></table>`
  }
</section>`
}
