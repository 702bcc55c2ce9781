/**
 * 4.7 Internal administration (`/v1/internal/admin`): companion operations, status, recall alerts,
 * plan usage and bonus, pipeline health, doctor and runtime flags (market intelligence is its own
 * group, `MarketIntel.ts`, under the same prefix and key).
 * Staff `X-API-Key` (`ADMIN_API_KEY`) on every operation; a tenant key is refused with 403.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  CallId,
  ClientId,
  CloserId,
  EmailAddress,
  OptionalClientId,
  Payload,
  Plan,
  queryInt,
  strictBody,
  Text,
  Timestamp,
  UserId
} from "./Common.js"
import { Conflict, NotFound } from "./Errors.js"
import { YearMonth, PlanUsage } from "./PlanUsage.js"
import { AdminAuth, ApiKeyHeaders } from "./Security.js"

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

const ClientIdPath = Schema.Struct({ client_id: ClientId })

const NonEmptyText = (max: number) => Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(max))

/** Counts of calls (or call jobs) by status. */
export const JobCountsByStatus = Schema.Struct({
  queued: Schema.Number,
  processing: Schema.Number,
  completed: Schema.Number,
  failed: Schema.Number
}).annotations({ identifier: "JobCountsByStatus" })

export const CheckSeverity = Schema.Literal("info", "warning", "critical")

// ---------------------------------------------------------------------------------------------
// Companion
// ---------------------------------------------------------------------------------------------

export const CompanionChannel = Schema.Literal("messenger-a", "messenger-b").annotations({
  description: "`messenger-a`: the Telegram Bot API; `messenger-b`: the WhatsApp Cloud API"
})

export class CompanionConnectCodeRequest extends Schema.Class<CompanionConnectCodeRequest>(
  "CompanionConnectCodeRequest"
)({
  channel: CompanionChannel,
  ttl_minutes: Schema.optional(
    Schema.Int.pipe(Schema.between(1, 10_080)).annotations({ description: "Lifetime of the code; default 15 minutes, at most 7 days" })
  ),
  user_email: Schema.optional(EmailAddress.annotations({
    description: "A user of the tenant the chat is linked for (recorded on the link and in the audit log); absent: the tenant alone"
  }))
}) {}

export const CompanionConnectCode = Schema.Struct({
  code: Text.annotations({
    description: "Short one-time code: 8 characters without 0, O, 1 or I; stored only as its hash, shown once",
    examples: ["7KQ2XWHM"]
  }),
  channel: CompanionChannel,
  client_id: ClientId.annotations({ description: "The tenant the chat will be linked to" }),
  user_id: Schema.NullOr(UserId),
  start_command: Text.annotations({ description: "What to send the bot, e.g. `/start 7KQ2XWHM`" }),
  created_at: Timestamp,
  expires_at: Timestamp
}).annotations({ identifier: "CompanionConnectCode" })

export const CompanionPushKind = Schema.Literal("daily_brief", "text")

export class CompanionPushRequest extends Schema.Class<CompanionPushRequest>("CompanionPushRequest")(
  Schema.Struct({
    channel: Schema.optional(CompanionChannel).annotations({ description: "Absent: every channel with a linked chat" }),
    kind: CompanionPushKind,
    text: Schema.optional(NonEmptyText(4000)).annotations({ description: "Required when `kind` is `text`" })
  }).pipe(
    Schema.filter((r) => r.kind !== "text" || r.text !== undefined || "`text` is required when `kind` is `text`")
  ),
  // the refinement hides the class name from the OpenAPI document; name the encoded side again
  [undefined, undefined, { identifier: "CompanionPushRequest", description: "`text` is required when `kind` is `text`" }]
) {}

