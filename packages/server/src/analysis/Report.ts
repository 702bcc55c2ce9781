/**
 * The call report (ANALYSIS.md step 8): one self-contained HTML page. No scripts, no external
 * fonts, images or style sheets: it opens offline, prints cleanly, and can be saved as a file.
 * Every string from the input is escaped (external ids and speaker labels are user-supplied).
 *
 * Sections: header (call id, external id, date, duration, speakers), overall score, scorecard
 * (with "not assessed" and the reason where it applies, weights, and links from each score to its
 * evidence), speaker timeline (inline SVG, one lane per speaker, evidence markers linking to the
 * evidence list), talk-ratio chart with the 43 % reference, metrics beside their reference values,
 * evidence, what needs a transcript (or the transcript itself), and a method note with
 * `method_version` and the scoring rules.
 */
import type { TranscriptSegment } from "@callsight/api-spec"
import {
  DIMENSION_LABELS,
  DIMENSION_WEIGHTS,
  type DimensionName,
  describeEvidence,
  findMoments,
  SCORE_BASE,
  SCORING_RULES
} from "./Scorecard.js"
import type { EvidenceItem, Metrics, ScorecardResult, SpeakerSummary, Turn } from "./Types.js"

export interface ReportInput {
  readonly call_id: string
  readonly external_call_id: string | null
  /** ISO 8601. */
  readonly created_at: string
  readonly duration_s: number
  readonly channels: number | null
  readonly method_version: string
  readonly speakers: ReadonlyArray<SpeakerSummary>
  readonly speaker_turns: ReadonlyArray<Turn>
  readonly metrics: Metrics
  readonly scorecard: ScorecardResult
  readonly evidence: ReadonlyArray<EvidenceItem>
  /** Null for an acoustic-only analysis. */
  readonly transcript: ReadonlyArray<typeof TranscriptSegment.Type> | null
  readonly closer_email?: string | null
  readonly diarization?: "channel" | "clustering" | null
}

// ---------------------------------------------------------------------------------------------
// Escaping and formatting

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** Escape text for HTML element content and quoted attribute values. */
export const escapeHtml = (value: unknown): string => String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]!)

const e = escapeHtml

const isNum = (x: number | null | undefined): x is number => typeof x === "number" && Number.isFinite(x)

/** 75 → "1:15", 3725 → "1:02:05". */
export const formatClock = (seconds: number): string => {
  const s = Math.max(0, Math.round(isNum(seconds) ? seconds : 0))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, "0")
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`
}

/** A duration in words: "13 s", "2 min 05 s", "1 h 02 min". */
const formatDuration = (seconds: number): string => {
  if (!isNum(seconds)) return "—"
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`
  const s = Math.round(seconds)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`
}

const pct = (fraction: number) => `${Math.round(fraction * 100)} %`
const fixed1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1)
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0")

/** "2025-03-12 14:03 UTC", or the raw text when it is not a date. */
const formatDate = (iso: string): string => {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`
}

const grade = (score: number): "good" | "fair" | "poor" => (score >= 70 ? "good" : score >= 50 ? "fair" : "poor")
const GRADE_LABEL = { good: "Strong", fair: "Fair", poor: "Needs work" } as const

// ---------------------------------------------------------------------------------------------
// Speakers and colours

const REP_COLOURS = ["#4f46e5", "#7c3aed", "#2563eb"]
const BUYER_COLOURS = ["#0d9488", "#d97706", "#0891b2", "#db2777", "#65a30d"]
const UNKNOWN_COLOUR = "#64748b"

interface Lane {
  readonly speaker: string
  readonly role: "rep" | "buyer" | "unknown"
  readonly colour: string
  readonly talk_s: number
  readonly share: number | null
  readonly confidence: number | null
}

const ROLE_ORDER = { rep: 0, buyer: 1, unknown: 2 } as const

const lanesOf = (input: ReportInput): Array<Lane> => {
  const bySpeaker = new Map<string, { role: Lane["role"]; talk: number; share: number | null; confidence: number | null }>()
  for (const s of input.speakers) {
    bySpeaker.set(s.speaker, { role: s.role, talk: s.talk_time_s, share: s.talk_share, confidence: s.role_confidence })
  }
  const talk = new Map<string, number>()
  for (const t of input.speaker_turns) {
    talk.set(t.speaker, (talk.get(t.speaker) ?? 0) + Math.max(0, t.end - t.start))
    if (!bySpeaker.has(t.speaker)) bySpeaker.set(t.speaker, { role: t.role, talk: 0, share: null, confidence: null })
    else if (bySpeaker.get(t.speaker)!.role === "unknown" && t.role !== "unknown") bySpeaker.get(t.speaker)!.role = t.role
  }
  const entries = [...bySpeaker.entries()].map(([speaker, v]) => ({
    speaker,
    role: v.role,
    talk_s: v.talk > 0 ? v.talk : talk.get(speaker) ?? 0,
    share: v.share,
    confidence: v.confidence
  }))
  entries.sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || b.talk_s - a.talk_s || (a.speaker < b.speaker ? -1 : 1))
  const counters = { rep: 0, buyer: 0, unknown: 0 }
  return entries.map((x) => {
    const k = counters[x.role]++
    const colour = x.role === "rep"
      ? REP_COLOURS[k % REP_COLOURS.length]!
      : x.role === "buyer"
      ? BUYER_COLOURS[k % BUYER_COLOURS.length]!
      : UNKNOWN_COLOUR
    return { ...x, colour }
  })
}

