/**
 * 4.7 Internal administration (`/v1/internal/admin`): companion operations, status, recall alerts,
 * plan usage and bonus, pipeline health, doctor, runtime flags and market intelligence.
 * Staff `X-API-Key` (`ADMIN_API_KEY`) on every operation; a tenant key is refused with 403.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  IncludeTestData,
  OptionalClientId,
  Payload,
  PeriodParams,
  PeriodType,
  Periods,
  queryInt,
  Plan,
  Timestamp
} from "./Common.js"
import { Conflict, NotFound, NotImplemented } from "./Errors.js"
import { YearMonth, PlanUsage } from "./PlanUsage.js"
import { AdminAuth, ApiKeyHeaders } from "./Security.js"

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

const ClientIdPath = Schema.Struct({ client_id: Schema.String })
const CallIdPath = Schema.Struct({ call_id: Schema.String })

const NonEmptyText = (max: number) => Schema.String.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(max))

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

export const CompanionChannel = Schema.Literal("messenger-a", "messenger-b")

export class CompanionConnectCodeRequest extends Schema.Class<CompanionConnectCodeRequest>(
  "CompanionConnectCodeRequest"
)({
  channel: CompanionChannel,
  ttl_minutes: Schema.optional(
    Schema.Int.pipe(Schema.between(1, 10_080)).annotations({ description: "Lifetime of the code; default 30 minutes, at most 7 days" })
  )
}) {}

export const CompanionConnectCode = Schema.Struct({
  code: Schema.String.annotations({ description: "Short one-time code" }),
  channel: CompanionChannel,
  client_id: Schema.NullOr(Schema.String).annotations({
    description: "The tenant the chat will be linked to; null links it to staff notifications"
  }),
  start_command: Schema.String.annotations({ description: "What to send the bot, e.g. `/start 7KQ2XW`" }),
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
  client_id: Schema.NullOr(Schema.String),
  channel: CompanionChannel,
  chat_id: Schema.String,
  status: Schema.Literal("sent", "failed", "skipped"),
  error: Schema.NullOr(Schema.String),
  sent_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CompanionDelivery" })

export const CompanionPushResult = Schema.Struct({
  kind: CompanionPushKind,
  channel: Schema.NullOr(CompanionChannel),
  client_id: Schema.NullOr(Schema.String),
  sent: Schema.Number,
  failed: Schema.Number,
  skipped: Schema.Number,
  deliveries: Schema.Array(CompanionDelivery)
}).annotations({ identifier: "CompanionPushResult" })

export const CompanionLink = Schema.Struct({
  link_id: Schema.String,
  client_id: Schema.NullOr(Schema.String),
  company_name: Schema.NullOr(Schema.String),
  channel: CompanionChannel,
  chat_id: Schema.String,
  linked_at: Timestamp,
  last_message_at: Schema.NullOr(Timestamp),
  last_push_at: Schema.NullOr(Timestamp),
  active: Schema.Boolean
}).annotations({ identifier: "CompanionLink" })

export const CompanionChannelStatus = Schema.Struct({
  channel: CompanionChannel,
  configured: Schema.Boolean.annotations({ description: "Secrets and send endpoint present in configuration" }),
  linked_chats: Schema.Number,
  last_update_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "CompanionChannelStatus" })

export const CompanionStatus = Schema.Struct({
  client_id: Schema.NullOr(Schema.String).annotations({ description: "The filter given, if any" }),
  channels: Schema.Array(CompanionChannelStatus),
  links: Schema.Array(CompanionLink),
  pending_codes: Schema.Number.annotations({ description: "Connect codes issued, not used and not expired" })
}).annotations({ identifier: "CompanionStatus" })

// ---------------------------------------------------------------------------------------------
// Status, recall alerts, usage bonus
// ---------------------------------------------------------------------------------------------

export const WorkerInfo = Schema.Struct({
  worker_id: Schema.String,
  host: Schema.String,
  started_at: Timestamp,
  last_heartbeat_at: Timestamp,
  jobs_in_flight: Schema.Number
}).annotations({ identifier: "WorkerInfo" })

export const AdminStatus = Schema.Struct({
  version: Schema.String,
  generated_at: Timestamp,
  client_id: Schema.NullOr(Schema.String).annotations({ description: "The filter given, if any" }),
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
    alive: Schema.Number.annotations({ description: "Workers with a heartbeat within their lease" }),
    workers: Schema.Array(WorkerInfo)
  })
}).annotations({ identifier: "AdminStatus" })

export const RecallAlertKind = Schema.Literal("bot_join_failed", "recording_missing")

export const RecallAlert = Schema.Struct({
  alert_id: Schema.String,
  kind: RecallAlertKind,
  client_id: Schema.String,
  company_name: Schema.String,
  closer_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  platform: Schema.NullOr(Schema.String).annotations({ description: "Meeting platform, e.g. `video`" }),
  meeting_url: Schema.NullOr(Schema.String),
  scheduled_at: Schema.NullOr(Timestamp),
  message: Schema.String,
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
  bonus_id: Schema.String,
  client_id: Schema.String,
  month: YearMonth,
  extra_ingests: Schema.Number,
  reason: Schema.String,
  granted_at: Timestamp,
  month_bonus_total: Schema.Number.annotations({ description: "All bonus ingests granted for that month" }),
  plan_usage: PlanUsage.annotations({ description: "The current month's usage after the grant" })
}).annotations({ identifier: "UsageBonusGranted" })

// ---------------------------------------------------------------------------------------------
// Pipeline health, doctor
// ---------------------------------------------------------------------------------------------

export const StuckJob = Schema.Struct({
  job_id: Schema.String,
  call_id: Schema.String,
  client_id: Schema.String,
  worker_id: Schema.NullOr(Schema.String),
  claimed_at: Schema.NullOr(Timestamp),
  lease_expires_at: Timestamp,
  attempts: Schema.Number
}).annotations({ identifier: "StuckJob" })

export const JobFailure = Schema.Struct({
  call_id: Schema.String,
  client_id: Schema.String,
  failed_at: Timestamp,
  error_code: Schema.String,
  message: Schema.String
}).annotations({ identifier: "JobFailure" })

export const PipelineHealth = Schema.Struct({
  generated_at: Timestamp,
  alert_level: Schema.Literal("ok", "warning", "critical").annotations({
    description: "Derived from the operational 7-day view only, never from the all-time counts"
  }),
  alert_reasons: Schema.Array(Schema.String),
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
    past_lease: Schema.Number.annotations({ description: "Jobs processing past their lease expiry" }),
    past_lease_jobs: Schema.Array(StuckJob),
    recent_failures: Schema.Array(JobFailure)
  }).annotations({ description: "Call jobs created in the last 7 days: the view for alerts" }),
  all_time: Schema.Struct({
    jobs_by_status: JobCountsByStatus,
    total: Schema.Number,
    first_job_at: Schema.NullOr(Timestamp)
  }).annotations({ description: "Raw counts since the start, for reference only" })
}).annotations({ identifier: "PipelineHealth" })

export const DoctorCheck = Schema.Struct({
  check: Schema.String.annotations({
    examples: ["no_verified_closer", "credits_low", "tokens_expiring", "repeated_failures", "no_outcome_truth_30d"]
  }),
  passed: Schema.Boolean,
  severity: CheckSeverity.annotations({ description: "How serious a failure of this check is" }),
  message: Schema.String,
  fix_hint: Schema.NullOr(Schema.String),
  details: Schema.NullOr(Payload)
}).annotations({ identifier: "DoctorCheck" })

export const DoctorTenant = Schema.Struct({
  client_id: Schema.String,
  company_name: Schema.String,
  plan: Plan,
  status: Schema.Literal("ok", "warning", "critical").annotations({ description: "Worst severity among failed checks" }),
  checks: Schema.Array(DoctorCheck)
}).annotations({ identifier: "DoctorTenant" })

export const DoctorReport = Schema.Struct({
  generated_at: Timestamp,
  client_id: Schema.NullOr(Schema.String).annotations({ description: "The filter given, if any" }),
  summary: Schema.Struct({
    tenants_checked: Schema.Number,
    ok: Schema.Number,
    warning: Schema.Number,
    critical: Schema.Number
  }),
  tenants: Schema.Array(DoctorTenant).annotations({ description: "Worst first" })
}).annotations({ identifier: "DoctorReport" })

// ---------------------------------------------------------------------------------------------
// Runtime flags
// ---------------------------------------------------------------------------------------------

export const KnownRuntimeFlag = Schema.Struct({
  key: Schema.String.annotations({ examples: ["transcriber", "report.include_transcript", "companion.enabled"] }),
  type: Schema.Literal("string", "boolean", "number", "object"),
  default: Schema.Unknown,
  description: Schema.String
}).annotations({ identifier: "KnownRuntimeFlag" })

export const RuntimeFlags = Schema.Struct({
  client_id: Schema.String,
  flags: Payload.annotations({ description: "The tenant's flags as saved; unknown keys are kept" }),
  unknown_keys: Schema.Array(Schema.String).annotations({ description: "Keys the service does not read" }),
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "RuntimeFlags" })

export const RuntimeFlagsList = Schema.Struct({
  known_flags: Schema.Array(KnownRuntimeFlag),
  tenants: Schema.Array(RuntimeFlags).annotations({ description: "One entry when `client_id` is given" })
}).annotations({ identifier: "RuntimeFlagsList" })

// ---------------------------------------------------------------------------------------------
// Market intelligence
// ---------------------------------------------------------------------------------------------

export const MarketIntelIcp = Schema.Struct({
  label: Schema.String,
  description: Schema.NullOr(Schema.String),
  company_size: Schema.NullOr(Schema.String),
  region: Schema.NullOr(Schema.String)
}).annotations({ identifier: "MarketIntelIcp" })

export const MarketIntelLeadSource = Schema.Struct({
  label: Schema.String,
  channel: Schema.NullOr(Schema.String)
}).annotations({ identifier: "MarketIntelLeadSource" })

/** A tenant's market profile as market intelligence segments it. */
export const MarketIntelProfile = Schema.Struct({
  client_id: Schema.String,
  company_name: Schema.String,
  is_test: Schema.Boolean,
  industry: Schema.NullOr(Schema.String),
  sub_industry: Schema.NullOr(Schema.String),
  icps: Schema.Array(MarketIntelIcp),
  regions: Schema.Array(Schema.String),
  average_deal_size: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  sales_cycle_days: Schema.NullOr(Schema.Number),
  competitors: Schema.Array(Schema.String),
  lead_sources: Schema.Array(MarketIntelLeadSource),
  extra: Payload.annotations({ description: "Keys of the saved object outside the known fields, kept as given" }),
  source: Schema.Literal("portal", "admin").annotations({ description: "Who saved it last" }),
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "MarketIntelProfile" })

