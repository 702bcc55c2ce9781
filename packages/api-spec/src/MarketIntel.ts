/**
 * 4.7 Market intelligence (`/v1/internal/admin/market-intel`): staff views across tenants per
 * period, industry, ICP and lead source; profiles, hygiene marks and the stored aggregates. Staff
 * `X-API-Key` (`ADMIN_API_KEY`) on every operation, as the rest of the internal administration.
 *
 * Every rate carries its sample: `count` ÷ `n`, the tenants behind `n`, and a Wilson 95 % interval.
 * A figure that could be traced back to one customer is withheld (`null`, with `suppressed` saying
 * why): a rate or an average over fewer than 5 (`min_sample`), and every figure of a cross-tenant
 * cell fed by fewer than 3 tenants (`min_tenants`).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CheckSeverity } from "./Admin.js"
import { CallId, ClientId, IncludeTestData, Payload, PeriodParams, Periods, PeriodType, Plan, Text, Timestamp } from "./Common.js"
import { Conflict, NotFound } from "./Errors.js"
import { YearMonth } from "./PlanUsage.js"
import { AdminAuth, ApiKeyHeaders } from "./Security.js"

const ClientIdPath = Schema.Struct({ client_id: ClientId })
const CallIdPath = Schema.Struct({ call_id: CallId })

// ---------------------------------------------------------------------------------------------
// Profiles
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

/** A tenant's market profile as market intelligence segments it, with its lead-context lead sources. */
export const MarketIntelProfile = Schema.Struct({
  client_id: ClientId,
  company_name: Text,
  is_test: Schema.Boolean,
  industry: Schema.NullOr(Text),
  industry_label: Schema.NullOr(Text).annotations({
    description: "The label market intelligence files the tenant's calls under: the profile's industry, else the one given at " +
      "signup; trimmed and in lower case"
  }),
  sub_industry: Schema.NullOr(Text),
  icps: Schema.Array(MarketIntelIcp),
  regions: Schema.Array(Text),
  average_deal_size: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Text),
  sales_cycle_days: Schema.NullOr(Schema.Number),
  competitors: Schema.Array(Text),
  time_zone: Schema.NullOr(Text),
  lead_sources: Schema.Array(MarketIntelLeadSource).annotations({ description: "From the tenant's lead-context profile" }),
  extra: Payload.annotations({ description: "Keys of the object staff saved outside the known fields, kept as given" }),
  source: Schema.NullOr(Schema.Literal("portal", "admin")).annotations({
    description: "Who saved the market profile last: the tenant in the portal, or staff here; null while never saved"
  }),
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "MarketIntelProfile" })

export const MarketIntelProfiles = Schema.Struct({
  profiles: Schema.Array(MarketIntelProfile).annotations({ description: "Every tenant, by company name; unsaved profiles read empty" })
}).annotations({ identifier: "MarketIntelProfiles" })

export const MarketIntelProfileDeleted = Schema.Struct({
  client_id: ClientId,
  deleted: Schema.Boolean.annotations({ description: "false when the tenant had no saved market profile" })
}).annotations({ identifier: "MarketIntelProfileDeleted" })

// ---------------------------------------------------------------------------------------------
// Periods and sampled figures
// ---------------------------------------------------------------------------------------------

/** One period of the aggregates. */
export const MarketIntelPeriod = Schema.Struct({
  period_type: PeriodType,
  period_start: Text.annotations({ description: "First day, `YYYY-MM-DD` (UTC; weeks start on Monday, ISO 8601)" }),
  period_end: Text.annotations({ description: "First day of the next period, exclusive" }),
  label: Text.annotations({ examples: ["2026-W47", "2026-11", "2026-Q4", "2026-11-21"] })
}).annotations({ identifier: "MarketIntelPeriod" })

export const Suppression = Schema.Struct({
  code: Schema.Literal("min_sample", "min_tenants"),
  message: Text.annotations({ examples: ["3 decided outcomes: at least 5 are needed", "fed by 2 tenants: at least 3 are needed"] })
}).annotations({
  identifier: "Suppression",
  description: "Why a figure is withheld: `min_sample`, fewer than 5 in its sample (`n` is shown); `min_tenants`, fed by " +
    "fewer than 3 tenants (nothing but the tenant count is shown)"
})
export type Suppression = typeof Suppression.Type

export const ConfidenceInterval = Schema.Struct({
  low: Schema.Number,
  high: Schema.Number
}).annotations({ identifier: "ConfidenceInterval", description: "Wilson score interval, 95 % (z = 1.96)" })

