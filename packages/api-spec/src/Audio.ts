/**
 * 4.10 Audio analysis for agents: upload, status, report. Tenant `X-API-Key`, or the portal's
 * session (the web app uploads and polls as the signed-in user; a rep's upload is the rep's call).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  AnalysisError,
  AnalysisStage,
  AnalysisStatus,
  AnalysisSummary,
  CallTypeName,
  RepChannelSetting,
  ScorecardDimensionName
} from "./CallAnalysis.js"
import { CallId, Text, Timestamp } from "./Common.js"
import {
  Conflict,
  Forbidden,
  NotFound,
  PayloadTooLarge,
  PaymentRequired,
  UnsupportedMediaType
} from "./Errors.js"
import { ApiKeyOrSessionHeaders, TenantOrSessionAuth } from "./Security.js"

export const CallIdPath = Schema.Struct({ call_id: CallId })

/** The multipart form of an upload. The server streams it; the schema documents it. */
export const AudioUploadForm = Schema.Struct({
  audio: Multipart.SingleFileSchema.annotations({ description: "MP3, WAV or M4A; the format is sniffed from the bytes" }),
  external_call_id: Schema.optional(Text.pipe(Schema.maxLength(200))),
  closer_email: Schema.optional(Text),
  callback_url: Schema.optional(Text.pipe(Schema.maxLength(2000))).annotations({
    description: "Where to POST this call's `analysis.completed` or `analysis.failed` webhook, signed with the tenant's " +
      "callback secret (see `GET /v1/teams/webhooks`): https, or http to localhost outside production"
  }),
  call_type: Schema.optional(CallTypeName).annotations({
    description: "The type of call, when known: it wins over the type detected from the words, and weighs the scorecard's dimensions"
  }),
  rep_channel: Schema.optional(RepChannelSetting).annotations({
    description: "Stereo recordings: the channel of the rep; unset, the tenant's default (`rep_channel` of the lead-context profile, `auto` unless set)"
  }),
  account: Schema.optional(Text.pipe(Schema.maxLength(200))).annotations({
    description: "The buyer's company: a domain (`acme.com`, matched and created by domain) or a name (matched in any case). " +
      "Unset, the account is the deal's, else the attendees' company domain (docs/deals.md)"
  }),
  deal_id: Schema.optional(Text.pipe(Schema.maxLength(200))).annotations({
    description: "The deal's id in your system or CRM: calls with the same `deal_id` are one deal (created on first sight). " +
      "Unset, the call joins its account's open deal within the sales cycle, or starts one"
  }),
  meeting_at: Schema.optional(Text).annotations({
    description: "When the meeting took place (ISO-8601 with its offset, not in the future): the time every period view counts " +
      "the call in. Unset, the upload time"
  }),
  attendees: Schema.optional(Schema.Union(Text, Schema.Array(Text))).annotations({
    description: "The meeting's attendees' e-mail addresses: the field repeated, or one value separated by commas (at most 50)"
  })
}).annotations({ identifier: "AudioUploadForm" })

/** A call's account: the buyer's company (docs/deals.md). */
export const CallAccount = Schema.Struct({
  account_id: Text,
  name: Text,
  domain: Schema.NullOr(Text)
}).annotations({ identifier: "CallAccount" })

export const UploadHeaders = Schema.Struct({
  ...ApiKeyOrSessionHeaders.fields,
  "idempotency-key": Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(255)))
})

/**
 * What an analysis misses and how to get it (`notices` of the upload's 202 and of the status). One code so far:
 * `no_transcriber`, no speech-to-text provider for the tenant's calls, so the content dimensions are not assessed.
 */
export const AnalysisNotice = Schema.Struct({
  code: Schema.Literal("no_transcriber"),
  message: Text.annotations({ description: "What is missing and what it costs the analysis, in words" }),
  how: Text.annotations({
    description: "How to get it: the portal integration (`PUT /v1/client-portal/integrations/llm`), or the service's " +
      "`TRANSCRIBER` and its key (environment variables, named, never their values)"
  }),
  dimensions: Schema.Array(ScorecardDimensionName).annotations({ description: "The scorecard dimensions it leaves not assessed" }),
  decided_from: Schema.Literal("configuration", "analysis").annotations({
    description: "`configuration`: the tenant's speech-to-text configuration now (an upload, a call queued or processing: " +
      "the analysis reads it again when it starts); `analysis`: what the completed analysis ran with (no transcript)"
  })
}).annotations({ identifier: "AnalysisNotice" })

const Notices = Schema.optional(Schema.Array(AnalysisNotice)).annotations({
  description: "Present when there is something to say: what the analysis misses (or will miss) and how to configure it"
})

