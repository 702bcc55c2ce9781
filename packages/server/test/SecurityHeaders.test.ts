/**
 * The security headers of every HTML answer (http/SecurityHeaders.ts), read from the in-process
 * server: `/`, `/sign-in`, `/verify-email`, `/portal` signed in and out, `/portal/integrations`, an
 * evidence report (with a tenant key, with the session, under `/reporting`), the page of a refused
 * OAuth callback and `/docs`. Each answer's CSP is checked against the HTML it came with: every
 * inline `<script>` the browser would run is listed by its SHA-256 (computed here from the served
 * text), no `'unsafe-inline'` for scripts, and style attributes only where the style policy allows
 * them. Then Chromium opens the pages and reports no CSP violation, and the sign-in form still asks
 * for a link. HSTS only with the production configuration.
 */
import { CallsightApi, CreateClientRequest } from "@callsight/api-spec"
import { HttpApiClient } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { APP_POLICY } from "../src/http/SecurityHeaders.js"
import { admin } from "./utils/AudioRequests.js"
import { baseUrl, runBrowser, useBrowser } from "./utils/Browser.js"
import { call, freshEmail, outboxToken, type Reply, sessionCookie } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { testServerLayer } from "./utils/TestServer.js"

declare const document: any, window: any

const browser = useBrowser()

const HSTS = "max-age=31536000; includeSubDomains"

/** The directives of a Content-Security-Policy: name → its source list. */
const directivesOf = (csp: string): ReadonlyMap<string, ReadonlyArray<string>> =>
  new Map(
    csp.split(";").map((d) => d.trim()).filter((d) => d !== "").map((d) => {
      const [name, ...values] = d.split(/\s+/)
      return [name!.toLowerCase(), values] as const
    })
  )

