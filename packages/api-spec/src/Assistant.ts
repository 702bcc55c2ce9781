/**
 * 4.9 Internal assistant interface (prefix /v1/internal/assistant; staff `X-API-Key`). Every
 * operation is a GET for one tenant named by the required `client_id` query, and answers the same
 * view the portal or the workspace computes for that tenant: one implementation, two doors.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AnalysisStage, AnalysisStatus, CallAnalysis } from "./CallAnalysis.js"
import { CallId, ClientId, queryInt, RequiredClientId, Text, Timestamp } from "./Common.js"
import {
  AccountCockpit,
  CallsByStatus,
  CustomerRoiDigest,
  CustomerRoiReviewPack,
  OnboardingActivation,
  OperationalTrust
} from "./ClientPortal.js"
import { NotFound } from "./Errors.js"
import { ApiKeyHeaders, AssistantAuth } from "./Security.js"
import { Trends, TrendsParams } from "./Trends.js"
import { TeamHealth } from "./Workspace.js"

export const CallQueueParams = Schema.Struct({
  ...RequiredClientId.fields,
  limit: queryInt({
    min: 1,
    max: 200,
    default: 10,
    description: "How many calls to list: 1 to 200 (the spec declares no bounds; these are the service's), default 10"
  })
})

export const CallQueueItem = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  closer_email: Schema.NullOr(Text),
  status: AnalysisStatus,
  stage: AnalysisStage,
  progress: Schema.Number.annotations({ description: "0–1 within the whole analysis" }),
  created_at: Timestamp,
  started_at: Schema.NullOr(Timestamp),
  completed_at: Schema.NullOr(Timestamp),
  duration_s: Schema.NullOr(Schema.Number),
  overall_score: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "CallQueueItem" })

/** The tenant's analysis queue: waiting and running calls first (oldest first), then the latest finished. */
export const CallQueue = Schema.Struct({
  client_id: ClientId,
  counts: CallsByStatus,
  oldest_queued_at: Schema.NullOr(Timestamp),
  calls: Schema.Array(CallQueueItem),
  limit: Schema.Number,
  generated_at: Timestamp
}).annotations({ identifier: "CallQueue" })

const ClientIdParams = RequiredClientId

export class AssistantApi extends HttpApiGroup.make("assistant")
  .add(
    HttpApiEndpoint.get("getAccountOverview", "/account-overview")
      .setUrlParams(ClientIdParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(AccountCockpit)
      .annotate(OpenApi.Summary, "The tenant's account overview (the portal's account-cockpit view)")
  )
  .add(
    HttpApiEndpoint.get("getOnboardingStatus", "/onboarding-status")
      .setUrlParams(ClientIdParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(OnboardingActivation)
      .annotate(OpenApi.Summary, "The tenant's onboarding status (the portal's onboarding-activation view)")
  )
  .add(
    HttpApiEndpoint.get("getOperationalTrust", "/operational-trust")
      .setUrlParams(ClientIdParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(OperationalTrust)
      .annotate(OpenApi.Summary, "The tenant's analysis pipeline over 7 days (the portal's operational-trust view)")
  )
  .add(
    HttpApiEndpoint.get("getCallQueue", "/call-queue")
      .setUrlParams(CallQueueParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(CallQueue)
      .annotate(
        OpenApi.Summary,
        "The tenant's call queue: queued and processing calls oldest first, then the latest finished, up to `limit`"
      )
  )
  .add(
    HttpApiEndpoint.get("getCallDetails", "/calls/:call_id")
      .setPath(Schema.Struct({ call_id: CallId }))
      .setUrlParams(ClientIdParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(CallAnalysis)
      .annotate(OpenApi.Summary, "Full analysis details of one of the tenant's calls; 404 for a call of another tenant")
  )
  .add(
    HttpApiEndpoint.get("getReviewPack", "/review-pack")
      .setUrlParams(ClientIdParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(CustomerRoiReviewPack)
      .annotate(OpenApi.Summary, "The tenant's quarterly review pack (the portal's customer-roi-review-pack view)")
  )
  .add(
    HttpApiEndpoint.get("getRoiDigest", "/roi-digest")
      .setUrlParams(ClientIdParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(CustomerRoiDigest)
      .annotate(OpenApi.Summary, "The tenant's ROI digest (the portal's customer-roi-digest view)")
  )
  .add(
    HttpApiEndpoint.get("getTeamHealth", "/team-health")
      .setUrlParams(ClientIdParams)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(TeamHealth)
      .annotate(OpenApi.Summary, "The tenant's team health (the workspace team-health view)")
  )
  .add(
    HttpApiEndpoint.get("getTrends", "/trends")
      .setUrlParams(Schema.Struct({ ...RequiredClientId.fields, ...TrendsParams.fields }))
      .setHeaders(ApiKeyHeaders)
      .addSuccess(Trends)
      .annotate(
        OpenApi.Summary,
        "The tenant's trends per period, team and closer (the portal's trends view, the whole team); 404 for an unknown client or closer_id"
      )
  )
  .prefix("/v1/internal/assistant")
  .middleware(AssistantAuth)
  .addError(NotFound)
  .annotate(OpenApi.Title, "Internal assistant interface")
  .annotate(OpenApi.Description, "The internal assistant's per-client views under the assistant key: overview, onboarding, call queue and details, review pack, ROI digest, team health.")
{}
