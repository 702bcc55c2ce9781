/** Analysis calls. Every read that serves a tenant takes its `client_id` first. */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import type { AnalysisResult } from "../analysis/Analyzer.js"

export interface CallRow {
  readonly call_id: string
  readonly client_id: string
  readonly external_call_id: string | null
  readonly closer_email: string | null
  readonly status: "queued" | "processing" | "completed" | "failed"
  readonly stage: string
  readonly progress: number
  readonly format: "mp3" | "wav" | "m4a"
  readonly blob_key: string
  readonly sha256: string
  readonly created_at: Date
  readonly started_at: Date | null
  readonly completed_at: Date | null
  readonly duration_s: number | null
  readonly method_version: string | null
  readonly error_code: string | null
  readonly error_message: string | null
  readonly result: AnalysisResult | null
}

export interface NewCall {
  readonly callId: string
  readonly clientId: string
  readonly externalCallId: string | null
  readonly closerEmail: string | null
  readonly format: string
  readonly blobKey: string
  readonly size: number
  readonly sha256: string
}

const first = <A>(rows: ReadonlyArray<A>): Option.Option<A> => Option.fromNullable(rows[0])

export class CallsRepo extends Effect.Service<CallsRepo>()("CallsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = (c: NewCall) =>
      sql<{ created_at: Date }>`
        INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256)
        VALUES (${c.callId}, ${c.clientId}, ${c.externalCallId}, ${c.closerEmail}, 'queued', ${c.format}, ${c.blobKey},
                ${c.size}, ${c.sha256})
        RETURNING created_at`.pipe(Effect.map((rows) => rows[0].created_at))

    const find = (clientId: string, callId: string) =>
      sql<CallRow>`SELECT * FROM calls WHERE client_id = ${clientId} AND call_id = ${callId}`.pipe(Effect.map(first))

    /** For the worker, which acts for whichever tenant owns the job. */
    const findForJob = (callId: string) => sql<CallRow>`SELECT * FROM calls WHERE call_id = ${callId}`.pipe(Effect.map(first))

    /** A page of the tenant's calls, newest first, after the keyset cursor (created_at, call_id). */
    const page = (clientId: string, limit: number, after: Option.Option<{ createdAt: Date; callId: string }>) =>
      Option.match(after, {
        onNone: () =>
          sql<CallRow>`SELECT * FROM calls WHERE client_id = ${clientId}
                       ORDER BY created_at DESC, call_id DESC LIMIT ${limit}`,
        onSome: ({ callId, createdAt }) =>
          sql<CallRow>`SELECT * FROM calls WHERE client_id = ${clientId}
                         AND (created_at, call_id) < (${createdAt}, ${callId})
                       ORDER BY created_at DESC, call_id DESC LIMIT ${limit}`
      })

    const findIdempotent = (clientId: string, key: string) =>
      sql<{ sha256: string; call_id: string }>`
        SELECT sha256, call_id FROM upload_idempotency
        WHERE client_id = ${clientId} AND key = ${key} AND created_at > now() - interval '24 hours'`.pipe(Effect.map(first))

    /** Remembers a key for 24 h; a key older than that is taken over by the new upload. */
    const saveIdempotent = (clientId: string, key: string, sha256: string, callId: string) =>
      sql`INSERT INTO upload_idempotency (client_id, key, sha256, call_id) VALUES (${clientId}, ${key}, ${sha256}, ${callId})
          ON CONFLICT (client_id, key) DO UPDATE
            SET sha256 = EXCLUDED.sha256, call_id = EXCLUDED.call_id, created_at = now()`

    const markProcessing = (callId: string) =>
      sql`UPDATE calls SET status = 'processing', stage = 'decode', progress = 0,
                           started_at = COALESCE(started_at, now()), error_code = NULL, error_message = NULL
          WHERE call_id = ${callId} AND status IN ('queued', 'processing')`

    const setProgress = (callId: string, stage: string, progress: number) =>
      sql`UPDATE calls SET stage = ${stage}, progress = ${progress} WHERE call_id = ${callId} AND status = 'processing'`

    /** Back in the queue after a failed attempt that will be retried. */
    const requeue = (callId: string) =>
      sql`UPDATE calls SET status = 'queued', stage = 'queued', progress = 0 WHERE call_id = ${callId}`

    const complete = (callId: string, result: AnalysisResult) =>
      sql`UPDATE calls SET status = 'completed', stage = 'done', progress = 1, completed_at = now(),
                           duration_s = ${result.duration_s}, method_version = ${result.method_version},
                           result = ${JSON.stringify(result)}::jsonb
          WHERE call_id = ${callId}`

    const fail = (callId: string, code: string, message: string) =>
      sql`UPDATE calls SET status = 'failed', completed_at = now(), error_code = ${code}, error_message = ${message}
          WHERE call_id = ${callId}`

    return {
      insert,
      find,
      findForJob,
      page,
      findIdempotent,
      saveIdempotent,
      markProcessing,
      setProgress,
      requeue,
      complete,
      fail
    } as const
  })
}) {}
