/**
 * Trends (issue 38, item 3; docs/trends.md, where every rule below is written for a reader): per
 * period, for the team and per closer, the completed calls, their objections by kind, the market
 * profile's competitors mentioned, the pains stated, the next steps' follow-through and the
 * scorecard's scores, each number with the calls behind it; and each item's change between the last
 * two periods, the notable ones written as a sentence. One function for every door: the portal
 * (`GET /v1/client-portal/trends`), the assistant interface, the MCP tool `trends` and the daily
 * brief's `changes` (`ValueViews.dailyBrief`, over two rolling weeks).
 *
 * - A call counts in the period holding `calls.occurred_at` (its meeting's time, else its upload).
 * - Objections: the analysis's `objections` by `kind`; pains: the summary's needs of kind `pain`
 *   (the analysis stores no other list of pains); competitors: the stored mentions of the tenant's
 *   Competitors tracker (docs/trackers.md; kept in step with the market profile when the trackers
 *   are read, not here: this view reads what is stored).
 * - Next steps: said, and said with a due; kept and slipped by the deal timeline's rule
 *   (`DealTimeline.stepFollowThrough`, over every call of the call's deal), in the period of the
 *   call where the step was said. A call of no deal has no later call to keep its steps: its steps
 *   count as said (and dated), never kept nor slipped.
 * - Scores: the mean of the calls' overall score and of each dimension's score where assessed.
 *
 * At scale (issue 39: 100,000 calls in a tenant, every read within 100 ms) the view does not load
 * its calls. SQL sums them per period and closer from `calls.trend_facts` (migration 0025, read
 * from an index alone) with the newest TRENDS_CALL_IDS_MAX ids of each number; the team is the
 * closers' groups added up (averages from their sums and counts, rounded once; ids the newest of
 * theirs). Kept and slipped are counted in SQL too, per period and closer, from each call's due
 * days stored when its analysis was (`calls.trend_due_days`, migration 0027: chrono once per call,
 * lib/DueDates.ts) and each deal's next completed call; only a call whose days are not stored (a
 * result written another way) is read call by call, its dues read here by chrono.
 * The answer's shape did not change; what it carries did: each number lists at most 10 calls
 * (was 50), with `calls` / `n` counting them all. At 100,000 calls a number is hundreds or
 * thousands of calls; 50 ids under each of ~25 numbers per period and closer made a 6-week answer
 * 3 MB and a year's 6 MB, which no screen shows: ten are what a reader opens from a number, and the
 * calls list (filtered by closer and dates) is where the rest are read.
 */
import {
  type CallId,
  type ClientId,
  type CloserId,
  NotFound,
  type Sees,
  type TrendAverage,
  type TrendChange,
  type TrendCount,
  type TrendPeriod,
  type TrendPeriodType,
  type Trends as TrendsAnswer,
  type TrendsParams,
  TRENDS_CALL_IDS_MAX,
  TRENDS_PERIODS_MAX,
  ValidationFailed
} from "@callsight/api-spec"
import { Effect } from "effect"
import { DAY_MS, utcMonthStart, utcWeekStart } from "../lib/Time.js"
import { dueDateMemo, type StepState } from "./DealTimeline.js"
import {
  COUNT_METRICS,
  type GroupMetric,
  METRICS,
  SCORE_METRICS,
  type TrendGroupRow,
  TrendsQueries,
  type TrendStepGroupRow
} from "./TrendsQueries.js"

export const OBJECTION_KINDS = ["price", "budget", "timing", "authority", "need", "competitor"] as const
export const DIMENSIONS = ["discovery", "listening", "objection_handling", "value", "next_steps", "conversation_flow"] as const

/** A count's change is notable when it moves by at least this much… */
export const NOTABLE_MIN_CHANGE = 3
/** …and by at least this share of where it was (any rise from 0 by NOTABLE_MIN_CHANGE is). */
export const NOTABLE_MIN_RATIO = 0.5
/** An average's change is notable when it moves by at least this many points… */
export const NOTABLE_SCORE_POINTS = 10
/** …with at least this many scored calls on both sides. */
export const NOTABLE_SCORE_MIN_N = 3

