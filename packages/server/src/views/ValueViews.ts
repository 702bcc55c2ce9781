/**
 * The value views (docs/domain.md, "Portal"): what the service did for a tenant and what it is worth.
 * One implementation; the portal answers them now, the assistant interface and the workspace later.
 *
 * - `value`: the last 90 days (`PERIOD_DAYS`, by when calls completed): calls and hours analysed,
 *   coaching moments (evidence items that cost points), the average score and its change against
 *   the 90 days before, the weekly trend, and the win rate from the outcome truth (won / (won +
 *   lost), with its n; test data left out); with the ROI.
 * - The ROI states every assumption in its answer: manager review time saved (calls ×
 *   `REVIEW_MINUTES_PER_CALL` at `MANAGER_HOURLY_COST`), the change of the win rate since the
 *   tenant's first month (its first 30 days from its first analysed call) × the average deal size
 *   (the market profile's, else the mean of won deals' values) × the period's decided deals, and
 *   the plan's list price for the period. A figure whose sample is too small (fewer than
 *   `MIN_OUTCOMES` decided outcomes on either side) or whose input is missing is null, with the
 *   reason in `unavailable`; the net value counts only the figures there are.
 * - `digest`: a headline and highlights over the same figures; `reviewPack` adds per-closer
 *   progress and the calls worth reviewing, what a customer-success manager brings to a quarterly
 *   review.
 * - `dailyBrief`: yesterday's calls in the team's time zone (the market profile's, UTC without
 *   one), notable moments, deals at risk and today's suggested actions, each with the web app's page
 *   where it is done and the operation that does it (`Actions.ts`); and `changes`, the notable
 *   changes of the trends (`Trends.weekChanges`) between the 7 days before the brief's day and the
 *   7 before those.
 */
import type {
  CallWorthReviewing,
  ClientId,
  CustomerRoiReviewPack,
  CustomerValue,
  DailyBrief,
  DealAtRisk,
  NotableMoment,
  RoiAssumption,
  RoiEstimate,
  Sees,
  SuggestedAction,
  ValueDelivered
} from "@callsight/api-spec"
import { Effect } from "effect"
import { AppConfig } from "../config.js"
import { dateIn, dayStart, previousDate } from "../lib/Time.js"
import { MONTHLY_PRICE_USD } from "../tenancy/Plans.js"
import { TEAM } from "../tenancy/Sees.js"
import { suggestedActions } from "./Actions.js"
import { Trends } from "./Trends.js"
import { type Period, ValueQueries } from "./ValueQueries.js"

/** The window of the value views, and the one before it that the score change compares with. */
export const PERIOD_DAYS = 90
/** What a manager would have listened to, per call, to review it without the service. */
export const REVIEW_MINUTES_PER_CALL = 30
/** What an hour of a sales manager costs, in the ROI's currency. */
export const MANAGER_HOURLY_COST = 60
/** Decided outcomes (won or lost) below which a win rate is not used for the ROI. */
export const MIN_OUTCOMES = 10
/** The tenant's first month: the baseline of the win-rate change. */
export const BASELINE_DAYS = 30
/** How far back the brief looks for open deals, and after how many days a call wants its outcome. */
export const OPEN_DEAL_DAYS = 30
export const OUTCOME_DUE_DAYS = 7

const DAY_MS = 86_400_000

const round = (x: number | null, digits = 1) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits)
const rate = (won: number, lost: number) => (won + lost === 0 ? null : won / (won + lost))
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/**
 * The daily brief's risk rule for an open deal (a call of `openDeals`), shared with the
 * workspace's deal intelligence: past the sales cycle (an `open` outcome older than the market
 * profile's cycle), no next step agreed, objections left unexplored. `high` when past the cycle or
 * with neither a next step nor every objection explored, `medium` without a next step, else `low`.
 */
