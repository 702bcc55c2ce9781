/**
 * The call report (ANALYSIS.md step 8): one self-contained HTML page. No scripts, no external
 * fonts, images or style sheets: it opens offline, prints cleanly, and can be saved as a file.
 * Every string from the input is escaped (external ids, speaker labels and transcript words are
 * user-supplied).
 *
 * Sections: header (call id, external id, date, duration, speakers), overall score, scorecard
 * (with "not assessed" and the reason where it applies, weights, links from each score to its
 * evidence and, with a transcript, the quotes behind it linked to their moment), speaker timeline
 * (inline SVG, one lane per speaker, evidence markers linking to the evidence list), talk-ratio
 * chart with the 43 % reference, metrics beside their reference values, and with a transcript the
 * qualification checklist, objections and the rep's responses, next steps, the evidence list, and
 * the transcript itself (every segment anchored as `t-<start>`, so any moment can be linked; left
 * out with a line saying so when `include_transcript` is false, the quotes and links to it then
 * staying as plain times); without one, what needs a transcript. It ends with a method note:
 * `method_version`, the speech-to-text provider and how far its diarization agrees with ours, the
 * tenant's LLM when one assisted (which dimensions, what it added and dropped, or why it gave
 * nothing), the weights and the scoring rules. An overall score resting on fewer than 4 of the 6
 * dimensions is shown "partial (n of 6)", in a neutral colour and without a grade word.
 */
import {
  DIMENSION_LABELS,
  DIMENSION_WEIGHTS,
  type DimensionName,
  describeEvidence,
  findMoments,
  overallBasis,
  SCORE_BASE,
  SCORING_RULES
} from "../scoring/Scorecard.js"
import { escapeHtml } from "./Html.js"
import type {
  EvidenceItem,
  Metrics,
  NextStepItem,
  ObjectionItem,
  QualificationResult,
  ScorecardResult,
  SpeakerSummary,
  TranscriptionInfo,
  TranscriptSegmentItem,
  Turn
} from "../Types.js"

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
  readonly transcript: ReadonlyArray<TranscriptSegmentItem> | null
  readonly closer_email?: string | null
  readonly diarization?: "channel" | "clustering" | null
  /** The qualification checklist; null (or absent) when it was not assessed. Shown with a transcript. */
  readonly qualification?: QualificationResult | null
  /** Objections raised by the buyer side and the rep's responses. Shown with a transcript. */
  readonly objections?: ReadonlyArray<ObjectionItem>
  /** Next steps agreed on the call. Shown with a transcript. */
  readonly next_steps?: ReadonlyArray<NextStepItem>
  /** The speech-to-text provider behind the transcript, for the method note. */
  readonly transcription?: TranscriptionInfo | null
  /**
   * Show the transcript section (default true; the tenant's runtime flag `report.include_transcript`).
   * When false the transcript is left out, but the quotes, checklist, objections and next steps stay.
   */
  readonly include_transcript?: boolean
  /** What the tenant's LLM added (null or absent: none ran). */
  readonly llm?: {
    readonly provider: string
    readonly model: string
    readonly assisted_dimensions: ReadonlyArray<string>
    readonly added_items: number
    readonly dropped_items: number
    readonly error: string | null
  } | null
}

// ---------------------------------------------------------------------------------------------
// Escaping and formatting


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

