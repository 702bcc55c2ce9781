/**
 * Which speaker is the rep (the closer) and which are the buyer side, from acoustic cues only
 * (a transcript adds the closer's name and the questions later).
 *
 * Stereo: the channel mapping — left is the rep unless the tenant configured the right.
 * Mono: the rep opens the call (reps place and run sales calls) and asks the questions; a
 * question is heard as a turn that ends with rising pitch. Each cue gives every speaker a
 * score; the confidence is how clearly the chosen speaker leads.
 */

export type Role = "rep" | "buyer" | "unknown"

export interface RoleAssignment {
  readonly roles: ReadonlyArray<Role>
  readonly confidence: ReadonlyArray<number>
}

/** Per speaker: how it was heard (from the diarized turns). */
export interface SpeakerCues {
  /** When the speaker first speaks, seconds. */
  readonly firstSpeechS: number
  /** Turns of the speaker long enough to judge their ending. */
  readonly judgedTurns: number
  /** Of those, turns ending with rising pitch (question-like). */
  readonly risingEndings: number
}

export const assignRolesByChannel = (
  speakers: number,
  repChannel: "left" | "right" | undefined
): RoleAssignment => {
  const rep = repChannel === "right" ? 1 : 0
  // a configured mapping is the tenant's word; the default is a convention most recorders follow
  const confidence = repChannel === undefined ? 0.9 : 1
  return {
    roles: Array.from({ length: speakers }, (_, s) => (s === rep ? "rep" : "buyer")),
    confidence: Array.from({ length: speakers }, () => confidence)
  }
}

const semitones = (hz: number) => 12 * Math.log2(hz / 100)

/**
 * Whether a turn ends with rising pitch, as yes/no questions do: a line fitted to the pitch of
 * the last voiced 0.2 s (the final syllable) climbs by more than 2 semitones. Frames more than
 * 5 semitones off the median are octave errors of the tracker and are left out. `undefined`
 * when the turn ends with too little voiced speech to judge.
 */
export const risingEnding = (pitch: Float32Array, start: number, end: number, frameRate = 100): boolean | undefined => {
  let last = end - 1
  while (last >= start && !(pitch[last]! > 0)) last--
  if (last < start) return undefined
  const points: Array<readonly [number, number]> = []
  for (let i = last; i >= Math.max(start, last - Math.round(0.5 * frameRate)) && points.length < 0.2 * frameRate; i--) {
    if (pitch[i]! > 0) points.push([i, semitones(pitch[i]!)])
  }
  if (points.length < 0.1 * frameRate) return undefined
  const sorted = points.map(([, v]) => v).sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]!
  const kept = points.filter(([, v]) => Math.abs(v - median) <= 5)
  if (kept.length < 0.1 * frameRate) return undefined
  const meanX = kept.reduce((a, [x]) => a + x, 0) / kept.length
  const meanY = kept.reduce((a, [, y]) => a + y, 0) / kept.length
  let sxy = 0, sxx = 0
  for (const [x, y] of kept) {
    sxy += (x - meanX) * (y - meanY)
    sxx += (x - meanX) ** 2
  }
  const span = kept[0]![0] - kept[kept.length - 1]![0]
  return sxx > 0 && (sxy / sxx) * span > 2
}

// Asking the questions weighs a little more than opening the call (someone else may pick up
// first); the question cue only counts once there are a few question-like endings to go on
// (the pitch tracker errs now and then).
const FIRST_SPEAKER_WEIGHT = 0.45
const QUESTION_WEIGHT = 0.55
const MIN_QUESTIONS = 3

export const assignRolesByCues = (cues: ReadonlyArray<SpeakerCues>): RoleAssignment => {
  const n = cues.length
  if (n < 2) return { roles: cues.map(() => "unknown"), confidence: cues.map(() => 0) }
  const first = cues.reduce((best, c, s) => (c.firstSpeechS < cues[best]!.firstSpeechS ? s : best), 0)
  const questions = cues.reduce((sum, c) => sum + c.risingEndings, 0)
  const questionShare = cues.map((c) => (questions >= MIN_QUESTIONS ? c.risingEndings / questions : 1 / n))
  const score = cues.map((_, s) => FIRST_SPEAKER_WEIGHT * (s === first ? 1 : 0) + QUESTION_WEIGHT * questionShare[s]!)
  const rep = score.reduce((best, v, s) => (v > score[best]! ? s : best), 0)
  const runnerUp = Math.max(...score.filter((_, s) => s !== rep))
  // 0.5 when the cues cancel out, ~0.64 on the opening alone, 0.8 when both cues agree fully
  const confidence = Math.min(0.95, 0.5 + 0.3 * (score[rep]! - runnerUp))
  return {
    roles: cues.map((_, s) => (s === rep ? "rep" : "buyer")),
    confidence: cues.map(() => Math.round(confidence * 100) / 100)
  }
}