export const MarketIntelProfiles = Schema.Struct({
  profiles: Schema.Array(MarketIntelProfile)
}).annotations({ identifier: "MarketIntelProfiles" })

export const MarketIntelProfileDeleted = Schema.Struct({
  client_id: Schema.String,
  deleted: Schema.Boolean
}).annotations({ identifier: "MarketIntelProfileDeleted" })

/** One period of the aggregates. */
export const MarketIntelPeriod = Schema.Struct({
  period_type: PeriodType,
  period_start: Schema.String.annotations({ description: "First day, `YYYY-MM-DD` (UTC)" }),
  period_end: Schema.String.annotations({ description: "First day of the next period, exclusive" }),
  label: Schema.String.annotations({ examples: ["2026-W47", "2026-11", "2026-Q4", "2026-11-21"] })
}).annotations({ identifier: "MarketIntelPeriod" })

/** A rate with the sample it was computed on: `value` = `numerator` ÷ `sample_size`, null when the sample is 0. */
export const SampledRate = Schema.Struct({
  value: Schema.NullOr(Schema.Number),
  numerator: Schema.Number,
  sample_size: Schema.Number
}).annotations({ identifier: "SampledRate" })

/** An average with the sample it was computed on. */
export const SampledAverage = Schema.Struct({
  value: Schema.NullOr(Schema.Number),
  sample_size: Schema.Number
}).annotations({ identifier: "SampledAverage" })

