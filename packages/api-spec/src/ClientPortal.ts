/**
 * 4.3 Client portal (prefix /v1/client-portal): profiles, account views, outcome truth, closers
 * and events (the recording bot's three operations, `recall/*`, are their own group: Recorder.ts).
 * Every operation takes the session cookie except the public closer e-mail verification. The views here are also served by the assistant interface
 * (Assistant.ts imports them: one implementation, two doors). `PlanUsage` lives in PlanUsage.ts,
 * shared with the admin's plan-usage.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AnalysisStage, AnalysisStatus, RepChannelSetting, ScorecardDimensionName } from "./CallAnalysis.js"
import { CallId, ClientId, CloserId, EmailAddress, IncludeTestData, NonEmptyTrimmedText, Payload, Plan, queryInt, Text, Timestamp, TimestampInput, strictBody } from "./Common.js"

import { PlanUsage } from "./PlanUsage.js"
import { Conflict, Forbidden, NotFound, Unauthorized } from "./Errors.js"
import { SessionAuth } from "./Security.js"
import { TrendChange } from "./Trends.js"

// ---------------------------------------------------------------------------------------------
// Shared pieces

const ShortText = NonEmptyTrimmedText.pipe(Schema.maxLength(200))
const LongText = Text.pipe(Schema.maxLength(10_000))
const CurrencyCode = Text.pipe(
  Schema.pattern(/^[A-Z]{3}$/, { message: () => "must be an ISO-4217 currency code such as USD" })
).annotations({ description: "ISO-4217 currency code", examples: ["USD", "EUR"] })
const ShareOfOne = Schema.Number.annotations({ description: "A share from 0 to 1" })
const IsoDate = Text.annotations({ description: "Calendar date (YYYY-MM-DD, UTC)", examples: ["2026-11-21"] })

/** Fills an optional, nullable body field with null, so a PUT replaces the whole record. */
const nullable = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })
/** An optional list of at most `max` items, empty when omitted. */
const list = <A, I>(schema: Schema.Schema<A, I>, max: number) =>
  Schema.optionalWith(Schema.Array(schema).pipe(Schema.maxItems(max)), { default: (): ReadonlyArray<A> => [] })

/**
 * Class annotations naming the encoded side too: a body with defaulted fields is a transformation,
 * and without this its OpenAPI schema would be inlined instead of referenced by the spec's name.
 */
const namedBody = (identifier: string) => [undefined, undefined, { identifier }] as const

const CallIdPath = Schema.Struct({ call_id: CallId })
const CloserIdPath = Schema.Struct({ closer_id: CloserId })

/** Counts of a tenant's analyses by status. */
export const CallsByStatus = Schema.Struct({
  queued: Schema.Number,
  processing: Schema.Number,
  completed: Schema.Number,
  failed: Schema.Number
}).annotations({ identifier: "CallsByStatus" })

/** One week of the score trend. */
export const ScoreTrendPoint = Schema.Struct({
  period_start: IsoDate,
  calls: Schema.Number,
  average_score: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "ScoreTrendPoint" })

export const AlertSeverity = Schema.Literal("info", "warning", "critical")

/** An open problem of the account, with a hint to fix it. */
export const AccountAlert = Schema.Struct({
  code: Text.annotations({ examples: ["credits_low", "no_verified_closer", "token_expiring", "repeated_failures"] }),
  severity: AlertSeverity,
  message: Text,
  fix_hint: Schema.NullOr(Text),
  since: Schema.NullOr(Timestamp)
}).annotations({ identifier: "AccountAlert" })

// ---------------------------------------------------------------------------------------------
// Profiles

/** One ICP as sent in `MarketProfileRequest` (omitted fields are null). */
export const IdealCustomerProfileInput = Schema.Struct({
  label: ShortText,
  description: nullable(LongText),
  company_size: nullable(Text.pipe(Schema.maxLength(100))),
  region: nullable(Text.pipe(Schema.maxLength(100)))
}).annotations({ identifier: "IdealCustomerProfileInput" })

export const IdealCustomerProfile = Schema.Struct({
  label: Text,
  description: Schema.NullOr(Text),
  company_size: Schema.NullOr(Text),
  region: Schema.NullOr(Text)
}).annotations({ identifier: "IdealCustomerProfile" })

/** An IANA time zone the runtime knows, e.g. `Europe/Berlin`. */
const TimeZone = Text.pipe(
  Schema.filter((zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone })
      return true
    } catch {
      return "must be an IANA time zone such as Europe/Berlin or America/New_York"
    }
  })
).annotations({
  description: "The team's IANA time zone: the daily brief's days are its days (UTC when unset)",
  examples: ["Europe/Berlin"]
})

