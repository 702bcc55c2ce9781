/**
 * Accounts and deals (issue 38, item 1; docs/deals.md): what the intake's assignment
 * (`DealAssignment.ts`, run by `CallIntake.admit` with the tenant's row locked) reads and writes.
 * Every statement takes the tenant's `ClientId`. Accounts are unique per tenant by domain and by
 * name (case-insensitively), deals by their external id; as the intake runs one call of a tenant
 * at a time, a find then an insert does not race.
 */
import { ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { newId } from "../lib/Ids.js"

const AccountRow = Schema.Struct({ account_id: Schema.String, name: Schema.String, domain: Schema.NullOr(Schema.String) })
export type AccountRow = typeof AccountRow.Type

const DealRow = Schema.Struct({ deal_id: Schema.String, account_id: Schema.NullOr(Schema.String) })

const AccountDealRow = Schema.Struct({
  deal_id: Schema.String,
  last_call_at: NullableIsoTimestamp,
  decided: Schema.Boolean,
  created_at: IsoTimestamp
})

export class DealsRepo extends Effect.Service<DealsRepo>()("DealsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** The tenant's own e-mail domains: its users' and its closers' (lower-case). */
    const ownDomains = Rows.findAll({
      Request: ClientId,
      Result: Schema.Struct({ domain: Schema.String }),
      execute: (clientId) =>
        sql`SELECT DISTINCT lower(split_part(email, '@', 2)) AS domain FROM (
              SELECT email FROM users WHERE client_id = ${clientId}
              UNION ALL SELECT email FROM closers WHERE client_id = ${clientId}
            ) e WHERE position('@' IN email) > 0`
    })

    const salesCycle = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({ sales_cycle_days: Schema.NullOr(Schema.Number) }),
      execute: (clientId) =>
        sql`SELECT (profile ->> 'sales_cycle_days')::int AS sales_cycle_days FROM market_profiles WHERE client_id = ${clientId}`
    })

    const dealByExternal = Rows.findOne({
      Request: Schema.Struct({ clientId: ClientId, externalDealId: Schema.String }),
      Result: DealRow,
      execute: ({ clientId, externalDealId }) =>
        sql`SELECT deal_id, account_id FROM deals WHERE client_id = ${clientId} AND external_deal_id = ${externalDealId}`
    })

    const accountByDomain = Rows.findOne({
      Request: Schema.Struct({ clientId: ClientId, domain: Schema.String }),
      Result: AccountRow,
      execute: ({ clientId, domain }) =>
        sql`SELECT account_id, name, domain FROM accounts WHERE client_id = ${clientId} AND domain = ${domain}`
    })

    const accountByName = Rows.findOne({
      Request: Schema.Struct({ clientId: ClientId, name: Schema.String }),
      Result: AccountRow,
      execute: ({ clientId, name }) =>
        sql`SELECT account_id, name, domain FROM accounts WHERE client_id = ${clientId} AND lower(name) = lower(${name})`
    })

    const insertAccount = Rows.single({
      Request: Schema.Struct({ accountId: Schema.String, clientId: ClientId, name: Schema.String, domain: Schema.NullOr(Schema.String) }),
      Result: AccountRow,
      execute: (a) =>
        sql`INSERT INTO accounts (account_id, client_id, name, domain) VALUES (${a.accountId}, ${a.clientId}, ${a.name}, ${a.domain})
            RETURNING account_id, name, domain`
    })

    const setAccountDomain = Rows.execute({
      Request: Schema.Struct({ accountId: Schema.String, domain: Schema.String }),
      execute: ({ accountId, domain }) => sql`UPDATE accounts SET domain = ${domain} WHERE account_id = ${accountId} AND domain IS NULL`
    })

    /** The account of a domain: found, else one named by its domain with no domain yet given it, else a new one. */
    const accountOfDomain = (clientId: ClientId, domain: string) =>
      Effect.gen(function* () {
        const found = yield* accountByDomain({ clientId, domain })
        if (Option.isSome(found)) return found.value
        const named = yield* accountByName({ clientId, name: domain })
        if (Option.isSome(named) && named.value.domain === null) {
          yield* setAccountDomain({ accountId: named.value.account_id, domain })
          return { ...named.value, domain }
        }
        // a name taken by an account of another domain cannot be reused: the new one is named `domain (2)`
        const name = Option.isSome(named) ? `${domain} (${newId("n").slice(-4)})` : domain
        return yield* insertAccount({ accountId: newId("acct"), clientId, name, domain })
      })

    /** The account of a name (any case): found, else a new one without a domain. */
    const accountOfName = (clientId: ClientId, name: string) =>
      Effect.gen(function* () {
        const found = yield* accountByName({ clientId, name })
        if (Option.isSome(found)) return found.value
        return yield* insertAccount({ accountId: newId("acct"), clientId, name, domain: null })
      })

    /** The account's deals: when their latest call took place, whether one of their calls has a decided outcome. */
    const accountDeals = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, accountId: Schema.String }),
      Result: AccountDealRow,
      execute: ({ accountId, clientId }) =>
        sql`SELECT d.deal_id, d.created_at,
                   (SELECT max(c.occurred_at) FROM calls c WHERE c.deal_id = d.deal_id) AS last_call_at,
                   EXISTS (SELECT 1 FROM calls c JOIN outcome_truth o ON o.call_id = c.call_id
                           WHERE c.deal_id = d.deal_id AND o.outcome IN ('won', 'lost', 'no_decision')) AS decided
            FROM deals d WHERE d.client_id = ${clientId} AND d.account_id = ${accountId}`
    })

    const insertDeal = Rows.execute({
      Request: Schema.Struct({
        dealId: Schema.String,
        clientId: ClientId,
        accountId: Schema.NullOr(Schema.String),
        externalDealId: Schema.NullOr(Schema.String),
        name: Schema.NullOr(Schema.String)
      }),
      execute: (d) =>
        sql`INSERT INTO deals (deal_id, client_id, account_id, external_deal_id, name)
            VALUES (${d.dealId}, ${d.clientId}, ${d.accountId}, ${d.externalDealId}, ${d.name})`
    })

    /** A deal known without an account gets the one a later call of it names. */
    const setDealAccount = Rows.execute({
      Request: Schema.Struct({ dealId: Schema.String, accountId: Schema.String }),
      execute: ({ accountId, dealId }) => sql`UPDATE deals SET account_id = ${accountId} WHERE deal_id = ${dealId} AND account_id IS NULL`
    })

    return {
      ownDomains: (clientId: ClientId) => Effect.map(ownDomains(clientId), (rows) => rows.map((r) => r.domain)),
      salesCycleDays: (clientId: ClientId) => Effect.map(salesCycle(clientId), (row) => Option.getOrNull(row)?.sales_cycle_days ?? null),
      dealByExternal: (clientId: ClientId, externalDealId: string) => dealByExternal({ clientId, externalDealId }),
      accountOfDomain,
      accountOfName,
      accountDeals: (clientId: ClientId, accountId: string) => accountDeals({ clientId, accountId }),
      createDeal: (clientId: ClientId, accountId: string | null, externalDealId: string | null, name: string | null) =>
        Effect.suspend(() => {
          const dealId = newId("deal")
          return Effect.as(insertDeal({ dealId, clientId, accountId, externalDealId, name }), dealId)
        }),
      setDealAccount: (dealId: string, accountId: string) => setDealAccount({ dealId, accountId })
    } as const

  })
}) {}
