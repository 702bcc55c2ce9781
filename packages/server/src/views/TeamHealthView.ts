/**
 * Team health (`GET /v1/workspace/team-health`, `GET /v1/internal/assistant/team-health`), one
 * implementation for both doors: the coaching dashboard (`CoachingDashboard.compute`) seen from a
 * manager's chair, over its 8 Monday weeks in UTC (`period_start` the first Monday 00:00 UTC,
 * `period_end` now): per closer not removed, `calls_analysed` (the completed calls of the 8
 * weeks), `average_score` (the dashboard's mean over them), `weakest_dimension` (the dashboard's
 * focus over the last 4 weeks). Decisions where the spec is silent:
 *
 * - `score_change` is the mean overall score of the last 4 weeks minus that of the 4 before
 *   (means over calls), null unless both halves have a scored call.
 * - `talk_ratio` is the mean rep talk ratio (0–1) of the 8 weeks' calls that have one.
 * - `health`: `at_risk` when the average is below 50 or the score fell 10 points or more;
 *   `watch` when the average is below 65, the score fell 5 points or more, or the closer has no
 *   analysed call in the 8 weeks (nothing to judge is itself a sign); otherwise `healthy`.
 * - The `team` block is the same figures over every closer listed (the dashboard's team).
 *   Closers are in the dashboard's order (by name).
 *
 * `compute` always computes the view. Whether a door answers it is the door's business: the
 * workspace answers null when the tenant's `assistant.enabled` runtime flag is false; the staff's
 * assistant interface always answers it.
 */
import type { ClientId, CloserHealth, TeamHealth } from "@callsight/api-spec"
import { Effect } from "effect"
import { TEAM } from "../tenancy/Sees.js"
import { CoachingDashboard, round1 } from "./CoachingDashboard.js"
import { type CloserFigures, TeamHealthQueries } from "./TeamHealthQueries.js"

/** Mean score below which a closer is at risk, and below which one is watched. */
export const AT_RISK_SCORE = 50
export const WATCH_SCORE = 65
/** Score change (points, 4 weeks on the 4 before) at or below which a closer is at risk, and watched. */
export const AT_RISK_DROP = -10
export const WATCH_DROP = -5

type Health = typeof CloserHealth.Type["health"]

type Sums = Omit<CloserFigures, "closer_id">

const NO_FIGURES: Sums = { recent_scored: 0, recent_sum: 0, earlier_scored: 0, earlier_sum: 0, talk_calls: 0, talk_sum: 0 }

const changeOf = (f: Sums): number | null =>
  f.recent_scored === 0 || f.earlier_scored === 0 ? null : round1(f.recent_sum / f.recent_scored - f.earlier_sum / f.earlier_scored)

const talkOf = (f: Sums): number | null => (f.talk_calls === 0 ? null : Math.round((f.talk_sum / f.talk_calls) * 1000) / 1000)

export const healthOf = (calls: number, average: number | null, change: number | null): Health => {
  if ((average !== null && average < AT_RISK_SCORE) || (change !== null && change <= AT_RISK_DROP)) return "at_risk"
  if (calls === 0 || (average !== null && average < WATCH_SCORE) || (change !== null && change <= WATCH_DROP)) return "watch"
  return "healthy"
}

const add = (a: Sums, b: Sums): Sums => ({
  recent_scored: a.recent_scored + b.recent_scored,
  recent_sum: a.recent_sum + b.recent_sum,
  earlier_scored: a.earlier_scored + b.earlier_scored,
  earlier_sum: a.earlier_sum + b.earlier_sum,
  talk_calls: a.talk_calls + b.talk_calls,
  talk_sum: a.talk_sum + b.talk_sum
})

export class TeamHealthView extends Effect.Service<TeamHealthView>()("TeamHealthView", {
  effect: Effect.gen(function* () {
    const dashboard = yield* CoachingDashboard
    const queries = yield* TeamHealthQueries

    /** The tenant's team health, now. */
    const compute = Effect.fn("TeamHealthView.compute")(function* (clientId: ClientId) {
      const [board, figures] = yield* Effect.all([dashboard.compute(clientId, TEAM), queries.closerFigures(clientId)], { concurrency: "unbounded" })
      const byCloser = new Map(figures.map((f) => [f.closer_id as string, f]))
      const closers = board.closers.map((c): typeof CloserHealth.Type => {
        const f = byCloser.get(c.closer_id) ?? NO_FIGURES
        const analysed = c.score_trend.reduce((n, p) => n + p.calls, 0)
        const change = changeOf(f)
        return {
          closer_id: c.closer_id,
          email: c.email,
          full_name: c.full_name,
          calls_analysed: analysed,
          average_score: c.average_score,
          score_change: change,
          talk_ratio: talkOf(f),
          weakest_dimension: c.focus?.dimension ?? null,
          health: healthOf(analysed, c.average_score, change)
        }
      })
      const team = figures.reduce<Sums>((sum, f) => add(sum, f), NO_FIGURES)
      return {
        client_id: clientId,
        period_start: new Date(`${board.team.score_trend[0]!.period_start}T00:00:00Z`).toISOString(),
        period_end: board.generated_at,
        team: {
          closers: board.team.closers,
          calls_analysed: board.team.score_trend.reduce((n, p) => n + p.calls, 0),
          average_score: board.team.average_score,
          score_change: changeOf(team),
          talk_ratio: talkOf(team)
        },
        closers,
        generated_at: board.generated_at
      } satisfies typeof TeamHealth.Type
    })

    return { compute } as const
  }),
  dependencies: [CoachingDashboard.Default, TeamHealthQueries.Default]
}) {}