/** A rate with the sample it was computed on. */
export const SampledRate = Schema.Struct({
  value: Schema.NullOr(Schema.Number).annotations({ description: "count ÷ n, 4 decimals; null when withheld or n is 0" }),
  count: Schema.NullOr(Schema.Number).annotations({ description: "The count behind the rate (its numerator)" }),
  n: Schema.NullOr(Schema.Number).annotations({ description: "The sample size (its denominator)" }),
  tenants: Schema.Number.annotations({ description: "Tenants with at least one item in the sample" }),
  interval: Schema.NullOr(ConfidenceInterval),
  suppressed: Schema.NullOr(Suppression)
}).annotations({ identifier: "SampledRate" })
export type SampledRate = typeof SampledRate.Type

/** An average with the sample it was computed on. */
export const SampledAverage = Schema.Struct({
  value: Schema.NullOr(Schema.Number),
  n: Schema.NullOr(Schema.Number),
  tenants: Schema.Number,
  suppressed: Schema.NullOr(Suppression)
}).annotations({ identifier: "SampledAverage" })
export type SampledAverage = typeof SampledAverage.Type

export const MarketIntelOutcomeCounts = Schema.Struct({
  won: Schema.Number,
  lost: Schema.Number,
  no_decision: Schema.Number,
  open: Schema.Number
}).annotations({ identifier: "MarketIntelOutcomeCounts" })

/** The measures every segment cell carries. */
export const MarketIntelSegmentMetrics = Schema.Struct({
  tenants: Schema.Number.annotations({ description: "Tenants with calls in the cell" }),
  suppressed: Schema.NullOr(Suppression).annotations({ description: "The whole cell, when fed by fewer than 3 tenants" }),
  calls: Schema.NullOr(Schema.Number).annotations({ description: "Calls made in the cell, any status" }),
  completed_calls: Schema.NullOr(Schema.Number),
  average_score: SampledAverage.annotations({ description: "Overall score of the completed, scored calls" }),
  win_rate: SampledRate.annotations({ description: "won ÷ (won + lost)" }),
  outcome_coverage: SampledRate.annotations({ description: "completed calls with an outcome recorded ÷ completed calls" }),
  outcomes: Schema.NullOr(MarketIntelOutcomeCounts)
}).annotations({ identifier: "MarketIntelSegmentMetrics" })

/** Fields every market-intel read answers with. */
const MarketIntelHeader = {
  period: MarketIntelPeriod.annotations({ description: "The period asked for (default: the current one)" }),
  generated_at: Timestamp,
  source: Schema.Literal("stored", "computed", "mixed").annotations({
    description: "`stored`: every period from fresh stored aggregates; `computed`: computed for this request; `mixed`: some of each"
  }),
  aggregates_built_at: Schema.NullOr(Timestamp).annotations({ description: "When the oldest stored aggregate used was built" })
}

/** Header of the reads that take `periods`: the trailing periods, oldest first, ending with `period`. */
const MarketIntelSeriesHeader = {
  ...MarketIntelHeader,
  periods: Schema.Array(MarketIntelPeriod),
  window: Schema.Struct({ from: Text, to: Text }).annotations({
    description: "The trailing periods together: first day, and the day after the last (exclusive)"
  })
}

const IncludeTestDataEcho = { include_test_data: Schema.Boolean }

export const MarketIntelPeriodMetrics = Schema.Struct({
  period: MarketIntelPeriod,
  ...MarketIntelSegmentMetrics.fields
}).annotations({ identifier: "MarketIntelPeriodMetrics" })

// ---------------------------------------------------------------------------------------------
// The views
// ---------------------------------------------------------------------------------------------

export const MarketIntelOverview = Schema.Struct({
  ...MarketIntelHeader,
  totals: MarketIntelSegmentMetrics,
  previous: MarketIntelPeriodMetrics.annotations({ description: "The period before, for comparison" }),
  industries: Schema.Number.annotations({ description: "Industries with calls in the period (`unknown` included)" }),
  tenants_with_profile: Schema.Number.annotations({ description: "Tenants with calls in the period and a saved market profile" }),
  tenants_without_profile: Schema.Number.annotations({ description: "Tenants with calls in the period and no market profile" })
}).annotations({ identifier: "MarketIntelOverview" })

export const IndustryIcpRow = Schema.Struct({
  icp_label: Text.annotations({ description: "`unassigned` for calls without one" }),
  ...MarketIntelSegmentMetrics.fields
}).annotations({ identifier: "IndustryIcpRow" })

