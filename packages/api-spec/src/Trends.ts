/**
 * Trends (issue 38, item 3; docs/trends.md): what buyers said and how the team did, per period,
 * for the team and per closer: calls, objections by kind, competitors (the Competitors tracker's
 * mentions), pains, next-step follow-through and scorecard dimension scores, each number with the
 * calls behind it, and the change between the last two periods with the notable ones written out.
 * The portal session: a rep sees their own calls, managers the team's. The same view answers the
 * assistant interface (`getAssistantTrends`), the MCP tool `trends` and the daily brief's `changes`.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Objection, ScorecardDimensionName } from "./CallAnalysis.js"
import { CallId, CloserId, queryInt, Text, Timestamp, TimestampInput } from "./Common.js"
import { NotFound } from "./Errors.js"
import { SessionAuth } from "./Security.js"

/**
 * At most this many call ids under a number, the newest (`calls` or `n` counts them all). 10, not
 * every call: at 100,000 calls a year's answer listed 50 under each of its ~25 numbers, per period
 * and closer (6 MB); ten are a sample to open from the number, the calls list filters the rest.
 */
export const TRENDS_CALL_IDS_MAX = 10
/** At most this many periods in one answer. */
export const TRENDS_PERIODS_MAX = 26

export const TrendPeriodType = Schema.Literal("week", "month")
export type TrendPeriodType = typeof TrendPeriodType.Type

const ObjectionKind = Objection.fields.kind

const CallIds = Schema.Array(CallId).annotations({
  description: `The calls behind the number, newest first (at most ${TRENDS_CALL_IDS_MAX}; \`calls\` counts them all)`
})

/** A number and the calls behind it. */
export const TrendCount = Schema.Struct({
  count: Schema.Number.annotations({ description: "How many (objections, mentions, pains, steps or calls)" }),
  calls: Schema.Number.annotations({ description: "How many calls the number comes from" }),
  call_ids: CallIds
}).annotations({ identifier: "TrendCount" })
export type TrendCount = typeof TrendCount.Type

/** An average score and the calls behind it. */
export const TrendAverage = Schema.Struct({
  average: Schema.NullOr(Schema.Number).annotations({ description: "The mean score (0–100, 1 decimal); null without a scored call" }),
  n: Schema.Number.annotations({ description: "Calls with a score (the dimension assessed)" }),
  call_ids: CallIds
}).annotations({ identifier: "TrendAverage" })
export type TrendAverage = typeof TrendAverage.Type

export const TrendObjectionKind = Schema.Struct({ kind: ObjectionKind, ...TrendCount.fields }).annotations({ identifier: "TrendObjectionKind" })
export const TrendCompetitor = Schema.Struct({
  term: Text.annotations({ description: "The competitor as the market profile (the Competitors tracker) spells it" }),
  ...TrendCount.fields
}).annotations({ identifier: "TrendCompetitor" })
export const TrendDimension = Schema.Struct({ dimension: ScorecardDimensionName, ...TrendAverage.fields }).annotations({ identifier: "TrendDimension" })

export const TrendFollowThrough = Schema.Struct({
  said: TrendCount.annotations({ description: "Next steps said on the period's calls" }),
  dated: TrendCount.annotations({ description: "Of them, those said with a due (a day, a date)" }),
  kept: Schema.NullOr(TrendCount).annotations({
    description: "Dated steps of a deal whose later call took place by the end of the day after the due (docs/deals.md); " +
      "null when `follow_through` is `said_and_dated`"
  }),
  slipped: Schema.NullOr(TrendCount).annotations({
    description: "Dated steps whose deadline passed with no later call of the deal; null when `follow_through` is `said_and_dated`"
  })
}).annotations({ identifier: "TrendFollowThrough" })

export const TrendPeriod = Schema.Struct({
  period_start: Text.annotations({ description: "The period's first day (YYYY-MM-DD, UTC; weeks start on Monday)" }),
  from: Timestamp.annotations({ description: "Calls that took place from (inclusive)" }),
  to: Timestamp.annotations({ description: "… until (exclusive): the period's end, or `until` for the last one" }),
  calls: TrendCount.annotations({ description: "Completed calls that took place in the period (`count` = `calls`)" }),
  objections: TrendCount.annotations({ description: "Objections raised, all kinds" }),
  objections_by_kind: Schema.Array(TrendObjectionKind).annotations({ description: "Per kind, every kind (0 included)" }),
  competitors: TrendCount.annotations({ description: "Mentions of the market profile's competitors, all terms" }),
  competitors_by_term: Schema.Array(TrendCompetitor).annotations({ description: "Per competitor mentioned, most mentions first" }),
  pains: TrendCount.annotations({ description: "Pains the buyer side stated (the summary's `pain` needs)" }),
  next_steps: TrendFollowThrough,
  overall_score: TrendAverage,
  dimensions: Schema.Array(TrendDimension).annotations({ description: "Per scorecard dimension, every dimension" })
}).annotations({ identifier: "TrendPeriod" })
export type TrendPeriod = typeof TrendPeriod.Type

