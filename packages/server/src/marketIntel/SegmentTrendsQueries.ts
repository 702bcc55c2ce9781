/**
 * What the per-segment trends read (SegmentTrends.ts; issue 38, item 3): over the tenants market
 * intelligence counts (no test tenant, no call a staff hygiene mark excludes), the completed calls
 * that took place in the periods, filed by segment as `market_intel_call_facts` files them
 * (migrations 0011, 0028), aggregated in SQL per period, segment and tenant (issue 39: at 100,000
 * calls the 8 weeks are ~15,000 calls, read before as one row each).
 *
 * One statement, one row per period (`p`, the periods' index), industry and ICP (a cell):
 * - the calls row (`term` null): the calls and the tenants they come from, and per objection kind
 *   (the order of `OBJECTION_KINDS`, `calls.trend_facts` from `TREND_FACT.price` to `competitor`)
 *   the objections, the calls with one and the tenants with one;
 * - a row per competitor term (the Competitors trackers' stored mentions, in lower case: tenants
 *   spell it their way): the mentions, the calls with one and their tenants.
 * Summed per tenant first, then per cell (a tenant's calls are disjoint from another's: calls add
 * up), the tenants counted by their rows; the service applies the suppression rules to the cells
 * (at 200 tenants the rows per tenant were 3,200 to decode for ~150 cells). A call's period is
 * `width_bucket` of its time over the periods' starts (contiguous periods: the last one ends the
 * window).
 *
 * The window is on the view's own `occurred_at` (0028), with the tenants' ids (`client_id =
 * ANY(...)`, from `tenants`): both reach the calls' scan inside the view, an index-only scan of
 * `calls_trends_idx` per tenant, where the view would otherwise label every call of every tenant.
 * By industry the rows carry no ICP (''), so the view's join to the outcomes, which only the ICP
 * reads, is left out.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { OBJECTION_KINDS } from "../views/Trends.js"
import { competitorMentions, TREND_FACT } from "../views/TrendsQueries.js"

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

export class SegmentTrendsQueries extends Effect.Service<SegmentTrendsQueries>()("SegmentTrendsQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    // per tenant, each kind's objections and calls with one (a count of a call counts when above 0,
    // as the service did per call); per cell, their sums and the tenants with one
    const tenantKinds = sql.literal(
      KIND_FACTS.map((i) => `COALESCE(sum(k${i}) FILTER (WHERE k${i} > 0), 0) AS o${i}, count(*) FILTER (WHERE k${i} > 0) AS c${i}`).join(", ")
    )
    const noKinds = sql.literal(KIND_FACTS.map((i) => `0 AS o${i}, 0 AS c${i}`).join(", "))
    const cellKinds = sql.literal(
      `ARRAY[${KIND_FACTS.map((i) => `sum(o${i}), sum(c${i}), count(*) FILTER (WHERE c${i} > 0)`).join(", ")}]::float8[]`
    )
    const kindColumns = sql.literal(KIND_FACTS.map((i) => `COALESCE(f.trend_facts[${i}], 0) AS k${i}`).join(", "))

    const tenants = Rows.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ client_id: Schema.String }),
      execute: () => sql`SELECT client_id FROM tenants WHERE NOT is_test ORDER BY client_id`
    })

    const rows = Rows.findAll({
      Request: Schema.Struct({
        starts: Schema.Array(Schema.String),
        to: Schema.String,
        tenants: Schema.Array(Schema.String),
        segmentBy: Schema.Literal("industry", "icp")
      }),
      Result: SegmentTrendRow,
      execute: (r) =>
        // by industry, no ICP (''): the view's join to the outcomes (which only the ICP reads) is then left out
        sql`WITH b AS (SELECT ${r.starts}::timestamptz[] AS f),
            calls_in AS MATERIALIZED (
              SELECT f.call_id, f.client_id, f.industry, ${r.segmentBy === "icp" ? sql`f.icp` : sql`''::text`} AS icp,
                     width_bucket(f.occurred_at, b.f) - 1 AS p, ${kindColumns}
              FROM b, market_intel_call_facts f
              WHERE f.client_id = ANY(${r.tenants}::text[]) AND f.status = 'completed' AND NOT f.tenant_test AND NOT f.excluded
                AND f.occurred_at >= ${r.starts[0]!}::timestamptz AND f.occurred_at < ${r.to}::timestamptz),
            per_tenant AS (
              SELECT p, industry, icp, client_id, NULL::text AS term, count(*) AS calls, 0 AS mentions, ${tenantKinds}
              FROM calls_in GROUP BY p, industry, icp, client_id
              UNION ALL
              SELECT f.p, f.industry, f.icp, f.client_id, lower(m.term), count(DISTINCT m.call_id), count(*), ${noKinds}
              FROM ${competitorMentions(sql, sql`t.client_id = ANY(${r.tenants}::text[])`)}
              JOIN calls_in f ON f.call_id = m.call_id AND f.client_id = m.client_id
              GROUP BY f.p, f.industry, f.icp, f.client_id, lower(m.term))
            SELECT p, industry, icp, term, sum(calls)::int AS calls, sum(mentions)::int AS mentions, count(*)::int AS tenants, ${cellKinds} AS kinds
            FROM per_tenant GROUP BY p, industry, icp, term`
    })

    /**
     * The rows of the periods starting at `starts` (instants, oldest first; contiguous), the last
     * ending at `to`; by industry, each row's `icp` is ''.
     */
    const segmentRows = (starts: ReadonlyArray<string>, to: string, segmentBy: "industry" | "icp") =>
      Effect.gen(function* () {
        const ids = (yield* tenants(undefined)).map((t) => t.client_id)
        return ids.length === 0 ? [] : yield* rows({ starts, to, tenants: ids, segmentBy })
      }).pipe(Effect.orDie)

    return { segmentRows } as const
  })
}) {}
