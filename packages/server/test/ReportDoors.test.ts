/**
 * The report's two doors (docs/domain.md, "Audio analysis for agents"): `GET /reports/{call_id}/html`,
 * the `report_url` of an upload, answers the tenant key (agents) and, without a key, the portal
 * session of one of the tenant's users (a person who opens the link in a signed-in browser). The
 * same report either way, byte for byte, and the same as the portal's own report operation; another
 * tenant's session or key is 404, as an unknown call; a presented key decides alone. A real call,
 * uploaded and analysed by the workers. In Chromium (when `/usr/bin/chromium` is there) the link
 * opens in a browser that holds the session cookie alone.
 */
import { CallsightApi, CreateClientRequest } from "@callsight/api-spec"
import { HttpApiClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { fixture } from "../../../test/utils/Fixtures.js"
import { admin, settle, upload } from "./utils/AudioRequests.js"
import { baseUrl, runBrowser, useBrowser } from "./utils/Browser.js"
import { call, freshEmail, outboxToken, sessionCookie } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { ADMIN_KEY, testServerLayer } from "./utils/TestServer.js"


const browser = useBrowser()

/** A tenant made by the admin, with credits, a key and an owner signed in through the outbox. */
const tenant = (company: string) =>
  Effect.gen(function* () {
    const api = yield* HttpApiClient.make(CallsightApi)
    const owner = freshEmail("doors")
    const created = yield* api.extensions.createClient({
      headers: admin,
      payload: CreateClientRequest.make({ company_name: company, credits: 3, plan: "growth", owner_email: owner })
    })
    yield* call("POST", "/v1/client-auth/login", { body: { email: owner } })
    const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: yield* outboxToken(owner, 1) } })
    return { clientId: created.client_id as string, key: created.api_key as string, session: Option.getOrThrow(sessionCookie(verified)).value }
  })

const KEY_CHALLENGE = `ApiKey realm="callsight", header="X-API-Key"`
const SESSION_CHALLENGE = `Cookie realm="callsight", cookie-name="callsight_session", form-action="/sign-in"`

/** One analysed call of tenant A, and tenant B beside it; made once for the file. */
let made: { a: Effect.Effect.Success<ReturnType<typeof tenant>>; b: Effect.Effect.Success<ReturnType<typeof tenant>>; callId: string; reportUrl: string } | undefined
const setup = Effect.gen(function* () {
  if (made !== undefined) return made
  const a = yield* tenant("Doors A")
  const b = yield* tenant("Doors B")
  const accepted = yield* upload(a.key, fixture("discovery-short.mp3"), { name: "call.mp3", externalCallId: "doors-1" })
  expect(accepted.status).toBe(202)
  const callId = accepted.body.call_id as string
  expect((yield* settle(a.key, callId)).status).toBe("completed")
  made = { a, b, callId, reportUrl: new URL(accepted.body.report_url).pathname }
  return made
})

