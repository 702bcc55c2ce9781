/**
 * The workspace's read-only views (spec 4.8; issue 16): the dashboard briefs and a call's details.
 * One function per view, shared with the other doors:
 *
 * - `calls/{call_id}` is `CallViews.analysis`, the function of `GET /v1/teams/calls/{call_id}`:
 *   the same schema and body; another tenant's call is answered like a missing one (404).
 * - The briefs answer `null` (200) when the tenant's `assistant.enabled` runtime flag is false
 *   (default true).
 * - `team-health` is `TeamHealthView.compute` (views/TeamHealthView.ts, where its decisions are
 *   written), the function the assistant interface's team-health answers too; here gated by
 *   `assistant.enabled`.
 * - `deal-intelligence` is the daily brief's open deals seen whole: the `openDeals` view
 *   (completed calls whose meeting was in the last `OPEN_DEAL_DAYS` days, with a transcript, whose
 *   outcome is none or `open`), one insight a deal (docs/deals.md: the calls sharing a `deal_id`;
 *   a call of no deal is a deal of its own), every one of them, not only those with a reason. The
 *   per-call fields (`call_id`, `stage`, `signals`, `next_step`, …) are the deal's latest open
 *   call's, as they were for a one-call deal; the deal's timeline (`calls`, `score_trend`,
 *   `objections`, `next_steps`, `stakeholders`, `risk_reasons`) is `views/DealTimeline.ts`'s over
 *   the deal's completed calls the caller sees. A deal one of whose calls has a decided outcome
 *   (won, lost, no decision) is not listed. Decisions where the spec is silent:
 *   - `risk` is the daily brief's rule (`openDealRisk`), raised from `low` to `medium` when the call
 *     scored below `AT_RISK_SCORE` (50), then by the deal's timeline (`dealRisk`: slipped steps, a
 *     falling score, an objection raised again and again), each raise a `risk_reasons` entry and a
 *     signal; a call of no deal keeps its call's risk and signals (no later call of its buyer is
 *     known, so nothing is known to have slipped).
 *   - `signals`, in this order: past the sales cycle, no next step agreed, each objection raised and
 *     how it was answered (`<kind> objection answered after a pause | with a question back | with
 *     a long pitch`, or `<kind> objection unanswered` for the analysis's `other`; the same text
 *     once), `scored N, below 50`, `no date on the next steps` (steps agreed, none with a due).
 *   - `next_step` is the first next step said with a due (else the first said): its quote, then
 *     ` (due <due as said>)` when it has one.
 *   - Order: risk (high first), then deal value (highest first, none last), then the most recent
 *     call; at most `DEALS_LIMIT` deals.
 */
import type { CallId, ClientId, DealInsight, DealIntelligence, Sees } from "@callsight/api-spec"
import { Effect } from "effect"
import { CallViews } from "../calls/CallViews.js"
import { DealsRepo } from "../calls/DealsRepo.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"
import { round1 } from "../views/CoachingDashboard.js"
import { AT_RISK_SCORE, TeamHealthView } from "../views/TeamHealthView.js"
import { ValueQueries } from "../views/ValueQueries.js"
import { OPEN_DEAL_DAYS, openDealRisk } from "../views/ValueViews.js"
import {
  type DealCall,
  type DealObjection,
  dealRisk,
  objectionsOf,
  type Risk,
  type ScoreTrend,
  scoreTrend,
  stakeholdersOf,
  type StepFollowThrough,
  stepFollowThrough
} from "../views/DealTimeline.js"
import { BriefsRepo, type DealCallFacts, type DealCallRow, type DealDetails, type OpenDeal } from "./BriefsRepo.js"

/** The most deals deal intelligence lists. */
export const DEALS_LIMIT = 50

const ANSWERED: Record<string, string> = {
  pause: "answered after a pause",
  question_back: "answered with a question back",
  long_pitch: "answered with a long pitch",
  other: "unanswered"
}