export const MarketIntelOutcomeCounts = Schema.Struct({
  won: Schema.Number,
  lost: Schema.Number,
  no_decision: Schema.Number,
  open: Schema.Number
}).annotations({ identifier: "MarketIntelOutcomeCounts" })

/** The measures every segment row carries. */
export const MarketIntelSegmentMetrics = Schema.Struct({
  tenants: Schema.Number,
  calls: Schema.Number,
  completed_calls: Schema.Number,
  average_score: SampledAverage,
  win_rate: SampledRate.annotations({ description: "won ÷ (won + lost)" }),
  outcome_coverage: SampledRate.annotations({ description: "completed calls with an outcome recorded ÷ completed calls" }),
  outcomes: MarketIntelOutcomeCounts
}).annotations({ identifier: "MarketIntelSegmentMetrics" })

/** Fields every market-intel read answers with. */
const MarketIntelHeader = {
  period: MarketIntelPeriod.annotations({ description: "The period asked for (default: the current one)" }),
  generated_at: Timestamp,
  source: Schema.Literal("stored", "computed").annotations({
    description: "`stored`: fresh stored aggregates; `computed`: computed for this request"
  })
}

/** Header of the reads that take `periods`: the trailing periods, oldest first, ending with `period`. */
const MarketIntelSeriesHeader = {
  ...MarketIntelHeader,
  periods: Schema.Array(MarketIntelPeriod)
}

