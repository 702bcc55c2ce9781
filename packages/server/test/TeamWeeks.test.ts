/**
 * Issue 38's team of three closers and thirty calls over six weeks (`seedTeamWeeks`, the engine's real
 * analyses of written calls), on what joins calls together and is not tested on it elsewhere:
 * trackers count the right quotes (each count recomputed here from the transcripts, each quote found
 * in its call's words), and every call's summary quotes only what was said. Deals, trends, the chat
 * and the closing audit have their own files on the same seed (Deals, Trends, ChatQuestions,
 * ClosingAudit).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"
import { seedTeamWeeks } from "./utils/TeamWeeks.js"

/** Whole-word matches of `pattern` (a regular expression source) in `text`, any case. */
const count = (text: string, pattern: string) =>
  text.match(new RegExp(`(?<![\\p{L}\\p{N}'’])(?:${pattern})(?![\\p{L}\\p{N}]|['’][\\p{L}])`, "giu"))?.length ?? 0

/** What each term must match, written out by hand: the stems' words for `price` and `contract`, competitor names as written. */
const TERMS: Record<string, string> = {
  price: "price|prices|priced|pricing",
  contract: "contract|contracts|contracted|contracting",
  Excel: "Excel",
  spreadsheet: "spreadsheet",
  Siemens: "Siemens"
}

describe("a team's six weeks: trackers and summaries", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("seeded", (it) => {
    it.effect("every summary quotes only what was said: each quote is words of the call's transcript, said by that speaker then", () =>
      Effect.gen(function* () {
        const { clientId } = yield* newTenant()
        const team = yield* seedTeamWeeks(clientId)
        let quotes = 0
        for (const c of team.calls) {
          const summary = c.result.summary
          expect(summary, c.name).not.toBeNull()
          for (const item of [...summary!.needs, ...summary!.agreed, ...summary!.risks]) {
            expect(item.quotes.length, `${c.name}: ${item.text}`).toBeGreaterThan(0)
            for (const q of item.quotes) {
              quotes++
              const said = c.result.transcript!.some((seg) => seg.speaker === q.speaker && seg.start <= q.start + 0.01 && seg.end >= q.start - 0.01 && seg.text.includes(q.quote))
              expect(said, `${c.name}: “${q.quote}” (${q.speaker} at ${q.start})`).toBe(true)
            }
          }
        }
        expect(quotes).toBeGreaterThan(30)
      }))

    it.effect("trackers count the right quotes: per term, closer and call, as counted here from the transcripts", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const team = yield* seedTeamWeeks(clientId)
        expect((yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { competitors: ["Excel", "spreadsheet", "Siemens"] } })).status).toBe(200)
        const made = yield* call("POST", "/v1/client-portal/trackers", { session, body: { name: "Commercials", kind: "pricing", terms: ["price", "contract"] } })
        expect(made.status, JSON.stringify(made.body)).toBe(201)
        expect(made.body.backfill).toEqual({ calls_matched: 30, calls_left: 0 })

        const since = new Date(Date.parse(team.calls[0]!.meetingAt) - 86_400_000).toISOString()
        const report = yield* call("GET", `/v1/client-portal/trackers/report?from=${encodeURIComponent(since)}&quotes=20&limit=200`, { session })
        expect(report.status, JSON.stringify(report.body)).toBe(200)
        const textOf = (callId: string) => team.calls.find((c) => c.callId === callId)!.result.transcript!.map((s) => s.text).join("\n")

        for (const tracker of report.body.trackers as Array<any>) {
          for (const term of tracker.terms as Array<any>) {
            const perCall = team.calls.map((c) => ({ c, n: count(textOf(c.callId), TERMS[term.term]!) })).filter((x) => x.n > 0)
            expect(term.mentions, `${tracker.name}: ${term.term}`).toBe(perCall.reduce((n, x) => n + x.n, 0))
            expect(term.calls, `${tracker.name}: ${term.term}`).toBe(perCall.length)
            expect([...term.call_ids].sort()).toEqual(perCall.map((x) => x.c.callId).sort())
          }
          // per closer: the same counts over each closer's calls
          for (const closer of tracker.closers as Array<any>) {
            const mine = team.calls.filter((c) => c.closerEmail === closer.closer_email)
            const expected = mine.reduce((n, c) => n + (tracker.terms as Array<any>).reduce((m: number, t: any) => m + count(textOf(c.callId), TERMS[t.term]!), 0), 0)
            expect(closer.mentions, `${tracker.name}: ${closer.closer_email}`).toBe(expected)
          }
        }
        const all = report.body.trackers.reduce((n: number, t: any) => n + t.mentions, 0)
        expect(all).toBeGreaterThan(0)

        // every quote: the words as said, in the sentence as said, in that call
        for (const row of report.body.calls as Array<any>) {
          const text = textOf(row.call_id)
          for (const q of row.quotes) {
            expect(text).toContain(q.quote)
            expect(q.quote).toContain(q.matched)
            expect(count(q.matched, TERMS[q.term]!), `${q.term}: ${q.matched}`).toBe(1)
          }
        }
        // "excellent" is no mention of Excel (a competitor's name is matched as written)
        const excellent = team.calls.filter((c) => /\bexcellent\b/i.test(textOf(c.callId)))
        for (const c of excellent) {
          const row = (report.body.calls as Array<any>).find((r) => r.call_id === c.callId)
          expect((row?.quotes ?? []).filter((q: any) => /excellent/i.test(q.matched))).toEqual([])
        }
      }))
  })
})
