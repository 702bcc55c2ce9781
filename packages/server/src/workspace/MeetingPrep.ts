/**
 * The workspace's meeting-prep brief (spec 4.8; issue 16): the next meetings on the closers'
 * connected calendars, each with the buyer's last call and what to take from it. Like the other
 * briefs it answers `null` (200) when the tenant's `assistant.enabled` runtime flag is false
 * (default true), without reading a calendar. The calendars are the floor's `MeetingCalendars`
 * (the integrations implement it; `main.ts` provides it). Decisions where the spec is silent:
 *
 * - **Meetings.** Every closer of the tenant with a connected calendar or video tool
 *   (`connected`), their meetings starting in the next `PREP_DAYS` (7) days (`upcoming`: all-day
 *   and cancelled events left out), soonest first (then by closer e-mail and event id), at most
 *   `MEETINGS_LIMIT` (25). An event on two closers' calendars is listed for each: each prepares
 *   their own meeting. A calendar that cannot be read (`CalendarUnavailable`: tokens refused,
 *   provider unreachable) is left out of the brief with a warning in the log; the brief still
 *   answers with the others. At most `CALENDAR_CONCURRENCY` calendars are read at once.
 * - `title` is the event's title, `(no title)` when it has none; `closer_email` the calendar's
 *   closer; `attendees` the event's invitees' addresses in the calendar's order, each once (in
 *   any case), the closer left out (rooms and resources are never listed; a meeting of the video
 *   tool has none).
 * - **The buyer's last call** (`previous_call_id`). A call knows its buyers through its
 *   `external_call_id` when that is an e-mail address, the rule of the CRM outcome sync, and
 *   through its meeting's attendees (an upload's `attendees`, a recorded meeting's invitees; those
 *   at its closer's domain left out: `MeetingPrepRepo`). The previous call is the tenant's most recent completed call whose
 *   buyer is an attendee (same address, in any case); failing that, one whose buyer is at an
 *   attendee's e-mail domain (the same company), except the closer's own domain (colleagues) and
 *   public mail domains (`PUBLIC_MAIL`), where a domain says nothing of the company. Calls with
 *   any other external id (a CRM deal id, the recorder's `recorder:…`) and no attendees are linked
 *   to no meeting;
 *   matching by meeting titles was left out as too loose to trust. Another tenant's calls are
 *   never read. Without a previous call, the three lists below are empty.
 * - `talking_points`, from the previous call, in this order: its deal stage when the outcome
 *   truth has one (`deal stage: <stage>`); the pains the buyer named (the qualification elements
 *   `identify_pain`, `need` and `problem` with evidence: `pain they named: "<quote>"`); each next
 *   step agreed (`follow up on "<quote>"`, then ` (due <due>)` when said with one); each objection
 *   the closer explored (`<kind> objection raised last time: "<quote>"`).
 * - `open_questions`: each objection left unanswered (the analysis's response `other`:
 *   `<kind> objection left unanswered: "<quote>"`), each next step without a date
 *   (`no date agreed for "<quote>"`), each qualification element not touched on (score 0:
 *   `<element in words> not qualified yet`, e.g. `economic buyer not qualified yet`).
 * - `risks`: for an undecided deal (outcome none or `open`), the daily brief's reasons
 *   (`openDealRisk`, with the market profile's sales cycle): past the sales cycle, no next step
 *   agreed, objections not explored; for a lost deal, `the last deal with this buyer was lost`,
 *   then `: <reason>` when recorded. A won deal or no decision adds none.
 * - In every list the same text appears once.
 * - A rep (`sees` a closer, issue 36) gets only the meetings of their own calendar, each with their
 *   own last call with the buyer.
 */
import type { ClientId, MeetingPrep as MeetingPrepItem, MeetingPrepBrief, Sees } from "@callsight/api-spec"
import { Effect, Either } from "effect"
import { type CalendarEvent, type ConnectedCalendar, MeetingCalendars } from "../ports/MeetingCalendars.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"
import { sees } from "../tenancy/Sees.js"
import { ValueQueries } from "../views/ValueQueries.js"
import { openDealRisk } from "../views/ValueViews.js"
import { type BuyerCall, MeetingPrepRepo } from "./MeetingPrepRepo.js"

