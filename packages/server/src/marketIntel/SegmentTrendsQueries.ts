/**
 * What the per-segment trends read (SegmentTrends.ts; issue 38, item 3): over the tenants market
 * intelligence counts (no test tenant, no call a staff hygiene mark excludes), the completed calls
 * that took place in the periods, filed by segment as `market_intel_call_facts` files them
 * (migrations 0011, 0028), aggregated in SQL per period, segment and tenant (issue 39: at 100,000
 * calls the 8 weeks are ~15,000 calls, read before as one row each).
 *
 * The grain, one row per period, tenant, industry, ICP and term (`grain`):
 * - the calls row (`term` null): the calls, and per objection kind (the order of `OBJECTION_KINDS`,
 *   `calls.trend_facts` from `TREND_FACT.price` to `competitor`) the objections and the calls with
 *   one;
 * - a row per competitor term (the Competitors trackers' stored mentions, in lower case: tenants
 *   spell it their way): the calls with one and the mentions.
 * The market-intelligence rebuild stores it per period (`market_intel_trend_cells`, migration 0034)
 * beside the other aggregates, and a read takes the periods whose stored aggregates are fresh from
 * there (`MarketIntelQueries.fresh`: built, and no change since that the build did not see; the
 * changes of a call are logged at the periods of its `occurred_at` too) and computes the others
 * from the calls, as the other market-intelligence reads do (at 200 tenants and 100,000 calls, 8
 * weeks computed took ~60 ms of the statement, 2/3 of it the calls' scan and the mentions' join).
 *
 * One statement (`rows`), one row per period (`p`, the periods' index), industry and ICP (a cell):
 * the grain summed per tenant (by industry, over its ICPs), then per cell, the tenants counted by
 * their rows (a tenant's calls are disjoint from another's: calls add up); the service applies the
 * suppression rules to the cells. A computed call's period is `width_bucket` of its time over the
 * periods' starts (contiguous periods: the last one ends the window).
 *
 * The window is on the view's own `occurred_at` (0028), with the tenants' ids (`client_id =
 * ANY(...)`, from `tenants`): both reach the calls' scan inside the view, an index-only scan of
 * `calls_trends_idx` per tenant, where the view would otherwise label every call of every tenant.
 * By industry the computed rows carry no ICP (''), so the view's join to the outcomes, which only
 * the ICP reads, is left out.
 */
import type { PeriodType } from "@callsight/api-spec"
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { OBJECTION_KINDS } from "../views/Trends.js"
import { competitorMentions, TREND_FACT } from "../views/TrendsQueries.js"
import { MarketIntelQueries } from "./MarketIntelQueries.js"
import { instantOf } from "./Periods.js"

/** A period and segment: its calls (`term` null) or one competitor's mentions, with the tenants they come from. */
export const SegmentTrendRow = Schema.Struct({
  p: Schema.Number,
  industry: Schema.String,
  icp: Schema.String,
  term: Schema.NullOr(Schema.String),
  /** The calls (of the term: those that mention it). */
  calls: Schema.Number,
  /** The term's mentions; 0 on the calls row. */
  mentions: Schema.Number,
  /** The tenants with a call (of the term: with a mention). */
  tenants: Schema.Number,
  /** Per objection kind `[objections, calls with one, tenants with one]`, flattened; zeros on a term's row. */
  kinds: Schema.Array(Schema.Number)
})
export type SegmentTrendRow = typeof SegmentTrendRow.Type

/** The objection kinds' positions in `calls.trend_facts`, in the order of `OBJECTION_KINDS`. */
const KIND_FACTS = OBJECTION_KINDS.map((kind) => TREND_FACT[kind])

/** The grain's measures after its keys, in the order of `market_intel_trend_cells`' columns (migration 0034). */
export const TREND_CELL_MEASURES = ["calls", "mentions", ...KIND_FACTS.flatMap((i) => [`o${i}`, `c${i}`])] as const

