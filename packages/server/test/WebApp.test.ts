/**
 * The web app (packages/web, issue 37) end to end in real Chromium (Debian's, driven by
 * playwright-core) against the in-process service on PostgreSQL (or the embedded database), with
 * e-mail going to a real SMTP sink and transcripts from a local server speaking Deepgram's
 * protocol: a person signs in by the e-mailed link and lands where they were, uploads a recording
 * from the browser and watches it complete, plays it and jumps to an evidence moment (the audio
 * from the range-request endpoint), records an outcome after seeing a field's error where the
 * field is; a manager connects a closer's calendar through a local OAuth server (the browser goes
 * there and comes back), sees a profile's bad values refused at their fields, adds a webhook
 * endpoint that a local receiver then hears from, and sends a delivery again; each screen is
 * checked with axe-core (no serious or critical violation) and photographed at 1280 px and at
 * phone width. The first load's JavaScript is measured too.
 */
import AxeBuilder from "@axe-core/playwright"
import { describe, expect, it, layer } from "@effect/vitest"
import { Cause, Context, Effect, Layer, Option, Redacted } from "effect"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { Page } from "playwright-core"
import { loadWebApp } from "../src/http/WebApp.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { freePort } from "../../../test/utils/ServeProcess.js"
import { baseUrl, runBrowser, screenshotDir, useBrowser } from "./utils/Browser.js"
import { type MeetingProviders, startMeetingProviders } from "./utils/MeetingProviders.js"
import { call, freshEmail, tokenOf } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { startSmtpServer } from "./utils/SmtpServer.js"
import { Smtp } from "./utils/SmtpServerLayer.js"
import { startDeepgram } from "./utils/SpeechProviders.js"
import { testServerLayer } from "./utils/TestServer.js"
import { startReceiver } from "./utils/WebhookReceiver.js"

declare const document: any
declare const window: any

const DEEPGRAM_KEY = "dg_web_app_test_key_0123456789"

const browser = useBrowser()

class Providers extends Context.Tag("test/MeetingProviders")<Providers, MeetingProviders>() {}

/**
 * The service with its workers, e-mail to an SMTP sink, transcripts from a local Deepgram, calendars
 * and video tools from local OAuth servers. It listens on a port chosen first, so that its public
 * URL is its own: the OAuth provider sends the browser back there.
 */
const appServer = Layer.unwrapScoped(Effect.gen(function* () {
  const smtp = yield* startSmtpServer
  const deepgram = yield* startDeepgram({ apiKey: DEEPGRAM_KEY })
  const providers = yield* startMeetingProviders
  const port = yield* Effect.promise(freePort)
  return Layer.mergeAll(
    testServerLayer({
      ...providers.config,
      publicBaseUrl: `http://127.0.0.1:${port}`,
      smtpUrl: Option.some(Redacted.make(smtp.url)),
      signInLimitPerAddress: 1000,
      workerConcurrency: 1,
      transcriber: "deepgram",
      deepgramApiKey: Option.some(Redacted.make(DEEPGRAM_KEY)),
      deepgramBaseUrl: deepgram.url
    }, { workers: true, port }),
    Layer.succeed(Smtp, smtp),
    Layer.succeed(Providers, providers)
  )
}))

