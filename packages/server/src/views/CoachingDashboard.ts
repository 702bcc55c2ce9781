/**
 * The coaching dashboard (`GET /v1/coaching/dashboard`), one implementation for every door: the
 * coaching feature answers it, and the portal's page shows its focus. For each closer of the
 * tenant not removed (a closer's calls: the tenant's completed calls whose `closer_email` is the
 * closer's e-mail, in any case):
 *
 * - `score_trend`: the last 8 Monday weeks in UTC, this one included, oldest first, by the time the
 *   analysis completed; each week's calls and mean overall score (null without a scored call).
 *   `average_score` is the mean over the 8 weeks' scored calls (a mean over calls, not weeks).
 * - `focus`: the weakest scorecard dimension over the last 4 weeks (this one and the 3 before):
 *   the lowest mean score of the dimensions the machine assessed (ties: the scorecard's order),
 *   with the team's mean of that dimension over the same weeks and the wiki article that teaches it.
 * - `calls_to_review`: of the last 4 weeks, the 3 lowest scores, and the 2 calls whose manual audit
 *   is furthest from the machine (a mean absolute gap of 10 points or more), each with its reason;
 *   a call that is both is listed once, with both reasons.
 *
 * The `team` block is the same figures over every closer listed. `audit_gaps` is, over every
 * manual audit of the tenant, the mean gap (manual minus automated) per dimension: how far the
 * machine is from the tenant's own managers. Figures are rounded to one decimal.
 *
 * Whose calls (issue 36): `compute` takes the viewer's `Sees`. The team's (managers, and the
 * tenant-wide callers: team health, the portal page) is as above; a rep's is the same dashboard over
 * their own calls only (`CoachingQueries`): `closers` holds only them, and the `team` block, the
 * focus's `team_average_score` and `audit_gaps` are their own figures, never the team's (team-wide
 * sums are for managers); a member who is no closer gets an empty dashboard.
 */
import {
  type AuditGap,
  type CallWorthReviewing,
  type ClientId,
  type CloserCoaching,
  type CoachingDashboard as CoachingDashboardBody,
  type CoachingFocus,
  type Sees,
  ScorecardDimensionName,
  type ScoreTrendPoint
} from "@callsight/api-spec"
import { Effect } from "effect"
import { CoachingQueries, type DimensionRow, type ReviewRow, type WeekRow } from "./CoachingQueries.js"
import { isDimension, Wiki } from "./Wiki.js"

type Dimension = typeof ScorecardDimensionName.Type

const DIMENSIONS: ReadonlyArray<Dimension> = ScorecardDimensionName.literals

export const round1 = (x: number): number => Math.round(x * 10) / 10

const mean = (sum: number, n: number): number | null => (n === 0 ? null : round1(sum / n))

const ordinal = (n: number) => (n === 1 ? "" : n === 2 ? "2nd " : n === 3 ? "3rd " : `${n}th `)

/** The weeks of a trend from the rows of its weeks with calls. */
const trendOf = (weeks: ReadonlyArray<string>, rows: ReadonlyArray<WeekRow>) => {
  const byWeek = new Map(rows.map((r) => [r.period_start, r]))
  const points: Array<typeof ScoreTrendPoint.Type> = weeks.map((week) => {
    const row = byWeek.get(week)
    return { period_start: week, calls: row?.calls ?? 0, average_score: row === undefined ? null : mean(row.score_sum, row.scored) }
  })
  const scored = rows.reduce((n, r) => n + r.scored, 0)
  const sum = rows.reduce((s, r) => s + r.score_sum, 0)
  return { points, average: mean(sum, scored), thisWeek: byWeek.get(weeks.at(-1)!)?.calls ?? 0 }
}

/** Rows of several closers summed by week (the team). */
const sumWeeks = (rows: ReadonlyArray<WeekRow>): ReadonlyArray<WeekRow> => {
  const byWeek = new Map<string, WeekRow>()
  for (const r of rows) {
    const seen = byWeek.get(r.period_start)
    byWeek.set(
      r.period_start,
      seen === undefined ? r : { ...seen, calls: seen.calls + r.calls, scored: seen.scored + r.scored, score_sum: seen.score_sum + r.score_sum }
    )
  }
  return [...byWeek.values()]
}

const reasonOf = (row: ReviewRow): string =>
  row.kind === "low_score"
    ? `${ordinal(row.rank)}lowest score of the last 4 weeks: ${round1(row.overall_score!)}`
    : `a manual audit is ${round1(row.gap!)} points from the machine's scores on average`