/** One period of the answer: the calls in [from, to), named by the first day of its calendar period. */
export interface TrendWindow {
  readonly period_start: string
  readonly from: string
  readonly to: string
}

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The first instant (ms) of the period holding `ms` (UTC; weeks from Monday). */
export const periodStartMs = (ms: number, type: TrendPeriodType): number => {
  return type === "month" ? utcMonthStart(ms) : utcWeekStart(ms)
}

const nextStartMs = (startMs: number, type: TrendPeriodType): number => {
  return type === "week" ? startMs + 7 * DAY_MS : utcMonthStart(startMs, 1)
}

const previousStartMs = (startMs: number, type: TrendPeriodType): number =>
  type === "week" ? startMs - 7 * DAY_MS : periodStartMs(startMs - DAY_MS, "month")

const invalid = (loc: string, msg: string) => new ValidationFailed({ detail: [{ loc: ["query", loc], msg, type: "value_error" }] })

/**
 * The periods the parameters name, oldest first: with `since`, every period from the one holding
 * `since` to the one holding the last instant before `until` (the first and last clipped to them);
 * else the last `periods` periods, the last ending at `until` (default now). 422 for `since` not
 * before `until`, or more than TRENDS_PERIODS_MAX periods.
 */
export const trendWindows = (
  params: Pick<TrendsParams, "period" | "periods" | "since" | "until">,
  now: Date
): Effect.Effect<ReadonlyArray<TrendWindow>, ValidationFailed> => {
  const until = params.until === undefined ? now.getTime() : Date.parse(params.until)
  const type = params.period
  if (params.since !== undefined) {
    const since = Date.parse(params.since)
    if (since >= until) return Effect.fail(invalid("since", "must be before `until`"))
    const windows: Array<TrendWindow> = []
    for (let start = periodStartMs(since, type); start < until; start = nextStartMs(start, type)) {
      if (windows.length === TRENDS_PERIODS_MAX) {
        return Effect.fail(invalid("since", `spans more than ${TRENDS_PERIODS_MAX} ${type}s: narrow it, or ask by month`))
      }
      windows.push({
        period_start: ymd(start),
        from: new Date(Math.max(start, since)).toISOString(),
        to: new Date(Math.min(nextStartMs(start, type), until)).toISOString()
      })
    }
    return Effect.succeed(windows)
  }
  const starts: Array<number> = [periodStartMs(until - 1, type)]
  while (starts.length < params.periods) starts.unshift(previousStartMs(starts[0]!, type))
  return Effect.succeed(starts.map((start, i) => ({
    period_start: ymd(start),
    from: new Date(start).toISOString(),
    to: new Date(i === starts.length - 1 ? until : nextStartMs(start, type)).toISOString()
  })))
}

// ---------------------------------------------------------------------------------------------
// Counting

// ---------------------------------------------------------------------------------------------
// Changes

const KIND_LABEL: Record<string, string> = {
  price: "objections about price",
  budget: "objections about budget",
  timing: "objections about timing",
  authority: "objections about authority",
  need: "objections about need",
  competitor: "objections about a competitor"
}

/** Whether a count's move from `from` to `to` is notable (docs/trends.md). */
export const notableCount = (from: number, to: number): boolean => {
  const delta = Math.abs(to - from)
  return delta >= NOTABLE_MIN_CHANGE && (from === 0 || delta / from >= NOTABLE_MIN_RATIO)
}

/** Whether an average's move is notable: enough points, enough scored calls on both sides. */
export const notableAverage = (from: TrendAverage, to: TrendAverage): boolean =>
  from.average !== null && to.average !== null && from.n >= NOTABLE_SCORE_MIN_N && to.n >= NOTABLE_SCORE_MIN_N &&
  Math.abs(to.average - from.average) >= NOTABLE_SCORE_POINTS

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1))

