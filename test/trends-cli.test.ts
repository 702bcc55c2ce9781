/**
 * `callsight trends` (docs/trends.md) against `callsight serve`, with the portal session `login` and
 * `verify` store: the JSON answer's periods (the last N weeks from Monday, or months, computed here),
 * the text table, a bad value exiting 2 with the service's 422, and without a session a usage error.
 * The counts themselves are checked by value in packages/server/test/Trends.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { cliInProcess } from "./utils/CliInProcess.js"
import { signIn, usePortalCli } from "./utils/PortalCli.js"

const email = `owner.${Date.now()}@trends.test`
const cli = usePortalCli("Trends Co", email)
const DAY = 86_400_000

/** The Mondays (YYYY-MM-DD) of the last `n` weeks, this one last. */
const lastMondays = (n: number) => {
  const now = new Date()
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const monday = today - ((now.getUTCDay() + 6) % 7) * DAY
  return Array.from({ length: n }, (_, i) => new Date(monday - (n - 1 - i) * 7 * DAY).toISOString().slice(0, 10))
}

describe("callsight trends", () => {
  it("without a session: a usage error", async () => {
    const out = await cliInProcess(["trends"], cli().env)
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/not signed in to .*: run `callsight login EMAIL`/)
  })

  it("answers the periods asked, as JSON and as a table; a bad value is the service's 422", { timeout: 60_000 }, async () => {
    await signIn(cli(), email)

    const weeks = await cliInProcess(["trends", "--periods", "4", "--json"], cli().env)
    expect(weeks.code, weeks.stderr).toBe(0)
    const body = JSON.parse(weeks.stdout)
    expect(body.period).toBe("week")
    expect(body.team.periods.map((p: any) => p.period_start)).toEqual(lastMondays(4))
    expect(body.team.periods.every((p: any) => p.calls.count === 0 && p.objections_by_kind.length === 6)).toBe(true)
    expect(body.closers).toEqual([])

    const months = await cliInProcess(["trends", "--period", "month", "--periods", "2", "--closer", "nobody@trends.test", "--json"], cli().env)
    expect(months.code, months.stderr).toBe(0)
    const thisMonth = new Date().toISOString().slice(0, 7)
    expect(JSON.parse(months.stdout).team.periods.at(-1).period_start).toBe(`${thisMonth}-01`)

    const text = await cliInProcess(["trends", "--periods", "2"], cli().env)
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain("Trends by week")
    for (const monday of lastMondays(2)) expect(text.stdout).toContain(monday)
    expect(text.stdout).toContain("No notable change.")

    const bad = await cliInProcess(["trends", "--periods", "30"], cli().env)
    expect(bad.code, bad.stderr).toBe(2)
    expect(bad.stderr).toContain("--periods must be between 1 and 26 (got 30)")
    // a value only the service can judge is its 422
    const late = await cliInProcess(["trends", "--since", "2030-01-01", "--until", "2029-01-01"], cli().env)
    expect(late.code, late.stderr).toBe(2)
    expect(late.stderr).toMatch(/rejected the request \(422\)/)
    expect(late.stderr).toContain("since")
  })
})
