/**
 * What the assistant interface reads beyond the shared views: the tenant's call queue. Every
 * query takes the tenant first; the service (Assistant.ts) says which calls are in the queue and
 * in what order, and this repository holds that rule in SQL:
 *
 * - the calls waiting for or under analysis (`queued`, `processing`), oldest first (by
 *   `created_at`);
 * - then the completed calls without an outcome-truth record (the portal's outcome-truth backlog),
 *   the latest finished first (by `completed_at`);
 * - ties by call id; at most `limit` calls.
 *
 * A completed call's stage reads `done`, as the status poll shows it.
 */
import { AnalysisStage, AnalysisStatus, CallId, ClientId, Text } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** One call of the queue, as the wire's `CallQueueItem`. */
export const QueueRow = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  closer_email: Schema.NullOr(Text),
  status: AnalysisStatus,
  stage: AnalysisStage,
  progress: Schema.Number,
  created_at: IsoTimestamp,
  started_at: NullableIsoTimestamp,
  completed_at: NullableIsoTimestamp,
  duration_s: Schema.NullOr(Schema.Number),
  overall_score: Schema.NullOr(Schema.Number)
})
export type QueueRow = typeof QueueRow.Type

const StatusCount = Schema.Struct({ status: Schema.String, n: Schema.Number })

const Oldest = Schema.Struct({ oldest_queued_at: NullableIsoTimestamp })

export class AssistantRepo extends Effect.Service<AssistantRepo>()("AssistantRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** The tenant's calls by status, all time (statuses without a call have no row). */
    const countsQuery = Rows.findAll({
      Request: ClientId,
      Result: StatusCount,
      execute: (clientId) =>
        sql`SELECT status, count(*)::int AS n FROM calls WHERE client_id = ${clientId} GROUP BY status ORDER BY status`
    })

    /** When the oldest of the tenant's calls still waiting for a worker was made. */
    const oldestQuery = Rows.single({
      Request: ClientId,
      Result: Oldest,
      execute: (clientId) =>
        sql`SELECT min(created_at) AS oldest_queued_at FROM calls WHERE client_id = ${clientId} AND status = 'queued'`
    })

    const queueQuery = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, limit: Schema.Number }),
      Result: QueueRow,
      execute: ({ clientId, limit }) =>
        sql`SELECT c.call_id, c.external_call_id, c.closer_email, c.status,
                   CASE WHEN c.status = 'completed' THEN 'done' ELSE c.stage END AS stage,
                   c.progress, c.created_at, c.started_at, c.completed_at, c.duration_s,
                   CASE WHEN jsonb_typeof(c.result -> 'scorecard' -> 'overall') = 'number'
                        THEN (c.result -> 'scorecard' ->> 'overall')::float8 END AS overall_score
            FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
            WHERE c.client_id = ${clientId}
              AND (c.status IN ('queued', 'processing') OR (c.status = 'completed' AND o.call_id IS NULL))
            ORDER BY c.status = 'completed',
                     CASE WHEN c.status <> 'completed' THEN c.created_at END ASC,
                     c.completed_at DESC,
                     c.call_id
            LIMIT ${limit}`
    })

    return {
      counts: (clientId: ClientId) => Effect.orDie(countsQuery(clientId)),
      oldestQueuedAt: (clientId: ClientId) => Effect.map(Effect.orDie(oldestQuery(clientId)), (r) => r.oldest_queued_at),
      queue: (clientId: ClientId, limit: number) => Effect.orDie(queueQuery({ clientId, limit }))
    } as const
  })
}) {}
