/**
 * Fixture calls analysed by the engine without decoding their audio: the ground truth's turns as
 * the acoustic stage would hear them, its words as a speech-to-text provider gives them
 * (`truthWords`), then the rules (`combine`); and such a result stored as a completed call of a
 * tenant, as the worker leaves it, for the views' tests.
 */
import { type AcousticAnalysis, acousticMetrics, type AnalysisResult, combine } from "@callsight/analysis"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type Truth, truth } from "../../../../test/utils/Fixtures.js"
import { truthWords } from "../../../../test/utils/TruthWords.js"

/** A fixture as heard (the truth's turns: the rep S1, the buyer S2) and its words. */
export const fixtureCall = (name: string) => truthCall(truth(name))

/** A call's ground truth as heard (the truth's turns: the rep S1, the buyer S2) and its words. */
export const truthCall = (t: Truth) => {
  const speaker_turns = t.turns.map((x) => ({
    speaker: x.speaker === "rep" ? "S1" : "S2",
    role: x.speaker === "rep" ? ("rep" as const) : ("buyer" as const),
    start: x.start,
    end: x.end
  }))
  const talk = (s: string) => speaker_turns.filter((x) => x.speaker === s).reduce((n, x) => n + x.end - x.start, 0)
  const all = talk("S1") + talk("S2")
  const heard: AcousticAnalysis = {
    duration_s: t.duration,
    channels: 1,
    diarization: "clustering",
    speakers: (["S1", "S2"] as const).map((s) => ({
      speaker: s,
      role: s === "S1" ? ("rep" as const) : ("buyer" as const),
      role_confidence: 1,
      talk_time_s: talk(s),
      talk_share: talk(s) / all
    })),
    speaker_turns,
    metrics: acousticMetrics(speaker_turns, t.duration),
    rep_channel: null
  }
  return { heard, transcript: { provider: "deepgram" as const, model: "nova-3", language: "en", words: truthWords(t) } }
}

/** The rules' analysis of a fixture call. */
export const analysedFixture = (name: string): AnalysisResult => analysedTruth(truth(name))

/** The rules' analysis of a call's ground truth. */
export const analysedTruth = (t: Truth): AnalysisResult => {
  const { heard, transcript } = truthCall(t)
  return combine(heard, transcript, "MEDDPICC")
}

let seq = 0

/** A completed call of the tenant holding `result`, made `at` (default now); its id. */
export const insertAnalysed = (clientId: string, result: unknown, options: { readonly externalCallId?: string | null; readonly closerEmail?: string | null; readonly at?: string } = {}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_analysed_${Date.now()}_${seq++}`
    const at = options.at ?? new Date().toISOString()
    yield* sql`INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                                  created_at, completed_at, duration_s, method_version, result)
               VALUES (${callId}, ${clientId}, ${options.externalCallId ?? null}, ${options.closerEmail ?? null}, 'completed', 'wav',
                       ${`blob/${callId}`}, 1, 'x', ${at}::timestamptz - interval '1 minute', ${at}::timestamptz,
                       ${(result as { duration_s?: number }).duration_s ?? null}, ${(result as { method_version?: string }).method_version ?? null},
                       ${JSON.stringify(result)}::jsonb)`
    return callId
  }).pipe(Effect.orDie)
