/**
 * The policy table (tenancy/Policy.ts, issue 36) names every operation a session can call, and the
 * service answers as it says: each operation called with a session of each role (owner, admin,
 * member) of one tenant is 403 where the table forbids the role, before its body is read, and
 * never 403 (nor 401, nor 5xx) where it allows it; and where it says "self", a rep's answers hold
 * their own calls and never another rep's (nor a member's who is no closer: none), and another
 * rep's call is 404 as another tenant's is. `docs/policy.md` is the table written out.
 */
import { CallsightApi, SESSION_COOKIE } from "@callsight/api-spec"
import { HttpApi, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { wavOf } from "../../../test/utils/Fixtures.js"
import { POLICY, policyMarkdown } from "../src/tenancy/Policy.js"
import { call, freshEmail, memberSession, newTenant, repSession, sessionCookie, tokenOf } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

class BlobDir extends Context.Tag("test/BlobDir")<BlobDir, string>() {}

/** The server, its blobs in a directory the test knows (the seeded calls' recordings are written there). */
const server = Layer.unwrapScoped(
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-policy-blobs-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ),
    (dir) => Layer.merge(serverWithSmtp({ blobDir: dir }), Layer.succeed(BlobDir, dir))
  )
)

/** Every operation of the declaration a portal session can call. */
const sessionOperations = (() => {
  const out: Array<{ key: string; method: string; path: string }> = []
  HttpApi.reflect(CallsightApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, middleware }) => {
      if ([...middleware].some((m) => /Session/.test(m.key))) {
        out.push({ key: `${group.identifier}.${endpoint.name}`, method: endpoint.method, path: endpoint.path })
      }
    }
  })
  return out
})()

/** A request of `method` to `path` with the session cookie and, but for GET and DELETE, an empty JSON body: its status and tag. */
const attempt = (method: string, path: string, session: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method as "GET")(path).pipe(HttpClientRequest.setHeader("cookie", `${SESSION_COOKIE}=${session}`))
    if (method !== "GET" && method !== "DELETE") request = HttpClientRequest.bodyUnsafeJson(request, {})
    const response = yield* client.execute(request)
    const text = yield* response.text
    const tag = (response.headers["content-type"] ?? "").startsWith("application/json") && text !== "" ? (JSON.parse(text)._tag as string | undefined) : undefined
    return { status: response.status, tag }
  }).pipe(Effect.orDie)

