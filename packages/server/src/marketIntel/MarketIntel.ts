/**
 * Market intelligence (docs/domain.md, "Market intelligence"): the staff's statistics across tenants by
 * period, industry, ICP and lead source, with the sample behind every rate and the rules of
 * `Stats.ts` withholding what could be traced back to one customer.
 *
 * How a call is filed (migration 0011, `market_intel_call_facts`): its period is where the instant
 * it was made falls (UTC); its industry is the tenant's (the market profile's, else the one given
 * at signup); its ICP and lead source are the ones recorded with its outcome, else the tenant's
 * only one when its profile lists exactly one; a staff hygiene mark overrides each, and
 * `exclude: true` leaves the call out. Labels are compared trimmed and in lower case.
 *
 * The predicted win probability of a call is its overall score ÷ 100: `segment-truth-gap` measures
 * how far that reading is from the outcomes, and its reliability table shows it bucket by bucket.
 *
 * Reads use the stored aggregates of their periods when fresh (nothing changed since their build
 * that the build did not see) and compute the other periods; `rebuild` stores them.
 */
import {
  type CallId,
  type ClientId,
  Conflict,
  LeadSource,
  MarketProfileRequest,
  type MarketIntelPeriodParams,
  type MarketIntelSeriesParams,
  type MarketIntelSeriesTestParams,
  NotFound,
  PeriodStart,
  PeriodType,
  type HygieneIssue,
  type MarketIntelProfile,
  type MarketIntelSegmentMetrics,
  type SegmentTruthGapRow,
  Text,
  ValidationFailed,
  type ValidationIssue
} from "@callsight/api-spec"
import { Effect, Option, ParseResult, Schema } from "effect"
import { Transactions } from "../db/Transactions.js"
import { newId } from "../lib/Ids.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { PlanUsage } from "../tenancy/PlanUsage.js"
import { MONTHLY_INGESTS } from "../tenancy/Plans.js"
import { TEAM } from "../tenancy/Sees.js"
import { AccountQueries } from "../views/AccountQueries.js"
import { AccountViews, LOW_CREDITS, REPEATED_FAILURES } from "../views/AccountViews.js"
import {
  type Bucket,
  EMPTY_MEASURES,
  HYGIENE_FLAGS,
  type HygieneCall,
  type HygieneFlags,
  type Keyed,
  MarketIntelQueries,
  type Measures,
  type Source
} from "./MarketIntelQueries.js"
import { MarketIntelRepo, type ProfileRow } from "./MarketIntelRepo.js"
import { instantOf, normalise, type Period, previous, trailing } from "./Periods.js"
import { average, cellSuppressed, rate, round, type Scope, wilsonWidth } from "./Stats.js"

/** Calls the backlog lists. */
export const BACKLOG_LIMIT = 50
/** Calls the data-hygiene view lists. */
export const HYGIENE_LIMIT = 100
/** Trailing periods a rebuild stores by default (the most a read asks for). */
export const REBUILD_PERIODS = 26
const PERIOD_TYPES: ReadonlyArray<PeriodType> = ["day", "week", "month", "quarter"]
const UNFILED = new Set(["unknown", "unassigned"])

/** A label as market intelligence files it (the SQL `mi_label`): trimmed, spaces collapsed, lower case. */
export const labelOf = (value: string): string => value.trim().replace(/\s+/g, " ").toLowerCase()

// ---------------------------------------------------------------------------------------------
// Bodies of the free-form operations

/**
 * The issues of a body that failed its schema, as the validation error lists them. An optional or
 * nullable field's failure also reports its `undefined` and `null` branches, which only restate that
 * a value was there: dropped when another issue names the place or one inside it (as the
 * middleware does for declared bodies).
 */
const issuesOf = (error: ParseResult.ParseError, prefix: ReadonlyArray<string | number>): Array<ValidationIssue> => {
  const all = ParseResult.ArrayFormatter.formatErrorSync(error)
  const restates = (issue: ParseResult.ArrayFormatterIssue) => issue._tag === "Type" && /^Expected (undefined|null),/.test(issue.message)
  const kept = all.filter((issue) =>
    !(restates(issue) && all.some((other) => other !== issue && !restates(other) && issue.path.every((p, i) => other.path[i] === p)))
  )
  // the members of a union refused one by one (`Expected "day", actual "year"`, ...) make one issue
  const byPlace = new Map<string, Array<ParseResult.ArrayFormatterIssue>>()
  for (const issue of kept) {
    const place = JSON.stringify(issue.path.map(String))
    byPlace.set(place, [...(byPlace.get(place) ?? []), issue])
  }
  return [...byPlace.values()].map((issues) => {
    const first = issues[0]!
    const parts = issues.map((i) => /^Expected (.*), actual (.*)$/s.exec(i.message))
    const msg = first._tag === "Missing"
      ? "Field required"
      : issues.length > 1 && parts.every((p) => p !== null && p[2] === parts[0]![2])
      ? `Expected ${parts.map((p) => p![1]).join(" | ")}, actual ${parts[0]![2]}`
      : issues.map((i) => i.message).join("; ")
    return {
      loc: ["body", ...prefix, ...first.path.map((p) => (typeof p === "number" ? p : String(p)))],
      msg,
      type: first._tag === "Missing" ? "missing" : first._tag === "Unexpected" ? "extra_forbidden" : "value_error"
    }
  })
}

const decodeBody = <A, I>(schema: Schema.Schema<A, I>, value: unknown, prefix: ReadonlyArray<string | number> = [], strict = false) =>
  Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: strict ? "error" : "ignore" })(value).pipe(
    Effect.mapError((error) => new ValidationFailed({ detail: issuesOf(error, prefix) }))
  )

const Label = Text.pipe(Schema.trimmed({ message: () => "must not start or end with a space" }), Schema.minLength(1), Schema.maxLength(200))

