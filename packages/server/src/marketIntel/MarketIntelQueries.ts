/**
 * What the market-intel reads ask the database. Every figure comes from one grain: per period,
 * tenant and segment (industry, ICP, lead source), additive measures of the calls made in it
 * (`grain`, over the view `market_intel_call_facts` of migration 0011). A read takes its periods
 * from the stored aggregates (`market_intel_cells`) where they are fresh and computes the grain of
 * the others on the spot (`cells`); then it sums the grain by what it shows (`aggregate`), counting
 * distinct tenants, so stored and computed periods give the same figures.
 *
 * Test data: a test tenant's calls and a test outcome are left out unless `include_test_data`; a
 * call whose outcome is test data counts as a call without an outcome. Calls whose hygiene marks
 * say `exclude` are never in the grain.
 *
 * Data hygiene has a grain of its own (`hygieneGrain`: per period and tenant, the completed calls
 * checked, with an issue, marked, excluded, and with each flag; excluded calls included, test
 * tenants never), stored beside the other (`market_intel_hygiene_cells`, migration 0036) and read
 * the same way (`hygieneCells`, `hygieneTotals`); its list of calls is always computed. The flags
 * are written once (`hygieneCalls`), for the list and both ways of counting.
 */
import type { PeriodType } from "@callsight/api-spec"
import { ClientId } from "@callsight/api-spec"
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/**
 * The periods of one read: those served from fresh stored aggregates (their first days), and the
 * spans of consecutive periods computed (instants, the end exclusive).
 */
export interface Source {
  readonly type: PeriodType
  readonly stored: ReadonlyArray<string>
  readonly computed: ReadonlyArray<{ readonly from: string; readonly to: string }>
}

/** The reliability bucket of a call's score: 20 points each, 100 in the last. */
const bucketOf = "LEAST(GREATEST(floor(f.score / 20), 0), 4)"
const BUCKETS = [0, 1, 2, 3, 4] as const

/** The additive measures of the grain, in the order of `market_intel_cells`' columns. */
export const MEASURES: ReadonlyArray<readonly [string, string]> = [
  ["calls", "count(*)::int"],
  ["completed", "count(*) FILTER (WHERE f.status = 'completed')::int"],
  ["scored", "count(f.score)::int"],
  ["score_sum", "COALESCE(sum(f.score), 0)::float8"],
  ["with_outcome", "count(*) FILTER (WHERE f.status = 'completed' AND f.outcome IS NOT NULL)::int"],
  ["won", "count(*) FILTER (WHERE f.outcome = 'won')::int"],
  ["lost", "count(*) FILTER (WHERE f.outcome = 'lost')::int"],
  ["no_decision", "count(*) FILTER (WHERE f.outcome = 'no_decision')::int"],
  ["open", "count(*) FILTER (WHERE f.outcome = 'open')::int"],
  ["scored_decided", "count(f.score) FILTER (WHERE f.outcome IN ('won', 'lost'))::int"],
  ["scored_won", "count(f.score) FILTER (WHERE f.outcome = 'won')::int"],
  ["pred_sum", "COALESCE(sum(LEAST(GREATEST(f.score, 0), 100) / 100) FILTER (WHERE f.outcome IN ('won', 'lost')), 0)::float8"],
  ...BUCKETS.map((i) => [`b${i}_n`, `count(*) FILTER (WHERE f.outcome IN ('won', 'lost') AND ${bucketOf} = ${i})::int`] as const),
  ...BUCKETS.map((i) => [`b${i}_won`, `count(*) FILTER (WHERE f.outcome = 'won' AND ${bucketOf} = ${i})::int`] as const),
  ...BUCKETS.map((i) =>
    [`b${i}_pred`, `COALESCE(sum(LEAST(GREATEST(f.score, 0), 100) / 100) FILTER (WHERE f.outcome IN ('won', 'lost') AND ${bucketOf} = ${i}), 0)::float8`] as const
  ),
  ["won_value_sum", "COALESCE(sum(f.deal_value) FILTER (WHERE f.outcome = 'won'), 0)::float8"],
  ["won_value_n", "count(f.deal_value) FILTER (WHERE f.outcome = 'won')::int"]
]
export const GRAIN_KEYS = ["period_start", "client_id", "tenant_test", "industry", "icp", "lead_source", "test_outcome", "currency"] as const

