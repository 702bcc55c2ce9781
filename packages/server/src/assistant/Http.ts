/**
 * Handlers of the `assistant` group (spec 4.9: the internal assistant's per-client views, under
 * the assistant key). All 8 are built: each answers, for the tenant named by `client_id` (404 for
 * an unknown one), the view the portal or the workspace computes, by the same function
 * (Assistant.ts says which, and how `call-queue`, this door's own view, is made).
 */
import { CallsightApi, Trends } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { wireJson } from "../lib/WireJson.js"
import { Assistant } from "./Assistant.js"

export const AssistantHttpLive = HttpApiBuilder.group(CallsightApi, "assistant", (handlers) =>
  Effect.gen(function* () {
    const assistant = yield* Assistant

    return handlers
      .handle("getAccountOverview", ({ urlParams }) => assistant.accountOverview(urlParams.client_id))
      .handle("getOnboardingStatus", ({ urlParams }) => assistant.onboardingStatus(urlParams.client_id))
      .handle("getOperationalTrust", ({ urlParams }) => assistant.operationalTrust(urlParams.client_id))
      .handle("getCallQueue", ({ urlParams }) => assistant.callQueue(urlParams.client_id, urlParams.limit))
      .handle("getCallDetails", ({ path, urlParams }) => assistant.call(urlParams.client_id, path.call_id))
      .handle("getReviewPack", ({ urlParams }) => assistant.reviewPack(urlParams.client_id))
      .handle("getRoiDigest", ({ urlParams }) => assistant.roiDigest(urlParams.client_id))
      .handle("getTeamHealth", ({ urlParams }) => assistant.teamHealth(urlParams.client_id))
      // the portal's trends, written as they are (lib/WireJson.ts)
      .handle("getTrends", ({ urlParams: { client_id, ...params } }) =>
        Effect.map(assistant.trends(client_id, params), (answer) => wireJson(Trends, answer)))
  })
).pipe(Layer.provide(Assistant.Default))