/** The keys of a call's hygiene marks the service reads. */
const HygieneMarks = Schema.Struct({
  exclude: Schema.optional(Schema.NullOr(Schema.Boolean)),
  industry: Schema.optional(Schema.NullOr(Label)),
  icp_label: Schema.optional(Schema.NullOr(Label)),
  lead_source: Schema.optional(Schema.NullOr(Label)),
  note: Schema.optional(Schema.NullOr(Text.pipe(Schema.maxLength(2000))))
})

const RebuildRequest = Schema.Struct({
  period_types: Schema.optional(Schema.Array(PeriodType).pipe(Schema.minItems(1))),
  periods: Schema.optional(Schema.Int.pipe(Schema.between(1, REBUILD_PERIODS))),
  period_start: Schema.optional(PeriodStart)
})

const MARKET_KEYS = ["industry", "sub_industry", "icps", "regions", "average_deal_size", "currency", "sales_cycle_days", "competitors", "time_zone"]
/** Fields of the profile's answer that a PUT of it back ignores. */
const READ_ONLY_KEYS = ["client_id", "company_name", "is_test", "industry_label", "source", "updated_at", "extra", "lead_sources"]

// ---------------------------------------------------------------------------------------------
// Reading JSON profiles as stored

type Json = Record<string, unknown>
const str = (v: unknown): string | null => (typeof v === "string" ? v : null)
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null)
const arr = (v: unknown): ReadonlyArray<unknown> => (Array.isArray(v) ? v : [])
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {})
const texts = (v: unknown): Array<string> => arr(v).flatMap((x) => (typeof x === "string" ? [x] : []))

const toProfile = (row: ProfileRow): typeof MarketIntelProfile.Type => {
  const market = obj(row.market)
  const lead = obj(row.lead)
  return {
    client_id: row.client_id,
    company_name: row.company_name,
    is_test: row.is_test,
    industry: str(market.industry),
    industry_label: row.industry_label,
    sub_industry: str(market.sub_industry),
    icps: arr(market.icps).flatMap((i) => {
      const icp = obj(i)
      const label = str(icp.label)
      return label === null ? [] : [{ label, description: str(icp.description), company_size: str(icp.company_size), region: str(icp.region) }]
    }),
    regions: texts(market.regions),
    average_deal_size: num(market.average_deal_size),
    currency: row.market === null ? null : (str(market.currency) ?? "USD"),
    sales_cycle_days: num(market.sales_cycle_days),
    competitors: texts(market.competitors),
    time_zone: str(market.time_zone),
    lead_sources: arr(lead.lead_sources).flatMap((l) => {
      const source = obj(l)
      const label = str(source.label)
      return label === null ? [] : [{ label, channel: str(source.channel) }]
    }),
    extra: obj(market.extra),
    source: row.market === null ? null : row.saved_by === "staff" ? "admin" : "portal",
    updated_at: row.updated_at
  }
}

// ---------------------------------------------------------------------------------------------
// Figures

type Metrics = typeof MarketIntelSegmentMetrics.Type

/** The figures of a cell from its summed measures, withheld by the rules. */
export const metricsOf = (m: Measures, scope: Scope = "cross_tenant"): Metrics => {
  const cell = cellSuppressed(m.tenants, scope)
  return {
    tenants: m.tenants,
    suppressed: cell,
    calls: cell === null ? m.calls : null,
    completed_calls: cell === null ? m.completed : null,
    average_score: average(m.score_sum, m.scored, m.scored_tenants, "scored calls", 1, scope),
    win_rate: rate(m.won, m.won + m.lost, m.decided_tenants, "decided outcomes", scope),
    outcome_coverage: rate(m.with_outcome, m.completed, m.completed_tenants, "completed calls", scope),
    outcomes: cell === null ? { won: m.won, lost: m.lost, no_decision: m.no_decision, open: m.open } : null
  }
}

/** Most calls first; withheld cells last, by label. */
const byCalls = <A extends { readonly calls: number | null }>(label: (a: A) => string) => (a: A, b: A) =>
  a.calls === null && b.calls === null
    ? label(a).localeCompare(label(b))
    : a.calls === null
    ? 1
    : b.calls === null
    ? -1
    : b.calls - a.calls || label(a).localeCompare(label(b))

const keyOf = (row: Keyed, keys: ReadonlyArray<"period_start" | "client_id" | "industry" | "icp" | "lead_source" | "currency">) =>
  keys.map((k) => row[k] ?? "").join("\u0000")

const indexBy = (rows: ReadonlyArray<Keyed>, keys: ReadonlyArray<"period_start" | "client_id" | "industry" | "icp" | "lead_source" | "currency">) =>
  new Map(rows.map((r) => [keyOf(r, keys), r as Measures]))

const slope = (points: ReadonlyArray<number | null>): number | null => {
  const xy = points.flatMap((y, x) => (y === null ? [] : [[x, y] as const]))
  if (xy.length < 2) return null
  const mx = xy.reduce((s, [x]) => s + x, 0) / xy.length
  const my = xy.reduce((s, [, y]) => s + y, 0) / xy.length
  const sxx = xy.reduce((s, [x]) => s + (x - mx) ** 2, 0)
  return round(xy.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx, 1)
}

const HYGIENE_FIELD_OF: Record<keyof HygieneFlags, { field: typeof HygieneIssue.Type["field"]; kind: "missing" | "contradictory" }> = {
  industry_missing: { field: "industry", kind: "missing" },
  industry_contradictory: { field: "industry", kind: "contradictory" },
  icp_missing: { field: "icp", kind: "missing" },
  icp_contradictory: { field: "icp", kind: "contradictory" },
  lead_source_missing: { field: "lead_source", kind: "missing" },
  lead_source_contradictory: { field: "lead_source", kind: "contradictory" },
  deal_value_missing: { field: "deal_value", kind: "missing" },
  currency_contradictory: { field: "currency", kind: "contradictory" },
  outcome_closed_before_call: { field: "outcome", kind: "contradictory" },
  outcome_open_with_close_date: { field: "outcome", kind: "contradictory" },
  score_missing: { field: "score", kind: "missing" },
  closer_missing: { field: "closer", kind: "missing" }
}
const HYGIENE_FIELDS = ["industry", "icp", "lead_source", "deal_value", "currency", "outcome", "score", "closer"] as const

