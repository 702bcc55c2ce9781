/**
 * Trackers (issue 38, item 2; docs/trackers.md) with the real server: one tenant with two reps and
 * calls of known transcripts over three weeks, the Competitors tracker from the market profile and
 * the tenant's own. Checked by value against counts computed here independently (regular
 * expressions over the seeded words): per tracker and term, closer, period and call, with quotes
 * that are exact words of the transcripts; stems ("pricing", "prices" are "price"), phrases
 * ("annual contracts" is "annual contract"), whole words ("said" is not "AI"); the Competitors
 * tracker following the profile; a rep's report counting only their calls; another tenant 404 and
 * seeing nothing; bad input 422; members 403 on changes; a call completed after the trackers matched
 * through the worker's port.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CallTrackers } from "../src/ports/CallTrackers.js"
import { CallTrackersLive } from "../src/trackers/CallTrackersLive.js"
import { TRACKER_BACKFILL_CALLS } from "../src/trackers/Trackers.js"
import { call, freshEmail, memberSession, newTenant, repSession } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

const TRACKERS = "/v1/client-portal/trackers"
const REPORT = `${TRACKERS}/report`

type Transcript = ReadonlyArray<readonly [number, string]>

const A1: Transcript = [
  [0, "We compared you with Gong last quarter."],
  [6, "Your pricing seems high; what is the price per seat?"],
  [12, "We would sign an annual contract."]
]
const A2: Transcript = [[0, "Chorus and gong both pitched us."], [5, "The annual contracts are a risk for legal."]]
const B1: Transcript = [[0, "He said the AI features are nice."], [4, "Prices went up again, paid twice."]]
const N1: Transcript = [[0, "Nothing to see here, said Sid."]]

/** The independent count: the words each term stands for, as regular expressions written by hand. */
const PATTERNS: Record<string, RegExp> = {
  price: /\b(price|prices|pricing|priced)\b/gi,
  "annual contract": /\bannual\W+contracts?\b/gi,
  Gong: /\bgong\b/gi,
  Chorus: /\bchorus\b/gi,
  Clari: /\bclari\b/gi,
  AI: /\bai\b/gi
}
const countIn = (transcript: Transcript, term: string) =>
  transcript.reduce((n, [, text]) => n + (text.match(PATTERNS[term]!)?.length ?? 0), 0)

const get = (path: string, session: string) =>
  Effect.map(call("GET", path, { session }), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body
  })

const createdAt = (callId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ created_at: Date }>`SELECT created_at FROM calls WHERE call_id = ${callId}`).pipe(
    Effect.map((rows) => rows[0]!.created_at.toISOString()),
    Effect.orDie
  )

/** The Monday (YYYY-MM-DD, UTC) of an instant's week. */
const mondayOf = (iso: string) => {
  const d = new Date(iso)
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * 86_400_000
  return new Date(day).toISOString().slice(0, 10)
}

const team = Effect.gen(function* () {
  const smtp = yield* Smtp
  const owner = yield* newTenant()
  const emailA = freshEmail("rep-a")
  const emailB = freshEmail("rep-b")
  const repA = yield* repSession(smtp, owner.clientId, emailA, "Ana Rep")
  const repB = yield* repSession(smtp, owner.clientId, emailB, "Ben Rep")
  const a1 = yield* seedWeekCall(owner.clientId, { closerEmail: emailA, weeksAgo: 2, transcript: A1 })
  const a2 = yield* seedWeekCall(owner.clientId, { closerEmail: emailA, weeksAgo: 1, transcript: A2 })
  const b1 = yield* seedWeekCall(owner.clientId, { closerEmail: emailB, weeksAgo: 1, transcript: B1 })
  const n1 = yield* seedWeekCall(owner.clientId, { closerEmail: null, weeksAgo: 0, transcript: N1 })
  const transcripts: Record<string, Transcript> = { [a1]: A1, [a2]: A2, [b1]: B1, [n1]: N1 }
  const profile = yield* call("PUT", "/v1/client-portal/market-profile", { session: owner.session, body: { competitors: ["Gong", "Chorus"] } })
  expect(profile.status).toBe(200)
  const pricing = yield* call("POST", TRACKERS, {
    session: owner.session,
    body: { name: "Pricing", kind: "pricing", terms: ["price", "annual contract"] }
  })
  expect(pricing.status, JSON.stringify(pricing.body)).toBe(201)
  const ai = yield* call("POST", TRACKERS, { session: owner.session, body: { name: "AI", kind: "feature", terms: ["AI"] } })
  expect(ai.status, JSON.stringify(ai.body)).toBe(201)
  return {
    owner,
    emailA,
    emailB,
    repA,
    repB,
    calls: { a1, a2, b1, n1 },
    transcripts,
    pricing: pricing.body,
    ai: ai.body
  }
})

