/**
 * Operations beyond the spec (docs/domain.md, "Extensions"). `GET /openapi.json` and `GET /docs` are
 * served from this declaration by the platform's own OpenAPI and Scalar layers.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CallAnalysis, AnalysisStatus, CallTypeName } from "./CallAnalysis.js"
import { CallId, ClientId, EmailAddress, KeyId, Plan, queryInt, Text, Timestamp, TimestampInput, UserId, strictBody } from "./Common.js"
import { Conflict, Forbidden, Gone, NotFound, RangeNotSatisfiable } from "./Errors.js"
import { AdminAuth, ApiKeyHeaders, ApiKeyOrSessionHeaders, SessionAuth, TenantAuth, TenantOrSessionAuth } from "./Security.js"

export class CreateClientRequest extends Schema.Class<CreateClientRequest>("CreateClientRequest")({
  company_name: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(200)),
  owner_email: Schema.optional(EmailAddress),
  owner_name: Schema.optional(Text.pipe(Schema.maxLength(200))),
  industry: Schema.optional(Text.pipe(Schema.maxLength(200))),
  plan: Schema.optionalWith(Plan, { default: () => "trial" as const }),
  credits: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 1_000_000)), { default: () => 0 }),
  is_test: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

export const CreatedClient = Schema.Struct({
  client_id: ClientId,
  company_name: Text,
  plan: Plan,
  owner_user_id: Schema.NullOr(UserId),
  key_id: KeyId,
  api_key: Text.annotations({ description: "The tenant key (`csk_...`); shown once, stored only as a hash" }),
  credits_balance: Schema.Number,
  created_at: Timestamp
}).annotations({ identifier: "CreatedClient" })

export class GrantCreditsRequest extends Schema.Class<GrantCreditsRequest>("GrantCreditsRequest")({
  amount: Schema.Int.pipe(Schema.between(-1_000_000, 1_000_000), Schema.filter((n) => n !== 0 || "must not be 0")),
  reason: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(500))
}) {}

export const CreditBalance = Schema.Struct({
  client_id: ClientId,
  balance: Schema.Number
}).annotations({ identifier: "CreditBalance" })

export const ApiKeyInfo = Schema.Struct({
  key_id: KeyId,
  name: Text,
  prefix: Text,
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp),
  revoked_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "ApiKeyInfo" })

export class CreateApiKeyRequest extends Schema.Class<CreateApiKeyRequest>("CreateApiKeyRequest")({
  name: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(100))
}) {}

export const CreatedApiKey = Schema.Struct({
  ...ApiKeyInfo.fields,
  api_key: Text.annotations({ description: "Shown once" })
}).annotations({ identifier: "CreatedApiKey" })

/** A deal's outcome as its outcome record says (`DealOutcome` of the portal's outcome truth). */
const ListedOutcome = Schema.Literal("won", "lost", "no_decision", "open")

export const CallListItem = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  closer_email: Schema.NullOr(Text),
  status: AnalysisStatus,
  created_at: Timestamp,
  completed_at: Schema.NullOr(Timestamp),
  duration_s: Schema.NullOr(Schema.Number),
  overall_score: Schema.NullOr(Schema.Number),
  outcome: Schema.NullOr(ListedOutcome).annotations({
    description: "The call's outcome record (`PUT /v1/client-portal/calls/{call_id}/outcome-truth`); null when none was recorded"
  }),
  call_type: Schema.NullOr(CallTypeName).annotations({
    description: "The type the analysis took (given at upload, else detected: `call_type.type` of the analysis); null until analysed"
  })
}).annotations({ identifier: "CallListItem" })

/** What a deletion answers: the call is gone, its charge kept in the ledger. */
export const DeletedCall = Schema.Struct({
  call_id: CallId,
  deleted: Schema.Literal(true),
  credits_charged: Schema.Number.annotations({ description: "The credits the call was charged: they stay in the ledger" })
}).annotations({ identifier: "DeletedCall" })

const ClientIdPath = Schema.Struct({ client_id: ClientId })

/** An overall score bound of the list (0–100); on the wire a string. */
const queryScore = (description: string) =>
  Schema.optional(
    Schema.NumberFromString.pipe(Schema.between(0, 100)).annotations({
      jsonSchema: { type: "number", minimum: 0, maximum: 100, description }
    })
  )

