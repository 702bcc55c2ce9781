/**
 * 4.7 Market intelligence (`/v1/internal/admin/market-intel`): staff views across tenants per
 * period, industry, ICP and lead source; profiles, hygiene marks and the stored aggregates. Staff
 * `X-API-Key` (`ADMIN_API_KEY`) on every operation, as the rest of the internal administration.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CheckSeverity } from "./Admin.js"
import { CallId, ClientId, IncludeTestData, Payload, PeriodParams, Periods, PeriodType, Plan, Text, Timestamp } from "./Common.js"
import { NotFound } from "./Errors.js"
import { YearMonth } from "./PlanUsage.js"
import { AdminAuth, ApiKeyHeaders } from "./Security.js"

const ClientIdPath = Schema.Struct({ client_id: ClientId })
const CallIdPath = Schema.Struct({ call_id: CallId })

// ---------------------------------------------------------------------------------------------
// Market intelligence
// ---------------------------------------------------------------------------------------------

export const MarketIntelIcp = Schema.Struct({
  label: Text,
  description: Schema.NullOr(Text),
  company_size: Schema.NullOr(Text),
  region: Schema.NullOr(Text)
}).annotations({ identifier: "MarketIntelIcp" })

export const MarketIntelLeadSource = Schema.Struct({
  label: Text,
  channel: Schema.NullOr(Text)
}).annotations({ identifier: "MarketIntelLeadSource" })

/** A tenant's market profile as market intelligence segments it. */
export const MarketIntelProfile = Schema.Struct({
  client_id: ClientId,
  company_name: Text,
  is_test: Schema.Boolean,
  industry: Schema.NullOr(Text),
  sub_industry: Schema.NullOr(Text),
  icps: Schema.Array(MarketIntelIcp),
  regions: Schema.Array(Text),
  average_deal_size: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Text),
  sales_cycle_days: Schema.NullOr(Schema.Number),
  competitors: Schema.Array(Text),
  lead_sources: Schema.Array(MarketIntelLeadSource),
  extra: Payload.annotations({ description: "Keys of the saved object outside the known fields, kept as given" }),
  source: Schema.Literal("portal", "admin").annotations({ description: "Who saved it last" }),
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "MarketIntelProfile" })

export const MarketIntelProfiles = Schema.Struct({
  profiles: Schema.Array(MarketIntelProfile)
}).annotations({ identifier: "MarketIntelProfiles" })

export const MarketIntelProfileDeleted = Schema.Struct({
  client_id: ClientId,
  deleted: Schema.Boolean
}).annotations({ identifier: "MarketIntelProfileDeleted" })

/** One period of the aggregates. */
export const MarketIntelPeriod = Schema.Struct({
  period_type: PeriodType,
  period_start: Text.annotations({ description: "First day, `YYYY-MM-DD` (UTC)" }),
  period_end: Text.annotations({ description: "First day of the next period, exclusive" }),
  label: Text.annotations({ examples: ["2026-W47", "2026-11", "2026-Q4", "2026-11-21"] })
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
  icp_label: Text,
  calls: Schema.Number,
  win_rate: SampledRate
}).annotations({ identifier: "IndustryIcpSummary" })

export const MarketIntelIndustryRow = Schema.Struct({
  industry_label: Text,
  ...MarketIntelSegmentMetrics.fields,
  icps: Schema.Array(IndustryIcpSummary)
}).annotations({ identifier: "MarketIntelIndustryRow" })

export const MarketIntelIndustries = Schema.Struct({
  ...MarketIntelHeader,
  industries: Schema.Array(MarketIntelIndustryRow).annotations({ description: "Most calls first" })
}).annotations({ identifier: "MarketIntelIndustries" })

export const IndustryIcpIntel = Schema.Struct({
  ...MarketIntelSeriesHeader,
  industry_label: Text,
  icp_label: Text,
  current: MarketIntelSegmentMetrics,
  series: Schema.Array(MarketIntelPeriodMetrics).annotations({ description: "One row per trailing period, oldest first" }),
  industry_baseline: MarketIntelSegmentMetrics.annotations({ description: "The whole industry in the current period, to compare" })
}).annotations({ identifier: "IndustryIcpIntel" })

export const LeadSourceRow = Schema.Struct({
  lead_source: Text,
  channel: Schema.NullOr(Text),
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
  industry_label: Text,
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
  segment_label: Text,
  industry_label: Schema.NullOr(Text).annotations({ description: "The industry of an `icp` segment" }),
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
  field: Text.annotations({ examples: ["industry", "lead_source", "deal_value", "outcome"] }),
  kind: Schema.Literal("missing", "contradictory"),
  detail: Text
}).annotations({ identifier: "HygieneIssue" })

export const CallHygiene = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  marks: Payload.annotations({ description: "The hygiene marks as saved (free-form)" }),
  excluded_from_aggregates: Schema.Boolean.annotations({ description: "`exclude: true` in the marks" }),
  updated_at: Timestamp
}).annotations({ identifier: "CallHygiene" })

export const HygieneCallRow = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  company_name: Text,
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
    field: Text,
    missing: Schema.Number,
    contradictory: Schema.Number
  })),
  series: Schema.Array(Schema.Struct({ period: MarketIntelPeriod, issue_rate: SampledRate })),
  calls: Schema.Array(HygieneCallRow).annotations({ description: "Calls with issues, newest first" })
}).annotations({ identifier: "DataHygiene" })