describe("the policy table", () => {
  it("names every session operation, and nothing else", () => {
    expect(Object.keys(POLICY).sort()).toEqual(sessionOperations.map((o) => o.key).sort())
  })

  it("is written out in docs/policy.md (npm run status writes it)", () => {
    const doc = readFileSync(new URL("../../../docs/policy.md", import.meta.url), "utf8")
    expect(doc).toContain(policyMarkdown())
  })

  layer(server, { excludeTestServices: true })("on the service", (it) => {
    it.effect("each operation with a session of each role: 403 exactly where the table forbids it", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const owner = yield* newTenant()
        const sessionOf = (role: "admin" | "member") =>
          Effect.gen(function* () {
            const email = freshEmail(role)
            expect((yield* call("POST", "/v1/client-portal/members/invitations", { session: owner.session, body: { email, role } })).status).toBe(201)
            const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(yield* Effect.orDie(smtp.waitFor(email))) } })
            return Option.getOrThrow(sessionCookie(verified)).value
          })
        const sessions = { owner: owner.session, admin: yield* sessionOf("admin"), member: yield* sessionOf("member") }
        const seen: Array<string> = []
        for (const op of sessionOperations.filter((o) => o.key !== "clientAuth.logout")) {
          const path = op.path.replace(/:(\w+)/g, (_, name: string) => (name === "product" ? "starter" : `${name}_unknown`))
          for (const role of ["owner", "admin", "member"] as const) {
            const { status, tag } = yield* attempt(op.method, path, sessions[role])
            const rule = (POLICY as Record<string, Record<string, string>>)[op.key]![role]
            if (rule === "forbidden") {
              expect([status, tag], `${op.key} as ${role}`).toEqual([403, "Forbidden"])
            } else {
              expect(status, `${op.key} as ${role}`).not.toBe(403)
              expect(status, `${op.key} as ${role}`).not.toBe(401)
              expect(status, `${op.key} as ${role}`).toBeLessThan(500)
            }
            seen.push(`${op.key}:${role}`)
          }
        }
        expect(seen).toHaveLength((sessionOperations.length - 1) * 3)
        // the door answers the same under /reporting
        expect((yield* attempt("GET", "/reporting/v1/client-portal/api-keys", sessions.member)).status).toBe(403)
        expect((yield* attempt("GET", "/reporting/v1/client-portal/api-keys", sessions.admin)).status).toBe(200)
      }), 120_000)

    it.effect("another tenant's owner, on this tenant's ids: 404 on every operation that names one, and nothing changes", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const owner = yield* newTenant()
        const stranger = yield* newTenant("Other Co")
        const closerEmail = freshEmail("rep")
        yield* repSession(smtp, owner.clientId, closerEmail)
        const callId = yield* seedWeekCall(owner.clientId, { closerEmail, weeksAgo: 0, overall: 70, dims: { discovery: 70 } })
        const closer = yield* call("POST", "/v1/client-portal/closers", { session: owner.session, body: { email: freshEmail("closer"), full_name: "Cy Closer" } })
        const key = yield* call("POST", "/v1/client-portal/api-keys", { session: owner.session, body: { name: "ci" } })
        const invitation = yield* call("POST", "/v1/client-portal/members/invitations", { session: owner.session, body: { email: freshEmail("invitee"), role: "member" } })
        const audit = yield* call("POST", "/v1/coaching/manual-audits", { session: owner.session, body: { call_id: callId, scores: { discovery: 60 }, notes: "n" } })
        const webhook = yield* call("POST", "/v1/teams/webhooks", { session: owner.session, body: { url: "http://127.0.0.1:9/hook" } })
        const tracker = yield* call("POST", "/v1/client-portal/trackers", { session: owner.session, body: { name: "Pricing", terms: ["price"] } })
        const ids: Record<string, string> = {
          webhook_id: webhook.body.webhook_id,
          tracker_id: tracker.body.tracker.tracker_id,
          // no delivery was made: the endpoint, the stranger's to look up, decides the answer
          delivery_id: "msg_none",
          call_id: callId,
          closer_id: closer.body.closer_id,
          key_id: key.body.key_id,
          invitation_id: invitation.body.invitation_id,
          audit_id: audit.body.audit_id,
          user_id: `usr_member_${closerEmail}`
        }
        expect(Object.values(ids).every((id) => typeof id === "string" && id !== "")).toBe(true)
        /** Bodies that pass validation, so the answer is the lookup's. */
        const bodies: Record<string, unknown> = {
          "clientPortal.recordOutcomeTruth": { outcome: "open" },
          "clientPortal.updateCloserStatus": { status: "paused" },
          "members.changeMemberRole": { role: "admin" },
          "trackers.updateTracker": { name: "Mine" }
        }
        const named = sessionOperations.filter((o) => Object.keys(ids).some((name) => o.path.includes(`:${name}`)))
        expect(named.length).toBeGreaterThan(15)
        for (const op of named) {
          const path = op.path.replace(/:(\w+)/g, (_, name: string) => ids[name]!)
          const reply = yield* call(op.method as "GET", path, { session: stranger.session, ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: bodies[op.key] ?? {} }) })
          expect(reply.status, `${op.key} ${JSON.stringify(reply.body)}`).toBe(404)
        }
        // nothing changed: the call, its closer, the key, the invitation and the member are as they were
        expect((yield* call("GET", `/v1/workspace/calls/${callId}`, { session: owner.session })).status).toBe(200)
        expect((yield* call("GET", "/v1/client-portal/closers", { session: owner.session })).body.closers.find((c: { closer_id: string }) => c.closer_id === ids.closer_id).status).toBe("pending_verification")
        const members = (yield* call("GET", "/v1/client-portal/members", { session: owner.session })).body
        expect(members.members.find((m: { user_id: string }) => m.user_id === ids.user_id).role).toBe("member")
        expect(members.invitations.map((i: { invitation_id: string }) => i.invitation_id)).toContain(ids.invitation_id)
        expect((yield* call("GET", "/v1/client-portal/api-keys", { session: owner.session })).body.keys.find((k: { key_id: string }) => k.key_id === ids.key_id).revoked_at).toBeNull()
        expect((yield* call("GET", "/v1/teams/webhooks", { session: owner.session })).body.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([ids.webhook_id])
        expect((yield* call("GET", "/v1/client-portal/trackers", { session: owner.session })).body.trackers.map((t: { name: string }) => t.name)).toEqual(["Pricing"])
      }), 120_000)

    it.effect("'self': a rep's answers hold only their own calls; another rep's call is 404; a member who is no closer sees none", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const owner = yield* newTenant()
        const stranger = yield* newTenant("Other Co")
        const emailA = freshEmail("rep-a")
        const emailB = freshEmail("rep-b")
        const repA = yield* repSession(smtp, owner.clientId, emailA, "Alma Rep")
        yield* repSession(smtp, owner.clientId, emailB, "Bruno Rep")
        const nobody = yield* memberSession(smtp, owner.clientId, freshEmail("ops"))
        const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) + "T12:00:00.000Z"
        const seed = (closerEmail: string, overall: number, at: string) =>
          seedWeekCall(owner.clientId, {
            closerEmail,
            weeksAgo: 0,
            overall,
            dims: { discovery: overall },
            at,
            transcript: [[0, "Thanks for joining, shall we talk about the zebrafish pilot?"], [5, "Yes, the zebrafish pilot budget is tight."]]
          })
        const anHourAgo = new Date(Date.now() - 3_600_000).toISOString()
        const callsA = [yield* seed(emailA, 61, yesterday), yield* seed(emailA, 72, anHourAgo)]
        const callsB = [yield* seed(emailB, 44, yesterday), yield* seed(emailB, 88, anHourAgo)]
        const [ownCall, othersCall] = [callsA[1]!, callsB[1]!]
        // the seeded calls' recordings, where the blob store looks for them (`blob/<call_id>`)
        const blobDir = yield* BlobDir
        mkdirSync(join(blobDir, "blob"), { recursive: true })
        for (const id of [...callsA, ...callsB]) writeFileSync(join(blobDir, "blob", id), wavOf(new Int16Array(800)))
        // the owner's audit of B's call, for the audit read
        const audit = yield* call("POST", "/v1/coaching/manual-audits", { session: owner.session, body: { call_id: othersCall, scores: { discovery: 50 }, notes: "zebrafish" } })
        expect(audit.status).toBe(200)
        const auditOfB = (audit.body as { audit_id: string }).audit_id

        /** What each "self" operation is called with: a query, a body or a form, about `callId` where it takes one. */
        const requests: Record<string, (callId: string) => { readonly query?: string; readonly body?: unknown; readonly form?: FormData }> = {
          "clientPortal.getAccountCockpit": () => ({}),
          "clientPortal.getDailyBrief": () => ({}),
          "clientPortal.chatWithConcierge": () => ({ body: { message: "find zebrafish" } }),
          "clientPortal.getOutcomeTruth": () => ({}),
          "clientPortal.recordOutcomeTruth": () => ({ body: { outcome: "open" } }),
          "clientPortal.listOutcomeTruthBacklog": () => ({ query: "?limit=200" }),
          "recorder.listRecallMeetings": () => ({}),
          "coaching.getCoachingDashboard": () => ({}),
          "coaching.listManualAudits": () => ({}),
          "coaching.createManualAudit": (callId) => ({ body: { call_id: callId, scores: { discovery: 70 }, notes: "self review" } }),
          "coaching.getManualAudit": () => ({}),
          "workspace.getState": () => ({}),
          "workspace.search": () => ({ query: "?q=zebrafish" }),
          "workspace.chat": () => ({ body: { message: "lowest scored calls this week" } }),
          "workspace.runAction": (callId) => ({ body: { action: "pin_call", params: { call_id: callId } } }),
          "workspace.getMeetingPrepBrief": () => ({}),
          "workspace.getDealIntelligence": () => ({}),
          "workspace.getCall": () => ({}),
          "audio.uploadAudio": () => {
            const form = new FormData()
            form.append("audio", new Blob([wavOf(new Int16Array(16_000))]), "call.wav")
            return { form }
          },
          "audio.getAnalysis": () => ({}),
          "audio.getReportHtml": () => ({}),
          "extensions.listCalls": () => ({ query: "?limit=200" }),
          "extensions.getPortalReport": () => ({}),
          "extensions.getCallAudio": () => ({}),
          "trackers.getTrackerReport": () => ({ query: "?quotes=5" }),
          "trends.getTrends": () => ({ query: "?periods=2" })
        }
        const selfOperations = sessionOperations.filter((o) => (POLICY as Record<string, Record<string, string>>)[o.key]!.member === "self")
        expect(selfOperations.map((o) => o.key).sort()).toEqual(Object.keys(requests).sort())

        const send = (op: (typeof selfOperations)[number], session: string, callId: string) =>
          Effect.gen(function* () {
            const { body, form, query } = requests[op.key]!(callId)
            const path = op.path.replace(":call_id", callId).replace(":audit_id", auditOfB) + (query ?? "")
            if (form !== undefined) {
              const response = yield* Effect.flatMap(HttpClient.HttpClient, (client) =>
                client.execute(HttpClientRequest.post(path).pipe(
                  HttpClientRequest.setHeader("cookie", `${SESSION_COOKIE}=${session}`),
                  HttpClientRequest.bodyFormData(form)
                ))).pipe(Effect.orDie)
              return { status: response.status, text: yield* Effect.orDie(response.text) }
            }
            const reply = yield* call(op.method as "GET", path, { session, ...(body === undefined ? {} : { body }) })
            return { status: reply.status, text: typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body) }
          })
        const mentions = (text: string, ids: ReadonlyArray<string>) => ids.filter((id) => text.includes(id))

        const seenBy = { owner: new Set<string>(), repA: new Set<string>() }
        /** The operations about one call: by their path, or by their body. */
        const callInBody = ["coaching.createManualAudit", "workspace.runAction"]
        for (const op of selfOperations) {
          const aboutCall = op.path.includes(":call_id") || callInBody.includes(op.key)
          // rep A: never a word of B's calls; another rep's call is 404
          const asRep = yield* send(op, repA, ownCall)
          expect(asRep.status, `${op.key} as rep A`).toBeLessThan(op.key === "coaching.getManualAudit" ? 500 : 300)
          expect(mentions(asRep.text, [...callsB, emailB]), `${op.key} as rep A`).toEqual([])
          mentions(asRep.text, callsA).forEach((id) => seenBy.repA.add(id))
          if (aboutCall) {
            expect((yield* send(op, repA, othersCall)).status, `${op.key}: rep A on B's call`).toBe(404)
            expect((yield* send(op, stranger.session, ownCall)).status, `${op.key}: another tenant on A's call`).toBe(404)
          }
          if (op.key === "coaching.getManualAudit") expect(asRep.status, "rep A reads the audit of B's call").toBe(404)
          // a member who is no closer: no call at all
          const asNobody = yield* send(op, nobody, ownCall)
          if (aboutCall) expect(asNobody.status, `${op.key}: a member who is no closer on A's call`).toBe(404)
          // (a 404 names the call asked for: that is the caller's own words)
          else expect(mentions(asNobody.text, [...callsA, ...callsB, emailA, emailB]), `${op.key} as a member who is no closer`).toEqual([])
          // the owner sees the team
          const asOwner = yield* send(op, owner.session, othersCall)
          expect(asOwner.status, `${op.key} as the owner`).toBeLessThan(300)
          mentions(asOwner.text, [...callsA, ...callsB]).forEach((id) => seenBy.owner.add(id))
        }
        // the walk reached the calls: the owner's answers named every call, rep A's every one of A's
        expect([...seenBy.owner].sort()).toEqual([...callsA, ...callsB].sort())
        expect([...seenBy.repA].sort()).toEqual([...callsA].sort())

        // the cockpit's figures are the rep's own calls (the four weeks of the score trend)
        const cockpit = (session: string) =>
          Effect.map(call("GET", "/v1/client-portal/account-cockpit", { session }), (r) => r.body as { score_trend: ReadonlyArray<{ calls: number }>; average_score: number | null })
        const total = (c: { score_trend: ReadonlyArray<{ calls: number }> }) => c.score_trend.reduce((n, w) => n + w.calls, 0)
        const [ofOwner, ofA, ofNobody] = [yield* cockpit(owner.session), yield* cockpit(repA), yield* cockpit(nobody)]
        expect([total(ofOwner), total(ofA), total(ofNobody)]).toEqual([4, 2, 0])
        expect([ofOwner.average_score, ofA.average_score, ofNobody.average_score]).toEqual([66.3, 66.5, null])

        // the actions: re-analysing another rep's call is 404; the team's brief on a messaging channel is a manager's to send
        const action = (session: string, body: unknown) => call("POST", "/v1/workspace/actions/run", { session, body })
        expect((yield* action(repA, { action: "reanalyze_call", params: { call_id: othersCall } })).status).toBe(404)
        const brief = yield* action(repA, { action: "send_brief", params: { channel: "messenger-a" } })
        expect([brief.status, brief.body.message]).toEqual([409, expect.stringContaining("the team's")])
      }), 120_000)
  })
})
