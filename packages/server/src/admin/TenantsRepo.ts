/** Tenants and their owner users. */
import { SqlClient } from "@effect/sql"
import type { Plan } from "@callsight/api-spec"
import { Effect, Option } from "effect"

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

    /** The tenant's plan, locking its row: changes to its ledger and calls then apply one at a time. */
    const lockWithPlan = (clientId: string) =>
      sql<{ plan: Plan }>`SELECT plan FROM tenants WHERE client_id = ${clientId} FOR UPDATE`.pipe(
        Effect.map((rows) => (rows.length === 0 ? Option.none() : Option.some(rows[0].plan)))
      )

    return { insertTenant, exists, lock, lockWithPlan, emailTaken, insertOwner } as const
  })
}) {}
