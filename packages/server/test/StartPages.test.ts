/**
 * Where a newcomer starts: `/` leads to sign-up, sign-in, the portal and the reference, and every
 * link on it leads somewhere; `/signup` is a form of `POST /v1/client-auth/signup` that says what
 * happens next (a sign-in link by e-mail); `/favicon.ico` is an icon, cacheable, named by every
 * page. Over HTTP, then in headless Chromium (Debian's `/usr/bin/chromium` through `playwright-core`):
 * sign up on the page, get the link from the outbox, follow it to the portal; and screenshots of `/`
 * and `/signup` (kept in `REPORT_SCREENSHOTS=<dir>` when set, to look at).
 *
 * Without `/usr/bin/chromium` the browser tests are skipped, unless `CI` is set: then they fail.
 */
import { API_VERSION, VERSION } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { statSync } from "node:fs"
import { join } from "node:path"
import { baseUrl, runBrowser, screenshotDir, useBrowser } from "./utils/Browser.js"
import { call, freshEmail, outboxToken } from "./utils/PortalRequests.js"
import { testServerLayer } from "./utils/TestServer.js"

declare const document: any

const browser = useBrowser()

const ICON_LINK = `<link rel="icon" href="/favicon.ico" sizes="16x16 32x32">`

/** The `href`s of the `<a>` elements of an HTML text. */
const links = (html: string) => [...html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!)

/** The sources the page policy allows for scripts. */
const scriptSources = (csp: string) => /script-src ([^;]+)/.exec(csp)![1]!.split(" ")