/** The sentence of a change, e.g. "objections about price up from 3 to 9 this week". */
export const changeSentence = (label: string, from: number | null, to: number | null, when: string): string => {
  if (from === null && to === null) return `${label}: none ${when}`
  if (from === null) return `${label} ${fmt(to!)} ${when} (none the period before)`
  if (to === null) return `${label}: none ${when} (${fmt(from)} the period before)`
  if (from === to) return `${label} unchanged at ${fmt(to)} ${when}`
  return `${label} ${to > from ? "up" : "down"} from ${fmt(from)} to ${fmt(to)} ${when}`
}

type Item = Omit<TrendChange, "sentence" | "direction" | "notable"> & { readonly notable: boolean; readonly magnitude: number }

const countItem = (metric: TrendChange["metric"], key: string | null, label: string, from: TrendCount, to: TrendCount): Item | null =>
  from.count === 0 && to.count === 0
    ? null
    : {
      metric,
      key,
      label,
      from: from.count,
      to: to.count,
      notable: notableCount(from.count, to.count),
      magnitude: Math.abs(to.count - from.count),
      from_call_ids: from.call_ids,
      to_call_ids: to.call_ids
    }

const averageItem = (metric: TrendChange["metric"], key: string | null, label: string, from: TrendAverage, to: TrendAverage): Item | null =>
  from.average === null && to.average === null
    ? null
    : {
      metric,
      key,
      label,
      from: from.average,
      to: to.average,
      notable: notableAverage(from, to),
      magnitude: from.average === null || to.average === null ? 0 : Math.abs(to.average - from.average),
      from_call_ids: from.call_ids,
      to_call_ids: to.call_ids
    }

const EMPTY: TrendCount = { count: 0, calls: 0, call_ids: [] }

/**
 * Each item's change from the period before the last to the last: notable ones first (the largest
 * move first), then the others in the order of the answer; items at 0 (or unscored) on both sides
 * are left out. `when` ends each sentence ("this week", "in the week of 2026-11-30").
 */
export const changesOf = (periods: ReadonlyArray<TrendPeriod>, when: string): Array<TrendChange> => {
  if (periods.length < 2) return []
  const a = periods.at(-2)!
  const b = periods.at(-1)!
  const items: Array<Item | null> = [
    countItem("calls", null, "calls", a.calls, b.calls),
    countItem("objections", null, "objections", a.objections, b.objections),
    ...OBJECTION_KINDS.map((kind) =>
      countItem("objection_kind", kind, KIND_LABEL[kind]!, a.objections_by_kind.find((k) => k.kind === kind) ?? EMPTY, b.objections_by_kind.find((k) => k.kind === kind) ?? EMPTY)),
    countItem("competitors", null, "competitor mentions", a.competitors, b.competitors),
    ...[...new Set([...b.competitors_by_term, ...a.competitors_by_term].map((t) => t.term))].map((term) =>
      countItem("competitor", term, `mentions of ${term}`, a.competitors_by_term.find((t) => t.term === term) ?? EMPTY, b.competitors_by_term.find((t) => t.term === term) ?? EMPTY)),
    countItem("pains", null, "pains stated", a.pains, b.pains),
    countItem("next_steps_said", null, "next steps said", a.next_steps.said, b.next_steps.said),
    countItem("next_steps_dated", null, "next steps with a date", a.next_steps.dated, b.next_steps.dated),
    a.next_steps.kept === null || b.next_steps.kept === null
      ? null
      : countItem("next_steps_kept", null, "next steps kept", a.next_steps.kept, b.next_steps.kept),
    a.next_steps.slipped === null || b.next_steps.slipped === null
      ? null
      : countItem("next_steps_slipped", null, "next steps slipped", a.next_steps.slipped, b.next_steps.slipped),
    averageItem("overall_score", null, "the average score", a.overall_score, b.overall_score),
    ...DIMENSIONS.map((dimension) =>
      averageItem("dimension", dimension, `the average ${dimension.replace(/_/g, " ")} score`, a.dimensions.find((d) => d.dimension === dimension)!, b.dimensions.find((d) => d.dimension === dimension)!))
  ]
  const present = items.filter((i): i is Item => i !== null).map((item, order) => ({ item, order }))
  present.sort((x, y) =>
    Number(y.item.notable) - Number(x.item.notable) || (x.item.notable ? y.item.magnitude - x.item.magnitude : 0) || x.order - y.order)
  // written field by field (a rest and a spread made two objects of each, ~1 MB a year's read)
  return present.map(({ item }) => ({
    metric: item.metric,
    key: item.key,
    label: item.label,
    from: item.from,
    to: item.to,
    notable: item.notable,
    from_call_ids: item.from_call_ids,
    to_call_ids: item.to_call_ids,
    direction: item.from === null || item.to === null ? "unknown" : item.to > item.from ? "up" : item.to < item.from ? "down" : "same",
    sentence: changeSentence(item.label, item.from, item.to, when)
  }))
}