export const TrendMetric = Schema.Literal(
  "calls",
  "objections",
  "objection_kind",
  "competitors",
  "competitor",
  "pains",
  "next_steps_said",
  "next_steps_dated",
  "next_steps_kept",
  "next_steps_slipped",
  "overall_score",
  "dimension"
)

/** One item's change between the last two periods. */
export const TrendChange = Schema.Struct({
  metric: TrendMetric,
  key: Schema.NullOr(Text).annotations({ description: "The objection kind, competitor or dimension; null for the others" }),
  label: Text.annotations({ examples: ["objections about price"] }),
  from: Schema.NullOr(Schema.Number).annotations({ description: "The value in the period before (null: an average without a score)" }),
  to: Schema.NullOr(Schema.Number).annotations({ description: "The value in the last period" }),
  direction: Schema.Literal("up", "down", "same", "unknown"),
  notable: Schema.Boolean.annotations({
    description: "Counts: changed by at least 3 and by at least 50 % (any rise from 0 by 3 or more). Averages: by at least 10 " +
      "points with at least 3 scored calls on both sides (docs/trends.md)"
  }),
  sentence: Text.annotations({ examples: ["objections about price up from 3 to 9 this week"] }),
  from_call_ids: CallIds,
  to_call_ids: CallIds
}).annotations({ identifier: "TrendChange" })
export type TrendChange = typeof TrendChange.Type

const scopeFields = {
  periods: Schema.Array(TrendPeriod).annotations({ description: "Oldest first" }),
  changes: Schema.Array(TrendChange).annotations({
    description: "Each item's change between the last two periods: the notable ones first (largest first), then the others; " +
      "items at 0 in both periods are left out"
  })
}

export const CloserTrends = Schema.Struct({
  closer_id: Schema.NullOr(CloserId).annotations({ description: "null: an e-mail no closer of the team has, or calls without one" }),
  closer_email: Schema.NullOr(Text).annotations({ description: "null: calls without a closer" }),
  full_name: Schema.NullOr(Text),
  ...scopeFields
}).annotations({ identifier: "CloserTrends" })

export const Trends = Schema.Struct({
  period: TrendPeriodType,
  from: Timestamp,
  to: Timestamp,
  follow_through: Schema.Literal("deal_timeline", "said_and_dated").annotations({
    description: "`deal_timeline`: kept and slipped are counted over each deal's calls; `said_and_dated`: only steps said and dated are counted"
  }),
  team: Schema.Struct(scopeFields).annotations({ description: "Every call the caller sees (a rep: their own) that the filters keep" }),
  closers: Schema.Array(CloserTrends).annotations({ description: "Per closer with a call in the periods, by e-mail" }),
  generated_at: Timestamp
}).annotations({ identifier: "Trends" })
export type Trends = typeof Trends.Type

export const TrendsParams = Schema.Struct({
  period: Schema.optionalWith(TrendPeriodType, { default: () => "week" as const }).annotations({
    description: "`week` (from Monday, UTC; the default) or `month`"
  }),
  periods: queryInt({ min: 1, max: TRENDS_PERIODS_MAX, default: 6, description: "The last N periods up to `until` (1–26, default 6); ignored with `since`" }),
  since: Schema.optional(TimestampInput.annotations({ description: "From the period holding this instant (its calls from `since` on)" })),
  until: Schema.optional(TimestampInput.annotations({ description: "Calls before this instant (exclusive); default: now" })),
  closer_id: Schema.optional(CloserId.annotations({ description: "One closer's calls (404 when not the tenant's)" })),
  closer_email: Schema.optional(Text.annotations({ description: "One closer's calls, by e-mail (any case); for a rep it only narrows their own" }))
})
export type TrendsParams = typeof TrendsParams.Type

export class TrendsApi extends HttpApiGroup.make("trends")
  .add(
    HttpApiEndpoint.get("getTrends", "/v1/client-portal/trends")
      .setUrlParams(TrendsParams)
      .addSuccess(Trends)
      .addError(NotFound)
      .annotate(
        OpenApi.Summary,
        "Objections by kind, competitors, pains, next-step follow-through and scores per period, for the team and per closer, with the calls behind each number"
      )
      .annotate(
        OpenApi.Description,
        "Counts the completed calls the caller sees (a rep: their own) by when they took place (`meeting_at`, else the upload). " +
          "422 for `since` not before `until` or more than 26 periods; 404 for a `closer_id` not the tenant's."
      )
  )
  .middleware(SessionAuth)
  .annotate(OpenApi.Title, "Trends")
  .annotate(
    OpenApi.Description,
    "Beyond the spec (issue 38): what buyers said and how the team did per period, team and closer, with the calls behind " +
      "each number and the notable changes (docs/trends.md)."
  )
{}
