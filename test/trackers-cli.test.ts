/**
 * `callsight trackers …` (docs/trackers.md) against `callsight serve`, with the portal session
 * `login` and `verify` store: add (bad input exits 2 with the service's 422 detail), list, report
 * (JSON and text), remove; and without a session, a usage error (exit 2). The counts themselves are
 * checked by value in packages/server/test/Trackers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startSmtpServer, type TestSmtpServer } from "../packages/server/test/utils/SmtpServer.js"
import { cliInProcess } from "./utils/CliInProcess.js"
import { type RunningServer, startServer } from "./utils/Server.js"

let scope: Scope.CloseableScope
let smtp: TestSmtpServer
let server: RunningServer
let configDir: string
let env: Record<string, string> = {}
const email = `owner.${Date.now()}@trackers.test`

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  smtp = await Effect.runPromise(Scope.extend(startSmtpServer, scope))
  server = await startServer({ env: { SMTP_URL: smtp.url, WORKER_CONCURRENCY: "1" } })
  configDir = await mkdtemp(join(tmpdir(), "callsight-config-"))
  env = { CALLSIGHT_URL: server.url, CALLSIGHT_CONFIG_DIR: join(configDir, "callsight") }
  const created = await cliInProcess(["admin", "create-tenant", "--name", "Trackers Co", "--owner-email", email, "--json"], {
    CALLSIGHT_URL: server.url,
    CALLSIGHT_ADMIN_KEY: server.adminKey
  })
  expect(created.code, created.stderr).toBe(0)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  if (configDir !== undefined) await rm(configDir, { recursive: true, force: true })
})

describe("callsight trackers", () => {
  it("without a session: a usage error", async () => {
    const out = await cliInProcess(["trackers", "list"], env)
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/not signed in to .*: run `callsight login EMAIL`/)
  })

  it("adds, lists, reports and removes with the stored session", { timeout: 60_000 }, async () => {
    expect((await cliInProcess(["login", email], env)).code).toBe(0)
    const mail = await Effect.runPromise(smtp.waitFor(email))
    const link = /(http\S+\/sign-in#token=[A-Za-z0-9_-]+)/.exec(mail.text)![1]!
    expect((await cliInProcess(["verify", link], env)).code).toBe(0)

    const added = await cliInProcess(["trackers", "add", "Pricing", "--kind", "pricing", "--term", "price", "--term", "annual contract", "--json"], env)
    expect(added.code, added.stderr).toBe(0)
    const saved = JSON.parse(added.stdout)
    expect(saved.tracker).toMatchObject({ name: "Pricing", kind: "pricing", terms: ["price", "annual contract"], source: "tenant" })
    expect(saved.backfill).toEqual({ calls_matched: 0, calls_left: 0 })

    const twice = await cliInProcess(["trackers", "add", "Twice", "--term", "Price", "--term", "price"], env)
    expect(twice.code).toBe(2) // the service's 422 is the caller's mistake: a usage error
    expect(twice.stderr).toMatch(/rejected the request \(422\)/)
    expect(twice.stderr).toContain("terms")

    const list = await cliInProcess(["trackers", "list"], env)
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain(`${saved.tracker.tracker_id}  Pricing  (pricing)`)
    expect(list.stdout).toContain("terms: price, annual contract")

    const report = await cliInProcess(["trackers", "report", "--period", "month", "--json"], env)
    expect(report.code, report.stderr).toBe(0)
    const body = JSON.parse(report.stdout)
    expect(body).toMatchObject({ period: "month", calls: [], next_cursor: null })
    expect(body.trackers.map((t: any) => [t.name, t.mentions, t.terms.map((x: any) => x.term)])).toEqual([["Pricing", 0, ["price", "annual contract"]]])
    const text = await cliInProcess(["trackers", "report"], env)
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain("Pricing (pricing): 0 mentions in 0 calls")

    const removed = await cliInProcess(["trackers", "remove", saved.tracker.tracker_id], env)
    expect(removed.code, removed.stderr).toBe(0)
    expect(removed.stdout).toContain(`Removed ${saved.tracker.tracker_id} (Pricing).`)
    const gone = await cliInProcess(["trackers", "remove", saved.tracker.tracker_id], env)
    expect(gone.code).toBe(3)
    expect(gone.stderr).toMatch(/404/)
  })
})
