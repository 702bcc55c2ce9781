/**
 * A deal followed across its calls (issue 38, item 1; docs/deals.md): pure rules over the deal's
 * calls, oldest first, no SQL. Deal intelligence (workspace/Briefs.ts) shows them; the trends
 * (next-step follow-through per period) use `stepFollowThrough`.
 *
 *   stepFollowThrough(calls: ReadonlyArray<DealCall>, now?: Date)
 *     → Array<{ call_id, quote, due_text, due_date: "YYYY-MM-DD" | null, state: "kept" | "slipped" | "open" | "undated" }>
 *
 * - **Next steps** (`stepFollowThrough`): each step's `due` as said is resolved to a date by
 *   chrono-node, relative to its call's `meeting_at` (forward: "Friday" is the next Friday, UTC).
 *   Its deadline is the end of that day plus one day of grace. `kept`: a later call of the deal
 *   took place after the step's call and before the deadline; `slipped`: the deadline passed with
 *   no such call; `open`: not yet due and no later call yet; `undated`: no due, or one chrono does
 *   not resolve. In the order of the calls, then as said.
 * - **Score trend** (`scoreTrend`): the calls' overall scores (unscored calls left out); `change`
 *   is last minus first; `direction` `up` when it is +5 or more, `down` when −5 or less, `flat`
 *   between, `none` with fewer than two scored calls.
 * - **Objections** (`objectionsOf`): per kind, the calls that raised it; `resolved` when a later
 *   call of the deal took place in which the buyer did not raise it again, else `open`. The latest
 *   raising's quote and how it was answered are kept.
 * - **Stakeholders** (`stakeholdersOf`): the distinct attendees' addresses over the deal's calls
 *   that are not of the tenant's own domains, first seen first.
 * - **Risk** (`dealRisk`): the latest call's risk (the daily brief's rule) raised by what the deal
 *   shows: at least `medium` for a slipped step, a `down` score trend, or an objection raised in two
 *   calls or more and still open; `high` for two slipped steps or more, or a `down` trend ending
 *   below `AT_RISK_SCORE`. Each raise is a reason, in that order.
 */
import { domainOfEmail } from "../calls/DealAssignment.js"
import { dueDateMemo, dueDateOf } from "../lib/DueDates.js"

/** A call of a deal as the timeline reads it. */
export interface DealCall {
  readonly call_id: string
  /** When the meeting took place (`occurred_at`). */
  readonly meeting_at: string
  readonly closer_email: string | null
  readonly overall_score: number | null
  readonly objections: ReadonlyArray<{ readonly kind: string; readonly response: string; readonly quote: string }>
  readonly next_steps: ReadonlyArray<{ readonly quote: string; readonly due: string | null }>
  readonly attendees: ReadonlyArray<string>
}

export type StepState = "kept" | "slipped" | "open" | "undated"

export interface StepFollowThrough {
  readonly call_id: string
  readonly quote: string
  readonly due_text: string | null
  readonly due_date: string | null
  readonly state: StepState
}

const DAY_MS = 86_400_000
/** Score change that makes a trend `up` or `down`. */
export const TREND_POINTS = 5

const byMeeting = (calls: ReadonlyArray<DealCall>) =>
  [...calls].sort((a, b) => Date.parse(a.meeting_at) - Date.parse(b.meeting_at) || (a.call_id < b.call_id ? -1 : 1))

/** A step's due day (lib/DueDates.ts: chrono from the call's meeting, UTC), and the same remembered in the process. */
export { dueDateMemo, dueDateOf }

export const stepFollowThrough = (calls: ReadonlyArray<DealCall>, now: Date = new Date()): Array<StepFollowThrough> => {
  const ordered = byMeeting(calls)
  return ordered.flatMap((call, i) =>
    call.next_steps.map((step): StepFollowThrough => {
      const dueDate = dueDateMemo(step.due, call.meeting_at)
      const base = { call_id: call.call_id, quote: step.quote, due_text: step.due, due_date: dueDate }
      if (dueDate === null) return { ...base, state: "undated" }
      const deadline = Date.parse(`${dueDate}T00:00:00Z`) + 2 * DAY_MS
      const after = Date.parse(call.meeting_at)
      const kept = ordered.slice(i + 1).some((later) => {
        const at = Date.parse(later.meeting_at)
        return at > after && at < deadline
      })
      return { ...base, state: kept ? "kept" : now.getTime() >= deadline ? "slipped" : "open" }
    })
  )
}