/** Summed measures of a set of grain rows. */
export const Measures = Schema.Struct({
  tenants: Schema.Number,
  calls: Schema.Number,
  completed: Schema.Number,
  completed_tenants: Schema.Number,
  scored: Schema.Number,
  score_sum: Schema.Number,
  scored_tenants: Schema.Number,
  with_outcome: Schema.Number,
  won: Schema.Number,
  lost: Schema.Number,
  no_decision: Schema.Number,
  open: Schema.Number,
  decided_tenants: Schema.Number,
  scored_decided: Schema.Number,
  scored_won: Schema.Number,
  pred_sum: Schema.Number,
  scored_decided_tenants: Schema.Number,
  won_value_sum: Schema.Number,
  won_value_n: Schema.Number,
  won_value_tenants: Schema.Number
})
export type Measures = typeof Measures.Type

export const EMPTY_MEASURES: Measures = {
  tenants: 0, calls: 0, completed: 0, completed_tenants: 0, scored: 0, score_sum: 0, scored_tenants: 0, with_outcome: 0,
  won: 0, lost: 0, no_decision: 0, open: 0, decided_tenants: 0, scored_decided: 0, scored_won: 0, pred_sum: 0,
  scored_decided_tenants: 0, won_value_sum: 0, won_value_n: 0, won_value_tenants: 0
}

export type Key = "period_start" | "client_id" | "industry" | "icp" | "lead_source" | "currency"

const Keyed = Schema.Struct({
  ...Measures.fields,
  period_start: Schema.optional(Schema.NullOr(Schema.String)),
  client_id: Schema.optional(Schema.NullOr(Schema.String)),
  industry: Schema.optional(Schema.NullOr(Schema.String)),
  icp: Schema.optional(Schema.NullOr(Schema.String)),
  lead_source: Schema.optional(Schema.NullOr(Schema.String)),
  currency: Schema.optional(Schema.NullOr(Schema.String))
})
export type Keyed = typeof Keyed.Type

const Bucket = Schema.Struct({ bucket: Schema.Number, n: Schema.Number, won: Schema.Number, pred: Schema.Number, tenants: Schema.Number })
export type Bucket = typeof Bucket.Type

/** A filter of the grain rows a read sums. */
export interface Filter {
  readonly industry?: string
  readonly icp?: string
}

const HygieneFlags = Schema.Struct({
  industry_missing: Schema.Boolean,
  industry_contradictory: Schema.Boolean,
  icp_missing: Schema.Boolean,
  icp_contradictory: Schema.Boolean,
  lead_source_missing: Schema.Boolean,
  lead_source_contradictory: Schema.Boolean,
  deal_value_missing: Schema.Boolean,
  currency_contradictory: Schema.Boolean,
  outcome_closed_before_call: Schema.Boolean,
  outcome_open_with_close_date: Schema.Boolean,
  score_missing: Schema.Boolean,
  closer_missing: Schema.Boolean
})
export type HygieneFlags = typeof HygieneFlags.Type
export const HYGIENE_FLAGS = Object.keys(HygieneFlags.fields) as ReadonlyArray<keyof HygieneFlags>
/** The hygiene counts after their keys, in the order of `market_intel_hygiene_cells`' columns (migration 0036). */
export const HYGIENE_CELL_MEASURES = ["checked", "with_issue", "marked", "excluded", ...HYGIENE_FLAGS] as const

export const HygieneCall = Schema.Struct({
  ...HygieneFlags.fields,
  call_id: Schema.String,
  client_id: Schema.String,
  company_name: Schema.String,
  created_at: IsoTimestamp,
  industry: Schema.String,
  icp: Schema.String,
  lead_source: Schema.String,
  claimed_icp: Schema.NullOr(Schema.String),
  claimed_lead_source: Schema.NullOr(Schema.String),
  profile_industry: Schema.NullOr(Schema.String),
  signup_industry: Schema.NullOr(Schema.String),
  outcome_currency: Schema.NullOr(Schema.String),
  profile_currency: Schema.NullOr(Schema.String),
  marks: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  excluded: Schema.Boolean,
  hygiene_updated_at: NullableIsoTimestamp
})
export type HygieneCall = typeof HygieneCall.Type

const HygieneTotals = Schema.Struct({
  period_start: Schema.NullOr(Schema.String),
  checked: Schema.Number,
  with_issue: Schema.Number,
  tenants: Schema.Number,
  marked: Schema.Number,
  excluded: Schema.Number,
  ...Object.fromEntries(Object.keys(HygieneFlags.fields).map((k) => [k, Schema.Number])) as {
    readonly [K in keyof typeof HygieneFlags.fields]: typeof Schema.Number
  }
})
export type HygieneTotals = typeof HygieneTotals.Type