const roleLabel = (role: Lane["role"]) => (role === "rep" ? "Rep" : role === "buyer" ? "Buyer" : "Unknown role")

// ---------------------------------------------------------------------------------------------
// SVG pieces

/** A tick step of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min or 1 h that gives ~6–10 ticks. */
const tickStep = (duration: number): number => {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
  for (const s of steps) if (duration / s <= 10) return s
  return 3600 * Math.ceil(duration / 36000)
}

const scoreRing = (score: number | null): string => {
  const r = 52
  const c = 2 * Math.PI * r
  const g = score === null ? null : grade(score)
  const arc = score === null
    ? ""
    : `<circle class="ring-value ring-${g}" cx="64" cy="64" r="${r}" stroke-dasharray="${((score / 100) * c).toFixed(2)} ${c.toFixed(2)}" transform="rotate(-90 64 64)"/>`
  return `<svg class="ring" viewBox="0 0 128 128" role="img" aria-label="${score === null ? "Overall score not assessed" : `Overall score ${score} of 100`}">
<circle class="ring-track" cx="64" cy="64" r="${r}"/>${arc}
<text x="64" y="64" class="ring-number" text-anchor="middle" dominant-baseline="central">${score === null ? "—" : score}</text>
<text x="64" y="92" class="ring-of" text-anchor="middle">of 100</text>
</svg>`
}

interface Marker {
  readonly n: number
  readonly item: EvidenceItem
  readonly text: string
}

const timelineSvg = (input: ReportInput, lanes: ReadonlyArray<Lane>, markers: ReadonlyArray<Marker>): string => {
  const W = 1000
  const left = 150
  const right = 16
  const plotW = W - left - right
  const duration = isNum(input.duration_s) && input.duration_s > 0
    ? input.duration_s
    : Math.max(1, ...input.speaker_turns.map((t) => t.end))
  const x = (t: number) => left + (Math.min(Math.max(t, 0), duration) / duration) * plotW

  // evidence markers, stacked into rows so that they never overlap
  const pinW = 22
  const rows: Array<number> = [] // right edge of the last pin in each row
  const byTime = markers
    .map((m) => ({ m, cx: Math.min(Math.max(x(m.item.start), left + pinW / 2), W - right - pinW / 2) }))
    .sort((a, b) => a.cx - b.cx || a.m.n - b.m.n)
  const placed = byTime.map(({ cx, m }) => {
    let row = rows.findIndex((edge) => cx - pinW / 2 >= edge + 3)
    if (row === -1) {
      row = rows.length
      rows.push(-Infinity)
    }
    rows[row] = cx + pinW / 2
    return { ...m, cx, row }
  })
  const pinRowH = 24
  const evidenceH = placed.length > 0 ? rows.length * pinRowH + 10 : 0
  const laneH = 30
  const laneGap = 12
  const top = evidenceH + 8
  const lanesH = lanes.length * laneH + Math.max(0, lanes.length - 1) * laneGap
  const axisY = top + lanesH + 10
  const H = axisY + 26

  const out: Array<string> = []
  out.push(`<svg class="timeline" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="timeline-title">`)
  out.push(`<title id="timeline-title">Speaker timeline: who spoke when, with the evidence behind the scores</title>`)

  // grid and axis
  const step = tickStep(duration)
  out.push(`<g class="grid">`)
  for (let t = 0; t <= duration + 1e-9; t += step) {
    const tx = x(t).toFixed(1)
    out.push(`<line x1="${tx}" x2="${tx}" y1="${top - 4}" y2="${axisY}"/>`)
    out.push(`<text class="tick" x="${tx}" y="${axisY + 16}" text-anchor="middle">${formatClock(t)}</text>`)
  }
  out.push(`</g>`)
  out.push(`<line class="axis" x1="${left}" x2="${W - right}" y1="${axisY}" y2="${axisY}"/>`)

  // lane backgrounds and labels, then the evidence spans, then the turns on top
  const laneY = (i: number) => top + i * (laneH + laneGap)
  lanes.forEach((lane, i) => {
    const y = laneY(i)
    out.push(`<rect class="lane-bg" x="${left}" y="${y}" width="${plotW}" height="${laneH}" rx="4"/>`)
    out.push(`<circle cx="10" cy="${y + laneH / 2}" r="5" fill="${lane.colour}"/>`)
    const name = lane.speaker.length > 16 ? `${lane.speaker.slice(0, 15)}…` : lane.speaker
    out.push(`<text class="lane-name" x="22" y="${y + 13}">${e(name)}</text>`)
    out.push(`<text class="lane-role" x="22" y="${y + 27}">${e(roleLabel(lane.role))}</text>`)
  })
  for (const m of placed) {
    const x0 = x(m.item.start)
    const w = Math.max(2, x(m.item.end) - x0)
    out.push(
      `<rect class="span span-${m.item.effect < 0 ? "neg" : m.item.effect > 0 ? "pos" : "zero"}" x="${x0.toFixed(1)}" y="${top - 4}" width="${w.toFixed(1)}" height="${lanesH + 8}" rx="3"/>`
    )
  }
  lanes.forEach((lane, i) => {
    const y = laneY(i)
    out.push(`<g class="lane">`)
    for (const t of input.speaker_turns) {
      if (t.speaker !== lane.speaker || !(t.end > t.start)) continue
      const x0 = x(t.start)
      const w = Math.max(1, x(t.end) - x0)
      out.push(
        `<rect x="${x0.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${laneH - 8}" rx="2" fill="${lane.colour}"><title>${e(lane.speaker)} ${formatClock(t.start)}–${formatClock(t.end)}</title></rect>`
      )
    }
    out.push(`</g>`)
  })

  // evidence pins
  for (const m of placed) {
    const y = 4 + m.row * pinRowH
    const kind = m.item.effect < 0 ? "neg" : m.item.effect > 0 ? "pos" : "zero"
    out.push(
      `<a href="#ev-${m.n}" class="pin pin-${kind}"><title>#${m.n} ${e(DIMENSION_LABELS[m.item.dimension as DimensionName] ?? m.item.dimension)} ${signed(m.item.effect)}: ${e(m.text)} (${formatClock(m.item.start)}–${formatClock(m.item.end)})</title>` +
        `<line x1="${m.cx.toFixed(1)}" x2="${m.cx.toFixed(1)}" y1="${y + 18}" y2="${top - 4}"/>` +
        `<rect x="${(m.cx - pinW / 2).toFixed(1)}" y="${y}" width="${pinW}" height="18" rx="9"/>` +
        `<text x="${m.cx.toFixed(1)}" y="${y + 13}" text-anchor="middle">${m.n}</text></a>`
    )
  }
  out.push(`</svg>`)
  return out.join("\n")
}

