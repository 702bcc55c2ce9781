/**
 * `/portal`, the page a signed-in user lands on, in headless Chromium against the in-process
 * server with its workers: asking for a link on `/sign-in`, the link from the outbox, the portal
 * with yesterday's analysed call in the daily brief, the cockpit, the latest calls, the coaching
 * focus, and the call's report opened from its link with the session alone. A screenshot is taken;
 * set `REPORT_SCREENSHOTS=<dir>` to keep it there to look at. Without a session the page sends the
 * browser to `/sign-in`.
 *
 * Without `/usr/bin/chromium` the tests are skipped, unless `CI` is set: then they fail.
 */
import { CallsightApi, CreateClientRequest } from "@callsight/api-spec"
import { HttpApiClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { statSync } from "node:fs"
import { join } from "node:path"
import { admin, settle, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { call, freshEmail, outboxToken, sessionCookie } from "./utils/PortalRequests.js"
import { baseUrl, runBrowser, screenshotDir, useBrowser } from "./utils/Browser.js"
import { testServerLayer } from "./utils/TestServer.js"

declare const document: any

const browser = useBrowser()


describe.skipIf(!runBrowser)("the portal page", () => {
  layer(testServerLayer({ workerConcurrency: 1 }, { workers: true }), { excludeTestServices: true })("in Chromium", (it) => {
    it.scoped("ask for a link, follow it, land on the portal: yesterday's call in the brief, the cockpit, the calls, the coaching focus, the report", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const sql = yield* SqlClient.SqlClient
        const owner = freshEmail("portal")
        const api = yield* HttpApiClient.make(CallsightApi)
        const tenant = yield* api.extensions.createClient({
          headers: admin,
          payload: CreateClientRequest.make({ company_name: "Portal & Sons", credits: 3, plan: "growth", owner_email: owner })
        })
        // a closer and a real analysed call of theirs, made yesterday
        const ownerSession = yield* Effect.gen(function* () {
          yield* call("POST", "/v1/client-auth/login", { body: { email: owner } })
          const token = yield* outboxToken(owner, 1)
          const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token } })
          return Option.getOrThrow(sessionCookie(verified)).value
        })
        const closer = freshEmail("maria")
        yield* call("POST", "/v1/client-portal/closers", { session: ownerSession, body: { email: closer, full_name: "Maria <Closer>" } })
        const accepted = yield* upload(tenant.api_key, fixture("discovery-short.mp3"), { closerEmail: closer, externalCallId: "deal-42" })
        const callId = accepted.body.call_id as string
        const status = yield* settle(tenant.api_key, callId)
        expect(status.status).toBe("completed")
        yield* sql`UPDATE calls SET created_at = created_at - interval '1 day', completed_at = completed_at - interval '1 day' WHERE call_id = ${callId}`

        const shot = join(yield* screenshotDir("callsight-portal-"), "portal.png")
        const seen = yield* Effect.promise(async () => {
          const context = await browser().newContext({ viewport: { width: 1200, height: 900 } })
          const page = await context.newPage()
          const external: Array<string> = []
          page.on("request", (r) => {
            if (!r.url().startsWith(base)) external.push(r.url())
          })
          // no session: the portal sends the browser to the sign-in form
          await page.goto(`${base}/portal`)
          await page.waitForURL((u) => u.pathname === "/sign-in")
          await page.fill("#email", owner)
          await page.click("button[type=submit]")
          await page.waitForFunction(() => document.getElementById("status").className === "ok")
          const asked = await page.textContent("#status")
          await context.close()
          return { asked, external }
        })
        expect(seen.asked).toBe(`If ${owner} has an account, a sign-in link is on its way. It is valid for 15 minutes.`)

        const token = yield* outboxToken(owner, 2)
        const portal = yield* Effect.promise(async () => {
          const context = await browser().newContext({ viewport: { width: 1200, height: 900 } })
          const page = await context.newPage()
          const external: Array<string> = []
          page.on("request", (r) => {
            if (!r.url().startsWith(base)) external.push(r.url())
          })
          await page.goto(`${base}/sign-in#token=${token}`)
          await page.waitForURL((u) => u.pathname === "/portal")
          await page.waitForLoadState("load")
          const title = await page.title()
          const text = (await page.textContent("main")) ?? ""
          const html = await page.content()
          await page.screenshot({ path: shot, fullPage: true })
          // the report, from its link in the latest calls
          await page.click(`a[href="/v1/client-portal/calls/${callId}/report"] >> nth=0`)
          await page.waitForLoadState("load")
          const reportUrl = page.url()
          const report = (await page.textContent("body")) ?? ""
          await context.close()
          return { title, text, html, external, reportUrl, report }
        })
        if (process.env.REPORT_SCREENSHOTS) console.log(`portal screenshot: ${shot}`)
        expect(statSync(shot).size).toBeGreaterThan(20_000)
        expect(portal.title).toBe("Portal & Sons · Callsight")
        expect(portal.external).toEqual([])
        // the brief: yesterday's one call, its score; the latest calls: the call by its external id
        const analysis = (yield* call("GET", `/v1/teams/calls/${callId}`, { headers: { "x-api-key": tenant.api_key } })).body
        const score = String(Math.round(analysis.scorecard.overall))
        expect(portal.text).toContain("1 call yesterday · 1 analysed · average score " + score)
        expect(portal.text).toContain(`Weakest call: score ${score}`)
        expect(portal.text).toContain("deal-42")
        expect(portal.text).toContain(`Review the call of ${closer}: the lowest score yesterday (${score})`)
        // the cockpit and the coaching focus (escaped: the closer's name has angle brackets)
        expect(portal.text).toContain("growth")
        expect(portal.html).toContain("Maria &lt;Closer&gt;")
        expect(portal.html).not.toContain("Maria <Closer>")
        expect(portal.text).toMatch(/This week's focus/)
        // the report opened with the session alone
        expect(portal.reportUrl).toBe(`${base}/v1/client-portal/calls/${callId}/report`)
        expect(portal.report).toContain(score)
        const direct = yield* call("GET", `/reports/${callId}/html`, { headers: { "x-api-key": tenant.api_key } })
        const viaPortal = yield* call("GET", `/v1/client-portal/calls/${callId}/report`, { session: ownerSession })
        expect(viaPortal.body).toBe(direct.body)
      }))
  })
})
