/**
 * Issue 38's team of three closers and thirty calls over six weeks (`seedTeamWeeks`, the engine's real
 * analyses of written calls), on what joins calls together and is not tested on it elsewhere:
 * trackers count the right quotes (each count recomputed here from the transcripts, each quote found
 * in its call's words), and every call's summary quotes only what was said. Deals, trends, the chat
 * have their own files on the same seed (Deals, Trends, ChatQuestions); the closing audit's every
 * rule is checked in ClosingAudit.test.ts, and here its figures over this team's last ten calls each.
 */
import { SqlClient } from "@effect/sql"
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
        // "excellent" is no mention of Excel (Excel is in none of these sentences unless said) (a competitor's name is matched as written)
        const excellent = team.calls.filter((c) => /\bexcellent\b/i.test(textOf(c.callId)))
        for (const c of excellent) {
          const row = (report.body.calls as Array<any>).find((r) => r.call_id === c.callId)
          expect((row?.quotes ?? []).filter((q: any) => /excellent/i.test(q.matched))).toEqual([])
        }
      }))

    it.effect("the closing audit of the last ten calls of each closer: its numbers are those of the calls it names", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const team = yield* seedTeamWeeks(clientId)
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO credit_ledger (client_id, delta, reason) VALUES (${clientId}, 100, 'test_grant')`
        const made = yield* call("POST", "/v1/client-portal/closing-audits", { session, body: { last_per_closer: 10 } })
        expect(made.status, JSON.stringify(made.body)).toBe(201)
        const audit = made.body
        // the newest ten of each closer (the seed's calls are oldest first)
        const chosen = team.closers.flatMap((c) => team.calls.filter((x) => x.closerEmail === c.email).slice(-10))
        expect(chosen.length).toBeGreaterThan(20)
        expect(audit.call_list.map((c: any) => c.call_id).sort()).toEqual(chosen.map((c) => c.callId).sort())
        const mean1 = (xs: Array<number>) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10
        const overall = chosen.flatMap((c) => (c.result.scorecard.overall === null ? [] : [c.result.scorecard.overall]))
        expect(audit.team.overall.mean).toBe(mean1(overall))
        expect(audit.team.objections).toBe(chosen.reduce((n, c) => n + c.result.objections.length, 0))
        expect([...audit.team.calls_without_next_step].sort()).toEqual(chosen.filter((c) => c.result.next_steps.length === 0).map((c) => c.callId).sort())
        for (const d of audit.team.dimensions) {
          const scores = chosen.flatMap((c) => c.result.scorecard.dimensions.filter((x) => x.dimension === d.dimension && x.score !== null).map((x) => x.score!))
          expect(d.calls, d.dimension).toBe(scores.length)
          if (scores.length > 0) expect(d.mean, d.dimension).toBe(mean1(scores))
        }
        for (const closer of audit.closers) {
          const mine = chosen.filter((c) => c.closerEmail === closer.closer_email)
          expect(closer.calls).toBe(mine.length)
          expect([...closer.call_ids].sort()).toEqual(mine.map((c) => c.callId).sort())
          expect(closer.overall.mean).toBe(mean1(mine.flatMap((c) => (c.result.scorecard.overall === null ? [] : [c.result.scorecard.overall]))))
        }
        // every quote of the report is words of the call it names
        const quotes = [...audit.team.strengths, ...audit.team.weaknesses, ...audit.changes].flatMap((f: any) => f.quotes)
        expect(quotes.length).toBeGreaterThan(0)
        for (const q of quotes) {
          const text = team.calls.find((c) => c.callId === q.call_id)!.result.transcript!.map((x) => x.text).join("\n")
          expect(text).toContain(q.quote.replace(/…$/, ""))
        }
      }))
  })
})