const marketProfileFields = {
  industry: nullable(ShortText),
  sub_industry: nullable(ShortText),
  icps: list(IdealCustomerProfileInput, 50),
  regions: list(ShortText, 50),
  average_deal_size: nullable(Schema.Number.pipe(Schema.nonNegative())),
  currency: Schema.optionalWith(CurrencyCode, { default: () => "USD" }),
  sales_cycle_days: nullable(Schema.Int.pipe(Schema.between(0, 3650))),
  competitors: list(ShortText, 50),
  time_zone: nullable(TimeZone)
}

/** PUT replaces the whole profile: an omitted field is cleared. */
export class MarketProfileRequest extends Schema.Class<MarketProfileRequest>("MarketProfileRequest")(
  marketProfileFields,
  namedBody("MarketProfileRequest")
) {}

export const MarketProfile = Schema.Struct({
  client_id: ClientId,
  industry: Schema.NullOr(Text),
  sub_industry: Schema.NullOr(Text),
  icps: Schema.Array(IdealCustomerProfile),
  regions: Schema.Array(Text),
  average_deal_size: Schema.NullOr(Schema.Number),
  currency: Text,
  sales_cycle_days: Schema.NullOr(Schema.Number),
  competitors: Schema.Array(Text),
  time_zone: Schema.NullOr(Text),
  updated_at: Schema.NullOr(Timestamp).annotations({ description: "null until the profile is first saved" })
}).annotations({ identifier: "MarketProfile" })

export const QualificationFramework = Schema.Literal("MEDDPICC", "BANT", "SPIN")

export const LeadSource = Schema.Struct({
  label: ShortText,
  channel: ShortText.annotations({ examples: ["inbound", "outbound", "referral", "partner", "event"] })
}).annotations({ identifier: "LeadSource" })

export class LeadContextProfileRequest extends Schema.Class<LeadContextProfileRequest>("LeadContextProfileRequest")({
  lead_sources: list(LeadSource, 50),
  qualification_framework: Schema.optionalWith(QualificationFramework, { default: () => "MEDDPICC" as const }),
  ideal_customer_notes: nullable(LongText),
  disqualifiers: list(ShortText, 50),
  rep_channel: Schema.optionalWith(RepChannelSetting, { default: () => "auto" as const }).annotations({
    description: "The tenant's default for stereo uploads that do not say which channel carries the rep (`auto` unless set)"
  })
}, namedBody("LeadContextProfileRequest")) {}

export const LeadContextProfile = Schema.Struct({
  client_id: ClientId,
  lead_sources: Schema.Array(LeadSource),
  qualification_framework: QualificationFramework,
  ideal_customer_notes: Schema.NullOr(Text),
  disqualifiers: Schema.Array(Text),
  rep_channel: RepChannelSetting,
  updated_at: Schema.NullOr(Timestamp).annotations({ description: "null until the profile is first saved" })
}).annotations({ identifier: "LeadContextProfile" })

// ---------------------------------------------------------------------------------------------
// Account views

export const CloserStatus = Schema.Literal("pending_verification", "active", "paused", "removed")

export const AccountCockpit = Schema.Struct({
  client_id: ClientId,
  company_name: Text,
  plan: Plan,
  is_test: Schema.Boolean,
  credits_balance: Schema.Number,
  month: Schema.Struct({
    period_start: Timestamp,
    period_end: Timestamp,
    calls_by_status: CallsByStatus,
    ingests_included: Schema.Number,
    ingests_used: Schema.Number,
    ingests_remaining: Schema.Number
  }),
  average_score: Schema.NullOr(Schema.Number).annotations({ description: "Average overall score of the last 4 weeks" }),
  score_trend: Schema.Array(ScoreTrendPoint).annotations({ description: "The last 4 weeks, oldest first" }),
  closers_by_status: Schema.Struct({
    pending_verification: Schema.Number,
    active: Schema.Number,
    paused: Schema.Number,
    removed: Schema.Number
  }),
  integrations: Schema.Struct({
    calendar_connected: Schema.Number.annotations({ description: "Closers with the calendar connected" }),
    video_connected: Schema.Number.annotations({ description: "Closers with the video-meeting tool connected" }),
    crm: Schema.Array(Text).annotations({ description: "Connected CRM providers" }),
    llm: Schema.Array(Text).annotations({ description: "Configured LLM / speech-to-text providers" }),
    recorder_active: Schema.Boolean
  }),
  open_alerts: Schema.Array(AccountAlert),
  generated_at: Timestamp
}).annotations({ identifier: "AccountCockpit" })

export const OnboardingStepKey = Schema.Literal(
  "profile_saved",
  "closer_added",
  "closer_verified",
  "recorder_connected",
  "speech_to_text_connected",
  "first_call_analysed",
  "first_outcome_recorded",
  "coaching_welcome_done"
)

