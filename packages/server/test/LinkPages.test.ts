/**
 * The pages the e-mailed links open, in headless Chromium (Debian's `/usr/bin/chromium` driven by
 * `playwright-core`) against the in-process server: `/sign-in#token=…` signs the browser in (the
 * session cookie set, the token gone from the address bar), `/verify-email#token=…` confirms a
 * closer, a used or bad token says so. Tokens come from the outbox (no SMTP_URL here).
 *
 * Without `/usr/bin/chromium` the tests are skipped, unless `CI` is set: then they fail.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, freshEmail, outboxToken } from "./utils/PortalRequests.js"
import { baseUrl, runBrowser, useBrowser } from "./utils/Browser.js"
import { testServerLayer } from "./utils/TestServer.js"

declare const document: any, location: any

const browser = useBrowser()


/**
 * Opens `path` in a fresh browser context; answers the status line once the page has settled (or,
 * with `landsOn`, once the browser reached that path), and what the browser kept and asked for.
 */
const openPage = (url: string, options: { readonly landsOn?: string } = {}) =>
  Effect.promise(async () => {
    const context = await browser().newContext()
    const page = await context.newPage()
    const external: Array<string> = []
    const visited: Array<string> = []
    page.on("request", (r) => {
      visited.push(r.url())
      if (!r.url().startsWith(url.slice(0, url.indexOf("/", 8)))) external.push(r.url())
    })
    await page.goto(url)
    if (options.landsOn !== undefined) {
      await page.waitForURL((u) => u.pathname.startsWith(options.landsOn!), { timeout: 10_000 })
      await page.waitForLoadState("load")
      // the app names the company in the title once it knows who signed in
      await page.waitForFunction(() => document.title !== "Callsight", undefined, { timeout: 10_000 })
    } else {
      await page.waitForFunction(() => document.getElementById("status").className !== "", undefined, { timeout: 10_000 })
    }
    const status = options.landsOn !== undefined
      ? { text: "", kind: "" }
      : await page.evaluate(() => ({ text: document.getElementById("status").textContent, kind: document.getElementById("status").className }))
    const address = await page.evaluate(() => location.href)
    const title = await page.title()
    const cookies = await context.cookies()
    await context.close()
    return { status, address, title, cookies, external, visited }
  })

describe.skipIf(!runBrowser)("the pages of the e-mailed links", () => {
  layer(testServerLayer(), { excludeTestServices: true })("in Chromium", (it) => {
    it.effect("/sign-in#token=… signs the browser in, and drops the token from the address bar", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const email = freshEmail("browser")
        yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Browser Co" } })
        const token = yield* outboxToken(email, 1)
        const opened = yield* openPage(`${base}/sign-in#token=${token}`, { landsOn: "/app/calls" })
        // signed in, the browser opens the app (its first screen); the token never reached an address
        expect(opened.address).toBe(`${base}/app/calls`)
        expect(opened.title).toBe("Browser Co · Callsight")
        expect(opened.visited.every((u) => !u.includes(token))).toBe(true)
        expect(opened.external).toEqual([])
        const cookie = opened.cookies.find((c) => c.name === "callsight_session")!
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })
        // the browser's session is a real one
        const me = yield* call("GET", "/v1/client-auth/me", { session: cookie.value })
        expect(me.body.email).toBe(email)

        // the same link again: used
        const again = yield* openPage(`${base}/sign-in#token=${token}`)
        expect(again.status).toEqual({ text: "the sign-in link is unknown, used or expired: ask for a new one", kind: "error" })
        expect(again.cookies).toEqual([])
        // without a token: a form that asks for a link
        const none = yield* openPage(`${base}/sign-in`)
        expect(none.status).toEqual({ text: "Enter your work e-mail: we send you a link that signs you in.", kind: "info" })
      }))

    it.effect("/verify-email#token=… confirms a closer's e-mail", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const owner = freshEmail("owner")
        yield* call("POST", "/v1/client-auth/signup", { body: { email: owner, company_name: "Closers Inc" } })
        const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: yield* outboxToken(owner, 1) } })
        const session = /callsight_session=([^;]+)/.exec(verified.headers["set-cookie"]!)![1]!
        const closer = freshEmail("closer")
        yield* call("POST", "/v1/client-portal/closers", { session, body: { email: closer, full_name: "Cleo" } })
        const opened = yield* openPage(`${base}/verify-email#token=${yield* outboxToken(closer, 1)}`)
        expect(opened.status).toEqual({ text: `Thank you: ${closer} is confirmed.`, kind: "ok" })
        expect((yield* call("GET", "/v1/client-portal/closers", { session })).body.closers[0].status).toBe("active")
      }))
  })
})
