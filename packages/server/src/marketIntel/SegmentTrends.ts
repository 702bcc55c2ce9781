/**
 * Trends per segment across tenants (issue 38, item 3; docs/trends.md, docs/domain.md "Market
 * intelligence"): objections by kind and the market profiles' competitors mentioned, per period and
 * segment (an industry, or an ICP within its industry, as market intelligence files calls:
 * `market_intel_call_facts`), over the tenants market intelligence counts (no test tenant, no call a
 * staff hygiene mark excludes). The rows are read by the trends view's queries (views/TrendsQueries.ts).
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
import { type SegmentCallRow, TrendsQueries } from "../views/TrendsQueries.js"
import { instantOf, normalise, type Period, trailing } from "./Periods.js"
import { cellSuppressed, MIN_TENANTS, tenantSuppression } from "./Stats.js"

interface Params {
  readonly period_type: PeriodType
  readonly period_start?: string | undefined
  readonly periods: number
  readonly segment_by: "industry" | "icp"
}

/** Calls, their tenants and a count over them. */
class CellTally {
  count = 0
  readonly calls = new Set<string>()
  readonly tenants = new Set<string>()
  add(callId: string, clientId: string, n = 1) {
    this.count += n
    this.calls.add(callId)
    this.tenants.add(clientId)
  }
}

const tallyIn = (map: Map<string, CellTally>, key: string) => {
  const found = map.get(key)
  if (found !== undefined) return found
  const made = new CellTally()
  map.set(key, made)
  return made
}

/** A count of a shown cell, withheld when fewer than MIN_TENANTS tenants feed it. */
const countOf = (t: CellTally | undefined) => {
  const tenants = t?.tenants.size ?? 0
  if (t === undefined || tenants === 0) return { count: 0, calls: 0, tenants: 0, suppressed: null }
  if (tenants < MIN_TENANTS) return { count: null, calls: null, tenants, suppressed: tenantSuppression(tenants) }
  return { count: t.count, calls: t.calls.size, tenants, suppressed: null }
}

interface Cell {
  readonly all: CellTally
  readonly kinds: Map<string, CellTally>
  readonly competitors: Map<string, CellTally>
}

export class SegmentTrends extends Effect.Service<SegmentTrends>()("SegmentTrends", {
  effect: Effect.gen(function* () {
    const queries = yield* TrendsQueries

    const compute = Effect.fn("SegmentTrends.compute")(function* (params: Params) {
      const now = new Date()
      const periods = trailing(normalise(params.period_type, params.period_start, now), params.periods)
      const from = instantOf(periods[0]!.period_start)
      const to = instantOf(periods.at(-1)!.period_end)
      const [calls, mentions] = yield* Effect.all([queries.segmentCalls(from, to), queries.segmentMentions(from, to)])
      const periodIndex = (iso: string) => periods.findIndex((p) => instantOf(p.period_start) <= iso && iso < instantOf(p.period_end))
      const segmentOf = (c: SegmentCallRow) => (params.segment_by === "industry" ? `${c.industry}\u0000` : `${c.industry}\u0000${c.icp}`)
      const cells = new Map<string, Array<Cell>>()
      const byCall = new Map<string, { segment: string; period: number }>()
      for (const c of calls) {
        const i = periodIndex(new Date(c.occurred_at).toISOString())
        if (i < 0) continue
        const segment = segmentOf(c)
        const row = cells.get(segment) ?? periods.map(() => ({ all: new CellTally(), kinds: new Map(), competitors: new Map() }))
        cells.set(segment, row)
        const cell = row[i]!
        cell.all.add(c.call_id, c.client_id)
        OBJECTION_KINDS.forEach((kind, k) => {
          const n = c.kinds[k] ?? 0
          if (n > 0) tallyIn(cell.kinds, kind).add(c.call_id, c.client_id, n)
        })
        byCall.set(c.call_id, { segment, period: i })
      }
      for (const m of mentions) {
        const at = byCall.get(m.call_id)
        if (at === undefined) continue
        tallyIn(cells.get(at.segment)![at.period]!.competitors, m.term).add(m.call_id, m.client_id)
      }
      const periodOut = (p: Period, cell: Cell): typeof SegmentTrendPeriod.Type => {
        const tenants = cell.all.tenants.size
        const suppressed = cellSuppressed(tenants)
        const base = { period_start: p.period_start, period_end: p.period_end, label: p.label, tenants }
        if (suppressed !== null) {
          return { ...base, calls: null, suppressed, objections: [], competitors: [], competitors_withheld: 0 }
        }
        const named = [...cell.competitors.entries()].filter(([, t]) => t.tenants.size >= MIN_TENANTS)
        return {
          ...base,
          calls: cell.all.calls.size,
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
  dependencies: [TrendsQueries.Default]
}) {}
