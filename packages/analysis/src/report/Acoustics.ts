/**
 * What the audio alone shows: the speaker timeline with the evidence on it, and the metrics
 * beside the published reference values they are judged against.
 */
import type { Metrics } from "../Types.js"
import { e, fixed1, formatDuration, isNum, pct } from "./Format.js"
import { roleLabel } from "./Speakers.js"
import { timelineSvg } from "./Svg.js"
import type { ReportView } from "./View.js"

/** The timeline. */
export const timelineSection = (view: ReportView): string => {
  const { input, lanes, markers } = view
  return `<section class="card" id="timeline">
<h2>Speaker timeline</h2>
<p class="lede">Who spoke when, one lane per speaker. Numbered markers are the evidence behind the scores; select one to jump to it.</p>
${lanes.length > 0 ? timelineSvg(input, lanes, markers) : `<p class="na">No speech was found.</p>`}
<div class="legend">${lanes.map((l) => `<span><i style="background:${l.colour}"></i>${e(l.speaker)} · ${e(roleLabel(l.role).toLowerCase())}</span>`).join("")}<span><i style="background:var(--good)"></i>points added</span><span><i style="background:var(--poor)"></i>points removed</span><span><i style="background:#64748b"></i>no effect</span></div>
</section>`
}

/** The metrics table's rows: each metric, its value, how it stands against the reference, the reference and its source. */
const metricRows = (m: Metrics, hasTranscript: boolean): string => {
  type Status = "ok" | "warn" | "bad" | null
  const badge = (s: Status, text: string) => (s === null ? "" : `<span class="badge badge-${s}">${e(text)}</span>`)
  const notMeasured = `<span class="na">not measured</span>`
  const na = hasTranscript ? notMeasured : `<span class="na">not assessed · needs a transcript</span>`
  const rows: Array<{ name: string; def: string; value: string; status: string; reference: string; source: string }> = []

  const talk = m.talk_ratio
  rows.push({
    name: "Rep talk ratio",
    def: "rep speech time / all speech time",
    value: isNum(talk) ? pct(talk) : notMeasured,
    status: !isNum(talk)
      ? ""
      : talk > 0.65
      ? badge("bad", "above 65 %")
      : Math.abs(talk - 0.43) <= 0.1
      ? badge("ok", "near 43 %")
      : badge("warn", talk > 0.43 ? "above 43 %" : "below 43 %"),
    reference: "top performers ~43 % rep talk; above 65 % goes with lower win rates",
    source: "Gong Labs, 25,537 calls"
  })
  const mono = m.longest_monologue_s
  rows.push({
    name: "Longest monologue",
    def: "longest rep stretch with under 1 s of buyer speech",
    value: isNum(mono) ? formatDuration(mono) : notMeasured,
    status: !isNum(mono) ? "" : mono > 120 ? badge("bad", "past 2 min") : badge("ok", "under 2 min"),
    reference: "overviews past 2 minutes go with lower win rates",
    source: "Gong Labs"
  })
  const story = m.longest_customer_story_s
  rows.push({
    name: "Longest customer story",
    def: "the same for the buyer side",
    value: isNum(story) ? formatDuration(story) : notMeasured,
    status: !isNum(story) ? "" : story > 50 ? badge("ok", "over 50 s") : badge("warn", "50 s or less"),
    reference: "stretches ≤ 50 s went with below-average close rates",
    source: "Gong Labs, 257,967 calls"
  })
  rows.push({
    name: "Interactivity",
    def: "speaker switches per minute",
    value: isNum(m.interactivity) ? `${fixed1(m.interactivity)} /min` : notMeasured,
    status: "",
    reference: "—",
    source: ""
  })
  rows.push({
    name: "Patience",
    def: "median pause from a buyer turn's end to the rep's next turn",
    value: isNum(m.patience_s) ? `${fixed1(m.patience_s)} s` : notMeasured,
    status: "",
    reference: "—",
    source: ""
  })
  rows.push({
    name: "Interruptions",
    def: "turns starting while the other side speaks (overlap > 0.3 s), both ways",
    value: isNum(m.interruptions) ? String(Math.round(m.interruptions)) : notMeasured,
    status: "",
    reference: "—",
    source: ""
  })
  rows.push({
    name: "Silence",
    def: "non-speech time / call duration",
    value: isNum(m.silence_ratio) ? pct(m.silence_ratio) : notMeasured,
    status: "",
    reference: "—",
    source: ""
  })
  const q = m.question_count
  rows.push({
    name: "Rep questions",
    def: "questions asked by the rep, and per 10 minutes",
    value: isNum(q) ? `${Math.round(q)}${isNum(m.question_rate) ? ` · ${fixed1(m.question_rate)} per 10 min` : ""}` : na,
    status: !isNum(q) ? "" : q >= 11 && q <= 14 ? badge("ok", "11–14") : badge("warn", q < 11 ? "below 11" : "above 14"),
    reference: "11–14 questions in discovery calls",
    source: "Gong Labs, 519,000 calls"
  })
  const wpm = m.words_per_minute
  rows.push({
    name: "Words per minute",
    def: "per side",
    value: wpm !== null && (isNum(wpm.rep) || isNum(wpm.buyer))
      ? `rep ${isNum(wpm.rep) ? Math.round(wpm.rep) : "—"} · buyer ${isNum(wpm.buyer) ? Math.round(wpm.buyer) : "—"}`
      : na,
    status: "",
    reference: "—",
    source: ""
  })
  rows.push({
    name: "Filler rate",
    def: "filler words per 100 rep words",
    value: isNum(m.filler_rate) ? fixed1(m.filler_rate) : na,
    status: "",
    reference: "—",
    source: ""
  })
  return rows
    .map(
      (r) =>
        `<tr><th scope="row">${e(r.name)}<small>${e(r.def)}</small></th><td class="value">${r.value}</td><td>${r.status}</td><td class="ref">${e(r.reference)}${r.source ? `<small>${e(r.source)}</small>` : ""}</td></tr>`
    )
    .join("\n")
}

/** The metrics. */
export const metricsSection = (view: ReportView): string => {
  const { hasTranscript, input } = view
  return `<section class="card metrics" id="metrics">
<h2>Metrics and reference values</h2>
<p class="lede">Measured on this call, beside the published reference values they are judged against.</p>
<table>
<colgroup><col style="width:31%"><col style="width:16%"><col style="width:15%"><col></colgroup>
<thead><tr><th>Metric</th><th>This call</th><th>vs. reference</th><th>Reference</th></tr></thead>
<tbody>${metricRows(input.metrics, hasTranscript)}</tbody>
</table>
</section>`
}
