/**
 * The acoustic analysis of one call (docs/method.md steps 1–3, 5, 6): decode → speech activity →
 * speakers → roles → the metrics that need no words.
 *
 * One streaming pass decodes the file and keeps only per-frame features (`Features.ts`); the
 * rest works on those. The format is sniffed from the bytes again here (the upload did too), so
 * a renamed file is read by the decoder its bytes call for.
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import { detectSpeech } from "./Activity.js"
import { decodeFile, DecodeFailure } from "./Decode.js"
import { channelsSeparable, diarizeChannels, diarizeMono, type Diarization } from "./Diarize.js"
import { createFeatureExtractor, FRAME_RATE, type CallFeatures } from "./Features.js"
import { acousticMetrics, unionLength } from "./Metrics.js"
import { assignRolesByChannel, assignRolesByCues, risingEnding, type RoleAssignment, type SpeakerCues } from "./Roles.js"
import { SNIFF_BYTES, sniffFormat } from "./Sniff.js"
import { AnalysisFailed, type AcousticAnalysis, type AnalysisStage, type AudioFormat, type RepChannelDecision, type SpeakerSummary, type Turn } from "../Types.js"

export interface AcousticOptions {
  /** The format the upload sniffed; the bytes are sniffed again and win if they disagree. */
  readonly format: AudioFormat
  /**
   * Stereo: the channel that carries the rep (default left); `auto` takes the acoustic cues'
   * choice here (`assignRolesByCues`), which the words may overrule later (`RepChannel.ts`).
   */
  readonly repChannel?: "left" | "right" | "auto"
  readonly onProgress?: (stage: AnalysisStage, fraction: number) => void
}

/** Calls shorter than this are not analysed. */
export const MIN_DURATION_S = 2
/** Less speech than this in the whole call is no conversation. */
const MIN_SPEECH_S = 1

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits

const readHead = (path: string) =>
  Effect.tryPromise({
    try: async () => {
      const handle = await fs.promises.open(path, "r")
      try {
        const buffer = new Uint8Array(SNIFF_BYTES)
        const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0)
        return buffer.subarray(0, bytesRead)
      } finally {
        await handle.close()
      }
    },
    catch: (cause) => new AnalysisFailed({ code: "undecodable_audio", message: `The file could not be read: ${String(cause)}` })
  })

/** Decodes the file and extracts its per-frame features in one streaming pass. */
const extractFeatures = (path: string, format: AudioFormat, onProgress?: AcousticOptions["onProgress"]) =>
  Effect.tryPromise({
    try: async (signal) => {
      let extractor: ReturnType<typeof createFeatureExtractor> | undefined
      let sourceChannels = 0
      for await (const chunk of decodeFile(path, format, {
        signal,
        borrow: true, // each chunk is framed (copied) before the next is asked for
        onProgress: (fraction) => onProgress?.("decode", fraction),
        onSource: (source) => (sourceChannels = source.channels)
      })) {
        extractor ??= createFeatureExtractor(chunk.channels.length)
        extractor.push(chunk.channels)
      }
      if (!extractor) throw new DecodeFailure("no audio could be decoded from the file")
      return { features: extractor.finish(), sourceChannels }
    },
    catch: (cause) =>
      new AnalysisFailed({
        code: "undecodable_audio",
        message:
          cause instanceof DecodeFailure
            ? `The ${format.toUpperCase()} file could not be decoded: ${cause.message}`
            : `The ${format.toUpperCase()} file could not be decoded: ${cause instanceof Error ? cause.message : String(cause)}`
      })
  })

/** Per speaker: first speech and how many of its turns end like a question. */
const speakerCues = (diarization: Diarization, pitch: Float32Array): Array<SpeakerCues> =>
  Array.from({ length: diarization.speakers }, (_, s) => {
    const own = diarization.segments.filter((seg) => seg.speaker === s)
    let judgedTurns = 0
    let risingEndings = 0
    for (const seg of own) {
      const rising = risingEnding(pitch, seg.start, seg.end, FRAME_RATE)
      if (rising === undefined) continue
      judgedTurns++
      if (rising) risingEndings++
    }
    return { firstSpeechS: (own[0]?.start ?? Infinity) / FRAME_RATE, judgedTurns, risingEndings }
  })