export const OnboardingStep = Schema.Struct({
  key: OnboardingStepKey,
  label: Text,
  done: Schema.Boolean,
  done_at: Schema.NullOr(Timestamp).annotations({
    description: "When it was first done; null while not done, and for `speech_to_text_connected` done by the service's own `TRANSCRIBER`"
  })
}).annotations({ identifier: "OnboardingStep" })

export const OnboardingActivation = Schema.Struct({
  client_id: ClientId,
  steps: Schema.Array(OnboardingStep).annotations({ description: "In the order a new tenant takes them" }),
  steps_done: Schema.Number,
  steps_total: Schema.Number,
  activation_pct: Schema.Number.annotations({ description: "0–100" }),
  next_step: Schema.NullOr(OnboardingStepKey),
  generated_at: Timestamp
}).annotations({ identifier: "OnboardingActivation" })

export const AnalysisFailure = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  failed_at: Timestamp,
  stage: Schema.NullOr(AnalysisStage),
  code: Text,
  message: Text
}).annotations({ identifier: "AnalysisFailure" })

export const OperationalTrust = Schema.Struct({
  client_id: ClientId,
  window_days: Schema.Number.annotations({ description: "7" }),
  since: Timestamp,
  analyses_by_status: CallsByStatus,
  analyses_total: Schema.Number,
  success_rate: Schema.NullOr(ShareOfOne).annotations({ description: "completed / (completed + failed); null without finished analyses" }),
  processing_time_s: Schema.Struct({
    median: Schema.NullOr(Schema.Number),
    p95: Schema.NullOr(Schema.Number),
    sample: Schema.Number
  }),
  recent_failures: Schema.Array(AnalysisFailure),
  last_completed_at: Schema.NullOr(Timestamp),
  generated_at: Timestamp
}).annotations({ identifier: "OperationalTrust" })

/** Value delivered over a period: what the service did for the tenant. */
export const ValueDelivered = Schema.Struct({
  calls_analysed: Schema.Number,
  hours_analysed: Schema.Number,
  coaching_moments: Schema.Number.annotations({ description: "Evidence items that cost points: moments worth coaching" }),
  average_score: Schema.NullOr(Schema.Number),
  score_change: Schema.NullOr(Schema.Number).annotations({ description: "Average score of the period minus the one before" }),
  score_trend: Schema.Array(ScoreTrendPoint),
  outcomes_recorded: Schema.Number,
  deals_won: Schema.Number,
  deals_lost: Schema.Number,
  win_rate: Schema.NullOr(ShareOfOne).annotations({ description: "won / (won + lost) from outcome truth" }),
  win_rate_sample: Schema.Number
}).annotations({ identifier: "ValueDelivered" })

export const RoiAssumption = Schema.Struct({
  key: Text.annotations({ examples: ["review_minutes_per_call", "manager_hourly_cost", "average_deal_size"] }),
  label: Text,
  value: Schema.Number,
  unit: Text,
  source: Schema.Literal("default", "market_profile", "outcome_truth", "plan")
}).annotations({ identifier: "RoiAssumption" })

/** ROI with every assumption stated, so the customer can check the arithmetic. */
export const RoiEstimate = Schema.Struct({
  currency: Text,
  manager_hours_saved: Schema.Number,
  manager_time_value: Schema.Number,
  win_rate_change: Schema.NullOr(Schema.Number).annotations({ description: "Change of the win rate against the baseline, in points of share" }),
  average_deal_size: Schema.NullOr(Schema.Number),
  win_rate_value: Schema.NullOr(Schema.Number).annotations({ description: "win-rate change × deals × average deal size" }),
  plan_cost: Schema.Number,
  net_value: Schema.NullOr(Schema.Number),
  roi_multiple: Schema.NullOr(Schema.Number).annotations({ description: "(value − plan cost) / plan cost" }),
  assumptions: Schema.Array(RoiAssumption),
  unavailable: Schema.Array(Schema.Struct({
    figure: Text.annotations({ examples: ["win_rate_change", "average_deal_size", "roi_multiple"] }),
    reason: Text
  })).annotations({ description: "The figures answered null, each with why (never a guess)" })
}).annotations({ identifier: "RoiEstimate" })

export const CustomerValue = Schema.Struct({
  client_id: ClientId,
  period_start: Timestamp,
  period_end: Timestamp,
  value: ValueDelivered,
  roi: RoiEstimate,
  generated_at: Timestamp
}).annotations({ identifier: "CustomerValue" })

export const CustomerRoiDigest = Schema.Struct({
  client_id: ClientId,
  period_start: Timestamp,
  period_end: Timestamp,
  headline: Text,
  highlights: Schema.Array(Text),
  value: ValueDelivered,
  roi: RoiEstimate,
  generated_at: Timestamp
}).annotations({ identifier: "CustomerRoiDigest" })

