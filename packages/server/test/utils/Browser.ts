/**
 * Headless Chromium for the page tests: Debian's `/usr/bin/chromium` driven by `playwright-core`,
 * launched once per test file. Without it the tests are skipped, unless `CI` is set: then they fail.
 */
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Browser, chromium } from "playwright-core"

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