const RISK_ORDER = { high: 0, medium: 1, low: 2 } as const

type Insight = typeof DealInsight.Type

const atLeast = (a: Risk, b: Risk): Risk => (RISK_ORDER[a] <= RISK_ORDER[b] ? a : b)

/** An open deal as ranked: its latest call, its place among the calls (newest first), its risk (exact, or the most it can be). */
interface Ranked {
  readonly d: OpenDeal
  readonly i: number
  /** The deal value, -Infinity when none (last). */
  readonly value: number
  readonly callRisk: Risk
  risk: Risk
  exact: boolean
  /** A deal's timeline as the order reads it (`orderTimeline`; null for a call of no deal); `steps` once resolved. */
  readonly deal: {
    readonly timeline: ReadonlyArray<DealCall>
    readonly trend: ScoreTrend
    readonly objections: ReadonlyArray<DealObjection>
    steps: ReadonlyArray<StepFollowThrough> | null
  } | null
}

/**
 * A deal's calls as its order reads them: each call's kinds of objection raised and its steps' dues.
 * The risk, the score trend and the steps' follow-through read nothing else (no quote, answer or
 * attendee, left empty here); the listed deals' timelines are built again from their calls whole.
 */
const orderTimeline = (rows: ReadonlyArray<DealCallFacts>): Array<DealCall> =>
  rows.map((r) => ({
    call_id: r.call_id,
    meeting_at: r.meeting_at,
    closer_email: null,
    overall_score: r.overall_score,
    objections: r.kinds.map((kind) => ({ kind, response: "", quote: "" })),
    next_steps: r.dues.map((due) => ({ quote: "", due })),
    attendees: []
  }))

/** Rows by their deal, in their order. */
const byDeal = <R extends { readonly deal_id: string | null }>(rows: ReadonlyArray<R>): Map<string, Array<R>> => {
  const map = new Map<string, Array<R>>()
  for (const row of rows) {
    const list = map.get(row.deal_id!)
    if (list === undefined) map.set(row.deal_id!, [row])
    else list.push(row)
  }
  return map
}

/** The deal's next step: the first said with a due, else the first said. */
const nextStepOf = (steps: DealDetails["next_steps"]): string | null => {
  const step = steps.find((s) => s.due !== null && s.due.trim() !== "") ?? steps[0]
  if (step === undefined) return null
  return step.due === null || step.due.trim() === "" ? step.quote : `${step.quote} (due ${step.due.trim()})`
}