const FROM = () => new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10)
const reportPath = (extra = "") => `${REPORT}?from=${FROM()}&quotes=20${extra}`

describe("trackers", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("signed in", (it) => {
    it.effect("creates trackers and matches them on the calls completed before (the backfill)", () =>
      Effect.gen(function* () {
        const t = yield* team
        expect(t.pricing.tracker).toMatchObject({ name: "Pricing", kind: "pricing", terms: ["price", "annual contract"], source: "tenant" })
        expect(t.pricing.tracker.tracker_id).toMatch(/^trk_/)
        expect(t.pricing.backfill).toEqual({ calls_matched: 4, calls_left: 0 })
        const list = yield* get(TRACKERS, t.owner.session)
        expect(list.trackers.map((x: any) => [x.name, x.kind, x.source, x.terms])).toEqual([
          ["Competitors", "competitor", "market_profile", ["Gong", "Chorus"]],
          ["AI", "feature", "tenant", ["AI"]],
          ["Pricing", "pricing", "tenant", ["price", "annual contract"]]
        ])
        // a rep reads the trackers too
        expect((yield* get(TRACKERS, t.repA)).trackers.length).toBe(3)
      }))

    it.effect("the report: counts per tracker, term, closer, period and call equal the independent counts, with exact quotes", () =>
      Effect.gen(function* () {
        const t = yield* team
        const report = yield* get(reportPath(), t.owner.session)
        const all = [t.calls.a1, t.calls.a2, t.calls.b1, t.calls.n1]
        const byName = (name: string) => report.trackers.find((x: any) => x.name === name)
        const expected = (terms: ReadonlyArray<string>, calls: ReadonlyArray<string>) =>
          calls.reduce((n, id) => n + terms.reduce((m, term) => m + countIn(t.transcripts[id]!, term), 0), 0)
        const callsWith = (terms: ReadonlyArray<string>) =>
          all.filter((id) => terms.some((term) => countIn(t.transcripts[id]!, term) > 0))

        for (const [name, terms] of [["Pricing", ["price", "annual contract"]], ["Competitors", ["Gong", "Chorus"]], ["AI", ["AI"]]] as const) {
          const tracker = byName(name)
          expect(tracker.mentions, name).toBe(expected(terms, all))
          expect([...tracker.call_ids].sort(), name).toEqual(callsWith(terms).sort())
          for (const term of terms) {
            const row = tracker.terms.find((x: any) => x.term === term)
            expect(row.mentions, term).toBe(expected([term], all))
            expect([...row.call_ids].sort(), term).toEqual(callsWith([term]).sort())
          }
          // closers
          for (const [email, calls] of [[t.emailA, [t.calls.a1, t.calls.a2]], [t.emailB, [t.calls.b1]]] as const) {
            const row = tracker.closers.find((x: any) => x.closer_email === email.toLowerCase())
            const n = expected(terms, calls)
            if (n === 0) expect(row, `${name} ${email}`).toBeUndefined()
            else expect(row.mentions, `${name} ${email}`).toBe(n)
          }
          // weeks
          const weeks = new Map<string, number>()
          for (const id of all) {
            const n = expected(terms, [id])
            if (n > 0) {
              const week = mondayOf(yield* createdAt(id))
              weeks.set(week, (weeks.get(week) ?? 0) + n)
            }
          }
          expect(tracker.periods.map((p: any) => [p.period_start, p.mentions]), name).toEqual([...weeks.entries()].sort())
          // every quote: exact words of the call's transcript at the turn it names
          for (const q of tracker.quotes) {
            const turn = t.transcripts[q.call_id]!.find(([start]) => start === q.start)!
            expect(turn[1]).toContain(q.quote)
            expect(q.quote).toContain(q.matched)
          }
        }
        // the numbers, spelled out once: stems and phrases, whole words
        expect(byName("Pricing").terms.map((x: any) => [x.term, x.mentions])).toEqual([["price", 3], ["annual contract", 2]])
        expect(byName("Pricing").terms[0].quotes.map((q: any) => q.matched).sort()).toEqual(["Prices", "price", "pricing"])
        expect(byName("Pricing").terms[1].quotes.map((q: any) => q.matched).sort()).toEqual(["annual contract", "annual contracts"])
        expect(byName("AI").mentions).toBe(1) // "said" is not "AI"
        expect(byName("AI").quotes[0]).toMatchObject({ call_id: t.calls.b1, matched: "AI", quote: "He said the AI features are nice.", start: 0 })
        // calls: newest first, each with its counts
        expect(report.calls.map((c: any) => c.call_id).sort()).toEqual([t.calls.a1, t.calls.a2, t.calls.b1].sort())
        const a1 = report.calls.find((c: any) => c.call_id === t.calls.a1)
        expect(a1.mentions).toBe(countIn(A1, "price") + countIn(A1, "annual contract") + countIn(A1, "Gong"))
        expect(a1.quotes.map((q: any) => q.start)).toEqual([0, 6, 6, 12])
        expect(report.next_cursor).toBeNull()
        // paged
        const page1 = yield* get(reportPath("&limit=2"), t.owner.session)
        expect(page1.calls.length).toBe(2)
        const page2 = yield* get(reportPath(`&limit=2&cursor=${page1.next_cursor}`), t.owner.session)
        expect([...page1.calls, ...page2.calls].map((c: any) => c.call_id)).toEqual(report.calls.map((c: any) => c.call_id))
        expect(page2.next_cursor).toBeNull()
        // one tracker, one closer, months
        const one = yield* get(reportPath(`&tracker_id=${t.pricing.tracker.tracker_id}&closer_email=${t.emailA.toUpperCase()}`), t.owner.session)
        expect(one.trackers.map((x: any) => [x.name, x.mentions])).toEqual([["Pricing", expected(["price", "annual contract"], [t.calls.a1, t.calls.a2])]])
        const months = yield* get(reportPath("&period=month"), t.owner.session)
        expect(months.trackers.find((x: any) => x.name === "Pricing").periods.reduce((n: number, p: any) => n + p.mentions, 0)).toBe(5)
      }))

    it.effect("the Competitors tracker follows the market profile; it cannot be changed or deleted here", () =>
      Effect.gen(function* () {
        const t = yield* team
        const competitors = (yield* get(TRACKERS, t.owner.session)).trackers[0]
        expect((yield* call("PUT", `${TRACKERS}/${competitors.tracker_id}`, { session: t.owner.session, body: { terms: ["x"] } })).status).toBe(409)
        expect((yield* call("DELETE", `${TRACKERS}/${competitors.tracker_id}`, { session: t.owner.session })).status).toBe(409)
        yield* call("PUT", "/v1/client-portal/market-profile", { session: t.owner.session, body: { competitors: ["Chorus", "Clari"] } })
        const report = yield* get(reportPath(), t.owner.session)
        const tracker = report.trackers.find((x: any) => x.tracker_id === competitors.tracker_id)
        expect(tracker.terms.map((x: any) => [x.term, x.mentions])).toEqual([["Chorus", countIn(A2, "Chorus")], ["Clari", 0]])
        expect(tracker.mentions).toBe(1)
      }))

    it.effect("changing terms matches them again; deleting removes the tracker and its mentions", () =>
      Effect.gen(function* () {
        const t = yield* team
        const id = t.pricing.tracker.tracker_id
        const saved = yield* call("PUT", `${TRACKERS}/${id}`, { session: t.owner.session, body: { terms: ["annual contract"] } })
        expect(saved.status, JSON.stringify(saved.body)).toBe(200)
        expect(saved.body.backfill).toEqual({ calls_matched: 4, calls_left: 0 })
        const report = yield* get(reportPath(`&tracker_id=${id}`), t.owner.session)
        expect(report.trackers[0].mentions).toBe(countIn(A1, "annual contract") + countIn(A2, "annual contract"))
        const renamed = yield* call("PUT", `${TRACKERS}/${id}`, { session: t.owner.session, body: { name: "Contracts", kind: "risk" } })
        expect(renamed.body.tracker).toMatchObject({ name: "Contracts", kind: "risk", terms: ["annual contract"] })
        expect(renamed.body.backfill).toEqual({ calls_matched: 0, calls_left: 0 })
        const removed = yield* call("DELETE", `${TRACKERS}/${id}`, { session: t.owner.session })
        expect(removed.status).toBe(200)
        expect(removed.body.name).toBe("Contracts")
        expect((yield* call("GET", reportPath(`&tracker_id=${id}`), { session: t.owner.session })).status).toBe(404)
        const left = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: string }>`SELECT count(*)::text AS n FROM tracker_mentions WHERE tracker_id = ${id}`)
        expect(left[0]!.n).toBe("0")
      }))

    it.effect("a call completed after the trackers is matched by the worker's port", () =>
      Effect.gen(function* () {
        const t = yield* team
        // the Competitors tracker is made (and matched on the calls before) on the first read after the profile names competitors
        yield* get(TRACKERS, t.owner.session)
        const later = yield* seedWeekCall(t.owner.clientId, { closerEmail: t.emailB, weeksAgo: 0, transcript: [[3, "Gong quoted a better price."]] })
        const before = yield* get(reportPath(), t.owner.session)
        expect(before.calls.map((c: any) => c.call_id)).not.toContain(later)
        yield* Effect.flatMap(CallTrackers, (port) => port.matchCall(t.owner.clientId as any, later as any)).pipe(Effect.provide(CallTrackersLive))
        const after = yield* get(reportPath(), t.owner.session)
        const row = after.calls.find((c: any) => c.call_id === later)
        expect(row.trackers.map((x: any) => [x.term, x.mentions]).sort()).toEqual([["Gong", 1], ["price", 1]])
      }))

    it.effect("a rep's report counts only their calls; a member who is no closer sees none", () =>
      Effect.gen(function* () {
        const t = yield* team
        const smtp = yield* Smtp
        const a = yield* get(reportPath(), t.repA)
        expect(a.calls.map((c: any) => c.call_id).sort()).toEqual([t.calls.a1, t.calls.a2].sort())
        expect(a.trackers.find((x: any) => x.name === "Pricing").mentions).toBe(
          countIn(A1, "price") + countIn(A1, "annual contract") + countIn(A2, "price") + countIn(A2, "annual contract")
        )
        expect(a.trackers.find((x: any) => x.name === "AI").mentions).toBe(0)
        expect(JSON.stringify(a)).not.toContain(t.calls.b1)
        expect(JSON.stringify(a).toLowerCase()).not.toContain(t.emailB.toLowerCase())
        // asking for another closer's calls answers none
        const other = yield* get(reportPath(`&closer_email=${encodeURIComponent(t.emailB)}`), t.repA)
        expect(other.calls).toEqual([])
        const nobody = yield* memberSession(smtp, t.owner.clientId, freshEmail("member"))
        const none = yield* get(reportPath(), nobody)
        expect(none.calls).toEqual([])
        expect(none.trackers.every((x: any) => x.mentions === 0)).toBe(true)
        // members do not change trackers
        expect((yield* call("POST", TRACKERS, { session: t.repA, body: { name: "Mine", terms: ["x"] } })).status).toBe(403)
        expect((yield* call("DELETE", `${TRACKERS}/${t.ai.tracker.tracker_id}`, { session: t.repA })).status).toBe(403)
      }))

    it.effect("another tenant: the tracker ids are 404 and its report sees nothing of this tenant", () =>
      Effect.gen(function* () {
        const t = yield* team
        const other = yield* newTenant("Other")
        const id = t.pricing.tracker.tracker_id
        expect((yield* call("PUT", `${TRACKERS}/${id}`, { session: other.session, body: { name: "Mine" } })).status).toBe(404)
        expect((yield* call("DELETE", `${TRACKERS}/${id}`, { session: other.session })).status).toBe(404)
        expect((yield* call("GET", reportPath(`&tracker_id=${id}`), { session: other.session })).status).toBe(404)
        expect((yield* get(TRACKERS, other.session)).trackers).toEqual([])
        const report = yield* get(reportPath(), other.session)
        expect(report).toMatchObject({ trackers: [], calls: [] })
        // and the tenant's tracker is untouched
        expect((yield* get(TRACKERS, t.owner.session)).trackers.map((x: any) => x.name)).toContain("Pricing")
      }))

    it.effect("the backfill is bounded: the newest 500 completed calls are matched, the older ones counted as left", () =>
      Effect.gen(function* () {
        const owner = yield* newTenant()
        const sql = yield* SqlClient.SqlClient
        // 502 completed calls, one a minute, each saying the word once; the two oldest are beyond the bound
        yield* Effect.orDie(sql`
          INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                             created_at, completed_at, result)
          SELECT 'call_bound_' || ${owner.clientId} || '_' || i, ${owner.clientId}, NULL, NULL, 'completed', 'wav', 'blob/x', 1, 'x',
                 now() - make_interval(mins => i) - interval '1 minute', now() - make_interval(mins => i),
                 jsonb_build_object('transcript', jsonb_build_array(jsonb_build_object('speaker', 'S1', 'start', 0, 'end', 4,
                   'text', 'We talked about the zebrafish ' || i)))
          FROM generate_series(1, ${TRACKER_BACKFILL_CALLS + 2}) AS i`)
        const made = yield* call("POST", TRACKERS, { session: owner.session, body: { name: "Fish", terms: ["zebrafish"] } })
        expect(made.status, JSON.stringify(made.body)).toBe(201)
        expect(made.body.backfill).toEqual({ calls_matched: TRACKER_BACKFILL_CALLS, calls_left: 2 })
        const matched = yield* Effect.orDie(sql<{ call_id: string }>`
          SELECT call_id FROM tracker_mentions WHERE tracker_id = ${made.body.tracker.tracker_id}`)
        const ids = new Set(matched.map((r) => r.call_id))
        expect(ids.size).toBe(TRACKER_BACKFILL_CALLS)
        expect(ids.has(`call_bound_${owner.clientId}_1`)).toBe(true)
        expect(ids.has(`call_bound_${owner.clientId}_${TRACKER_BACKFILL_CALLS + 1}`)).toBe(false)
        expect(ids.has(`call_bound_${owner.clientId}_${TRACKER_BACKFILL_CALLS + 2}`)).toBe(false)
      }))

    it.effect("bad input is 422 with its detail: empty, too many, too long, twice, a name taken", () =>
      Effect.gen(function* () {
        const t = yield* team
        const post = (body: unknown) => call("POST", TRACKERS, { session: t.owner.session, body })
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ name: "Empty", terms: [] }, "terms"],
          [{ name: "Many", terms: Array.from({ length: 101 }, (_, i) => `term ${i}`) }, "terms"],
          [{ name: "Long", terms: ["x".repeat(81)] }, "terms"],
          [{ name: "Blank", terms: ["   "] }, "terms"],
          [{ name: "No word", terms: ["!!"] }, "terms"],
          [{ name: "Twice", terms: ["Price", "price"] }, "terms"],
          [{ name: "pricing", terms: ["x"] }, "name"],
          [{ name: "competitors", terms: ["x"] }, "name"],
          [{ name: "", terms: ["x"] }, "name"],
          [{ name: "Kind", kind: "other", terms: ["x"] }, "kind"],
          [{ name: "Extra", terms: ["x"], extra: 1 }, "extra"]
        ]
        for (const [body, field] of cases) {
          const reply = yield* post(body)
          expect(reply.status, JSON.stringify(body)).toBe(422)
          expect(reply.body.detail.some((d: any) => d.loc.includes(field)), JSON.stringify(reply.body)).toBe(true)
        }
        const taken = yield* call("PUT", `${TRACKERS}/${t.ai.tracker.tracker_id}`, { session: t.owner.session, body: { name: "PRICING" } })
        expect(taken.status).toBe(422)
        const backwards = yield* call("GET", `${REPORT}?from=2026-02-01&to=2026-01-01`, { session: t.owner.session })
        expect(backwards.status).toBe(422)
        expect((yield* call("GET", `${REPORT}?period=year`, { session: t.owner.session })).status).toBe(422)
        expect((yield* call("GET", `${REPORT}?cursor=abc`, { session: t.owner.session })).status).toBe(422)
      }))
  })
})