export const MarketIntelIndustryRow = Schema.Struct({
  industry_label: Text.annotations({ description: "`unknown` for calls of tenants without one" }),
  ...MarketIntelSegmentMetrics.fields,
  icps: Schema.Array(IndustryIcpRow).annotations({ description: "The industry's ICPs, most calls first (withheld cells last)" })
}).annotations({ identifier: "MarketIntelIndustryRow" })

export const MarketIntelIndustries = Schema.Struct({
  ...MarketIntelHeader,
  industries: Schema.Array(MarketIntelIndustryRow).annotations({ description: "Most calls first; withheld cells last, by label" })
}).annotations({ identifier: "MarketIntelIndustries" })

export const IndustryIcpIntel = Schema.Struct({
  ...MarketIntelSeriesHeader,
  industry_label: Text,
  icp_label: Text,
  current: MarketIntelSegmentMetrics.annotations({ description: "The period asked for" }),
  trailing: MarketIntelSegmentMetrics.annotations({ description: "The trailing periods together" }),
  series: Schema.Array(MarketIntelPeriodMetrics).annotations({ description: "One row per trailing period, oldest first" }),
  industry_baseline: MarketIntelSegmentMetrics.annotations({ description: "The whole industry in the period asked for, to compare" })
}).annotations({ identifier: "IndustryIcpIntel" })

export const LeadSourceRow = Schema.Struct({
  lead_source: Text,
  channel: Schema.NullOr(Text).annotations({ description: "The channel the tenants' lead-context profiles give it most often" }),
  ...MarketIntelSegmentMetrics.fields,
  series: Schema.Array(MarketIntelPeriodMetrics)
}).annotations({ identifier: "LeadSourceRow" })

export const LeadSourceIntel = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  lead_sources: Schema.Array(LeadSourceRow).annotations({
    description: "The trailing periods together, most calls first (withheld cells last); `unknown` for calls without one"
  })
}).annotations({ identifier: "LeadSourceIntel" })

export const DealValues = Schema.Struct({
  currency: Text,
  won_value: Schema.NullOr(Schema.Number).annotations({ description: "Sum of `deal_value` of won outcomes" }),
  average_won_value: SampledAverage
}).annotations({ identifier: "DealValues" })

export const OutcomeTruthTotals = Schema.Struct({
  ...MarketIntelSegmentMetrics.fields,
  deal_values: Schema.Array(DealValues).annotations({ description: "Per currency: amounts in different currencies are never added" })
}).annotations({ identifier: "OutcomeTruthTotals" })

export const OutcomeTruthIndustryRow = Schema.Struct({
  industry_label: Text,
  ...OutcomeTruthTotals.fields
}).annotations({ identifier: "OutcomeTruthIndustryRow" })

export const OutcomeTruthIntel = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  totals: OutcomeTruthTotals.annotations({ description: "The trailing periods together" }),
  series: Schema.Array(MarketIntelPeriodMetrics),
  by_industry: Schema.Array(OutcomeTruthIndustryRow)
}).annotations({ identifier: "OutcomeTruthIntel" })

export const MarketIntelSegmentType = Schema.Literal("all", "industry", "icp", "lead_source")

export const SegmentTruthGapRow = Schema.Struct({
  segment_type: MarketIntelSegmentType,
  segment_label: Text,
  industry_label: Schema.NullOr(Text).annotations({ description: "The industry of an `icp` segment" }),
  tenants: Schema.Number,
  suppressed: Schema.NullOr(Suppression),
  predicted_win_rate: SampledAverage.annotations({
    description: "The win probability the scores imply (overall score ÷ 100), averaged over the decided, scored calls"
  }),
  actual_win_rate: SampledRate.annotations({ description: "won ÷ (won + lost) over the same calls" }),
  gap: Schema.NullOr(Schema.Number).annotations({ description: "predicted − actual; null when either is withheld" })
}).annotations({ identifier: "SegmentTruthGapRow" })

export const ReliabilityBucket = Schema.Struct({
  score_from: Schema.Number,
  score_to: Schema.Number.annotations({ description: "Exclusive, but 100 is in the last bucket" }),
  predicted: SampledAverage.annotations({ description: "Mean predicted win probability of the bucket's decided calls" }),
  observed: SampledRate.annotations({ description: "Their observed win rate" })
}).annotations({ identifier: "ReliabilityBucket" })

