/**
 * The web app (packages/web, issue 37) end to end in real Chromium (Debian's, driven by
 * playwright-core) against the in-process service on PostgreSQL (or the embedded database), with
 * e-mail going to a real SMTP sink and transcripts from a local server speaking Deepgram's
 * protocol: a person signs in by the e-mailed link and lands where they were, uploads a recording
 * from the browser and watches it complete, plays it and jumps to an evidence moment (the audio
 * from the range-request endpoint), records an outcome after seeing a field's error where the
 * field is; each screen is checked with axe-core (no serious or critical violation) and
 * photographed at 1280 px and at phone width. The first load's JavaScript is measured too.
 */
import AxeBuilder from "@axe-core/playwright"
import { describe, expect, it, layer } from "@effect/vitest"
import { Cause, Effect, Layer, Option, Redacted } from "effect"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { Page } from "playwright-core"
import { loadWebApp } from "../src/http/WebApp.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { baseUrl, runBrowser, screenshotDir, useBrowser } from "./utils/Browser.js"
import { call, freshEmail, tokenOf } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { startSmtpServer } from "./utils/SmtpServer.js"
import { Smtp } from "./utils/SmtpServerLayer.js"
import { startDeepgram } from "./utils/SpeechProviders.js"
import { testServerLayer } from "./utils/TestServer.js"

declare const document: any
declare const window: any

const DEEPGRAM_KEY = "dg_web_app_test_key_0123456789"

const browser = useBrowser()

/** The service with its workers, e-mail to an SMTP sink, transcripts from a local Deepgram. */
const appServer = Layer.unwrapScoped(Effect.gen(function* () {
  const smtp = yield* startSmtpServer
  const deepgram = yield* startDeepgram({ apiKey: DEEPGRAM_KEY })
  return Layer.merge(
    testServerLayer({
      smtpUrl: Option.some(Redacted.make(smtp.url)),
      signInLimitPerAddress: 1000,
      workerConcurrency: 1,
      transcriber: "deepgram",
      deepgramApiKey: Option.some(Redacted.make(DEEPGRAM_KEY)),
      deepgramBaseUrl: deepgram.url
    }, { workers: true }),
    Layer.succeed(Smtp, smtp)
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
          return { emptyText, axeCalls, listed, segments, axeCall, expected: m! * 60 + s!, playedAt, currencyError, callId, session }
        }).pipe(Effect.catchAll(explained))
        expect(result.emptyText).toContain("No call yet")
        expect(result.listed).toBe(1)
        expect(result.segments).toBeGreaterThan(3)
        expect(Math.abs(result.playedAt - result.expected)).toBeLessThan(1.5)
        expect(result.currencyError.label).toBe("Currency")
        expect(result.currencyError.text).not.toBe("")
        expect(result.axeCalls).toEqual([])
        expect(result.axeCall).toEqual([])
        expect(errors).toEqual([])

        // what the form saved is the outcome of the call
        const outcome = yield* call("GET", `/v1/client-portal/calls/${result.callId}/outcome-truth`, { session: result.session })
        expect(outcome.body).toMatchObject({ call_id: result.callId, outcome: "won", deal_value: 12000, currency: "EUR" })
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
          await page.waitForFunction(() => document.getElementById("status").className !== "info", undefined, { timeout: 10_000 })
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
          for (const path of ["/app/calls", `/app/calls/${repCall}`, "/app/workspace", "/app/coaching", "/app/value", "/app/team", "/app/settings"]) {
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
          for (const path of ["/app/calls", "/app/team", "/app/coaching", "/app/coaching/wiki", "/app/coaching/audits", "/app/workspace", "/app/workspace/chat", "/app/workspace/briefs", "/app/value", "/app/activity", "/app/activity/audit-log", "/app/settings", "/app/settings/integrations", "/app/settings/recorder", "/app/settings/api-keys", "/app/settings/account", `/app/calls/${repCall}`]) {
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
      }), 300_000)
  })
})
