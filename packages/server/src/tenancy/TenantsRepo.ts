/** Tenants and their owner users. */
import { ClientId, Plan, Role, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"

export const NewTenant = Schema.Struct({
  clientId: ClientId,
  companyName: Schema.String,
  industry: Schema.NullOr(Schema.String),
  plan: Plan,
  isTest: Schema.Boolean
})

export const NewOwner = Schema.Struct({
  userId: UserId,
  clientId: ClientId,
  email: Schema.String,
  fullName: Schema.NullOr(Schema.String)
})

const Exists = Schema.Struct({ exists: Schema.Boolean })

export class TenantsRepo extends Effect.Service<TenantsRepo>()("TenantsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertTenant = Rows.single({
      Request: NewTenant,
      Result: Schema.Struct({ created_at: Schema.DateFromSelf }),
      execute: (t) =>
        sql`INSERT INTO tenants (client_id, company_name, industry, plan, is_test)
            VALUES (${t.clientId}, ${t.companyName}, ${t.industry}, ${t.plan}, ${t.isTest})
            RETURNING created_at`
    })

    const exists = Rows.single({
      Request: ClientId,
      Result: Exists,
      execute: (clientId) => sql`SELECT EXISTS (SELECT 1 FROM tenants WHERE client_id = ${clientId}) AS exists`
    })

    /** The tenant's plan, locking its row: changes to its ledger and calls then apply one at a time. */
    const lock = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({ plan: Plan }),
      execute: (clientId) => sql`SELECT plan FROM tenants WHERE client_id = ${clientId} FOR UPDATE`
    })

    const emailTaken = Rows.single({
      Request: Schema.String,
      Result: Exists,
      execute: (email) => sql`SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower(${email})) AS exists`
    })

    const insertOwner = Rows.execute({
      Request: NewOwner,
      execute: (u) =>
        sql`INSERT INTO users (user_id, client_id, email, full_name, role)
            VALUES (${u.userId}, ${u.clientId}, ${u.email}, ${u.fullName}, 'owner')`
    })

    /** A user joining by invitation (issue 36), with the invitation's role. */
    const insertMember = Rows.execute({
      Request: Schema.Struct({ ...NewOwner.fields, role: Role }),
      execute: (u) =>
        sql`INSERT INTO users (user_id, client_id, email, full_name, role)
            VALUES (${u.userId}, ${u.clientId}, ${u.email}, ${u.fullName}, ${u.role})`
    })

    const get = Rows.single({
      Request: ClientId,
      Result: Schema.Struct({ company_name: Schema.String, is_test: Schema.Boolean, plan: Plan }),
      execute: (clientId) => sql`SELECT company_name, is_test, plan FROM tenants WHERE client_id = ${clientId}`
    })

    return {
      insertTenant: (t: typeof NewTenant.Type) => Effect.map(insertTenant(t), (row) => row.created_at),
      exists: (clientId: ClientId) => Effect.map(exists(clientId), (r) => r.exists),
      lock,
      emailTaken: (email: string) => Effect.map(emailTaken(email), (r) => r.exists),
      insertOwner,
      insertMember,
      /**
       * The name of a tenant known to exist (one whose caller was authenticated: deleting a tenant
       * deletes its keys, sessions and closers) and whether it is test data; a defect otherwise.
       */
      get: (clientId: ClientId) => Effect.orDie(get(clientId))
    } as const
  })
}) {}
