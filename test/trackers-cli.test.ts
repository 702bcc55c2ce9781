/**
 * `callsight trackers …` (docs/trackers.md) against `callsight serve`, with the portal session
 * `login` and `verify` store: add (bad input exits 2 with the service's 422 detail), list, report
 * (JSON and text), remove; and without a session, a usage error (exit 2). The counts themselves are
 * checked by value in packages/server/test/Trackers.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { cliInProcess } from "./utils/CliInProcess.js"
import { signIn, usePortalCli } from "./utils/PortalCli.js"

const email = `owner.${Date.now()}@trackers.test`
const cli = usePortalCli("Trackers Co", email)

describe("callsight trackers", () => {
  it("without a session: a usage error", async () => {
    const out = await cliInProcess(["trackers", "list"], cli().env)
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/not signed in to .*: run `callsight login EMAIL`/)
  })

  it("adds, lists, reports and removes with the stored session", { timeout: 60_000 }, async () => {
    await signIn(cli(), email)

    const added = await cliInProcess(["trackers", "add", "Pricing", "--kind", "pricing", "--term", "price", "--term", "annual contract", "--json"], cli().env)
    expect(added.code, added.stderr).toBe(0)
    const saved = JSON.parse(added.stdout)
    expect(saved.tracker).toMatchObject({ name: "Pricing", kind: "pricing", terms: ["price", "annual contract"], source: "tenant" })
    expect(saved.backfill).toEqual({ calls_matched: 0, calls_left: 0 })

    const twice = await cliInProcess(["trackers", "add", "Twice", "--term", "Price", "--term", "price"], cli().env)
    expect(twice.code).toBe(2) // the service's 422 is the caller's mistake: a usage error
    expect(twice.stderr).toMatch(/rejected the request \(422\)/)
    expect(twice.stderr).toContain("terms")

    const list = await cliInProcess(["trackers", "list"], cli().env)
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain(`${saved.tracker.tracker_id}  Pricing  (pricing)`)
    expect(list.stdout).toContain("terms: price, annual contract")

    const report = await cliInProcess(["trackers", "report", "--period", "month", "--json"], cli().env)
    expect(report.code, report.stderr).toBe(0)
    const body = JSON.parse(report.stdout)
    expect(body).toMatchObject({ period: "month", calls: [], next_cursor: null })
    expect(body.trackers.map((t: any) => [t.name, t.mentions, t.terms.map((x: any) => x.term)])).toEqual([["Pricing", 0, ["price", "annual contract"]]])
    const text = await cliInProcess(["trackers", "report"], cli().env)
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain("Pricing (pricing): 0 mentions in 0 calls")

    const removed = await cliInProcess(["trackers", "remove", saved.tracker.tracker_id], cli().env)
    expect(removed.code, removed.stderr).toBe(0)
    expect(removed.stdout).toContain(`Removed ${saved.tracker.tracker_id} (Pricing).`)
    const gone = await cliInProcess(["trackers", "remove", saved.tracker.tracker_id], cli().env)
    expect(gone.code).toBe(3)
    expect(gone.stderr).toMatch(/404/)
  })
})