const hygieneDetail = (flag: keyof HygieneFlags, c: HygieneCall): string => {
  switch (flag) {
    case "industry_missing":
      return "no industry: the tenant's market profile has none and none was given at signup"
    case "industry_contradictory":
      return `the market profile says "${c.profile_industry}", the signup "${c.signup_industry}"`
    case "icp_missing":
      return "no ICP: none was recorded with the outcome, and the tenant's profile lists none or several"
    case "icp_contradictory":
      return `the outcome names the ICP "${c.claimed_icp}", which the tenant's market profile does not list`
    case "lead_source_missing":
      return "no lead source: none was recorded with the outcome, and the lead-context profile lists none or several"
    case "lead_source_contradictory":
      return `the outcome names the lead source "${c.claimed_lead_source}", which the lead-context profile does not list`
    case "deal_value_missing":
      return "won without a deal value"
    case "currency_contradictory":
      return `the outcome is in ${c.outcome_currency}, the market profile in ${c.profile_currency}`
    case "outcome_closed_before_call":
      return "the deal closed before the call was made"
    case "outcome_open_with_close_date":
      return "open, yet with a close date"
    case "score_missing":
      return "completed without an overall score"
    case "closer_missing":
      return "no closer e-mail"
  }
}

export class MarketIntel extends Effect.Service<MarketIntel>()("MarketIntel", {
  effect: Effect.gen(function* () {
    const queries = yield* MarketIntelQueries
    const repo = yield* MarketIntelRepo
    const transactions = yield* Transactions
    const audit = yield* AuditLog
    const accounts = yield* AccountViews
    const accountQueries = yield* AccountQueries
    const planUsage = yield* PlanUsage
    const ledger = yield* LedgerRepo

    /** Which of the periods come from fresh stored aggregates, and the computed rest (in spans of consecutive periods). */
    const sourceOf = (periods: ReadonlyArray<Period>) =>
      Effect.gen(function* () {
        const type = periods[0]!.period_type
        const fresh = yield* queries.fresh(type, periods.map((p) => p.period_start))
        const builtAt = new Map(fresh.map((f) => [f.period_start, f.built_at]))
        const computed: Array<{ from: string; to: string }> = []
        for (const p of periods) {
          if (builtAt.has(p.period_start)) continue
          const last = computed[computed.length - 1]
          if (last !== undefined && last.to === instantOf(p.period_start)) computed[computed.length - 1] = { from: last.from, to: instantOf(p.period_end) }
          else computed.push({ from: instantOf(p.period_start), to: instantOf(p.period_end) })
        }
        const stored = periods.filter((p) => builtAt.has(p.period_start))
        const src: Source = { type, stored: stored.map((p) => p.period_start), computed }
        const built = stored.map((p) => builtAt.get(p.period_start)!).sort()
        return {
          src,
          header: {
            source: stored.length === 0 ? "computed" as const : stored.length === periods.length ? "stored" as const : "mixed" as const,
            aggregates_built_at: built[0] ?? null
          }
        }
      })

    /** The part of `src` for one of its periods. */
    const narrow = (src: Source, period: Period): Source =>
      src.stored.includes(period.period_start)
        ? { type: src.type, stored: [period.period_start], computed: [] }
        : { type: src.type, stored: [], computed: [{ from: instantOf(period.period_start), to: instantOf(period.period_end) }] }

    const header = (period: Period, source: { source: "stored" | "computed" | "mixed"; aggregates_built_at: string | null }) => ({
      period,
      generated_at: new Date().toISOString(),
      ...source
    })

    const seriesHeader = (
      period: Period,
      periods: ReadonlyArray<Period>,
      source: { source: "stored" | "computed" | "mixed"; aggregates_built_at: string | null }
    ) => ({
      ...header(period, source),
      periods,
      window: { from: periods[0]!.period_start, to: periods[periods.length - 1]!.period_end }
    })

    const single = (rows: ReadonlyArray<Keyed>): Measures => (rows[0] as Measures | undefined) ?? EMPTY_MEASURES

    const seriesOf = (periods: ReadonlyArray<Period>, rows: Map<string, Measures>, prefix = "") =>
      periods.map((period) => ({ period, ...metricsOf(rows.get(`${prefix}${period.period_start}`) ?? EMPTY_MEASURES) }))

    // --- the views ---------------------------------------------------------------------------

    const overview = Effect.fn("MarketIntel.overview")(function* (params: typeof MarketIntelPeriodParams.Type) {
      const period = normalise(params.period_type, params.period_start, new Date())
      const before = previous(period)
      const { header: source, src } = yield* sourceOf([before, period])
      const rows = indexBy(yield* queries.aggregate(src, false, ["period_start"]), ["period_start"])
      const counts = yield* queries.overviewCounts(narrow(src, period))
      return {
        ...header(period, source),
        totals: metricsOf(rows.get(period.period_start) ?? EMPTY_MEASURES),
        previous: { period: before, ...metricsOf(rows.get(before.period_start) ?? EMPTY_MEASURES) },
        industries: counts.industries,
        tenants_with_profile: counts.with_profile,
        tenants_without_profile: counts.without_profile
      }
    }, Effect.orDie)

    const industries = Effect.fn("MarketIntel.industries")(function* (params: typeof MarketIntelPeriodParams.Type) {
      const period = normalise(params.period_type, params.period_start, new Date())
      const { header: source, src } = yield* sourceOf([period])
      const [byIndustry, byIcp] = yield* queries.aggregateMany(src, false, [["industry"], ["industry", "icp"]])
      return {
        ...header(period, source),
        industries: byIndustry
          .filter((r) => r.calls > 0)
          .map((r) => ({
            industry_label: r.industry!,
            ...metricsOf(r),
            icps: byIcp
              .filter((i) => i.industry === r.industry && i.calls > 0)
              .map((i) => ({ icp_label: i.icp!, ...metricsOf(i) }))
              .sort(byCalls((i) => i.icp_label))
          }))
          .sort(byCalls((r) => r.industry_label))
      }
    }, Effect.orDie)

    const industryIcp = Effect.fn("MarketIntel.industryIcp")(function* (
      industryLabel: string,
      icpLabel: string,
      params: typeof MarketIntelSeriesParams.Type
    ) {
      const industry = labelOf(industryLabel)
      const icp = labelOf(icpLabel)
      const period = normalise(params.period_type, params.period_start, new Date())
      const periods = trailing(period, params.periods)
      const { header: source, src } = yield* sourceOf(periods)
      const [seriesRows, windowRows] = yield* queries.aggregateMany(src, false, [["period_start"], []], { industry, icp })
      const series = indexBy(seriesRows!, ["period_start"])
      const window = single(windowRows!)
      if (window.calls === 0 && !(yield* queries.profileListsIcp(industry, icp))) {
        return yield* new NotFound({ message: `no profile lists the ICP "${icp}" in the industry "${industry}", and no call is filed under it` })
      }
      const baseline = single(yield* queries.aggregate(narrow(src, period), false, [], { industry }))
      return {
        ...seriesHeader(period, periods, source),
        industry_label: industry,
        icp_label: icp,
        current: metricsOf(series.get(period.period_start) ?? EMPTY_MEASURES),
        trailing: metricsOf(window),
        series: seriesOf(periods, series),
        industry_baseline: metricsOf(baseline)
      }
    }, Effect.catchTag("SqlError", Effect.die))

    const leadSources = Effect.fn("MarketIntel.leadSources")(function* (params: typeof MarketIntelSeriesTestParams.Type) {
      const include = params.include_test_data
      const period = normalise(params.period_type, params.period_start, new Date())
      const periods = trailing(period, params.periods)
      const { header: source, src } = yield* sourceOf(periods)
      const [totals, seriesRows] = yield* queries.aggregateMany(src, include, [["lead_source"], ["lead_source", "period_start"]])
      const series = indexBy(seriesRows!, ["lead_source", "period_start"])
      const channels = new Map((yield* queries.leadChannels(include)).map((c) => [c.label, c.channel]))
      return {
        ...seriesHeader(period, periods, source),
        include_test_data: include,
        lead_sources: totals
          .filter((r) => r.calls > 0)
          .map((r) => ({
            lead_source: r.lead_source!,
            channel: channels.get(r.lead_source!) ?? null,
            ...metricsOf(r),
            series: seriesOf(periods, series, `${r.lead_source}\u0000`)
          }))
          .sort(byCalls((r) => r.lead_source))
      }
    }, Effect.orDie)

    const dealValues = (rows: ReadonlyArray<Keyed>) =>
      rows
        .filter((r) => r.won_value_n > 0)
        .map((r) => ({
          currency: r.currency!,
          won_value: cellSuppressed(r.won_value_tenants) === null ? round(r.won_value_sum, 2) : null,
          average_won_value: average(r.won_value_sum, r.won_value_n, r.won_value_tenants, "won deals with a value", 2)
        }))
        .sort((a, b) => a.currency.localeCompare(b.currency))

    const outcomeTruth = Effect.fn("MarketIntel.outcomeTruth")(function* (params: typeof MarketIntelSeriesTestParams.Type) {
      const include = params.include_test_data
      const period = normalise(params.period_type, params.period_start, new Date())
      const periods = trailing(period, params.periods)
      const { header: source, src } = yield* sourceOf(periods)
      const [totalRows, currencies, seriesRows, byIndustry, industryCurrencies] = yield* queries.aggregateMany(src, include, [
        [],
        ["currency"],
        ["period_start"],
        ["industry"],
        ["industry", "currency"]
      ])
      const totals = single(totalRows!)
      const series = indexBy(seriesRows!, ["period_start"])
      return {
        ...seriesHeader(period, periods, source),
        include_test_data: include,
        totals: { ...metricsOf(totals), deal_values: dealValues(currencies) },
        series: seriesOf(periods, series),
        by_industry: byIndustry
          .filter((r) => r.calls > 0)
          .map((r) => ({
            industry_label: r.industry!,
            ...metricsOf(r),
            deal_values: dealValues(industryCurrencies.filter((c) => c.industry === r.industry))
          }))
          .sort(byCalls((r) => r.industry_label))
      }
    }, Effect.orDie)

    const gapRow = (
      segment_type: typeof SegmentTruthGapRow.Type["segment_type"],
      segment_label: string,
      industry_label: string | null,
      m: Measures
    ): typeof SegmentTruthGapRow.Type => {
      const predicted = average(m.pred_sum, m.scored_decided, m.scored_decided_tenants, "decided, scored calls", 4)
      const actual = rate(m.scored_won, m.scored_decided, m.scored_decided_tenants, "decided, scored calls")
      return {
        segment_type,
        segment_label,
        industry_label,
        tenants: m.tenants,
        suppressed: cellSuppressed(m.tenants),
        predicted_win_rate: predicted,
        actual_win_rate: actual,
        gap: predicted.value !== null && actual.value !== null ? round((m.pred_sum - m.scored_won) / m.scored_decided, 4) : null
      }
    }

    const segmentTruthGap = Effect.fn("MarketIntel.segmentTruthGap")(function* (params: typeof MarketIntelSeriesTestParams.Type) {
      const include = params.include_test_data
      const period = normalise(params.period_type, params.period_start, new Date())
      const periods = trailing(period, params.periods)
      const { header: source, src } = yield* sourceOf(periods)
      const [overallRows, industryRows, icpRows, leadRows] = yield* queries.aggregateMany(src, include, [
        [],
        ["industry"],
        ["industry", "icp"],
        ["lead_source"]
      ])
      const overall = single(overallRows!)
      const segments = [
        ...industryRows!.map((r) => gapRow("industry", r.industry!, null, r)),
        ...icpRows!.map((r) => gapRow("icp", r.icp!, r.industry!, r)),
        ...leadRows!.map((r) => gapRow("lead_source", r.lead_source!, null, r))
      ].filter((r) => r.tenants > 0)
      const order = ["industry", "icp", "lead_source"]
      segments.sort((a, b) =>
        a.gap === null && b.gap === null
          ? order.indexOf(a.segment_type) - order.indexOf(b.segment_type) || a.segment_label.localeCompare(b.segment_label)
          : a.gap === null
          ? 1
          : b.gap === null
          ? -1
          : Math.abs(b.gap) - Math.abs(a.gap) || a.segment_label.localeCompare(b.segment_label))
      const buckets: ReadonlyArray<Bucket> = yield* queries.buckets(src, include)
      return {
        ...seriesHeader(period, periods, source),
        include_test_data: include,
        overall: gapRow("all", "all", null, overall),
        segments,
        reliability: buckets.map((b) => ({
          score_from: b.bucket * 20,
          score_to: b.bucket * 20 + 20,
          predicted: average(b.pred, b.n, b.tenants, "decided calls", 4),
          observed: rate(b.won, b.n, b.tenants, "decided calls")
        }))
      }
    }, Effect.orDie)

    /**
     * The newest `limit` calls of `periods` with an issue or a mark, newest first: read from the
     * calls a span of periods at a time, the newest first, each span twice as long as the one
     * before (1, 2, 4, ... periods), until `limit` are found or the periods end. A window where
     * many calls have an issue is answered from its last period or two (at 100,000 calls across
     * 200 tenants, 8 weeks: ~1,800 calls read instead of ~14,200); one where few have is read
     * whole, in at most log2(periods) + 1 statements. The spans are consecutive and end where the
     * next begins, so their lists, one after the other, are the window's in its order.
     */
    const newestWithIssue = (periods: ReadonlyArray<Period>, limit: number) =>
      Effect.gen(function* () {
        const found: Array<HygieneCall> = []
        let end = periods.length
        for (let span = 1; end > 0 && found.length < limit; span *= 2) {
          const start = Math.max(0, end - span)
          const window = { from: instantOf(periods[start]!.period_start), to: instantOf(periods[end - 1]!.period_end) }
          found.push(...yield* queries.hygieneList(window, limit - found.length))
          end = start
        }
        return found
      })

    const dataHygiene = Effect.fn("MarketIntel.dataHygiene")(function* (params: typeof MarketIntelSeriesParams.Type) {
      const period = normalise(params.period_type, params.period_start, new Date())
      const periods = trailing(period, params.periods)
      // the counts from the stored aggregates of the fresh periods (computed for the others), beside
      // the list, always read from the calls
      const totalsOf = Effect.flatMap(sourceOf(periods), ({ header, src }) =>
        Effect.map(queries.hygieneTotals(src), (counts) => ({ header, counts }))
      )
      const [{ counts, header: source }, listed] = yield* Effect.all(
        [totalsOf, newestWithIssue(periods, HYGIENE_LIMIT)],
        { concurrency: "unbounded" }
      )
      const totals = counts.find((r) => r.period_start === null)
      const perPeriod = new Map(counts.flatMap((r) => (r.period_start === null ? [] : [[r.period_start, r] as const])))
      const t = totals!
      return {
        ...seriesHeader(period, periods, source),
        totals: {
          calls_checked: t.checked,
          issue_rate: rate(t.with_issue, t.checked, t.tenants, "calls checked"),
          marked: t.marked,
          excluded: t.excluded
        },
        issues_by_field: HYGIENE_FIELDS.map((field) => ({
          field,
          missing: HYGIENE_FLAGS.filter((f) => HYGIENE_FIELD_OF[f].field === field && HYGIENE_FIELD_OF[f].kind === "missing")
            .reduce((n, f) => n + t[f], 0),
          contradictory: HYGIENE_FLAGS.filter((f) => HYGIENE_FIELD_OF[f].field === field && HYGIENE_FIELD_OF[f].kind === "contradictory")
            .reduce((n, f) => n + t[f], 0)
        })),
        series: periods.map((p) => {
          const r = perPeriod.get(p.period_start)
          return { period: p, calls_checked: r?.checked ?? 0, issue_rate: rate(r?.with_issue ?? 0, r?.checked ?? 0, r?.tenants ?? 0, "calls checked") }
        }),
        calls: listed.map((c) => ({
          call_id: c.call_id as CallId,
          client_id: c.client_id as ClientId,
          company_name: c.company_name,
          created_at: c.created_at,
          issues: HYGIENE_FLAGS.filter((f) => c[f]).map((f) => ({ ...HYGIENE_FIELD_OF[f], detail: hygieneDetail(f, c) })),
          hygiene: c.marks === null
            ? null
            : {
              call_id: c.call_id as CallId,
              client_id: c.client_id as ClientId,
              marks: c.marks,
              excluded_from_aggregates: c.excluded,
              updated_at: c.hygiene_updated_at!
            }
        }))
      }
    }, Effect.orDie)

    const truthAdoption = Effect.fn("MarketIntel.truthAdoption")(function* (params: typeof MarketIntelSeriesTestParams.Type) {
      const include = params.include_test_data
      const period = normalise(params.period_type, params.period_start, new Date())
      const periods = trailing(period, params.periods)
      const { header: source, src } = yield* sourceOf(periods)
      const [totalRows, seriesRows, tenantRows] = yield* queries.aggregateMany(src, include, [[], ["period_start"], ["client_id"]])
      const totals = single(totalRows!)
      const series = indexBy(seriesRows!, ["period_start"])
      const perTenant = tenantRows!.filter((r) => r.completed > 0)
      const facts = new Map((yield* queries.tenantFacts(perTenant.map((r) => r.client_id!), include)).map((f) => [f.client_id as string, f]))
      const adoption = (m: Measures, scope?: Scope) => rate(m.with_outcome, m.completed, m.completed_tenants, "completed calls", scope)
      return {
        ...seriesHeader(period, periods, source),
        include_test_data: include,
        adoption: adoption(totals),
        series: periods.map((p) => ({ period: p, adoption: adoption(series.get(p.period_start) ?? EMPTY_MEASURES) })),
        by_tenant: perTenant
          .map((r) => {
            const f = facts.get(r.client_id!)
            return {
              client_id: r.client_id! as ClientId,
              company_name: f?.company_name ?? "",
              industry_label: f?.industry_label ?? null,
              completed_calls: r.completed,
              adoption: adoption(r, "one_tenant"),
              last_outcome_at: f?.last_outcome_at ?? null
            }
          })
          .sort((a, b) =>
            (a.adoption.value ?? Infinity) - (b.adoption.value ?? Infinity) || b.completed_calls - a.completed_calls ||
            a.company_name.localeCompare(b.company_name) || a.client_id.localeCompare(b.client_id))
      }
    }, Effect.orDie)

    const truthBacklog = Effect.fn("MarketIntel.truthBacklog")(function* (params: typeof MarketIntelSeriesTestParams.Type) {
      const include = params.include_test_data
      const period = normalise(params.period_type, params.period_start, new Date())
      const periods = trailing(period, params.periods)
      const { header: source, src } = yield* sourceOf(periods)
      const rows = yield* queries.backlogSegments(src, include)
      // the segments' decided outcomes, summed over their tenants
      const decided = new Map<string, { won: number; lost: number }>()
      const add = (key: string, r: { won: number; lost: number }) => {
        const d = decided.get(key) ?? { won: 0, lost: 0 }
        decided.set(key, { won: d.won + r.won, lost: d.lost + r.lost })
      }
      for (const r of rows) {
        add(`industry\u0000${r.industry}`, r)
        add(`icp\u0000${r.industry}\u0000${r.icp}`, r)
        add(`lead_source\u0000${r.lead_source}`, r)
      }
      // a segment's win-rate interval now, and with one more decided outcome at the current rate
      const gainOf = (key: string) => {
        const d = decided.get(key) ?? { won: 0, lost: 0 }
        const n = d.won + d.lost
        const p = n === 0 ? 0.5 : d.won / n
        const width = wilsonWidth(p, n)
        const after = wilsonWidth(p, n + 1)
        return { decided: n, interval_width: round(width, 4), width_after: round(after, 4), gain: width - after }
      }
      const segmentsOf = (industry: string, icp: string, lead: string) => [
        ...(UNFILED.has(industry) ? [] : [{ segment_type: "industry" as const, segment_label: industry, ...gainOf(`industry\u0000${industry}`) }]),
        ...(UNFILED.has(icp) ? [] : [{ segment_type: "icp" as const, segment_label: icp, ...gainOf(`icp\u0000${industry}\u0000${icp}`) }]),
        ...(UNFILED.has(lead) ? [] : [{ segment_type: "lead_source" as const, segment_label: lead, ...gainOf(`lead_source\u0000${lead}`) }])
      ]
      const candidates = rows
        .filter((r) => r.waiting > 0)
        .map((r) => ({ ...r, priority: round(segmentsOf(r.industry, r.icp, r.lead_source).reduce((s, g) => s + g.gain, 0), 4) }))
        .sort((a, b) => b.priority - a.priority)
      const backlogTotal = candidates.reduce((n, c) => n + c.waiting, 0)
      // the segments of the highest priorities that hold the calls to list (ties at the cut included)
      const chosen: typeof candidates = []
      let held = 0
      for (const c of candidates) {
        if (held >= BACKLOG_LIMIT && c.priority < chosen[chosen.length - 1]!.priority) break
        chosen.push(c)
        held += c.waiting
      }
      const window = { from: instantOf(periods[0]!.period_start), to: instantOf(period.period_end) }
      const calls = chosen.length === 0 ? [] : yield* queries.backlogCalls(window, include, chosen, BACKLOG_LIMIT)
      return {
        ...seriesHeader(period, periods, source),
        include_test_data: include,
        backlog_total: backlogTotal,
        limit: BACKLOG_LIMIT,
        calls: calls.map((c) => {
          const segments = segmentsOf(c.industry, c.icp, c.lead_source)
          const best = [...segments].sort((a, b) => b.gain - a.gain)[0]
          return {
            call_id: c.call_id as CallId,
            client_id: c.client_id as ClientId,
            company_name: c.company_name,
            industry_label: c.industry,
            icp_label: c.icp,
            lead_source: c.lead_source,
            closer_email: c.closer_email,
            created_at: c.created_at,
            completed_at: c.completed_at,
            overall_score: c.score,
            priority: c.priority,
            reason: best === undefined
              ? "its industry, ICP and lead source are all unknown: its outcome narrows no segment's estimate"
              : `${best.segment_type.replace("_", " ")} "${best.segment_label}" has ${best.decided} decided outcome` +
                `${best.decided === 1 ? "" : "s"} in the window: one more narrows its 95 % interval from ${best.interval_width} to ${best.width_after}`,
            segments: segments.map(({ gain: _, ...s }) => s)
          }
        })
      }
    }, Effect.orDie)

    const radar = Effect.fn("MarketIntel.radar")(function* (clientId: ClientId) {
      const now = new Date()
      // the tenant first (an unknown one is NotFound), then its figures at once
      const usage = yield* planUsage.usage(clientId)
      const [found, months, facts, activation, weeks, reserved] = yield* Effect.all([
        Effect.orDie(repo.profile(clientId)),
        Effect.orDie(queries.radarMonths(clientId, 6)),
        Effect.orDie(queries.radarFacts(clientId)),
        accounts.onboarding(clientId),
        Effect.orDie(accountQueries.scoreTrend(clientId, TEAM)),
        Effect.orDie(ledger.reserved(clientId))
      ], { concurrency: "unbounded" })
      const profile = Option.getOrThrow(found)
      const free = usage.credits_balance - reserved
      const last = months[months.length - 2]?.used ?? 0
      const before = months[months.length - 3]?.used ?? 0
      const direction = last === before ? "flat" as const
        : before === 0 ? "up" as const
        : last >= 1.2 * before ? "up" as const
        : last <= 0.8 * before ? "down" as const
        : "flat" as const
      const scoreTrend = slope(weeks.map((w) => w.average_score))
      const allowance = usage.ingests_included + usage.bonus_ingests
      const signals: Array<{ kind: "risk" | "expansion" | "renewal"; code: string; severity: "info" | "warning" | "critical"; message: string }> = []
      if (direction === "down") {
        signals.push({ kind: "risk", code: "usage_declining", severity: "warning", message: `${last} calls analysed last month against ${before} the month before` })
      }
      if (facts.completed_30d === 0) {
        signals.push({ kind: "risk", code: "no_recent_calls", severity: "warning", message: "no call analysed in the last 30 days" })
      }
      if (free < 1) {
        signals.push({ kind: "risk", code: "no_credits", severity: "critical", message: "no credit is free: uploads through the API are refused" })
      } else if (free < LOW_CREDITS) {
        signals.push({ kind: "risk", code: "credits_low", severity: "warning", message: `${free} credit${free === 1 ? "" : "s"} free for uploads` })
      }
      if (activation.activation_pct < 50) {
        signals.push({ kind: "risk", code: "low_activation", severity: "warning", message: `${activation.steps_done} of ${activation.steps_total} onboarding steps done` })
      }
      if (facts.completed_30d > 0 && facts.outcomes_30d === 0) {
        signals.push({ kind: "risk", code: "no_outcome_truth", severity: "warning", message: "no outcome recorded in 30 days while calls were analysed" })
      }
      if (facts.failed_7d >= REPEATED_FAILURES) {
        signals.push({ kind: "risk", code: "repeated_failures", severity: "warning", message: `${facts.failed_7d} analyses failed in the last 7 days` })
      }
      if (scoreTrend !== null && scoreTrend <= -1) {
        signals.push({ kind: "risk", code: "score_declining", severity: "info", message: `the average score falls by ${-scoreTrend} points a week` })
      }
      if (usage.ingests_used >= allowance) {
        signals.push({ kind: "expansion", code: "at_ingest_limit", severity: "warning", message: `${usage.ingests_used} of ${allowance} monthly ingests used` })
      } else if (usage.ingests_used >= 0.8 * allowance) {
        signals.push({ kind: "expansion", code: "near_ingest_limit", severity: "info", message: `${usage.ingests_used} of ${allowance} monthly ingests used` })
      }
      if (direction === "up") {
        signals.push({ kind: "expansion", code: "usage_growing", severity: "info", message: `${last} calls analysed last month against ${before} the month before` })
      }
      if (scoreTrend !== null && scoreTrend >= 1) {
        signals.push({ kind: "renewal", code: "score_improving", severity: "info", message: `the average score rises by ${scoreTrend} points a week` })
      }
      const risks = signals.filter((s) => s.kind === "risk")
      const codes = new Set(signals.map((s) => s.code))
      return {
        ...header(normalise("month", undefined, now), { source: "computed", aggregates_built_at: null }),
        client_id: clientId,
        company_name: profile.company_name,
        plan: usage.plan,
        usage_trend: {
          direction,
          months: months.map((m) => ({ month: m.month, ingests_used: m.used, ingests_included: MONTHLY_INGESTS[usage.plan], bonus_ingests: m.bonus }))
        },
        activation: {
          activation_pct: activation.activation_pct,
          steps_done: activation.steps_done,
          steps_total: activation.steps_total,
          next_step: activation.next_step
        },
        value: {
          window_days: 90 as const,
          calls_analysed: facts.calls_analysed,
          hours_analysed: round(facts.seconds_analysed / 3600, 1),
          average_score: average(facts.score_sum, facts.scored, facts.scored > 0 ? 1 : 0, "scored calls", 1, "one_tenant"),
          score_trend: scoreTrend,
          win_rate: rate(facts.won, facts.won + facts.lost, facts.won + facts.lost > 0 ? 1 : 0, "decided outcomes", "one_tenant")
        },
        renewal_risk: risks.some((s) => s.severity === "critical") || risks.filter((s) => s.severity === "warning").length >= 2
          ? "high" as const
          : risks.some((s) => s.severity === "warning") ? "medium" as const : "low" as const,
        expansion_potential: codes.has("at_ingest_limit") || (codes.has("near_ingest_limit") && codes.has("usage_growing"))
          ? "high" as const
          : codes.has("near_ingest_limit") || codes.has("usage_growing") ? "medium" as const : "low" as const,
        signals
      }
    })

    // --- profiles and hygiene marks ----------------------------------------------------------

    const profiles = Effect.map(Effect.orDie(repo.profiles), (rows) => ({ profiles: rows.map(toProfile) }))

    const profileOf = (clientId: ClientId) =>
      Effect.flatMap(Effect.orDie(repo.profile(clientId)), Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `no client ${clientId}` })),
        onSome: (row) => Effect.succeed(toProfile(row))
      }))

    const saveProfile = Effect.fn("MarketIntel.saveProfile")(function* (clientId: ClientId, body: Json, actor: Actor) {
      const known = Object.fromEntries(MARKET_KEYS.filter((k) => k in body).map((k) => [k, body[k]]))
      const market = yield* decodeBody(MarketProfileRequest, known)
      const leadSources = "lead_sources" in body
        ? Option.some(yield* decodeBody(Schema.Array(LeadSource).pipe(Schema.maxItems(50)), body.lead_sources, ["lead_sources"]))
        : Option.none()
      const extra = {
        ...obj(body.extra),
        ...Object.fromEntries(Object.entries(body).filter(([k]) => !MARKET_KEYS.includes(k) && !READ_ONLY_KEYS.includes(k)))
      }
      yield* transactions.run(
        Effect.gen(function* () {
          if (Option.isNone(yield* repo.lockTenant(clientId))) return yield* new NotFound({ message: `no client ${clientId}` })
          yield* repo.saveMarket({ clientId, profile: JSON.stringify({ ...market, extra }) })
          if (Option.isSome(leadSources)) yield* repo.saveLeadSources({ clientId, leadSources: JSON.stringify(leadSources.value) })
          yield* audit.record(clientId, actor, {
            action: "market_profile.saved",
            targetType: "tenant",
            targetId: clientId,
            metadata: { fields: Object.keys(body), via: "market_intel", lead_sources_replaced: Option.isSome(leadSources) }
          })
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return yield* profileOf(clientId)
    })

    const deleteProfile = Effect.fn("MarketIntel.deleteProfile")(function* (clientId: ClientId, actor: Actor) {
      const deleted = yield* transactions.run(
        Effect.gen(function* () {
          if (Option.isNone(yield* repo.lockTenant(clientId))) return yield* new NotFound({ message: `no client ${clientId}` })
          const deleted = yield* repo.deleteMarket(clientId)
          if (deleted) {
            yield* audit.record(clientId, actor, {
              action: "market_profile.deleted",
              targetType: "tenant",
              targetId: clientId,
              metadata: { via: "market_intel" }
            })
          }
          return deleted
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return { client_id: clientId, deleted }
    })

    const setHygiene = Effect.fn("MarketIntel.setHygiene")(function* (callId: CallId, marks: Json, actor: Actor) {
      const read = yield* decodeBody(HygieneMarks, marks)
      const row = yield* transactions.run(
        Effect.gen(function* () {
          const call = yield* repo.callTenant(callId)
          if (Option.isNone(call)) return yield* new NotFound({ message: `no call ${callId}` })
          const clientId = call.value.client_id
          const saved = yield* repo.setHygiene({ callId, clientId, marks: JSON.stringify(marks), excluded: read.exclude === true, by: actor.id })
          yield* audit.record(clientId, actor, {
            action: "call.hygiene_marked",
            targetType: "call",
            targetId: callId,
            metadata: { keys: Object.keys(marks), excluded: read.exclude === true }
          })
          return saved
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return {
        call_id: row.call_id,
        client_id: row.client_id,
        marks: row.marks,
        excluded_from_aggregates: row.excluded,
        updated_at: row.updated_at
      }
    })

    // --- the stored aggregates ---------------------------------------------------------------

    /** Stores the periods of one type: registers them, then computes and writes their grain in one transaction. */
    const rebuildType = (type: PeriodType, periods: ReadonlyArray<Period>) =>
      Effect.gen(function* () {
        const starts = periods.map((p) => p.period_start)
        const registered = yield* repo.registerBuilds(type, starts)
        if (registered.length > 0) yield* repo.logInFlight(type, registered)
        return yield* transactions.run(
          Effect.gen(function* () {
            const snapshot = yield* repo.snapshot
            yield* repo.deleteCells(type, starts)
            const from = instantOf(starts[0]!)
            const to = instantOf(periods[periods.length - 1]!.period_end)
            const written = new Map((yield* repo.writeCells(type, from, to)).map((r) => [r.period_start, r.rows]))
            // the per-segment trends' grain beside it, by when the calls took place (SegmentTrendsQueries.ts)
            yield* repo.writeTrendCells(type, from, to)
            // and the data-hygiene counts per tenant (MarketIntelQueries.hygieneGrain)
            yield* repo.writeHygieneCells(type, from, to)
            yield* repo.markBuilt(type, snapshot, starts.map((s) => ({ period_start: s, rows: written.get(s) ?? 0 })))
            yield* repo.dropSeenChanges(type, starts, snapshot)
            return {
              period_type: type,
              from: starts[0]!,
              to: periods[periods.length - 1]!.period_end,
              periods: periods.length,
              rows: [...written.values()].reduce((n, r) => n + r, 0)
            }
          })
        )
      })

    const rebuild = Effect.fn("MarketIntel.rebuild")(function* (body: Json) {
      const request = yield* decodeBody(RebuildRequest, body, [], true)
      const types = PERIOD_TYPES.filter((t) => (request.period_types ?? PERIOD_TYPES).includes(t))
      const count = request.periods ?? REBUILD_PERIODS
      const holder = newId("rbd")
      if (Option.isNone(yield* Effect.orDie(repo.takeLock(holder)))) {
        const since = yield* Effect.orDie(repo.lockHolder)
        return yield* new Conflict({ message: `a rebuild is running${since === null ? "" : ` since ${since}`}: one at a time` })
      }
      const startedAt = new Date()
      const t0 = performance.now()
      const rebuilt = yield* Effect.zipRight(
        repo.pruneStale,
        Effect.forEach(types, (type) => rebuildType(type, trailing(normalise(type, request.period_start, startedAt), count)))
      ).pipe(
        Effect.ensuring(Effect.ignore(repo.releaseLock(holder))),
        Effect.orDie
      )
      return {
        requested: body,
        period_types: types,
        periods_rebuilt: rebuilt.reduce((n, r) => n + r.periods, 0),
        rows_written: rebuilt.reduce((n, r) => n + r.rows, 0),
        rebuilt,
        started_at: startedAt.toISOString(),
        completed_at: new Date().toISOString(),
        duration_ms: Math.round(performance.now() - t0)
      }
    })

    return {
      overview,
      industries,
      industryIcp,
      leadSources,
      outcomeTruth,
      segmentTruthGap,
      dataHygiene,
      truthAdoption,
      truthBacklog,
      radar,
      profiles,
      profile: profileOf,
      saveProfile,
      deleteProfile,
      setHygiene,
      rebuild
    } as const
  }),
  dependencies: [
    MarketIntelQueries.Default,
    MarketIntelRepo.Default,
    Transactions.Default,
    AuditLog.Default,
    AccountViews.Default,
    AccountQueries.Default,
    PlanUsage.Default,
    LedgerRepo.Default
  ]
}) {}

