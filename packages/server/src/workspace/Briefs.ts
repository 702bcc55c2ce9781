/**
 * The workspace's read-only views (spec 4.8; issue 16): the dashboard briefs and a call's details.
 * One function per view, shared with the other doors:
 *
 * - `calls/{call_id}` is `CallViews.analysis`, the function of `GET /v1/teams/calls/{call_id}`:
 *   the same schema and body; another tenant's call is answered like a missing one (404).
 * - The briefs answer `null` (200) when the tenant's `assistant.enabled` runtime flag is false
 *   (default true).
 * - `team-health` is the coaching dashboard (`CoachingDashboard.compute`) seen from a manager's
 *   chair, over its 8 Monday weeks in UTC (`period_start` the first Monday 00:00 UTC,
 *   `period_end` now): per closer not removed, `calls_analysed` (the completed calls of the 8
 *   weeks), `average_score` (the dashboard's mean over them), `weakest_dimension` (the dashboard's
 *   focus over the last 4 weeks). Decisions where the spec is silent:
 *   - `score_change` is the mean overall score of the last 4 weeks minus that of the 4 before
 *     (means over calls), null unless both halves have a scored call.
 *   - `talk_ratio` is the mean rep talk ratio (0–1) of the 8 weeks' calls that have one.
 *   - `health`: `at_risk` when the average is below 50 or the score fell 10 points or more;
 *     `watch` when the average is below 65, the score fell 5 points or more, or the closer has no
 *     analysed call in the 8 weeks (nothing to judge is itself a sign); otherwise `healthy`.
 *   - The `team` block is the same figures over every closer listed (the dashboard's team).
 *   Closers are in the dashboard's order (by name).
 * - `deal-intelligence` is the daily brief's open deals seen whole (a deal is a call, as the
 *   outcome truth is per call): the `openDeals` view (completed calls of the last
 *   `OPEN_DEAL_DAYS` days with a transcript whose outcome is none or `open`), every one of them,
 *   not only those with a reason, with the outcome truth's stage, value and currency. Decisions
 *   where the spec is silent:
 *   - `risk` is the daily brief's rule (`openDealRisk`), raised from `low` to `medium` when the call
 *     scored below `AT_RISK_SCORE` (50).
 *   - `signals`, in this order: past the sales cycle, no next step agreed, each objection raised and
 *     how it was answered (`<kind> objection answered after a pause | with a question back | with
 *     a long pitch`, or `<kind> objection unanswered` for the analysis's `other`; the same text
 *     once), `scored N, below 50`, `no date on the next steps` (steps agreed, none with a due).
 *   - `next_step` is the first next step said with a due (else the first said): its quote, then
 *     ` (due <due as said>)` when it has one.
 *   - Order: risk (high first), then deal value (highest first, none last), then the most recent
 *     call; at most `DEALS_LIMIT` deals.
 */
import type { CallId, ClientId, CloserHealth, DealInsight, DealIntelligence, TeamHealth } from "@callsight/api-spec"
import { Effect } from "effect"
import { CallViews } from "../calls/CallViews.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"
import { CoachingDashboard, round1 } from "../views/CoachingDashboard.js"
import { ValueQueries } from "../views/ValueQueries.js"
import { OPEN_DEAL_DAYS, openDealRisk } from "../views/ValueViews.js"
import { BriefsRepo, type CloserFigures, type DealDetails } from "./BriefsRepo.js"

export const AT_RISK_SCORE = 50
export const WATCH_SCORE = 65
export const AT_RISK_DROP = -10
export const WATCH_DROP = -5

/** The most deals deal intelligence lists. */
export const DEALS_LIMIT = 50

const ANSWERED: Record<string, string> = {
  pause: "answered after a pause",
  question_back: "answered with a question back",
  long_pitch: "answered with a long pitch",
  other: "unanswered"
}

const RISK_ORDER = { high: 0, medium: 1, low: 2 } as const

/** The deal's next step: the first said with a due, else the first said. */
const nextStepOf = (steps: DealDetails["next_steps"]): string | null => {
  const step = steps.find((s) => s.due !== null && s.due.trim() !== "") ?? steps[0]
  if (step === undefined) return null
  return step.due === null || step.due.trim() === "" ? step.quote : `${step.quote} (due ${step.due.trim()})`
}

type Health = typeof CloserHealth.Type["health"]