const BacklogCall = Schema.Struct({
  call_id: Schema.String,
  client_id: Schema.String,
  company_name: Schema.String,
  industry: Schema.String,
  icp: Schema.String,
  lead_source: Schema.String,
  closer_email: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  completed_at: IsoTimestamp,
  score: Schema.NullOr(Schema.Number),
  priority: Schema.Number
})
export type BacklogCall = typeof BacklogCall.Type

const TenantFacts = Schema.Struct({
  client_id: ClientId,
  company_name: Schema.String,
  industry_label: Schema.NullOr(Schema.String),
  last_outcome_at: NullableIsoTimestamp
})

const Fresh = Schema.Struct({ period_start: Schema.String, built_at: IsoTimestamp })

const RadarFacts = Schema.Struct({
  calls_analysed: Schema.Number,
  seconds_analysed: Schema.Number,
  scored: Schema.Number,
  score_sum: Schema.Number,
  won: Schema.Number,
  lost: Schema.Number,
  outcomes_30d: Schema.Number,
  completed_30d: Schema.Number,
  failed_7d: Schema.Number
})

const RadarMonth = Schema.Struct({ month: Schema.String, used: Schema.Number, bonus: Schema.Number })

export class MarketIntelQueries extends Effect.Service<MarketIntelQueries>()("MarketIntelQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const list = sql.join(", ", false)

    const grainMeasures = list(MEASURES.map(([name, expr]) => sql.literal(`${expr} AS ${name}`)))

    /**
     * The grain of the calls made in [from, to), by periods of `type`: what the stored aggregates
     * hold, computed from the calls.
     */
    const grain = (type: PeriodType, from: string, to: string) =>
      sql`SELECT date_trunc(${type}, f.created_at AT TIME ZONE 'UTC')::date AS period_start, f.client_id, f.tenant_test,
                 f.industry, f.icp, f.lead_source, f.test_outcome, COALESCE(f.currency, '') AS currency, ${grainMeasures}
          FROM market_intel_call_facts f
          WHERE f.created_at >= ${from}::timestamptz AND f.created_at < ${to}::timestamptz AND NOT f.excluded
          GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`

    const cellColumns = list([...GRAIN_KEYS, ...MEASURES.map(([name]) => name)].map((c) => sql.literal(c)))

    /**
     * The rows of one kind of stored aggregate for a read's periods: `table`'s rows of the fresh
     * periods, and for the others the grain they were stored from (`grainOf`, the same columns),
     * each span of consecutive computed periods by its own range of instants, which the index of
     * calls by their time serves and the planner estimates well. The stored part is read whenever
     * nothing is computed, so the statement always has a part.
     */
    const storedOrComputed = (
      src: Source,
      table: string,
      columns: Statement.Fragment,
      grainOf: (type: PeriodType, from: string, to: string) => Statement.Fragment
    ) =>
      sql.join(" UNION ALL ", false)([
        ...(src.stored.length === 0 && src.computed.length > 0
          ? []
          : [sql`SELECT ${columns} FROM ${sql.literal(table)} WHERE period_type = ${src.type} AND period_start = ANY(${src.stored}::date[])`]),
        ...src.computed.map((span) => sql`SELECT ${columns} FROM (${grainOf(src.type, span.from, span.to)}) g`)
      ])

    /** The grain rows of a read's periods: stored where fresh, computed for the others. */
    const cells = (src: Source) => storedOrComputed(src, "market_intel_cells", cellColumns, grain)

    /**
     * Sums of grain rows per tenant (the first of two steps: the tenants behind each sum are then
     * counted without `count(DISTINCT …)`); `ok`: the row's outcome measures count (not a test
     * outcome, or test data included).
     */
    const perTenant = (include: boolean) => {
      const ok = sql`(${include}::boolean OR NOT c.test_outcome)`
      return sql`sum(c.calls) AS calls, sum(c.completed) AS completed, sum(c.scored) AS scored, sum(c.score_sum) AS score_sum,
                 COALESCE(sum(c.with_outcome) FILTER (WHERE ${ok}), 0) AS with_outcome,
                 COALESCE(sum(c.won) FILTER (WHERE ${ok}), 0) AS won,
                 COALESCE(sum(c.lost) FILTER (WHERE ${ok}), 0) AS lost,
                 COALESCE(sum(c.no_decision) FILTER (WHERE ${ok}), 0) AS no_decision,
                 COALESCE(sum(c.open) FILTER (WHERE ${ok}), 0) AS open,
                 COALESCE(sum(c.scored_decided) FILTER (WHERE ${ok}), 0) AS scored_decided,
                 COALESCE(sum(c.scored_won) FILTER (WHERE ${ok}), 0) AS scored_won,
                 COALESCE(sum(c.pred_sum) FILTER (WHERE ${ok}), 0) AS pred_sum,
                 COALESCE(sum(c.won_value_sum) FILTER (WHERE ${ok}), 0) AS won_value_sum,
                 COALESCE(sum(c.won_value_n) FILTER (WHERE ${ok}), 0) AS won_value_n`
    }

    /** The second step: the per-tenant sums summed, and the tenants with something in each counted. */
    const summed = sql.literal(`count(*) FILTER (WHERE t.calls > 0)::int AS tenants,
                 COALESCE(sum(t.calls), 0)::int AS calls,
                 COALESCE(sum(t.completed), 0)::int AS completed,
                 count(*) FILTER (WHERE t.completed > 0)::int AS completed_tenants,
                 COALESCE(sum(t.scored), 0)::int AS scored,
                 COALESCE(sum(t.score_sum), 0)::float8 AS score_sum,
                 count(*) FILTER (WHERE t.scored > 0)::int AS scored_tenants,
                 COALESCE(sum(t.with_outcome), 0)::int AS with_outcome,
                 COALESCE(sum(t.won), 0)::int AS won,
                 COALESCE(sum(t.lost), 0)::int AS lost,
                 COALESCE(sum(t.no_decision), 0)::int AS no_decision,
                 COALESCE(sum(t.open), 0)::int AS open,
                 count(*) FILTER (WHERE t.won + t.lost > 0)::int AS decided_tenants,
                 COALESCE(sum(t.scored_decided), 0)::int AS scored_decided,
                 COALESCE(sum(t.scored_won), 0)::int AS scored_won,
                 COALESCE(sum(t.pred_sum), 0)::float8 AS pred_sum,
                 count(*) FILTER (WHERE t.scored_decided > 0)::int AS scored_decided_tenants,
                 COALESCE(sum(t.won_value_sum), 0)::float8 AS won_value_sum,
                 COALESCE(sum(t.won_value_n), 0)::int AS won_value_n,
                 count(*) FILTER (WHERE t.won_value_n > 0)::int AS won_value_tenants`)

    const keyColumn = (key: Key) =>
      key === "period_start" ? sql.literal("to_char(t.period_start, 'YYYY-MM-DD') AS period_start") : sql.literal(`t.${key}`)

    const filterOf = (filter: Filter, include: boolean) => {
      const clauses = [sql`(${include}::boolean OR NOT c.tenant_test)`]
      if (filter.industry !== undefined) clauses.push(sql`c.industry = ${filter.industry}`)
      if (filter.icp !== undefined) clauses.push(sql`c.icp = ${filter.icp}`)
      return sql.and(clauses)
    }

    const KEYS: ReadonlyArray<Key> = ["period_start", "client_id", "industry", "icp", "lead_source", "currency"]

    /**
     * The grain of `src` summed by each set of keys (one row for the empty set), test data per
     * `include`, rows per `filter`: one pass over the rows (`GROUPING SETS`), answered set by set.
     * A row's set is the keys it has: no key of the grain is ever null. Two steps: per tenant within
     * each set, then across tenants, counting those with something in each sum.
     */
    const aggregateMany = (src: Source, include: boolean, sets: ReadonlyArray<ReadonlyArray<Key>>, filter: Filter = {}) =>
      Effect.gen(function* () {
        const used = KEYS.filter((k) => k !== "client_id" && sets.some((set) => set.includes(k)))
        // Step 1, per tenant within each set. A set keyed by the tenant also groups by its test
        // flag (one value per tenant): a row of such a set is the one with the flag, so that the
        // set stays apart from the same set without the tenant.
        const tenantSets = sets.map((set) =>
          sql.literal(`(${["client_id", ...(set.includes("client_id") ? ["tenant_test"] : []), ...set.filter((k) => k !== "client_id")]
            .map((k) => `c.${k}`).join(", ")})`)
        )
        const flag = sets.some((set) => set.includes("client_id")) ? "c.tenant_test" : "NULL::boolean AS tenant_test"
        const inner = sql`SELECT ${list(["c.client_id", flag, ...used.map((k) => `c.${k}`)].map((c) => sql.literal(c)))}, ${perTenant(include)}
                          FROM (${cells(src)}) c WHERE ${filterOf(filter, include)}
                          GROUP BY GROUPING SETS (${list(tenantSets)})`
        // Step 2, across the tenants of each set.
        const tenantKey = sql.literal("CASE WHEN t.tenant_test IS NULL THEN NULL ELSE t.client_id END")
        const rows = yield* Rows.findAll({
          Request: Schema.Void,
          Result: Keyed,
          execute: () =>
            sql`SELECT ${tenantKey} AS client_id, ${list([...used.map(keyColumn), summed])}
                FROM (${inner}) t
                GROUP BY ${list([tenantKey, ...used.map((k) => sql.literal(`t.${k}`))])}`
        })(undefined)
        return sets.map((set) =>
          rows.filter((row) => KEYS.every((k) => (row[k] !== undefined && row[k] !== null) === set.includes(k)))
        )
      })

    /** The grain of `src` summed by `keys` (one row without keys). */
    const aggregate = (src: Source, include: boolean, keys: ReadonlyArray<Key>, filter: Filter = {}) =>
      Effect.map(aggregateMany(src, include, [keys], filter), (sets) => sets[0]!)

    /**
     * Per tenant and segment (industry, ICP, lead source): decided outcomes that count, and completed
     * calls waiting for one (the backlog's inputs, lean: no tenant counts).
     */
    const backlogSegments = (src: Source, include: boolean) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: Schema.Struct({
          client_id: Schema.String,
          industry: Schema.String,
          icp: Schema.String,
          lead_source: Schema.String,
          won: Schema.Number,
          lost: Schema.Number,
          waiting: Schema.Number
        }),
        execute: () =>
          sql`SELECT c.client_id, c.industry, c.icp, c.lead_source,
                     COALESCE(sum(c.won) FILTER (WHERE ${include}::boolean OR NOT c.test_outcome), 0)::int AS won,
                     COALESCE(sum(c.lost) FILTER (WHERE ${include}::boolean OR NOT c.test_outcome), 0)::int AS lost,
                     (sum(c.completed) - COALESCE(sum(c.with_outcome) FILTER (WHERE ${include}::boolean OR NOT c.test_outcome), 0))::int AS waiting
              FROM (${cells(src)}) c WHERE ${include}::boolean OR NOT c.tenant_test
              GROUP BY 1, 2, 3, 4`
      })(undefined)

    /** The reliability buckets of `src`: decided, scored calls by predicted win probability. */
    const buckets = (src: Source, include: boolean) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: Bucket,
        execute: () =>
          sql`SELECT g.i AS bucket, COALESCE(sum(b.n), 0)::int AS n, COALESCE(sum(b.won), 0)::int AS won,
                     COALESCE(sum(b.pred), 0)::float8 AS pred, count(*) FILTER (WHERE b.n > 0)::int AS tenants
              FROM (SELECT c.client_id,
                           sum(c.b0_n) AS b0_n, sum(c.b1_n) AS b1_n, sum(c.b2_n) AS b2_n, sum(c.b3_n) AS b3_n, sum(c.b4_n) AS b4_n,
                           sum(c.b0_won) AS b0_won, sum(c.b1_won) AS b1_won, sum(c.b2_won) AS b2_won, sum(c.b3_won) AS b3_won,
                           sum(c.b4_won) AS b4_won, sum(c.b0_pred) AS b0_pred, sum(c.b1_pred) AS b1_pred, sum(c.b2_pred) AS b2_pred,
                           sum(c.b3_pred) AS b3_pred, sum(c.b4_pred) AS b4_pred
                    FROM (${cells(src)}) c
                    WHERE (${include}::boolean OR NOT c.tenant_test) AND (${include}::boolean OR NOT c.test_outcome)
                    GROUP BY c.client_id) t
              CROSS JOIN LATERAL (VALUES (0, t.b0_n, t.b0_won, t.b0_pred), (1, t.b1_n, t.b1_won, t.b1_pred), (2, t.b2_n, t.b2_won, t.b2_pred),
                                         (3, t.b3_n, t.b3_won, t.b3_pred), (4, t.b4_n, t.b4_won, t.b4_pred)) AS b(i, n, won, pred)
              RIGHT JOIN generate_series(0, 4) AS g(i) ON g.i = b.i
              GROUP BY g.i ORDER BY g.i`
      })(undefined)

    /** The periods of `starts` whose stored aggregates are fresh: built, and no change since that their build did not see. */
    const fresh = (type: PeriodType, starts: ReadonlyArray<string>) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: Fresh,
        execute: () =>
          sql`SELECT to_char(b.period_start, 'YYYY-MM-DD') AS period_start, b.built_at
              FROM market_intel_builds b
              WHERE b.period_type = ${type} AND b.period_start = ANY(${starts}::date[]) AND b.snapshot IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM market_intel_changes ch
                                WHERE ch.period_type = b.period_type AND ch.period_start = b.period_start
                                  AND NOT pg_visible_in_snapshot(ch.txid, b.snapshot))`
      })(undefined)

    /** Tenants with calls in the cells of `src` (one period), with and without a saved market profile; industries with calls. */
    const overviewCounts = (src: Source) =>
      Rows.single({
        Request: Schema.Void,
        Result: Schema.Struct({ industries: Schema.Number, with_profile: Schema.Number, without_profile: Schema.Number }),
        execute: () =>
          sql`SELECT count(DISTINCT c.industry)::int AS industries,
                     count(DISTINCT c.client_id) FILTER (WHERE m.client_id IS NOT NULL)::int AS with_profile,
                     count(DISTINCT c.client_id) FILTER (WHERE m.client_id IS NULL)::int AS without_profile
              FROM (SELECT c.client_id, c.industry FROM (${cells(src)}) c
                    WHERE NOT c.tenant_test AND c.calls > 0
                    GROUP BY c.client_id, c.industry) c
              LEFT JOIN market_profiles m ON m.client_id = c.client_id`
      })(undefined)

    /** Whether a tenant's profile lists the ICP within the industry (labels as market intelligence files them). */
    const profileListsIcp = (industry: string, icp: string) =>
      Rows.single({
        Request: Schema.Void,
        Result: Schema.Struct({ listed: Schema.Boolean }),
        execute: () =>
          sql`SELECT EXISTS (
                SELECT 1 FROM market_profiles m JOIN tenants t ON t.client_id = m.client_id,
                       jsonb_array_elements(CASE WHEN jsonb_typeof(m.profile -> 'icps') = 'array' THEN m.profile -> 'icps' ELSE '[]'::jsonb END) i
                WHERE COALESCE(mi_label(m.profile ->> 'industry'), mi_label(t.industry), 'unknown') = ${industry}
                  AND mi_label(i ->> 'label') = ${icp}) AS listed`
      })(undefined).pipe(Effect.map((r) => r.listed))

    /** The channel each lead-source label has most often in the tenants' lead-context profiles. */
    const leadChannels = (include: boolean) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: Schema.Struct({ label: Schema.String, channel: Schema.NullOr(Schema.String) }),
        execute: () =>
          sql`SELECT mi_label(x ->> 'label') AS label, mode() WITHIN GROUP (ORDER BY x ->> 'channel') AS channel
              FROM lead_context_profiles l JOIN tenants t ON t.client_id = l.client_id,
                   jsonb_array_elements(CASE WHEN jsonb_typeof(l.profile -> 'lead_sources') = 'array' THEN l.profile -> 'lead_sources' ELSE '[]'::jsonb END) x
              WHERE (${include}::boolean OR NOT t.is_test) AND mi_label(x ->> 'label') IS NOT NULL
              GROUP BY 1`
      })(undefined)

    /** Names, industry labels and the latest outcome of tenants. */
    const tenantFacts = (ids: ReadonlyArray<string>, include: boolean) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: TenantFacts,
        execute: () =>
          sql`SELECT t.client_id, t.company_name,
                     COALESCE(mi_label(m.profile ->> 'industry'), mi_label(t.industry)) AS industry_label,
                     (SELECT max(o.updated_at) FROM outcome_truth o
                      WHERE o.client_id = t.client_id AND (${include}::boolean OR NOT o.is_test_data)) AS last_outcome_at
              FROM tenants t LEFT JOIN market_profiles m ON m.client_id = t.client_id
              WHERE t.client_id = ANY(${ids}::text[])`
      })(undefined)

    /**
     * The backlog's calls of the chosen segments: completed in the window, without an outcome that
     * counts, oldest first within a priority.
     */
    const backlogCalls = (
      window: { from: string; to: string },
      include: boolean,
      segments: ReadonlyArray<{ readonly client_id: string; readonly industry: string; readonly icp: string; readonly lead_source: string; readonly priority: number }>,
      limit: number
    ) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: BacklogCall,
        execute: () =>
          sql`SELECT f.call_id, f.client_id, t.company_name, f.industry, f.icp, f.lead_source, f.closer_email, f.created_at,
                     f.completed_at, f.score, s.priority
              FROM jsonb_to_recordset(${JSON.stringify(segments)}::jsonb) AS s(client_id text, industry text, icp text, lead_source text, priority float8)
              JOIN market_intel_call_facts f ON f.client_id = s.client_id AND f.industry = s.industry AND f.icp = s.icp
                                             AND f.lead_source = s.lead_source
              JOIN tenants t ON t.client_id = f.client_id
              WHERE f.client_id = ANY(${[...new Set(segments.map((s) => s.client_id))]}::text[])
                AND f.created_at >= ${window.from}::timestamptz AND f.created_at < ${window.to}::timestamptz
                AND f.status = 'completed' AND NOT f.excluded AND (${include}::boolean OR NOT f.tenant_test)
                AND (f.outcome IS NULL OR (f.test_outcome AND NOT ${include}::boolean))
              ORDER BY s.priority DESC, f.completed_at, f.call_id
              LIMIT ${limit}`
      })(undefined)

    /**
     * The calls of the window with their hygiene flags (completed calls of tenants that are not test
     * tenants): the one definition of the flags, which the list reads call by call and the counts
     * (`hygieneGrain`, stored or computed) per period and tenant.
     */
    const hygieneCalls = (window: { from: string; to: string }) =>
      sql`SELECT f.call_id, f.client_id, f.company_name, f.created_at, f.industry, f.icp, f.lead_source,
                 f.created_at AT TIME ZONE 'UTC' AS at_utc,
                 f.claimed_icp, f.claimed_lead_source, f.profile_industry, f.signup_industry, f.outcome_currency, f.profile_currency,
                 f.marks, f.excluded, f.hygiene_updated_at,
                 f.industry = 'unknown' AS industry_missing,
                 COALESCE(f.marks ->> 'industry' IS NULL AND f.profile_industry <> f.signup_industry, false) AS industry_contradictory,
                 f.icp = 'unassigned' AS icp_missing,
                 COALESCE(mi_label(f.marks ->> 'icp_label') IS NULL AND cardinality(f.icp_labels) > 0
                   AND f.claimed_icp <> ALL(f.icp_labels), false) AS icp_contradictory,
                 f.lead_source = 'unknown' AS lead_source_missing,
                 COALESCE(mi_label(f.marks ->> 'lead_source') IS NULL AND cardinality(f.lead_labels) > 0
                   AND f.claimed_lead_source <> ALL(f.lead_labels), false) AS lead_source_contradictory,
                 COALESCE(f.outcome = 'won' AND f.deal_value IS NULL, false) AS deal_value_missing,
                 COALESCE(f.outcome_currency <> f.profile_currency, false) AS currency_contradictory,
                 COALESCE(f.outcome IN ('won', 'lost') AND f.closed_at < f.created_at, false) AS outcome_closed_before_call,
                 COALESCE(f.outcome = 'open' AND f.closed_at IS NOT NULL, false) AS outcome_open_with_close_date,
                 f.score IS NULL AS score_missing,
                 COALESCE(btrim(f.closer_email) = '', true) AS closer_missing
          FROM market_intel_call_facts f
          WHERE f.created_at >= ${window.from}::timestamptz AND f.created_at < ${window.to}::timestamptz
            AND f.status = 'completed' AND NOT f.tenant_test`

    const anyFlag = sql.literal(`(${HYGIENE_FLAGS.join(" OR ")})`)
    const flagCounts = list(HYGIENE_FLAGS.map((f) => sql.literal(`count(*) FILTER (WHERE h.${f})::int AS ${f}`)))

    /**
     * The hygiene counts of the calls made in [from, to), by periods of `type` and tenant, in the
     * order of `market_intel_hygiene_cells`' columns after `period_type`: what the rebuild stores
     * (MarketIntelRepo.writeHygieneCells), computed from `hygieneCalls`.
     */
    const hygieneGrain = (type: PeriodType, from: string, to: string) =>
      sql`SELECT date_trunc(${type}, h.at_utc)::date AS period_start, h.client_id,
                 count(*)::int AS checked, count(*) FILTER (WHERE ${anyFlag})::int AS with_issue,
                 count(h.marks)::int AS marked, count(*) FILTER (WHERE h.excluded)::int AS excluded, ${flagCounts}
          FROM (${hygieneCalls({ from, to })}) h
          GROUP BY 1, 2`

    const hygieneCellColumns = list(["period_start", "client_id", ...HYGIENE_CELL_MEASURES].map((c) => sql.literal(c)))

    /** The hygiene counts of a read's periods: stored where fresh, computed for the others (as `cells`). */
    const hygieneCells = (src: Source) => storedOrComputed(src, "market_intel_hygiene_cells", hygieneCellColumns, hygieneGrain)

    const hygieneSums = list(HYGIENE_CELL_MEASURES.map((m) => sql.literal(`COALESCE(sum(c.${m}), 0)::int AS ${m}`)))

    /**
     * Hygiene counts of the periods of `src` (the row without `period_start`: all of them) and of
     * each: the per-tenant counts summed, the tenants with a call checked counted (a cell holds at
     * least one), so that stored and computed periods give the same figures.
     */
    const hygieneTotals = (src: Source) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: HygieneTotals,
        execute: () =>
          sql`SELECT to_char(c.period_start, 'YYYY-MM-DD') AS period_start, count(DISTINCT c.client_id)::int AS tenants, ${hygieneSums}
              FROM (${hygieneCells(src)}) c
              GROUP BY GROUPING SETS ((), (c.period_start))`
      })(undefined)

    /** Calls with an issue or marks, newest first. */
    const hygieneList = (window: { from: string; to: string }, limit: number) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: HygieneCall,
        execute: () =>
          sql`SELECT * FROM (${hygieneCalls(window)}) h WHERE ${anyFlag} OR h.marks IS NOT NULL
              ORDER BY h.created_at DESC, h.call_id LIMIT ${limit}`
      })(undefined)

    /** A tenant's value figures over 90 days and the facts of its signals. */
    const radarFacts = (clientId: ClientId) =>
      Rows.single({
        Request: Schema.Void,
        Result: RadarFacts,
        execute: () =>
          sql`SELECT count(*) FILTER (WHERE c.status = 'completed' AND c.completed_at > now() - interval '90 days')::int AS calls_analysed,
                     COALESCE(sum(c.duration_s) FILTER (WHERE c.status = 'completed' AND c.completed_at > now() - interval '90 days'), 0)::float8
                       AS seconds_analysed,
                     count(c.overall_score)
                       FILTER (WHERE c.status = 'completed' AND c.completed_at > now() - interval '90 days')::int AS scored,
                     COALESCE(sum(c.overall_score)
                       FILTER (WHERE c.status = 'completed' AND c.completed_at > now() - interval '90 days'), 0)::float8 AS score_sum,
                     count(*) FILTER (WHERE o.outcome = 'won' AND NOT o.is_test_data AND c.completed_at > now() - interval '90 days')::int AS won,
                     count(*) FILTER (WHERE o.outcome = 'lost' AND NOT o.is_test_data AND c.completed_at > now() - interval '90 days')::int AS lost,
                     (SELECT count(*)::int FROM outcome_truth o2 WHERE o2.client_id = ${clientId} AND NOT o2.is_test_data
                        AND o2.updated_at > now() - interval '30 days') AS outcomes_30d,
                     count(*) FILTER (WHERE c.status = 'completed' AND c.completed_at > now() - interval '30 days')::int AS completed_30d,
                     count(*) FILTER (WHERE c.status = 'failed' AND c.completed_at > now() - interval '7 days')::int AS failed_7d
              FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
              -- every figure is of the last 90 days at most: the older calls are not read
              WHERE c.client_id = ${clientId} AND c.completed_at > now() - interval '90 days'`
      })(undefined)

    /** The tenant's ingests used (completed calls made in the month) and bonuses, for `months` months ending with this one. */
    const radarMonths = (clientId: ClientId, months: number) =>
      Rows.findAll({
        Request: Schema.Void,
        Result: RadarMonth,
        execute: () =>
          // one pass over the months' calls (an index-only scan of calls_client_status_created_cover_idx), not one count a month
          sql`SELECT to_char(m.start, 'YYYY-MM') AS month, COALESCE(u.used, 0)::int AS used,
                     (SELECT COALESCE(sum(b.extra_ingests), 0)::int FROM usage_bonuses b
                        WHERE b.client_id = ${clientId} AND b.month = to_char(m.start, 'YYYY-MM')) AS bonus
              FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => ${months - 1}),
                                   date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m(start)
              LEFT JOIN (SELECT date_trunc('month', c.created_at AT TIME ZONE 'UTC') AS start, count(*) AS used
                         FROM calls c
                         WHERE c.client_id = ${clientId} AND c.status = 'completed'
                           AND c.created_at >= (date_trunc('month', now() AT TIME ZONE 'UTC') - make_interval(months => ${months - 1})) AT TIME ZONE 'UTC'
                           AND c.created_at < (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
                         GROUP BY 1) u ON u.start = m.start
              ORDER BY m.start`
      })(undefined)

    return {
      grain,
      aggregate,
      aggregateMany,
      buckets,
      backlogSegments,
      fresh,
      overviewCounts,
      profileListsIcp,
      leadChannels,
      tenantFacts,
      backlogCalls,
      hygieneGrain,
      hygieneTotals,
      hygieneList,
      radarFacts,
      radarMonths
    } as const
  })
}) {}

