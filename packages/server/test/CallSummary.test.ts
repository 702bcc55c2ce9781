/**
 * The call's summary at the doors that show it (docs/method.md, "Summary"): the analysis JSON
 * (`GET /v1/workspace/calls/{call_id}`, one `toAnalysis` for every door), the HTML report, and the
 * workspace chat ("summarize my last call", "summary of call …"), a rep's scope respected. The
 * calls are fixtures analysed by the engine's rules (their words from the ground truth) and stored as
 * the worker stores a result; a call analysed before summaries has none (null).
 */
import type { AnalysisResult } from "@callsight/analysis"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { analysedFixture, insertAnalysed } from "./utils/AnalysedCalls.js"
import { call, freshEmail, memberSession, newTenant } from "./utils/PortalRequests.js"
import { seedCloser, seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

interface Reply {
  reply: string
  intent: string | null
  sources: Array<{ kind: string; id: string | null; label: string }>
  suggested_actions: Array<{ action: string; call_id: string | null; url: string; operation: { method: string; path: string } }>
}

const chat = (session: string, message: string) =>
  Effect.map(call("POST", "/v1/workspace/chat", { session, body: { message } }), (r) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    return r.body as Reply
  })

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

/** Each quote of the summary is a substring of a transcript segment of its speaker. */
const quotesAreSaid = (analysis: { summary: any; transcript: Array<{ speaker: string; text: string }> }) => {
  const items = [...analysis.summary.needs, ...analysis.summary.agreed, ...analysis.summary.risks]
  for (const item of items) {
    for (const q of item.quotes) {
      expect(analysis.transcript.some((s) => s.speaker === q.speaker && s.text.includes(q.quote)), q.quote).toBe(true)
    }
  }
  return items.flatMap((i: any) => i.quotes).length
}

describe("the call's summary", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("signed in", (it) => {
    it.effect("the analysis JSON carries the stored summary; a call analysed before summaries reads null", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const result = analysedFixture("demo-objection")
        const callId = yield* insertAnalysed(clientId, result, { externalCallId: "deal-42" })
        const got = yield* call("GET", `/v1/workspace/calls/${callId}`, { session })
        expect(got.status).toBe(200)
        expect(got.body.summary).toEqual(JSON.parse(JSON.stringify(result.summary)))
        expect(quotesAreSaid(got.body)).toBeGreaterThan(3)
        // demo-objection: the price objection left open, the CFO meeting agreed for Friday
        expect(got.body.summary.risks[0]).toMatchObject({
          kind: "objection",
          text: expect.stringContaining("price objection was left open"),
          quotes: [{ speaker: "S2", quote: "That sounds useful, but honestly the price is a problem." }]
        })
        expect(got.body.summary.agreed.map((i: any) => i.text)).toContain("A next step for the rep, due Friday 10:00; the buyer side agreed.")

        const before = yield* seedWeekCall(clientId, { closerEmail: null, weeksAgo: 1, overall: 60, transcript: [[0, "Hello there."]] })
        const old = yield* call("GET", `/v1/workspace/calls/${before}`, { session })
        expect(old.status).toBe(200)
        expect(old.body.summary).toBeNull()
      }))

    it.effect("the report shows the summary near the top, with its quotes", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const result = analysedFixture("demo-objection")
        const callId = yield* insertAnalysed(clientId, result)
        const report = yield* call("GET", `/v1/client-portal/calls/${callId}/report`, { session })
        expect(report.status).toBe(200)
        const html = report.body as string
        const at = html.indexOf(`id="summary"`)
        expect(at).toBeGreaterThan(0)
        expect(at).toBeLessThan(html.indexOf(`id="scorecard"`))
        const section = html.slice(at, html.indexOf("</section>", at))
        expect(section).toContain("What the buyer needs")
        expect(section).toContain("A next step for the rep, due Friday 10:00; the buyer side agreed.")
        expect(section).toContain("“Friday at ten is fine.”")
        expect(section).toContain("“That sounds useful, but honestly the price is a problem.”")
      }))

    it.effect("the chat answers 'summarize my last call' and 'summary of call …' with the summary's quotes; its links resolve", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const older = yield* insertAnalysed(clientId, analysedFixture("discovery-short"), { externalCallId: "older", at: minutesAgo(60) })
        const result: AnalysisResult = analysedFixture("demo-objection")
        const latest = yield* insertAnalysed(clientId, result, { externalCallId: "latest", at: minutesAgo(5) })

        const last = yield* chat(session, "Summarize my last call")
        expect(last.intent).toBe("call_summary")
        expect(last.reply).toMatch(/^Summary of call latest/)
        for (const item of [...result.summary!.needs, ...result.summary!.agreed, ...result.summary!.risks]) {
          expect(last.reply).toContain(item.text)
          for (const q of item.quotes) expect(last.reply).toContain(`“${q.quote}”`)
        }
        expect(last.sources).toContainEqual({ kind: "call", id: latest, label: "latest" })
        const action = last.suggested_actions[0]!
        expect(action).toMatchObject({ action: "review_call", call_id: latest })
        // the link opens the call's page of the web app, the operation its report
        expect((yield* call("GET", new URL(action.url).pathname, { session })).status).toBe(200)
        expect((yield* call(action.operation.method as "GET", action.operation.path, { session })).status).toBe(200)

        const named = yield* chat(session, `summary of call ${older}`)
        expect(named.intent).toBe("call_summary")
        expect(named.reply).toContain("Summary of call older")
        expect(named.reply).toContain("“Tuesday at two works.”")
        expect(named.sources).toContainEqual({ kind: "call", id: older, label: "older" })

        const unknown = yield* chat(session, "summary of call call_nosuchcall00")
        expect(unknown.reply).toBe("There is no call call_nosuchcall00 in your account.")
      }))

    it.effect("a rep's 'last call' is their own, and another rep's call is answered like an unknown one", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const repEmail = freshEmail("rep")
        yield* seedCloser(clientId, repEmail, "Rita Rep")
        yield* seedCloser(clientId, "other@acme.test", "Otto Other")
        const own = yield* insertAnalysed(clientId, analysedFixture("discovery-short"), { externalCallId: "rita-1", closerEmail: repEmail, at: minutesAgo(60) })
        const others = yield* insertAnalysed(clientId, analysedFixture("demo-objection"), { externalCallId: "otto-1", closerEmail: "other@acme.test", at: minutesAgo(5) })
        const rep = yield* memberSession(yield* Smtp, clientId, repEmail)

        const last = yield* chat(rep, "can you summarize my last call?")
        expect(last.intent).toBe("call_summary")
        expect(last.reply).toMatch(/^Summary of call rita-1/)
        expect(last.sources.map((s) => s.id)).toEqual([own])
        const refused = yield* chat(rep, `summary of call ${others}`)
        expect(refused.reply).toBe(`There is no call ${others} in your account.`)
        // the owner sees the team's latest
        expect((yield* chat(session, "summarize the last call")).reply).toMatch(/^Summary of call otto-1/)
      }))
  })
})
