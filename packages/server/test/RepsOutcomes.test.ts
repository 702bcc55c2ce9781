/**
 * Reps who sign in (issue 36) on outcome truth, the recorder's meetings and workspace search, with
 * the real server: one tenant, its owner, two reps (verified closers with member sessions), a
 * member who is no closer, and another tenant. Checked by value: the owner's backlog, meetings and
 * search hits hold both reps' calls; a rep's only their own (call ids, meeting ids, closer ids), with
 * totals matching the hits; another rep's call is 404 to read or record, like another tenant's; a
 * member who is no closer gets empty lists. Paged (meetings, search): a rep's pages are pages of
 * their own rows, with their own total.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, freshEmail, memberSession, newTenant, repSession } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

/** The word every seeded transcript and note shares, and the one both closers' names share. */
const WORD = "zebrafish"
const NAME = "Quokka"

const BACKLOG = "/v1/client-portal/outcome-truth-backlog"
const MEETINGS = "/v1/client-portal/recall/meetings"
const outcomePath = (callId: string) => `/v1/client-portal/calls/${callId}/outcome-truth`

let seq = 0

const sorted = (ids: ReadonlyArray<string>) => [...ids].sort()

/** A call of the closer, completed, its transcript mentioning the shared word. */
const seedCall = (clientId: string, closerEmail: string | null, weeksAgo: number) =>
  seedWeekCall(clientId, {
    closerEmail,
    weeksAgo,
    overall: 60,
    dims: { discovery: 60 },
    transcript: [[0, "Hello and thanks for joining."], [5, `We talked about the ${WORD} pricing tier.`]]
  })

const closerIdOf = (clientId: string, email: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ closer_id: string }>`SELECT closer_id FROM closers WHERE client_id = ${clientId} AND lower(email) = lower(${email})`
  ).pipe(Effect.map((rows) => rows[0]!.closer_id), Effect.orDie)

/** A meeting the recorder's bot was sent to, as the scheduling pass writes it. */
const seedMeeting = (clientId: string, closer: { readonly id: string | null; readonly email: string | null }) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const meetingId = `mtg_reps_${Date.now()}_${seq++}`
    return sql`INSERT INTO recorder_bots (meeting_id, client_id, closer_id, closer_email, source, title, meeting_url, platform, join_at, state)
               VALUES (${meetingId}, ${clientId}, ${closer.id}, ${closer.email}, 'manual', 'Demo', 'https://meet.google.com/abc-defg-hij',
                       'google_meet', now() + make_interval(mins => ${seq}), 'scheduled')`.pipe(Effect.as(meetingId))
  }).pipe(Effect.orDie)

const seedAudit = (clientId: string, callId: string, notes: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ audit_id: string }>`INSERT INTO manual_audits (audit_id, client_id, call_id, auditor_user_id, scores, automated, notes)
        VALUES (${`aud_reps_${Date.now()}_${seq++}`}, ${clientId}, ${callId}, 'usr_x', '{}'::jsonb, '{}'::jsonb, ${notes})
        RETURNING audit_id`).pipe(Effect.map((rows) => rows[0]!.audit_id), Effect.orDie)

/**
 * The tenant: its owner; reps A (two calls, one filed under the e-mail in capitals) and B (one
 * call); a call of nobody; a member who is no closer.
 */
const team = Effect.gen(function* () {
  const smtp = yield* Smtp
  const owner = yield* newTenant()
  const emailA = freshEmail("rep-a")
  const emailB = freshEmail("rep-b")
  const repA = yield* repSession(smtp, owner.clientId, emailA, `Ana ${NAME}`)
  const repB = yield* repSession(smtp, owner.clientId, emailB, `Ben ${NAME}`)
  const nobody = yield* memberSession(smtp, owner.clientId, freshEmail("member"))
  const callsA = [yield* seedCall(owner.clientId, emailA, 2), yield* seedCall(owner.clientId, emailA.toUpperCase(), 1)]
  const callsB = [yield* seedCall(owner.clientId, emailB, 1)]
  const unassigned = yield* seedCall(owner.clientId, null, 1)
  return { owner, emailA, emailB, repA, repB, nobody, callsA, callsB, unassigned }
})

