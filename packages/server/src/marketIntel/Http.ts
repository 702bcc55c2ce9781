/**
 * Handlers of the `marketIntel` group (spec 4.7: the staff's market-intelligence views, under the
 * admin key): a table of `handle` lines over the `MarketIntel` service. Profile changes and hygiene
 * marks are audited in the tenant's log with the staff actor.
 */
import { CallsightApi } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { MarketIntel } from "./MarketIntel.js"
import { SegmentTrends } from "./SegmentTrends.js"

export const MarketIntelHttpLive = HttpApiBuilder.group(CallsightApi, "marketIntel", (handlers) =>
  Effect.gen(function* () {
    const intel = yield* MarketIntel
    const callers = yield* Callers
    const segmentTrends = yield* SegmentTrends
    return handlers
      .handle("listMarketIntelProfiles", () => intel.profiles)
      .handle("getMarketIntelProfile", ({ path }) => intel.profile(path.client_id))
      .handle("saveMarketIntelProfile", ({ path, payload }) =>
        Effect.flatMap(callers.staff, (actor) => intel.saveProfile(path.client_id, payload, actor)))
      .handle("deleteMarketIntelProfile", ({ path }) => Effect.flatMap(callers.staff, (actor) => intel.deleteProfile(path.client_id, actor)))
      .handle("getMarketIntelOverview", ({ urlParams }) => intel.overview(urlParams))
      .handle("listMarketIntelIndustries", ({ urlParams }) => intel.industries(urlParams))
      .handle("getIndustryIcpIntel", ({ path, urlParams }) => intel.industryIcp(path.industry_label, path.icp_label, urlParams))
      .handle("getLeadSourceIntel", ({ urlParams }) => intel.leadSources(urlParams))
      .handle("getOutcomeTruthIntel", ({ urlParams }) => intel.outcomeTruth(urlParams))
      .handle("getSegmentTruthGap", ({ urlParams }) => intel.segmentTruthGap(urlParams))
      .handle("getDataHygiene", ({ urlParams }) => intel.dataHygiene(urlParams))
      .handle("getTruthAdoption", ({ urlParams }) => intel.truthAdoption(urlParams))
      .handle("getRenewalExpansionRadar", ({ path }) => intel.radar(path.client_id))
      .handle("getTruthBacklogPriority", ({ urlParams }) => intel.truthBacklog(urlParams))
      .handle("setCallHygiene", ({ path, payload }) => Effect.flatMap(callers.staff, (actor) => intel.setHygiene(path.call_id, payload, actor)))
      .handle("rebuildMarketIntel", ({ payload }) => intel.rebuild(payload))
      .handle("getMarketIntelTrends", ({ urlParams }) => segmentTrends.compute(urlParams))
  })
).pipe(Layer.provide([MarketIntel.Default, Callers.Default, SegmentTrends.Default]))