/**
 * What `GET /v1/teams/calls` takes: a page (`limit`, `cursor`) and filters, all optional and
 * combined with AND. The cursor carries only a position, so the next page is asked with the same
 * filters. Both date bounds are inclusive, to the millisecond (a call's own `created_at` as `created_to`
 * keeps it); a plain date as `created_to` means the whole of that day (UTC).
 */
export const ListCallsQuery = Schema.Struct({
  limit: queryInt({ min: 1, max: 200, default: 50, description: "Calls per page: 1 to 200, default 50" }),
  cursor: Schema.optional(Text.annotations({ description: "`next_cursor` of the previous page (asked with the same filters)" })),
  status: Schema.optional(AnalysisStatus.annotations({ description: "Only calls in this status" })),
  closer_email: Schema.optional(EmailAddress.annotations({ description: "Only this closer's calls (any case)" })),
  created_from: Schema.optional(
    TimestampInput.annotations({ description: "Only calls uploaded at or after this time (a date: its midnight, UTC)" })
  ),
  created_to: Schema.optional(
    TimestampInput.annotations({ description: "Only calls uploaded at or before this time (a date: the whole day, UTC)" })
  ),
  min_score: queryScore("Only analysed calls whose overall score is at least this (0–100)"),
  max_score: queryScore("Only analysed calls whose overall score is at most this (0–100)"),
  outcome: Schema.optional(
    Schema.Literal("won", "lost", "no_decision", "open", "none").annotations({
      description: "Only calls whose outcome record says this; `none`: calls without an outcome record"
    })
  ),
  call_type: Schema.optional(
    CallTypeName.annotations({ description: "Only analysed calls of this type (the analysis's `call_type.type`: given at upload, else detected)" })
  )
})

/** The `Range` of a request for a call's audio (RFC 9110 §14.2): one range of bytes; anything else is ignored (200, the whole file). */
export const CallAudioHeaders = Schema.Struct({
  ...ApiKeyOrSessionHeaders.fields,
  range: Schema.optional(
    Text.annotations({
      description: "One range of bytes: `bytes=0-1023`, `bytes=1024-` or `bytes=-1024` (the last 1024). " +
        "206 with `Content-Range`; a range that starts past the end is 416; several ranges, another unit or a malformed one are ignored (200)"
    })
  )
})

/** The bytes of a call's recording: the whole file (200) or a range of it (206), typed `audio/mpeg`, `audio/wav` or `audio/mp4`. */
const AudioBytes = (description: string) =>
  HttpApiSchema.Uint8Array({ contentType: "audio/*" }).annotations({ description })