export const CloserProgress = Schema.Struct({
  closer_id: Schema.NullOr(CloserId),
  email: Text,
  full_name: Schema.NullOr(Text),
  calls_analysed: Schema.Number,
  average_score: Schema.NullOr(Schema.Number),
  score_change: Schema.NullOr(Schema.Number),
  weakest_dimension: Schema.NullOr(ScorecardDimensionName),
  win_rate: Schema.NullOr(ShareOfOne),
  win_rate_sample: Schema.Number
}).annotations({ identifier: "CloserProgress" })

export const DealOutcome = Schema.Literal("won", "lost", "no_decision", "open")

export const CallWorthReviewing = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  closer_email: Schema.NullOr(Text),
  created_at: Timestamp,
  overall_score: Schema.NullOr(Schema.Number),
  outcome: Schema.NullOr(DealOutcome),
  reason: Text.annotations({ examples: ["lowest score of the quarter", "lost after a price objection"] })
}).annotations({ identifier: "CallWorthReviewing" })

/** The quarterly review: the digest plus per-closer progress and the calls worth reviewing. */
export const CustomerRoiReviewPack = Schema.Struct({
  ...CustomerRoiDigest.fields,
  closers: Schema.Array(CloserProgress),
  calls_to_review: Schema.Array(CallWorthReviewing)
}).annotations({ identifier: "CustomerRoiReviewPack" })

/** A call's id in the uploader's system, where a view names a call. */
const ExternalCallId = Schema.NullOr(Text).annotations({
  description: "The call's id in the uploader's system (the upload's `external_call_id`); null when it gave none"
})

export const BriefCall = Schema.Struct({
  call_id: CallId,
  external_call_id: ExternalCallId,
  closer_email: Schema.NullOr(Text),
  status: AnalysisStatus,
  created_at: Timestamp,
  duration_s: Schema.NullOr(Schema.Number),
  overall_score: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "BriefCall" })

export const NotableMoment = Schema.Struct({
  call_id: CallId,
  external_call_id: ExternalCallId,
  closer_email: Schema.NullOr(Text),
  at: Schema.Number.annotations({ description: "Seconds into the call" }),
  kind: Text.annotations({ examples: ["objection", "next_step", "long_monologue", "customer_story"] }),
  quote: Schema.NullOr(Text)
}).annotations({ identifier: "NotableMoment" })

export const DealAtRisk = Schema.Struct({
  call_id: CallId,
  external_call_id: ExternalCallId,
  closer_email: Schema.NullOr(Text),
  risk: Schema.Literal("low", "medium", "high"),
  reasons: Schema.Array(Text)
}).annotations({ identifier: "DealAtRisk" })

/** The operation of this service that does a suggested action, as a program (or the web app) performs it. */
export const ActionOperation = Schema.Struct({
  method: Schema.Literal("GET", "POST", "PUT"),
  path: Text.annotations({
    description: "The operation's path on this service, its ids filled in",
    examples: ["/v1/client-portal/closers/clo_1/send-verification"]
  })
}).annotations({ identifier: "ActionOperation" })

export const SuggestedAction = Schema.Struct({
  action: Text.annotations({
    description: "`review_call`, `follow_up` (a deal at risk), `record_outcome`, `verify_closer`",
    examples: ["review_call", "record_outcome", "verify_closer"]
  }),
  label: Text,
  call_id: Schema.NullOr(CallId),
  closer_id: Schema.NullOr(CloserId),
  url: Schema.NullOr(Text).annotations({
    description:
      "Where a person does it: the web app's page, a link to open (GET) in a browser. A call's actions lead to the call's page " +
      "(`/app/calls/{call_id}`: its report, outcome and audit are there), `verify_closer` to the team's (`/app/team`), " +
      "where the verification e-mail is sent again; absolute, under the service's public address"
  }),
  operation: Schema.NullOr(ActionOperation).annotations({
    description:
      "The operation that does it, with the same session: `review_call` and `follow_up` GET the call's report " +
      "(`/v1/client-portal/calls/{call_id}/report`), `record_outcome` PUTs its outcome truth " +
      "(`/v1/client-portal/calls/{call_id}/outcome-truth`, body `OutcomeTruthRequest`), `verify_closer` POSTs " +
      "`/v1/client-portal/closers/{closer_id}/send-verification` (no body: the closer's link is e-mailed again); " +
      "null when no operation of this service does it"
  })
}).annotations({ identifier: "SuggestedAction" })

export const DailyBrief = Schema.Struct({
  client_id: ClientId,
  date: IsoDate.annotations({ description: "The day the brief is for; its calls are from the day before" }),
  calls: Schema.Array(BriefCall),
  calls_analysed: Schema.Number,
  average_score: Schema.NullOr(Schema.Number),
  notable_moments: Schema.Array(NotableMoment),
  deals_at_risk: Schema.Array(DealAtRisk),
  suggested_actions: Schema.Array(SuggestedAction),
  changes: Schema.Array(TrendChange).annotations({
    description: "The notable changes of the trends between the last 7 days (to the brief's day) and the 7 before, largest first, " +
      "each a sentence (\"objections about price up from 3 to 9 this week\") with the calls behind it (docs/trends.md)"
  }),
  generated_at: Timestamp
}).annotations({ identifier: "DailyBrief" })