const IncludeTestDataEcho = { include_test_data: Schema.Boolean }

export const MarketIntelPeriodMetrics = Schema.Struct({
  period: MarketIntelPeriod,
  ...MarketIntelSegmentMetrics.fields
}).annotations({ identifier: "MarketIntelPeriodMetrics" })

export const MarketIntelOverview = Schema.Struct({
  ...MarketIntelHeader,
  totals: MarketIntelSegmentMetrics,
  previous: Schema.NullOr(MarketIntelSegmentMetrics).annotations({ description: "The period before, for comparison" }),
  industries: Schema.Number.annotations({ description: "Industries with calls in the period" }),
  tenants_with_profile: Schema.Number,
  tenants_without_profile: Schema.Number
}).annotations({ identifier: "MarketIntelOverview" })

export const IndustryIcpSummary = Schema.Struct({
  icp_label: Schema.String,
  calls: Schema.Number,
  win_rate: SampledRate
}).annotations({ identifier: "IndustryIcpSummary" })

export const MarketIntelIndustryRow = Schema.Struct({
  industry_label: Schema.String,
  ...MarketIntelSegmentMetrics.fields,
  icps: Schema.Array(IndustryIcpSummary)
}).annotations({ identifier: "MarketIntelIndustryRow" })

export const MarketIntelIndustries = Schema.Struct({
  ...MarketIntelHeader,
  industries: Schema.Array(MarketIntelIndustryRow).annotations({ description: "Most calls first" })
}).annotations({ identifier: "MarketIntelIndustries" })

export const IndustryIcpIntel = Schema.Struct({
  ...MarketIntelSeriesHeader,
  industry_label: Schema.String,
  icp_label: Schema.String,
  current: MarketIntelSegmentMetrics,
  series: Schema.Array(MarketIntelPeriodMetrics).annotations({ description: "One row per trailing period, oldest first" }),
  industry_baseline: MarketIntelSegmentMetrics.annotations({ description: "The whole industry in the current period, to compare" })
}).annotations({ identifier: "IndustryIcpIntel" })

export const LeadSourceRow = Schema.Struct({
  lead_source: Schema.String,
  channel: Schema.NullOr(Schema.String),
  ...MarketIntelSegmentMetrics.fields,
  series: Schema.Array(MarketIntelPeriodMetrics)
}).annotations({ identifier: "LeadSourceRow" })

export const LeadSourceIntel = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  lead_sources: Schema.Array(LeadSourceRow).annotations({ description: "Most calls first; `unknown` for calls without one" })
}).annotations({ identifier: "LeadSourceIntel" })

export const OutcomeTruthTotals = Schema.Struct({
  ...MarketIntelSegmentMetrics.fields,
  won_value: Schema.Number.annotations({ description: "Sum of `deal_value` of won outcomes" }),
  average_deal_value: SampledAverage
}).annotations({ identifier: "OutcomeTruthTotals" })

