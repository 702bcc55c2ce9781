/**
 * Trackers (issue 38, item 2; docs/trackers.md): the tenant's named lists of words and phrases, the
 * mentions found in its calls, and the report that counts them.
 *
 * - **Matching** is `@callsight/analysis`'s (`text/Trackers.ts`: whole words, Porter2 stems,
 *   phrases, any case and diacritics). Mentions are stored (`tracker_mentions`), one row each: when a
 *   call's analysis completes (the worker, through `ports/CallTrackers.ts`) and, for the calls
 *   completed before, when a tracker is created or its terms change: a backfill of the newest
 *   `TRACKER_BACKFILL_CALLS` completed calls, in the request (older calls are left, and counted in
 *   `backfill.calls_left`).
 * - **The Competitors tracker** is the market profile's `competitors`, kept in step on read: every
 *   list and report first compares its terms with the profile's and, when they differ, saves the
 *   new terms and matches them again on the newest calls (the profile's save belongs to the portal,
 *   which does not know trackers). A completed call is matched against the trackers as they are:
 *   the worker does not wait on that re-matching, which the next read does, newest calls first. It is made the first time the profile names a competitor; it cannot be
 *   changed or deleted here (409): the profile is where its terms are changed.
 * - **The report** counts the stored mentions of the completed calls whose meeting took place in
 *   [from, to) (`occurred_at`, docs/deals.md) that the caller sees (a rep: their own calls,
 *   `Sees.ts`), per tracker, term, closer, deal and period; `deal_id` keeps one deal's calls.
 */