/** Everything after decoding: pure over the features. */
export const analyzeFeatures = (
  features: CallFeatures,
  sourceChannels: number,
  options: Pick<AcousticOptions, "repChannel" | "onProgress"> = {}
): AcousticAnalysis | AnalysisFailed => {
  const masks = features.channels.map((channel) => detectSpeech(channel))
  const separable = features.channels.length === 2 && channelsSeparable(features.channelCorrelation, masks)
  // one signal (mono, or stereo that is the same twice): speech wherever either channel has it
  const mask = masks.length === 1 ? masks[0]! : masks[0]!.map((v, i) => v | masks[1]![i]!)
  const speechS = mask.reduce((n, v) => n + v, 0) / FRAME_RATE
  if (speechS < MIN_SPEECH_S) {
    return new AnalysisFailed({ code: "no_speech", message: `No speech was found in the ${round(features.durationS, 1)} s of audio.` })
  }
  options.onProgress?.("diarize", 0)
  const diarization = separable
    ? diarizeChannels(features.channels, masks)
    : diarizeMono(features.mfcc, mask, undefined, (f) => options.onProgress?.("diarize", f))
  const requested = options.repChannel
  const cues = separable && requested !== "auto" ? [] : speakerCues(diarization, features.pitch)
  const roles: RoleAssignment = separable && requested !== "auto"
    ? assignRolesByChannel(diarization.speakers, requested)
    : assignRolesByCues(cues)
  const repChannel: RepChannelDecision | null = !separable ? null
    : requested === "auto" ? byAcousticCues(roles, cues)
    : { requested: requested ?? "left", chosen: requested ?? "left", reason: requested === undefined ? "the left channel, the default" : `set to the ${requested} channel` }
  options.onProgress?.("diarize", 1)

  const name = (s: number) => `S${s + 1}`
  const turns: Array<Turn> = diarization.segments.map((seg) => ({
    speaker: name(seg.speaker),
    role: roles.roles[seg.speaker] ?? "unknown",
    start: round(seg.start / FRAME_RATE, 3),
    end: round(Math.min(seg.end / FRAME_RATE, features.durationS), 3)
  }))
  const talk = Array.from({ length: diarization.speakers }, (_, s) => unionLength(turns.filter((t) => t.speaker === name(s))))
  const totalTalk = talk.reduce((a, b) => a + b, 0)
  const speakers: Array<SpeakerSummary> = talk.map((seconds, s) => ({
    speaker: name(s),
    role: roles.roles[s] ?? "unknown",
    role_confidence: roles.confidence[s] ?? 0,
    talk_time_s: round(seconds, 2),
    talk_share: totalTalk > 0 ? round(seconds / totalTalk, 3) : 0
  }))
  return {
    duration_s: round(features.durationS, 3),
    channels: sourceChannels,
    diarization: diarization.method,
    speakers,
    speaker_turns: turns,
    metrics: acousticMetrics(turns, features.durationS),
    rep_channel: repChannel
  }
}

/** `auto` on a stereo call, before any words: the channel the acoustic cues chose, and why. */
const byAcousticCues = (roles: RoleAssignment, cues: ReadonlyArray<SpeakerCues>): RepChannelDecision => {
  const rep = roles.roles[1] === "rep" ? 1 : 0
  const side = (s: number) => (s === 0 ? "left" : "right")
  const first = cues.reduce((best, c, s) => (c.firstSpeechS < cues[best]!.firstSpeechS ? s : best), 0)
  const rising = cues.map((c) => c.risingEndings)
  return {
    requested: "auto",
    chosen: side(rep),
    reason: `auto, from the acoustic cues (no words to go on): the ${side(first)} channel spoke first; ` +
      `question-like endings left ${rising[0] ?? 0}, right ${rising[1] ?? 0}; the ${side(rep)} channel leads ` +
      `(confidence ${roles.confidence[rep] ?? 0})`
  }
}

/** The whole acoustic analysis of the audio file at `path`. */
export const analyzeFile = Effect.fn("analyzeFile")(function* (path: string, options: AcousticOptions) {
  const head = yield* readHead(path)
  if (head.length === 0) {
    return yield* new AnalysisFailed({ code: "undecodable_audio", message: "The file is empty." })
  }
  const format = sniffFormat(head)
  if (format === undefined) {
    return yield* new AnalysisFailed({
      code: "unsupported_format",
      message: "The file is not MP3, WAV or M4A audio (its first bytes match none of them)."
    })
  }
  yield* Effect.annotateCurrentSpan({ "audio.format": format, "audio.format_declared": options.format })
  const { features, sourceChannels } = yield* extractFeatures(path, format, options.onProgress)
  if (features.durationS < MIN_DURATION_S) {
    return yield* new AnalysisFailed({
      code: "too_short",
      message: `The call is ${round(features.durationS, 2)} s long; at least ${MIN_DURATION_S} s are needed.`
    })
  }
  const result = analyzeFeatures(features, sourceChannels, options)
  if (result instanceof AnalysisFailed) return yield* result
  yield* Effect.annotateCurrentSpan({
    "audio.duration_s": result.duration_s,
    "audio.speakers": result.speakers.length,
    "audio.diarization": result.diarization
  })
  return result
})