/** How far ahead the brief looks. */
export const PREP_DAYS = 7
/** The most meetings the brief lists. */
export const MEETINGS_LIMIT = 25
/** Calendars read at once. */
export const CALENDAR_CONCURRENCY = 4

/** Mail providers whose domain is shared by people of every company: no domain match on them. */
export const PUBLIC_MAIL = new Set([
  "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "msn.com", "yahoo.com", "ymail.com",
  "icloud.com", "me.com", "mac.com", "aol.com", "proton.me", "protonmail.com", "gmx.com", "gmx.de", "gmx.net",
  "web.de", "mail.com", "zoho.com", "yandex.com", "yandex.ru", "qq.com", "163.com"
])

/** The qualification elements that carry the buyer's pain (MEDDPICC, BANT, SPIN). */
const PAIN_ELEMENTS = new Set(["identify_pain", "need", "problem"])

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1)

const once = (texts: ReadonlyArray<string>): Array<string> => [...new Set(texts)]

/** The event's invitees each once (in any case), without the closer. */
const attendeesOf = (event: CalendarEvent, closerEmail: string): Array<string> => {
  const seen = new Set([closerEmail.trim().toLowerCase()])
  const attendees: Array<string> = []
  for (const a of event.attendees) {
    const key = a.trim().toLowerCase()
    if (key === "" || seen.has(key)) continue
    seen.add(key)
    attendees.push(a.trim())
  }
  return attendees
}

/** The addresses and company domains to look the buyer up by. */
const buyerKeys = (attendees: ReadonlyArray<string>, closerEmail: string) => {
  const own = domainOf(closerEmail.trim().toLowerCase())
  const emails = attendees.map((a) => a.toLowerCase()).filter((a) => EMAIL.test(a))
  const domains = once(emails.map(domainOf).filter((d) => d !== own && !PUBLIC_MAIL.has(d)))
  return { emails, domains }
}

/** The most recent of the calls (by completion, then call id). */
const latest = (calls: ReadonlyArray<BuyerCall>): BuyerCall | undefined =>
  calls.reduce<BuyerCall | undefined>(
    (best, c) =>
      best === undefined || c.completed_at > best.completed_at || (c.completed_at === best.completed_at && c.call_id > best.call_id)
        ? c
        : best,
    undefined
  )

/** The buyer's last call: an attendee's own, else one at an attendee's company domain. */
const previousCallOf = (keys: ReturnType<typeof buyerKeys>, calls: ReadonlyArray<BuyerCall>): BuyerCall | undefined =>
  latest(calls.filter((c) => keys.emails.includes(c.buyer))) ??
    latest(calls.filter((c) => keys.domains.includes(domainOf(c.buyer))))

const hasText = (s: string | null): s is string => s !== null && s.trim() !== ""

const talkingPointsOf = (call: BuyerCall): Array<string> => {
  const points: Array<string> = []
  if (hasText(call.stage)) points.push(`deal stage: ${call.stage.trim()}`)
  for (const e of call.qualification) {
    if (PAIN_ELEMENTS.has(e.element) && e.score > 0 && hasText(e.quote)) points.push(`pain they named: "${e.quote.trim()}"`)
  }
  for (const s of call.next_steps) {
    points.push(hasText(s.due) ? `follow up on "${s.quote}" (due ${s.due.trim()})` : `follow up on "${s.quote}"`)
  }
  for (const o of call.objections) {
    if (o.response !== "other") points.push(`${o.kind} objection raised last time: "${o.quote}"`)
  }
  return once(points)
}

const openQuestionsOf = (call: BuyerCall): Array<string> =>
  once([
    ...call.objections.filter((o) => o.response === "other").map((o) => `${o.kind} objection left unanswered: "${o.quote}"`),
    ...call.next_steps.filter((s) => !hasText(s.due)).map((s) => `no date agreed for "${s.quote}"`),
    ...call.qualification.filter((e) => e.score === 0).map((e) => `${e.element.replace(/_/g, " ")} not qualified yet`)
  ])

