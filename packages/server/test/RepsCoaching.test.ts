/**
 * Coaching for reps who sign in (issue 36), in-process with the real server: one tenant, its owner,
 * two reps (verified closers with member sessions) and a member who is no closer, the calls of
 * each rep seeded with known scores. The owner's dashboard and audits cover both reps; each rep's
 * hold only their own calls (checked by call ids and e-mails, not counts); the member who is no
 * closer sees no call. Another rep's audit or call is 404 to a rep, as another tenant's is.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, freshEmail, memberSession, newTenant, repSession } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

/** A tenant with its owner, two reps with two completed calls each, and a member who is no closer. */
const team = Effect.gen(function* () {
  const smtp = yield* Smtp
  const owner = yield* newTenant()
  const anaEmail = freshEmail("ana")
  const benEmail = freshEmail("ben")
  // the session cookies of the two reps (repSession answers the cookie's value, as memberSession)
  const ana = yield* repSession(smtp, owner.clientId, anaEmail, "Ana Rep")
  const ben = yield* repSession(smtp, owner.clientId, benEmail, "Ben Rep")
  const nobody = yield* memberSession(smtp, owner.clientId, freshEmail("nobody"))
  // Ana: one call under her e-mail in capitals (a call is a closer's whatever the case)
  const a0 = yield* seedWeekCall(owner.clientId, { closerEmail: anaEmail, weeksAgo: 0, overall: 60, dims: { discovery: 40, listening: 70 } })
  const a1 = yield* seedWeekCall(owner.clientId, {
    closerEmail: anaEmail.toUpperCase(), weeksAgo: 1, overall: 80, dims: { discovery: 60, listening: 90 }
  })
  const b0 = yield* seedWeekCall(owner.clientId, { closerEmail: benEmail, weeksAgo: 0, overall: 50, dims: { discovery: 90, listening: 30 } })
  const b2 = yield* seedWeekCall(owner.clientId, { closerEmail: benEmail, weeksAgo: 2, overall: 90, dims: { discovery: 100, listening: 50 } })
  return { owner, ana, ben, nobody, anaEmail, benEmail, a0, a1, b0, b2 }
})

const audit = (session: string, callId: string, scores: Record<string, number>) =>
  call("POST", "/v1/coaching/manual-audits", { session, body: { call_id: callId, scores, notes: "" } })

/** Every call id a dashboard names (its calls to review). */
const callIdsOf = (d: any): Array<string> => d.closers.flatMap((c: any) => c.calls_to_review.map((r: any) => r.call_id)).sort()