/** The sources that govern a kind of resource: its own directive, or `default-src`. */
const sourcesFor = (directives: ReadonlyMap<string, ReadonlyArray<string>>, name: string) =>
  directives.get(name) ?? directives.get("default-src") ?? []

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`

/** The inline scripts of a page the browser runs: no `src`, and JavaScript (no type, or a JS type). */
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\bsrc\s*=/i.test(attributes!))
    .filter(([, attributes]) => {
      const type = /\btype\s*=\s*"([^"]*)"/i.exec(attributes!)?.[1]
      return type === undefined || /javascript|ecmascript|^module$/i.test(type)
    })
    .map(([, , text]) => text!)

const inlineStyles = (html: string) => [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, text]) => text!)

/** What every answer carries, HTML or not. */
const expectBaseHeaders = (reply: Reply, production = false) => {
  expect(reply.headers["x-content-type-options"]).toBe("nosniff")
  expect(reply.headers["x-frame-options"]).toBe("DENY")
  expect(reply.headers["referrer-policy"]).toBe("no-referrer")
  expect(reply.headers["strict-transport-security"]).toBe(production ? HSTS : undefined)
}

type Policy = "page" | "document" | "docs"

/**
 * An HTML answer's headers, its CSP checked against its own HTML; `tenant`: whether it must not be
 * kept in a cache.
 */
const expectHtmlHeaders = (reply: Reply, o: { readonly policy: Policy; readonly tenant: boolean }) => {
  expect(reply.headers["content-type"]).toMatch(/^text\/html/)
  expectBaseHeaders(reply)
  if (o.tenant) expect(reply.headers["cache-control"]).toBe("no-store")
  else expect(reply.headers["cache-control"]).toBeUndefined()
  const csp = reply.headers["content-security-policy"]
  expect(csp).toBeDefined()
  const d = directivesOf(csp!)
  expect(d.get("default-src")).toEqual(o.policy === "document" ? ["'none'"] : ["'self'"])
  expect(d.get("object-src")).toEqual(["'none'"])
  expect(d.get("base-uri")).toEqual(["'none'"])
  expect(d.get("frame-ancestors")).toEqual(["'none'"])
  expect(d.get("form-action")).toEqual(o.policy === "document" ? ["'none'"] : ["'self'"])
  const scriptSrc = sourcesFor(d, "script-src")
  expect(scriptSrc).not.toContain("'unsafe-inline'")
  expect(scriptSrc).not.toContain("'unsafe-eval'")
  expect(scriptSrc).not.toContain("*")
  expect(scriptSrc.some((s) => /^(https?:|data:|blob:)/.test(s))).toBe(false)
  // every inline script of the served page is allowed, by the hash of its exact text
  const html = reply.body as string
  const scripts = inlineScripts(html)
  for (const script of scripts) expect(scriptSrc).toContain(sha256(script))
  // styles: by hash, or (the report, the docs) 'unsafe-inline', the only place it may appear
  const styleSrc = sourcesFor(d, "style-src")
  if (o.policy === "page") {
    expect(styleSrc).not.toContain("'unsafe-inline'")
    for (const style of inlineStyles(html)) expect(styleSrc).toContain(sha256(style))
    expect(html).not.toMatch(/\sstyle\s*=/i)
  } else {
    expect(styleSrc).toContain("'unsafe-inline'")
  }
  return { directives: d, scripts, html }
}

/** A tenant with an API key, made by the admin, and its owner's session (signed in by the outbox's link). */
const tenantWithSession = Effect.gen(function* () {
  const api = yield* HttpApiClient.make(CallsightApi)
  const owner = freshEmail("headers")
  const tenant = yield* api.extensions.createClient({
    headers: admin,
    payload: CreateClientRequest.make({ company_name: "Headers & Co", credits: 3, plan: "growth", owner_email: owner })
  })
  yield* call("POST", "/v1/client-auth/login", { body: { email: owner } })
  const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: yield* outboxToken(owner, 1) } })
  expect(verified.status).toBe(200)
  // the answer that sets the session cookie is never kept in a cache
  expect(verified.headers["cache-control"]).toBe("no-store")
  return { tenant, owner, session: Option.getOrThrow(sessionCookie(verified)).value }
})

/** A completed call of the tenant, written as the worker stores it. */
const completedCall = (clientId: string) =>
  seedWeekCall(clientId, {
    closerEmail: null,
    weeksAgo: 0,
    overall: 64,
    dims: { discovery: 55, listening: 70 },
    talk: 0.52,
    transcript: [[0, "Hi, thanks for taking the call."], [5, "Sure, what do you have?"], [10, "What is slowing your team down today?"]]
  })

describe("security headers", () => {
  layer(testServerLayer(), { excludeTestServices: true })("development configuration", (it) => {
    it.effect("/ and /docs: the public pages, cacheable, their inline scripts and styles allowed by hash", () =>
      Effect.gen(function* () {
        const home = yield* call("GET", "/")
        expect(home.status).toBe(200)
        expectHtmlHeaders(home, { policy: "page", tenant: false })

        const docs = yield* call("GET", "/docs")
        expect(docs.status).toBe(200)
        const { directives, scripts } = expectHtmlHeaders(docs, { policy: "docs", tenant: false })
        // Scalar's configuration and its whole bundle are inline: both allowed, by hash, nothing else
        expect(scripts.length).toBe(2)
        // (and WebAssembly, which Scalar compiles; JavaScript's eval stays refused)
        expect(directives.get("script-src")).toEqual([...scripts.map(sha256), "'wasm-unsafe-eval'"])
        expect(directives.get("connect-src")).toEqual(["'self'"])
      }))

    it.effect("/sign-in, /verify-email, /portal/integrations: pages that carry a token or a result, never cached", () =>
      Effect.gen(function* () {
        for (const path of ["/sign-in", "/verify-email", "/portal/integrations?integration=calendar&status=connected"]) {
          const page = yield* call("GET", path)
          expect(page.status).toBe(200)
          const { scripts } = expectHtmlHeaders(page, { policy: "page", tenant: true })
          expect(scripts.length).toBe(1)
        }
      }))

    it.effect("/portal leads to the app; the app's page has its own policy (its files only) and is revalidated, its assets kept for a year", () =>
      Effect.gen(function* () {
        const out = yield* call("GET", "/portal")
        expect(out.status).toBe(302)
        expect(out.headers["location"]).toBe("/app/")
        expectBaseHeaders(out)

        const { session } = yield* tenantWithSession
        for (const path of ["/app/", "/app/calls/call_x"]) {
          const app = yield* call("GET", path, { session })
          expect(app.status).toBe(200)
          expectBaseHeaders(app)
          expect(app.headers["content-security-policy"]).toBe(APP_POLICY)
          expect(app.headers["cache-control"]).toBe("no-cache")
          expect(app.body).toContain('<div id="root"></div>')
          expect(app.body).not.toMatch(/<script>|style=/)
        }
        const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec((yield* call("GET", "/app/")).body)![1]!
        const script = yield* call("GET", asset)
        expect([script.status, script.headers["content-type"], script.headers["cache-control"]])
          .toEqual([200, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"])
        expect((yield* call("GET", "/app/assets/missing-0000.js")).status).toBe(404)
      }))

    it.effect("the evidence report, with the tenant key, with the session and under /reporting: no script at all, never cached", () =>
      Effect.gen(function* () {
        const { tenant, session } = yield* tenantWithSession
        const callId = yield* completedCall(tenant.client_id)
        const key = { "x-api-key": tenant.api_key }
        const answers = [
          yield* call("GET", `/reports/${callId}/html`, { headers: key }),
          yield* call("GET", `/reporting/reports/${callId}/html`, { headers: key }),
          yield* call("GET", `/v1/client-portal/calls/${callId}/report`, { session })
        ]
        for (const report of answers) {
          expect(report.status).toBe(200)
          const { directives, scripts } = expectHtmlHeaders(report, { policy: "document", tenant: true })
          expect(scripts).toEqual([])
          expect(directives.get("script-src")).toBeUndefined() // default-src 'none'
          expect(directives.get("img-src")).toEqual(["data:"])
        }
        // the JSON of an authenticated operation is not kept either, nor its errors
        const json = yield* call("GET", `/v1/teams/calls/${callId}`, { headers: key })
        expect(json.status).toBe(200)
        expectBaseHeaders(json)
        expect(json.headers["cache-control"]).toBe("no-store")
        expect(json.headers["content-security-policy"]).toBeUndefined()
        const missing = yield* call("GET", `/reports/call_nope/html`, { headers: key })
        expect(missing.status).toBe(404)
        expectBaseHeaders(missing)
        expect(missing.headers["cache-control"]).toBe("no-store")
      }))

    it.effect("the page of a refused OAuth callback: no script, never cached", () =>
      Effect.gen(function* () {
        const refused = yield* call("GET", "/v1/client-portal/integrations/calendar/callback?code=some-code&state=not-a-state")
        expect(refused.status).toBe(400)
        const { scripts } = expectHtmlHeaders(refused, { policy: "document", tenant: true })
        expect(scripts).toEqual([])
      }))

    it.effect("JSON answers: the base headers; the unauthenticated ones are left cacheable", () =>
      Effect.gen(function* () {
        const health = yield* call("GET", "/health")
        expectBaseHeaders(health)
        expect(health.headers["cache-control"]).toBeUndefined()
        const unknown = yield* call("GET", "/no/such/path")
        expect(unknown.status).toBe(404)
        expectBaseHeaders(unknown)
        const refused = yield* call("GET", "/v1/client-auth/me", { session: "not-a-session" })
        expect(refused.status).toBe(401)
        expectBaseHeaders(refused)
        expect(refused.headers["cache-control"]).toBe("no-store")
      }))

    describe.skipIf(!runBrowser)("in Chromium", () => {
      /** Opens a page, runs `then` on it, and answers the CSP violations and CSP console errors seen. */
      const visit = <A>(url: string, then: (page: import("playwright-core").Page) => Promise<A>, cookies: ReadonlyArray<{ name: string; value: string }> = []) =>
        Effect.promise(async () => {
          const context = await browser().newContext()
          if (cookies.length > 0) await context.addCookies(cookies.map((c) => ({ ...c, url: url.slice(0, url.indexOf("/", 8)) })))
          const page = await context.newPage()
          const console: Array<string> = []
          page.on("console", (m) => {
            if (/Content Security Policy|Refused to/i.test(m.text())) console.push(m.text())
          })
          // playwright's init script is not subject to the page's CSP
          await page.addInitScript(() => {
            window.__violations = []
            document.addEventListener("securitypolicyviolation", (e: any) =>
              window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile ?? ""}:${e.lineNumber ?? ""}`))
          })
          await page.goto(url)
          await page.waitForLoadState("load")
          const result = await then(page)
          const violations: Array<string> = await page.evaluate(() => window.__violations)
          await context.close()
          return { result, violations: [...violations, ...console] }
        })

      it.effect("/sign-in runs its script under the CSP: the form asks for a link, no violation", () =>
        Effect.gen(function* () {
          const base = yield* baseUrl
          const email = freshEmail("csp")
          yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Csp Co" } })
          const seen = yield* visit(`${base}/sign-in`, async (page) => {
            await page.waitForFunction(() => document.getElementById("status").className === "info", undefined, { timeout: 10_000 })
            // the form is styled by the page's style sheet (no style attribute)
            const padding = await page.evaluate(() => window.getComputedStyle(document.getElementById("email")).paddingTop)
            await page.fill("#email", email)
            await page.click("button[type=submit]")
            await page.waitForFunction(() => document.getElementById("status").className === "ok", undefined, { timeout: 10_000 })
            return { status: await page.textContent("#status"), padding }
          })
          expect(seen.violations).toEqual([])
          expect(seen.result.padding).toBe("9px")
          expect(seen.result.status).toBe(`If ${email} has an account, a sign-in link is on its way. It is valid for 15 minutes.`)
          // the link the form asked for: the page signs the browser in and opens the portal
          const token = yield* outboxToken(email, 2)
          const signedIn = yield* visit(`${base}/sign-in#token=${token}`, async (page) => {
            await page.waitForURL((u) => u.pathname.startsWith("/app/"), { timeout: 10_000 })
            await page.waitForFunction(() => document.title !== "Callsight", undefined, { timeout: 10_000 })
            return page.title()
          })
          expect(signedIn.violations).toEqual([])
          expect(signedIn.result).toBe("Csp Co · Callsight")
        }))

      it.effect("the app, a report and /docs render with no violation", () =>
        Effect.gen(function* () {
          const base = yield* baseUrl
          const { tenant, session } = yield* tenantWithSession
          const callId = yield* completedCall(tenant.client_id)
          const cookies = [{ name: "callsight_session", value: session }]

          const report = yield* visit(`${base}/v1/client-portal/calls/${callId}/report`, async (page) => ({
            text: (await page.textContent("body")) ?? "",
            // the report's inline style applies
            styled: await page.evaluate(() => document.querySelectorAll("[style]").length > 0 && window.getComputedStyle(document.body).margin !== "8px")
          }), cookies)
          expect(report.violations).toEqual([])
          expect(report.result.text).toContain("Discovery")
          expect(report.result.styled).toBe(true)

          const docs = yield* visit(`${base}/docs`, async (page) => {
            await page.waitForFunction(() => document.body.innerText.includes("Operations probes"), undefined, { timeout: 30_000 })
            await page.waitForTimeout(1000)
            return (await page.evaluate(() => document.body.innerText)) as string
          })
          // the one refusal is zod's probe for eval inside Scalar (`try { new Function("") } catch`),
          // which falls back to not compiling its parsers: the reference renders every group
          expect(docs.violations.filter((v) => !/^script-src eval\b|unsafe-eval|evaluate a string as JavaScript/.test(v))).toEqual([])
          expect(docs.result).toContain("Client portal")
          expect(docs.result).toContain("Operations probes")

          const app = yield* visit(`${base}/portal`, async (page) => {
            // /portal leads to the app; its script runs and styles apply under its policy; sign-out posts the logout and leaves for /sign-in
            await page.waitForURL((u) => u.pathname === "/app/calls", { timeout: 10_000 })
            await page.waitForSelector("h1", { timeout: 10_000 })
            const nav = await page.evaluate(() => window.getComputedStyle(document.querySelector(".nav")).borderBottomStyle)
            await page.getByRole("button", { name: "Sign out" }).click()
            await page.waitForURL((u) => u.pathname === "/sign-in", { timeout: 10_000 })
            return nav
          }, cookies)
          expect(app.violations).toEqual([])
          expect(app.result).toBe("solid")
        }))
    })
  })

  layer(testServerLayer({ production: true, smtpUrl: Option.some(Redacted.make("smtp://127.0.0.1:9")) }), { excludeTestServices: true })(
    "production configuration",
    (it) => {
      it.effect("Strict-Transport-Security on every answer", () =>
        Effect.gen(function* () {
          for (const path of ["/", "/sign-in", "/health", "/no/such/path"]) {
            expectBaseHeaders(yield* call("GET", path), true)
          }
        }))
    }
  )
})