/** How a change's sentence ends: "this week" when the last period ends now, else the period named. */
export const periodPhrase = (type: TrendPeriodType, last: TrendWindow, current: boolean): string =>
  current ? `this ${type}` : type === "week" ? `in the week of ${last.period_start}` : `in ${last.period_start.slice(0, 7)}`

// ---------------------------------------------------------------------------------------------
// The view

/**
 * A step's state by the deal timeline's rule (`stepFollowThrough`) from its call's meeting and the
 * deal's next completed call after it (`next_at`, ms): kept when that call took place before the
 * deadline (the end of the day after the due), slipped when the deadline passed with none.
 */
const stepState = (due: string, meetingAt: string, nextAt: number | null, now: number): StepState => {
  const day = dueDateMemo(due, meetingAt)
  if (day === null) return "undated"
  const deadline = Date.parse(`${day}T00:00:00Z`) + 2 * DAY_MS
  return nextAt !== null && nextAt < deadline ? "kept" : now >= deadline ? "slipped" : "open"
}

/**
 * A number summed over groups: the sum, its calls, and its newest ids (at most TRENDS_CALL_IDS_MAX,
 * newest first) with their times (ms), in two arrays kept in order as they are added: a team's
 * number meets ~25 closers' ten ids each, and gathering them all as pairs to sort each list once
 * cost a pair per id and a sort per number (of a 1 MB answer's ~40,000 ids).
 */
interface Acc {
  sum: number
  calls: number
  readonly ids: Array<string>
  readonly times: Array<number>
}
export const acc = (): Acc => ({ sum: 0, calls: 0, ids: [], times: [] })
/** Whether the call of (`ms`, `id`) comes first, newest first: the later time, then the larger id. */
const before = (ms: number, id: string, otherMs: number, otherId: string) => ms > otherMs || (ms === otherMs && id > otherId)
/**
 * `id` kept among the number's newest ids when it is one of them, in its place: the older ids move
 * down one place in the two arrays (the oldest falls off a full list). Shifted in place: `splice`
 * made a new array at each call, most of a year's read's garbage (a quarter of its allocations).
 */
