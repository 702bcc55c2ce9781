/**
 * The web app (issue 37) showing what the API answers instead of working around it, in real
 * Chromium against the in-process service: `me`'s closer (the rep's own closer named on the calls
 * screen and in the header; a member who is no closer told why there is no call, and offered no
 * upload) and the account's closing (a banner linking to the settings, where an owner keeps the
 * account, and the banner goes); the calls' `external_call_id` on the brief, deal intelligence and
 * manual audits; the daily brief's actions (each a link to the app's page, the closer's link sent
 * again from the brief itself, by the operation the action declares); plan usage's credit pack on
 * the Value screen. Each screen checked with axe-core (no serious or critical violation).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { axeViolations, baseUrl, runBrowser, signedIn, useBrowser } from "./utils/Browser.js"
import { call, freshEmail, memberSession, repSession, signUpByMail } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

const browser = useBrowser()

const server = serverWithSmtp({
  payments: {
    secretKey: Option.some(Redacted.make("sk_test_web_app_answers")),
    webhookSecret: Option.none(),
    apiUrl: new URL("http://127.0.0.1:9"),
    prices: { starter: Option.none(), growth: Option.none(), scale: Option.none(), credit_pack: Option.some("price_pack") },
    creditPackCredits: 40
  }
})


describe.skipIf(!runBrowser)("the web app uses the API's answers", () => {
  layer(server, { excludeTestServices: true, timeout: 240_000 })("against the service", (it) => {
    it.scoped("the brief, deals and audits name calls by their external id; the brief's actions lead to their pages and one is done from it; credits are bought from Value", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const smtp = yield* Smtp
        const owner = yield* signUpByMail(smtp, freshEmail("owner"), "Answers & Co")
        // yesterday's call (UTC, the brief's day without a time zone), with a transcript: an open deal too
        const callId = yield* seedWeekCall(owner.clientId, {
          closerEmail: "ann@acme.test",
          weeksAgo: 0,
          overall: 44,
          dims: { discovery: 44 },
          at: new Date(Date.now() - 86_400_000).toISOString(),
          transcript: [[0, "Shall we talk about the pilot?"], [5, "The budget is tight."]]
        })
        const external = `ext-${callId}`
        const audited = yield* call("POST", "/v1/coaching/manual-audits", { session: owner.session, body: { call_id: callId, scores: { discovery: 60 }, notes: "" } })
        expect(audited.status).toBe(200)
        const pendingEmail = freshEmail("eve")
        const pending = yield* call("POST", "/v1/client-portal/closers", { session: owner.session, body: { email: pendingEmail, full_name: "Eve Pending" } })
        expect(pending.status).toBe(200)
        yield* Effect.orDie(smtp.waitFor(pendingEmail, 1))

        const context: BrowserContext = yield* signedIn(browser(), base, owner.session)
        const errors: Array<string> = []
        const open = async (path: string) => {
          const page = await context.newPage()
          page.on("pageerror", (e) => errors.push(e.message))
          await page.goto(`${base}${path}`)
          await page.locator("h1").first().waitFor({ timeout: 15_000 })
          return page
        }
        const seen = yield* Effect.promise(async () => {
          const briefs = await open("/app/workspace/briefs")
          const brief = briefs.locator("section.panel", { has: briefs.getByRole("heading", { level: 2, name: /^Daily brief for/ }) })
          await brief.locator("table tbody tr").first().waitFor({ timeout: 15_000 })
          const briefCall = await brief.locator("table tbody tr a").first().textContent()
          const deals = briefs.locator("section.panel", { has: briefs.getByRole("heading", { level: 2, name: "Deal intelligence" }) })
          await deals.locator(".deal-cards li").first().waitFor({ timeout: 15_000 })
          const dealCall = await deals.locator(".deal-head a").first().textContent()
          const actions = brief.locator("section[aria-labelledby='brief-actions'] li")
          const review = await actions.filter({ hasText: "Review the call of ann@acme.test" }).locator("a").getAttribute("href")
          const verify = actions.filter({ hasText: `Ask ${pendingEmail} to confirm` })
          const verifyHref = await verify.locator("a").getAttribute("href")
          const axeBriefs = await axeViolations(briefs)
          await verify.getByRole("button", { name: /^Send the link again/ }).click()
          const sent = await verify.getByRole("status").textContent({ timeout: 10_000 })

          const audits = await open("/app/coaching/audits")
          await audits.locator("table tbody tr").first().waitFor({ timeout: 15_000 })
          const auditCall = await audits.locator("table tbody tr td a").first().textContent()

          const value = await open("/app/value")
          const buy = value.getByRole("link", { name: "Buy 40 credits" })
          await buy.waitFor({ timeout: 15_000 })
          const buyHref = await buy.getAttribute("href")
          const axeValue = await axeViolations(value)
          return { briefCall, dealCall, review, verifyHref, sent, axeBriefs, auditCall, buyHref, axeValue }
        })
        expect(seen.briefCall).toBe(external)
        expect(seen.dealCall).toBe(external)
        expect(seen.auditCall).toBe(external)
        // the app's routes of the actions' pages (under /app, wouter's base)
        expect(seen.review).toBe(`/app/calls/${callId}`)
        expect(seen.verifyHref).toBe("/app/team")
        expect(seen.sent).toContain(`Sent to ${pendingEmail}`)
        // the button did what the action declares: the closer got a second link
        expect((yield* Effect.orDie(smtp.waitFor(pendingEmail, 2))).text).toContain("/verify-email#token=")
        expect(seen.buyHref).toBe("http://localhost:8080/v1/client-portal/checkout/credit_pack")
        expect(seen.axeBriefs).toEqual([])
        expect(seen.axeValue).toEqual([])
        expect(errors).toEqual([])
      }))

    it.scoped("a closing account shows a banner to everyone until an owner keeps it in the settings; a rep sees their closer named, a member who is no closer why there is no call", () =>
      Effect.gen(function* () {
        const base = yield* baseUrl
        const smtp = yield* Smtp
        const owner = yield* signUpByMail(smtp, freshEmail("owner"), "Closing & Co")
        const repEmail = freshEmail("rita")
        const rep = yield* repSession(smtp, owner.clientId, repEmail, "Rita Rep")
        const newcomer = yield* memberSession(smtp, owner.clientId, freshEmail("nia"))
        const closed = yield* call("POST", "/v1/client-portal/close", { session: owner.session, body: { company_name: "Closing & Co" } })
        expect(closed.status).toBe(202)

        const errors: Array<string> = []
        const open = async (context: BrowserContext, path: string) => {
          const page = await context.newPage()
          page.on("pageerror", (e) => errors.push(e.message))
          await page.goto(`${base}${path}`)
          await page.locator("h1").first().waitFor({ timeout: 15_000 })
          return page
        }
        const ownerContext = yield* signedIn(browser(), base, owner.session)
        const repContext = yield* signedIn(browser(), base, rep)
        const newcomerContext = yield* signedIn(browser(), base, newcomer)
        const seen = yield* Effect.promise(async () => {
          // a rep sees the closing too, and who may keep the account
          const repCalls = await open(repContext, "/app/calls")
          await repCalls.locator(".banner").waitFor({ timeout: 15_000 })
          const repBanner = await repCalls.locator(".banner").textContent()

          const calls = await open(ownerContext, "/app/calls")
          const banner = calls.locator(".banner")
          await banner.waitFor({ timeout: 15_000 })
          const bannerText = await banner.textContent()
          const deletedAfter = await banner.locator("time").getAttribute("datetime")
          const keepLink = await banner.getByRole("link").getAttribute("href")
          const axeBanner = await axeViolations(calls)
          await banner.getByRole("link").click()
          await calls.getByRole("heading", { level: 2, name: "Close the account" }).waitFor({ timeout: 15_000 })
          await calls.getByRole("button", { name: "Keep the account (cancel the closing)" }).click()
          await calls.getByText("The account is kept: nothing will be deleted.").waitFor({ timeout: 10_000 })
          await banner.waitFor({ state: "detached", timeout: 10_000 })

          await repCalls.reload()
          await repCalls.getByText(/Your calls, as the closer/).waitFor({ timeout: 15_000 })
          const repBannerAfter = await repCalls.locator(".banner").count()
          const repNote = await repCalls.getByText(/Your calls, as the closer/).textContent()
          const repHeader = await repCalls.locator("header.top .who").textContent()
          const repCloserFilter = await repCalls.locator("#f-closer").count()
          const repUpload = await repCalls.locator("input[type=file]").count()
          const axeRep = await axeViolations(repCalls)

          const newcomerCalls = await open(newcomerContext, "/app/calls")
          await newcomerCalls.getByText(/You are not a closer of the team yet/).waitFor({ timeout: 15_000 })
          const newcomerUpload = await newcomerCalls.locator("input[type=file]").count()
          const axeNewcomer = await axeViolations(newcomerCalls)
          return { repBanner, repBannerAfter, bannerText, deletedAfter, keepLink, axeBanner, repNote, repHeader, repCloserFilter, repUpload, axeRep, newcomerUpload, axeNewcomer }
        })
        expect(seen.bannerText).toContain("The account is closing.")
        expect(seen.deletedAfter).toBe(closed.body.deleted_after)
        expect(seen.keepLink).toBe("/app/settings/account")
        expect(seen.repBanner).toContain("The account is closing.")
        expect(seen.repBanner).toContain("An owner can keep it in Settings, Data and account.")
        expect(seen.repBannerAfter).toBe(0)
        expect((yield* call("GET", "/v1/client-auth/me", { session: owner.session })).body.account_closing).toBeNull()
        expect(seen.repNote).toBe(`Your calls, as the closer Rita Rep (${repEmail}). Uploads you make are yours.`)
        expect(seen.repHeader).toContain(`${repEmail} (member, closer Rita Rep)`)
        expect(seen.repCloserFilter).toBe(0)
        expect(seen.repUpload).toBe(1)
        expect(seen.newcomerUpload).toBe(0)
        expect(seen.axeBanner).toEqual([])
        expect(seen.axeRep).toEqual([])
        expect(seen.axeNewcomer).toEqual([])
        expect(errors).toEqual([])
      }))
  })
})