const talkRatioSvg = (repShare: number | null): string => {
  const W = 420
  const left = 8
  const plotW = W - 2 * left
  const barY = 40
  const barH = 30
  const x = (f: number) => left + f * plotW
  const out: Array<string> = []
  out.push(`<svg class="talk" viewBox="0 0 ${W} 112" role="img" aria-label="Rep talk ratio ${repShare === null ? "not measured" : pct(repShare)}, reference 43 %">`)
  // the zone above 65 %
  out.push(`<rect class="zone-high" x="${x(0.65).toFixed(1)}" y="${barY - 6}" width="${(x(1) - x(0.65)).toFixed(1)}" height="${barH + 12}" rx="3"/>`)
  if (repShare === null) {
    out.push(`<rect class="bar-empty" x="${left}" y="${barY}" width="${plotW}" height="${barH}" rx="6"/>`)
  } else {
    const r = Math.min(Math.max(repShare, 0), 1)
    out.push(`<clipPath id="talk-clip"><rect x="${left}" y="${barY}" width="${plotW}" height="${barH}" rx="6"/></clipPath>`)
    out.push(`<g clip-path="url(#talk-clip)">`)
    out.push(`<rect class="bar-rep" x="${left}" y="${barY}" width="${(r * plotW).toFixed(1)}" height="${barH}"/>`)
    out.push(`<rect class="bar-buyer" x="${x(r).toFixed(1)}" y="${barY}" width="${((1 - r) * plotW).toFixed(1)}" height="${barH}"/>`)
    out.push(`</g>`)
    if (r >= 0.12) out.push(`<text class="bar-label" x="${left + 10}" y="${barY + 20}">Rep ${pct(r)}</text>`)
    if (1 - r >= 0.16) out.push(`<text class="bar-label" x="${W - left - 10}" y="${barY + 20}" text-anchor="end">Buyer ${pct(1 - r)}</text>`)
  }
  // reference lines
  out.push(`<line class="ref-line" x1="${x(0.43).toFixed(1)}" x2="${x(0.43).toFixed(1)}" y1="${barY - 12}" y2="${barY + barH + 8}"/>`)
  out.push(`<text class="ref-text" x="${x(0.43).toFixed(1)}" y="${barY - 17}" text-anchor="middle">43 % top performers</text>`)
  out.push(`<line class="ref-line ref-high" x1="${x(0.65).toFixed(1)}" x2="${x(0.65).toFixed(1)}" y1="${barY - 6}" y2="${barY + barH + 6}"/>`)
  out.push(`<text class="ref-text ref-high-text" x="${x(0.65).toFixed(1)}" y="${barY + barH + 22}" text-anchor="middle">65 %: lower win rates above</text>`)
  for (const f of [0, 0.5, 1]) {
    out.push(`<text class="tick" x="${x(f).toFixed(1)}" y="${barY + barH + 22}" text-anchor="${f === 0 ? "start" : f === 1 ? "end" : "middle"}">${f === 0.5 ? "" : pct(f)}</text>`)
  }
  out.push(`</svg>`)
  return out.join("\n")
}

// ---------------------------------------------------------------------------------------------
// Sections

