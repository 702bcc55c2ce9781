/**
 * The transcript's anchors: an id for every segment, and the segment any moment of the call
 * belongs to, so that quotes, evidence and findings can link to the words.
 */
import type { TranscriptSegmentItem } from "../Types.js"
import { isNum } from "./Format.js"

/**
 * The anchors of the transcript: every segment gets the id `t-<start>` (seconds, one decimal;
 * `-2`, `-3`... when two segments start in the same tenth of a second), and any moment of the call
 * resolves to the segment being spoken then, or else the last one that started before it.
 */
export interface TranscriptIndex {
  readonly segments: ReadonlyArray<TranscriptSegmentItem>
  /** The id of segment i (in input order). */
  readonly ids: ReadonlyArray<string>
  /** Segment indexes in time order. */
  readonly order: ReadonlyArray<number>
  /** The index of the segment a moment belongs to, or null for an empty transcript. */
  readonly at: (t: number) => number | null
}

export const indexTranscript = (segments: ReadonlyArray<TranscriptSegmentItem>): TranscriptIndex => {
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