describe("the report's doors: the tenant key and the portal session", () => {
  layer(testServerLayer({ workerConcurrency: 1 }, { workers: true }), { excludeTestServices: true })("a call analysed", (it) => {
    it.effect("the session door answers the same report as the key door, and as the portal's report operation", () =>
      Effect.gen(function* () {
        const { a, callId, reportUrl } = yield* setup
        expect(reportUrl).toBe(`/reports/${callId}/html`)
        const byKey = yield* call("GET", reportUrl, { headers: { "x-api-key": a.key } })
        const bySession = yield* call("GET", reportUrl, { session: a.session })
        expect(byKey.status).toBe(200)
        expect(bySession.status).toBe(200)
        expect(byKey.body).toMatch(/^<!doctype html>/i)
        expect(byKey.body).toContain("doors-1")
        expect(bySession.body).toBe(byKey.body)
        // the same answer's headers: HTML, the reports' policy (no script), kept out of caches
        for (const h of ["content-type", "content-security-policy", "cache-control"]) {
          expect(bySession.headers[h], h).toBe(byKey.headers[h])
        }
        expect(bySession.headers["content-type"]).toMatch(/^text\/html/)
        expect(bySession.headers["content-security-policy"]).toMatch(/^default-src 'none'/)
        expect(bySession.headers["cache-control"]).toBe("no-store")
        expect(bySession.headers["www-authenticate"]).toBeUndefined()
        const portal = yield* call("GET", `/v1/client-portal/calls/${callId}/report`, { session: a.session })
        expect(portal.body).toBe(byKey.body)
        // and under the /reporting alias
        expect((yield* call("GET", `/reporting${reportUrl}`, { session: a.session })).body).toBe(byKey.body)
      }))

    it.effect("another tenant's session or key is 404, exactly as an unknown call", () =>
      Effect.gen(function* () {
        const { a, b, callId, reportUrl } = yield* setup
        const notFound = { _tag: "NotFound", message: `no call ${callId}` }
        const bSession = yield* call("GET", reportUrl, { session: b.session })
        expect(bSession).toMatchObject({ status: 404, body: notFound })
        const bKey = yield* call("GET", reportUrl, { headers: { "x-api-key": b.key } })
        expect(bKey).toMatchObject({ status: 404, body: notFound })
        const unknown = yield* call("GET", "/reports/call_nobody/html", { session: a.session })
        expect(unknown).toMatchObject({ status: 404, body: { _tag: "NotFound", message: "no call call_nobody" } })
        // nothing of A's report in B's answers
        expect(JSON.stringify([bSession.body, bKey.body])).not.toContain("doors-1")
      }))

    it.effect("a presented key decides alone: a bad key is 401, a staff key 403, another tenant's key 404, whatever the session", () =>
      Effect.gen(function* () {
        const { a, b, reportUrl } = yield* setup
        const bad = yield* call("GET", reportUrl, { session: a.session, headers: { "x-api-key": "csk_not_a_key" } })
        expect(bad).toMatchObject({ status: 401, body: { _tag: "Unauthorized", message: "invalid API key" } })
        expect(bad.headers["www-authenticate"]).toBe(KEY_CHALLENGE)
        const staff = yield* call("GET", reportUrl, { session: a.session, headers: { "x-api-key": ADMIN_KEY } })
        expect(staff).toMatchObject({ status: 403, body: { _tag: "Forbidden" } })
        expect((yield* call("GET", reportUrl, { session: a.session, headers: { "x-api-key": b.key } })).status).toBe(404)
        // B's session beside A's key: A's report
        expect((yield* call("GET", reportUrl, { session: b.session, headers: { "x-api-key": a.key } })).status).toBe(200)
      }))

    it.effect("without a key: no session is 401 naming both doors; an unknown or expired one 401 naming the sign-in", () =>
      Effect.gen(function* () {
        const { a, reportUrl } = yield* setup
        const none = yield* call("GET", reportUrl)
        expect(none.status).toBe(401)
        expect(none.body).toEqual({
          _tag: "Unauthorized",
          message: "missing credentials: send your API key in the X-API-Key header, " +
            "or open this link in a browser signed in to the portal (/sign-in)"
        })
        expect(none.headers["www-authenticate"]).toBe(`${KEY_CHALLENGE}, ${SESSION_CHALLENGE}`)
        const stale = { _tag: "Unauthorized", message: "the session is unknown or expired: sign in again at /sign-in" }
        const unknown = yield* call("GET", reportUrl, { session: "not-a-session" })
        expect(unknown).toMatchObject({ status: 401, body: stale, headers: { "www-authenticate": SESSION_CHALLENGE } })
        // A's session, expired: refused, and A's other doors still open
        const sql = yield* SqlClient.SqlClient
        const other = yield* tenant("Doors A, expired")
        yield* sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE client_id = ${other.clientId}`
        expect(yield* call("GET", reportUrl, { session: other.session })).toMatchObject({ status: 401, body: stale })
        expect((yield* call("GET", reportUrl, { session: a.session })).status).toBe(200)
      }))

    it.effect("a call not completed yet is 409 through the session door too", () =>
      Effect.gen(function* () {
        const { a } = yield* setup
        const queued = yield* seedWeekCall(a.clientId, { closerEmail: null, weeksAgo: 0, status: "queued" })
        const reply = yield* call("GET", `/reports/${queued}/html`, { session: a.session })
        expect(reply).toMatchObject({
          status: 409,
          body: { _tag: "Conflict", message: "the analysis is queued; the report exists once it is completed" }
        })
      }))

    it.effect.skipIf(!runBrowser)("in Chromium, the report_url opens in a browser that holds the session cookie alone", () =>
      Effect.gen(function* () {
        const { a, b, reportUrl } = yield* setup
        const base = yield* baseUrl
        const byKey = (yield* call("GET", reportUrl, { headers: { "x-api-key": a.key } })).body as string
        const open = (session: string) =>
          Effect.promise(async () => {
            const context = await browser().newContext()
            await context.addCookies([{ name: "callsight_session", value: session, url: base }])
            const page = await context.newPage()
            const response = await page.goto(`${base}${reportUrl}`)
            const status = response!.status()
            const html = await response!.text()
            const text = (await page.textContent("body")) ?? ""
            await context.close()
            return { status, html, text }
          })
        const mine = yield* open(a.session)
        expect(mine.status).toBe(200)
        expect(mine.html).toBe(byKey)
        expect(mine.text).toContain("doors-1")
        const theirs = yield* open(b.session)
        expect(theirs.status).toBe(404)
        expect(theirs.text).not.toContain("doors-1")
      }))
  })
})
