/**
 * The tenant's market and lead-context profiles: one each, read and saved whole (a PUT replaces
 * the profile; what it leaves out is cleared). Until first saved, a profile reads as empty with
 * `updated_at` null. The lead-context profile's qualification framework is the one the analysis
 * scores calls against (`frameworkOf`).
 */
import type {
  LeadContextProfile,
  LeadContextProfileRequest,
  MarketProfile,
  MarketProfileRequest
} from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Framework } from "../analysis/Transcript.js"
import { AuditLog } from "./AuditLog.js"
import type { Caller } from "./Caller.js"

type MarketFields = Omit<typeof MarketProfile.Type, "client_id" | "updated_at">
type LeadFields = Omit<typeof LeadContextProfile.Type, "client_id" | "updated_at">

const EMPTY_MARKET: MarketFields = {
  industry: null,
  sub_industry: null,
  icps: [],
  regions: [],
  average_deal_size: null,
  currency: "USD",
  sales_cycle_days: null,
  competitors: []
}

const EMPTY_LEAD: LeadFields = {
  lead_sources: [],
  qualification_framework: "MEDDPICC",
  ideal_customer_notes: null,
  disqualifiers: []
}

type Table = "market_profiles" | "lead_context_profiles"

export class Profiles extends Effect.Service<Profiles>()("Profiles", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const audit = yield* AuditLog

    const read = <A>(table: Table, clientId: string, empty: A) =>
      sql<{ profile: A; updated_at: Date }>`SELECT profile, updated_at FROM ${sql(table)} WHERE client_id = ${clientId}`.pipe(
        Effect.map((rows) => ({
          client_id: clientId,
          ...empty,
          ...rows[0]?.profile,
          updated_at: rows[0]?.updated_at.toISOString() ?? null
        })),
        Effect.orDie
      )

    const save = <A extends object>(table: Table, caller: Caller, profile: A, action: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const clientId = caller.user.clientId
          const [row] = yield* sql<{ updated_at: Date }>`
            INSERT INTO ${sql(table)} (client_id, profile, updated_at) VALUES (${clientId}, ${JSON.stringify(profile)}::jsonb, now())
            ON CONFLICT (client_id) DO UPDATE SET profile = EXCLUDED.profile, updated_at = EXCLUDED.updated_at
            RETURNING updated_at`
          yield* audit.record(clientId, caller.actor, { action, targetType: "tenant", targetId: clientId, metadata: { fields: Object.keys(profile) } })
          return { client_id: clientId, ...profile, updated_at: row!.updated_at.toISOString() }
        })
      ).pipe(Effect.orDie)

    const market = Effect.fn("Profiles.market")((clientId: string) => read("market_profiles", clientId, EMPTY_MARKET))
    const lead = Effect.fn("Profiles.lead")((clientId: string) => read("lead_context_profiles", clientId, EMPTY_LEAD))

    const saveMarket = Effect.fn("Profiles.saveMarket")((caller: Caller, req: MarketProfileRequest) =>
      save("market_profiles", caller, { ...req } satisfies MarketFields, "market_profile.saved"))
    const saveLead = Effect.fn("Profiles.saveLead")((caller: Caller, req: LeadContextProfileRequest) =>
      save("lead_context_profiles", caller, { ...req } satisfies LeadFields, "lead_context_profile.saved"))

    /** The framework the tenant's calls are scored against: its lead-context profile's, MEDDPICC by default. */
    const frameworkOf = (clientId: string): Effect.Effect<Framework> => Effect.map(lead(clientId), (p) => p.qualification_framework)

    return { market, lead, saveMarket, saveLead, frameworkOf } as const
  }),
  dependencies: [AuditLog.Default]
}) {}