// ---------------------------------------------------------------------------------------------
// Concierge

export class ConciergeRequest extends Schema.Class<ConciergeRequest>("ConciergeRequest")({
  message: NonEmptyTrimmedText.pipe(Schema.maxLength(4000)),
  conversation_id: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(100)))
}) {}

export const AnswerSource = Schema.Struct({
  kind: Text.annotations({ examples: ["call", "closer", "outcome_truth", "plan_usage", "article"] }),
  id: Schema.NullOr(Text),
  label: Text
}).annotations({ identifier: "AnswerSource" })

export const ConciergeReply = Schema.Struct({
  conversation_id: Text,
  reply: Text,
  intent: Schema.NullOr(Text).annotations({ description: "The recognised intent, null when none matched" }),
  sources: Schema.Array(AnswerSource)
}).annotations({ identifier: "ConciergeReply" })

// ---------------------------------------------------------------------------------------------
// Outcome truth

export class OutcomeTruthRequest extends Schema.Class<OutcomeTruthRequest>("OutcomeTruthRequest")({
  outcome: DealOutcome,
  deal_value: Schema.optional(Schema.Number.pipe(Schema.nonNegative(), Schema.finite())),
  currency: Schema.optional(CurrencyCode),
  closed_at: Schema.optional(TimestampInput),
  stage: Schema.optional(ShortText),
  reason: Schema.optional(Text.pipe(Schema.maxLength(1000))),
  notes: Schema.optional(LongText),
  is_test_data: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  lead_source: Schema.optional(ShortText.annotations({
    description: "Where the lead came from: one of the labels of the lead-context profile (market intelligence files the call under it)"
  })),
  icp_label: Schema.optional(ShortText.annotations({ description: "The ICP of the market profile the buyer fits" }))
}, namedBody("OutcomeTruthRequest")) {}

export const OutcomeTruth = Schema.Struct({
  call_id: CallId,
  outcome: DealOutcome,
  deal_value: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Text),
  closed_at: Schema.NullOr(Timestamp),
  stage: Schema.NullOr(Text),
  reason: Schema.NullOr(Text),
  notes: Schema.NullOr(Text),
  is_test_data: Schema.Boolean,
  lead_source: Schema.NullOr(Text),
  icp_label: Schema.NullOr(Text),
  recorded_by: Schema.NullOr(Text).annotations({ description: "user_id of the last writer" }),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "OutcomeTruth" })

export const OutcomeTruthBacklogItem = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  closer_email: Schema.NullOr(Text),
  completed_at: Timestamp,
  age_days: Schema.Number,
  overall_score: Schema.NullOr(Schema.Number),
  estimated_deal_value: Schema.NullOr(Schema.Number).annotations({ description: "From the market profile's average deal size" }),
  currency: Schema.NullOr(Text),
  is_test_data: Schema.Boolean
}).annotations({ identifier: "OutcomeTruthBacklogItem" })

export const OutcomeTruthBacklog = Schema.Struct({
  calls: Schema.Array(OutcomeTruthBacklogItem).annotations({ description: "Oldest and highest-value first" }),
  total: Schema.Number.annotations({ description: "Completed calls without an outcome, before the limit" }),
  limit: Schema.Number
}).annotations({ identifier: "OutcomeTruthBacklog" })

// ---------------------------------------------------------------------------------------------
// Closers

