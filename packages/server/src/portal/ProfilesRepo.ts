/**
 * The tenant's market and lead-context profiles (`market_profiles`, `lead_context_profiles`): one
 * row per tenant each, the profile stored whole as JSON. A stored profile is read field by field:
 * one saved before a field existed lacks it, and the service fills what is missing with its empty
 * value.
 */
import { ClientId, LeadContextProfile, MarketProfile } from "@callsight/api-spec"
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, type Option, Schema, Struct } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** A market profile as stored: the response's fields without the tenant and the time. */
export const MarketFields = Schema.Struct(Struct.omit(MarketProfile.fields, "client_id", "updated_at"))
export type MarketFields = typeof MarketFields.Type

/** A lead-context profile as stored. */
export const LeadFields = Schema.Struct(Struct.omit(LeadContextProfile.fields, "client_id", "updated_at"))
export type LeadFields = typeof LeadFields.Type

type Table = "market_profiles" | "lead_context_profiles"

/** The profiles of one table. */
export interface ProfileTable<A> {
  /** The tenant's saved profile (the fields it has) and when it was saved; none until first saved. */
  readonly find: (clientId: ClientId) => Effect.Effect<Option.Option<{ readonly profile: Partial<A>; readonly updated_at: string }>, SqlError.SqlError>
  /** Replaces the tenant's profile; answers when (ISO-8601). */
  readonly save: (clientId: ClientId, profile: A) => Effect.Effect<string, SqlError.SqlError>
}

const profileTable = <A, I>(sql: SqlClient.SqlClient, table: Table, Profile: Schema.Schema<A, I>): ProfileTable<A> => {
  const findQuery = Rows.findOne({
    Request: ClientId,
    Result: Schema.Struct({ profile: Schema.partialWith(Profile, { exact: true }), updated_at: IsoTimestamp }),
    execute: (clientId) => sql`SELECT profile, updated_at FROM ${sql(table)} WHERE client_id = ${clientId}`
  })

  const upsert = Rows.single({
    Request: Schema.Struct({ clientId: ClientId, profile: Profile }),
    Result: Schema.Struct({ updated_at: IsoTimestamp }),
    execute: ({ clientId, profile }) =>
      sql`INSERT INTO ${sql(table)} (client_id, profile, updated_at) VALUES (${clientId}, ${JSON.stringify(profile)}::jsonb, now())
          ON CONFLICT (client_id) DO UPDATE SET profile = EXCLUDED.profile, updated_at = EXCLUDED.updated_at
          RETURNING updated_at`
  })

  return {
    find: findQuery,
    save: (clientId: ClientId, profile: A) => Effect.map(upsert({ clientId, profile }), (row) => row.updated_at)
  } as const
}

export class ProfilesRepo extends Effect.Service<ProfilesRepo>()("ProfilesRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      market: profileTable(sql, "market_profiles", MarketFields),
      lead: profileTable(sql, "lead_context_profiles", LeadFields)
    } as const
  })
}) {}
