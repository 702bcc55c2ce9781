/**
 * What the report's sections read: the input with what is derived from it once (the speakers'
 * lanes, the numbered evidence, the overall score's basis and grade, the LLM's part, the
 * transcript's anchors), and the small pieces of markup the sections share.
 */
import { overallBasis } from "../scoring/Dimensions.js"
import { describeEvidence } from "../scoring/Explanations.js"
import { findMoments } from "../scoring/Moments.js"
import type { EvidenceItem } from "../Types.js"
import { indexTranscript } from "./Anchors.js"
import { e, formatClock, grade, isNum } from "./Format.js"
import { lookup, PROVIDER_LABELS } from "./Labels.js"
import type { ReportInput } from "./Report.js"
import { lanesOf, roleLabel, UNKNOWN_COLOUR } from "./Speakers.js"

/** An evidence item as the report numbers it (`#n`), with its text. */
export interface Marker {
  readonly n: number
  readonly item: EvidenceItem
  readonly text: string
}

/** The mark of an item the tenant's LLM found. */
export const llmMark = (source: string | undefined) => (source === "llm" ? `<span class="src-llm" title="Found by the tenant's LLM; its quote is in the transcript">LLM</span>` : "")

/** An effect's class: points removed, added, or none. */
export const effectKind = (n: number) => (n < 0 ? "neg" : n > 0 ? "pos" : "zero")

/** The view of one call's report: everything the sections share, derived once. */
export const viewOf = (input: ReportInput) => {
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
  const hasTranscript = input.transcript !== null
  const overallGrade = overall === null ? null : partial !== null ? "partial" : grade(overall)

  const speakerCell = (speaker: string | null) => {
    if (speaker === null) return `<span class="na">both sides</span>`
    const lane = laneOf.get(speaker)
    return `<span class="spk"><i style="background:${lane?.colour ?? UNKNOWN_COLOUR}"></i>${e(speaker)}${lane ? ` <small style="display:inline">${e(roleLabel(lane.role).toLowerCase())}</small>` : ""}</span>`
  }

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
  const providerName = transcription === null ? null : lookup(PROVIDER_LABELS, transcription.provider.toLowerCase()) ?? transcription.provider

  return {
    input,
    lanes,
    laneOf,
    evidence,
    duration,
    wholeCall,
    markers,
    dims,
    assessed,
    overall,
    basis,
    partial,
    overallGrade,
    llm,
    assistedBy,
    hasTranscript,
    speakerCell,
    tx,
    showTranscript,
    anchorAt,
    momentLink,
    objections,
    nextSteps,
    qualification,
    transcription,
    providerName
  } as const
}

/** What every section of the report reads. */
export type ReportView = ReturnType<typeof viewOf>