const risksOf = (call: BuyerCall, salesCycleDays: number | null): Array<string> => {
  if (call.outcome === null || call.outcome === "open") {
    return once(openDealRisk({
      outcome: call.outcome,
      age_days: call.age_days,
      next_steps: call.next_steps.length,
      unexplored_objections: call.objections.filter((o) => o.response === "other").length
    }, salesCycleDays).reasons)
  }
  if (call.outcome === "lost") {
    return [hasText(call.reason) ? `the last deal with this buyer was lost: ${call.reason.trim()}` : "the last deal with this buyer was lost"]
  }
  return []
}

interface Upcoming {
  readonly calendar: ConnectedCalendar
  readonly event: CalendarEvent
}

export class MeetingPrep extends Effect.Service<MeetingPrep>()("MeetingPrep", {
  effect: Effect.gen(function* () {
    const calendars = yield* MeetingCalendars
    const repo = yield* MeetingPrepRepo
    const values = yield* ValueQueries
    const runtimeFlags = yield* RuntimeFlags

    /** A closer's meetings of the window; none, with a warning, when the calendar cannot be read. */
    const meetingsOf = (calendar: ConnectedCalendar, window: { readonly from: Date; readonly to: Date }) =>
      Effect.flatMap(Effect.either(calendars.upcoming(calendar, window)), (read) =>
        Either.isRight(read)
          ? Effect.succeed(read.right.map((event): Upcoming => ({ calendar, event })))
          : Effect.as(
            Effect.logWarning("meeting-prep brief: a calendar could not be read, its meetings are left out").pipe(
              Effect.annotateLogs({ client_id: calendar.clientId, closer_id: calendar.closerId, reason: read.left.message })
            ),
            []
          ))

    const compute = Effect.fn("MeetingPrep.brief")(function* (clientId: ClientId, seen: Sees) {
      const now = new Date()
      const window = { from: now, to: new Date(now.getTime() + PREP_DAYS * 86_400_000) }
      const connected = yield* calendars.connected(clientId)
      const read = yield* Effect.forEach(
        connected.filter((c) => c.clientId === clientId && sees(seen, c.closerEmail)),
        (calendar) => meetingsOf(calendar, window),
        { concurrency: CALENDAR_CONCURRENCY }
      )
      const upcoming = read.flat()
        .sort((a, b) =>
          a.event.startsAt.localeCompare(b.event.startsAt) ||
          a.calendar.closerEmail.localeCompare(b.calendar.closerEmail) ||
          a.event.eventId.localeCompare(b.event.eventId)
        )
        .slice(0, MEETINGS_LIMIT)
        .map((u) => {
          const attendees = attendeesOf(u.event, u.calendar.closerEmail)
          return { ...u, attendees, keys: buyerKeys(attendees, u.calendar.closerEmail) }
        })

      const emails = once(upcoming.flatMap((u) => u.keys.emails))
      const domains = once(upcoming.flatMap((u) => u.keys.domains))
      const [calls, settings] = yield* Effect.all([
        repo.lastCalls(clientId, seen, emails, domains),
        emails.length === 0 ? Effect.succeed(null) : Effect.orDie(values.settings(clientId))
      ])

      const meetings = upcoming.map(({ attendees, calendar, event, keys }): typeof MeetingPrepItem.Type => {
        const previous = previousCallOf(keys, calls)
        return {
          title: event.title !== null && event.title.trim() !== "" ? event.title : "(no title)",
          starts_at: event.startsAt,
          closer_email: calendar.closerEmail,
          attendees,
          previous_call_id: previous?.call_id ?? null,
          talking_points: previous === undefined ? [] : talkingPointsOf(previous),
          open_questions: previous === undefined ? [] : openQuestionsOf(previous),
          risks: previous === undefined ? [] : risksOf(previous, settings?.sales_cycle_days ?? null)
        }
      })
      return { client_id: clientId, meetings, generated_at: now.toISOString() } satisfies typeof MeetingPrepBrief.Type
    })

    /** The brief, or null when the tenant's assistant component is off. */
    const brief = (clientId: ClientId, seen: Sees) =>
      Effect.flatMap(runtimeFlags.forTenant(clientId), (flags) => (flags["assistant.enabled"] === false ? Effect.succeed(null) : compute(clientId, seen)))

    return { brief } as const
  }),
  dependencies: [MeetingPrepRepo.Default, ValueQueries.Default, RuntimeFlags.Default]
}) {}