export interface ScoreTrend {
  readonly first: number | null
  readonly last: number | null
  readonly change: number | null
  readonly direction: "up" | "down" | "flat" | "none"
  readonly scores: ReadonlyArray<{ readonly call_id: string; readonly score: number }>
}

export const scoreTrend = (calls: ReadonlyArray<DealCall>): ScoreTrend => {
  const scores = byMeeting(calls).flatMap((c) => (c.overall_score === null ? [] : [{ call_id: c.call_id, score: c.overall_score }]))
  if (scores.length < 2) {
    const only = scores[0]?.score ?? null
    return { first: only, last: only, change: null, direction: "none", scores }
  }
  const first = scores[0]!.score
  const last = scores[scores.length - 1]!.score
  const change = Math.round((last - first) * 10) / 10
  return { first, last, change, direction: change >= TREND_POINTS ? "up" : change <= -TREND_POINTS ? "down" : "flat", scores }
}

export interface DealObjection {
  readonly kind: string
  readonly raised_in: ReadonlyArray<string>
  readonly state: "resolved" | "open"
  readonly last_quote: string
  readonly last_response: string
}

export const objectionsOf = (calls: ReadonlyArray<DealCall>): Array<DealObjection> => {
  const ordered = byMeeting(calls)
  const kinds: Array<string> = []
  for (const c of ordered) for (const o of c.objections) if (!kinds.includes(o.kind)) kinds.push(o.kind)
  return kinds.map((kind) => {
    const raisedIdx = ordered.flatMap((c, i) => (c.objections.some((o) => o.kind === kind) ? [i] : []))
    const lastIdx = raisedIdx[raisedIdx.length - 1]!
    const lastCall = ordered[lastIdx]!
    const lastObjection = [...lastCall.objections].reverse().find((o) => o.kind === kind)!
    return {
      kind,
      raised_in: raisedIdx.map((i) => ordered[i]!.call_id),
      state: lastIdx < ordered.length - 1 ? "resolved" : "open",
      last_quote: lastObjection.quote,
      last_response: lastObjection.response
    }
  })
}

export const stakeholdersOf = (calls: ReadonlyArray<DealCall>, ownDomains: ReadonlyArray<string>): Array<string> => {
  const own = new Set(ownDomains.map((d) => d.toLowerCase()))
  const seen: Array<string> = []
  for (const c of byMeeting(calls)) {
    const closerDomain = c.closer_email === null ? undefined : domainOfEmail(c.closer_email)
    for (const a of c.attendees) {
      const address = a.trim().toLowerCase()
      const d = domainOfEmail(address)
      if (d === undefined || own.has(d) || d === closerDomain) continue
      if (!seen.includes(address)) seen.push(address)
    }
  }
  return seen
}

export type Risk = "low" | "medium" | "high"
const LEVEL: Record<Risk, number> = { low: 0, medium: 1, high: 2 }
const atLeast = (a: Risk, b: Risk): Risk => (LEVEL[a] >= LEVEL[b] ? a : b)

/** The deal's risk: the latest call's, raised by the deal's slipped steps, falling score and recurring objections. */
export const dealRisk = (
  latestCallRisk: Risk,
  deal: {
    readonly steps: ReadonlyArray<StepFollowThrough>
    readonly trend: ScoreTrend
    readonly objections: ReadonlyArray<DealObjection>
  },
  atRiskScore: number
): { readonly risk: Risk; readonly reasons: Array<string> } => {
  let risk = latestCallRisk
  const reasons: Array<string> = []
  const slipped = deal.steps.filter((s) => s.state === "slipped")
  if (slipped.length > 0) {
    risk = atLeast(risk, slipped.length >= 2 ? "high" : "medium")
    reasons.push(`${slipped.length} next step${slipped.length === 1 ? "" : "s"} slipped: ${slipped.map((s) => `"${s.quote}" (due ${s.due_text})`).join("; ")}`)
  }
  const t = deal.trend
  if (t.direction === "down") {
    risk = atLeast(risk, t.last !== null && t.last < atRiskScore ? "high" : "medium")
    reasons.push(`score down from ${t.first} to ${t.last} over ${t.scores.length} calls`)
  }
  for (const o of deal.objections) {
    if (o.state === "open" && o.raised_in.length >= 2) {
      risk = atLeast(risk, "medium")
      reasons.push(`${o.kind} objection raised in ${o.raised_in.length} calls, still open`)
    }
  }
  return { risk, reasons }
}