export class ExtensionsApi extends HttpApiGroup.make("extensions")
  .add(
    HttpApiEndpoint.post("createClient", "/v1/internal/admin/clients")
      .setHeaders(ApiKeyHeaders)
      .setPayload(strictBody(CreateClientRequest))
      .addSuccess(CreatedClient, { status: 201 })
      .addError(Conflict)
      .middleware(AdminAuth)
      .annotate(OpenApi.Summary, "Create a tenant, its owner user when an e-mail is given, and a tenant API key (shown once); 409 if the e-mail has an account")
  )
  .add(
    HttpApiEndpoint.post("grantCredits", "/v1/internal/admin/clients/:client_id/credits")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(strictBody(GrantCreditsRequest))
      .addSuccess(CreditBalance)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(AdminAuth)
      .annotate(OpenApi.Summary, "Add (or, with a negative amount, withdraw) prepaid analysis credits; 409 if the balance would go below 0")
  )
  .add(
    HttpApiEndpoint.get("listApiKeys", "/v1/client-portal/api-keys")
      .addSuccess(Schema.Struct({ keys: Schema.Array(ApiKeyInfo) }))
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "The tenant's API keys, by prefix")
  )
  .add(
    HttpApiEndpoint.post("createApiKey", "/v1/client-portal/api-keys")
      .setPayload(strictBody(CreateApiKeyRequest))
      .addSuccess(CreatedApiKey, { status: 201 })
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Create a tenant API key; the key is shown once")
  )
  .add(
    HttpApiEndpoint.del("revokeApiKey", "/v1/client-portal/api-keys/:key_id")
      .setPath(Schema.Struct({ key_id: KeyId }))
      .addSuccess(ApiKeyInfo)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Revoke a tenant API key")
  )
  .add(
    HttpApiEndpoint.get("listCalls", "/v1/teams/calls")
      .setHeaders(ApiKeyOrSessionHeaders)
      .setUrlParams(ListCallsQuery)
      .addSuccess(Schema.Struct({ calls: Schema.Array(CallListItem), next_cursor: Schema.NullOr(Text) }))
      .addError(Forbidden)
      .middleware(TenantOrSessionAuth)
      .annotate(
        OpenApi.Summary,
        "The tenant's analysis calls, newest first, filtered by status, closer, upload time, score, outcome and call type (tenant key, or a portal session)"
      )
      .annotate(
        OpenApi.Description,
        "A tenant key and the session of an owner or an admin list the whole team's calls; a member's session lists the " +
          "member's own calls (a rep: a member who is a verified closer), and a member who is no closer none."
      )
  )
  .add(
    HttpApiEndpoint.get("getCall", "/v1/teams/calls/:call_id")
      .setPath(Schema.Struct({ call_id: CallId }))
      .setHeaders(ApiKeyHeaders)
      .addSuccess(CallAnalysis)
      .addError(NotFound)
      .middleware(TenantAuth)
      .annotate(OpenApi.Summary, "The whole analysis of a call as JSON")
  )
  .add(
    HttpApiEndpoint.del("deleteCall", "/v1/teams/calls/:call_id")
      .setPath(Schema.Struct({ call_id: CallId }))
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(DeletedCall)
      .addError(Forbidden)
      .addError(NotFound)
      .middleware(TenantOrSessionAuth)
      .annotate(OpenApi.Summary, "Delete a call: its audio, analysis, transcript, report, search entries and outcome record (tenant key, or an owner's or admin's session)")
      .annotate(
        OpenApi.Description,
        "The credit ledger keeps the call's charge, with the call id only. Afterwards every view, search, report URL and " +
          "webhook redelivery of the call answers as for a call that never was (404). A member's session is 403; another tenant's call 404."
      )
  )
  .add(
    HttpApiEndpoint.get("getPortalReport", "/v1/client-portal/calls/:call_id/report")
      .setPath(Schema.Struct({ call_id: CallId }))
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .addError(NotFound)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "A call's HTML evidence report, for a signed-in user of the portal")
      .annotate(
        OpenApi.Description,
        "The same report as `GET /reports/{call_id}/html` (one implementation), behind the session cookie: the " +
          "portal page, the daily brief and the review pack link to it. 404 for another tenant's call, 409 before it completed."
      )
  )
  .add(
    HttpApiEndpoint.get("getCallAudio", "/v1/client-portal/calls/:call_id/audio")
      .setPath(Schema.Struct({ call_id: CallId }))
      .setHeaders(CallAudioHeaders)
      .addSuccess(AudioBytes("The whole recording (`Accept-Ranges: bytes`)"))
      .addSuccess(AudioBytes("The range asked (`Content-Range: bytes <first>-<last>/<size>`)"), { status: 206 })
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Gone)
      .addError(RangeNotSatisfiable)
      .middleware(TenantOrSessionAuth)
      .annotate(OpenApi.Summary, "A call's recording as it was uploaded, for a player: the whole file, or the byte range asked (tenant key, or a portal session)")
      .annotate(
        OpenApi.Description,
        "`Content-Type` is the recording's format (MP3 `audio/mpeg`, WAV `audio/wav`, M4A `audio/mp4`); `Accept-Ranges: bytes`; " +
          "`Cache-Control: private, no-store`. One `Range` of bytes is answered 206; a range that starts past the end 416 with " +
          "`Content-Range: bytes */<size>`. Another tenant's call, and for a rep another closer's call, is 404 as an unknown one; " +
          "a recording the retention policy removed is 410 (the analysis stays)."
      )
  )
  .annotate(OpenApi.Title, "Extensions")
  .annotate(OpenApi.Description, "Operations beyond the spec: tenants and credits for staff, API keys in the portal, the tenant's calls as JSON for agents and the portal, a call's report and recording for the portal.")
{}
