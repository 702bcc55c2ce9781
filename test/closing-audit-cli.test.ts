/**
 * `callsight audit …` (docs/closing-audit.md), run in process against the real service in process,
 * with a tenant key: create (by calls and by the last N of each closer; bad input exits 2 with the
 * service's 422 detail), list, show (text and JSON), report (HTML to a file) and pdf (a file that
 * starts `%PDF-`, when Chromium is here); an unknown audit exits 3 (404); no key is a usage error.
 * The figures themselves are checked by value in packages/server/test/ClosingAudit.test.ts.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { analysedTruth, insertAnalysed } from "../packages/server/test/utils/AnalysedCalls.js"
import { createTenant } from "../packages/server/test/utils/AudioRequests.js"
import { runBrowser } from "../packages/server/test/utils/Browser.js"
import { testServerLayer } from "../packages/server/test/utils/TestServer.js"
import { runCliText, serverUrl } from "./utils/CliInProcess.js"
import type { Truth } from "./utils/Fixtures.js"

const evalTruth = (name: string): Truth => JSON.parse(readFileSync(join(import.meta.dirname, "..", "eval", "calls", `${name}.truth.json`), "utf8"))

layer(testServerLayer(), { excludeTestServices: true, timeout: 120_000 })("callsight audit", (it) => {
  describe("with a tenant key", () => {
    it.effect("creates, lists, shows and writes the report as HTML and PDF", () =>
      Effect.gen(function* () {
        const url = yield* serverUrl
        const tenant = yield* createTenant(30)
        const ids: Array<string> = []
        for (const [name, closer] of [["cold-freight", "ana@acme.test"], ["demo-hr-onboarding", "ana@acme.test"], ["cold-payroll-pushy", "ben@acme.test"], ["checkin-no-agenda", "ben@acme.test"]] as const) {
          ids.push(yield* insertAnalysed(tenant.client_id, analysedTruth(evalTruth(name)), { closerEmail: closer }))
        }
        const env = { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }
        const dir = mkdtempSync(join(tmpdir(), "callsight-audit-"))
        try {
          const bad = yield* runCliText(["audit", "create", "--call", ids[0]!, "--last-per-closer", "2"], env)
          expect(bad.code).toBe(2)
          expect(bad.stderr).toMatch(/rejected the request \(422\)/)
          expect(bad.stderr).toContain("exactly one")

          const created = yield* runCliText(["audit", "create", "--call", ids[0]!, "--call", ids[2]!, "--title", "Two calls", "--json"], env)
          expect(created.code, created.stderr).toBe(0)
          const audit = JSON.parse(created.stdout)
          expect(audit).toMatchObject({ title: "Two calls", calls: 2, credits_charged: 10, selection: { mode: "call_ids" } })
          expect(audit.call_list.map((c: any) => c.call_id).sort()).toEqual([ids[0], ids[2]].sort())

          const text = yield* runCliText(["audit", "create", "--last-per-closer", "2"], env)
          expect(text.code, text.stderr).toBe(0)
          expect(text.stdout).toContain("The three changes that would move the most deals:")
          expect(text.stdout).toContain("4 calls, 2 closers")
          expect(text.stdout).toContain("ana@acme.test")
          expect(text.stdout).toContain("ben@acme.test")
          const second = /^(cla_\w+)/.exec(text.stdout)![1]!

          const list = yield* runCliText(["audit", "list"], env)
          expect(list.code, list.stderr).toBe(0)
          expect(list.stdout.split("\n")[0]).toContain(`${second}`)
          expect(list.stdout).toContain(`${audit.audit_id}`)
          expect(list.stdout).toContain("2 calls  10 credits  Two calls")

          const shown = yield* runCliText(["audit", "show", audit.audit_id, "--json"], env)
          expect(shown.code, shown.stderr).toBe(0)
          expect(JSON.parse(shown.stdout)).toEqual(audit)

          const html = join(dir, "audit.html")
          const report = yield* runCliText(["audit", "report", audit.audit_id, "-o", html], env)
          expect(report.code, report.stderr).toBe(0)
          expect(readFileSync(html, "utf8")).toMatch(/^<!doctype html>[\s\S]*Two calls/)

          const pdf = join(dir, "audit.pdf")
          const printed = yield* runCliText(["audit", "pdf", audit.audit_id, "-o", pdf], env)
          if (runBrowser) {
            expect(printed.code, printed.stderr).toBe(0)
            expect(readFileSync(pdf).subarray(0, 5).toString("latin1")).toBe("%PDF-")
          } else {
            expect(printed.code).toBe(3)
            expect(printed.stderr).toContain("503")
          }

          const unknown = yield* runCliText(["audit", "show", "cla_unknown"], env)
          expect(unknown.code).toBe(3)
          expect(unknown.stderr).toMatch(/404/)
          const keyless = yield* runCliText(["audit", "list"], { CALLSIGHT_URL: url })
          expect(keyless.code).toBe(2)
          expect(keyless.stderr).toContain("API key")
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }))
  })
})