const get = (path: string, session: string) =>
  Effect.map(call("GET", path, { session }), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body
  })

const search = (session: string, q: string) => get(`/v1/workspace/search?q=${encodeURIComponent(q)}&limit=100`, session)

describe("reps on outcomes, meetings and search", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("signed in", (it) => {
    it.effect("the backlog: the owner's holds every rep's calls, a rep's only their own, a member who is no closer none", () =>
      Effect.gen(function* () {
        const t = yield* team
        const owner = yield* get(BACKLOG, t.owner.session)
        expect(sorted(owner.calls.map((c: any) => c.call_id))).toEqual(sorted([...t.callsA, ...t.callsB, t.unassigned]))
        expect(owner.total).toBe(4)

        const a = yield* get(BACKLOG, t.repA)
        expect(a.calls.map((c: any) => c.call_id)).toEqual(t.callsA) // oldest first
        expect(a.total).toBe(2)
        const page = yield* get(`${BACKLOG}?limit=1`, t.repA)
        expect(page).toMatchObject({ total: 2, limit: 1 })
        expect(page.calls.map((c: any) => c.call_id)).toEqual([t.callsA[0]])

        const b = yield* get(BACKLOG, t.repB)
        expect(b.calls.map((c: any) => c.call_id)).toEqual(t.callsB)
        expect(b.total).toBe(1)

        expect(yield* get(BACKLOG, t.nobody)).toEqual({ calls: [], total: 0, limit: 25 })
      }))

    it.effect("outcome truth: a rep reads and records their own calls'; another rep's call is 404 like another tenant's", () =>
      Effect.gen(function* () {
        const t = yield* team
        const [ownCall] = t.callsA
        const [theirCall] = t.callsB

        // another rep's call: 404 to read and to record, and nothing is written
        const read = yield* call("GET", outcomePath(theirCall!), { session: t.repA })
        expect(read.status).toBe(404)
        const write = yield* call("PUT", outcomePath(theirCall!), { session: t.repA, body: { outcome: "lost", notes: "not mine" } })
        expect(write.status).toBe(404)
        // the same answer as a call of another tenant, or none
        const missing = yield* call("GET", outcomePath("call_missing"), { session: t.repA })
        expect(read.body).toEqual({ ...missing.body, message: `no call ${theirCall}` })
        expect(yield* get(outcomePath(theirCall!), t.owner.session)).toBeNull()
        const sql = yield* SqlClient.SqlClient
        const written = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM outcome_truth WHERE call_id = ${theirCall!}`
        expect(written[0]!.n).toBe(0)

        // the unassigned call is nobody's: only managers see it
        expect((yield* call("GET", outcomePath(t.unassigned), { session: t.repA })).status).toBe(404)

        // their own call (filed under the e-mail in capitals too)
        expect(yield* get(outcomePath(ownCall!), t.repA)).toBeNull()
        const recorded = yield* call("PUT", outcomePath(ownCall!), { session: t.repA, body: { outcome: "won", deal_value: 9000, notes: "signed" } })
        expect(recorded.status, JSON.stringify(recorded.body)).toBe(200)
        expect(recorded.body).toMatchObject({ call_id: ownCall, outcome: "won", deal_value: 9000, notes: "signed" })
        expect(yield* get(outcomePath(ownCall!), t.repA)).toMatchObject({ call_id: ownCall, outcome: "won" })
        expect((yield* call("PUT", outcomePath(t.callsA[1]!), { session: t.repA, body: { outcome: "open" } })).status).toBe(200)
        // the owner sees it; the backlogs lose it
        expect(yield* get(outcomePath(ownCall!), t.owner.session)).toMatchObject({ call_id: ownCall, outcome: "won" })
        expect(yield* get(BACKLOG, t.repA)).toEqual({ calls: [], total: 0, limit: 25 })
        expect((yield* get(BACKLOG, t.owner.session)).total).toBe(2)
        // rep B cannot read A's record
        expect((yield* call("GET", outcomePath(ownCall!), { session: t.repB })).status).toBe(404)

        // a member who is no closer finds no call
        expect((yield* call("GET", outcomePath(ownCall!), { session: t.nobody })).status).toBe(404)
        expect((yield* call("PUT", outcomePath(ownCall!), { session: t.nobody, body: { outcome: "lost" } })).status).toBe(404)

        // another tenant's owner: 404
        const other = yield* newTenant()
        expect((yield* call("GET", outcomePath(ownCall!), { session: other.session })).status).toBe(404)
        expect((yield* call("PUT", outcomePath(ownCall!), { session: other.session, body: { outcome: "lost" } })).status).toBe(404)
        expect(yield* get(outcomePath(ownCall!), t.owner.session)).toMatchObject({ outcome: "won" })
      }))

    it.effect("recorder meetings: each rep sees only their own closer's bots, the owner all", () =>
      Effect.gen(function* () {
        const t = yield* team
        const closerA = yield* closerIdOf(t.owner.clientId, t.emailA)
        const closerB = yield* closerIdOf(t.owner.clientId, t.emailB)
        const meetingsA = [
          yield* seedMeeting(t.owner.clientId, { id: closerA, email: t.emailA }),
          yield* seedMeeting(t.owner.clientId, { id: closerA, email: t.emailA.toUpperCase() })
        ]
        const meetingsB = [yield* seedMeeting(t.owner.clientId, { id: closerB, email: t.emailB })]
        const closerless = yield* seedMeeting(t.owner.clientId, { id: null, email: null })

        const ids = (body: any) => body.meetings.map((m: any) => m.meeting_id)
        // latest first
        expect(ids(yield* get(MEETINGS, t.owner.session))).toEqual([closerless, meetingsB[0], meetingsA[1], meetingsA[0]])
        const a = yield* get(MEETINGS, t.repA)
        expect(ids(a)).toEqual([meetingsA[1], meetingsA[0]])
        expect(a.meetings.every((m: any) => m.closer_id === closerA)).toBe(true)
        expect(a.total).toBe(2)
        expect(ids(yield* get(MEETINGS, t.repB))).toEqual(meetingsB)
        expect(ids(yield* get(`${MEETINGS}?limit=1`, t.repA))).toEqual([meetingsA[1]])
        // pages: a rep's are pages of their own meetings, with their own total
        const repPages = [yield* get(`${MEETINGS}?limit=1`, t.repA), yield* get(`${MEETINGS}?limit=1&offset=1`, t.repA)]
        expect(repPages.flatMap(ids)).toEqual([meetingsA[1], meetingsA[0]])
        expect(repPages.map((p) => p.total)).toEqual([2, 2])
        expect(yield* get(`${MEETINGS}?offset=2`, t.repA)).toEqual({ meetings: [], total: 2 })
        // the owner's pages of 3: disjoint, latest first, together every meeting once
        const ownerPages = [yield* get(`${MEETINGS}?limit=3`, t.owner.session), yield* get(`${MEETINGS}?limit=3&offset=3`, t.owner.session)]
        expect(ownerPages.flatMap(ids)).toEqual([closerless, meetingsB[0], meetingsA[1], meetingsA[0]])
        expect(ownerPages.map((p) => p.total)).toEqual([4, 4])
        expect(yield* get(MEETINGS, t.nobody)).toEqual({ meetings: [], total: 0 })
        expect(yield* get(`${MEETINGS}?offset=1`, t.nobody)).toEqual({ meetings: [], total: 0 })
        for (const query of ["limit=0", "limit=201", "offset=-1", "offset=1000001", "offset=one", "offset=0.5"]) {
          const reply = yield* call("GET", `${MEETINGS}?${query}`, { session: t.owner.session })
          expect(reply.status, query).toBe(422)
          expect(reply.body.detail.length, query).toBeGreaterThan(0)
        }
        const other = yield* newTenant()
        expect(yield* get(MEETINGS, other.session)).toEqual({ meetings: [], total: 0 })
        expect(yield* get(`${MEETINGS}?limit=200&offset=2`, other.session)).toEqual({ meetings: [], total: 0 })
      }))

    it.effect("search: a rep's hits are their own calls, notes of them and their own closer row; totals match", () =>
      Effect.gen(function* () {
        const t = yield* team
        const [ownCall] = t.callsA
        const [theirCall] = t.callsB
        // outcome notes and manual-audit notes on a call of each rep
        for (const callId of [ownCall!, theirCall!]) {
          const put = yield* call("PUT", outcomePath(callId), { session: t.owner.session, body: { outcome: "open", notes: `${WORD} follow-up` } })
          expect(put.status).toBe(200)
        }
        const auditA = yield* seedAudit(t.owner.clientId, ownCall!, `The ${WORD} objection handled well`)
        const auditB = yield* seedAudit(t.owner.clientId, theirCall!, `The ${WORD} objection missed`)

        const hits = (body: any) => body.results.map((r: any) => `${r.kind}:${r.id}`).sort()
        const owner = yield* search(t.owner.session, WORD)
        expect(hits(owner)).toEqual(sorted([
          ...[...t.callsA, ...t.callsB, t.unassigned].map((id) => `transcript:${id}`),
          `note:${ownCall}`,
          `note:${theirCall}`,
          `note:${auditA}`,
          `note:${auditB}`
        ]))
        expect(owner.total).toBe(owner.results.length)

        const a = yield* search(t.repA, WORD)
        expect(hits(a)).toEqual(sorted([...t.callsA.map((id) => `transcript:${id}`), `note:${ownCall}`, `note:${auditA}`]))
        expect(a.results.every((r: any) => t.callsA.includes(r.call_id))).toBe(true)
        expect(a.total).toBe(4)
        // a smaller page: the total still counts only the rep's hits
        const page = yield* get(`/v1/workspace/search?q=${WORD}&limit=2`, t.repA)
        expect(page.results).toHaveLength(2)
        expect(page.total).toBe(4)
        // the rep's pages are pages of their own hits: disjoint, together their hits once, none of another's
        const next = yield* get(`/v1/workspace/search?q=${WORD}&limit=2&offset=2`, t.repA)
        expect(next.total).toBe(4)
        expect([...page.results, ...next.results].map((r: any) => `${r.kind}:${r.id}`)).toEqual(a.results.map((r: any) => `${r.kind}:${r.id}`))
        expect(yield* get(`/v1/workspace/search?q=${WORD}&offset=4`, t.repA)).toEqual({ q: WORD, total: 4, results: [] })
        const ownerPage = yield* get(`/v1/workspace/search?q=${WORD}&limit=3&offset=3`, t.owner.session)
        expect(ownerPage.total).toBe(owner.total)
        expect(ownerPage.results).toEqual(owner.results.slice(3, 6))

        const b = yield* search(t.repB, WORD)
        expect(hits(b)).toEqual(sorted([`transcript:${theirCall}`, `note:${theirCall}`, `note:${auditB}`]))
        expect(b.total).toBe(3)

        // closers: the owner finds both, a rep only their own row
        const closerA = yield* closerIdOf(t.owner.clientId, t.emailA)
        const closerB = yield* closerIdOf(t.owner.clientId, t.emailB)
        expect(hits(yield* search(t.owner.session, NAME))).toEqual(sorted([`closer:${closerA}`, `closer:${closerB}`]))
        const names = yield* search(t.repA, NAME)
        expect(hits(names)).toEqual([`closer:${closerA}`])
        expect(names.total).toBe(1)
        // and by the other rep's e-mail: nothing of theirs
        const byEmail = yield* search(t.repA, t.emailB)
        expect(byEmail.results.filter((r: any) => r.id === closerB || t.callsB.includes(r.call_id))).toEqual([])
        expect(byEmail.total).toBe(byEmail.results.length)

        // a member who is no closer finds nothing
        expect(yield* search(t.nobody, WORD)).toEqual({ q: WORD, total: 0, results: [] })
        expect(yield* get(`/v1/workspace/search?q=${WORD}&offset=2`, t.nobody)).toEqual({ q: WORD, total: 0, results: [] })
        expect(yield* search(t.nobody, NAME)).toEqual({ q: NAME, total: 0, results: [] })
        // another tenant neither
        const other = yield* newTenant()
        expect((yield* search(other.session, WORD)).total).toBe(0)
      }))
  })
})
