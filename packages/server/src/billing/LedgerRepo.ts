/**
 * The prepaid credit ledger and the monthly ingest count. The balance is the sum of the rows;
 * an analysis charge is a row with reason `analysis`, unique per call (migration 0002).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export class LedgerRepo extends Effect.Service<LedgerRepo>()("LedgerRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const add = (clientId: string, delta: number, reason: string) =>
      sql`INSERT INTO credit_ledger (client_id, delta, reason) VALUES (${clientId}, ${delta}, ${reason})`

    const balance = (clientId: string) =>
      sql<{ balance: number }>`
        SELECT COALESCE(SUM(delta), 0)::int AS balance FROM credit_ledger WHERE client_id = ${clientId}`.pipe(
        Effect.map((rows) => rows[0].balance)
      )

    /** Exactly one credit for a completed call; a second charge of the same call changes nothing. */
    const chargeAnalysis = (clientId: string, callId: string) =>
      sql`INSERT INTO credit_ledger (client_id, delta, reason, call_id)
          VALUES (${clientId}, -1, 'analysis', ${callId})
          ON CONFLICT (call_id) WHERE reason = 'analysis' DO NOTHING`

    /** Credits used by a call: 1 once it completed, 0 otherwise. */
    const chargedFor = (callId: string) =>
      sql<{ n: number }>`
        SELECT COALESCE(-SUM(delta), 0)::int AS n FROM credit_ledger WHERE call_id = ${callId} AND reason = 'analysis'`.pipe(
        Effect.map((rows) => rows[0].n)
      )

    /** Calls that will each take a credit when they complete. */
    const reserved = (clientId: string) =>
      sql<{ n: number }>`
        SELECT count(*)::int AS n FROM calls WHERE client_id = ${clientId} AND status IN ('queued', 'processing')`.pipe(
        Effect.map((rows) => rows[0].n)
      )

    /** Calls of the current calendar month (UTC) that count against the plan: all but failed ones. */
    const ingestsThisMonth = (clientId: string) =>
      sql<{ n: number }>`
        SELECT count(*)::int AS n FROM calls
        WHERE client_id = ${clientId} AND status <> 'failed'
          AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`.pipe(
        Effect.map((rows) => rows[0].n)
      )

    /** Extra ingests an admin granted for the current calendar month (UTC). */
    const bonusThisMonth = (clientId: string) =>
      sql<{ n: number }>`
        SELECT COALESCE(SUM(extra_ingests), 0)::int AS n FROM usage_bonuses
        WHERE client_id = ${clientId} AND month = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`.pipe(
        Effect.map((rows) => rows[0].n)
      )

    return { add, balance, chargeAnalysis, chargedFor, reserved, ingestsThisMonth, bonusThisMonth } as const
  })
}) {}