export const CompanionDelivery = Schema.Struct({
  client_id: ClientId,
  channel: CompanionChannel,
  chat_id: Text,
  status: Schema.Literal("sent", "failed", "skipped").annotations({
    description: "`skipped`: not attempted (the channel is not configured, or the tenant's `companion.enabled` is false)"
  }),
  error: Schema.NullOr(Text),
  sent_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CompanionDelivery" })

export const CompanionPushResult = Schema.Struct({
  kind: CompanionPushKind,
  channel: Schema.NullOr(CompanionChannel),
  client_id: Schema.NullOr(ClientId).annotations({ description: "The tenant given; null: every tenant with a linked chat" }),
  sent: Schema.Number,
  failed: Schema.Number,
  skipped: Schema.Number,
  deliveries: Schema.Array(CompanionDelivery)
}).annotations({ identifier: "CompanionPushResult" })

export const CompanionLink = Schema.Struct({
  link_id: Text,
  client_id: ClientId,
  company_name: Text,
  user_id: Schema.NullOr(UserId).annotations({ description: "The user the connect code named, if any" }),
  channel: CompanionChannel,
  chat_id: Text,
  linked_at: Timestamp,
  last_message_at: Schema.NullOr(Timestamp),
  last_push_at: Schema.NullOr(Timestamp),
  active: Schema.Boolean.annotations({ description: "False once the chat was unlinked (`/stop`) or linked to another code's tenant" }),
  unlinked_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CompanionLink" })

export const CompanionChannelStatus = Schema.Struct({
  channel: CompanionChannel,
  configured: Schema.Boolean.annotations({ description: "Secrets and send endpoint present in configuration" }),
  missing: Schema.Array(Text).annotations({ description: "The variables still to set for the channel to work" }),
  linked_chats: Schema.Number.annotations({ description: "Active links (of the tenant given)" }),
  last_update_at: Schema.NullOr(Timestamp).annotations({
    description: "The last inbound update of the channel (of the tenant's chats when `client_id` is given)"
  })
}).annotations({ identifier: "CompanionChannelStatus" })

export const CompanionStatus = Schema.Struct({
  client_id: Schema.NullOr(ClientId).annotations({ description: "The filter given, if any" }),
  enabled: Schema.NullOr(Schema.Boolean).annotations({
    description: "The tenant's `companion.enabled` runtime flag (default true) when `client_id` is given; null otherwise"
  }),
  channels: Schema.Array(CompanionChannelStatus),
  links: Schema.Array(CompanionLink).annotations({ description: "Active links first, then by the latest linked" }),
  pending_codes: Schema.Number.annotations({ description: "Connect codes issued, not used and not expired" })
}).annotations({ identifier: "CompanionStatus" })

// ---------------------------------------------------------------------------------------------
// Status, recall alerts, usage bonus
// ---------------------------------------------------------------------------------------------

export const WorkerInfo = Schema.Struct({
  worker_id: Text,
  host: Text,
  pid: Schema.Number,
  concurrency: Schema.Number.annotations({ description: "Worker loops in the process (`WORKER_CONCURRENCY`)" }),
  started_at: Timestamp,
  last_heartbeat_at: Timestamp,
  alive: Schema.Boolean.annotations({ description: "Its last heartbeat is younger than its lease (`WORKER_LEASE_SECONDS`)" }),
  jobs_in_flight: Schema.Number.annotations({ description: "Jobs it holds under a lease now" })
}).annotations({ identifier: "WorkerInfo", description: "One worker process (`callsight serve` or `callsight worker`)" })

export const AdminStatus = Schema.Struct({
  version: Text,
  generated_at: Timestamp,
  client_id: Schema.NullOr(ClientId).annotations({ description: "The filter given, if any" }),
  tenants: Schema.Struct({
    total: Schema.Number,
    test: Schema.Number,
    by_plan: Schema.Struct({ trial: Schema.Number, starter: Schema.Number, growth: Schema.Number, scale: Schema.Number })
  }),
  calls_by_status: JobCountsByStatus,
  queue: Schema.Struct({
    depth: Schema.Number.annotations({ description: "Calls queued, not yet claimed by a worker" }),
    oldest_queued_at: Schema.NullOr(Timestamp),
    oldest_queued_age_s: Schema.NullOr(Schema.Number)
  }),
  workers: Schema.Struct({
    alive: Schema.Number.annotations({ description: "Worker processes with a heartbeat within their lease" }),
    workers: Schema.Array(WorkerInfo).annotations({
      description: "Processes seen in the last 24 hours, alive first; a process that stops cleanly removes its row"
    })
  })
}).annotations({ identifier: "AdminStatus" })

export const RecallAlertKind = Schema.Literal("bot_join_failed", "recording_missing", "ingest_limit_reached").annotations({
  description: "`bot_join_failed`: the bot never got into the meeting; `recording_missing`: the meeting ended without a " +
    "recording to fetch; `ingest_limit_reached`: the recording was not made a call, the plan's monthly ingests being used up"
})

export const RecallAlert = Schema.Struct({
  alert_id: Text,
  kind: RecallAlertKind,
  client_id: ClientId,
  meeting_id: Schema.NullOr(Text).annotations({ description: "The meeting of `GET /v1/client-portal/recall/meetings`" }),
  company_name: Text,
  closer_id: Schema.NullOr(CloserId),
  closer_email: Schema.NullOr(Text),
  platform: Schema.NullOr(Text).annotations({ description: "Meeting platform, e.g. `video`" }),
  meeting_url: Schema.NullOr(Text),
  scheduled_at: Schema.NullOr(Timestamp),
  message: Text,
  occurred_at: Timestamp
}).annotations({ identifier: "RecallAlert" })

export const RecallAlerts = Schema.Struct({
  alerts: Schema.Array(RecallAlert).annotations({ description: "Newest first" }),
  limit: Schema.Number
}).annotations({ identifier: "RecallAlerts" })

export class UsageBonusRequest extends Schema.Class<UsageBonusRequest>("UsageBonusRequest")({
  extra_ingests: Schema.Int.pipe(Schema.positive(), Schema.lessThanOrEqualTo(1_000_000)),
  reason: NonEmptyText(500),
  month: Schema.optional(YearMonth).annotations({ description: "Absent: the current calendar month (UTC)" })
}) {}

export const UsageBonusGranted = Schema.Struct({
  bonus_id: Text,
  client_id: ClientId,
  month: YearMonth,
  extra_ingests: Schema.Number,
  reason: Text,
  granted_at: Timestamp,
  month_bonus_total: Schema.Number.annotations({ description: "All bonus ingests granted for that month" }),
  plan_usage: PlanUsage.annotations({ description: "The current month's usage after the grant" })
}).annotations({ identifier: "UsageBonusGranted" })

// ---------------------------------------------------------------------------------------------
// Pipeline health, doctor
// ---------------------------------------------------------------------------------------------

export const StuckJob = Schema.Struct({
  job_id: Text,
  call_id: CallId,
  client_id: ClientId,
  worker_id: Schema.NullOr(Text),
  claimed_at: Schema.NullOr(Timestamp),
  lease_expires_at: Timestamp,
  attempts: Schema.Number
}).annotations({ identifier: "StuckJob" })

export const JobFailure = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  failed_at: Timestamp,
  error_code: Text,
  message: Text
}).annotations({ identifier: "JobFailure" })

export const PipelineHealth = Schema.Struct({
  generated_at: Timestamp,
  alert_level: Schema.Literal("ok", "warning", "critical").annotations({
    description: "Derived from the operational 7-day view only, never from the all-time counts"
  }),
  alert_reasons: Schema.Array(Text),
  operational: Schema.Struct({
    window_days: Schema.Literal(7),
    since: Timestamp,
    jobs_by_status: JobCountsByStatus,
    total: Schema.Number,
    failure_rate: Schema.NullOr(Schema.Number).annotations({ description: "failed ÷ (completed + failed); null when none finished" }),
    finished: Schema.Number.annotations({ description: "Sample size of `failure_rate`" }),
    processing_time_s: Schema.Struct({
      p50: Schema.NullOr(Schema.Number),
      p95: Schema.NullOr(Schema.Number),
      sample_size: Schema.Number
    }),
    oldest_queued_age_s: Schema.NullOr(Schema.Number),
    queue_depth: Schema.Number.annotations({ description: "Jobs waiting for a worker now" }),
    workers_alive: Schema.Number,
    past_lease: Schema.Number.annotations({ description: "Jobs processing past their lease expiry (their worker stopped renewing)" }),
    past_lease_jobs: Schema.Array(StuckJob),
    failure_codes: Schema.Array(Schema.Struct({
      error_code: Text,
      count: Schema.Number,
      share: Schema.Number.annotations({ description: "Of the window's failures, 0 to 1" })
    })).annotations({ description: "The window's failures by error code, most frequent first" }),
    recent_failures: Schema.Array(JobFailure).annotations({ description: "The 10 latest" })
  }).annotations({ description: "Call jobs created in the last 7 days: the view for alerts" }),
  all_time: Schema.Struct({
    jobs_by_status: JobCountsByStatus,
    total: Schema.Number,
    first_job_at: Schema.NullOr(Timestamp)
  }).annotations({ description: "Raw counts since the start, for reference only" })
}).annotations({ identifier: "PipelineHealth" })

export const DoctorCheck = Schema.Struct({
  check: Text.annotations({
    examples: ["no_verified_closer", "credits_low", "tokens_expiring", "repeated_failures", "no_outcome_truth_30d", "no_transcriber"]
  }),
  passed: Schema.Boolean,
  severity: CheckSeverity.annotations({ description: "How serious a failure of this check is" }),
  message: Text,
  fix_hint: Schema.NullOr(Text),
  details: Schema.NullOr(Payload)
}).annotations({ identifier: "DoctorCheck" })

export const DoctorTenant = Schema.Struct({
  client_id: ClientId,
  company_name: Text,
  plan: Plan,
  status: Schema.Literal("ok", "warning", "critical").annotations({ description: "Worst severity among failed checks" }),
  checks: Schema.Array(DoctorCheck)
}).annotations({ identifier: "DoctorTenant" })

export const DoctorReport = Schema.Struct({
  generated_at: Timestamp,
  client_id: Schema.NullOr(ClientId).annotations({ description: "The filter given, if any" }),
  summary: Schema.Struct({
    tenants_checked: Schema.Number,
    ok: Schema.Number,
    warning: Schema.Number,
    critical: Schema.Number
  }),
  service_checks: Schema.Array(DoctorCheck).annotations({
    description: "Checks of the service itself, not of a tenant (`no_transcriber`: the server-wide `TRANSCRIBER` is none)"
  }),
  tenants: Schema.Array(DoctorTenant).annotations({ description: "Worst first" })
}).annotations({ identifier: "DoctorReport" })

// ---------------------------------------------------------------------------------------------
// Runtime flags
// ---------------------------------------------------------------------------------------------

export const KnownRuntimeFlag = Schema.Struct({
  key: Text.annotations({ examples: ["transcriber", "report.include_transcript", "companion.enabled"] }),
  type: Schema.Literal("string", "boolean", "number", "object"),
  default: Schema.Unknown,
  description: Text
}).annotations({ identifier: "KnownRuntimeFlag" })

export const RuntimeFlags = Schema.Struct({
  client_id: ClientId,
  flags: Payload.annotations({ description: "The tenant's flags as saved; unknown keys are kept" }),
  unknown_keys: Schema.Array(Text).annotations({ description: "Keys the service does not read" }),
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "RuntimeFlags" })

export const RuntimeFlagsList = Schema.Struct({
  known_flags: Schema.Array(KnownRuntimeFlag),
  tenants: Schema.Array(RuntimeFlags).annotations({ description: "One entry when `client_id` is given" })
}).annotations({ identifier: "RuntimeFlagsList" })

// ---------------------------------------------------------------------------------------------
// The group
// ---------------------------------------------------------------------------------------------

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.get("getCompanionStatus", "/companion/status")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .addSuccess(CompanionStatus)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Companion channels: configuration and the linked chats per tenant")
      .annotate(
        OpenApi.Description,
        "Each channel (configured, the variables missing, active links, last inbound update) and the links, " +
          "of the tenant given (404 when unknown) or of every tenant, with their last activity."
      )
  )
  .add(
    HttpApiEndpoint.post("createCompanionConnectCode", "/companion/connect-code")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .setPayload(strictBody(CompanionConnectCodeRequest))
      .addSuccess(CompanionConnectCode)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Issue a short one-time code that links a messaging chat to the tenant (`/start CODE`)")
      .annotate(
        OpenApi.Description,
        "`client_id` is required here (422 without it: a chat belongs to one tenant); 404 for an unknown tenant or " +
          "`user_email`; 409 when the channel is not configured or the tenant's `companion.enabled` is false. " +
          "The code is shown once and kept only as its hash; it works once, until `expires_at`."
      )
  )
  .add(
    HttpApiEndpoint.post("pushCompanionMessage", "/companion/push")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .setPayload(strictBody(CompanionPushRequest))
      .addSuccess(CompanionPushResult)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Send the daily brief or a text to the linked chats; 409 when the channel is not configured")
      .annotate(
        OpenApi.Description,
        "To every active linked chat of the tenant (`client_id`), or of every tenant when it is absent, on `channel` " +
          "or on every channel. `daily_brief` sends each tenant its own brief. 409 when the channel named is not " +
          "configured or the tenant named has `companion.enabled` false; without `client_id`, such tenants' chats " +
          "are `skipped`. Answers how many were sent, failed and skipped, chat by chat."
      )
  )
  .add(
    HttpApiEndpoint.get("getStatus", "/status")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .addSuccess(AdminStatus)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Service status: tenants, calls by status, queue depth and oldest queued age, workers alive, version")
  )
  .add(
    HttpApiEndpoint.get("listRecallAlerts", "/recall-alerts")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(Schema.Struct({
        ...OptionalClientId.fields,
        limit: queryInt({ min: 1, max: 200, default: 50 })
      }))
      .addSuccess(RecallAlerts)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Recording-bot alerts (failed joins, missing recordings), newest first")
  )
  .add(
    HttpApiEndpoint.get("getClientPlanUsage", "/clients/:client_id/plan-usage")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(PlanUsage)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "A tenant's plan usage this month (the portal's plan-usage view)")
  )
  .add(
    HttpApiEndpoint.patch("grantUsageBonus", "/clients/:client_id/usage-bonus")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(strictBody(UsageBonusRequest))
      .addSuccess(UsageBonusGranted)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Grant extra monthly ingests (admin override)")
  )
  .add(
    HttpApiEndpoint.get("getPipelineHealth", "/pipeline-health")
      .setHeaders(ApiKeyHeaders)
      .addSuccess(PipelineHealth)
      .annotate(
        OpenApi.Summary,
        "Platform call-job health: the operational 7-day view (the one for alerts) and all-time raw counts, separately"
      )
  )
  .add(
    HttpApiEndpoint.get("runDoctor", "/doctor")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .addSuccess(DoctorReport)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Per-tenant checks with severity and a fix hint")
  )
  .add(
    HttpApiEndpoint.get("getRuntimeFlags", "/settings/runtime-flags")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .addSuccess(RuntimeFlagsList)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Runtime flags per tenant, and the flags the service reads")
  )
  .add(
    HttpApiEndpoint.put("setRuntimeFlags", "/settings/runtime-flags/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(RuntimeFlags)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Replace a tenant's runtime flags (a JSON object; unknown keys are kept)")
  )
  .middleware(AdminAuth)
  .prefix("/v1/internal/admin")
  .annotate(OpenApi.Title, "Internal administration")
  .annotate(OpenApi.Description, "Staff operations under the admin key: service status, plan usage and bonuses, pipeline health, the doctor, runtime flags, companion pushes.")
{}