describe("coaching for reps", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("signed in", (it) => {
    it.effect("the dashboard: the owner's covers both reps' calls; a rep's only their own; a member who is no closer sees none", () =>
      Effect.gen(function* () {
        const t = yield* team
        // audits by the owner: Ana's a0 30 points above the machine, Ben's b0 30 below
        expect((yield* audit(t.owner.session, t.a0, { discovery: 70 })).status).toBe(200)
        expect((yield* audit(t.owner.session, t.b0, { discovery: 60 })).status).toBe(200)

        const owners = (yield* call("GET", "/v1/coaching/dashboard", { session: t.owner.session })).body
        expect(owners.closers.map((c: any) => c.email)).toEqual([t.anaEmail, t.benEmail])
        expect(callIdsOf(owners)).toEqual([t.a0, t.a1, t.b0, t.b2].sort())
        // (60 + 80 + 50 + 90) / 4
        expect(owners.team).toMatchObject({ closers: 2, calls_this_week: 2, average_score: 70 })
        expect(owners.audit_gaps).toEqual([{ dimension: "discovery", mean_gap: 0, mean_absolute_gap: 30, audits: 2 }])
        // Ana's focus beside the team's: discovery (40 + 60) / 2, the team's (40 + 60 + 90 + 100) / 4
        expect(owners.closers[0].focus).toMatchObject({ dimension: "discovery", average_score: 50, team_average_score: 72.5 })

        const anas = yield* call("GET", "/v1/coaching/dashboard", { session: t.ana })
        expect(anas.status).toBe(200)
        const a = anas.body
        expect(a.closers.map((c: any) => c.email)).toEqual([t.anaEmail])
        expect(a.closers[0].full_name).toBe("Ana Rep")
        expect(a.closers[0].calls_to_review.map((r: any) => [r.call_id, r.closer_email])).toEqual([
          [t.a0, t.anaEmail],
          [t.a1, t.anaEmail.toUpperCase()]
        ])
        expect(a.closers[0].calls_to_review[0].reason).toBe(
          "lowest score of the last 4 weeks: 60; a manual audit is 30 points from the machine's scores on average"
        )
        // her "team" is herself: (60 + 80) / 2; the focus compared with her own figures, not the team's
        expect(a.team).toMatchObject({ closers: 1, calls_this_week: 1, average_score: 70 })
        expect(a.closers[0]).toMatchObject({ calls_this_week: 1, average_score: 70 })
        expect(a.closers[0].focus).toMatchObject({ dimension: "discovery", average_score: 50, calls: 2, team_average_score: 50 })
        expect(a.audit_gaps).toEqual([{ dimension: "discovery", mean_gap: 30, mean_absolute_gap: 30, audits: 1 }])
        const anaText = JSON.stringify(a)
        for (const theirs of [t.b0, t.b2, t.benEmail, "Ben Rep"]) expect(anaText).not.toContain(theirs)

        const b = (yield* call("GET", "/v1/coaching/dashboard", { session: t.ben })).body
        expect(b.closers.map((c: any) => c.email)).toEqual([t.benEmail])
        expect(callIdsOf(b)).toEqual([t.b0, t.b2].sort())
        // (50 + 90) / 2; listening (30 + 50) / 2 is his weakest
        expect(b.team).toMatchObject({ closers: 1, calls_this_week: 1, average_score: 70 })
        expect(b.closers[0].focus).toMatchObject({ dimension: "listening", average_score: 40, team_average_score: 40 })
        expect(b.audit_gaps).toEqual([{ dimension: "discovery", mean_gap: -30, mean_absolute_gap: 30, audits: 1 }])
        const benText = JSON.stringify(b)
        for (const theirs of [t.a0, t.a1, t.anaEmail, "Ana Rep"]) expect(benText).not.toContain(theirs)

        const none = yield* call("GET", "/v1/coaching/dashboard", { session: t.nobody })
        expect(none.status).toBe(200)
        expect(none.body).toMatchObject({ closers: [], audit_gaps: [], team: { closers: 0, calls_this_week: 0, average_score: null } })
        expect(none.body.team.score_trend.every((w: any) => w.calls === 0 && w.average_score === null)).toBe(true)
      }))

    it.effect("manual audits: a rep lists and reads only those of their calls, audits only their own calls (another's is 404)", () =>
      Effect.gen(function* () {
        const t = yield* team
        const ofAna = yield* audit(t.owner.session, t.a0, { discovery: 70 })
        const ofBen = yield* audit(t.owner.session, t.b0, { listening: 20 })
        expect([ofAna.status, ofBen.status]).toEqual([200, 200])
        expect([ofAna.body.closer_email, ofBen.body.closer_email]).toEqual([t.anaEmail, t.benEmail])

        // Ana lists and reads only the audit of her call
        const listed = (yield* call("GET", "/v1/coaching/manual-audits", { session: t.ana })).body
        expect(listed).toEqual({ audits: [ofAna.body], total: 1, limit: 50, offset: 0 })
        expect((yield* call("GET", `/v1/coaching/manual-audits?call_id=${t.b0}`, { session: t.ana })).body).toEqual({
          audits: [],
          total: 0,
          limit: 50,
          offset: 0
        })
        expect((yield* call("GET", `/v1/coaching/manual-audits/${ofAna.body.audit_id}`, { session: t.ana })).body).toEqual(ofAna.body)
        const bens = yield* call("GET", `/v1/coaching/manual-audits/${ofBen.body.audit_id}`, { session: t.ana })
        expect(bens.status).toBe(404)
        expect(bens.body._tag).toBe("NotFound")
        // the same answer as an audit that does not exist
        expect((yield* call("GET", "/v1/coaching/manual-audits/mau_nope", { session: t.ana })).body._tag).toBe("NotFound")

        // Ana audits her own call, not Ben's (404, as a call that does not exist)
        const onBens = yield* audit(t.ana, t.b0, { discovery: 10 })
        expect(onBens.status).toBe(404)
        expect(onBens.body._tag).toBe("NotFound")
        expect((yield* audit(t.ana, "call_nope", { discovery: 10 })).status).toBe(404)
        const own = yield* audit(t.ana, t.a1, { listening: 75 })
        expect(own.status).toBe(200)
        expect(own.body).toMatchObject({
          call_id: t.a1,
          closer_email: t.anaEmail.toUpperCase(),
          auditor_user_id: `usr_member_${t.anaEmail}`,
          dimensions: [{ dimension: "listening", manual_score: 75, automated_score: 90, gap: -15 }]
        })
        const anaList = (yield* call("GET", "/v1/coaching/manual-audits", { session: t.ana })).body
        expect(anaList.audits.map((x: any) => x.call_id)).toEqual([t.a1, t.a0])
        expect(anaList.total).toBe(2)

        // Ben sees only his; the owner sees all three; a member who is no closer none, and audits nothing
        const benList = (yield* call("GET", "/v1/coaching/manual-audits", { session: t.ben })).body
        expect(benList).toEqual({ audits: [ofBen.body], total: 1, limit: 50, offset: 0 })
        expect((yield* call("GET", `/v1/coaching/manual-audits/${own.body.audit_id}`, { session: t.ben })).status).toBe(404)
        expect((yield* audit(t.ben, t.a0, { discovery: 10 })).status).toBe(404)
        const ownerList = (yield* call("GET", "/v1/coaching/manual-audits", { session: t.owner.session })).body
        expect(ownerList.audits.map((x: any) => x.audit_id)).toEqual([own.body.audit_id, ofBen.body.audit_id, ofAna.body.audit_id])
        expect((yield* call("GET", "/v1/coaching/manual-audits", { session: t.nobody })).body.total).toBe(0)
        expect((yield* call("GET", `/v1/coaching/manual-audits/${ofAna.body.audit_id}`, { session: t.nobody })).status).toBe(404)
        expect((yield* audit(t.nobody, t.a0, { discovery: 10 })).status).toBe(404)

        // another tenant's session: 404 on the audit and on the call, nothing listed
        const other = yield* newTenant()
        const theirs = yield* call("GET", `/v1/coaching/manual-audits/${ofAna.body.audit_id}`, { session: other.session })
        expect(theirs.status).toBe(404)
        expect(theirs.body._tag).toBe("NotFound")
        expect((yield* audit(other.session, t.a0, { discovery: 10 })).status).toBe(404)
        expect((yield* call("GET", "/v1/coaching/manual-audits", { session: other.session })).body.total).toBe(0)
        // nothing was written by the refused attempts
        expect((yield* call("GET", "/v1/coaching/manual-audits", { session: t.owner.session })).body.total).toBe(3)
      }))
  })
})
