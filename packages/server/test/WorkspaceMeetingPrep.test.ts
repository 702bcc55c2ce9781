/**
 * The workspace's meeting-prep brief (spec 4.8) end to end: the in-process server with local
 * calendar providers (test/utils/MeetingProviders.ts), the closers' calendars connected through
 * the service's own OAuth flow, and calls seeded in the database with their buyer's address as
 * external id. Checked: the meetings of the next 7 days soonest first (past and later ones left
 * out), the closer and the attendees (the closer, rooms and repeats left out), the buyer's last
 * completed call (the attendee's own first, else one at the attendee's company domain; never the
 * closer's own domain nor a public mail domain), talking points, open questions and risks from
 * that call's analysis and outcome; a calendar that cannot be read left out while the others
 * answer; another tenant's calls never matched; null (200) when `assistant.enabled` is false; 401
 * without a session.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { setFlags } from "./utils/AudioRequests.js"
import { connectCalendar as connectTo, type GoogleEvent, type MeetingProviders, startMeetingProviders } from "./utils/MeetingProviders.js"
import { call, freshEmail, memberSession, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

class Env extends Context.Tag("test/MeetingPrepEnv")<Env, { readonly providers: MeetingProviders }>() {}

const BRIEF = "/v1/workspace/meeting-prep-brief"

const server = Layer.unwrapScoped(Effect.gen(function* () {
  const providers = yield* startMeetingProviders
  // the mock's access tokens are JWTs of the second they are issued in: several closers connected
  // within one second would share one; an id of its own keeps each calendar's token apart
  providers.calendar.server.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    token.payload["jti"] = randomUUID()
  })
  return Layer.mergeAll(serverWithSmtp(providers.config), Layer.succeed(Env, { providers }))
}))

/** A closer of the tenant, added by its owner. */
const addCloser = (session: string) =>
  Effect.gen(function* () {
    const added = yield* call("POST", "/v1/client-portal/closers", { session, body: { email: freshEmail("closer"), full_name: "Ada Closer" } })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    return { closerId: added.body.closer_id as string, email: added.body.email as string }
  })

/** Connects the closer's calendar (utils/MeetingProviders.ts); the events on it are `events`. Its access token. */
const connectCalendar = (session: string, closerId: string, events: Array<GoogleEvent>) =>
  Effect.flatMap(Env, ({ providers }) => connectTo(providers, session, closerId, events))

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3600_000).toISOString()

let seq = 0

/** A calendar event as Google lists it, `start` hours from now, an hour long, with these invitees. */
const event = (start: number, summary: string | null, attendees: ReadonlyArray<string | Record<string, unknown>> = []): GoogleEvent => ({
  id: `prep${seq++}x${Date.now()}`,
  status: "confirmed",
  ...(summary === null ? {} : { summary }),
  start: { dateTime: hoursFromNow(start) },
  end: { dateTime: hoursFromNow(start + 1) },
  ...(attendees.length === 0
    ? {}
    : { attendees: attendees.map((a) => (typeof a === "string" ? { email: a, responseStatus: "accepted" } : a)) })
})

/**
 * A call of the tenant with this external id (the buyer's address), completed `daysAgo` days ago,
 * its analysis carrying these objections, next steps and qualification elements, and its outcome
 * truth when given.
 */
