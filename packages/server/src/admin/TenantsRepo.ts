/** Tenants, their owner users, and the credit ledger. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface NewTenant {
  readonly clientId: string
  readonly companyName: string
  readonly industry: string | null
  readonly plan: string
  readonly isTest: boolean
}

export class TenantsRepo extends Effect.Service<TenantsRepo>()("TenantsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertTenant = (t: NewTenant) =>
      sql<{ created_at: Date }>`
        INSERT INTO tenants (client_id, company_name, industry, plan, is_test)
        VALUES (${t.clientId}, ${t.companyName}, ${t.industry}, ${t.plan}, ${t.isTest})
        RETURNING created_at`.pipe(Effect.map((rows) => rows[0].created_at))

    const exists = (clientId: string) =>
      sql`SELECT 1 FROM tenants WHERE client_id = ${clientId}`.pipe(Effect.map((rows) => rows.length > 0))

    /** Locks the tenant row so concurrent ledger changes of one tenant apply one at a time. */
    const lock = (clientId: string) =>
      sql`SELECT 1 FROM tenants WHERE client_id = ${clientId} FOR UPDATE`.pipe(Effect.map((rows) => rows.length > 0))

    const emailTaken = (email: string) =>
      sql`SELECT 1 FROM users WHERE lower(email) = lower(${email})`.pipe(Effect.map((rows) => rows.length > 0))

    const insertOwner = (u: { userId: string; clientId: string; email: string; fullName: string | null }) =>
      sql`INSERT INTO users (user_id, client_id, email, full_name, role)
          VALUES (${u.userId}, ${u.clientId}, ${u.email}, ${u.fullName}, 'owner')`

    const addCredits = (clientId: string, delta: number, reason: string) =>
      sql`INSERT INTO credit_ledger (client_id, delta, reason) VALUES (${clientId}, ${delta}, ${reason})`

    const balance = (clientId: string) =>
      sql<{ balance: number }>`
        SELECT COALESCE(SUM(delta), 0)::int AS balance FROM credit_ledger WHERE client_id = ${clientId}`.pipe(
        Effect.map((rows) => rows[0].balance)
      )

    return { insertTenant, exists, lock, emailTaken, insertOwner, addCredits, balance } as const
  })
}) {}
