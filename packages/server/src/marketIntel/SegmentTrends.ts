/**
 * Trends per segment across tenants (issue 38, item 3; docs/trends.md, docs/domain.md "Market
 * intelligence"): objections by kind and the market profiles' competitors mentioned, per period and
 * segment (an industry, or an ICP within its industry, as market intelligence files calls:
 * `market_intel_call_facts`), over the tenants market intelligence counts (no test tenant, no call a
 * staff hygiene mark excludes). The rows are read aggregated per period, segment and tenant
 * (SegmentTrendsQueries.ts) and added up here.
 *
 * The suppression rules are the market-intel views' (`Stats.ts`), applied the same way:
 * - a cell (a segment in a period) fed by 1 or 2 tenants shows none of its counts (`cellSuppressed`);
 * - in a cell shown, a count fed by fewer than `MIN_TENANTS` tenants is withheld whole (count and
 *   calls null, the tenants shown, `min_tenants`), like a cross-tenant rate;
 * - a competitor is named only when at least `MIN_TENANTS` tenants' calls mention it (its name could
 *   point to a customer otherwise); the others are counted in `competitors_withheld`.
 *
 * Calls count in the period they took place (`calls.occurred_at`), as in every trends view; no
 * call ids are given (they would name the tenants the rules hide).
 */
import type { MarketIntelTrends, PeriodType, SegmentTrendPeriod } from "@callsight/api-spec"
import { Effect } from "effect"
import { OBJECTION_KINDS } from "../views/Trends.js"
import { instantOf, normalise, type Period, trailing } from "./Periods.js"
import { type SegmentTrendRow, SegmentTrendsQueries } from "./SegmentTrendsQueries.js"
import { cellSuppressed, MIN_TENANTS, tenantSuppression } from "./Stats.js"

interface Params {
  readonly period_type: PeriodType
  readonly period_start?: string | undefined
  readonly periods: number
  readonly segment_by: "industry" | "icp"
}

/** A count over calls of a cell, the calls it comes from and how many tenants they are of. */
interface CellTally {
  readonly count: number
  readonly calls: number
  readonly tenants: number
}

/** A count of a shown cell, withheld when fewer than MIN_TENANTS tenants feed it. */
const countOf = (t: CellTally | undefined) => {
  const tenants = t?.tenants ?? 0
  if (t === undefined || tenants === 0) return { count: 0, calls: 0, tenants: 0, suppressed: null }
  if (tenants < MIN_TENANTS) return { count: null, calls: null, tenants, suppressed: tenantSuppression(tenants) }
  return { count: t.count, calls: t.calls, tenants, suppressed: null }
}

interface Cell {
  /** The cell's calls; null while it has none. */
  all: CellTally | null
  readonly kinds: Map<string, CellTally>
  readonly competitors: Map<string, CellTally>
}

export class SegmentTrends extends Effect.Service<SegmentTrends>()("SegmentTrends", {
  effect: Effect.gen(function* () {
    const queries = yield* SegmentTrendsQueries

    const compute = Effect.fn("SegmentTrends.compute")(function* (params: Params) {
      const now = new Date()
      const periods = trailing(normalise(params.period_type, params.period_start, now), params.periods)
      // aggregated in SQL per period and segment, with the tenants counted (SegmentTrendsQueries.ts)
      const rows = yield* queries.segmentRows(
        params.period_type,
        periods.map((p) => p.period_start),
        instantOf(periods.at(-1)!.period_end),
        params.segment_by
      )
      const segmentOf = (r: SegmentTrendRow) => (params.segment_by === "industry" ? `${r.industry}\u0000` : `${r.industry}\u0000${r.icp}`)
      const cells = new Map<string, Array<Cell>>()
      const cellOf = (r: SegmentTrendRow) => {
        const segment = segmentOf(r)
        const row = cells.get(segment) ?? periods.map((): Cell => ({ all: null, kinds: new Map(), competitors: new Map() }))
        cells.set(segment, row)
        return row[r.p]!
      }
      // the calls rows first: a segment is listed when it has a call in the periods
      for (const r of rows) {
        if (r.term !== null || r.p < 0 || r.p >= periods.length) continue
        const cell = cellOf(r)
        cell.all = { count: r.calls, calls: r.calls, tenants: r.tenants }
        OBJECTION_KINDS.forEach((kind, k) => {
          const calls = r.kinds[3 * k + 1] ?? 0
          if (calls > 0) cell.kinds.set(kind, { count: r.kinds[3 * k] ?? 0, calls, tenants: r.kinds[3 * k + 2] ?? 0 })
        })
      }
      for (const r of rows) {
        if (r.term === null || r.p < 0 || r.p >= periods.length) continue
        cellOf(r).competitors.set(r.term, { count: r.mentions, calls: r.calls, tenants: r.tenants })
      }
      const periodOut = (p: Period, cell: Cell): typeof SegmentTrendPeriod.Type => {
        const tenants = cell.all?.tenants ?? 0
        const suppressed = cellSuppressed(tenants)
        const base = { period_start: p.period_start, period_end: p.period_end, label: p.label, tenants }
        if (suppressed !== null) {
          return { ...base, calls: null, suppressed, objections: [], competitors: [], competitors_withheld: 0 }
        }
        const named = [...cell.competitors.entries()].filter(([, t]) => t.tenants >= MIN_TENANTS)
        return {
          ...base,
          calls: cell.all?.calls ?? 0,
          suppressed: null,
          objections: OBJECTION_KINDS.map((kind) => ({ kind, ...countOf(cell.kinds.get(kind)) })),
          competitors: named
            .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
            .map(([competitor, t]) => ({ competitor, ...countOf(t) })),
          competitors_withheld: cell.competitors.size - named.length
        }
      }
      return {
        period_type: params.period_type,
        segment_by: params.segment_by,
        segments: [...cells.entries()]
          .sort((a, b) => a[0].localeCompare(b[0]))
          .map(([key, row]) => {
            const [industry, icp] = key.split("\u0000") as [string, string]
            return { industry, icp: params.segment_by === "industry" ? null : icp, periods: periods.map((p, i) => periodOut(p, row[i]!)) }
          }),
        generated_at: now.toISOString()
      } satisfies typeof MarketIntelTrends.Type
    })

    return { compute } as const
  }),
  dependencies: [SegmentTrendsQueries.Default]
}) {}
