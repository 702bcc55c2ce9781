/**
 * The prepaid credit ledger, the monthly ingest count and the admin's monthly bonus. The balance
 * is the sum of the rows; an analysis charge is a row with reason `analysis`, unique per call
 * (migration 0002), taken only for calls uploaded through the API (`calls.source`): the
 * recorder's calls count against the monthly ingests alone. Months are calendar months in UTC.
 */
import { CallId, ClientId, Plan } from "@callsight/api-spec"
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const Count = Schema.Struct({ n: Schema.Number })

/** One count per tenant, read as a number. */
const countOf = (query: (clientId: string) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) => {
  const run = Rows.single({ Request: ClientId, Result: Count, execute: query })
  return (clientId: ClientId) => Effect.map(run(clientId), (row) => row.n)
}

export class LedgerRepo extends Effect.Service<LedgerRepo>()("LedgerRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const add = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, delta: Schema.Number, reason: Schema.String }),
      execute: ({ clientId, delta, reason }) =>
        sql`INSERT INTO credit_ledger (client_id, delta, reason) VALUES (${clientId}, ${delta}, ${reason})`
    })

    const balance = countOf((clientId) =>
      sql`SELECT COALESCE(SUM(delta), 0)::int AS n FROM credit_ledger WHERE client_id = ${clientId}`)

    /** Exactly one credit for a completed call; a second charge of the same call changes nothing. */
    const chargeAnalysis = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, callId: CallId }),
      execute: ({ callId, clientId }) =>
        sql`INSERT INTO credit_ledger (client_id, delta, reason, call_id)
            VALUES (${clientId}, -1, 'analysis', ${callId})
            ON CONFLICT (call_id) WHERE reason = 'analysis' DO NOTHING`
    })

    /** Credits used by a call: 1 once it completed, 0 otherwise. */
    const chargedFor = Rows.single({
      Request: CallId,
      Result: Count,
      execute: (callId) =>
        sql`SELECT COALESCE(-SUM(delta), 0)::int AS n FROM credit_ledger WHERE call_id = ${callId} AND reason = 'analysis'`
    })

    /**
     * Calls that will each take a credit when they complete: those uploaded through the API (the
     * recorder's take none) and not charged yet (a re-analysis of a charged call takes none).
     */
    const reserved = countOf((clientId) =>
      sql`SELECT count(*)::int AS n FROM calls c
          WHERE c.client_id = ${clientId} AND c.status IN ('queued', 'processing') AND c.source = 'api'
            AND NOT EXISTS (SELECT 1 FROM credit_ledger l WHERE l.call_id = c.call_id AND l.reason = 'analysis')`)

    /** Calls of the current month that count against the plan: all but failed ones. */
    const ingestsThisMonth = countOf((clientId) =>
      sql`SELECT count(*)::int AS n FROM calls
          WHERE client_id = ${clientId} AND status <> 'failed'
            AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`)

    /** Extra ingests an admin granted for the current month. */
    const bonusThisMonth = countOf((clientId) =>
      sql`SELECT COALESCE(SUM(extra_ingests), 0)::int AS n FROM usage_bonuses
          WHERE client_id = ${clientId} AND month = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`)

    /** The tenant's plan and this month's completed and in-progress calls; none for an unknown tenant. */
    const monthUsage = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({
        plan: Plan,
        month: Schema.String,
        period_start: IsoTimestamp,
        period_end: IsoTimestamp,
        used: Schema.Number,
        in_progress: Schema.Number
      }),
      execute: (clientId) =>
        sql`SELECT t.plan, to_char(m.start, 'YYYY-MM') AS month,
                   m.start AT TIME ZONE 'UTC' AS period_start, (m.start + interval '1 month') AT TIME ZONE 'UTC' AS period_end,
                   (SELECT count(*)::int FROM calls c WHERE c.client_id = t.client_id AND c.status = 'completed'
                      AND c.created_at >= m.start AT TIME ZONE 'UTC') AS used,
                   (SELECT count(*)::int FROM calls c WHERE c.client_id = t.client_id AND c.status IN ('queued', 'processing')
                      AND c.created_at >= m.start AT TIME ZONE 'UTC') AS in_progress
            FROM tenants t, (SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AS start) m
            WHERE t.client_id = ${clientId}`
    })

    /** Records a bonus for a month (the current one when null) and answers that month's total. */
    const insertBonus = Rows.single({
      Request: Schema.Struct({
        bonusId: Schema.String,
        clientId: ClientId,
        month: Schema.NullOr(Schema.String),
        extraIngests: Schema.Number,
        reason: Schema.String
      }),
      Result: Schema.Struct({ month: Schema.String, granted_at: IsoTimestamp, month_total: Schema.Number }),
      execute: (b) =>
        sql`WITH inserted AS (
              INSERT INTO usage_bonuses (bonus_id, client_id, month, extra_ingests, reason)
              VALUES (${b.bonusId}, ${b.clientId}, COALESCE(${b.month}, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')),
                      ${b.extraIngests}, ${b.reason})
              RETURNING month, granted_at, extra_ingests)
            SELECT i.month, i.granted_at,
                   i.extra_ingests + (SELECT COALESCE(SUM(extra_ingests), 0)::int FROM usage_bonuses b
                                      WHERE b.client_id = ${b.clientId} AND b.month = i.month) AS month_total
            FROM inserted i`
    })

    return {
      add,
      balance,
      chargeAnalysis,
      chargedFor: (callId: CallId) => Effect.map(chargedFor(callId), (row) => row.n),
      reserved,
      ingestsThisMonth,
      bonusThisMonth,
      monthUsage,
      insertBonus
    } as const
  })
}) {}
