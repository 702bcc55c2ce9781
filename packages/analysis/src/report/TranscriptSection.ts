/**
 * The transcript section: every segment with its speaker, time and anchor, and tags linking back
 * to what it is evidence of; or a line saying it is left out; or, acoustic-only, what needs one.
 */
import type { TranscriptIndex } from "./Anchors.js"
import { e, formatClock, signed } from "./Format.js"
import { dimensionLabel, elementOf, lookup, OBJECTION_LABELS } from "./Labels.js"
import { roleLabel, UNKNOWN_COLOUR } from "./Speakers.js"
import { effectKind, type ReportView } from "./View.js"

/** The transcript, shown. */
const shownTranscript = (view: ReportView, tx: TranscriptIndex): string => {
  const { evidence, laneOf, nextSteps, objections, qualification, wholeCall } = view
  // tags on the transcript: what each segment is evidence of, linking back
  const tags = new Map<number, Array<string>>()
  const tag = (t: number, html: string) => {
    const i = tx.at(t)
    if (i !== null) tags.set(i, [...(tags.get(i) ?? []), html])
  }
  for (const m of evidence) {
    if (m.item.quote === null || m.item.quote.trim().length === 0 || wholeCall(m.item)) continue
    tag(
      m.item.start,
      `<a class="tag tag-ev-${effectKind(m.item.effect)}" href="#ev-${m.n}">#${m.n} ${
        e(dimensionLabel(m.item.dimension))
      } ${signed(m.item.effect)}</a>`
    )
  }
  objections.forEach((o, i) => tag(o.at, `<a class="tag tag-obj" href="#obj-${i + 1}">${e(lookup(OBJECTION_LABELS, o.kind) ?? o.kind)} objection</a>`))
  nextSteps.forEach((x, i) => tag(x.at, `<a class="tag tag-ns" href="#ns-${i + 1}">Next step</a>`))
  qualification?.elements.forEach((x, i) => {
    if (x.evidence !== null && x.score > 0) {
      tag(x.evidence.start, `<a class="tag tag-q" href="#q-${i + 1}">${e(qualification.framework)} · ${e(elementOf(x.element).label)}</a>`)
    }
  })
  return `<section class="card transcript allow-break" id="transcript">
<h2>Transcript</h2>
<p class="lede">Every segment with its speaker and time. Select a time to link to that moment, or a tag to see what the segment is evidence of.</p>
${
    tx.order.length === 0
      ? `<p class="na">The provider returned no words for this call.</p>`
      : `<ol class="segments">${
        tx.order
          .map((i) => {
            const seg = tx.segments[i]!
            const lane = laneOf.get(seg.speaker)
            const t = tags.get(i)
            return `<li class="seg seg-${lane?.role ?? "unknown"}" id="${e(tx.ids[i])}" style="--c:${lane?.colour ?? UNKNOWN_COLOUR}"><a class="ts" href="#${
              e(tx.ids[i])
            }">${formatClock(seg.start)}</a><div class="seg-who"><b><i></i>${e(seg.speaker)}</b><small>${e(roleLabel(lane?.role ?? "unknown"))}</small></div><div class="seg-text"><p>${
              e(seg.text)
            }</p>${t ? `<div class="tags">${t.join("")}</div>` : ""}</div></li>`
          })
          .join("")
      }</ol>`
  }
</section>`
}

/** The transcript (or a line saying it is left out), or what needs one. */
export const transcriptSection = (view: ReportView): string => {
  const { hasTranscript, showTranscript, tx } = view
  if (showTranscript) {
    return shownTranscript(view, tx!)
  } else if (hasTranscript) {
    return `<section class="card" id="transcript">
<h2>Transcript</h2>
<p class="na">The transcript is left out of this report (the tenant's <code>report.include_transcript</code> setting); the quotes above come from it.</p>
</section>`
  } else {
    return `<section class="card" id="needs-transcript">
<h2>Needs a transcript</h2>
<p class="lede">This analysis is acoustic-only. With a speech-to-text provider configured, the report adds:</p>
<ul class="pending">
<li><b>Qualification checklist</b><span>MEDDPICC elements covered: none, vague or specific</span></li>
<li><b>Objections and responses</b><span>What the buyer pushed back on and what the rep did next</span></li>
<li><b>Next steps</b><span>A concrete, dated next step with an owner</span></li>
<li><b>Transcript</b><span>Every turn with its speaker and time, and quotes in the evidence</span></li>
</ul>
</section>`
  }
}