export const SegmentTruthGap = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  overall: SegmentTruthGapRow.annotations({ description: "All segments together (`segment_type` all)" }),
  segments: Schema.Array(SegmentTruthGapRow).annotations({ description: "Largest absolute gap first; withheld gaps last" }),
  reliability: Schema.Array(ReliabilityBucket).annotations({ description: "Predicted buckets of 20 score points against observed win rates" })
}).annotations({ identifier: "SegmentTruthGap" })

export const HygieneField = Schema.Literal("industry", "icp", "lead_source", "deal_value", "currency", "outcome", "score", "closer")

export const HygieneIssue = Schema.Struct({
  field: HygieneField,
  kind: Schema.Literal("missing", "contradictory"),
  detail: Text
}).annotations({ identifier: "HygieneIssue" })

export const CallHygiene = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  marks: Payload.annotations({ description: "The hygiene marks as saved" }),
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
    calls_checked: Schema.Number.annotations({ description: "Completed calls of the window (test tenants left out)" }),
    issue_rate: SampledRate.annotations({ description: "calls with at least one issue ÷ calls checked" }),
    marked: Schema.Number.annotations({ description: "Calls checked with hygiene marks" }),
    excluded: Schema.Number.annotations({ description: "Calls checked that their marks exclude from the aggregates" })
  }),
  issues_by_field: Schema.Array(Schema.Struct({
    field: HygieneField,
    missing: Schema.Number,
    contradictory: Schema.Number
  })),
  series: Schema.Array(Schema.Struct({ period: MarketIntelPeriod, calls_checked: Schema.Number, issue_rate: SampledRate })),
  calls: Schema.Array(HygieneCallRow).annotations({ description: "Calls with issues or marks, newest first, at most 100" })
}).annotations({ identifier: "DataHygiene" })

export const TruthAdoptionTenantRow = Schema.Struct({
  client_id: ClientId,
  company_name: Text,
  industry_label: Schema.NullOr(Text),
  completed_calls: Schema.Number,
  adoption: SampledRate.annotations({ description: "The tenant's own rate: withheld under 5 calls only" }),
  last_outcome_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "TruthAdoptionTenantRow" })

export const TruthAdoption = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  adoption: SampledRate.annotations({ description: "completed calls with an outcome recorded ÷ completed calls, the trailing periods together" }),
  series: Schema.Array(Schema.Struct({ period: MarketIntelPeriod, adoption: SampledRate })),
  by_tenant: Schema.Array(TruthAdoptionTenantRow).annotations({ description: "Tenants with completed calls, lowest adoption first" })
}).annotations({ identifier: "TruthAdoption" })

export const BacklogSegment = Schema.Struct({
  segment_type: Schema.Literal("industry", "icp", "lead_source"),
  segment_label: Text,
  decided: Schema.Number.annotations({ description: "Decided outcomes (won or lost) of the segment in the window" }),
  interval_width: Schema.Number.annotations({ description: "Width of its win rate's 95 % interval now (1 with no outcome)" }),
  width_after: Schema.Number.annotations({ description: "The width with one more decided outcome at the current rate" })
}).annotations({ identifier: "BacklogSegment" })

export const TruthBacklogCall = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  company_name: Text,
  industry_label: Text,
  icp_label: Text,
  lead_source: Text,
  closer_email: Schema.NullOr(Text),
  created_at: Timestamp,
  completed_at: Timestamp,
  overall_score: Schema.NullOr(Schema.Number),
  priority: Schema.Number.annotations({ description: "How much the call's outcome would narrow its segments' intervals (sum of the widths saved); higher first" }),
  reason: Text,
  segments: Schema.Array(BacklogSegment)
}).annotations({ identifier: "TruthBacklogCall" })

export const TruthBacklogPriority = Schema.Struct({
  ...MarketIntelSeriesHeader,
  ...IncludeTestDataEcho,
  backlog_total: Schema.Number.annotations({ description: "Completed calls of the window without an outcome" }),
  limit: Schema.Number,
  calls: Schema.Array(TruthBacklogCall).annotations({ description: "Highest priority first; then oldest" })
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
    direction: RadarTrend.annotations({ description: "The last complete month against the one before: ±20 %" }),
    months: Schema.Array(Schema.Struct({
      month: YearMonth,
      ingests_used: Schema.Number,
      ingests_included: Schema.Number,
      bonus_ingests: Schema.Number
    })).annotations({ description: "Six months, oldest first, ending with the current month" })
  }),
  activation: Schema.Struct({
    activation_pct: Schema.Number,
    steps_done: Schema.Number,
    steps_total: Schema.Number,
    next_step: Schema.NullOr(Text)
  }),
  value: Schema.Struct({
    window_days: Schema.Literal(90),
    calls_analysed: Schema.Number,
    hours_analysed: Schema.Number,
    average_score: SampledAverage,
    score_trend: Schema.NullOr(Schema.Number).annotations({ description: "Points per week over the last 4 weeks (least squares); null with fewer than 2 scored weeks" }),
    win_rate: SampledRate
  }),
  renewal_risk: RadarLevel,
  expansion_potential: RadarLevel,
  signals: Schema.Array(RadarSignal)
}).annotations({ identifier: "RenewalExpansionRadar" })