describe("the start pages", () => {
  layer(testServerLayer(), { excludeTestServices: true })("over HTTP and in Chromium", (it) => {
    it.effect("/ links to sign-up, sign-in, the portal and the reference, and names the icon", () =>
      Effect.gen(function* () {
        const home = yield* call("GET", "/")
        expect(home.status).toBe(200)
        expect(home.headers["content-type"]).toMatch(/^text\/html/)
        expect(home.body).toContain(ICON_LINK)
        const hrefs = links(home.body)
        for (const href of ["/signup", "/sign-in", "/app/", "/docs", "/openapi.json"]) expect(hrefs, href).toContain(href)
        // the four doors come first, the sign-up first of all
        expect(hrefs.slice(0, 4)).toEqual(["/signup", "/sign-in", "/app/", "/docs"])
        expect(home.body).toMatch(/We e-mail you a link that signs you in/)
        // both versions, each named, as /docs names them
        expect(home.body).toContain(`API ${API_VERSION} · Callsight ${VERSION}`)
        // a public page: cacheable, with the pages' policy
        expect(home.headers["cache-control"]).toBeUndefined()
        expect(home.headers["content-security-policy"]).toMatch(/^default-src 'self'/)
      }))

    it.effect("every link on / leads somewhere: 200 (the app's page too: signed out, the app itself sends the browser to sign in)", () =>
      Effect.gen(function* () {
        const home = yield* call("GET", "/")
        for (const href of new Set(links(home.body))) expect((yield* call("GET", href)).status, href).toBe(200)
      }))

    it.effect("/signup is a form of the signup operation that says what happens next", () =>
      Effect.gen(function* () {
        const page = yield* call("GET", "/signup")
        expect(page.status).toBe(200)
        expect(page.headers["content-type"]).toMatch(/^text\/html/)
        const html = page.body as string
        expect(html).toContain("<title>Sign up · Callsight</title>")
        expect(html).toContain(ICON_LINK)
        expect(html).toContain(`<form id="signup" class="fields">`)
        // the fields of SignupRequest, the required ones required
        expect(html).toMatch(/<input id="email" name="email" type="email" required/)
        expect(html).toMatch(/<input id="company_name" name="company_name" type="text" required maxlength="200"/)
        expect(html).toMatch(/<input id="full_name" name="full_name" type="text" maxlength="200"/)
        expect(html).toContain(`fetch("/v1/client-auth/signup"`)
        expect(html).toContain("We e-mail you a link that signs you in and opens your portal: there is no password.")
        expect(html).toContain("Check your inbox: we sent a sign-in link to")
        expect([...new Set(links(html))]).toEqual(["/", "/sign-in"])
        // the page's one script is allowed by its hash, nothing inline else; no caching (as /sign-in)
        const csp = page.headers["content-security-policy"]!
        expect(csp).not.toContain("unsafe-inline")
        const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!
        expect(scriptSources(csp)).toContain(`'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`)
        expect(page.headers["cache-control"]).toBe("no-store")
      }))

    it.effect("the sign-in page leads to the sign-up, and every page names the icon, the portal's too", () =>
      Effect.gen(function* () {
        const signIn = (yield* call("GET", "/sign-in")).body as string
        expect(signIn).toContain(`No account yet? <a href="/signup">Sign up</a>`)
        for (const path of ["/", "/signup", "/sign-in", "/verify-email"]) {
          expect((yield* call("GET", path)).body, path).toContain(ICON_LINK)
        }
        // the portal (the app), signed in
        const email = freshEmail("icon")
        yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Icon Co" } })
        const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: yield* outboxToken(email, 1) } })
        const session = /callsight_session=([^;]+)/.exec(verified.headers["set-cookie"]!)![1]!
        const portal = yield* call("GET", "/app/", { session })
        expect(portal.status).toBe(200)
        expect(portal.body).toContain('<link rel="icon" href="/favicon.ico"')
      }))

    it.effect("/favicon.ico is an icon (an ICO of two PNGs), cacheable for a day, with or without a session", () =>
      Effect.gen(function* () {
        const variants: ReadonlyArray<{ readonly session?: string; readonly headers?: Record<string, string> }> = [
          {},
          { session: "some-session" },
          { headers: { "x-api-key": "csk_whatever" } }
        ]
        for (const options of variants) {
          const reply = yield* Effect.gen(function* () {
            const client = yield* HttpClient.HttpClient
            let request = HttpClientRequest.get("/favicon.ico")
            if (options.session !== undefined) request = HttpClientRequest.setHeader(request, "cookie", `callsight_session=${options.session}`)
            if (options.headers !== undefined) request = HttpClientRequest.setHeaders(request, options.headers)
            const response = yield* client.execute(request)
            return { status: response.status, headers: response.headers, bytes: new Uint8Array(yield* response.arrayBuffer) }
          }).pipe(Effect.orDie)
          expect(reply.status).toBe(200)
          expect(reply.headers["content-type"]).toBe("image/x-icon")
          expect(reply.headers["cache-control"]).toBe("public, max-age=86400")
          expect(reply.headers["set-cookie"]).toBeUndefined()
          const view = Buffer.from(reply.bytes)
          // ICONDIR: reserved 0, type 1 (icon), two images; each entry's PNG where it says
          expect([view.readUInt16LE(0), view.readUInt16LE(2), view.readUInt16LE(4)]).toEqual([0, 1, 2])
          const sizes = [0, 1].map((i) => {
            const entry = 6 + 16 * i
            const [size, length, offset] = [view[entry]!, view.readUInt32LE(entry + 8), view.readUInt32LE(entry + 12)]
            expect(view.subarray(offset, offset + 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))
            expect(offset + length).toBeLessThanOrEqual(view.length)
            // the PNG's own width (IHDR) is the entry's
            expect(view.readUInt32BE(offset + 16)).toBe(size)
            return size
          })
          expect(sizes).toEqual([16, 32])
        }
      }))

    it.scoped.skipIf(!runBrowser)("in Chromium: / to /signup, sign up, the link from the e-mail opens the portal; screenshots", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const email = freshEmail("newcomer")
        const shots = yield* screenshotDir("callsight-start-")
        const seen = yield* Effect.promise(async () => {
          const context = await browser().newContext({ viewport: { width: 1000, height: 800 } })
          const page = await context.newPage()
          const external: Array<string> = []
          const failed: Array<string> = []
          const problems: Array<string> = []
          page.on("request", (r) => {
            if (!r.url().startsWith(base)) external.push(r.url())
          })
          page.on("response", (r) => {
            if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`)
          })
          page.on("console", (m) => {
            if (m.type() === "error") problems.push(m.text())
          })
          await page.goto(`${base}/`)
          await page.waitForLoadState("load")
          await page.screenshot({ path: join(shots, "home.png"), fullPage: true })
          const homeTitle = await page.title()
          // the icon the page names is there (headless Chromium does not fetch icons itself)
          const icon = await page.evaluate(async () => {
            const response = await fetch(document.querySelector("link[rel=icon]").href)
            return { status: response.status, type: response.headers.get("content-type"), url: response.url }
          })
          await page.click("nav a.primary")
          await page.waitForURL((u) => u.pathname === "/signup")
          await page.screenshot({ path: join(shots, "signup.png"), fullPage: true })
          const intro = await page.textContent("#status")
          // a company name of spaces: the service refuses it, the page says so in its words
          await page.fill("#email", email)
          await page.fill("#company_name", "   ")
          await page.click("button[type=submit]")
          await page.waitForFunction(() => document.getElementById("status").className === "error")
          const refused = await page.textContent("#status")
          await page.fill("#company_name", "Newcomer Ltd")
          await page.fill("#full_name", "Nia Newcomer")
          await page.click("button[type=submit]")
          await page.waitForFunction(() => document.getElementById("status").className === "ok")
          const done = await page.textContent("#status")
          const formGone = (await page.$("#signup")) === null
          const next = await page.textContent("#next")
          await page.screenshot({ path: join(shots, "signup-done.png"), fullPage: true })
          // the same e-mail again: the service's 409, and the way to sign in is on the page
          await page.goto(`${base}/signup`)
          await page.fill("#email", email)
          await page.fill("#company_name", "Newcomer Ltd")
          await page.click("button[type=submit]")
          await page.waitForFunction(() => document.getElementById("status").className === "error")
          const again = await page.textContent("#status")
          await context.close()
          return { homeTitle, icon, intro, refused, done, formGone, next, again, external, failed, problems }
        })
        if (process.env.REPORT_SCREENSHOTS) console.log(`start page screenshots: ${join(shots, "home.png")}, ${join(shots, "signup.png")}, ${join(shots, "signup-done.png")}`)
        for (const name of ["home.png", "signup.png", "signup-done.png"]) expect(statSync(join(shots, name)).size).toBeGreaterThan(10_000)
        expect(seen.homeTitle).toBe("Callsight")
        expect(seen.intro).toBe("Create your company's account. We e-mail you a link that signs you in and opens your portal: there is no password.")
        expect(seen.refused).toBe("Enter your company's name (up to 200 characters).")
        expect(seen.done).toBe(
          `Your account is ready. Check your inbox: we sent a sign-in link to ${email}. ` +
            "Open it to sign in and land on your portal; it works once, for 15 minutes."
        )
        expect(seen.formGone).toBe(true)
        expect(seen.next).toBe("No e-mail within a few minutes? Look in the spam folder, or ask for a new link.")
        expect(seen.again).toBe(`an account with the e-mail ${email} exists: sign in instead`)
        // the icon is found; nothing failed but the refused signups; nothing external, no CSP error
        expect(seen.icon).toEqual({ status: 200, type: "image/x-icon", url: `${base}/favicon.ico` })
        expect(seen.failed.every((f) => f.endsWith("/v1/client-auth/signup"))).toBe(true)
        expect(seen.external).toEqual([])
        expect(seen.problems.filter((p) => /Content Security Policy|Refused/.test(p))).toEqual([])

        // the e-mail the page promised: its link signs the browser in and opens the portal
        const token = yield* outboxToken(email, 1)
        const landed = yield* Effect.promise(async () => {
          const context = await browser().newContext()
          const page = await context.newPage()
          await page.goto(`${base}/sign-in#token=${token}`)
          await page.waitForURL((u) => u.pathname === "/app/calls", { timeout: 10_000 })
          await page.waitForFunction(() => document.title !== "Callsight", undefined, { timeout: 10_000 })
          const title = await page.title()
          await context.close()
          return title
        })
        expect(landed).toBe("Newcomer Ltd · Callsight")
      }))
  })
})