export const OutcomeTruthIndustryRow = Schema.Struct({
  industry_label: Schema.String,
  ...OutcomeTruthTotals.fields
}).annotations({ identifier: "OutcomeTruthIndustryRow" })

export const OutcomeTruthIntel = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  totals: OutcomeTruthTotals,
  series: Schema.Array(MarketIntelPeriodMetrics),
  by_industry: Schema.Array(OutcomeTruthIndustryRow)
}).annotations({ identifier: "OutcomeTruthIntel" })

export const MarketIntelSegmentType = Schema.Literal("industry", "icp", "lead_source")

export const SegmentTruthGapRow = Schema.Struct({
  segment_type: MarketIntelSegmentType,
  segment_label: Schema.String,
  industry_label: Schema.NullOr(Schema.String).annotations({ description: "The industry of an `icp` segment" }),
  predicted_win_rate: SampledRate.annotations({
    description: "Score-implied win probability averaged over the decided calls (numerator: expected wins)"
  }),
  actual_win_rate: SampledRate.annotations({ description: "won ÷ (won + lost)" }),
  gap: Schema.NullOr(Schema.Number).annotations({ description: "predicted − actual; null when either is null" }),
  calls: Schema.Number
}).annotations({ identifier: "SegmentTruthGapRow" })

export const SegmentTruthGap = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  overall: SegmentTruthGapRow.annotations({ description: "All segments together (`segment_type` industry, label `all`)" }),
  segments: Schema.Array(SegmentTruthGapRow).annotations({ description: "Largest absolute gap first" })
}).annotations({ identifier: "SegmentTruthGap" })

export const HygieneIssue = Schema.Struct({
  field: Schema.String.annotations({ examples: ["industry", "lead_source", "deal_value", "outcome"] }),
  kind: Schema.Literal("missing", "contradictory"),
  detail: Schema.String
}).annotations({ identifier: "HygieneIssue" })

export const CallHygiene = Schema.Struct({
  call_id: Schema.String,
  client_id: Schema.String,
  marks: Payload.annotations({ description: "The hygiene marks as saved (free-form)" }),
  excluded_from_aggregates: Schema.Boolean.annotations({ description: "`exclude: true` in the marks" }),
  updated_at: Timestamp
}).annotations({ identifier: "CallHygiene" })

export const HygieneCallRow = Schema.Struct({
  call_id: Schema.String,
  client_id: Schema.String,
  company_name: Schema.String,
  created_at: Timestamp,
  issues: Schema.Array(HygieneIssue),
  hygiene: Schema.NullOr(CallHygiene)
}).annotations({ identifier: "HygieneCallRow" })

export const DataHygiene = Schema.Struct({
  ...MarketIntelSeriesHeader,
  totals: Schema.Struct({
    calls_checked: Schema.Number,
    issue_rate: SampledRate.annotations({ description: "calls with at least one issue ÷ calls checked" }),
    marked: Schema.Number.annotations({ description: "Calls with hygiene marks" }),
    excluded: Schema.Number.annotations({ description: "Calls excluded from the aggregates by their marks" })
  }),
  issues_by_field: Schema.Array(Schema.Struct({
    field: Schema.String,
    missing: Schema.Number,
    contradictory: Schema.Number
  })),
  series: Schema.Array(Schema.Struct({ period: MarketIntelPeriod, issue_rate: SampledRate })),
  calls: Schema.Array(HygieneCallRow).annotations({ description: "Calls with issues, newest first" })
}).annotations({ identifier: "DataHygiene" })

export const TruthAdoptionTenantRow = Schema.Struct({
  client_id: Schema.String,
  company_name: Schema.String,
  industry_label: Schema.NullOr(Schema.String),
  adoption: SampledRate,
  last_outcome_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "TruthAdoptionTenantRow" })

export const TruthAdoption = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  adoption: SampledRate.annotations({ description: "completed calls with an outcome recorded ÷ completed calls" }),
  series: Schema.Array(Schema.Struct({ period: MarketIntelPeriod, adoption: SampledRate })),
  by_tenant: Schema.Array(TruthAdoptionTenantRow).annotations({ description: "Lowest adoption first" })
}).annotations({ identifier: "TruthAdoption" })