export const keepNewest = (into: Acc, ms: number, id: string) => {
  const { ids, times } = into
  let i = ids.length
  if (i === TRENDS_CALL_IDS_MAX) {
    if (!before(ms, id, times[i - 1]!, ids[i - 1]!)) return
    i-- // the oldest is written over
  } else {
    ids.push(id)
    times.push(ms)
  }
  for (; i > 0 && before(ms, id, times[i - 1]!, ids[i - 1]!); i--) {
    ids[i] = ids[i - 1]!
    times[i] = times[i - 1]!
  }
  ids[i] = id
  times[i] = ms
}
/** A group row's bits of its metrics (`METRICS`). */
const METRICS_BITS = 2 ** METRICS.length - 1
const addMetric = (into: Acc, m: GroupMetric) => {
  into.sum += m[0]
  into.calls += m[1]
  for (let i = 0; i < m[2].length; i++) keepNewest(into, m[3][i]!, m[2][i]!)
}
const idsOf = (a: Acc) => a.ids as Array<CallId>
const countOut = (a: Acc | undefined): TrendCount =>
  a === undefined ? { count: 0, calls: 0, call_ids: [] } : { count: a.sum, calls: a.calls, call_ids: idsOf(a) }
const averageOut = (a: Acc | undefined): TrendAverage =>
  a === undefined || a.calls === 0
    ? { average: null, n: 0, call_ids: [] }
    : { average: Math.round((a.sum / a.calls) * 10) / 10, n: a.calls, call_ids: idsOf(a) }

/** One period of one scope, summed from its groups (a closer's: one group; the team's: every closer's). */
class PeriodAcc {
  /** The groups' metrics in the order of the calls' bits (`COUNT_METRICS`, then `SCORE_METRICS`), made at the first group. */
  private metrics: Array<Acc> | undefined
  readonly terms = new Map<string, Acc>()
  competitors: Acc | undefined
  /** The call of the lowest overall score (a closer's period: one group). */
  lowest: string | null = null
  kept: Acc | undefined
  slipped: Acc | undefined
  private at(map: Map<string, Acc>, key: string) {
    const found = map.get(key)
    if (found !== undefined) return found
    const made = acc()
    map.set(key, made)
    return made
  }
  addGroup(g: TrendGroupRow) {
    const metrics = (this.metrics ??= METRICS.map(acc))
    for (let k = 0; k < COUNT_METRICS.length; k++) {
      metrics[k]!.sum += g.counts[k]![0]
      metrics[k]!.calls += g.counts[k]![1]
    }
    for (let k = 0; k < SCORE_METRICS.length; k++) {
      metrics[COUNT_METRICS.length + k]!.sum += g.scores[k]![0]
      metrics[COUNT_METRICS.length + k]!.calls += g.scores[k]![1]
    }
    for (let j = 0; j < g.ids.length; j++) {
      // the metrics' bits only (a group of one row keeps its steps' bits past them)
      for (let k = 0, bits = g.metrics[j]! & METRICS_BITS; bits !== 0; k++, bits >>>= 1) {
        if ((bits & 1) === 1) keepNewest(metrics[k]!, g.times[j]!, g.ids[j]!)
      }
    }
  }
  addMentions(term: string | null, m: GroupMetric) {
    if (term === null) addMetric(this.competitors ??= acc(), m)
    else addMetric(this.at(this.terms, term), m)
  }
  addStepGroup(g: TrendStepGroupRow) {
    if (g.kept[1] > 0) addMetric(this.kept ??= acc(), g.kept)
    if (g.slipped[1] > 0) addMetric(this.slipped ??= acc(), g.slipped)
  }
  addStep(which: "kept" | "slipped", ms: number, callId: string, n: number) {
    const a = which === "kept" ? (this.kept ??= acc()) : (this.slipped ??= acc())
    a.sum += n
    a.calls += 1
    keepNewest(a, ms, callId)
  }
  out(window: TrendWindow): TrendPeriod {
    const count = (m: (typeof COUNT_METRICS)[number]) => countOut(this.metrics?.[COUNT_METRICS.indexOf(m)])
    const score = (m: (typeof SCORE_METRICS)[number]) => averageOut(this.metrics?.[COUNT_METRICS.length + SCORE_METRICS.indexOf(m)])
    return {
      period_start: window.period_start,
      from: window.from,
      to: window.to,
      calls: count("calls"),
      objections: count("objections"),
      objections_by_kind: OBJECTION_KINDS.map((kind) => ({ kind, ...count(kind) })),
      competitors: countOut(this.competitors),
      competitors_by_term: [...this.terms.entries()]
        .sort((a, b) => b[1].sum - a[1].sum || a[0].localeCompare(b[0]))
        .map(([term, t]) => ({ term, ...countOut(t) })),
      pains: count("pains"),
      next_steps: { said: count("said"), dated: count("dated"), kept: countOut(this.kept), slipped: countOut(this.slipped) },
      overall_score: score("overall"),
      dimensions: DIMENSIONS.map((dimension) => ({ dimension, ...score(dimension) }))
    }
  }
}

