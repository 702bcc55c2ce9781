/**
 * Headless Chromium for the page tests: Debian's `/usr/bin/chromium` driven by `playwright-core`,
 * launched once per test file. Without it the tests are skipped, unless `CI` is set: then they fail.
 */
import AxeBuilder from "@axe-core/playwright"
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"

const CHROMIUM = "/usr/bin/chromium"
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

/** Whether this machine runs the browser tests. */
export const runBrowser = existsSync(CHROMIUM) || Boolean(process.env.CI)

/** Launches the browser before the file's tests and closes it after; the getter answers it. */
export const useBrowser = (): (() => Browser) => {
  let browser: Browser | undefined
  beforeAll(async () => {
    if (runBrowser) browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => browser!
}

/** The base URL of the in-process server. */
export const baseUrl = Effect.map(HttpServer.HttpServer, (server) => `http://127.0.0.1:${(server.address as HttpServer.TcpAddress).port}`)

/**
 * A directory for a test's screenshots: `REPORT_SCREENSHOTS` when set (kept there to look at, as
 * the report's screenshot test does), otherwise a temporary one removed with the scope.
 */
export const screenshotDir = (prefix: string) => {
  const keep = process.env.REPORT_SCREENSHOTS
  return keep
    ? Effect.sync(() => (mkdirSync(keep, { recursive: true }), keep))
    : Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), prefix))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
}

/** The page's serious and critical accessibility violations (axe), each as "rule: the elements". */
export const axeViolations = async (page: Page): Promise<Array<string>> => {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

/** A browser context signed in with this session cookie (1280 × 900), closed with the scope. */
export const signedIn = (browser: Browser, base: string, session: string) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<BrowserContext> => {
      const c = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      await c.addCookies([{ name: "callsight_session", value: session, url: base }])
      return c
    }),
    (c) => Effect.promise(() => c.close())
  )