export const TruthBacklogCall = Schema.Struct({
  call_id: Schema.String,
  client_id: Schema.String,
  company_name: Schema.String,
  industry_label: Schema.NullOr(Schema.String),
  icp_label: Schema.NullOr(Schema.String),
  lead_source: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  completed_at: Timestamp,
  overall_score: Schema.NullOr(Schema.Number),
  deal_value: Schema.NullOr(Schema.Number),
  priority: Schema.Number.annotations({ description: "Expected improvement of the estimates if recorded; higher first" }),
  reason: Schema.String
}).annotations({ identifier: "TruthBacklogCall" })

export const TruthBacklogPriority = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  backlog_total: Schema.Number.annotations({ description: "Completed calls without an outcome in the window" }),
  calls: Schema.Array(TruthBacklogCall)
}).annotations({ identifier: "TruthBacklogPriority" })

export const RadarTrend = Schema.Literal("up", "flat", "down")
export const RadarLevel = Schema.Literal("low", "medium", "high")

export const RadarSignal = Schema.Struct({
  kind: Schema.Literal("risk", "expansion", "renewal"),
  code: Schema.String.annotations({ examples: ["usage_declining", "near_ingest_limit", "no_outcome_truth", "credits_low"] }),
  severity: CheckSeverity,
  message: Schema.String
}).annotations({ identifier: "RadarSignal" })

export const RenewalExpansionRadar = Schema.Struct({
  ...MarketIntelHeader,
  client_id: Schema.String,
  company_name: Schema.String,
  plan: Plan,
  usage_trend: Schema.Struct({
    direction: RadarTrend,
    months: Schema.Array(Schema.Struct({
      month: YearMonth,
      ingests_used: Schema.Number,
      ingests_included: Schema.Number,
      bonus_ingests: Schema.Number
    })).annotations({ description: "Oldest first, ending with the current month" })
  }),
  activation: Schema.Struct({
    activation_pct: Schema.Number,
    steps_done: Schema.Number,
    steps_total: Schema.Number
  }),
  value: Schema.Struct({
    calls_analysed: Schema.Number,
    hours_analysed: Schema.Number,
    average_score: SampledAverage,
    score_trend: Schema.NullOr(Schema.Number).annotations({ description: "Points per week over the last 4 weeks" }),
    win_rate: SampledRate
  }),
  renewal_risk: RadarLevel,
  expansion_potential: RadarLevel,
  signals: Schema.Array(RadarSignal)
}).annotations({ identifier: "RenewalExpansionRadar" })

export const MarketIntelRebuild = Schema.Struct({
  requested: Payload.annotations({ description: "The body as given" }),
  period_types: Schema.Array(PeriodType),
  periods_rebuilt: Schema.Number,
  rows_written: Schema.Number,
  started_at: Timestamp,
  completed_at: Timestamp,
  duration_ms: Schema.Number
}).annotations({ identifier: "MarketIntelRebuild" })

// ---------------------------------------------------------------------------------------------
// Query parameters of the market-intel reads
// ---------------------------------------------------------------------------------------------

