/**
 * The tenant's market and lead-context profiles: one each, read and saved whole (a PUT replaces
 * the profile; what it leaves out is cleared). Until first saved, a profile reads as empty with
 * `updated_at` null. The lead-context profile's qualification framework is the one the analysis
 * scores calls against (`QualificationFrameworksLive.ts`).
 */
import type { ClientId, LeadContextProfileRequest, MarketProfileRequest } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { CallTrackers } from "../ports/CallTrackers.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { type LeadFields, type MarketFields, type ProfileTable, ProfilesRepo } from "./ProfilesRepo.js"

const EMPTY_MARKET: MarketFields = {
  industry: null,
  sub_industry: null,
  icps: [],
  regions: [],
  average_deal_size: null,
  currency: "USD",
  sales_cycle_days: null,
  competitors: [],
  time_zone: null
}

const EMPTY_LEAD: LeadFields = {
  lead_sources: [],
  qualification_framework: "MEDDPICC",
  ideal_customer_notes: null,
  disqualifiers: [],
  rep_channel: "auto"
}

export class Profiles extends Effect.Service<Profiles>()("Profiles", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* ProfilesRepo
    const audit = yield* AuditLog
    const trackers = yield* CallTrackers

    /** The saved profile over the empty one: a field it lacks (or all of them, unsaved) reads as empty. */
    const read = <A extends object>(table: ProfileTable<A>, clientId: ClientId, empty: A) =>
      Effect.map(table.find(clientId), (saved) => ({
        client_id: clientId,
        ...empty,
        ...Option.getOrUndefined(saved)?.profile,
        updated_at: Option.match(saved, { onNone: () => null, onSome: (s) => s.updated_at })
      }))

    const save = <A extends object>(table: ProfileTable<A>, caller: Caller, profile: A, action: string) =>
      transactions.run(
        Effect.gen(function* () {
          const clientId = caller.clientId
          const updatedAt = yield* table.save(clientId, profile)
          yield* audit.record(clientId, caller.actor, { action, targetType: "tenant", targetId: clientId, metadata: { fields: Object.keys(profile) } })
          return { client_id: clientId, ...profile, updated_at: updatedAt }
        })
      )

    const market = Effect.fn("Profiles.market")((clientId: ClientId) => read(repo.market, clientId, EMPTY_MARKET), Effect.orDie)
    const lead = Effect.fn("Profiles.lead")((clientId: ClientId) => read(repo.lead, clientId, EMPTY_LEAD), Effect.orDie)

    // the Competitors tracker follows the saved competitors at once (ports/CallTrackers.ts)
    const saveMarket = Effect.fn("Profiles.saveMarket")(
      (caller: Caller, req: MarketProfileRequest) =>
        Effect.tap(save(repo.market, caller, { ...req } satisfies MarketFields, "market_profile.saved"), () => trackers.syncCompetitors(caller.clientId)),
      Effect.orDie
    )
    const saveLead = Effect.fn("Profiles.saveLead")(
      (caller: Caller, req: LeadContextProfileRequest) => save(repo.lead, caller, { ...req } satisfies LeadFields, "lead_context_profile.saved"),
      Effect.orDie
    )

    return { market, lead, saveMarket, saveLead } as const
  }),
  dependencies: [ProfilesRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