const NO_FIGURES = { recent_scored: 0, recent_sum: 0, earlier_scored: 0, earlier_sum: 0, talk_calls: 0, talk_sum: 0 }

type Sums = Omit<CloserFigures, "closer_id">

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

export class Briefs extends Effect.Service<Briefs>()("Briefs", {
  effect: Effect.gen(function* () {
    const calls = yield* CallViews
    const dashboard = yield* CoachingDashboard
    const repo = yield* BriefsRepo
    const values = yield* ValueQueries
    const runtimeFlags = yield* RuntimeFlags

    /** The tenant's `assistant.enabled` (true unless set false). */
    const assistantEnabled = (clientId: ClientId) =>
      Effect.map(runtimeFlags.forTenant(clientId), (flags) => flags["assistant.enabled"] !== false)

    /** `view` when the assistant component is on for the tenant, else null. */
    const gated = <A, E, R>(clientId: ClientId, view: Effect.Effect<A, E, R>) =>
      Effect.flatMap(assistantEnabled(clientId), (on) => (on ? view : Effect.succeed(null)))

    /** The whole analysis of a call: the function of `GET /v1/teams/calls/{call_id}`. */
    const call = (clientId: ClientId, callId: CallId) => calls.analysis(clientId, callId)

    const computeTeamHealth = Effect.fn("Briefs.teamHealth")(function* (clientId: ClientId) {
      const [board, figures] = yield* Effect.all([dashboard.compute(clientId), repo.closerFigures(clientId)])
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

    const teamHealth = (clientId: ClientId) => gated(clientId, computeTeamHealth(clientId))

    const computeDealIntelligence = Effect.fn("Briefs.dealIntelligence")(function* (clientId: ClientId) {
      const [settings, deals, details] = yield* Effect.all([
        values.settings(clientId),
        values.openDeals({ clientId, days: OPEN_DEAL_DAYS }),
        repo.dealDetails(clientId, OPEN_DEAL_DAYS)
      ]).pipe(Effect.orDie)
      const byCall = new Map(details.map((d) => [d.call_id as string, d]))
      const insights = deals.map((d): typeof DealInsight.Type => {
        const more = byCall.get(d.call_id)
        const { pastCycle, reasons, risk: briefRisk } = openDealRisk(d, settings.sales_cycle_days)
        const score = more?.overall_score ?? null
        const lowScore = score !== null && score < AT_RISK_SCORE
        const steps = more?.next_steps ?? []
        const signals: Array<string> = []
        if (pastCycle) signals.push(reasons[0]!)
        if (d.next_steps === 0) signals.push("no next step was agreed on the call")
        for (const o of more?.objections ?? []) {
          const text = `${o.kind} objection ${ANSWERED[o.response] ?? "unanswered"}`
          if (!signals.includes(text)) signals.push(text)
        }
        if (lowScore) signals.push(`scored ${round1(score)}, below ${AT_RISK_SCORE}`)
        if (steps.length > 0 && steps.every((s) => s.due === null || s.due.trim() === "")) signals.push("no date on the next steps")
        return {
          call_id: d.call_id,
          closer_email: d.closer_email,
          stage: more?.stage ?? null,
          outcome: d.outcome,
          deal_value: more?.deal_value ?? null,
          currency: more?.currency ?? null,
          risk: briefRisk === "low" && lowScore ? "medium" : briefRisk,
          signals,
          next_step: nextStepOf(steps)
        }
      })
      const ordered = insights
        .map((deal, i) => ({ deal, i }))
        .sort((a, b) =>
          RISK_ORDER[a.deal.risk] - RISK_ORDER[b.deal.risk] ||
          (b.deal.deal_value ?? -Infinity) - (a.deal.deal_value ?? -Infinity) ||
          a.i - b.i
        )
        .slice(0, DEALS_LIMIT)
        .map(({ deal }) => deal)
      return { client_id: clientId, deals: ordered, generated_at: new Date().toISOString() } satisfies typeof DealIntelligence.Type
    })

    const dealIntelligence = (clientId: ClientId) => gated(clientId, computeDealIntelligence(clientId))

    return { call, teamHealth, dealIntelligence, assistantEnabled } as const
  }),
  dependencies: [CallViews.Default, CoachingDashboard.Default, BriefsRepo.Default, RuntimeFlags.Default, ValueQueries.Default]
}) {}