/** Shorten text to about `max` characters at a word boundary (before escaping). */
const clip = (text: string, max: number): string => {
  const t = text.replace(/\s+/g, " ").trim()
  if (t.length <= max) return t
  const cut = t.slice(0, max)
  const space = cut.lastIndexOf(" ")
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.…-]+$/, "")}…`
}

// ---------------------------------------------------------------------------------------------
// Transcript anchors

/**
 * The anchors of the transcript: every segment gets the id `t-<start>` (seconds, one decimal;
 * `-2`, `-3`... when two segments start in the same tenth of a second), and any moment of the call
 * resolves to the segment being spoken then, or else the last one that started before it.
 */
interface TranscriptIndex {
  readonly segments: ReadonlyArray<TranscriptSegmentItem>
  /** The id of segment i (in input order). */
  readonly ids: ReadonlyArray<string>
  /** Segment indexes in time order. */
  readonly order: ReadonlyArray<number>
  /** The index of the segment a moment belongs to, or null for an empty transcript. */
  readonly at: (t: number) => number | null
}

const indexTranscript = (segments: ReadonlyArray<TranscriptSegmentItem>): TranscriptIndex => {
  const used = new Set<string>()
  const ids = segments.map((seg) => {
    const base = `t-${Math.round(Math.max(0, isNum(seg.start) ? seg.start : 0) * 10) / 10}`
    let id = base
    for (let k = 2; used.has(id); k++) id = `${base}-${k}`
    used.add(id)
    return id
  })
  const order = segments.map((_, i) => i).sort((a, b) => segments[a]!.start - segments[b]!.start || a - b)
  const at = (t: number): number | null => {
    const time = isNum(t) ? t : 0
    let spoken: number | null = null // the latest-starting segment that covers `time`
    let before: number | null = null // the latest segment that started by `time`
    for (const i of order) {
      const seg = segments[i]!
      if (seg.start > time + 0.05) break
      before = i
      if (time <= seg.end + 0.05) spoken = i
    }
    return spoken ?? before ?? order[0] ?? null
  }
  return { segments, ids, order, at }
}

// ---------------------------------------------------------------------------------------------
// Labels

/** `record[key]` when the key is the record's own (never an inherited `constructor` or `__proto__`). */
const lookup = <V>(record: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined

const dimensionLabel = (dimension: string): string => lookup(DIMENSION_LABELS, dimension) ?? dimension

const PROVIDER_LABELS: Record<string, string> = { deepgram: "Deepgram", assemblyai: "AssemblyAI", openai: "OpenAI" }

/** The qualification elements of MEDDPICC, BANT and SPIN (wire names), with what each one asks. */
const ELEMENTS: Record<string, { readonly label: string; readonly hint: string }> = {
  metrics: { label: "Metrics", hint: "the buyer's numbers: cost, targets, gains" },
  economic_buyer: { label: "Economic buyer", hint: "who signs, and whether they are involved" },
  decision_criteria: { label: "Decision criteria", hint: "what the choice will be judged on" },
  decision_process: { label: "Decision process", hint: "the steps and people to a decision" },
  paper_process: { label: "Paper process", hint: "procurement, legal and signature" },
  identify_pain: { label: "Identify pain", hint: "the problem and what it costs" },
  champion: { label: "Champion", hint: "someone inside who sells for you" },
  competition: { label: "Competition", hint: "the alternatives in play" },
  budget: { label: "Budget", hint: "money set aside, and how much" },
  authority: { label: "Authority", hint: "who decides" },
  need: { label: "Need", hint: "the problem to solve" },
  timeline: { label: "Timeline", hint: "when a decision is due" },
  situation: { label: "Situation", hint: "the buyer's current state" },
  problem: { label: "Problem", hint: "what is not working" },
  implication: { label: "Implication", hint: "what the problem leads to" },
  need_payoff: { label: "Need-payoff", hint: "the value of solving it" }
}

/** "economic_buyer" → Economic buyer and its hint; an unknown element in words, without a hint. */
const elementOf = (element: string): { readonly label: string; readonly hint: string | null } => {
  const known = lookup(ELEMENTS, element.trim().toLowerCase().replace(/[\s-]+/g, "_"))
  if (known) return known
  const words = element.replace(/_/g, " ").trim()
  return { label: words.length > 0 ? words.charAt(0).toUpperCase() + words.slice(1) : "—", hint: null }
}

const LEVELS = [
  { cls: "none", label: "Not covered" },
  { cls: "vague", label: "Vague" },
  { cls: "specific", label: "Specific" }
] as const

const OBJECTION_LABELS: Record<ObjectionItem["kind"], string> = {
  price: "Price",
  budget: "Budget",
  timing: "Timing",
  authority: "Authority",
  need: "Need",
  competitor: "Competitor"
}

const RESPONSES: Record<ObjectionItem["response"], { readonly label: string; readonly tone: "ok" | "warn" | "bad" | "neutral"; readonly hint: string }> = {
  pause: { label: "Paused, then answered", tone: "ok", hint: "let the objection land before answering" },
  question_back: { label: "Asked a question back", tone: "ok", hint: "explored the objection before answering it" },
  long_pitch: { label: "Answered with a long pitch", tone: "bad", hint: "talked over the objection" },
  other: { label: "Other response", tone: "neutral", hint: "" }
}

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

const scoreRing = (score: number | null, partial: { readonly assessed: number; readonly of: number } | null): string => {
  const r = 52
  const c = 2 * Math.PI * r
  const g = score === null ? null : partial !== null ? "partial" : grade(score)
  const arc = score === null
    ? ""
    : `<circle class="ring-value ring-${g}" cx="64" cy="64" r="${r}" stroke-dasharray="${((score / 100) * c).toFixed(2)} ${c.toFixed(2)}" transform="rotate(-90 64 64)"/>`
  const label = score === null
    ? "Overall score not assessed"
    : partial !== null
    ? `Overall score ${score} of 100, partial: from ${partial.assessed} of ${partial.of} dimensions`
    : `Overall score ${score} of 100`
  return `<svg class="ring" viewBox="0 0 128 128" role="img" aria-label="${label}">
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
      `<a href="#ev-${m.n}" class="pin pin-${kind}"><title>#${m.n} ${e(dimensionLabel(m.item.dimension))} ${signed(m.item.effect)}: ${e(m.text)} (${formatClock(m.item.start)}–${formatClock(m.item.end)})</title>` +
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
.ring-good{stroke:var(--good)}.ring-fair{stroke:#d97706}.ring-poor{stroke:var(--poor)}.ring-partial{stroke:#94a3b8}
.ring-number{font-size:36px;font-weight:700;fill:var(--ink)}
.ring-of{font-size:11px;fill:var(--muted)}
.overall h2{margin-bottom:6px}
.grade{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:2px 10px;margin-bottom:8px}
.grade-good{background:var(--good-bg);color:var(--good)}.grade-fair{background:var(--fair-bg);color:var(--fair)}.grade-poor{background:var(--poor-bg);color:var(--poor)}.grade-none{background:#f1f5f9;color:var(--muted)}.grade-partial{background:#f8fafc;color:var(--ink-2);border:1px dashed var(--line-2)}
.llm-note{margin-top:8px!important;font-size:12.5px!important;color:var(--muted)!important}
.src-llm{display:inline-block;font-size:10.5px;font-weight:700;letter-spacing:.04em;border-radius:4px;padding:0 5px;margin-left:6px;background:#ede9fe;color:#5b21b6;vertical-align:1px}
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
.meter-good span{background:var(--good)}.meter-fair span{background:#d97706}.meter-poor span{background:var(--poor)}.meter-partial span{background:#94a3b8}
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
.metrics td.value .na{white-space:normal}
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
.card-head{display:flex;align-items:center;gap:10px;margin-bottom:4px}
.card-head h2{margin:0}
.framework{font-size:11.5px;font-weight:700;letter-spacing:.08em;color:var(--accent);background:#eef2ff;border:1px solid #c7d2fe;border-radius:6px;padding:1px 8px}
.mono,.ts{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace}
.ts{font-size:12px;font-weight:500;white-space:nowrap;color:var(--accent)}
span.ts{color:var(--muted)}
a.ts{border-radius:4px;padding:0 3px;margin:0 -3px}
a.ts:hover{background:#eef2ff;text-decoration:none}
.quote{color:var(--ink)}
.quotes{list-style:none;margin:8px 0 0;padding:0;display:grid;gap:5px}
.quotes li{display:grid;grid-template-columns:auto 1fr;gap:10px;align-items:baseline;font-size:13px;padding:5px 8px 5px 0;border-left:3px solid var(--line);padding-left:9px}
.quotes li:has(.ev-pos){border-left-color:#86efac}
.quotes li:has(.ev-neg){border-left-color:#fca5a5}
.quotes .ev{font-size:11.5px}
.quotes .quote{color:var(--ink-2)}
.q-head{display:grid;grid-template-columns:auto 1fr auto;gap:18px;align-items:center;margin:0 0 16px;padding:12px 16px;background:#f8fafc;border:1px solid var(--line);border-radius:10px}
.q-total{display:flex;align-items:baseline;gap:8px;white-space:nowrap}
.q-total b{font-size:24px;font-weight:700;line-height:1}
.q-total span{color:var(--muted);font-size:12.5px}
.q-bar{display:flex;height:10px;border-radius:999px;overflow:hidden;gap:2px;background:#fff}
.q-bar i{display:block;height:100%}
.q-counts{display:flex;gap:14px;font-size:12.5px;color:var(--ink-2);white-space:nowrap}
.q-counts span{display:inline-flex;align-items:center;gap:6px}
.q-counts i{width:10px;height:10px;border-radius:3px;display:inline-block}
i.lvl-specific{background:var(--good)}i.lvl-vague{background:#f59e0b}i.lvl-none{background:#cbd5e1}
.lvl-text-none{color:var(--muted)}.lvl-text-vague{color:var(--fair)}.lvl-text-specific{color:var(--good)}
.checklist{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:1fr 1fr;gap:10px}
.q{display:grid;grid-template-columns:34px 1fr auto;gap:12px;align-items:start;border:1px solid var(--line);border-radius:10px;padding:11px 14px 11px 11px;background:#fff;break-inside:avoid;page-break-inside:avoid}
.q:target{outline:2px solid var(--accent);outline-offset:1px}
.q-letter{width:34px;height:34px;border-radius:8px;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:15px}
.lvl-specific .q-letter{background:var(--good-bg);color:var(--good)}
.lvl-vague .q-letter{background:var(--fair-bg);color:var(--fair)}
.lvl-none .q-letter{background:#f1f5f9;color:#94a3b8}
.lvl-none{background:#fcfcfd}
.q-name{display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 8px}
.q-name b{font-size:13.5px}
.q-name small{display:inline}
.lvl-none .q-name b{color:var(--ink-2)}
.q-quote{margin-top:4px;font-size:12.5px;color:var(--ink-2);display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 8px}
.q-quote .quote{color:var(--ink-2);flex-basis:100%}
.q-quote.na{font-size:12px}
.q-who{font-size:11.5px;color:var(--muted)}
.q-who small{font-size:11px}
.q-level{display:grid;grid-template-columns:auto auto;grid-template-rows:auto auto;column-gap:8px;align-items:center;justify-items:end;text-align:right}
.q-score{font-size:18px;font-weight:700;line-height:1}
.lvl-specific .q-score{color:var(--good)}.lvl-vague .q-score{color:var(--fair)}.lvl-none .q-score{color:#94a3b8}
.q-label{grid-column:1 / span 2;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-top:3px;white-space:nowrap}
.lvl-specific .q-label{color:var(--good)}.lvl-vague .q-label{color:var(--fair)}
.pips{display:inline-flex;gap:3px}
.pips i{width:14px;height:6px;border-radius:999px;background:#e2e8f0;display:inline-block}
.lvl-specific .pips i.on{background:var(--good)}.lvl-vague .pips i.on{background:#f59e0b}
.kind{display:inline-block;font-size:12px;font-weight:600;border-radius:6px;padding:1px 8px;background:#fff7ed;color:#c2410c;border:1px solid #fed7aa;white-space:nowrap}
.kind-competitor{background:#fdf4ff;color:#a21caf;border-color:#f5d0fe}
.kind-timing{background:#ecfeff;color:#0e7490;border-color:#a5f3fc}
.kind-authority{background:#f0f9ff;color:#0369a1;border-color:#bae6fd}
.kind-need{background:#f8fafc;color:#475569;border-color:var(--line-2)}
.badge-neutral{background:#f1f5f9;color:var(--ink-2)}
.objections td small,.next-steps td small{margin-top:3px}
.reply{margin-top:6px;font-size:12.5px;display:flex;flex-wrap:wrap;gap:2px 8px;align-items:baseline;padding-left:9px;border-left:3px solid #c7d2fe}
.reply .quote{color:var(--ink-2)}
.objections tr:target td,.next-steps tr:target td{background:#eef2ff}
.next-steps td b{font-weight:600}
.segments{list-style:none;margin:0;padding:0}
.seg{display:grid;grid-template-columns:56px 120px 1fr;gap:14px;padding:9px 6px;border-top:1px solid var(--line);break-inside:avoid;page-break-inside:avoid}
.seg:first-child{border-top:0}
.seg:target{background:#eef2ff;border-radius:8px}
.seg .ts{padding-top:2px}
.seg-who{display:flex;flex-direction:column;min-width:0}
.seg-who b{display:flex;align-items:center;gap:7px;font-size:13px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.seg-who b i{width:9px;height:9px;border-radius:50%;background:var(--c);flex:none;display:inline-block}
.seg-who small{padding-left:16px;font-size:11.5px}
.seg-text{border-left:3px solid var(--c);padding-left:12px;min-width:0}
.seg-text p{margin:0;color:var(--ink);overflow-wrap:anywhere}
.seg-rep .seg-text p{color:var(--ink-2)}
.tags{display:flex;flex-wrap:wrap;gap:5px;margin-top:6px}
.tag{font-size:11.5px;font-weight:600;border-radius:999px;padding:0 9px;line-height:20px;border:1px solid var(--line);background:#f8fafc;color:var(--ink-2)}
.tag:hover{text-decoration:none;border-color:var(--line-2)}
.tag-ev-pos{color:var(--good);background:var(--good-bg);border-color:#bbf7d0}
.tag-ev-neg{color:var(--poor);background:var(--poor-bg);border-color:#fecaca}
.tag-obj{color:#c2410c;background:#fff7ed;border-color:#fed7aa}
.tag-ns{color:#0369a1;background:#f0f9ff;border-color:#bae6fd}
.tag-q{color:var(--accent);background:#eef2ff;border-color:#c7d2fe}
.method p{margin:0 0 10px;color:var(--ink-2);font-size:13px}
.method h3{font-size:13px;margin:18px 0 6px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.method table{font-size:12.5px}
.method td,.method th{padding:7px 10px}
.version{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;background:#f1f5f9;border:1px solid var(--line);border-radius:6px;padding:1px 7px;font-size:12.5px;color:var(--ink)}
.flag{display:inline-block;background:var(--fair-bg);color:var(--fair);font-weight:600;border-radius:6px;padding:1px 8px;font-size:12.5px}
footer{color:var(--muted);font-size:12px;text-align:center;padding:0 0 32px}
@media (max-width:820px){.summary{grid-template-columns:1fr}.overall{flex-direction:row}.score-cell{width:24%}.checklist{grid-template-columns:1fr}.q-head{grid-template-columns:1fr}}
@media (max-width:600px){.seg{grid-template-columns:56px 1fr}.seg-text{grid-column:1 / -1}}
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
  // results stored before overall_basis existed: read off their dimensions
  const basis = input.scorecard.overall_basis ?? overallBasis(dims)
  const partial = overall !== null && basis.partial ? basis : null
  const llm = input.llm ?? null
  const assistedBy = new Set(llm !== null && llm.error === null ? llm.assisted_dimensions : [])
  const llmMark = (source: string | undefined) => (source === "llm" ? `<span class="src-llm" title="Found by the tenant's LLM; its quote is in the transcript">LLM</span>` : "")
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

  // the transcript's anchors, and links from any moment to it (when the transcript is shown)
  const tx = input.transcript !== null ? indexTranscript(input.transcript) : null
  const showTranscript = tx !== null && input.include_transcript !== false
  const anchorAt = (t: number): string | null => {
    const i = showTranscript ? tx!.at(t) : null
    return i === null ? null : tx!.ids[i]!
  }
  const momentLink = (t: number): string => {
    const id = anchorAt(t)
    const label = formatClock(t)
    return id === null
      ? `<span class="ts">${label}</span>`
      : `<a class="ts" href="#${e(id)}" title="Jump to ${label} in the transcript">${label}</a>`
  }
  const objections = input.objections ?? []
  const nextSteps = input.next_steps ?? []
  const qualification = input.qualification ?? null
  const transcription = input.transcription ?? null
  const agreement = transcription !== null && isNum(transcription.diarization_agreement)
    ? Math.min(1, Math.max(0, transcription.diarization_agreement))
    : null
  const providerName = transcription === null ? null : lookup(PROVIDER_LABELS, transcription.provider.toLowerCase()) ?? transcription.provider

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
  if (hasTranscript && transcription !== null) {
    facts.push(["Transcript", `${providerName} · ${transcription.model}`, false])
  }
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
  const g = overall === null ? null : partial !== null ? "partial" : grade(overall)
  const llmLine = llm === null
    ? ""
    : llm.error !== null
    ? `<p class="llm-note">The tenant's LLM (${e(llm.provider)} · ${e(llm.model)}) gave no assessment: ${e(clip(llm.error, 200))}. The scores are the rules' alone.</p>`
    : `<p class="llm-note">${
      assistedBy.size === 0
        ? `The tenant's LLM (${e(llm.provider)} · ${e(llm.model)}) found nothing the rules had not.`
        : `LLM-assisted: <b>${[...assistedBy].map((d) => e(dimensionLabel(d))).join(", ")}</b> (${e(llm.provider)} · ${e(llm.model)}): ${llm.added_items} verified item${llm.added_items === 1 ? "" : "s"} added, marked LLM.`
    }${llm.dropped_items > 0 ? ` ${llm.dropped_items} item${llm.dropped_items === 1 ? "" : "s"} dropped: not found in the transcript.` : ""}</p>`
  parts.push(`<section class="summary">
<div class="card" id="overall"><div class="overall">${scoreRing(overall, partial)}<div>
<h2>Overall score</h2>
<span class="grade grade-${g ?? "none"}">${g === null ? "Not assessed" : g === "partial" ? `Partial (${basis.assessed} of ${basis.of})` : GRADE_LABEL[g]}</span>
<p>Weighted mean of the <b>${assessed.length} of ${dims.length}</b> dimensions that could be assessed.${
    assessed.length < dims.length && !hasTranscript ? " The others need a transcript." : ""
  }${partial !== null ? " Fewer than 4 of 6 were assessed: a partial score, with no grade." : ""}</p>${llmLine}
</div></div>
<ul class="dimlist">${
    dims
      .map((d) => {
        const label = e(dimensionLabel(d.dimension))
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
    const label = dimensionLabel(d.dimension)
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
    const mine = evidence.filter((m) => m.item.dimension === d.dimension)
    const quoted = mine.filter((m) => m.item.quote !== null && m.item.quote.trim().length > 0)
    const quotes = quoted
      .map((m) =>
        `<li><a class="ev ev-${effectKind(m.item.effect)}" href="#ev-${m.n}" title="Evidence #${m.n}">#${m.n} ${signed(m.item.effect)}</a><span><span class="quote">“${
          e(clip(m.item.quote!, 220))
        }”</span> ${momentLink(m.item.start)}${llmMark(m.item.source)}</span></li>`
      )
      .join("")
    const links = mine
      .filter((m) => !quoted.includes(m))
      .map((m) =>
        `<a class="ev ev-${effectKind(m.item.effect)}" href="#ev-${m.n}" title="${e(m.text)}">#${m.n} ${signed(m.item.effect)}</a>`
      )
      .join("")
    parts.push(
      `<tr id="dim-${e(d.dimension)}"><th scope="row">${e(label)}${assistedBy.has(d.dimension) ? `<small>LLM-assisted</small>` : ""}</th><td class="score-cell"><div class="meter meter-${gd}"><b>${Math.round(d.score)}</b><div class="meter-bar"><span style="width:${Math.min(100, Math.max(0, d.score)).toFixed(0)}%"></span></div></div></td><td class="num">${weightText}</td><td><div class="why">${e(d.reason ?? "")}</div>${links ? `<div class="ev-links">${links}</div>` : ""}${
        quotes ? `<ul class="quotes">${quotes}</ul>` : ""
      }</td></tr>`
    )
  }
  parts.push(
    `<tr class="total-row"><th scope="row">Overall</th><td class="score-cell">${
      overall === null ? `<span class="not-assessed">Not assessed</span>` : `<div class="meter meter-${g}"><b>${overall}</b><div class="meter-bar"><span style="width:${Math.min(100, Math.max(0, overall))}%"></span></div></div>`
    }</td><td class="num">${Math.round(weightSum * 100)} %<small>assessed</small></td><td><span class="why">Weighted mean of the assessed dimensions${
      partial !== null ? `: partial (${partial.assessed} of ${partial.of}), no grade` : ""
    }</span></td></tr>`
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
<tbody>${metricRows(input.metrics, hasTranscript)}</tbody>
</table>
</section>`)

  if (hasTranscript) {
    // qualification checklist
    if (qualification === null) {
      parts.push(`<section class="card" id="qualification">
<h2>Qualification checklist</h2>
<p class="na">Not assessed for this call.</p>
</section>`)
    } else {
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
      parts.push(`<section class="card" id="qualification">
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
</section>`)
    }

    // objections, each with the rep's first words after it (within 30 s)
    const replyTo = (o: ObjectionItem): TranscriptSegmentItem | null =>
      tx!.order
        .map((i) => tx!.segments[i]!)
        .find((seg) => seg.start > o.at && seg.start <= o.at + 30 && laneOf.get(seg.speaker)?.role === "rep") ?? null
    parts.push(`<section class="card objections" id="objections">
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
</section>`)

    // next steps
    parts.push(`<section class="card next-steps" id="next-steps">
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
</section>`)
  }

  // evidence
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

  // transcript (or a line saying it is left out), or what needs one
  if (showTranscript) {
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
    parts.push(`<section class="card transcript allow-break" id="transcript">
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
</section>`)
  } else if (hasTranscript) {
    parts.push(`<section class="card" id="transcript">
<h2>Transcript</h2>
<p class="na">The transcript is left out of this report (the tenant's <code>report.include_transcript</code> setting); the quotes above come from it.</p>
</section>`)
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
    !hasTranscript
      ? ` · <span class="flag">acoustic-only: no transcript</span>`
      : transcription !== null
      ? ` · transcript by <b>${e(providerName)}</b> <span class="version">${e(transcription.model)}</span>`
      : ""
  }</p>
<p>Speech activity from frame energy and spectral features; speakers by ${e(diar)}; the rep is ${
    rep.length === 0
      ? "not identified"
      : rep
        .map((l) => `<b>${e(l.speaker)}</b>${l.confidence !== null ? ` (confidence ${pct(l.confidence)})` : ""}`)
        .join(", ")
  }, the buyer side is everyone else. ${
    !hasTranscript
      ? "No speech-to-text provider was used, so nothing here depends on words: content dimensions are reported as not assessed."
      : `Words come from the ${transcription !== null ? "" : "configured "}speech-to-text provider, each attached to a speaker turn by time overlap${
        transcription === null
          ? ""
          : agreement !== null
          ? `; the provider's own speaker labels agree with ours on <b>${pct(agreement)}</b> of speech time`
          : "; the provider does not tell speakers apart, so there is no second opinion on ours"
      }.`
  } Scoring is rule-based and deterministic: the same call always gives the same scores.</p>${
    llm === null
      ? ""
      : `<p>LLM assistance: the transcript was sent to the tenant's LLM (<b>${e(llm.provider)}</b> <span class="version">${e(llm.model)}</span>), which named objections, next steps, pains, value claims and qualification evidence, each quoting the transcript. Items whose quote is not in the transcript are dropped (${llm.dropped_items} on this call); the others are merged with the rules' findings, marked LLM, and the dimensions they touch are scored by the same rules${
        llm.error !== null ? `. On this call it gave nothing (${e(clip(llm.error, 200))}), so the rules' result stands.` : "."
      }</p>`
  }
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