export class Briefs extends Effect.Service<Briefs>()("Briefs", {
  effect: Effect.gen(function* () {
    const calls = yield* CallViews
    const teamHealthView = yield* TeamHealthView
    const repo = yield* BriefsRepo
    const values = yield* ValueQueries
    const runtimeFlags = yield* RuntimeFlags
    const dealsRepo = yield* DealsRepo

    /** The tenant's `assistant.enabled` (true unless set false). */
    const assistantEnabled = (clientId: ClientId) =>
      Effect.map(runtimeFlags.forTenant(clientId), (flags) => flags["assistant.enabled"] !== false)

    /** `view` when the assistant component is on for the tenant, else null. */
    const gated = <A, E, R>(clientId: ClientId, view: Effect.Effect<A, E, R>) =>
      Effect.flatMap(assistantEnabled(clientId), (on) => (on ? view : Effect.succeed(null)))

    /** The whole analysis of a call: the function of `GET /v1/teams/calls/{call_id}`. */
    const call = (clientId: ClientId, callId: CallId, sees: Sees) => calls.analysis(clientId, callId, sees)

    /** Team health (the shared view), null when the assistant component is off for the tenant. */
    const teamHealth = (clientId: ClientId) => gated(clientId, teamHealthView.compute(clientId))

    /**
     * The open deals and their risk; a rep's (`sees` a closer) are the deals with their own calls,
     * followed over their own calls only.
     *
     * Only `DEALS_LIMIT` deals are listed, so each is built whole only once it is known to be
     * among them. Every open deal is ranked (risk, deal value, most recent call): a call of no deal
     * by its call's risk; a deal by its timeline, whose slipped steps need each step's due resolved
     * (chrono). A deal's risk without its steps, and the most its steps can raise it to, bound it;
     * the deals are taken best first by that bound and resolved only when one comes first
     * unresolved (its exact place is never better than its bound), so the order is the order of
     * every deal ranked exactly. The calls of no deal are cut to the first `DEALS_LIMIT` of them in
     * that order by the statement (`BriefsRepo.openDeals`, the daily brief's rule in SQL): no other
     * can be listed. The order reads each deal's calls' facts only (`dealCallFacts`: scores, kinds
     * of objection, dues); the listed deals' calls are then read whole for their timelines.
     */
    const computeDealIntelligence = Effect.fn("Briefs.dealIntelligence")(function* (clientId: ClientId, sees: Sees) {
      const settings = yield* Effect.orDie(values.settings(clientId))
      const [deals, ownDomains] = yield* Effect.all([
        repo.openDeals(clientId, sees, {
          days: OPEN_DEAL_DAYS,
          salesCycleDays: settings.sales_cycle_days,
          lowScore: AT_RISK_SCORE,
          limit: DEALS_LIMIT
        }),
        dealsRepo.ownDomains(clientId)
      ], { concurrency: "unbounded" }).pipe(Effect.orDie)
      const dealIds = deals.flatMap((d) => (d.deal_id === null ? [] : [d.deal_id]))
      const factsOfDeal = byDeal(yield* repo.dealCallFacts(clientId, dealIds, sees))
      const now = new Date()
      const timelineOf = (rows: ReadonlyArray<DealCallRow | (DealDetails & { outcome: string | null })>): Array<DealCall> =>
        rows.map((r) => ({
          call_id: r.call_id,
          meeting_at: r.meeting_at,
          closer_email: r.closer_email,
          overall_score: r.overall_score,
          objections: r.objections,
          next_steps: r.next_steps,
          attendees: r.attendees
        }))

      // every open deal with its risk, exact or bounded (the deals' slipped steps not yet resolved)
      const ranked = deals.flatMap((d, i): Array<Ranked> => {
        const { risk: briefRisk } = openDealRisk(d, settings.sales_cycle_days)
        const lowScore = d.overall_score !== null && d.overall_score < AT_RISK_SCORE
        const callRisk: Risk = briefRisk === "low" && lowScore ? "medium" : briefRisk
        const value = d.deal_value ?? -Infinity
        if (d.deal_id === null) return [{ d, i, value, callRisk, risk: callRisk, exact: true, deal: null }]
        const rows = factsOfDeal.get(d.deal_id)
        // a deal one of whose calls has a decided outcome is closed (left out by `openDeals`; so
        // here only when an outcome was recorded in between)
        if (rows === undefined || rows.some((r) => r.outcome !== null && r.outcome !== "open")) return []
        const timeline = orderTimeline(rows)
        const trend = scoreTrend(timeline)
        const objections = objectionsOf(timeline)
        const base = dealRisk(callRisk, { steps: [], trend, objections }, AT_RISK_SCORE).risk
        // each step with a due may slip: one raises the risk to medium, two to high
        const dated = timeline.reduce((n, c) => n + c.next_steps.filter((s) => s.due !== null && s.due.trim() !== "").length, 0)
        const bound: Risk = dated >= 2 ? "high" : dated === 1 ? atLeast(base, "medium") : base
        return [{ d, i, value, callRisk, risk: bound, exact: bound === base, deal: { timeline, trend, objections, steps: null } }]
      })
      const resolve = (r: Ranked) => {
        const deal = r.deal!
        deal.steps = stepFollowThrough(deal.timeline, now)
        r.risk = dealRisk(r.callRisk, { steps: deal.steps, trend: deal.trend, objections: deal.objections }, AT_RISK_SCORE).risk
        r.exact = true
      }
      const before = (a: Ranked, b: Ranked) =>
        RISK_ORDER[a.risk] - RISK_ORDER[b.risk] || (a.value === b.value ? 0 : b.value - a.value) || a.i - b.i
      const pending = ranked.sort(before)
      const top: Array<Ranked> = []
      while (top.length < DEALS_LIMIT && pending.length > 0) {
        const first = pending[0]!
        if (first.exact) {
          top.push(pending.shift()!)
          continue
        }
        // its place by its exact risk: never before where its bound put it
        pending.shift()
        resolve(first)
        let lo = 0
        let hi = pending.length
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (before(pending[mid]!, first) < 0) lo = mid + 1
          else hi = mid
        }
        pending.splice(lo, 0, first)
      }

      // the listed deals' calls whole, and their latest calls' details
      const [details, listedCalls] = yield* Effect.all([
        repo.dealDetails(clientId, top.map((r) => r.d.call_id)),
        repo.dealCalls(clientId, top.flatMap((r) => (r.deal === null ? [] : [r.d.deal_id!])), sees)
      ], { concurrency: "unbounded" })
      const byCall = new Map(details.map((x) => [x.call_id as string, x]))
      const callsOfDeal = byDeal(listedCalls)
      const insights = top.map(({ d, deal: ofDeal, callRisk }): Insight => {
        const more = byCall.get(d.call_id)
        const { pastCycle, reasons } = openDealRisk(d, settings.sales_cycle_days)
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
        const rows = ofDeal === null
          ? (more === undefined ? [] : [{ ...more, outcome: d.outcome as string | null }])
          : callsOfDeal.get(d.deal_id!) ?? []
        const timeline = timelineOf(rows)
        const followThrough = stepFollowThrough(timeline, now)
        const trend = scoreTrend(timeline)
        const objections = objectionsOf(timeline)
        // a call of no deal keeps its call's risk and signals: without a deal, a later call of the
        // buyer is not known, so a step past its due is not known to have slipped
        const risk = ofDeal === null
          ? { risk: callRisk, reasons: [] as Array<string> }
          : dealRisk(callRisk, { steps: followThrough, trend, objections }, AT_RISK_SCORE)
        for (const reason of risk.reasons) if (!signals.includes(reason)) signals.push(reason)
        return {
          call_id: d.call_id,
          external_call_id: d.external_call_id,
          closer_email: d.closer_email,
          stage: more?.stage ?? null,
          outcome: d.outcome,
          deal_value: more?.deal_value ?? null,
          currency: more?.currency ?? null,
          risk: risk.risk,
          signals,
          next_step: nextStepOf(steps),
          deal_id: more?.deal_id ?? null,
          external_deal_id: more?.external_deal_id ?? null,
          account: more?.account_id == null || more.account_name === null
            ? null
            : { account_id: more.account_id, name: more.account_name, domain: more.account_domain },
          calls: rows.map((r) => ({ call_id: r.call_id, meeting_at: r.meeting_at, closer_email: r.closer_email, overall_score: r.overall_score })),
          // the timeline's call ids are these rows' (CallId)
          score_trend: trend as Insight["score_trend"],
          objections: objections as unknown as Insight["objections"],
          next_steps: followThrough as unknown as Insight["next_steps"],
          stakeholders: stakeholdersOf(timeline, ownDomains),
          risk_reasons: risk.reasons
        }
      })
      return { client_id: clientId, deals: insights, generated_at: new Date().toISOString() } satisfies typeof DealIntelligence.Type
    })

    const dealIntelligence = (clientId: ClientId, sees: Sees) => gated(clientId, computeDealIntelligence(clientId, sees))

    return { call, teamHealth, dealIntelligence, computeDealIntelligence, assistantEnabled } as const
  }),
  dependencies: [CallViews.Default, TeamHealthView.Default, BriefsRepo.Default, RuntimeFlags.Default, ValueQueries.Default, DealsRepo.Default]
}) {}