export const RebuiltPeriods = Schema.Struct({
  period_type: PeriodType,
  from: Text.annotations({ description: "First period's first day" }),
  to: Text.annotations({ description: "The day after the last period (exclusive)" }),
  periods: Schema.Number,
  rows: Schema.Number.annotations({ description: "Aggregate rows written" })
}).annotations({ identifier: "RebuiltPeriods" })

export const MarketIntelRebuild = Schema.Struct({
  requested: Payload.annotations({ description: "The body as given" }),
  period_types: Schema.Array(PeriodType),
  periods_rebuilt: Schema.Number,
  rows_written: Schema.Number,
  rebuilt: Schema.Array(RebuiltPeriods),
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
// Trends per segment (issue 38, item 3; docs/trends.md)

/** A count of a segment's cell, withheld like every cross-tenant figure when fewer than 3 tenants feed it. */
const SegmentCountFields = {
  count: Schema.NullOr(Schema.Number).annotations({ description: "How many; null when withheld" }),
  calls: Schema.NullOr(Schema.Number).annotations({ description: "Calls behind the count; null when withheld" }),
  tenants: Schema.Number.annotations({ description: "Tenants behind the count" }),
  suppressed: Schema.NullOr(Suppression)
}

export const SegmentTrendObjection = Schema.Struct({
  kind: Schema.Literal("price", "budget", "timing", "authority", "need", "competitor"),
  ...SegmentCountFields
}).annotations({ identifier: "SegmentTrendObjection" })

export const SegmentTrendCompetitor = Schema.Struct({
  competitor: Text.annotations({ description: "The competitor's name as the tenants' market profiles spell it, in lower case" }),
  ...SegmentCountFields
}).annotations({ identifier: "SegmentTrendCompetitor" })

export const SegmentTrendPeriod = Schema.Struct({
  period_start: Text,
  period_end: Text.annotations({ description: "The next period's first day (exclusive)" }),
  label: Text,
  calls: Schema.NullOr(Schema.Number).annotations({ description: "Completed calls that took place in the period; null when the cell is withheld" }),
  tenants: Schema.Number,
  suppressed: Schema.NullOr(Suppression).annotations({ description: "The whole cell withheld: fed by 1 or 2 tenants" }),
  objections: Schema.Array(SegmentTrendObjection).annotations({ description: "Every kind; empty when the cell is withheld" }),
  competitors: Schema.Array(SegmentTrendCompetitor).annotations({
    description: "Competitors mentioned by at least 3 tenants' calls, most mentioned first; empty when the cell is withheld"
  }),
  competitors_withheld: Schema.Number.annotations({ description: "Competitors left out: mentioned in fewer than 3 tenants' calls" })
}).annotations({ identifier: "SegmentTrendPeriod" })

export const SegmentTrends = Schema.Struct({
  industry: Text,
  icp: Schema.NullOr(Text).annotations({ description: "null when the segments are industries (`segment_by=industry`)" }),
  periods: Schema.Array(SegmentTrendPeriod).annotations({ description: "Oldest first" })
}).annotations({ identifier: "SegmentTrends" })

export const MarketIntelTrends = Schema.Struct({
  period_type: PeriodType,
  segment_by: Schema.Literal("industry", "icp"),
  segments: Schema.Array(SegmentTrends).annotations({ description: "Segments with a call in the periods, by label" }),
  generated_at: Timestamp
}).annotations({ identifier: "MarketIntelTrends" })

export const MarketIntelTrendsParams = Schema.Struct({
  ...PeriodParams.fields,
  periods: Periods,
  segment_by: Schema.optionalWith(Schema.Literal("industry", "icp"), { default: () => "industry" as const }).annotations({
    description: "`industry` (default) or `icp` (each ICP within its industry)"
  })
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
      .annotate(OpenApi.Summary, "Save a tenant's market profile as a whole (audited)")
      .annotate(
        OpenApi.Description,
        "The fields of `MarketProfileRequest` replace the market profile (an omitted one is cleared, a wrong one is 422); " +
          "`lead_sources` ([{label, channel}]), when given, replaces the lead sources of the lead-context profile; other keys " +
          "are kept as `extra`. An audit row of the tenant records the change."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteMarketIntelProfile", "/profiles/:client_id")
      .setPath(ClientIdPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MarketIntelProfileDeleted)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Delete a tenant's market profile (audited)")
  )
  .add(
    HttpApiEndpoint.get("getMarketIntelOverview", "/overview")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelPeriodParams)
      .addSuccess(MarketIntelOverview)
      .annotate(OpenApi.Summary, "Calls, scores, win rate and outcome coverage across tenants for a period (test data left out)")
  )
  .add(
    HttpApiEndpoint.get("listMarketIntelIndustries", "/industries")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelPeriodParams)
      .addSuccess(MarketIntelIndustries)
      .annotate(OpenApi.Summary, "Calls, scores, win rates and outcome coverage by industry and ICP (test data left out)")
  )
  .add(
    HttpApiEndpoint.get("getIndustryIcpIntel", "/industries/:industry_label/icps/:icp_label")
      .setPath(Schema.Struct({ industry_label: Text, icp_label: Text }))
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesParams)
      .addSuccess(IndustryIcpIntel)
      .addError(NotFound)
      .annotate(
        OpenApi.Summary,
        "One ICP within an industry over the trailing periods; 404 when no profile lists the pair and no call is filed under it"
      )
  )
  .add(
    HttpApiEndpoint.get("getLeadSourceIntel", "/lead-sources")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelSeriesTestParams)
      .addSuccess(LeadSourceIntel)
      .annotate(OpenApi.Summary, "Calls, scores, win rates and outcome coverage by lead source")
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
      .annotate(OpenApi.Summary, "Predicted (score-implied) minus actual win rate per segment, with a reliability table")
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
      .annotate(OpenApi.Summary, "Share of completed calls with an outcome recorded, overall and per tenant")
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
      .annotate(OpenApi.Summary, "The calls whose outcome would narrow the widest intervals most")
  )
  .add(
    HttpApiEndpoint.put("setCallHygiene", "/calls/:call_id/hygiene")
      .setPath(CallIdPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(CallHygiene)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Set a call's hygiene marks (a JSON object, replaced whole; audited)")
      .annotate(
        OpenApi.Description,
        "Keys the service reads: `exclude` (boolean: leave the call out of every aggregate), `industry`, `icp_label`, " +
          "`lead_source` (text up to 200 characters, or null: file the call under this label instead of the one derived " +
          "from the profiles and its outcome), `note` (text up to 2,000 characters). A wrong type is 422; other keys are kept."
      )
  )
  .add(
    HttpApiEndpoint.post("rebuildMarketIntel", "/rebuild")
      .setHeaders(ApiKeyHeaders)
      .setPayload(Payload)
      .addSuccess(MarketIntelRebuild)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Recompute the stored period aggregates; 409 while another rebuild runs")
      .annotate(
        OpenApi.Description,
        "Body keys, all optional: `period_types` (default all four), `periods` (1–26 trailing periods of each type, default " +
          "26), `period_start` (the last period, any day inside it; default the current one). Other keys are 422. Idempotent: " +
          "the same data gives the same aggregates."
      )
  )
  .add(
    HttpApiEndpoint.get("getMarketIntelTrends", "/trends")
      .setHeaders(ApiKeyHeaders)
      .setUrlParams(MarketIntelTrendsParams)
      .addSuccess(MarketIntelTrends)
      .annotate(OpenApi.Summary, "Objections by kind and competitors mentioned, per period and segment across tenants (test data left out)")
      .annotate(
        OpenApi.Description,
        "Calls count in the period they took place (`meeting_at`, else the upload). A cell (a segment in a period) fed by 1 or " +
          "2 tenants shows none of its counts, and a count fed by fewer than 3 tenants is withheld (`min_tenants`), as in every " +
          "cross-tenant view; a competitor mentioned in fewer than 3 tenants' calls is left out (`competitors_withheld`)."
      )
  )
  .middleware(AdminAuth)
  .prefix("/v1/internal/admin/market-intel")
  .annotate(OpenApi.Title, "Market intelligence")
  .annotate(OpenApi.Description, "Staff views across tenants by period, industry, ICP and lead source, under the admin key.")
{}