import {
  type CallId,
  type ClientId,
  Conflict,
  type CreateTrackerRequest,
  NotFound,
  type Sees,
  type Tracker,
  TrackerId,
  type TrackerReport,
  type UpdateTrackerRequest,
  ValidationFailed
} from "@callsight/api-spec"
import { compileTrackerTerms, findTrackerMentions, termWords } from "@callsight/analysis/light"
import { Effect, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { newId } from "../lib/Ids.js"
import { DAY_MS, utcWeekStart } from "../lib/Time.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import { type MentionRow, TrackersRepo } from "./TrackersRepo.js"

/** How many of the newest completed calls a backfill matches. */
export const TRACKER_BACKFILL_CALLS = 500
const BACKFILL_PAGE = 100
export const COMPETITORS_NAME = "Competitors"
/** At most this many call ids under a count. */
const CALL_IDS_MAX = 100

type Issue = { readonly loc: ReadonlyArray<string | number>; readonly msg: string; readonly type: string }

/** The key two terms share when they are one term: the same words in any case, quoted or not. */
const termKey = (term: string) => `${/^\s*".*"\s*$/s.test(term) ? "e" : "s"}:${termWords(term).join(" ")}`

/** The problems of a list of terms: a term with no word, a term given twice. */
const termIssues = (terms: ReadonlyArray<string>): Array<Issue> => {
  const issues: Array<Issue> = []
  const seen = new Map<string, number>()
  terms.forEach((term, i) => {
    if (termWords(term).length === 0) {
      issues.push({ loc: ["body", "terms", i], msg: "must hold at least one word (letters or digits)", type: "value_error" })
      return
    }
    const key = termKey(term)
    const first = seen.get(key)
    if (first !== undefined) {
      issues.push({ loc: ["body", "terms", i], msg: `is the same term as terms[${first}] ("${terms[first]}")`, type: "value_error" })
    } else seen.set(key, i)
  })
  return issues
}

/** The market profile's competitors as terms: trimmed, non-empty, at most 100, each once. */
const competitorTerms = (competitors: ReadonlyArray<string>): Array<string> => {
  const terms: Array<string> = []
  const seen = new Set<string>()
  for (const raw of competitors) {
    const term = raw.trim().slice(0, 80)
    if (termWords(term).length === 0 || seen.has(termKey(term))) continue
    seen.add(termKey(term))
    terms.push(term)
    if (terms.length === 100) break
  }
  return terms
}

const sameTerms = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((t, i) => t === b[i])

/** The first day (YYYY-MM-DD, UTC) of the period an instant is in; weeks start on Monday. */
export const periodStartOf = (iso: string, period: "day" | "week" | "month"): string => {
  const d = new Date(iso)
  if (period === "month") return `${d.toISOString().slice(0, 7)}-01`
  if (period === "day") return d.toISOString().slice(0, 10)
  return new Date(utcWeekStart(d.getTime())).toISOString().slice(0, 10)
}

/** An instant from the API's input (a date is its midnight UTC). */
const instant = (input: string) => new Date(Date.parse(input)).toISOString()

export interface ReportParams {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly period: "day" | "week" | "month"
  readonly tracker_id?: TrackerId | undefined
  readonly closer_email?: string | undefined
  readonly deal_id?: string | undefined
  readonly quotes: number
  readonly limit: number
  readonly cursor?: string | undefined
}

const quoteOf = (m: MentionRow) => ({
  call_id: m.call_id as CallId,
  tracker_id: m.tracker_id,
  term: m.term,
  speaker: m.speaker,
  role: m.role,
  start: m.start_s,
  matched: m.matched,
  quote: m.quote
})

/** A count being summed: its mentions, calls (in first-seen order: newest first) and quotes. */
class Tally {
  mentions = 0
  readonly calls: Array<string> = []
  private readonly seen = new Set<string>()
  readonly quotes: Array<MentionRow> = []
  constructor(private readonly maxQuotes: number) {}
  add(m: MentionRow) {
    this.mentions++
    if (!this.seen.has(m.call_id)) {
      this.seen.add(m.call_id)
      this.calls.push(m.call_id)
    }
    if (this.quotes.length < this.maxQuotes) this.quotes.push(m)
  }
  out() {
    return {
      mentions: this.mentions,
      calls: this.calls.length,
      call_ids: this.calls.slice(0, CALL_IDS_MAX) as Array<CallId>,
      quotes: this.quotes.map(quoteOf)
    }
  }
}

const tallyIn = <K>(map: Map<K, Tally>, key: K, quotes: number) => {
  const found = map.get(key)
  if (found !== undefined) return found
  const made = new Tally(quotes)
  map.set(key, made)
  return made
}

export class Trackers extends Effect.Service<Trackers>()("Trackers", {
  effect: Effect.gen(function* () {
    const repo = yield* TrackersRepo
    const audit = yield* AuditLog
    const transactions = yield* Transactions

    /** Matches one tracker on the newest completed calls, its earlier mentions replaced; answers the backfill's counts. */
    const backfill = (clientId: ClientId, tracker: Tracker) =>
      Effect.gen(function* () {
        yield* repo.clearMentions(tracker.tracker_id)
        const matcher = compileTrackerTerms(tracker.terms, { stem: tracker.kind !== "competitor" })
        const total = yield* repo.countCompleted(clientId)
        let matched = 0
        while (matched < Math.min(total, TRACKER_BACKFILL_CALLS)) {
          const page = yield* repo.transcripts(clientId, Math.min(BACKFILL_PAGE, TRACKER_BACKFILL_CALLS - matched), matched)
          if (page.length === 0) break
          for (const call of page) {
            const found = findTrackerMentions(matcher, call.turns)
            yield* repo.replaceMentions(tracker.tracker_id, clientId, call.call_id, found.map((m) => ({ ...m, role: call.roles.get(m.speaker) ?? null })))
          }
          matched += page.length
        }
        return { calls_matched: matched, calls_left: Math.max(0, total - matched) }
      })

    /** The Competitors tracker in step with the market profile: made, or its terms saved and matched again, when they differ. */
    const ensureCompetitors = (clientId: ClientId) =>
      Effect.gen(function* () {
        const terms = competitorTerms(yield* repo.competitors(clientId))
        const existing = (yield* repo.list(clientId)).find((t) => t.source === "market_profile")
        if (existing === undefined) {
          if (terms.length === 0) return
          // the name is the default's: a tenant's own tracker of that name keeps it, and this one is told apart by its source
          const taken = Option.isSome(yield* repo.nameTaken(clientId, COMPETITORS_NAME, ""))
          const made = yield* repo.insert({
            trackerId: newId("trk"),
            clientId,
            name: taken ? `${COMPETITORS_NAME} (market profile)` : COMPETITORS_NAME,
            kind: "competitor",
            terms,
            source: "market_profile"
          })
          if (Option.isSome(made)) yield* backfill(clientId, made.value)
          return
        }
        if (sameTerms(existing.terms, terms)) return
        const updated = yield* repo.update({ trackerId: existing.tracker_id, clientId, name: existing.name, kind: existing.kind, terms })
        if (Option.isSome(updated)) yield* backfill(clientId, updated.value)
      }).pipe(transactions.run)

    const list = Effect.fn("Trackers.list")(function* (clientId: ClientId) {
      yield* ensureCompetitors(clientId)
      return { trackers: yield* repo.list(clientId) }
    }, Effect.orDie)

    /** 422 for a name another tracker of the tenant has (any case), or the default's. */
    const checkName = (clientId: ClientId, name: string, except: string) =>
      Effect.gen(function* () {
        const reserved = name.toLowerCase() === COMPETITORS_NAME.toLowerCase()
        if (reserved || Option.isSome(yield* Effect.orDie(repo.nameTaken(clientId, name, except)))) {
          return yield* new ValidationFailed({
            detail: [{
              loc: ["body", "name"],
              msg: reserved ? `"${COMPETITORS_NAME}" is the default tracker's name (the market profile's competitors)` : "another tracker has this name",
              type: "value_error"
            }]
          })
        }
      })

    const checkTerms = (terms: ReadonlyArray<string>) => {
      const issues = termIssues(terms)
      return issues.length === 0 ? Effect.void : Effect.fail(new ValidationFailed({ detail: issues }))
    }

    const create = Effect.fn("Trackers.create")(function* (clientId: ClientId, actor: Actor, req: CreateTrackerRequest) {
      yield* checkTerms(req.terms)
      yield* checkName(clientId, req.name, "")
      return yield* transactions.run(
        Effect.gen(function* () {
          const made = yield* repo.insert({ trackerId: newId("trk"), clientId, name: req.name, kind: req.kind, terms: [...req.terms], source: "tenant" })
          if (Option.isNone(made)) {
            return yield* new ValidationFailed({ detail: [{ loc: ["body", "name"], msg: "another tracker has this name", type: "value_error" }] })
          }
          yield* audit.record(clientId, actor, {
            action: "tracker.created",
            targetType: "tracker",
            targetId: made.value.tracker_id,
            metadata: { name: req.name, kind: req.kind, terms: req.terms.length }
          })
          const filled = yield* backfill(clientId, made.value)
          return { tracker: made.value, backfill: filled }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    /** The tenant's tracker, or 404 (another tenant's is as missing). */
    const owned = (clientId: ClientId, trackerId: TrackerId) =>
      Effect.flatMap(Effect.orDie(repo.find(clientId, trackerId)), Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `no tracker ${trackerId}` })),
        onSome: Effect.succeed
      }))

    const fromProfile = (tracker: Tracker) =>
      tracker.source === "market_profile"
        ? Effect.fail(new Conflict({ message: "the Competitors tracker follows the market profile: change its competitors there" }))
        : Effect.void

    const update = Effect.fn("Trackers.update")(function* (clientId: ClientId, actor: Actor, trackerId: TrackerId, req: UpdateTrackerRequest) {
      const tracker = yield* owned(clientId, trackerId)
      yield* fromProfile(tracker)
      if (req.terms !== undefined) yield* checkTerms(req.terms)
      if (req.name !== undefined) yield* checkName(clientId, req.name, trackerId)
      const terms = req.terms === undefined ? tracker.terms : [...req.terms]
      return yield* transactions.run(
        Effect.gen(function* () {
          const saved = yield* repo.update({ trackerId, clientId, name: req.name ?? tracker.name, kind: req.kind ?? tracker.kind, terms })
          if (Option.isNone(saved)) return yield* new NotFound({ message: `no tracker ${trackerId}` })
          yield* audit.record(clientId, actor, {
            action: "tracker.updated",
            targetType: "tracker",
            targetId: trackerId,
            metadata: { name: saved.value.name, kind: saved.value.kind, terms: terms.length }
          })
          const filled = sameTerms(tracker.terms, terms)
            ? { calls_matched: 0, calls_left: 0 }
            : yield* backfill(clientId, saved.value)
          return { tracker: saved.value, backfill: filled }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    const remove = Effect.fn("Trackers.remove")(function* (clientId: ClientId, actor: Actor, trackerId: TrackerId) {
      const tracker = yield* owned(clientId, trackerId)
      yield* fromProfile(tracker)
      return yield* transactions.run(
        Effect.gen(function* () {
          const removed = yield* repo.remove(clientId, trackerId)
          if (Option.isNone(removed)) return yield* new NotFound({ message: `no tracker ${trackerId}` })
          yield* audit.record(clientId, actor, { action: "tracker.deleted", targetType: "tracker", targetId: trackerId, metadata: { name: tracker.name } })
          return removed.value
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
    })

    /** A completed call's mentions of every tracker of its tenant, written again. */
    const matchCall = Effect.fn("Trackers.matchCall")(function* (clientId: ClientId, callId: CallId) {
      const call = yield* repo.transcript(clientId, callId)
      if (call === null) return
      const trackers = yield* repo.list(clientId)
      yield* transactions.run(
        Effect.forEach(trackers, (tracker) =>
          repo.replaceMentions(
            tracker.tracker_id,
            clientId,
            call.call_id,
            findTrackerMentions(compileTrackerTerms(tracker.terms, { stem: tracker.kind !== "competitor" }), call.turns).map((m) => ({ ...m, role: call.roles.get(m.speaker) ?? null }))
          ), { discard: true })
      )
    }, Effect.orDie)

    const report = Effect.fn("Trackers.report")(function* (clientId: ClientId, sees: Sees, params: ReportParams) {
      yield* Effect.orDie(ensureCompetitors(clientId))
      const to = params.to === undefined ? new Date().toISOString() : instant(params.to)
      const from = params.from === undefined ? new Date(Date.parse(to) - 90 * DAY_MS).toISOString() : instant(params.from)
      if (Date.parse(from) >= Date.parse(to)) {
        return yield* new ValidationFailed({ detail: [{ loc: ["query", "from"], msg: "must be before `to`", type: "value_error" }] })
      }
      const offset = params.cursor === undefined ? 0 : Number(params.cursor)
      if (!Number.isSafeInteger(offset) || offset < 0 || String(offset) !== params.cursor && params.cursor !== undefined) {
        return yield* new ValidationFailed({ detail: [{ loc: ["query", "cursor"], msg: "is not a cursor of this report", type: "value_error" }] })
      }
      const all = yield* Effect.orDie(repo.list(clientId))
      const trackers = params.tracker_id === undefined ? all : all.filter((t) => t.tracker_id === params.tracker_id)
      if (params.tracker_id !== undefined && trackers.length === 0) {
        return yield* new NotFound({ message: `no tracker ${params.tracker_id}` })
      }
      const rows = yield* Effect.orDie(repo.mentions({
        clientId,
        sees,
        from,
        to,
        trackerId: params.tracker_id ?? null,
        closerEmail: params.closer_email ?? null,
        dealId: params.deal_id ?? null
      }))
      const q = params.quotes
      const byTracker = new Map<string, {
        all: Tally
        terms: Map<string, Tally>
        closers: Map<string | null, Tally>
        deals: Map<string, Tally>
        periods: Map<string, Tally>
      }>()
      for (const t of trackers) {
        byTracker.set(t.tracker_id, {
          all: new Tally(q),
          terms: new Map(t.terms.map((term) => [term, new Tally(q)])),
          closers: new Map(),
          deals: new Map(),
          periods: new Map()
        })
      }
      interface CallTally {
        readonly row: MentionRow
        mentions: number
        readonly terms: Map<string, { tracker_id: TrackerId; term: string; mentions: number }>
        readonly quotes: Array<MentionRow>
      }
      const calls = new Map<string, CallTally>()
      for (const m of rows) {
        const t = byTracker.get(m.tracker_id)
        if (t === undefined) continue
        t.all.add(m)
        tallyIn(t.terms, m.term, q).add(m)
        tallyIn(t.closers, m.closer_email === null ? null : m.closer_email.toLowerCase(), q).add(m)
        if (m.deal_id !== null) tallyIn(t.deals, m.deal_id, q).add(m)
        tallyIn(t.periods, periodStartOf(m.meeting_at, params.period), q).add(m)
        const call: CallTally = calls.get(m.call_id) ?? { row: m, mentions: 0, terms: new Map(), quotes: [] }
        calls.set(m.call_id, call)
        call.mentions++
        const key = `${m.tracker_id}\u0000${m.term}`
        const term = call.terms.get(key) ?? { tracker_id: m.tracker_id, term: m.term, mentions: 0 }
        call.terms.set(key, term)
        term.mentions++
        if (call.quotes.length < q) call.quotes.push(m)
      }
      const byMentions = <K>(map: Map<K, Tally>) => [...map.entries()].sort((a, b) => b[1].mentions - a[1].mentions)
      const callList = [...calls.values()]
      const page = callList.slice(offset, offset + params.limit)
      const answer: TrackerReport = {
        from,
        to,
        period: params.period,
        trackers: trackers.map((t) => {
          const tally = byTracker.get(t.tracker_id)!
          return {
            tracker_id: t.tracker_id,
            name: t.name,
            kind: t.kind,
            ...tally.all.out(),
            terms: byMentions(tally.terms).map(([term, c]) => ({ term, ...c.out() })),
            closers: byMentions(tally.closers).map(([closer_email, c]) => ({ closer_email, ...c.out() })),
            deals: byMentions(tally.deals).map(([deal_id, c]) => ({ deal_id, ...c.out() })),
            periods: [...tally.periods.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([period_start, c]) => ({ period_start, ...c.out() }))
          }
        }),
        calls: page.map((c) => ({
          call_id: c.row.call_id as CallId,
          closer_email: c.row.closer_email,
          external_call_id: c.row.external_call_id,
          created_at: c.row.created_at,
          meeting_at: c.row.meeting_at,
          deal_id: c.row.deal_id,
          mentions: c.mentions,
          trackers: [...c.terms.values()],
          quotes: c.quotes.map(quoteOf)
        })),
        next_cursor: offset + params.limit < callList.length ? String(offset + params.limit) : null
      }
      return answer
    })

    return { list, create, update, remove, matchCall, report, syncCompetitors: ensureCompetitors } as const
  }),
  dependencies: [TrackersRepo.Default, AuditLog.Default, Transactions.Default]
}) {}