export const TruthAdoptionTenantRow = Schema.Struct({
  client_id: ClientId,
  company_name: Text,
  industry_label: Schema.NullOr(Text),
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
  call_id: CallId,
  client_id: ClientId,
  company_name: Text,
  industry_label: Schema.NullOr(Text),
  icp_label: Schema.NullOr(Text),
  lead_source: Schema.NullOr(Text),
  closer_email: Schema.NullOr(Text),
  completed_at: Timestamp,
  overall_score: Schema.NullOr(Schema.Number),
  deal_value: Schema.NullOr(Schema.Number),
  priority: Schema.Number.annotations({ description: "Expected improvement of the estimates if recorded; higher first" }),
  reason: Text
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
  code: Text.annotations({ examples: ["usage_declining", "near_ingest_limit", "no_outcome_truth", "credits_low"] }),
  severity: CheckSeverity,
  message: Text
}).annotations({ identifier: "RadarSignal" })

export const RenewalExpansionRadar = Schema.Struct({
  ...MarketIntelHeader,
  client_id: ClientId,
  company_name: Text,
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

export class MarketIntelApi extends HttpApiGroup.make("marketIntel")
.add(
    HttpApiEndpoint.get("listMarketIntelProfiles", "/profiles")
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MarketIntelProfiles)
      .annotate(OpenApi.Summary, "Every tenant's market profile")
  )
  .add(
    HttpApiEndpoint.get("getMarketIntelProfile", "/profiles/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MarketIntelProfile)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "A tenant's market profile")
  )
  .add(
    HttpApiEndpoint.put("saveMarketIntelProfile", "/profiles/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(MarketIntelProfile)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Save a tenant's market profile as a whole")
  )
  .add(
    HttpApiEndpoint.del("deleteMarketIntelProfile", "/profiles/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MarketIntelProfileDeleted)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Delete a tenant's market profile")
  )
  .add(
    HttpApiEndpoint.get("getMarketIntelOverview", "/overview")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelPeriodParams)
      .addSuccess(MarketIntelOverview)
      .annotate(OpenApi.Summary, "Calls, scores, win rate and outcome coverage across tenants for a period")
  )
  .add(
    HttpApiEndpoint.get("listMarketIntelIndustries", "/industries")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelPeriodParams)
      .addSuccess(MarketIntelIndustries)
      .annotate(OpenApi.Summary, "Calls, scores, win rates and outcome coverage by industry")
  )
  .add(
    HttpApiEndpoint.get("getIndustryIcpIntel", "/industries/:industry_label/icps/:icp_label")
      .setPath(Schema.Struct({ industry_label: Text, icp_label: Text }))
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesParams)
      .addSuccess(IndustryIcpIntel)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "One ICP within an industry over the trailing periods; 404 when no profile uses the labels")
  )
  .add(
    HttpApiEndpoint.get("getLeadSourceIntel", "/lead-sources")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(LeadSourceIntel)
      .annotate(OpenApi.Summary, "Calls, scores and win rates by lead source")
  )
  .add(
    HttpApiEndpoint.get("getOutcomeTruthIntel", "/outcome-truth")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(OutcomeTruthIntel)
      .annotate(OpenApi.Summary, "Recorded outcomes: coverage, win rates and deal values")
  )
  .add(
    HttpApiEndpoint.get("getSegmentTruthGap", "/segment-truth-gap")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(SegmentTruthGap)
      .annotate(OpenApi.Summary, "Predicted (score-implied) minus actual win rate per segment")
  )
  .add(
    HttpApiEndpoint.get("getDataHygiene", "/data-hygiene")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesParams)
      .addSuccess(DataHygiene)
      .annotate(OpenApi.Summary, "Calls with missing or contradictory fields, with their hygiene marks")
  )
  .add(
    HttpApiEndpoint.get("getTruthAdoption", "/truth-adoption")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(TruthAdoption)
      .annotate(OpenApi.Summary, "Share of completed calls with an outcome recorded")
  )
  .add(
    HttpApiEndpoint.get("getRenewalExpansionRadar", "/clients/:client_id/renewal-expansion-radar")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(RenewalExpansionRadar)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "A tenant's usage trend, activation, value and risk signals")
  )
  .add(
    HttpApiEndpoint.get("getTruthBacklogPriority", "/truth-backlog-priority")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(TruthBacklogPriority)
      .annotate(OpenApi.Summary, "Calls whose outcome would most improve the estimates")
  )
  .add(
    HttpApiEndpoint.put("setCallHygiene", "/calls/:call_id/hygiene")
      .setPath(CallIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(CallHygiene)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Set a call's hygiene marks (a JSON object)")
  )
  .add(
    HttpApiEndpoint.post("rebuildMarketIntel", "/rebuild")
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(MarketIntelRebuild)
      .annotate(OpenApi.Summary, "Recompute the stored period aggregates")
  )
  .middleware(AdminAuth)
  .prefix("/v1/internal/admin/market-intel")
  .annotate(OpenApi.Title, "Market intelligence")
  .annotate(OpenApi.Description, "Staff views across tenants by period, industry, ICP and lead source, under the admin key.")
{}