export const UploadAccepted = Schema.Struct({
  call_id: CallId,
  status: Schema.Literal("queued"),
  external_call_id: Schema.NullOr(Text),
  created_at: Timestamp,
  status_url: Text,
  report_url: Text,
  notices: Notices
}).annotations({ identifier: "UploadAccepted" })

export const AnalysisStatusResponse = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  status: AnalysisStatus,
  stage: AnalysisStage,
  progress: Schema.Number.annotations({ description: "0–1 within the whole analysis" }),
  created_at: Timestamp,
  started_at: Schema.NullOr(Timestamp),
  completed_at: Schema.NullOr(Timestamp),
  duration_s: Schema.NullOr(Schema.Number),
  credits_charged: Schema.Number,
  requested_call_type: Schema.optionalWith(Schema.NullOr(CallTypeName), { default: () => null }).annotations({
    description: "`call_type` as given at upload; null when not given"
  }),
  requested_rep_channel: Schema.optionalWith(Schema.NullOr(RepChannelSetting), { default: () => null }).annotations({
    description: "`rep_channel` as given at upload; null when not given (the tenant's default applies)"
  }),
  error: Schema.NullOr(AnalysisError),
  summary: Schema.NullOr(AnalysisSummary),
  notices: Notices,
  meeting_at: Timestamp.annotations({
    description: "When the meeting took place: the upload's or the recorder's `meeting_at`, else the upload time (`created_at`); " +
      "the time every period view counts the call in"
  }),
  account: Schema.optionalWith(Schema.NullOr(CallAccount), { default: () => null }).annotations({
    description: "The buyer's company the call belongs to; null: none known (docs/deals.md)"
  }),
  deal_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }).annotations({
    description: "The deal the call belongs to (Callsight's id); null: none (no account and no `deal_id` at upload)"
  }),
  external_deal_id: Schema.optionalWith(Schema.NullOr(Text), { default: () => null }).annotations({
    description: "The deal's id in your system or CRM (the upload's `deal_id`); null when the deal has none"
  }),
  attendees: Schema.optionalWith(Schema.Array(Text), { default: () => [] }).annotations({
    description: "The meeting's attendees' addresses: the upload's `attendees`, or the recorder's calendar event's invitees"
  })
}).annotations({ identifier: "AnalysisStatusResponse" })

export class AudioApi extends HttpApiGroup.make("audio")
  .add(
    HttpApiEndpoint.post("uploadAudio", "/v1/teams/audio")
      .setHeaders(UploadHeaders)
      .setPayload(HttpApiSchema.MultipartStream(AudioUploadForm))
      .addSuccess(UploadAccepted, { status: 202 })
      .addError(Forbidden)
      .addError(PaymentRequired)
      .addError(Conflict)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .annotate(
        OpenApi.Summary,
        "Upload a call recording; 202 with the call id before the analysis runs. " +
          "`Idempotency-Key`: the same key and file within 24 h answer the same body; another file with the key is 409."
      )
      .annotate(
        OpenApi.Description,
        "With a tenant key (agents), or from the portal with the session cookie. An owner's or an admin's upload is as a key's; " +
          "a member who is a verified closer (a rep) uploads their own calls: without `closer_email` the call is theirs, " +
          "with another closer's e-mail 403; a member who is no closer cannot upload (403). The idempotency key is the " +
          "tenant's, whichever door the upload came through."
      )
  )
  .add(
    HttpApiEndpoint.get("getAnalysis", "/analysis/:call_id")
      .setPath(CallIdPath)
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(AnalysisStatusResponse)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Status of an analysis: queued, processing, completed or failed (tenant key, or a portal session: a rep's own calls)")
  )
  // the upload and the status: the tenant key, or the portal's session
  .middlewareEndpoints(TenantOrSessionAuth)
  .add(
    HttpApiEndpoint.get("getReportHtml", "/reports/:call_id/html")
      .setPath(CallIdPath)
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .addError(NotFound)
      .addError(Conflict)
      .middleware(TenantOrSessionAuth)
      .annotate(OpenApi.Summary, "The HTML evidence report of a completed call; 409 with the status before")
      .annotate(
        OpenApi.Description,
        "The `report_url` of an upload. Agents fetch it with their tenant key; a person opens it in a browser signed in " +
          "to the portal, whose session cookie is enough (the same report). Either way the call must be the caller's " +
          "tenant's: another tenant's call is 404, as an unknown one. A presented key decides alone."
      )
  )
  .annotate(OpenApi.Title, "Audio analysis for agents")
  .annotate(OpenApi.Description, "Upload a call recording (MP3, WAV, M4A), poll its analysis, fetch the HTML evidence report; one credit per completed analysis.")
{}