const seedBuyerCall = (clientId: string, options: {
  readonly buyer: string
  readonly daysAgo: number
  readonly status?: "completed" | "queued"
  readonly objections?: ReadonlyArray<readonly [kind: string, response: string, quote: string]>
  readonly nextSteps?: ReadonlyArray<readonly [quote: string, due: string | null]>
  readonly qualification?: ReadonlyArray<readonly [element: string, score: number, quote: string | null]>
  readonly outcome?: { readonly outcome: string; readonly stage?: string; readonly reason?: string }
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_prep_${Date.now()}_${seq++}`
    const status = options.status ?? "completed"
    const result = status === "queued" ? null : JSON.stringify({
      scorecard: { overall: 70, dimensions: [] },
      transcript: [],
      objections: (options.objections ?? []).map(([kind, response, quote], i) => ({ kind, at: i, quote, response, response_pause_s: null })),
      next_steps: (options.nextSteps ?? []).map(([quote, due], i) => ({ at: 100 + i, quote, owner: null, due })),
      qualification: options.qualification === undefined ? null : {
        framework: "MEDDPICC",
        elements: options.qualification.map(([element, score, quote]) => ({
          element,
          score,
          evidence: quote === null ? null : { dimension: "qualification", start: 1, end: 2, speaker: "B", quote, effect: score }
        }))
      }
    })
    yield* sql`
      INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                         created_at, completed_at, result)
      VALUES (${callId}, ${clientId}, ${options.buyer}, 'someone@acme.test', ${status}, 'wav', ${`blob/${callId}`}, 1, 'x',
              now() - make_interval(days => ${options.daysAgo}) - interval '1 hour',
              CASE WHEN ${status} = 'completed' THEN now() - make_interval(days => ${options.daysAgo}) END, ${result}::jsonb)`
    const o = options.outcome
    if (o !== undefined) {
      yield* sql`INSERT INTO outcome_truth (call_id, client_id, outcome, stage, reason)
                 VALUES (${callId}, ${clientId}, ${o.outcome}, ${o.stage ?? null}, ${o.reason ?? null})`
    }
    return callId
  }).pipe(Effect.orDie)

describe("workspace meeting-prep brief", () => {
  layer(server, { excludeTestServices: true, timeout: 120_000 })("with local calendar providers", (it) => {
    it.effect("the next meetings with the buyer's last call, talking points, open questions and risks; a failing calendar skipped; tenants apart", () =>
      Effect.gen(function* () {
        const { providers } = yield* Env
        const sql = yield* SqlClient.SqlClient
        const acme = yield* newTenant("Acme")
        const other = yield* newTenant("Umbrella")
        yield* sql`INSERT INTO market_profiles (client_id, profile) VALUES (${acme.clientId}, ${JSON.stringify({ sales_cycle_days: 14 })}::jsonb)`.pipe(Effect.orDie)
        const ada = yield* addCloser(acme.session)
        const bo = yield* addCloser(acme.session)

        // Globex: the attendee's own calls (the newer completed one wins; a queued one is not a call yet),
        // before a newer call of a colleague of theirs
        yield* seedBuyerCall(acme.clientId, { buyer: "buyer@globex.test", daysAgo: 10, nextSteps: [["old step", null]] })
        const globexCall = yield* seedBuyerCall(acme.clientId, {
          buyer: " Buyer@Globex.test ",
          daysAgo: 3,
          objections: [["price", "question_back", "that is a lot of money"], ["authority", "other", "I need to ask my boss"]],
          nextSteps: [["send the security review", "Friday"], ["book a demo for the team", null]],
          qualification: [["identify_pain", 2, "our reps lose deals at pricing"], ["economic_buyer", 0, null], ["metrics", 1, "about ten percent"]],
          outcome: { outcome: "open", stage: "proposal" }
        })
        yield* seedBuyerCall(acme.clientId, { buyer: "cfo@globex.test", daysAgo: 1 })
        yield* seedBuyerCall(acme.clientId, { buyer: "buyer@globex.test", daysAgo: 0, status: "queued" })
        // Initech: no call of the attendee, one of a colleague of theirs, open past the sales cycle
        const initechCall = yield* seedBuyerCall(acme.clientId, {
          buyer: "ops@initech.test", daysAgo: 20, objections: [["timing", "pause", "not this quarter"]], outcome: { outcome: "open" }
        })
        // Hooli: the buyer's deal was lost
        const hooliCall = yield* seedBuyerCall(acme.clientId, {
          buyer: "pm@hooli.test", daysAgo: 8, nextSteps: [["call back in spring", "March"]], outcome: { outcome: "lost", reason: "went with a competitor" }
        })
        // addresses that must not link a meeting by domain: a public mail domain, the closer's own company
        yield* seedBuyerCall(acme.clientId, { buyer: "other@gmail.com", daysAgo: 1 })
        yield* seedBuyerCall(acme.clientId, { buyer: "someone@acme.test", daysAgo: 1 })
        // another tenant's call of the Initech attendee, newer: never Acme's
        const theirCall = yield* seedBuyerCall(other.clientId, { buyer: "ceo@initech.test", daysAgo: 1, nextSteps: [["sign", "Monday"]] })

        yield* connectCalendar(acme.session, ada.closerId, [
          event(48, "Globex renewal", [
            ada.email.toUpperCase(),
            "Buyer@Globex.test",
            "colleague@acme.test",
            "buyer@globex.test",
            { email: "room-1@resource.calendar.google.com", resource: true }
          ]),
          event(24, "Initech intro", [ada.email, "ceo@initech.test"]),
          event(72, "Lunch", ["friend@gmail.com", "colleague@acme.test"]),
          event(120, null),
          event(-2, "Already started", ["buyer@globex.test"]),
          event(24 * 10, "Too far", ["buyer@globex.test"])
        ])
        yield* connectCalendar(acme.session, bo.closerId, [event(96, "Hooli check-in", ["pm@hooli.test"])])
        const failingCloser = yield* addCloser(acme.session)
        const failingToken = yield* connectCalendar(acme.session, failingCloser.closerId, [event(1, "Never seen", ["buyer@globex.test"])])
        providers.failing.add(failingToken)

        const reply = yield* call("GET", BRIEF, { session: acme.session })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        expect(reply.body.client_id).toBe(acme.clientId)
        expect(Date.now() - Date.parse(reply.body.generated_at)).toBeLessThan(60_000)
        const meetings = reply.body.meetings as Array<any>
        expect(meetings.map((m) => m.title)).toEqual(["Initech intro", "Globex renewal", "Lunch", "Hooli check-in", "(no title)"])
        for (let i = 1; i < meetings.length; i++) expect(meetings[i].starts_at > meetings[i - 1].starts_at).toBe(true)
        expect(meetings.map((m) => m.closer_email)).toEqual([ada.email, ada.email, ada.email, bo.email, ada.email])
        // the failing calendar was asked, and left out
        expect(providers.calendarCalls.some((c) => c.token === failingToken)).toBe(true)

        const [initech, globex, lunch, hooli, untitled] = meetings
        expect(globex).toEqual({
          title: "Globex renewal",
          starts_at: globex.starts_at,
          closer_email: ada.email,
          attendees: ["Buyer@Globex.test", "colleague@acme.test"],
          previous_call_id: globexCall,
          talking_points: [
            "deal stage: proposal",
            "pain they named: \"our reps lose deals at pricing\"",
            "follow up on \"send the security review\" (due Friday)",
            "follow up on \"book a demo for the team\"",
            "price objection raised last time: \"that is a lot of money\""
          ],
          open_questions: [
            "authority objection left unanswered: \"I need to ask my boss\"",
            "no date agreed for \"book a demo for the team\"",
            "economic buyer not qualified yet"
          ],
          risks: ["1 objection not explored"]
        })
        expect(initech).toMatchObject({
          attendees: ["ceo@initech.test"],
          previous_call_id: initechCall,
          talking_points: ["timing objection raised last time: \"not this quarter\""],
          open_questions: [],
          risks: ["open for 20 days, longer than the sales cycle of 14 days", "no next step was agreed on the call"]
        })
        expect(initech.previous_call_id).not.toBe(theirCall)
        expect(lunch).toMatchObject({ attendees: ["friend@gmail.com", "colleague@acme.test"], previous_call_id: null, talking_points: [], open_questions: [], risks: [] })
        expect(hooli).toMatchObject({
          attendees: ["pm@hooli.test"],
          previous_call_id: hooliCall,
          talking_points: ["follow up on \"call back in spring\" (due March)"],
          open_questions: [],
          risks: ["the last deal with this buyer was lost: went with a competitor"]
        })
        expect(untitled).toEqual({
          title: "(no title)", starts_at: untitled.starts_at, closer_email: ada.email, attendees: [],
          previous_call_id: null, talking_points: [], open_questions: [], risks: []
        })

        // the other tenant: its own call for the same attendee, never Acme's
        const theirCloser = yield* addCloser(other.session)
        yield* connectCalendar(other.session, theirCloser.closerId, [event(30, "Initech with Umbrella", ["ceo@initech.test"])])
        const theirs = yield* call("GET", BRIEF, { session: other.session })
        expect(theirs.status).toBe(200)
        expect(theirs.body.meetings.map((m: any) => [m.title, m.closer_email, m.previous_call_id, m.talking_points])).toEqual([
          ["Initech with Umbrella", theirCloser.email, theirCall, ["follow up on \"sign\" (due Monday)"]]
        ])

        // once the provider answers again, the calendar is back
        providers.failing.delete(failingToken)
        const back = yield* call("GET", BRIEF, { session: acme.session })
        expect(back.body.meetings[0]).toMatchObject({ title: "Never seen", closer_email: failingCloser.email, previous_call_id: globexCall })

        // Bo signed in as a rep (a member who is the verified closer): their own calendar, and a last call only when it is theirs
        yield* sql`UPDATE closers SET email_verified_at = now(), status = 'active' WHERE closer_id = ${bo.closerId}`.pipe(Effect.orDie)
        const boSession = yield* memberSession(yield* Smtp, acme.clientId, bo.email)
        const asBo = () => Effect.map(call("GET", BRIEF, { session: boSession }), (r) => r.body.meetings.map((m: any) => [m.title, m.closer_email, m.previous_call_id]))
        expect(yield* asBo()).toEqual([["Hooli check-in", bo.email, null]])
        yield* sql`UPDATE calls SET closer_email = ${bo.email.toUpperCase()} WHERE call_id = ${hooliCall}`.pipe(Effect.orDie)
        expect(yield* asBo()).toEqual([["Hooli check-in", bo.email, hooliCall]])
      }))

    it.effect("null (200) when assistant.enabled is false; 401 without a session; no calendar, no meetings", () =>
      Effect.gen(function* () {
        const t = yield* newTenant("Initrode")
        const empty = yield* call("GET", BRIEF, { session: t.session })
        expect(empty.status).toBe(200)
        expect(empty.body).toMatchObject({ client_id: t.clientId, meetings: [] })

        yield* setFlags(t.clientId, { "assistant.enabled": false })
        const off = yield* call("GET", BRIEF, { session: t.session })
        expect(off.status).toBe(200)
        expect(off.body).toBeNull()
        yield* setFlags(t.clientId, { "assistant.enabled": true })
        expect((yield* call("GET", BRIEF, { session: t.session })).body).not.toBeNull()

        expect((yield* call("GET", BRIEF)).status).toBe(401)
      }))
  })
})