/** Serious and critical accessibility violations of the page as it is now: their ids and where. */
const axeViolations = async (page: Page) => {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

describe("the web app's build", () => {
  it("loads under 250 kB of compressed JavaScript and CSS, and its page has no inline script or style", () => {
    const files = loadWebApp()
    const page = files.get("/app/index.html")
    expect(page, "the web app is built (npm run build)").toBeDefined()
    const html = new TextDecoder().decode(page!.body)
    const loaded = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(loaded.some((p) => p.endsWith(".js"))).toBe(true)
    const compressed = loaded.reduce((n, path) => n + gzipSync(files.get(path)!.body).length, 0)
    expect(compressed).toBeLessThan(250_000)
    expect(html).not.toMatch(/<script>|<style>|style=/)
  })
})

describe.skipIf(!runBrowser)("the web app in Chromium", () => {
  layer(appServer, { excludeTestServices: true })("against the service", (it) => {
    it.scoped("sign in by the e-mailed link, upload, watch it complete, play and jump to a moment, record an outcome (a field's error at the field)", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const smtp = yield* Smtp
        const owner = freshEmail("owner")
        // a new account: its trial credits let it upload at once
        expect((yield* call("POST", "/v1/client-auth/signup", { body: { email: owner, company_name: "Web & Co" } })).status).toBe(201)
        const shots = yield* screenshotDir("callsight-web-")

        const context = yield* Effect.acquireRelease(
          Effect.promise(() => browser().newContext({ viewport: { width: 1280, height: 900 } })),
          (c) => Effect.promise(() => c.close())
        )
        const errors: Array<string> = []
        const watch = (page: Page) => {
          page.on("pageerror", (e) => errors.push(e.message))
          page.on("console", (m) => {
            if (m.type() === "error" && !/Failed to load resource/.test(m.text())) errors.push(m.text())
          })
          return page
        }
        const shot = async (page: Page, name: string) => {
          await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true })
          await page.setViewportSize({ width: 375, height: 800 })
          await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true })
          await page.setViewportSize({ width: 1280, height: 900 })
        }

        // signed out, the app sends the browser to sign in, remembering where it was
        yield* Effect.promise(async () => {
          const asking = watch(await context.newPage())
          await asking.goto(`${base}/app/team`)
          await asking.waitForURL((u) => u.pathname === "/sign-in", { timeout: 15_000 })
          await asking.fill("#email", owner)
          await asking.click("button[type=submit]")
          await asking.waitForFunction(() => document.getElementById("status").className === "ok", undefined, { timeout: 10_000 })
          await asking.close()
        })
        // the signup's link, then the one the form asked for
        const token = tokenOf(yield* Effect.orDie(smtp.waitFor(owner, 2)))

        const page = watch(yield* Effect.promise(() => context.newPage()))
        /** The step's failure with what the page showed, and a screenshot of it (`failure.png`). */
        const explained = (error: unknown) =>
          Effect.promise(async () => {
            await page.screenshot({ path: join(shots, "failure.png"), fullPage: true }).catch(() => undefined)
            const body = await page.textContent("body").catch(() => "")
            const cause = error instanceof Cause.UnknownException ? error.error : error
            return new Error(`${String(cause)}\nat ${page.url()}\npage errors: ${errors.join(" | ")}\npage: ${body}`)
          }).pipe(Effect.flatMap(Effect.die))
        const result = yield* Effect.tryPromise(async () => {
          // the link opens in a new tab, as from the mail; it leads to the page the person was on
          await page.goto(`${base}/sign-in#token=${token}`)
          await page.waitForURL((u) => u.pathname === "/app/team", { timeout: 15_000 })
          await page.getByRole("link", { name: "Calls" }).click()
          await page.getByRole("heading", { level: 1, name: "Calls" }).waitFor({ timeout: 15_000 })
          const emptyText = await page.locator(".empty").textContent()
          const axeCalls = await axeViolations(page)

          // upload from the browser: the status follows it to completed
          await page.setInputFiles("input[type=file]", { name: "discovery-short.mp3", mimeType: "audio/mpeg", buffer: Buffer.from(fixture("discovery-short.mp3")) })
          const done = page.locator(".uploads a", { hasText: "completed" })
          await done.waitFor({ timeout: 120_000 })
          await page.locator("table a").first().waitFor({ timeout: 15_000 })
          const listed = await page.locator("tbody tr").count()
          await shot(page, "calls")

          // the call: transcript, evidence; a moment plays the audio from there
          await done.click()
          await page.getByRole("heading", { level: 2, name: "Evidence" }).waitFor({ timeout: 15_000 })
          const segments = await page.locator(".segment").count()
          // the summary: its three parts, at least one item (an agreed step, or the risk of none), each quote exact
          const summaryParts = await page.getByRole("region", { name: "Summary" }).locator("h3").allTextContents()
          const summaryItems = await page.locator(".summary > li").count()
          const summaryQuotes = await page.locator(".summary .quote").allTextContents()
          const axeCall = await axeViolations(page)
          await page.waitForFunction(() => document.querySelector("audio").readyState >= 1, undefined, { timeout: 15_000 })
          const moment = page.locator(".moments button").nth(1)
          const label = (await moment.textContent()) ?? "0:00"
          const [m, s] = label.split(":").map(Number)
          await moment.click()
          await page.waitForFunction((at: number) => Math.abs(document.querySelector("audio").currentTime - at) < 1.5, m! * 60 + s!, { timeout: 10_000 })
          const playedAt = await page.evaluate(() => document.querySelector("audio").currentTime as number)

          // the outcome: a currency that is not three letters is refused at its field; then saved
          await page.getByRole("combobox", { name: "Outcome", exact: true }).selectOption("won")
          await page.getByLabel("Deal value").fill("12000")
          await page.getByLabel("Currency").fill("EURO")
          await page.getByRole("button", { name: "Save the outcome" }).click()
          const fieldError = page.locator(".field.invalid .field-error")
          await fieldError.waitFor({ timeout: 10_000 })
          const currencyError = { label: await page.locator(".field.invalid label").textContent(), text: await fieldError.textContent() }
          await page.getByLabel("Currency").fill("EUR")
          await page.getByRole("button", { name: "Save the outcome" }).click()
          await page.getByText("Saved.").waitFor({ timeout: 10_000 })
          await shot(page, "call")
          const callId = new URL(page.url()).pathname.split("/").at(-1)!
          const session = (await context.cookies()).find((c) => c.name === "callsight_session")!.value
          return { emptyText, axeCalls, listed, segments, summaryParts, summaryItems, summaryQuotes, axeCall, expected: m! * 60 + s!, playedAt, currencyError, callId, session }
        }).pipe(Effect.catchAll(explained))
        expect(result.emptyText).toContain("No call yet")
        expect(result.listed).toBe(1)
        expect(result.segments).toBeGreaterThan(3)
        expect(result.summaryParts).toEqual(["What the buyer needs", "What was agreed", "Open risks"])
        expect(result.summaryItems).toBeGreaterThan(0)
        expect(Math.abs(result.playedAt - result.expected)).toBeLessThan(1.5)
        expect(result.currencyError.label).toBe("Currency")
        expect(result.currencyError.text).not.toBe("")
        expect(result.axeCalls).toEqual([])
        expect(result.axeCall).toEqual([])
        expect(errors).toEqual([])

        // what the form saved is the outcome of the call
        const outcome = yield* call("GET", `/v1/client-portal/calls/${result.callId}/outcome-truth`, { session: result.session })
        expect(outcome.body).toMatchObject({ call_id: result.callId, outcome: "won", deal_value: 12000, currency: "EUR" })
        // every quote the summary shows is words of the call's transcript
        const analysed = yield* call("GET", `/v1/workspace/calls/${result.callId}`, { session: result.session })
        const said = (analysed.body.transcript as Array<{ text: string }>).map((t) => t.text).join("\n")
        const quoted = result.summaryQuotes.map((q) => /“(.*)”$/s.exec(q)![1]!)
        expect(quoted.length).toBeGreaterThan(0)
        for (const q of quoted) expect(said).toContain(q)
      }), 240_000)

    it.scoped("a team: the owner adds and verifies a closer and invites them; the rep signs in and sees only their calls, in the list, the search and the chat; every screen asks each thing once and passes axe at both widths", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const smtp = yield* Smtp
        const owner = freshEmail("boss")
        const rep = freshEmail("rita")
        const signup = yield* call("POST", "/v1/client-auth/signup", { body: { email: owner, company_name: "Team & Co" } })
        const clientId = signup.body.client_id as string
        const ownerSession = (yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(yield* Effect.orDie(smtp.waitFor(owner, 1))) } }))
          .headers["set-cookie"]!.match(/callsight_session=([^;]+)/)![1]!
        const transcript = [[0, "Thanks for joining, shall we talk about the zebrafish pilot?"], [5, "Yes, the zebrafish pilot budget is tight."]] as const
        const repCall = yield* seedWeekCall(clientId, { closerEmail: rep, weeksAgo: 0, overall: 64, dims: { discovery: 64 }, at: new Date(Date.now() - 3_600_000).toISOString(), transcript })
        const otherCall = yield* seedWeekCall(clientId, { closerEmail: "someone.else@acme.test", weeksAgo: 0, overall: 81, dims: { discovery: 81 }, at: new Date(Date.now() - 7_200_000).toISOString(), transcript })
        const shots = yield* screenshotDir("callsight-web-team-")
        const context = (cookie: string) =>
          Effect.acquireRelease(
            Effect.promise(async () => {
              const c = await browser().newContext({ viewport: { width: 1280, height: 900 } })
              await c.addCookies([{ name: "callsight_session", value: cookie, url: base }])
              return c
            }),
            (c) => Effect.promise(() => c.close())
          )
        const errors: Array<string> = []
        const open = async (ctx: { newPage: () => Promise<Page> }, path: string) => {
          const page = await ctx.newPage()
          page.on("pageerror", (e) => errors.push(e.message))
          await page.goto(`${base}${path}`)
          await page.locator("h1").first().waitFor({ timeout: 15_000 })
          return page
        }
        const rows = (page: Page) => page.locator("table tbody tr a").allTextContents()

        // the owner, in the Team screen: adds the rep as a closer, then invites them as a member
        const ownerContext = yield* context(ownerSession)
        const team = yield* Effect.promise(async () => {
          const page = await open(ownerContext, "/app/team")
          await page.locator("form[aria-label='Invite a member']").waitFor({ state: "attached", timeout: 10_000 })
          // the forms are folded under their summaries: unfold them
          for (const summary of await page.locator("summary").all()) {
            if (!(await summary.evaluate((s: any) => s.parentElement.open))) await summary.click()
          }
          const add = page.getByRole("form", { name: "Add a closer" })
          await add.getByLabel("E-mail").fill(rep)
          await add.getByLabel("Full name").fill("Rita Rep")
          await add.getByRole("button", { name: "Add the closer" }).click()
          await page.getByRole("cell", { name: /Rita Rep/ }).first().waitFor({ timeout: 10_000 })
          const invite = page.getByRole("form", { name: "Invite a member" })
          await invite.getByLabel("E-mail").fill(rep)
          await invite.getByLabel("Role").selectOption("member")
          await invite.getByRole("button", { name: "Send the invitation" }).click()
          await page.getByText(rep).nth(1).waitFor({ timeout: 10_000 })
          return { axe: await axeViolations(page) }
        })
        // the closer confirms their e-mail (the verification link), then takes the invitation (its link signs them in)
        yield* Effect.orDie(smtp.waitFor(rep, 2))
        const verification = smtp.to(rep).find((m) => m.text.includes("/verify-email#token="))!
        const invitation = smtp.to(rep).find((m) => m.text.includes("/sign-in#token="))!
        const repContext = yield* Effect.acquireRelease(
          Effect.promise(() => browser().newContext({ viewport: { width: 1280, height: 900 } })),
          (c) => Effect.promise(() => c.close())
        )
        const verified = yield* Effect.promise(async () => {
          const page = await repContext.newPage()
          await page.goto(`${base}/verify-email#token=${tokenOf(verification)}`)
          // the page shows its working line without a class until the answer came: then "ok" or "error"
          await page.waitForFunction(() => ["ok", "error"].includes(document.getElementById("status")!.className), undefined, { timeout: 10_000 })
          const text = await page.textContent("#status")
          await page.goto(`${base}/sign-in#token=${tokenOf(invitation)}`)
          await page.waitForURL((u) => u.pathname === "/app/calls", { timeout: 15_000 })
          await page.locator("table tbody tr").first().waitFor({ timeout: 15_000 })
          return { text, calls: await rows(page), axe: await axeViolations(page), nav: await page.getByRole("navigation", { name: "Screens" }).textContent() }
        })
        const ownerCalls = yield* Effect.promise(async () => {
          const page = await open(ownerContext, "/app/calls")
          await page.locator("table tbody tr").nth(1).waitFor({ timeout: 15_000 })
          return rows(page)
        })

        // the rep's search and chat: their call only
        const asked = yield* Effect.promise(async () => {
          const page = await open(repContext, "/app/workspace")
          await page.getByLabel("Search calls, transcripts, closers and notes").fill("zebrafish")
          await page.getByRole("button", { name: "Search", exact: true }).click()
          await page.locator(".hits li").first().waitFor({ timeout: 10_000 })
          const hits = await page.locator(".hits li a").evaluateAll((links) => links.map((a: any) => a.getAttribute("href") as string))
          const axeSearch = await axeViolations(page)
          await page.goto(`${base}/app/workspace/chat`)
          await page.getByLabel("Your question").fill("find zebrafish")
          await page.getByRole("button", { name: "Send" }).click()
          await page.locator(".bubble").nth(1).waitFor({ timeout: 10_000 })
          const answer = (await page.locator(".chat").textContent()) ?? ""
          return { hits, axeSearch, answer }
        })

        // the rep's screens (their narrower view): axe at both widths, no 403 shown anywhere
        const repScreens = yield* Effect.promise(async () => {
          const found: Record<string, ReadonlyArray<string>> = {}
          for (const path of ["/app/calls", `/app/calls/${repCall}`, "/app/workspace", "/app/workspace/briefs", "/app/coaching", "/app/coaching/trends", "/app/value", "/app/team", "/app/settings"]) {
            const page = await open(repContext, path)
            await page.waitForLoadState("networkidle")
            const refused = await page.getByText(/cannot do this|ask an owner or an admin/).count()
            found[path] = [...await axeViolations(page), ...(refused > 0 ? ["a refusal is shown"] : [])]
            await page.setViewportSize({ width: 375, height: 800 })
            found[`${path} at 375`] = await axeViolations(page)
            await page.close()
          }
          return found
        })

        // every screen of the owner: one request per widget, axe, and a photograph at both widths
        const screens = yield* Effect.promise(async () => {
          const found: Record<string, ReadonlyArray<string>> = {}
          for (const path of ["/app/calls", "/app/team", "/app/coaching", "/app/coaching/trends", "/app/coaching/wiki", "/app/coaching/audits", "/app/coaching/closing-audits", "/app/workspace", "/app/workspace/chat", "/app/workspace/briefs", "/app/value", "/app/activity", "/app/activity/audit-log", "/app/settings", "/app/settings/integrations", "/app/settings/recorder", "/app/settings/api-keys", "/app/settings/webhooks", "/app/settings/account", `/app/calls/${repCall}`]) {
            // each widget asks once: no request of the API is made twice while the screen loads
            const asked: Array<string> = []
            const counting = await ownerContext.newPage()
            counting.on("request", (r) => {
              if (new URL(r.url()).pathname.startsWith("/v1/")) asked.push(`${r.method()} ${r.url().slice(base.length)}`)
            })
            await counting.goto(`${base}${path}`)
            await counting.locator("h1").first().waitFor({ timeout: 15_000 })
            await counting.waitForLoadState("networkidle")
            const twice = asked.filter((r, i) => asked.indexOf(r) !== i)
            if (twice.length > 0) found[`${path} requests`] = twice.map((r) => `asked twice: ${r}`)
            await counting.close()
            const page = await open(ownerContext, path)
            await page.waitForLoadState("networkidle")
            found[path] = await axeViolations(page)
            const name = path.slice(5).replace(/\//g, "_") || "home"
            await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true })
            await page.setViewportSize({ width: 375, height: 800 })
            found[`${path} at 375`] = await axeViolations(page)
            const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)
            if (wide) found[`${path} at 375`] = [...found[`${path} at 375`]!, "wider than the screen"]
            await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true })
            await page.close()
          }
          return found
        })

        expect(team.axe).toEqual([])
        expect(verified.text).toBe(`Thank you: ${rep} is confirmed.`)
        expect(verified.calls).toHaveLength(1)
        expect(verified.axe).toEqual([])
        // a rep's navigation: no activity (the managers')
        expect(verified.nav).not.toContain("Activity")
        expect(ownerCalls).toHaveLength(2)
        expect(asked.hits.every((h) => h.includes(repCall))).toBe(true)
        expect(asked.hits.some((h) => h.includes(otherCall))).toBe(false)
        expect(asked.hits.length).toBeGreaterThan(0)
        expect(asked.axeSearch).toEqual([])
        expect(asked.answer).toContain("zebrafish")
        expect(asked.answer).not.toContain(otherCall)
        expect(screens).toEqual(Object.fromEntries(Object.keys(screens).map((k) => [k, []])))
        expect(repScreens).toEqual(Object.fromEntries(Object.keys(repScreens).map((k) => [k, []])))
        expect(errors).toEqual([])
      }), 600_000)

    it.scoped("settings: connect a closer's calendar through the local OAuth server and come back; a profile's bad values at their fields; a webhook endpoint added (its secret once), told of an analysis, and sent again", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const smtp = yield* Smtp
        const providers = yield* Providers
        const owner = freshEmail("settings")
        const signup = yield* call("POST", "/v1/client-auth/signup", { body: { email: owner, company_name: "Settings & Co" } })
        expect(signup.status).toBe(201)
        const session = (yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(yield* Effect.orDie(smtp.waitFor(owner, 1))) } }))
          .headers["set-cookie"]!.match(/callsight_session=([^;]+)/)![1]!
        const closer = yield* call("POST", "/v1/client-portal/closers", { session, body: { email: freshEmail("maria"), full_name: "Maria Closer" } })
        expect(closer.status).toBe(200)
        const receiver = yield* startReceiver()
        const shots = yield* screenshotDir("callsight-web-settings-")
        const context = yield* Effect.acquireRelease(
          Effect.promise(async () => {
            const c = await browser().newContext({ viewport: { width: 1280, height: 900 } })
            await c.addCookies([{ name: "callsight_session", value: session, url: base }])
            return c
          }),
          (c) => Effect.promise(() => c.close())
        )
        const errors: Array<string> = []
        const page = yield* Effect.promise(async () => {
          const p = await context.newPage()
          p.on("pageerror", (e) => errors.push(e.message))
          return p
        })
        const fieldError = (label: string) => page.locator(".field.invalid", { has: page.getByText(label, { exact: true }) }).locator(".field-error")

        // the calendar: Connect goes to the provider, which sends the browser back to the service, which lands on this page
        const connected = yield* Effect.promise(async () => {
          await page.goto(`${base}/app/settings/integrations`)
          await page.getByRole("button", { name: "Connect Maria Closer's calendar" }).click()
          await page.waitForURL((u) => u.pathname === "/app/settings/integrations" && u.searchParams.get("status") === "connected", { timeout: 15_000 })
          // said once the closers are read: whose tool it was
          const status = page.getByRole("status").filter({ hasText: /^Maria Closer's/ })
          await status.waitFor({ timeout: 10_000 })
          const said = await status.textContent()
          await page.screenshot({ path: join(shots, "integrations-connected-1280.png"), fullPage: true })
          return { said, axe: await axeViolations(page) }
        })
        const closers = (yield* call("GET", "/v1/client-portal/closers", { session })).body.closers as Array<any>
        expect(closers.find((c) => c.closer_id === closer.body.closer_id).calendar.connected).toBe(true)
        // the code was exchanged with its PKCE verifier, and the browser came back to this service's own callback
        const exchange = providers.calendar.exchanges.at(-1)!
        expect(exchange).toMatchObject({ grantType: "authorization_code", status: 200 })
        expect(exchange.body["code_verifier"]).toMatch(/^[A-Za-z0-9_-]{43,128}$/)
        expect(exchange.body["redirect_uri"]).toBe(`${base}/v1/client-portal/integrations/calendar/callback`)
        expect(connected.said).toBe("Maria Closer's calendar is connected.")
        expect(connected.axe).toEqual([])

        // the market profile: a sales cycle out of bounds and a time zone that is none, each refused at its field; then saved
        const profile = yield* Effect.promise(async () => {
          await page.goto(`${base}/app/settings/profiles`)
          const form = page.getByRole("form", { name: "Market profile" })
          await form.getByLabel("Industry", { exact: true }).fill("Laboratory software")
          await form.getByLabel("Sales cycle (days)").fill("5000")
          await form.getByLabel("Time zone").fill("Mars/Olympus_Mons")
          await form.getByRole("button", { name: "Save the market profile" }).click()
          await fieldError("Sales cycle (days)").waitFor({ timeout: 10_000 })
          const shown = {
            cycle: await fieldError("Sales cycle (days)").textContent(),
            zone: await fieldError("Time zone").textContent(),
            invalid: await page.locator(".field.invalid label").allTextContents(),
            describedBy: await form.getByLabel("Sales cycle (days)").getAttribute("aria-invalid")
          }
          await page.screenshot({ path: join(shots, "profiles-invalid-1280.png"), fullPage: true })
          const axe = await axeViolations(page)
          await form.getByLabel("Sales cycle (days)").fill("45")
          await form.getByLabel("Time zone").fill("Europe/Berlin")
          await form.getByRole("button", { name: "Save the market profile" }).click()
          await form.getByRole("status").filter({ hasText: "Saved." }).waitFor({ timeout: 10_000 })
          return { shown, axe, invalidAfter: await page.locator(".field.invalid").count() }
        })
        expect(profile.shown.invalid.sort()).toEqual(["Sales cycle (days)", "Time zone"])
        expect(profile.shown.cycle).toBe("must be between 0 and 3650")
        expect(profile.shown.zone).toContain("must be an IANA time zone")
        expect(profile.shown.describedBy).toBe("true")
        expect(profile.axe).toEqual([])
        expect(profile.invalidAfter).toBe(0)
        // the service says the same of the same values, at the same field
        const refused = yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { sales_cycle_days: 5000 } })
        expect(refused.status).toBe(422)
        expect(refused.body.detail.map((d: { loc: Array<string> }) => d.loc.at(-1))).toContain("sales_cycle_days")
        expect((yield* call("GET", "/v1/client-portal/market-profile", { session })).body).toMatchObject({
          industry: "Laboratory software",
          sales_cycle_days: 45,
          time_zone: "Europe/Berlin"
        })

        // a webhook endpoint: its URL refused at its field when it is none, then added; the secret is shown once
        const hook = yield* Effect.promise(async () => {
          await page.goto(`${base}/app/settings/webhooks`)
          const form = page.getByRole("form", { name: "Add a webhook endpoint" })
          await form.getByRole("button", { name: "Add the endpoint" }).click()
          await fieldError("Endpoint URL").waitFor({ timeout: 10_000 })
          const blank = await fieldError("Endpoint URL").textContent()
          await form.getByLabel("Endpoint URL").fill(`${receiver.url}/callsight`)
          await form.getByLabel("Description (optional)").fill("our CRM bridge")
          await form.getByRole("button", { name: "Add the endpoint" }).click()
          const secret = await page.getByLabel("The new endpoint's signing secret").inputValue({ timeout: 10_000 })
          await page.getByRole("cell", { name: /our CRM bridge/ }).waitFor({ timeout: 10_000 })
          await page.screenshot({ path: join(shots, "webhooks-created-1280.png"), fullPage: true })
          const axe = await axeViolations(page)
          // a call is analysed: the endpoint is told
          await page.goto(`${base}/app/calls`)
          await page.setInputFiles("input[type=file]", { name: "discovery-short.mp3", mimeType: "audio/mpeg", buffer: Buffer.from(fixture("discovery-short.mp3")) })
          await page.locator(".uploads a", { hasText: "completed" }).waitFor({ timeout: 120_000 })
          return { blank, secret, axe }
        })
        expect(hook.blank).toBe("required")
        expect(hook.secret).toMatch(/^whsec_/)
        expect(hook.axe).toEqual([])
        const [first] = yield* Effect.orDie(receiver.waitFor(1, { timeoutMs: 60_000 }))
        expect(JSON.parse(first!.body).type).toBe("analysis.completed")
        // the secret is not shown again, nor in the list
        const listed = yield* call("GET", "/v1/teams/webhooks", { session })
        expect(JSON.stringify(listed.body)).not.toContain(hook.secret)

        // its deliveries: the one made, delivered; sent again from the page, with the same webhook-id
        const again = yield* Effect.promise(async () => {
          await page.goto(`${base}/app/settings/webhooks`)
          await page.getByRole("button", { name: "Deliveries" }).click()
          const delivery = page.locator(".meetings > li").first()
          await delivery.waitFor({ timeout: 10_000 })
          const before = await delivery.textContent()
          await delivery.getByRole("button", { name: "Send again" }).click()
          const status = page.getByRole("status").filter({ hasText: "Sent again" })
          await status.waitFor({ timeout: 15_000 })
          const said = await status.textContent()
          const axe = await axeViolations(page)
          await page.screenshot({ path: join(shots, "webhooks-deliveries-1280.png"), fullPage: true })
          await page.setViewportSize({ width: 375, height: 800 })
          const axePhone = await axeViolations(page)
          const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)
          await page.screenshot({ path: join(shots, "webhooks-deliveries-375.png"), fullPage: true })
          return { before, said, axe, axePhone, wide }
        })
        expect(again.before).toContain("delivered")
        expect(again.before).toContain("analysis.completed")
        expect(again.said).toBe("Sent again: HTTP 204, delivered.")
        expect(again.axe).toEqual([])
        expect(again.axePhone).toEqual([])
        expect(again.wide).toBe(false)
        const both = yield* Effect.orDie(receiver.waitFor(2, { timeoutMs: 10_000 }))
        expect(both[1]!.headers["webhook-id"]).toBe(both[0]!.headers["webhook-id"])
        expect(errors).toEqual([])
      }), 240_000)
  })
})