export interface TrendScope {
  readonly periods: ReadonlyArray<TrendPeriod>
  readonly changes: ReadonlyArray<TrendChange>
}

export class Trends extends Effect.Service<Trends>()("Trends", {
  effect: Effect.gen(function* () {
    const queries = yield* TrendsQueries

    /**
     * The periods of the calls `sees` sees (and `closerEmail`, when given), for the team and per
     * closer (by e-mail, any case; calls without one together), with the changes between the last
     * two windows, their sentences ending with `when`. Counted in SQL per period and closer (one
     * row each, with the newest TRENDS_CALL_IDS_MAX calls of each number); the team's numbers are
     * the closers' summed, its calls the newest of theirs. `closers: false` leaves the closers'
     * scopes out and has SQL group by period alone (the team's numbers are the same).
     */
    const scopes = Effect.fn("Trends.scopes")(function* (
      clientId: ClientId,
      sees: Sees,
      windows: ReadonlyArray<TrendWindow>,
      closerEmail: string | null,
      when: string,
      options: { readonly closers: boolean } = { closers: true }
    ) {
      if (windows.length === 0) return { team: { periods: [], changes: [] } as TrendScope, closers: [] }
      const now = Date.now()
      const request = {
        clientId,
        sees,
        from: windows[0]!.from,
        to: windows.at(-1)!.to,
        closerEmail,
        windows: JSON.stringify(windows.map((w) => [w.from, w.to])),
        max: TRENDS_CALL_IDS_MAX,
        byCloser: options.closers,
        now: new Date(now).toISOString()
      }
      // the days written since they were summed, summed again before they are read
      const settled = yield* queries.settle(request)
      const [groups, mentions, stepGroups, steps] = yield* Effect.all(
        [queries.groups(settled), queries.mentionGroups(settled), queries.stepGroups(settled), queries.steps(settled)],
        { concurrency: 4 }
      )
      const team = windows.map(() => new PeriodAcc())
      const byCloser = new Map<string | null, { email: string | null; newest: number; periods: Array<PeriodAcc> }>()
      const closerOf = (ck: string | null) => {
        const found = byCloser.get(ck)
        if (found !== undefined) return found
        const made = { email: null as string | null, newest: -Infinity, periods: windows.map(() => new PeriodAcc()) }
        byCloser.set(ck, made)
        return made
      }
      for (const g of groups) {
        team[g.p]!.addGroup(g)
        const closer = closerOf(g.ck)
        closer.periods[g.p]!.addGroup(g)
        closer.periods[g.p]!.lowest = g.lowest_call_id
        // the e-mail as the closer's newest call spells it
        if (g.newest_ms > closer.newest) {
          closer.newest = g.newest_ms
          closer.email = g.closer_email
        }
      }
      for (const m of mentions) {
        team[m.p]!.addMentions(m.term, m.metric)
        byCloser.get(m.ck)?.periods[m.p]!.addMentions(m.term, m.metric)
      }
      for (const g of stepGroups) {
        team[g.p]!.addStepGroup(g)
        byCloser.get(g.ck)?.periods[g.p]!.addStepGroup(g)
      }
      // the calls whose days are not stored: their dues read here (chrono, remembered), newest first
      // (the query's order); each number's ids are sorted again when they are written out
      for (const r of steps) {
        let k = 0
        let s = 0
        for (const due of r.dues) {
          const state = stepState(due, r.occurred_at, r.next_at, now)
          if (state === "kept") k++
          else if (state === "slipped") s++
        }
        const ms = Date.parse(r.occurred_at)
        const closer = byCloser.get(r.ck)
        if (k > 0) {
          team[r.p]!.addStep("kept", ms, r.call_id, k)
          closer?.periods[r.p]!.addStep("kept", ms, r.call_id, k)
        }
        if (s > 0) {
          team[r.p]!.addStep("slipped", ms, r.call_id, s)
          closer?.periods[r.p]!.addStep("slipped", ms, r.call_id, s)
        }
      }
      const scopeOf = (periods: ReadonlyArray<PeriodAcc>): TrendScope => {
        const out = windows.map((w, i) => periods[i]!.out(w))
        return { periods: out, changes: changesOf(out, when) }
      }
      const closerKeys = options.closers
        ? [...byCloser.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
        : []
      return {
        team: scopeOf(team),
        closers: closerKeys.map((key) => {
          const closer = byCloser.get(key)!
          return { key, email: closer.email, scope: scopeOf(closer.periods), lowest: closer.periods.map((p) => p.lowest) }
        })
      }
    })

    /** The answer of `GET /v1/client-portal/trends` (and the assistant's, the MCP tool's) for the calls `sees` sees. */
    const compute = Effect.fn("Trends.compute")(function* (clientId: ClientId, sees: Sees, params: TrendsParams) {
      const now = new Date()
      const windows = yield* trendWindows(params, now)
      const closers = yield* queries.closers(clientId)
      let closerEmail = params.closer_email ?? null
      if (params.closer_id !== undefined) {
        const closer = closers.find((c) => c.closer_id === params.closer_id)
        if (closer === undefined) return yield* new NotFound({ message: `no closer ${params.closer_id}` })
        if (closerEmail !== null && closerEmail.toLowerCase() !== closer.email.toLowerCase()) {
          return yield* invalid("closer_email", "names another closer than `closer_id`")
        }
        closerEmail = closer.email
      }
      const current = params.until === undefined || Date.parse(params.until) >= now.getTime()
      const when = periodPhrase(params.period, windows.at(-1)!, current)
      const { team, closers: scoped } = yield* scopes(clientId, sees, windows, closerEmail, when)
      const byEmail = new Map(closers.map((c) => [c.email.toLowerCase(), c]))
      return {
        period: params.period,
        from: windows[0]!.from,
        to: windows.at(-1)!.to,
        follow_through: "deal_timeline",
        team,
        closers: scoped.map(({ email, key, scope }) => {
          const closer = key === null ? undefined : byEmail.get(key)
          return {
            closer_id: (closer?.closer_id ?? null) as CloserId | null,
            closer_email: closer?.email ?? email,
            full_name: closer?.full_name ?? null,
            ...scope
          }
        }),
        generated_at: now.toISOString()
      } satisfies TrendsAnswer
    })

    /**
     * The daily brief's changes: the notable ones of the team (a rep: their own calls) between two
     * rolling weeks, the 7 days before `end` and the 7 before those ("this week" in the sentences).
     */
    const weekChanges = Effect.fn("Trends.weekChanges")(function* (clientId: ClientId, sees: Sees, end: Date) {
      const at = (days: number) => new Date(end.getTime() - days * DAY_MS).toISOString()
      const windows: Array<TrendWindow> = [
        { period_start: at(14).slice(0, 10), from: at(14), to: at(7) },
        { period_start: at(7).slice(0, 10), from: at(7), to: end.toISOString() }
      ]
      const { team } = yield* scopes(clientId, sees, windows, null, "this week", { closers: false })
      return team.changes.filter((c) => c.notable)
    })

    return { compute, weekChanges, scopes } as const
  }),
  dependencies: [TrendsQueries.Default]
}) {}