/** Low scores first (lowest first), then the audit gaps (largest first); a call in both once, with both reasons. */
const callsToReview = (rows: ReadonlyArray<ReviewRow>): Array<typeof CallWorthReviewing.Type> => {
  const ordered = [
    ...rows.filter((r) => r.kind === "low_score").sort((a, b) => a.rank - b.rank),
    ...rows.filter((r) => r.kind === "audit_gap").sort((a, b) => a.rank - b.rank)
  ]
  const out = new Map<string, typeof CallWorthReviewing.Type>()
  for (const r of ordered) {
    const seen = out.get(r.call_id)
    if (seen !== undefined) {
      out.set(r.call_id, { ...seen, reason: `${seen.reason}; ${reasonOf(r)}` })
      continue
    }
    out.set(r.call_id, {
      call_id: r.call_id,
      external_call_id: r.external_call_id,
      closer_email: r.closer_email,
      created_at: r.created_at,
      overall_score: r.overall_score === null ? null : round1(r.overall_score),
      outcome: r.outcome,
      reason: reasonOf(r)
    })
  }
  return [...out.values()]
}

export class CoachingDashboard extends Effect.Service<CoachingDashboard>()("CoachingDashboard", {
  effect: Effect.gen(function* () {
    const queries = yield* CoachingQueries
    const wiki = yield* Wiki

    /** The team's sums by dimension over the focus weeks. */
    const teamDimensions = (rows: ReadonlyArray<DimensionRow>) => {
      const out = new Map<string, { calls: number; sum: number }>()
      for (const r of rows) {
        const seen = out.get(r.dimension) ?? { calls: 0, sum: 0 }
        out.set(r.dimension, { calls: seen.calls + r.calls, sum: seen.sum + r.score_sum })
      }
      return out
    }

    const focusOf = (
      rows: ReadonlyArray<DimensionRow>,
      team: ReadonlyMap<string, { calls: number; sum: number }>
    ): typeof CoachingFocus.Type | null => {
      const candidates = rows
        .filter((r): r is DimensionRow & { dimension: Dimension } => isDimension(r.dimension) && r.calls > 0)
        .map((r) => ({ dimension: r.dimension, calls: r.calls, average: r.score_sum / r.calls }))
        .sort((a, b) => a.average - b.average || DIMENSIONS.indexOf(a.dimension) - DIMENSIONS.indexOf(b.dimension))
      const weakest = candidates[0]
      if (weakest === undefined) return null
      const teamFigures = team.get(weakest.dimension)
      const article = wiki.teaching(weakest.dimension)
      return {
        dimension: weakest.dimension,
        average_score: round1(weakest.average),
        calls: weakest.calls,
        team_average_score: teamFigures === undefined ? null : mean(teamFigures.sum, teamFigures.calls),
        article_slug: article?.slug ?? null,
        article_title: article?.title ?? null
      }
    }

    /** The tenant's coaching dashboard, now, over the calls `sees` sees (`TEAM`: the whole team's). */
    const compute = Effect.fn("CoachingDashboard.compute")(function* (clientId: ClientId, sees: Sees) {
      const viewer = { clientId, sees }
      const [closers, weeks, trend, dimensions, review, gaps] = yield* Effect.all([
        queries.closers(viewer),
        queries.weeks(viewer),
        queries.trend(viewer),
        queries.dimensions(viewer),
        queries.toReview(viewer),
        queries.auditGaps(viewer)
      ], { concurrency: "unbounded" })
      const weekStarts = weeks.map((w) => w.period_start)
      const team = teamDimensions(dimensions)
      const closerViews = closers.map((closer): typeof CloserCoaching.Type => {
        const own = trendOf(weekStarts, trend.filter((r) => r.closer_id === closer.closer_id))
        return {
          closer_id: closer.closer_id,
          full_name: closer.full_name,
          email: closer.email,
          calls_this_week: own.thisWeek,
          average_score: own.average,
          score_trend: own.points,
          focus: focusOf(dimensions.filter((r) => r.closer_id === closer.closer_id), team),
          calls_to_review: callsToReview(review.filter((r) => r.closer_id === closer.closer_id))
        }
      })
      const teamTrend = trendOf(weekStarts, sumWeeks(trend))
      const auditGaps: Array<typeof AuditGap.Type> = gaps
        .filter((g): g is typeof g & { dimension: Dimension } => isDimension(g.dimension))
        .sort((a, b) => DIMENSIONS.indexOf(a.dimension) - DIMENSIONS.indexOf(b.dimension))
        .map((g) => ({
          dimension: g.dimension,
          mean_gap: round1(g.mean_gap),
          mean_absolute_gap: round1(g.mean_absolute_gap),
          audits: g.audits
        }))
      return {
        generated_at: new Date().toISOString(),
        week_start: weekStarts.at(-1)!,
        team: {
          closers: closers.length,
          calls_this_week: teamTrend.thisWeek,
          average_score: teamTrend.average,
          score_trend: teamTrend.points
        },
        closers: closerViews,
        audit_gaps: auditGaps
      } satisfies typeof CoachingDashboardBody.Type
    }, Effect.catchTag("SqlError", Effect.die))

    return { compute } as const
  }),
  dependencies: [CoachingQueries.Default, Wiki.Default]
}) {}