export const openDealRisk = (
  d: { readonly outcome: "open" | null; readonly age_days: number; readonly next_steps: number; readonly unexplored_objections: number },
  salesCycleDays: number | null
): { readonly risk: "high" | "medium" | "low"; readonly pastCycle: boolean; readonly reasons: ReadonlyArray<string> } => {
  const reasons: Array<string> = []
  const pastCycle = d.outcome === "open" && salesCycleDays !== null && d.age_days > salesCycleDays
  if (pastCycle) reasons.push(`open for ${d.age_days} days, longer than the sales cycle of ${salesCycleDays} days`)
  if (d.next_steps === 0) reasons.push("no next step was agreed on the call")
  if (d.unexplored_objections > 0) reasons.push(`${plural(d.unexplored_objections, "objection")} not explored`)
  const risk = pastCycle || (d.next_steps === 0 && d.unexplored_objections > 0) ? "high" : d.next_steps === 0 ? "medium" : "low"
  return { risk, pastCycle, reasons }
}

export class ValueViews extends Effect.Service<ValueViews>()("ValueViews", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const queries = yield* ValueQueries
    const trends = yield* Trends
    const act = suggestedActions(config.publicBaseUrl)

    // the value views are the managers' (the policy): the whole team's calls
    const periodOf = (clientId: ClientId, now: Date): Period & { readonly previousFrom: string } => ({
      clientId,
      sees: TEAM,
      from: new Date(now.getTime() - PERIOD_DAYS * DAY_MS).toISOString(),
      to: now.toISOString(),
      previousFrom: new Date(now.getTime() - 2 * PERIOD_DAYS * DAY_MS).toISOString()
    })

    /** The figures of the period: value delivered and the ROI. */
    const compute = (clientId: ClientId, now: Date) =>
      Effect.gen(function* () {
        const period = periodOf(clientId, now)
        const figures = yield* queries.figures(period)
        const previous = yield* queries.figures({ ...period, from: period.previousFrom, to: period.from })
        const weeks = yield* queries.weeks(period)
        const outcomes = yield* queries.outcomes(period)
        const settings = yield* queries.settings(clientId)

        const value: typeof ValueDelivered.Type = {
          calls_analysed: figures.calls_analysed,
          hours_analysed: round(figures.hours_analysed)!,
          coaching_moments: figures.coaching_moments,
          average_score: round(figures.average_score),
          score_change: figures.average_score === null || previous.average_score === null
            ? null
            : round(figures.average_score - previous.average_score),
          score_trend: weeks.map((w) => ({ ...w, average_score: round(w.average_score) })),
          outcomes_recorded: outcomes.recorded,
          deals_won: outcomes.won,
          deals_lost: outcomes.lost,
          win_rate: round(rate(outcomes.won, outcomes.lost), 3),
          win_rate_sample: outcomes.won + outcomes.lost
        }

        // the win-rate change: the period after the first month against the first month
        const unavailable: Array<{ figure: string; reason: string }> = []
        let winRateChange: number | null = null
        let deals = 0
        if (settings.first_completed_at === null) {
          unavailable.push({ figure: "win_rate_change", reason: "no call has been analysed yet" })
        } else {
          const baselineEnd = new Date(new Date(settings.first_completed_at).getTime() + BASELINE_DAYS * DAY_MS)
          const since = new Date(Math.max(baselineEnd.getTime(), new Date(period.from).getTime()))
          if (since >= now) {
            unavailable.push({ figure: "win_rate_change", reason: `the first month (the baseline) ends on ${baselineEnd.toISOString().slice(0, 10)}` })
          } else {
            const base = yield* queries.outcomes({ ...period, from: settings.first_completed_at, to: baselineEnd.toISOString() })
            const current = yield* queries.outcomes({ ...period, from: since.toISOString(), to: period.to })
            deals = current.won + current.lost
            if (base.won + base.lost < MIN_OUTCOMES) {
              unavailable.push({
                figure: "win_rate_change",
                reason: `${plural(base.won + base.lost, "decided outcome")} in the first month: at least ${MIN_OUTCOMES} are needed`
              })
            } else if (deals < MIN_OUTCOMES) {
              unavailable.push({
                figure: "win_rate_change",
                reason: `${plural(deals, "decided outcome")} since the first month in the last ${PERIOD_DAYS} days: at least ${MIN_OUTCOMES} are needed`
              })
            } else {
              winRateChange = rate(current.won, current.lost)! - rate(base.won, base.lost)!
            }
          }
        }

        const dealSize = settings.average_deal_size !== null
          ? { value: settings.average_deal_size, source: "market_profile" as const }
          : outcomes.won_value_mean !== null
          ? { value: outcomes.won_value_mean, source: "outcome_truth" as const }
          : null
        if (dealSize === null) {
          unavailable.push({ figure: "average_deal_size", reason: "no average deal size in the market profile and no won deal with a value" })
        }
        const currency = settings.currency ?? "USD"
        const hoursSaved = (figures.calls_analysed * REVIEW_MINUTES_PER_CALL) / 60
        const timeValue = hoursSaved * MANAGER_HOURLY_COST
        const winRateValue = winRateChange === null || dealSize === null ? null : winRateChange * deals * dealSize.value
        if (winRateValue === null) unavailable.push({ figure: "win_rate_value", reason: "it needs the win-rate change and the average deal size" })
        const monthlyPrice = MONTHLY_PRICE_USD[settings.plan]
        const planCost = (monthlyPrice * PERIOD_DAYS) / 30
        let netValue: number | null = null
        if (currency !== "USD") {
          unavailable.push({ figure: "net_value", reason: `the plan's price is in USD and the market profile's currency is ${currency}` })
        } else {
          netValue = timeValue + (winRateValue ?? 0) - planCost
        }
        const roiMultiple = netValue === null || planCost === 0 ? null : netValue / planCost
        if (planCost === 0) unavailable.push({ figure: "roi_multiple", reason: `the ${settings.plan} plan costs nothing` })

        const assumptions: Array<typeof RoiAssumption.Type> = [
          { key: "period_days", label: "Days the figures cover", value: PERIOD_DAYS, unit: "days", source: "default" },
          { key: "review_minutes_per_call", label: "Minutes a manager would have listened to review a call", value: REVIEW_MINUTES_PER_CALL, unit: "minutes", source: "default" },
          { key: "manager_hourly_cost", label: "Cost of an hour of a sales manager", value: MANAGER_HOURLY_COST, unit: `${currency}/hour`, source: "default" },
          { key: "minimum_outcomes", label: "Decided outcomes needed on each side of the win-rate change", value: MIN_OUTCOMES, unit: "outcomes", source: "default" },
          { key: "baseline_days", label: "Days of the first month, the win rate's baseline", value: BASELINE_DAYS, unit: "days", source: "default" },
          { key: "plan_monthly_price", label: `List price of the ${settings.plan} plan`, value: monthlyPrice, unit: "USD/month", source: "plan" },
          ...(dealSize === null ? [] : [{
            key: "average_deal_size",
            label: dealSize.source === "market_profile" ? "Average deal size (market profile)" : "Average value of the won deals (outcome truth)",
            value: round(dealSize.value, 2)!,
            unit: currency,
            source: dealSize.source
          }]),
          { key: "decided_deals", label: "Deals won or lost since the first month, in the period", value: deals, unit: "deals", source: "outcome_truth" }
        ]
        const roi: typeof RoiEstimate.Type = {
          currency,
          manager_hours_saved: round(hoursSaved)!,
          manager_time_value: round(timeValue, 2)!,
          win_rate_change: round(winRateChange, 3),
          average_deal_size: dealSize === null ? null : round(dealSize.value, 2),
          win_rate_value: round(winRateValue, 2),
          plan_cost: round(planCost, 2)!,
          net_value: round(netValue, 2),
          roi_multiple: round(roiMultiple, 2),
          assumptions,
          unavailable
        }
        return { period, value, roi }
      })

    const value = Effect.fn("ValueViews.value")(function* (clientId: ClientId) {
      const now = new Date()
      const { period, roi, value } = yield* compute(clientId, now)
      return {
        client_id: clientId,
        period_start: period.from,
        period_end: period.to,
        value,
        roi,
        generated_at: now.toISOString()
      } satisfies typeof CustomerValue.Type
    }, Effect.orDie)

    const headlineOf = (v: typeof ValueDelivered.Type) =>
      v.calls_analysed === 0
        ? `No call was analysed in the last ${PERIOD_DAYS} days.`
        : `${plural(v.calls_analysed, "call")} (${v.hours_analysed} hours) analysed in the last ${PERIOD_DAYS} days` +
          (v.average_score === null
            ? "."
            : v.score_change === null
            ? `, average score ${v.average_score}.`
            : `, average score ${v.average_score} (${v.score_change >= 0 ? "+" : ""}${v.score_change} on the ${PERIOD_DAYS} days before).`)

    const highlightsOf = (v: typeof ValueDelivered.Type, r: typeof RoiEstimate.Type) => [
      `About ${r.manager_hours_saved} hours of managers' listening saved (${REVIEW_MINUTES_PER_CALL} minutes a call), worth ${r.manager_time_value} ${r.currency}.`,
      `${plural(v.coaching_moments, "coaching moment")} found: moments that cost a call points.`,
      v.win_rate === null
        ? "No deal outcome (won or lost) recorded for these calls yet."
        : `Win rate ${Math.round(v.win_rate * 1000) / 10} % over ${plural(v.win_rate_sample, "decided deal")}.`,
      r.win_rate_change === null
        ? `Win-rate change not computed: ${r.unavailable.find((u) => u.figure === "win_rate_change")?.reason ?? "no baseline"}.`
        : `Win rate ${r.win_rate_change >= 0 ? "up" : "down"} ${Math.abs(Math.round(r.win_rate_change * 1000) / 10)} points since the first month.`,
      r.roi_multiple === null
        ? `Plan cost for the period: ${r.plan_cost} USD.`
        : `Net value ${r.net_value} ${r.currency} for a plan cost of ${r.plan_cost} USD: ${r.roi_multiple}× the cost.`
    ]

    const digestOf = (clientId: ClientId, now: Date) =>
      Effect.map(compute(clientId, now), ({ period, roi, value }) => ({
        client_id: clientId,
        period_start: period.from,
        period_end: period.to,
        headline: headlineOf(value),
        highlights: highlightsOf(value, roi),
        value,
        roi,
        generated_at: now.toISOString()
      }))

    const digest = Effect.fn("ValueViews.digest")((clientId: ClientId) => digestOf(clientId, new Date()), Effect.orDie)

    const reviewPack = Effect.fn("ValueViews.reviewPack")(function* (clientId: ClientId) {
      const now = new Date()
      const digested = yield* digestOf(clientId, now)
      const period = periodOf(clientId, now)
      const progress = yield* queries.closerProgress(period)
      const candidates = yield* queries.reviewCandidates(period)
      const calls = new Map<string, typeof CallWorthReviewing.Type>()
      for (const c of candidates) {
        const score = c.overall_score === null ? "no score" : `score ${round(c.overall_score)}`
        const reason = c.why === "lowest" ? `one of the lowest scores of the last ${PERIOD_DAYS} days (${score})` : `lost deal (${score})`
        const seen = calls.get(c.call_id)
        calls.set(c.call_id, seen === undefined
          ? { call_id: c.call_id, external_call_id: c.external_call_id, closer_email: c.closer_email, created_at: c.created_at, overall_score: round(c.overall_score), outcome: c.outcome, reason }
          : { ...seen, reason: `${seen.reason}; lost deal` })
      }
      return {
        ...digested,
        closers: progress.map((p) => ({
          closer_id: p.closer_id,
          email: p.email,
          full_name: p.full_name,
          calls_analysed: p.calls,
          average_score: round(p.average_score),
          score_change: p.average_score === null || p.previous_score === null ? null : round(p.average_score - p.previous_score),
          weakest_dimension: p.weakest_dimension,
          win_rate: round(rate(p.won, p.lost), 3),
          win_rate_sample: p.won + p.lost
        })),
        calls_to_review: [...calls.values()]
      } satisfies typeof CustomerRoiReviewPack.Type
    }, Effect.orDie)

    /**
     * Yesterday's calls, moments, deals at risk and what to do. A rep's (`sees` a closer) is made of
     * their own calls, without the managers' actions (closers to verify).
     */
    const dailyBrief = Effect.fn("ValueViews.dailyBrief")(function* (clientId: ClientId, sees: Sees) {
      const now = new Date()
      const settings = yield* queries.settings(clientId)
      const zone = settings.time_zone ?? "UTC"
      const today = dateIn(now, zone)
      const from = dayStart(previousDate(today), zone)
      const to = dayStart(today, zone)
      // the statements that need only the settings run together (each its own connection)
      const [calls, openDeals, missing, pending, changes] = yield* Effect.all([
        queries.callsCreated({ clientId, sees, from: from.toISOString(), to: to.toISOString() }),
        // the first 20 at risk, ordered by the rule in SQL (the rule itself is applied here again, on those)
        queries.openDeals({ clientId, sees, days: OPEN_DEAL_DAYS, salesCycleDays: settings.sales_cycle_days, limit: 20 }),
        queries.outcomesMissing({ clientId, sees, days: OUTCOME_DUE_DAYS }),
        sees._tag === "Team" ? queries.pendingClosers(clientId) : Effect.succeed([]),
        trends.weekChanges(clientId, sees, to)
      ], { concurrency: "unbounded" })
      const scored = calls.filter((c) => c.status === "completed" && c.overall_score !== null)
      const byScore = [...scored].sort((a, b) => a.overall_score! - b.overall_score! || a.call_id.localeCompare(b.call_id))
      const lowest = byScore[0]
      const highest = byScore.at(-1)

      const moments: Array<typeof NotableMoment.Type> = []
      if (highest !== undefined && lowest !== undefined && highest.call_id !== lowest.call_id) {
        moments.push({ call_id: highest.call_id, external_call_id: highest.external_call_id, closer_email: highest.closer_email, at: 0, kind: "best_score", quote: `score ${round(highest.overall_score)}` })
      }
      if (lowest !== undefined) {
        moments.push({ call_id: lowest.call_id, external_call_id: lowest.external_call_id, closer_email: lowest.closer_email, at: 0, kind: "lowest_score", quote: `score ${round(lowest.overall_score)}` })
      }
      for (const c of calls) {
        for (const o of c.objections ?? []) {
          if (o.response === "other") {
            moments.push({ call_id: c.call_id, external_call_id: c.external_call_id, closer_email: c.closer_email, at: o.at, kind: "objection_unexplored", quote: o.quote })
          }
        }
      }

      const risks: Array<typeof DealAtRisk.Type> = []
      for (const d of openDeals) {
        const { reasons, risk } = openDealRisk(d, settings.sales_cycle_days)
        if (reasons.length === 0) continue
        risks.push({ call_id: d.call_id, external_call_id: d.external_call_id, closer_email: d.closer_email, risk, reasons })
      }
      const order = { high: 0, medium: 1, low: 2 } as const
      const dealsAtRisk = risks.sort((a, b) => order[a.risk] - order[b.risk]).slice(0, 20)

      // each with the app's page where it is done and the operation that does it (Actions.ts)
      const actions: Array<typeof SuggestedAction.Type> = []
      if (lowest !== undefined) {
        actions.push(act.reviewCall(
          lowest.call_id,
          `Review the call of ${lowest.closer_email ?? "an unknown closer"}: the lowest score yesterday (${round(lowest.overall_score)})`
        ))
      }
      for (const d of dealsAtRisk.filter((r) => r.risk === "high").slice(0, 3)) {
        actions.push(act.followUp(d.call_id, `Follow up the deal of ${d.closer_email ?? "an unknown closer"}'s call: ${d.reasons[0]}`))
      }
      for (const m of missing) {
        actions.push(act.recordOutcome(
          m.call_id,
          `Record the outcome of the call of ${m.completed_at.slice(0, 10)}${m.closer_email === null ? "" : ` (${m.closer_email})`}`
        ))
      }
      for (const c of pending) {
        actions.push(act.verifyCloser(c.closer_id, `Ask ${c.email} to confirm their e-mail (or send the link again)`))
      }

      return {
        client_id: clientId,
        date: today,
        calls: calls.map((c) => ({
          call_id: c.call_id,
          external_call_id: c.external_call_id,
          closer_email: c.closer_email,
          status: c.status,
          created_at: c.created_at,
          duration_s: c.duration_s,
          overall_score: round(c.overall_score)
        })),
        calls_analysed: calls.filter((c) => c.status === "completed").length,
        average_score: scored.length === 0 ? null : round(scored.reduce((s, c) => s + c.overall_score!, 0) / scored.length),
        notable_moments: moments,
        deals_at_risk: dealsAtRisk,
        suggested_actions: actions,
        changes,
        generated_at: now.toISOString()
      } satisfies typeof DailyBrief.Type
    }, Effect.orDie)

    return { value, digest, reviewPack, dailyBrief } as const
  }),
  dependencies: [ValueQueries.Default, Trends.Default]
}) {}
