/**
 * Rows written straight into the database for the views' tests (coaching, workspace briefs, chat): a
 * scored call in a given week (a whole stored analysis, as the views read it), and a closer. The week is counted back from the current Monday in
 * UTC; the call is on that week's Tuesday 00:00 UTC, created an hour before.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

let seq = 0

export const seedWeekCall = (clientId: string, options: {
  readonly closerEmail: string | null
  readonly weeksAgo: number
  readonly overall?: number | null
  readonly dims?: Readonly<Record<string, number | null>>
  readonly status?: "completed" | "queued"
  /** The rep's talk ratio in the stored metrics. */
  readonly talk?: number
  /**
   * When the call was made (ISO), instead of the week's Tuesday: completed at that moment, created an
   * hour before but never before that day's midnight UTC (a call made "now" just after midnight is
   * still today's, whichever of the two a view reads).
   */
  readonly at?: string
  /** Transcript segments (start second, text), rep and buyer by turns, stored as the worker does. */
  readonly transcript?: ReadonlyArray<readonly [number, string]>
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_seed_${Date.now()}_${seq++}`
    const status = options.status ?? "completed"
    const dimensions = Object.entries(options.dims ?? {}).map(([dimension, score]) => ({
      dimension,
      score,
      assessed: score !== null,
      weight: 1,
      reason: null
    }))
    const result = status === "completed"
      ? JSON.stringify({
        method_version: "callsight-test",
        duration_s: 120,
        channels: 1,
        diarization: "clustering",
        speakers: [],
        speaker_turns: [],
        evidence: [],
        scorecard: { overall: options.overall ?? null, dimensions },
        metrics: options.talk === undefined ? {} : { talk_ratio: options.talk },
        ...(options.transcript === undefined ? {} : {
          transcript: options.transcript.map(([start, text], i) => ({ speaker: i % 2 === 0 ? "S1" : "S2", start, end: start + 4, text }))
        })
      })
      : null
    yield* sql`
      INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                         created_at, completed_at, result)
      SELECT ${callId}, ${clientId}, ${`ext-${callId}`}, ${options.closerEmail}, ${status}, 'wav', ${`blob/${callId}`}, 1, 'x',
             CASE WHEN ${options.at ?? null}::timestamptz IS NULL THEN t - interval '1 hour'
                  ELSE GREATEST(t - interval '1 hour', date_trunc('day', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') END,
             CASE WHEN ${status} = 'completed' THEN t END, ${result}::jsonb
      FROM (SELECT COALESCE(${options.at ?? null}::timestamptz,
                            (date_trunc('week', now() AT TIME ZONE 'UTC') - make_interval(weeks => ${options.weeksAgo})
                             + interval '1 day') AT TIME ZONE 'UTC') AS t) w`
    return callId
  }).pipe(Effect.orDie)

export const seedCloser = (clientId: string, email: string, fullName: string, status = "active") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO closers (closer_id, client_id, email, full_name, status, email_verified_at)
        VALUES (${`clo_seed_${Date.now()}_${seq++}`}, ${clientId}, ${email}, ${fullName}, ${status}, now())
        RETURNING closer_id`).pipe(Effect.map((rows) => rows[0]!.closer_id as string), Effect.orDie)

/**
 * Makes an uploaded call completed as the worker leaves it: the stored analysis of a seeded call
 * (with `transcript`, if given), and its credit charged.
 */
export const completeUploaded = (clientId: string, callId: string, transcript?: ReadonlyArray<readonly [number, string]>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const seeded = yield* seedWeekCall(clientId, { closerEmail: null, weeksAgo: 0, overall: 70, ...(transcript === undefined ? {} : { transcript }) })
    yield* sql`UPDATE calls SET status = 'completed', started_at = now(), completed_at = now(),
               result = (SELECT result FROM calls WHERE call_id = ${seeded}) WHERE call_id = ${callId}`
    yield* sql`DELETE FROM calls WHERE call_id = ${seeded}`
    yield* sql`INSERT INTO credit_ledger (client_id, delta, reason, call_id) VALUES (${clientId}, -1, 'analysis', ${callId})`
  }).pipe(Effect.orDie)
