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
import { type DealCall, dealRisk, objectionsOf, scoreTrend, stakeholdersOf, stepFollowThrough } from "../views/DealTimeline.js"
import { BriefsRepo, type DealCallRow, type DealDetails } from "./BriefsRepo.js"

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
     */
    const computeDealIntelligence = Effect.fn("Briefs.dealIntelligence")(function* (clientId: ClientId, sees: Sees) {
      const [settings, deals, details, ownDomains] = yield* Effect.all([
        values.settings(clientId),
        values.openDeals({ clientId, sees, days: OPEN_DEAL_DAYS }),
        repo.dealDetails(clientId, OPEN_DEAL_DAYS),
        dealsRepo.ownDomains(clientId)
      ]).pipe(Effect.orDie)
      const byCall = new Map(details.map((d) => [d.call_id as string, d]))
      // one insight a deal: its latest open call (the list is newest first), or a call of no deal alone
      const latestOfDeal = new Map<string, (typeof deals)[number]>()
      for (const d of deals) {
        const key = byCall.get(d.call_id)?.deal_id ?? `call:${d.call_id}`
        if (!latestOfDeal.has(key)) latestOfDeal.set(key, d)
      }
      const dealIds = [...latestOfDeal.keys()].filter((k) => !k.startsWith("call:"))
      const callsOfDeal = new Map<string, Array<DealCallRow>>()
      for (const row of yield* repo.dealCalls(clientId, dealIds, sees)) {
        const list = callsOfDeal.get(row.deal_id!) ?? []
        list.push(row)
        callsOfDeal.set(row.deal_id!, list)
      }
      const now = new Date()
      const insights = [...latestOfDeal.entries()].flatMap(([key, d]): Array<typeof DealInsight.Type> => {
        const more = byCall.get(d.call_id)
        const rows = key.startsWith("call:") || more === undefined
          ? (more === undefined ? [] : [{ ...more, outcome: d.outcome as string | null }])
          : callsOfDeal.get(key) ?? [{ ...more, outcome: d.outcome as string | null }]
        // a deal one of whose calls has a decided outcome is closed
        if (rows.some((r) => r.outcome !== null && r.outcome !== "open")) return []
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
        const timeline: Array<DealCall> = rows.map((r) => ({
          call_id: r.call_id,
          meeting_at: r.meeting_at,
          closer_email: r.closer_email,
          overall_score: r.overall_score,
          objections: r.objections,
          next_steps: r.next_steps,
          attendees: r.attendees
        }))
        const followThrough = stepFollowThrough(timeline, now)
        const trend = scoreTrend(timeline)
        const objections = objectionsOf(timeline)
        const callRisk = briefRisk === "low" && lowScore ? "medium" : briefRisk
        // a call of no deal keeps its call's risk and signals: without a deal, a later call of the
        // buyer is not known, so a step past its due is not known to have slipped
        const deal = key.startsWith("call:")
          ? { risk: callRisk, reasons: [] as Array<string> }
          : dealRisk(callRisk, { steps: followThrough, trend, objections }, AT_RISK_SCORE)
        for (const reason of deal.reasons) if (!signals.includes(reason)) signals.push(reason)
        return [{
          call_id: d.call_id,
          external_call_id: d.external_call_id,
          closer_email: d.closer_email,
          stage: more?.stage ?? null,
          outcome: d.outcome,
          deal_value: more?.deal_value ?? null,
          currency: more?.currency ?? null,
          risk: deal.risk,
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
          risk_reasons: deal.reasons
        }]
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

    const dealIntelligence = (clientId: ClientId, sees: Sees) => gated(clientId, computeDealIntelligence(clientId, sees))

    return { call, teamHealth, dealIntelligence, computeDealIntelligence, assistantEnabled } as const
  }),
  dependencies: [CallViews.Default, TeamHealthView.Default, BriefsRepo.Default, RuntimeFlags.Default, ValueQueries.Default, DealsRepo.Default]
}) {}
