/**
 * Outcome truth: what became of the deal behind a call (won, lost, no decision, still open), the
 * ground truth the scores are measured against. One record per call of the tenant (another
 * tenant's call, or none, is 404); a PUT replaces it. The backlog lists the tenant's completed
 * calls without a record, oldest first (the longer a call waits, the likelier its outcome is
 * known and forgotten), then by estimated value: the market profile's average deal size.
 */
import { NotFound, type OutcomeTruth as OutcomeTruthView, type OutcomeTruthRequest } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AuditLog } from "./AuditLog.js"
import type { Caller } from "./Caller.js"

interface OutcomeRow {
  readonly call_id: string
  readonly outcome: (typeof OutcomeTruthView.Type)["outcome"]
  readonly deal_value: number | null
  readonly currency: string | null
  readonly closed_at: Date | null
  readonly stage: string | null
  readonly reason: string | null
  readonly notes: string | null
  readonly is_test_data: boolean
  readonly recorded_by: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

const view = (r: OutcomeRow): typeof OutcomeTruthView.Type => ({
  ...r,
  closed_at: r.closed_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString()
})

interface BacklogRow {
  readonly call_id: string
  readonly external_call_id: string | null
  readonly closer_email: string | null
  readonly completed_at: Date
  readonly age_days: number
  readonly overall_score: number | null
  readonly estimated_deal_value: number | null
  readonly currency: string | null
  readonly is_test_data: boolean
}

export class OutcomeTruth extends Effect.Service<OutcomeTruth>()("OutcomeTruth", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const audit = yield* AuditLog

    const columns = sql`call_id, outcome, deal_value, currency, closed_at, stage, reason, notes, is_test_data, recorded_by, created_at, updated_at`

    const callExists = (clientId: string, callId: string) =>
      Effect.flatMap(
        sql`SELECT 1 FROM calls WHERE client_id = ${clientId} AND call_id = ${callId}`,
        (rows) => (rows.length > 0 ? Effect.void : Effect.fail(new NotFound({ message: `no call ${callId}` })))
      )

    const get = Effect.fn("OutcomeTruth.get")(function* (clientId: string, callId: string) {
      yield* callExists(clientId, callId)
      const rows = yield* sql<OutcomeRow>`SELECT ${columns} FROM outcome_truth WHERE client_id = ${clientId} AND call_id = ${callId}`
      return rows[0] === undefined ? null : view(rows[0])
    }, Effect.catchTag("SqlError", Effect.die))

    const record = Effect.fn("OutcomeTruth.record")(function* (caller: Caller, callId: string, req: OutcomeTruthRequest) {
      const clientId = caller.user.clientId
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* callExists(clientId, callId)
          const [row] = yield* sql<OutcomeRow>`
            INSERT INTO outcome_truth (call_id, client_id, outcome, deal_value, currency, closed_at, stage, reason, notes, is_test_data, recorded_by)
            VALUES (${callId}, ${clientId}, ${req.outcome}, ${req.deal_value ?? null}, ${req.currency ?? null}, ${req.closed_at ?? null},
                    ${req.stage ?? null}, ${req.reason ?? null}, ${req.notes ?? null}, ${req.is_test_data}, ${caller.user.userId})
            ON CONFLICT (call_id) DO UPDATE SET
              outcome = EXCLUDED.outcome, deal_value = EXCLUDED.deal_value, currency = EXCLUDED.currency,
              closed_at = EXCLUDED.closed_at, stage = EXCLUDED.stage, reason = EXCLUDED.reason, notes = EXCLUDED.notes,
              is_test_data = EXCLUDED.is_test_data, recorded_by = EXCLUDED.recorded_by, updated_at = now()
            RETURNING ${columns}`
          yield* audit.record(clientId, caller.actor, {
            action: "outcome_truth.recorded",
            targetType: "call",
            targetId: callId,
            metadata: { outcome: req.outcome, deal_value: req.deal_value ?? null, currency: req.currency ?? null, is_test_data: req.is_test_data }
          })
          return view(row!)
        })
      )
    }, Effect.catchTag("SqlError", Effect.die))

    const backlog = Effect.fn("OutcomeTruth.backlog")(function* (
      clientId: string,
      options: { readonly limit: number; readonly include_test_data: boolean }
    ) {
      const pending = sql`
        FROM calls c
        JOIN tenants t ON t.client_id = c.client_id
        LEFT JOIN outcome_truth o ON o.call_id = c.call_id
        LEFT JOIN market_profiles m ON m.client_id = c.client_id
        WHERE c.client_id = ${clientId} AND c.status = 'completed' AND o.call_id IS NULL
          AND (${options.include_test_data} OR NOT t.is_test)`
      const [rows, [count]] = yield* Effect.all([
        sql<BacklogRow>`
          SELECT c.call_id, c.external_call_id, c.closer_email, c.completed_at,
                 floor(extract(epoch FROM now() - c.completed_at) / 86400)::int AS age_days,
                 (c.result -> 'scorecard' ->> 'overall')::float8 AS overall_score,
                 (m.profile ->> 'average_deal_size')::float8 AS estimated_deal_value,
                 CASE WHEN m.profile ->> 'average_deal_size' IS NULL THEN NULL ELSE m.profile ->> 'currency' END AS currency,
                 t.is_test AS is_test_data
          ${pending}
          ORDER BY c.completed_at ASC, estimated_deal_value DESC NULLS LAST, c.call_id
          LIMIT ${options.limit}`,
        sql<{ total: number }>`SELECT count(*)::int AS total ${pending}`
      ])
      return {
        calls: rows.map((r) => ({ ...r, completed_at: r.completed_at.toISOString() })),
        total: count!.total,
        limit: options.limit
      }
    }, Effect.orDie)

    return { get, record, backlog } as const
  }),
  dependencies: [AuditLog.Default]
}) {}