/** Set A only. */
export const MarketIntelPeriodParams = Schema.Struct({ ...PeriodParams.fields })
/** Set A plus `periods`. */
export const MarketIntelSeriesParams = Schema.Struct({ ...PeriodParams.fields, periods: Periods })
/** Set A plus `periods` and `include_test_data`. */
export const MarketIntelSeriesTestParams = Schema.Struct({
  ...PeriodParams.fields,
  periods: Periods,
  include_test_data: IncludeTestData
})

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
  )
  .add(
    HttpApiEndpoint.post("createCompanionConnectCode", "/companion/connect-code")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .setPayload(CompanionConnectCodeRequest)
      .addSuccess(CompanionConnectCode)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Issue a short one-time code that links a messaging chat to the tenant (`/start CODE`)")
  )
  .add(
    HttpApiEndpoint.post("pushCompanionMessage", "/companion/push")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(OptionalClientId)
      .setPayload(CompanionPushRequest)
      .addSuccess(CompanionPushResult)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Send the daily brief or a text to the linked chats; 409 when the channel is not configured")
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
      .setPayload(UsageBonusRequest)
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
  .add(
    HttpApiEndpoint.get("listMarketIntelProfiles", "/market-intel/profiles")
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MarketIntelProfiles)
      .annotate(OpenApi.Summary, "Every tenant's market profile")
  )
  .add(
    HttpApiEndpoint.get("getMarketIntelProfile", "/market-intel/profiles/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MarketIntelProfile)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "A tenant's market profile")
  )
  .add(
    HttpApiEndpoint.put("saveMarketIntelProfile", "/market-intel/profiles/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(MarketIntelProfile)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Save a tenant's market profile as a whole")
  )
  .add(
    HttpApiEndpoint.del("deleteMarketIntelProfile", "/market-intel/profiles/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MarketIntelProfileDeleted)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Delete a tenant's market profile")
  )
  .add(
    HttpApiEndpoint.get("getMarketIntelOverview", "/market-intel/overview")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelPeriodParams)
      .addSuccess(MarketIntelOverview)
      .annotate(OpenApi.Summary, "Calls, scores, win rate and outcome coverage across tenants for a period")
  )
  .add(
    HttpApiEndpoint.get("listMarketIntelIndustries", "/market-intel/industries")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelPeriodParams)
      .addSuccess(MarketIntelIndustries)
      .annotate(OpenApi.Summary, "Calls, scores, win rates and outcome coverage by industry")
  )
  .add(
    HttpApiEndpoint.get("getIndustryIcpIntel", "/market-intel/industries/:industry_label/icps/:icp_label")
      .setPath(Schema.Struct({ industry_label: Schema.String, icp_label: Schema.String }))
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesParams)
      .addSuccess(IndustryIcpIntel)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "One ICP within an industry over the trailing periods; 404 when no profile uses the labels")
  )
  .add(
    HttpApiEndpoint.get("getLeadSourceIntel", "/market-intel/lead-sources")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(LeadSourceIntel)
      .annotate(OpenApi.Summary, "Calls, scores and win rates by lead source")
  )
  .add(
    HttpApiEndpoint.get("getOutcomeTruthIntel", "/market-intel/outcome-truth")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(OutcomeTruthIntel)
      .annotate(OpenApi.Summary, "Recorded outcomes: coverage, win rates and deal values")
  )
  .add(
    HttpApiEndpoint.get("getSegmentTruthGap", "/market-intel/segment-truth-gap")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(SegmentTruthGap)
      .annotate(OpenApi.Summary, "Predicted (score-implied) minus actual win rate per segment")
  )
  .add(
    HttpApiEndpoint.get("getDataHygiene", "/market-intel/data-hygiene")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesParams)
      .addSuccess(DataHygiene)
      .annotate(OpenApi.Summary, "Calls with missing or contradictory fields, with their hygiene marks")
  )
  .add(
    HttpApiEndpoint.get("getTruthAdoption", "/market-intel/truth-adoption")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(TruthAdoption)
      .annotate(OpenApi.Summary, "Share of completed calls with an outcome recorded")
  )
  .add(
    HttpApiEndpoint.get("getRenewalExpansionRadar", "/market-intel/clients/:client_id/renewal-expansion-radar")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(RenewalExpansionRadar)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "A tenant's usage trend, activation, value and risk signals")
  )
  .add(
    HttpApiEndpoint.get("getTruthBacklogPriority", "/market-intel/truth-backlog-priority")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(TruthBacklogPriority)
      .annotate(OpenApi.Summary, "Calls whose outcome would most improve the estimates")
  )
  .add(
    HttpApiEndpoint.put("setCallHygiene", "/market-intel/calls/:call_id/hygiene")
      .setPath(CallIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(CallHygiene)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Set a call's hygiene marks (a JSON object)")
  )
  .add(
    HttpApiEndpoint.post("rebuildMarketIntel", "/market-intel/rebuild")
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(MarketIntelRebuild)
      .annotate(OpenApi.Summary, "Recompute the stored period aggregates")
  )
  .middleware(AdminAuth)
  .addError(NotImplemented)
  .prefix("/v1/internal/admin")
  .annotate(OpenApi.Title, "Internal administration")
{}