export const CloserIntegrationState = Schema.Struct({
  connected: Schema.Boolean,
  connected_at: Schema.NullOr(Timestamp),
  token_expires_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CloserIntegrationState" })

export const Closer = Schema.Struct({
  closer_id: CloserId,
  email: Text,
  full_name: Text,
  team: Schema.NullOr(Text),
  status: CloserStatus,
  email_verified_at: Schema.NullOr(Timestamp),
  calendar: CloserIntegrationState,
  video: CloserIntegrationState,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Closer" })

export const CloserList = Schema.Struct({
  closers: Schema.Array(Closer)
}).annotations({ identifier: "CloserList" })

export class AddCloserRequest extends Schema.Class<AddCloserRequest>("AddCloserRequest")({
  email: EmailAddress,
  full_name: NonEmptyTrimmedText.pipe(Schema.maxLength(200)),
  team: Schema.optional(NonEmptyTrimmedText.pipe(Schema.maxLength(100)))
}) {}

export class UpdateCloserStatusRequest extends Schema.Class<UpdateCloserStatusRequest>("UpdateCloserStatusRequest")({
  status: Schema.Literal("active", "paused", "removed").annotations({
    description: "`pending_verification` is set by the service only; `active` needs a verified e-mail"
  })
}) {}

export const VerificationSent = Schema.Struct({
  closer_id: CloserId,
  email: Text,
  verification_sent: Schema.Boolean,
  expires_at: Timestamp
}).annotations({ identifier: "VerificationSent" })

export class VerifyEmailRequest extends Schema.Class<VerifyEmailRequest>("VerifyEmailRequest")({
  token: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(512))
}) {}

export const CloserEmailVerified = Schema.Struct({
  closer_id: CloserId,
  email: Text,
  status: CloserStatus,
  email_verified_at: Timestamp
}).annotations({ identifier: "CloserEmailVerified" })

// ---------------------------------------------------------------------------------------------
// Events, health KPIs, audit logs

export const SalesCallEvent = Schema.Struct({
  event_id: Text,
  type: Text.annotations({
    examples: ["upload.accepted", "recording.received", "analysis.completed", "analysis.failed", "integration.webhook"]
  }),
  platform: Schema.NullOr(Text).annotations({ examples: ["api", "recorder", "calendar", "video", "crm-a"] }),
  status: Text.annotations({ examples: ["received", "processed", "failed", "ignored"] }),
  closer_email: Schema.NullOr(Text),
  call_id: Schema.NullOr(CallId),
  received_at: Timestamp,
  error: Schema.NullOr(Text)
}).annotations({ identifier: "SalesCallEvent" })

export const SalesCallEventList = Schema.Struct({
  events: Schema.Array(SalesCallEvent).annotations({ description: "Newest first (equal times: the greater `event_id` first)" }),
  total: Schema.Number.annotations({
    description:
      "How many events match, of which `events` is one page: for `events`, those that pass the filters; for " +
      "`events/recent`, those of the last 7 days (it answers the newest 100)"
  })
}).annotations({ identifier: "SalesCallEventList" })

export const IntegrationHealth = Schema.Struct({
  integration: Text.annotations({ examples: ["calendar", "video", "crm-a", "llm", "recorder", "messenger-a"] }),
  provider: Schema.NullOr(Text),
  connected: Schema.Boolean,
  last_success_at: Schema.NullOr(Timestamp),
  last_error_at: Schema.NullOr(Timestamp),
  last_error: Schema.NullOr(Text),
  events_7d: Schema.Number,
  error_rate_7d: Schema.NullOr(ShareOfOne),
  token_expires_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "IntegrationHealth" })

export const HealthKpis = Schema.Struct({
  integrations: Schema.Array(IntegrationHealth),
  generated_at: Timestamp
}).annotations({ identifier: "HealthKpis" })

export const AuditLogEntry = Schema.Struct({
  log_id: Text,
  at: Timestamp,
  actor: Text.annotations({ description: "user_id, key id, `staff` or `system`" }),
  actor_type: Schema.Literal("user", "api_key", "staff", "system"),
  action: Text.annotations({ examples: ["closer.added", "market_profile.saved", "api_key.revoked"] }),
  target_type: Text,
  target_id: Schema.NullOr(Text),
  ip: Schema.NullOr(Text),
  metadata: Payload
}).annotations({ identifier: "AuditLogEntry" })

export const AuditLogPage = Schema.Struct({
  entries: Schema.Array(AuditLogEntry).annotations({ description: "Newest first (equal times: the greater `log_id` first)" }),
  total: Schema.Number.annotations({ description: "How many entries pass the filters, of which `entries` is one page" })
}).annotations({ identifier: "AuditLogPage" })

// ---------------------------------------------------------------------------------------------
// The group

export const OutcomeTruthBacklogParams = Schema.Struct({
  limit: queryInt({
    min: 1,
    max: 200,
    default: 25,
    description: "How many calls to list: 1 to 200 (the spec declares no bounds; these are the service's), default 25"
  }),
  include_test_data: IncludeTestData
})

/** A filter's text: 1 to 200 characters, no space at either end. */
const FilterText = NonEmptyTrimmedText.pipe(Schema.maxLength(200))

/** A time bound (`TimestampInput`), its description kept in the OpenAPI document (its refinement's would replace it). */
const TimeBound = (description: string) => TimestampInput.annotations({ description, jsonSchema: { description } })

/**
 * What `GET /audit-logs` takes: a page (`limit`, `offset`) and filters, all optional and combined
 * with AND; `total` counts the entries that pass them. Both time bounds are inclusive, to the
 * millisecond; a plain date as `until` means the whole of that day (UTC), as the calls list reads
 * its `created_to`.
 */
export const AuditLogParams = Schema.Struct({
  limit: queryInt({ min: 1, max: 200, default: 50, description: "Entries per page: 1 to 200, default 50" }),
  offset: queryInt({ min: 0, max: 1_000_000, default: 0, description: "Entries to skip (newest first), default 0" }),
  action: Schema.optional(FilterText.annotations({ description: "Only entries of this action, exactly (`closer.added`)", examples: ["closer.added"] })),
  target_type: Schema.optional(FilterText.annotations({ description: "Only entries whose target is of this type, exactly (`closer`, `tenant`, `call`)" })),
  actor_type: Schema.optional(AuditLogEntry.fields.actor_type.annotations({ description: "Only entries by actors of this type" })),
  actor: Schema.optional(
    FilterText.annotations({
      description:
        "Only entries by this actor: a member's e-mail (any case; what the portal shows for a user), which names the " +
        "entries of that member's user id, or the stored `actor` exactly (a user id, key id, `staff:…`, `system:…`)"
    })
  ),
  since: Schema.optional(TimeBound("Only entries at or after this time: an ISO-8601 date-time with a time zone, or a date (its midnight, UTC)")),
  until: Schema.optional(TimeBound("Only entries at or before this time: an ISO-8601 date-time with a time zone, or a date (the whole day, UTC)"))
})

export const SalesCallEventFilter = Schema.Struct({
  status: Schema.optional(Text),
  closer_email: Schema.optional(Text),
  platform: Schema.optional(Text),
  limit: queryInt({ min: 1, max: 200, default: 50, description: "Events per page: 1 to 200, default 50" }),
  offset: queryInt({ min: 0, max: 1_000_000, default: 0, description: "Events to skip (newest first), default 0" })
})

export class ClientPortalApi extends HttpApiGroup.make("clientPortal")
  .add(
    HttpApiEndpoint.get("getMarketProfile", "/market-profile")
      .addSuccess(MarketProfile)
      .annotate(OpenApi.Summary, "Read the tenant's market profile")
  )
  .add(
    HttpApiEndpoint.put("saveMarketProfile", "/market-profile")
      .setPayload(strictBody(MarketProfileRequest))
      .addSuccess(MarketProfile)
      .annotate(OpenApi.Summary, "Save the tenant's market profile; replaces it whole")
  )
  .add(
    HttpApiEndpoint.get("getLeadContextProfile", "/lead-context-profile")
      .addSuccess(LeadContextProfile)
      .annotate(OpenApi.Summary, "Read the tenant's lead-context profile")
  )
  .add(
    HttpApiEndpoint.put("saveLeadContextProfile", "/lead-context-profile")
      .setPayload(strictBody(LeadContextProfileRequest))
      .addSuccess(LeadContextProfile)
      .annotate(OpenApi.Summary, "Save the tenant's lead-context profile; replaces it whole")
  )
  .add(
    HttpApiEndpoint.get("getAccountCockpit", "/account-cockpit")
      .addSuccess(AccountCockpit)
      .annotate(
        OpenApi.Summary,
        "One screen of the account: plan, credits, this month's calls by status, average score and its 4-week trend, " +
          "closers by status, integrations connected, open alerts"
      )
  )
  .add(
    HttpApiEndpoint.get("getPlanUsage", "/plan-usage")
      .addSuccess(PlanUsage)
      .annotate(OpenApi.Summary, "Monthly ingest usage and payment-platform upgrade links")
  )
  .add(
    HttpApiEndpoint.get("getOnboardingActivation", "/onboarding-activation")
      .addSuccess(OnboardingActivation)
      .annotate(OpenApi.Summary, "Onboarding steps with their completion, and the activation percentage")
  )
  .add(
    HttpApiEndpoint.get("getOperationalTrust", "/operational-trust")
      .addSuccess(OperationalTrust)
      .annotate(
        OpenApi.Summary,
        "The tenant's analysis pipeline over 7 days: analyses by status, success rate, processing times, recent failures"
      )
  )
  .add(
    HttpApiEndpoint.get("getCustomerValue", "/customer-value")
      .addSuccess(CustomerValue)
      .annotate(OpenApi.Summary, "Value delivered to the tenant and the ROI with its assumptions stated")
  )
  .add(
    HttpApiEndpoint.get("getCustomerRoiDigest", "/customer-roi-digest")
      .addSuccess(CustomerRoiDigest)
      .annotate(OpenApi.Summary, "A short ROI digest: headline, highlights, value delivered and ROI")
  )
  .add(
    HttpApiEndpoint.get("getCustomerRoiReviewPack", "/customer-roi-review-pack")
      .addSuccess(CustomerRoiReviewPack)
      .annotate(
        OpenApi.Summary,
        "The quarterly review pack: the ROI digest plus per-closer progress and the calls worth reviewing"
      )
  )
  .add(
    HttpApiEndpoint.get("getDailyBrief", "/daily-brief")
      .addSuccess(DailyBrief)
      .annotate(OpenApi.Summary, "Yesterday's calls, notable moments, deals at risk and today's suggested actions")
  )
  .add(
    HttpApiEndpoint.post("chatWithConcierge", "/concierge/chat")
      .setPayload(strictBody(ConciergeRequest))
      .addSuccess(ConciergeReply)
      .annotate(OpenApi.Summary, "Ask the concierge; it answers from the tenant's own data")
  )
  .add(
    HttpApiEndpoint.get("getOutcomeTruth", "/calls/:call_id/outcome-truth")
      .setPath(CallIdPath)
      .addSuccess(Schema.NullOr(OutcomeTruth))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "The outcome-truth record of a call; null when none is recorded yet")
  )
  .add(
    HttpApiEndpoint.put("recordOutcomeTruth", "/calls/:call_id/outcome-truth")
      .setPath(CallIdPath)
      .setPayload(strictBody(OutcomeTruthRequest))
      .addSuccess(OutcomeTruth)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Record or replace the outcome truth of a call")
  )
  .add(
    HttpApiEndpoint.get("listOutcomeTruthBacklog", "/outcome-truth-backlog")
      .setUrlParams(OutcomeTruthBacklogParams)
      .addSuccess(OutcomeTruthBacklog)
      .annotate(OpenApi.Summary, "Completed calls without an outcome-truth record, oldest and highest-value first")
  )
  .add(
    HttpApiEndpoint.get("listClosers", "/closers")
      .addSuccess(CloserList)
      .annotate(OpenApi.Summary, "List closers")
  )
  .add(
    HttpApiEndpoint.post("addCloser", "/closers")
      .setPayload(strictBody(AddCloserRequest))
      .addSuccess(Closer)
      .addError(Forbidden)
      .addError(Conflict)
      .annotate(
        OpenApi.Summary,
        "Add a closer and send the verification e-mail (owners and admins); 409 when the e-mail is already a closer"
      )
  )
  .add(
    HttpApiEndpoint.patch("updateCloserStatus", "/closers/:closer_id")
      .setPath(CloserIdPath)
      .setPayload(strictBody(UpdateCloserStatusRequest))
      .addSuccess(Closer)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Summary,
        "Update a closer's status (owners and admins); 409 when activating a closer whose e-mail is not verified"
      )
  )
  .add(
    HttpApiEndpoint.post("sendCloserVerification", "/closers/:closer_id/send-verification")
      .setPath(CloserIdPath)
      .addSuccess(VerificationSent)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Summary,
        "Resend the verification e-mail (owners and admins); 409 when the e-mail is already verified"
      )
  )
  .add(
    HttpApiEndpoint.get("listRecentEvents", "/events/recent")
      .addSuccess(SalesCallEventList)
      .annotate(OpenApi.Summary, "Recent sales-call webhook events, newest first")
  )
  .add(
    HttpApiEndpoint.get("listEvents", "/events")
      .setUrlParams(SalesCallEventFilter)
      .addSuccess(SalesCallEventList)
      .annotate(OpenApi.Summary, "Sales-call events filtered by status, closer e-mail and platform, newest first, a page at a time")
  )
  .add(
    HttpApiEndpoint.get("getHealthKpis", "/health-kpis")
      .addSuccess(HealthKpis)
      .annotate(
        OpenApi.Summary,
        "Integration health KPIs: per integration, connected, last success, error rate over 7 days, token expiry"
      )
  )
  .add(
    HttpApiEndpoint.get("listAuditLogs", "/audit-logs")
      .setUrlParams(AuditLogParams)
      .addSuccess(AuditLogPage)
      .annotate(
        OpenApi.Summary,
        "Internal audit logs: every change made through the service, newest first, filtered by action, target type, actor and time"
      )
  )
  .middleware(SessionAuth)
  .prefix("/v1/client-portal")
  .annotate(OpenApi.Title, "Client portal")
  .annotate(OpenApi.Description, "The sales team's portal (session cookie): profiles, account views, closers, outcome records, events, audit logs.")
{}

/**
 * The portal's one public operation: the closer's click on the e-mailed verification link, which
 * carries no session (the token is the credential).
 */
export class PortalPublicApi extends HttpApiGroup.make("portalPublic")
  .add(
    HttpApiEndpoint.post("verifyCloserEmail", "/closers/verify-email")
      .setPayload(strictBody(VerifyEmailRequest))
      .addSuccess(CloserEmailVerified)
      .addError(Unauthorized)
      .annotate(
        OpenApi.Summary,
        "Public; verifies a closer's e-mail from a magic-link token. 401 for an unknown, used or expired token"
      )
  )
  .prefix("/v1/client-portal")
  .annotate(OpenApi.Title, "Client portal (public)")
  .annotate(OpenApi.Description, "The portal's one operation without a session: a closer confirms their e-mail with the link's token.")
{}