export class SegmentTrendsQueries extends Effect.Service<SegmentTrendsQueries>()("SegmentTrendsQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const queries = yield* MarketIntelQueries

    // per tenant, each kind's objections and calls with one (a count of a call counts when above 0,
    // as the service did per call); per cell, their sums and the tenants with one
    const tenantKinds = sql.literal(
      KIND_FACTS.map((i) => `COALESCE(sum(k${i}) FILTER (WHERE k${i} > 0), 0) AS o${i}, count(*) FILTER (WHERE k${i} > 0) AS c${i}`).join(", ")
    )
    const noKinds = sql.literal(KIND_FACTS.map((i) => `0 AS o${i}, 0 AS c${i}`).join(", "))
    const sumKinds = sql.literal(KIND_FACTS.map((i) => `sum(o${i}) AS o${i}, sum(c${i}) AS c${i}`).join(", "))
    const cellKinds = sql.literal(
      `ARRAY[${KIND_FACTS.map((i) => `sum(o${i}), sum(c${i}), count(*) FILTER (WHERE c${i} > 0)`).join(", ")}]::float8[]`
    )
    const kindColumns = sql.literal(KIND_FACTS.map((i) => `COALESCE(f.trend_facts[${i}], 0) AS k${i}`).join(", "))
    const measures = sql.literal(TREND_CELL_MEASURES.join(", "))

    const tenants = Rows.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ client_id: Schema.String }),
      execute: () => sql`SELECT client_id FROM tenants WHERE NOT is_test ORDER BY client_id`
    })

    /**
     * The grain of the calls that took place in [from, to) (`period`: a call's period, an
     * expression over the view's row `f`; `icp`: the ICP, or '' for none), of the tenants `tenants`
     * (a condition on `client_id`), leaving out the periods `skip` says (a condition on `period`'s
     * value, `p`): `period, industry, icp, client_id, term,` then `TREND_CELL_MEASURES`.
     */
    const grain = (r: {
      readonly period: Statement.Fragment
      readonly icp: Statement.Fragment
      readonly from: string
      readonly to: string
      readonly tenants: (column: string) => Statement.Fragment
      readonly skip: Statement.Fragment
    }) =>
      sql`WITH kept AS MATERIALIZED (
              SELECT * FROM (
                SELECT f.call_id, f.client_id, f.industry, ${r.icp} AS icp, ${r.period} AS p, ${kindColumns}
                FROM market_intel_call_facts f
                WHERE ${r.tenants("f.client_id")} AND f.status = 'completed' AND NOT f.tenant_test AND NOT f.excluded
                  AND f.occurred_at >= ${r.from}::timestamptz AND f.occurred_at < ${r.to}::timestamptz) calls_in
              WHERE NOT (${r.skip}))
          SELECT p, industry, icp, client_id, NULL::text AS term, count(*) AS calls, 0 AS mentions, ${tenantKinds}
          FROM kept GROUP BY p, industry, icp, client_id
          UNION ALL
          SELECT f.p, f.industry, f.icp, f.client_id, lower(m.term), count(DISTINCT m.call_id), count(*), ${noKinds}
          FROM ${competitorMentions(sql, r.tenants("t.client_id"))}
          JOIN kept f ON f.call_id = m.call_id AND f.client_id = m.client_id
          GROUP BY f.p, f.industry, f.icp, f.client_id, lower(m.term)`

    /**
     * The grain of the calls that took place in [from, to), by periods of `type`, of every tenant
     * market intelligence counts: what the rebuild stores (MarketIntelRepo.writeTrendCells).
     */
    const periodGrain = (type: PeriodType, from: string, to: string) =>
      grain({
        period: sql`date_trunc(${type}, f.occurred_at AT TIME ZONE 'UTC')::date`,
        icp: sql`f.icp`,
        from,
        to,
        tenants: () => sql`true`,
        skip: sql`false`
      })

    const rows = Rows.findAll({
      Request: Schema.Struct({
        type: Schema.String,
        starts: Schema.Array(Schema.String),
        stored: Schema.Array(Schema.String),
        to: Schema.String,
        tenants: Schema.Array(Schema.String),
        segmentBy: Schema.Literal("industry", "icp")
      }),
      Result: SegmentTrendRow,
      execute: (r) => {
        const icp = r.segmentBy === "icp" ? sql`f.icp` : sql`''::text`
        const computed = r.starts.filter((s) => !r.stored.includes(s))
        const instants = r.starts.map(instantOf)
        // the calls of the periods not stored, from the first of them (the stored ones among them left out)
        const fromCalls = computed.length === 0 ? [] : [sql`
          SELECT * FROM (${grain({
            period: sql`width_bucket(f.occurred_at, ${instants}::timestamptz[]) - 1`,
            icp,
            from: instantOf(computed[0]!),
            to: r.to,
            tenants: (column) => sql`${sql.literal(column)} = ANY(${r.tenants}::text[])`,
            skip: sql`p = ANY(${r.stored.map((s) => r.starts.indexOf(s))}::int[])`
          })}) g`]
        // the stored periods' grain, by industry without the ICP
        const fromCells = r.stored.length === 0 ? [] : [sql`
          SELECT array_position(${r.starts}::date[], c.period_start) - 1 AS p, c.industry, ${r.segmentBy === "icp" ? sql`c.icp` : sql`''::text`} AS icp,
                 c.client_id, c.term, ${measures}
          FROM market_intel_trend_cells c
          WHERE c.period_type = ${r.type} AND c.period_start = ANY(${r.stored}::date[]) AND c.client_id = ANY(${r.tenants}::text[])`]
        return sql`WITH per_tenant AS (
              SELECT p, industry, icp, client_id, term, sum(calls) AS calls, sum(mentions) AS mentions, ${sumKinds}
              FROM (${sql.join(" UNION ALL ", false)([...fromCells, ...fromCalls])}) g
              GROUP BY p, industry, icp, client_id, term)
            SELECT p, industry, icp, term, sum(calls)::int AS calls, sum(mentions)::int AS mentions, count(*)::int AS tenants, ${cellKinds} AS kinds
            FROM per_tenant GROUP BY p, industry, icp, term`
      }
    })

    /**
     * The rows of the periods of `type` starting at `starts` (days, oldest first; contiguous), the
     * last ending at `to` (an instant); by industry, each row's `icp` is ''.
     */
    const segmentRows = (type: PeriodType, starts: ReadonlyArray<string>, to: string, segmentBy: "industry" | "icp") =>
      Effect.gen(function* () {
        const ids = (yield* tenants(undefined)).map((t) => t.client_id)
        if (ids.length === 0) return []
        const stored = (yield* queries.fresh(type, starts)).map((f) => f.period_start)
        return yield* rows({ type, starts, stored, to, tenants: ids, segmentBy })
      }).pipe(Effect.orDie)

    return { segmentRows, periodGrain } as const
  }),
  dependencies: [MarketIntelQueries.Default]
}) {}