const metricRows = (m: Metrics): string => {
  type Status = "ok" | "warn" | "bad" | null
  const badge = (s: Status, text: string) => (s === null ? "" : `<span class="badge badge-${s}">${e(text)}</span>`)
  const na = `<span class="na">not assessed · needs a transcript</span>`
  const notMeasured = `<span class="na">not measured</span>`
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

const CSS = `
:root{--ink:#0f172a;--ink-2:#334155;--muted:#64748b;--line:#e2e8f0;--line-2:#cbd5e1;--bg:#f1f5f9;--card:#fff;
--rep:#4f46e5;--buyer:#0d9488;--good:#15803d;--good-bg:#dcfce7;--fair:#b45309;--fair-bg:#fef3c7;--poor:#b91c1c;--poor-bg:#fee2e2;--accent:#4f46e5}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Liberation Sans","DejaVu Sans",sans-serif;font-variant-numeric:tabular-nums}
a{color:var(--accent);text-decoration:none}
a:hover{text-decoration:underline}
small{display:block;color:var(--muted);font-size:12px;font-weight:400}
.wrap{max-width:1120px;margin:0 auto;padding:0 28px}
.masthead{background:#0f172a;color:#e2e8f0;padding:26px 0 24px}
.brand{display:flex;align-items:center;gap:10px;font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#94a3b8;font-weight:600}
.brand-mark{width:22px;height:22px}
.masthead h1{margin:8px 0 18px;font-size:26px;line-height:1.25;font-weight:650;color:#fff;word-break:break-word}
.masthead h1 .sub{display:block;font-size:14px;font-weight:400;color:#94a3b8;margin-top:4px}
.facts{display:flex;flex-wrap:wrap;gap:14px 40px;margin:0}
.facts div{min-width:0;max-width:100%}
.facts dt{font-size:11px;letter-spacing:.08em;text-transform:uppercase;color:#94a3b8;margin-bottom:2px}
.facts dd{margin:0;color:#f8fafc;font-weight:500;overflow-wrap:anywhere}
.facts .mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:13px}
.chips{display:flex;flex-wrap:wrap;gap:8px;margin-top:18px}
.chip{display:inline-flex;align-items:center;gap:8px;background:#1e293b;border:1px solid #334155;border-radius:999px;padding:4px 12px 4px 10px;font-size:13px;color:#e2e8f0}
.chip .dot{width:9px;height:9px;border-radius:50%}
.chip .role{color:#94a3b8}
main.wrap{padding-top:24px;padding-bottom:40px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:22px 24px;margin-bottom:20px;box-shadow:0 1px 2px rgba(15,23,42,.04)}
.card h2{margin:0 0 4px;font-size:17px;font-weight:650}
.card .lede{margin:0 0 16px;color:var(--muted);font-size:13px}
.summary{display:grid;grid-template-columns:minmax(300px,1fr) minmax(380px,1.3fr);gap:20px;margin-bottom:20px}
.summary .card{margin-bottom:0}
.overall{display:flex;gap:22px;align-items:center}
.ring{width:128px;height:128px;flex:none}
.ring-track{fill:none;stroke:#e2e8f0;stroke-width:11}
.ring-value{fill:none;stroke-width:11;stroke-linecap:round}
.ring-good{stroke:var(--good)}.ring-fair{stroke:#d97706}.ring-poor{stroke:var(--poor)}
.ring-number{font-size:36px;font-weight:700;fill:var(--ink)}
.ring-of{font-size:11px;fill:var(--muted)}
.overall h2{margin-bottom:6px}
.grade{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:2px 10px;margin-bottom:8px}
.grade-good{background:var(--good-bg);color:var(--good)}.grade-fair{background:var(--fair-bg);color:var(--fair)}.grade-poor{background:var(--poor-bg);color:var(--poor)}.grade-none{background:#f1f5f9;color:var(--muted)}
.overall p{margin:0;color:var(--ink-2);font-size:13px}
.dimlist{list-style:none;margin:18px 0 0;padding:14px 0 0;border-top:1px solid var(--line);display:grid;grid-template-columns:1fr;gap:6px;font-size:12.5px}
.dimlist li{display:flex;align-items:center;gap:8px;min-width:0}
.dimlist a{flex:1;color:var(--ink-2);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.dimlist .mini{width:96px;height:6px;border-radius:999px;background:#e2e8f0;overflow:hidden;flex:none}
.dimlist .mini i{display:block;height:100%;border-radius:999px}
.dimlist .mini-good i{background:var(--good)}.dimlist .mini-fair i{background:#d97706}.dimlist .mini-poor i{background:var(--poor)}
.dimlist b{min-width:2.2em;text-align:right;font-size:12.5px}
.dimlist li.off a,.dimlist li.off b{color:var(--muted);font-weight:400}
.dimlist li.off .mini{background:repeating-linear-gradient(90deg,#e2e8f0 0 3px,transparent 3px 6px)}
.talk{width:100%;height:auto;display:block;margin-top:6px}
.talk .bar-rep{fill:var(--rep)}.talk .bar-buyer{fill:var(--buyer)}.talk .bar-empty{fill:#e2e8f0}
.talk .zone-high{fill:#fee2e2;opacity:.75}
.talk .bar-label{font-size:13px;font-weight:600;fill:#fff}
.talk .ref-line{stroke:var(--ink);stroke-width:2}
.talk .ref-high{stroke:var(--poor);stroke-dasharray:4 3;stroke-width:1.5}
.talk .ref-text{font-size:11.5px;fill:var(--ink);font-weight:600}
.talk .ref-high-text{fill:var(--poor);font-weight:500}
.talk .tick{font-size:11px;fill:var(--muted)}
.shares{margin-top:14px;display:grid;gap:7px}
.share{display:grid;grid-template-columns:minmax(0,13em) 1fr 7.5em;align-items:center;gap:12px;font-size:12.5px}
.share .who{display:flex;align-items:baseline;gap:6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-weight:600}
.share .who i{width:9px;height:9px;border-radius:2px;flex:none;display:inline-block}
.share .who small{display:inline;font-size:11.5px}
.share .track{height:8px;background:#eef2f7;border-radius:999px;overflow:hidden}
.share .track i{display:block;height:100%;border-radius:999px}
.share .val{text-align:right;color:var(--ink-2);white-space:nowrap}
.note{margin:10px 0 0;font-size:12px;color:var(--muted)}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;vertical-align:top;padding:10px 12px;border-top:1px solid var(--line)}
thead th{border-top:0;font-size:11px;letter-spacing:.06em;text-transform:uppercase;color:var(--muted);font-weight:600;padding-top:4px}
tbody th{font-weight:600}
td.num,th.num{text-align:right;white-space:nowrap}
.score-cell{width:34%}
.meter{display:flex;align-items:center;gap:10px}
.meter-bar{flex:1;height:8px;border-radius:999px;background:#e2e8f0;overflow:hidden}
.meter-bar span{display:block;height:100%;border-radius:999px}
.meter-good span{background:var(--good)}.meter-fair span{background:#d97706}.meter-poor span{background:var(--poor)}
.meter b{min-width:2.2em;text-align:right;font-size:16px}
.not-assessed{display:inline-block;font-size:12px;font-weight:600;color:var(--muted);background:#f1f5f9;border:1px dashed var(--line-2);border-radius:999px;padding:1px 10px}
.why{color:var(--ink-2);font-size:13px}
.why.muted{color:var(--muted)}
.ev-links{display:flex;flex-wrap:wrap;gap:5px;margin-top:6px}
.ev{display:inline-block;font-size:12px;font-weight:600;border-radius:6px;padding:0 7px;line-height:20px;border:1px solid}
.ev-neg{color:var(--poor);background:var(--poor-bg);border-color:#fecaca}
.ev-pos{color:var(--good);background:var(--good-bg);border-color:#bbf7d0}
.ev-zero{color:var(--muted);background:#f8fafc;border-color:var(--line)}
tr.dim-off th,tr.dim-off td{background:#fcfcfd}
tr.dim-off th{color:var(--muted)}
.total-row th,.total-row td{border-top:2px solid var(--line-2);font-weight:600}
.timeline{width:100%;height:auto;display:block}
.timeline .grid line{stroke:#eef2f7;stroke-width:1}
.timeline .axis{stroke:var(--line-2)}
.timeline .tick{font-size:11px;fill:var(--muted)}
.timeline .lane-bg{fill:#f8fafc;stroke:#eef2f7}
.timeline .lane-name{font-size:13px;font-weight:600;fill:var(--ink)}
.timeline .lane-role{font-size:11px;fill:var(--muted)}
.timeline .span{opacity:.13}
.timeline .span-neg{fill:var(--poor)}.timeline .span-pos{fill:var(--good)}.timeline .span-zero{fill:#64748b}
.timeline .pin line{stroke-width:1;stroke-dasharray:2 2}
.timeline .pin text{font-size:11px;font-weight:700;fill:#fff}
.timeline .pin-neg rect{fill:var(--poor)}.timeline .pin-neg line{stroke:var(--poor)}
.timeline .pin-pos rect{fill:var(--good)}.timeline .pin-pos line{stroke:var(--good)}
.timeline .pin-zero rect{fill:#64748b}.timeline .pin-zero line{stroke:#64748b}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;margin-top:10px;font-size:12px;color:var(--muted)}
.legend span{display:inline-flex;align-items:center;gap:6px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:3px}
.metrics td.value{font-weight:600;white-space:nowrap}
.metrics td.ref{color:var(--ink-2);font-size:13px}
.badge{display:inline-block;font-size:11.5px;font-weight:600;border-radius:999px;padding:1px 9px;white-space:nowrap}
.badge-ok{background:var(--good-bg);color:var(--good)}.badge-warn{background:var(--fair-bg);color:var(--fair)}.badge-bad{background:var(--poor-bg);color:var(--poor)}
.na{color:var(--muted);font-weight:400;font-style:italic}
.evidence td.when{white-space:nowrap;font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:12.5px}
.evidence tr:target td,.evidence tr:target th{background:#eef2ff}
.evidence .n{font-weight:700;color:var(--muted);width:2.5em}
.spk{display:inline-flex;align-items:center;gap:6px}
.spk i{width:8px;height:8px;border-radius:50%;display:inline-block}
.effect{font-weight:700}
.effect-neg{color:var(--poor)}.effect-pos{color:var(--good)}.effect-zero{color:var(--muted)}
.pending{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px;margin:0;padding:0;list-style:none}
.pending li{border:1px dashed var(--line-2);border-radius:10px;padding:12px 14px;background:#fbfcfe}
.pending b{display:block;font-size:13.5px}
.pending span{font-size:12.5px;color:var(--muted)}
.transcript td.when{white-space:nowrap;color:var(--muted);width:6em}
.transcript td.who{white-space:nowrap;font-weight:600;width:10em}
.method p{margin:0 0 10px;color:var(--ink-2);font-size:13px}
.method h3{font-size:13px;margin:18px 0 6px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.method table{font-size:12.5px}
.method td,.method th{padding:7px 10px}
.version{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;background:#f1f5f9;border:1px solid var(--line);border-radius:6px;padding:1px 7px;font-size:12.5px;color:var(--ink)}
.flag{display:inline-block;background:var(--fair-bg);color:var(--fair);font-weight:600;border-radius:6px;padding:1px 8px;font-size:12.5px}
footer{color:var(--muted);font-size:12px;text-align:center;padding:0 0 32px}
@media (max-width:820px){.summary{grid-template-columns:1fr}.overall{flex-direction:row}}
@media print{
  @page{margin:14mm 12mm}
  body{background:#fff;font-size:12px}
  .wrap{max-width:none;padding:0}
  .masthead{background:#fff;color:var(--ink);border-bottom:2px solid var(--ink);padding:0 0 12px;margin-bottom:14px}
  .masthead h1{color:var(--ink)}
  .masthead h1 .sub,.brand,.facts dt{color:var(--muted)}
  .facts dd{color:var(--ink)}
  .chip{background:#fff;border-color:var(--line-2);color:var(--ink)}
  .chip .role{color:var(--ink-2)}
  main.wrap{padding:0}
  .card{box-shadow:none;border-color:var(--line-2);break-inside:avoid;page-break-inside:avoid;padding:14px 16px;margin-bottom:12px}
  .card.allow-break{break-inside:auto;page-break-inside:auto}
  tr{break-inside:avoid;page-break-inside:avoid}
  .summary{grid-template-columns:1fr 1.3fr;gap:12px;margin-bottom:12px}
  a{color:inherit}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`

const BRAND_MARK = `<svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true"><rect width="24" height="24" rx="6" fill="#4f46e5"/><rect x="5" y="10" width="2.4" height="4" rx="1.2" fill="#fff"/><rect x="9" y="7" width="2.4" height="10" rx="1.2" fill="#fff"/><rect x="13" y="5" width="2.4" height="14" rx="1.2" fill="#c7d2fe"/><rect x="17" y="9" width="2.4" height="6" rx="1.2" fill="#fff"/></svg>`

/** Render the report of one call as a complete HTML document. Pure: the same input, the same page. */
export const renderReport = (input: ReportInput): string => {
  const lanes = lanesOf(input)
  const laneOf = new Map(lanes.map((l) => [l.speaker, l]))
  const moments = findMoments({ speaker_turns: input.speaker_turns, speakers: input.speakers, duration_s: input.duration_s })
  const evidence = input.evidence.map((item, i) => ({ n: i + 1, item, text: describeEvidence(item, moments).text }))
  const duration = isNum(input.duration_s) ? input.duration_s : 0
  const wholeCall = (it: EvidenceItem) => it.start <= 0.01 && it.end >= duration - 0.01
  const markers = evidence.filter((m) => !wholeCall(m.item))
  const dims = input.scorecard.dimensions
  const assessed = dims.filter((d) => d.assessed && d.score !== null)
  const overall = input.scorecard.overall
  const hasTranscript = input.transcript !== null
  const weightSum = assessed.reduce((s, d) => s + d.weight, 0)
  const totalTalk = lanes.reduce((s, l) => s + l.talk_s, 0)

  // rep share for the chart: the metric, else the speakers' shares
  const repShare = isNum(input.metrics.talk_ratio)
    ? input.metrics.talk_ratio
    : (() => {
      const rep = lanes.filter((l) => l.role === "rep").reduce((s, l) => s + l.talk_s, 0)
      const all = lanes.reduce((s, l) => s + l.talk_s, 0)
      return rep > 0 && all > 0 ? rep / all : null
    })()

  const speakerCell = (speaker: string | null) => {
    if (speaker === null) return `<span class="na">both sides</span>`
    const lane = laneOf.get(speaker)
    return `<span class="spk"><i style="background:${lane?.colour ?? UNKNOWN_COLOUR}"></i>${e(speaker)}${lane ? ` <small style="display:inline">${e(roleLabel(lane.role).toLowerCase())}</small>` : ""}</span>`
  }
  const effectKind = (n: number) => (n < 0 ? "neg" : n > 0 ? "pos" : "zero")

  const title = input.external_call_id ?? input.call_id
  const parts: Array<string> = []
  parts.push(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Call report · ${e(title)} · Callsight</title>
<style>${CSS}</style>
</head>
<body>`)

  // header
  const facts: Array<[string, string, boolean]> = [
    ["Call ID", input.call_id, true],
    ["External ID", input.external_call_id ?? "—", input.external_call_id !== null],
    ["Date", formatDate(input.created_at), false],
    ["Duration", `${formatClock(duration)} (${formatDuration(duration)})`, false],
    ["Audio", input.channels === 2 ? "Stereo, 2 channels" : input.channels === 1 ? "Mono" : "—", false],
    ["Speakers", String(lanes.length), false]
  ]
  if (input.closer_email) facts.splice(2, 0, ["Closer", input.closer_email, false])
  parts.push(`<header class="masthead"><div class="wrap">
<div class="brand">${BRAND_MARK}<span>Callsight · Call report</span></div>
<h1>${e(input.external_call_id ?? "Sales call")}<span class="sub">Acoustic analysis${hasTranscript ? " with transcript" : ""} · ${e(formatDate(input.created_at))}</span></h1>
<dl class="facts">${facts.map(([k, v, mono]) => `<div><dt>${e(k)}</dt><dd${mono ? ` class="mono"` : ""}>${e(v)}</dd></div>`).join("")}</dl>
<div class="chips">${
    lanes
      .map((l) =>
        `<span class="chip"><span class="dot" style="background:${l.colour}"></span>${e(l.speaker)} <span class="role">${e(roleLabel(l.role))}${
          isNum(l.share) ? ` · ${pct(l.share)} of talk` : ""
        }${l.confidence !== null && l.role !== "unknown" ? ` · role ${pct(l.confidence)} sure` : ""}</span></span>`
      )
      .join("")
  }</div>
</div></header>
<main class="wrap">`)

  // summary: overall + talk ratio
  const g = overall === null ? null : grade(overall)
  parts.push(`<section class="summary">
<div class="card" id="overall"><div class="overall">${scoreRing(overall)}<div>
<h2>Overall score</h2>
<span class="grade grade-${g ?? "none"}">${g === null ? "Not assessed" : GRADE_LABEL[g]}</span>
<p>Weighted mean of the <b>${assessed.length} of ${dims.length}</b> dimensions that could be assessed.${
    assessed.length < dims.length && !hasTranscript ? " The others need a transcript." : ""
  }</p>
</div></div>
<ul class="dimlist">${
    dims
      .map((d) => {
        const label = e(DIMENSION_LABELS[d.dimension] ?? d.dimension)
        if (!d.assessed || d.score === null) {
          return `<li class="off"><a href="#dim-${e(d.dimension)}">${label}</a><span class="mini"></span><b>n/a</b></li>`
        }
        const s = Math.min(100, Math.max(0, Math.round(d.score)))
        return `<li><a href="#dim-${e(d.dimension)}">${label}</a><span class="mini mini-${grade(s)}"><i style="width:${s}%"></i></span><b>${s}</b></li>`
      })
      .join("")
  }</ul></div>
<div class="card" id="talk-ratio">
<h2>Talk ratio</h2>
<p class="lede">Share of speech time. Top performers talk about 43 % of the time; above 65 % goes with lower win rates (Gong Labs, 25,537 calls).</p>
${talkRatioSvg(repShare)}
<div class="shares">${
    lanes
      .map((l) => {
        const share = isNum(l.share) ? l.share : totalTalk > 0 ? l.talk_s / totalTalk : 0
        return `<div class="share"><span class="who"><i style="background:${l.colour}"></i>${e(l.speaker)} <small>${e(roleLabel(l.role).toLowerCase())}</small></span><span class="track"><i style="width:${(Math.min(1, Math.max(0, share)) * 100).toFixed(1)}%;background:${l.colour}"></i></span><span class="val">${l.talk_s < 60 ? formatDuration(l.talk_s) : formatClock(l.talk_s)} · ${pct(share)}</span></div>`
      })
      .join("")
  }</div>${isNum(input.metrics.silence_ratio) ? `<p class="note">Silence: ${pct(input.metrics.silence_ratio)} of the call.</p>` : ""}
</div>
</section>`)

  // scorecard
  parts.push(`<section class="card" id="scorecard">
<h2>Scorecard</h2>
<p class="lede">Each assessed dimension starts at ${SCORE_BASE}; every point added or removed links to its evidence. Dimensions that could not be assessed are left out of the overall score, never guessed.</p>
<table>
<thead><tr><th>Dimension</th><th class="score-cell">Score</th><th class="num">Weight</th><th>Basis and evidence</th></tr></thead>
<tbody>`)
  for (const d of dims) {
    const label = DIMENSION_LABELS[d.dimension] ?? d.dimension
    const weightText = `${Math.round(d.weight * 100)} %${
      d.assessed && d.score !== null && weightSum > 0 && Math.abs(weightSum - 1) > 1e-9
        ? `<small>counts ${Math.round((d.weight / weightSum) * 100)} %</small>`
        : ""
    }`
    if (!d.assessed || d.score === null) {
      parts.push(
        `<tr class="dim-off" id="dim-${e(d.dimension)}"><th scope="row">${e(label)}</th><td class="score-cell"><span class="not-assessed">Not assessed</span></td><td class="num">${weightText}</td><td><span class="why muted">${e(d.reason ?? "not assessed")}</span></td></tr>`
      )
      continue
    }
    const gd = grade(d.score)
    const links = evidence
      .filter((m) => m.item.dimension === d.dimension)
      .map((m) =>
        `<a class="ev ev-${effectKind(m.item.effect)}" href="#ev-${m.n}" title="${e(m.text)}">#${m.n} ${signed(m.item.effect)}</a>`
      )
      .join("")
    parts.push(
      `<tr id="dim-${e(d.dimension)}"><th scope="row">${e(label)}</th><td class="score-cell"><div class="meter meter-${gd}"><b>${Math.round(d.score)}</b><div class="meter-bar"><span style="width:${Math.min(100, Math.max(0, d.score)).toFixed(0)}%"></span></div></div></td><td class="num">${weightText}</td><td><div class="why">${e(d.reason ?? "")}</div>${links ? `<div class="ev-links">${links}</div>` : ""}</td></tr>`
    )
  }
  parts.push(
    `<tr class="total-row"><th scope="row">Overall</th><td class="score-cell">${
      overall === null ? `<span class="not-assessed">Not assessed</span>` : `<div class="meter meter-${g}"><b>${overall}</b><div class="meter-bar"><span style="width:${Math.min(100, Math.max(0, overall))}%"></span></div></div>`
    }</td><td class="num">${Math.round(weightSum * 100)} %<small>assessed</small></td><td><span class="why">Weighted mean of the assessed dimensions</span></td></tr>`
  )
  parts.push(`</tbody></table></section>`)

  // timeline
  parts.push(`<section class="card" id="timeline">
<h2>Speaker timeline</h2>
<p class="lede">Who spoke when, one lane per speaker. Numbered markers are the evidence behind the scores; select one to jump to it.</p>
${lanes.length > 0 ? timelineSvg(input, lanes, markers) : `<p class="na">No speech was found.</p>`}
<div class="legend">${lanes.map((l) => `<span><i style="background:${l.colour}"></i>${e(l.speaker)} · ${e(roleLabel(l.role).toLowerCase())}</span>`).join("")}<span><i style="background:var(--good)"></i>points added</span><span><i style="background:var(--poor)"></i>points removed</span><span><i style="background:#64748b"></i>no effect</span></div>
</section>`)

  // metrics
  parts.push(`<section class="card metrics" id="metrics">
<h2>Metrics and reference values</h2>
<p class="lede">Measured on this call, beside the published reference values they are judged against.</p>
<table>
<colgroup><col style="width:31%"><col style="width:16%"><col style="width:15%"><col></colgroup>
<thead><tr><th>Metric</th><th>This call</th><th>vs. reference</th><th>Reference</th></tr></thead>
<tbody>${metricRows(input.metrics)}</tbody>
</table>
</section>`)

  // evidence
  parts.push(`<section class="card evidence allow-break" id="evidence">
<h2>Evidence</h2>
<p class="lede">The moments behind every point${hasTranscript ? "" : "; quotes appear once there is a transcript"}.</p>`)
  if (evidence.length === 0) {
    parts.push(`<p class="na">No evidence: no dimension could be assessed.</p>`)
  } else {
    parts.push(`<table><thead><tr><th>#</th><th>Dimension</th><th>When</th><th>Speaker</th><th>Moment</th><th class="num">Effect</th></tr></thead><tbody>`)
    for (const m of evidence) {
      const when = wholeCall(m.item) ? "whole call" : `${formatClock(m.item.start)}–${formatClock(m.item.end)}`
      parts.push(
        `<tr id="ev-${m.n}"><td class="n">${m.n}</td><td><a href="#dim-${e(m.item.dimension)}">${e(DIMENSION_LABELS[m.item.dimension as DimensionName] ?? m.item.dimension)}</a></td><td class="when">${when}</td><td>${speakerCell(m.item.speaker)}</td><td>${e(m.text)}${
          m.item.quote !== null && !m.text.startsWith("“") ? `<small>“${e(m.item.quote)}”</small>` : ""
        }</td><td class="num effect effect-${effectKind(m.item.effect)}">${signed(m.item.effect)}</td></tr>`
      )
    }
    parts.push(`</tbody></table>`)
  }
  parts.push(`</section>`)

  // transcript, or what needs one
  if (input.transcript !== null) {
    parts.push(`<section class="card transcript allow-break" id="transcript"><h2>Transcript</h2><p class="lede">Words with their speakers and times.</p><table><tbody>${
      input.transcript
        .map((s) =>
          `<tr><td class="when">${formatClock(s.start)}</td><td class="who">${speakerCell(s.speaker)}</td><td>${e(s.text)}</td></tr>`
        )
        .join("")
    }</tbody></table></section>`)
  } else {
    parts.push(`<section class="card" id="needs-transcript">
<h2>Needs a transcript</h2>
<p class="lede">This analysis is acoustic-only. With a speech-to-text provider configured, the report adds:</p>
<ul class="pending">
<li><b>Qualification checklist</b><span>MEDDPICC elements covered: none, vague or specific</span></li>
<li><b>Objections and responses</b><span>What the buyer pushed back on and what the rep did next</span></li>
<li><b>Next steps</b><span>A concrete, dated next step with an owner</span></li>
<li><b>Transcript</b><span>Every turn with its speaker and time, and quotes in the evidence</span></li>
</ul>
</section>`)
  }

  // method note
  const diar = input.diarization === "channel"
    ? "one speaker per stereo channel"
    : input.diarization === "clustering"
    ? "clustering of voice features (mono)"
    : input.channels === 2
    ? "stereo channels"
    : "voice clustering"
  const rep = lanes.filter((l) => l.role === "rep")
  parts.push(`<section class="card method allow-break" id="method">
<h2>Method</h2>
<p>Method version <span class="version">${e(input.method_version)}</span>${
    hasTranscript ? "" : ` · <span class="flag">acoustic-only: no transcript</span>`
  }</p>
<p>Speech activity from frame energy and spectral features; speakers by ${e(diar)}; the rep is ${
    rep.length === 0
      ? "not identified"
      : rep
        .map((l) => `<b>${e(l.speaker)}</b>${l.confidence !== null ? ` (confidence ${pct(l.confidence)})` : ""}`)
        .join(", ")
  }, the buyer side is everyone else. ${
    hasTranscript
      ? "Words come from the configured speech-to-text provider."
      : "No speech-to-text provider was used, so nothing here depends on words: content dimensions are reported as not assessed."
  } Scoring is rule-based and deterministic: the same call always gives the same scores.</p>
<h3>Weights of the overall score</h3>
<table><thead><tr><th>Dimension</th><th class="num">Weight</th><th>In this call</th></tr></thead><tbody>${
    (Object.keys(DIMENSION_WEIGHTS) as Array<DimensionName>)
      .map((k) => {
        const d = dims.find((x) => x.dimension === k)
        const w = d?.weight ?? DIMENSION_WEIGHTS[k]
        return `<tr><td>${e(DIMENSION_LABELS[k])}</td><td class="num">${Math.round(w * 100)} %</td><td>${
          d && d.assessed && d.score !== null ? "assessed" : `<span class="na">not assessed, left out</span>`
        }</td></tr>`
      })
      .join("")
  }</tbody></table>
<h3>Scoring rules</h3>
<p>An assessed dimension starts at ${SCORE_BASE}; each rule adds or removes whole points within its range, so every dimension spans 0–100.</p>
<table><thead><tr><th>Dimension</th><th>Rule</th><th>Points</th><th>Evidence at</th><th>Reference</th></tr></thead><tbody>${
    SCORING_RULES.map((r) =>
      `<tr><td>${e(DIMENSION_LABELS[r.dimension])}</td><td>${e(r.label)}</td><td>${e(r.text)}</td><td>${e(r.moment)}</td><td>${
        r.reference ? e(r.reference) : `<span class="na">Callsight's own</span>`
      }</td></tr>`
    ).join("")
  }</tbody></table>
</section>
</main>
<footer>Callsight · call ${e(input.call_id)} · ${e(input.method_version)} · generated from the stored analysis</footer>
</body>
</html>
`)
  return parts.join("\n")
}
