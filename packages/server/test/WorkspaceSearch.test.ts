/**
 * Workspace search (spec 4.8 `GET /v1/workspace/search`), in-process on PGlite, or on PostgreSQL
 * with TEST_DATABASE_URL: calls seeded as the worker leaves them (the transcript in the stored
 * analysis), closers, outcome notes through the portal's operation, manual-audit notes. Checked:
 * the ranking order, the highlighted and HTML-safe snippets, the second of each transcript hit,
 * phrases, `-word` and `or`, metadata (external id, closer, date), the documents following the
 * writes (a call completing, notes changed), tenant isolation both ways, and bad input (422).
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { RANKED } from "../src/views/SearchRepo.js"
import { call, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"

let seq = 0

type Segment = readonly [start: number, text: string]

const resultOf = (segments: ReadonlyArray<Segment>) =>
  JSON.stringify({
    transcript: segments.map(([start, text], i) => ({ speaker: i % 2 === 0 ? "closer" : "prospect", start, end: start + 4, text }))
  })

/** A call of the tenant; with segments, completed as the worker writes it (`CallsRepo.complete`), else queued. */
const seedCall = (clientId: string, options: {
  readonly externalId?: string
  readonly closerEmail?: string
  readonly createdAt?: string
  readonly segments?: ReadonlyArray<Segment>
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_search_${Date.now()}_${seq++}`
    yield* sql`
      INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256, created_at)
      VALUES (${callId}, ${clientId}, ${options.externalId ?? null}, ${options.closerEmail ?? null}, 'queued', 'wav',
              ${`blob/${callId}`}, 1, 'x', ${options.createdAt ?? new Date().toISOString()}::timestamptz)`
    if (options.segments !== undefined) yield* complete(callId, options.segments)
    return callId
  }).pipe(Effect.orDie)

/** What the worker's completion writes: status, duration and the analysis with its transcript. */
const complete = (callId: string, segments: ReadonlyArray<Segment>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE calls SET status = 'completed', stage = 'completed', progress = 1, completed_at = now(), duration_s = 120,
                         method_version = 'callsight-test', result = ${resultOf(segments)}::jsonb
        WHERE call_id = ${callId}`).pipe(Effect.orDie)

const seedCloser = (clientId: string, email: string, fullName: string, team: string | null = null) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ closer_id: string }>`INSERT INTO closers (closer_id, client_id, email, full_name, team, status)
        VALUES (${`clo_search_${Date.now()}_${seq++}`}, ${clientId}, ${email}, ${fullName}, ${team}, 'active')
        RETURNING closer_id`).pipe(Effect.map((rows) => rows[0]!.closer_id), Effect.orDie)

const seedAudit = (clientId: string, callId: string, notes: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ audit_id: string }>`INSERT INTO manual_audits (audit_id, client_id, call_id, auditor_user_id, scores, automated, notes)
        VALUES (${`aud_search_${Date.now()}_${seq++}`}, ${clientId}, ${callId}, 'usr_x', '{}'::jsonb, '{}'::jsonb, ${notes})
        RETURNING audit_id`).pipe(Effect.map((rows) => rows[0]!.audit_id), Effect.orDie)

const search = (session: string, q: string, extra = "") =>
  Effect.gen(function* () {
    const reply = yield* call("GET", `/v1/workspace/search?q=${encodeURIComponent(q)}${extra}`, { session })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as {
      q: string
      total: number
      results: Array<{
        kind: string
        id: string
        call_id: string | null
        title: string
        snippet: string
        rank: number
        at: string | null
        start: number | null
      }>
    }
  })

describe("workspace search", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("signed in", (it) => {
    it.effect("401 without a session; bad input is 422 with its detail", () =>
      Effect.gen(function* () {
        expect((yield* call("GET", "/v1/workspace/search?q=pricing")).status).toBe(401)
        const { session } = yield* newTenant()
        for (
          const query of [
            "",
            "?q=",
            "?q=a",
            "?q=%20%20%20",
            "?q=%20a%20",
            `?q=${"x".repeat(201)}`,
            "?q=pricing&limit=0",
            "?q=pricing&limit=101",
            "?q=pricing&limit=abc",
            "?q=pricing&limit=1.5",
            "?q=pricing&offset=-1",
            "?q=pricing&offset=1000001",
            "?q=pricing&offset=abc",
            "?q=pricing&offset=2.5",
            "?q=pri%00cing"
          ]
        ) {
          const reply = yield* call("GET", `/v1/workspace/search${query}`, { session })
          expect(reply.status, query).toBe(422)
          expect(reply.body.detail.length, query).toBeGreaterThan(0)
        }
        // the bounds themselves are accepted
        expect((yield* search(session, "x".repeat(200), "&limit=100")).total).toBe(0)
        expect(yield* search(session, "pricing", "&limit=1&offset=1000000")).toEqual({ q: "pricing", total: 0, results: [] })
        // stop words only, or punctuation only: nothing to match, no error
        for (const q of ["the", "!!&|((", "\"\"", "- -", "or or", "a:* & b"]) {
          const body = yield* search(session, q)
          expect(body, q).toMatchObject({ total: 0, results: [] })
        }
      }))

    it.effect("transcripts: ranked by matches, the second of the best segment, highlighted and HTML-safe snippets", () =>
      Effect.gen(function* () {
        const { session, clientId } = yield* newTenant()
        const often = yield* seedCall(clientId, {
          externalId: "deal-often",
          closerEmail: "maria.lopez@acme.test",
          createdAt: "2026-03-05T10:00:00Z",
          segments: [
            [0, "Hello and thanks for joining today."],
            [12.5, "Before we start, a word on pricing."],
            [42.5, "Our pricing is simple: pricing per seat, billed yearly."],
            [80, "Let me share the pricing sheet after the call."]
          ]
        })
        const once = yield* seedCall(clientId, {
          externalId: "deal-once",
          closerEmail: "sam@acme.test",
          segments: [
            [0, "Thanks for making time."],
            [31, "We can come back to pricing next week."],
            [60, "Send me the <script>alert(1)</script> deck & the notes."]
          ]
        })
        yield* seedCall(clientId, { externalId: "deal-none", segments: [[0, "We only talked about the weather."]] })

        const body = yield* search(session, "pricing")
        expect(body.q).toBe("pricing")
        expect(body.total).toBe(2)
        expect(body.results.map((r) => [r.kind, r.call_id])).toEqual([["transcript", often], ["transcript", once]])
        const [first, second] = body.results
        expect(first!.rank).toBeGreaterThan(second!.rank)
        expect(first!.start).toBe(42.5) // the segment with two matches
        expect(first!.snippet).toBe("Our <b>pricing</b> is simple: <b>pricing</b> per seat, billed yearly.")
        expect(first!.title).toBe("Call deal-often · maria.lopez@acme.test · 2026-03-05")
        expect(first!.at).toBe("2026-03-05T10:00:00.000Z")
        expect(first!.id).toBe(often)
        expect(second!.start).toBe(31)
        expect(second!.snippet).toBe("We can come back to <b>pricing</b> next week.")
        // stems: "priced" finds "pricing"
        expect((yield* search(session, "priced")).total).toBe(2)

        // the limit keeps the best; total counts them all
        const one = yield* search(session, "pricing", "&limit=1")
        expect(one.total).toBe(2)
        expect(one.results.map((r) => r.call_id)).toEqual([often])

        // a snippet is HTML-escaped before the matches are marked
        const deck = yield* search(session, "deck")
        expect(deck.results).toHaveLength(1)
        expect(deck.results[0]!.start).toBe(60)
        expect(deck.results[0]!.snippet).toBe("Send me the &lt;script&gt;alert(1)&lt;/script&gt; <b>deck</b> &amp; the notes.")

        // words spread over segments: the call matches, the second is the best segment's
        const spread = yield* search(session, "hello sheet")
        expect(spread.results.map((r) => [r.call_id, r.start])).toEqual([[often, 0]])
      }))

    it.effect("pages: disjoint, in the one order (rank, the newest, kind, id), total on every page and past the last; a search is remembered by its first page only", () =>
      Effect.gen(function* () {
        const { session, clientId } = yield* newTenant()
        // seven calls saying "budget" once, equally ranked, a day apart; one saying it three times
        // (ranked first); a closer and a manual-audit note that match too
        const equal: Array<string> = []
        for (let day = 1; day <= 7; day++) {
          equal.push(yield* seedCall(clientId, {
            externalId: `ext-${day}`,
            createdAt: `2026-04-0${day}T09:00:00Z`,
            segments: [[0, "Good morning."], [10, "What is your budget for this?"]]
          }))
        }
        const top = yield* seedCall(clientId, {
          createdAt: "2026-01-01T09:00:00Z",
          segments: [[0, "The budget, the budget and again the budget."]]
        })
        const closer = yield* seedCloser(clientId, "budget.owner@acme.test", "Bea Budget")
        const note = yield* seedAudit(clientId, equal[0]!, "Asked about the budget early")
        const key = (r: { kind: string; id: string }) => `${r.kind}:${r.id}`

        const whole = yield* search(session, "budget", "&limit=100")
        expect(whole.total).toBe(10)
        expect(whole.results.map(key).sort()).toEqual(
          [...equal, top].map((id) => `transcript:${id}`).concat(`closer:${closer}`, `note:${note}`).sort()
        )
        expect(whole.results[0]!.call_id).toBe(top)
        // best rank first, equal ranks the newest first
        for (const [a, b] of whole.results.slice(1).map((r, i) => [whole.results[i]!, r] as const)) {
          expect(a.rank > b.rank || (a.rank === b.rank && (a.at ?? "") >= (b.at ?? ""))).toBe(true)
        }
        // the seven equal transcript hits come newest first
        const transcripts = whole.results.filter((r) => r.kind === "transcript" && r.call_id !== top).map((r) => r.call_id)
        expect(transcripts).toEqual([...equal].reverse())

        // pages of 3: disjoint, in the same order, together every hit once; total on each
        const pages = [
          yield* search(session, "budget", "&limit=3"),
          yield* search(session, "budget", "&limit=3&offset=3"),
          yield* search(session, "budget", "&limit=3&offset=6"),
          yield* search(session, "budget", "&limit=3&offset=9")
        ]
        expect(pages.map((p) => p.total)).toEqual([10, 10, 10, 10])
        expect(pages.map((p) => p.results.length)).toEqual([3, 3, 3, 1])
        expect(pages.flatMap((p) => p.results.map(key))).toEqual(whole.results.map(key))
        // the same page asked again is the same page
        expect((yield* search(session, "budget", "&limit=3&offset=3")).results.map(key)).toEqual(pages[1]!.results.map(key))
        // each hit as it is on the whole list (snippet, second, title)
        expect(pages[1]!.results).toEqual(whole.results.slice(3, 6))
        // past the last page: no hit, the total still said
        expect(yield* search(session, "budget", "&offset=10")).toEqual({ q: "budget", total: 10, results: [] })
        expect(yield* search(session, "budget", "&limit=5&offset=1000000")).toEqual({ q: "budget", total: 10, results: [] })

        // the recent searches: this search once, by its first page (the other pages are the same search)
        const sql = yield* SqlClient.SqlClient
        const remembered = yield* sql<{ q: string; results: number }>`
          SELECT q, results FROM workspace_searches WHERE client_id = ${clientId} ORDER BY at`
        expect(remembered.map((r) => [r.q, r.results])).toEqual([["budget", 10], ["budget", 10]])

        // another tenant: nothing, on any page
        const other = yield* newTenant()
        expect(yield* search(other.session, "budget", "&offset=3")).toEqual({ q: "budget", total: 0, results: [] })
      }))

    it.effect("a word in more transcripts than are ranked: the newest RANKED ranked, the older ones after every ranked hit, newest first, each with its own rank", () =>
      Effect.gen(function* () {
        const { session, clientId } = yield* newTenant()
        const sql = yield* SqlClient.SqlClient
        // RANKED + 2 calls saying "pricing" once, a minute apart (call 1 the newest), and an older
        // one saying it four times: ranked, it would come first
        const prefix = `call_ranked_${Date.now()}_${seq++}_`
        const strong = RANKED + 10
        yield* sql`
          INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256, created_at, result)
          SELECT ${prefix} || lpad(s.i::text, 4, '0'), ${clientId}, 'completed', 'wav', 'blob/' || ${prefix} || s.i::text, 1, 'x',
                 timestamptz '2026-05-01T09:00:00Z' - s.i * interval '1 minute',
                 jsonb_build_object('transcript', jsonb_build_array(jsonb_build_object('speaker', 'closer', 'start', 0, 'end', 4,
                   'text', CASE WHEN s.i = ${strong} THEN 'Pricing, pricing, pricing and pricing.' ELSE 'Let us talk about pricing.' END)))
          FROM (SELECT generate_series(1, ${RANKED + 2}) AS i UNION ALL SELECT ${strong}) s`
        const id = (i: number) => `${prefix}${String(i).padStart(4, "0")}`
        const ids = (body: { results: ReadonlyArray<{ call_id: string | null }> }) => body.results.map((r) => r.call_id)

        const first = yield* search(session, "pricing", "&limit=3")
        expect(first.total).toBe(RANKED + 3)
        expect(ids(first)).toEqual([id(1), id(2), id(3)])
        // across the boundary: the last ranked hit, then the older ones newest first, the strong one last
        const boundary = yield* search(session, "pricing", `&limit=4&offset=${RANKED - 1}`)
        expect(boundary.total).toBe(RANKED + 3)
        expect(ids(boundary)).toEqual([id(RANKED), id(RANKED + 1), id(RANKED + 2), id(strong)])
        expect(boundary.results.slice(0, 3).map((r) => r.rank)).toEqual([first.results[0]!.rank, first.results[0]!.rank, first.results[0]!.rank])
        expect(boundary.results[3]!.rank).toBeGreaterThan(first.results[0]!.rank)
        expect(boundary.results.map((r) => r.start)).toEqual([0, 0, 0, 0])
        expect(boundary.results[3]!.snippet).toContain("<b>pricing</b>")
        // pages meet at the boundary: neither overlap nor skip
        const before = yield* search(session, "pricing", `&limit=2&offset=${RANKED - 2}`)
        const after = yield* search(session, "pricing", `&limit=2&offset=${RANKED}`)
        expect([...ids(before), ...ids(after)]).toEqual([id(RANKED - 1), id(RANKED), id(RANKED + 1), id(RANKED + 2)])
        expect(yield* search(session, "pricing", `&offset=${RANKED + 3}`)).toEqual({ q: "pricing", total: RANKED + 3, results: [] })
      }))

    it.effect("web-search syntax: quoted phrases, -word, or", () =>
      Effect.gen(function* () {
        const { session, clientId } = yield* newTenant()
        const phrase = yield* seedCall(clientId, { segments: [[0, "Small talk."], [15, "We want an annual contract with a discount."]] })
        const apart = yield* seedCall(clientId, { segments: [[0, "The contract is signed every year, annual review in May."]] })
        const budget = yield* seedCall(clientId, { segments: [[7, "Our budget is approved for the quarter."]] })
        const timeline = yield* seedCall(clientId, { segments: [[3, "Intro."], [9, "The timeline slipped by a month."]] })

        const quoted = yield* search(session, "\"annual contract\"")
        expect(quoted.results.map((r) => [r.call_id, r.start])).toEqual([[phrase, 15]])
        expect(quoted.results[0]!.snippet).toContain("<b>annual</b> <b>contract</b>")

        const both = yield* search(session, "annual contract")
        expect(new Set(both.results.map((r) => r.call_id))).toEqual(new Set([phrase, apart]))

        const without = yield* search(session, "contract -discount")
        expect(without.results.map((r) => r.call_id)).toEqual([apart])

        const either = yield* search(session, "budget or timeline")
        expect(new Set(either.results.map((r) => r.call_id))).toEqual(new Set([budget, timeline]))
        expect(either.results.find((r) => r.call_id === timeline)!.start).toBe(9)
        expect(either.results.find((r) => r.call_id === budget)!.start).toBe(7)
      }))

    it.effect("metadata, closers and notes; the documents follow the writes", () =>
      Effect.gen(function* () {
        const { session, clientId } = yield* newTenant()
        const callId = yield* seedCall(clientId, {
          externalId: "CRM-4711",
          closerEmail: "maria.lopez@acme.test",
          createdAt: "2026-02-17T15:30:00Z"
        })
        const closerId = yield* seedCloser(clientId, "maria.lopez@acme.test", "Maria Lopez", "Enterprise")

        const byId = yield* search(session, "CRM-4711")
        expect(byId.results).toEqual([expect.objectContaining({ kind: "call", id: callId, call_id: callId, start: null })])
        expect(byId.results[0]!.snippet).toContain("<b>CRM</b>")
        expect((yield* search(session, "2026-02-17")).results.map((r) => r.id)).toEqual([callId])
        expect((yield* search(session, "2026-02-18")).total).toBe(0)
        expect((yield* search(session, "maria.lopez@acme.test")).results.map((r) => r.kind).sort()).toEqual(["call", "closer"])

        const maria = yield* search(session, "maria")
        expect(maria.results.map((r) => [r.kind, r.id]).sort()).toEqual([["call", callId], ["closer", closerId]].sort())
        const closer = maria.results.find((r) => r.kind === "closer")!
        expect(closer).toMatchObject({ call_id: null, title: "Closer Maria Lopez", start: null })
        // the e-mail is one token: its name part is indexed, the address shown whole
        expect(closer.snippet).toBe("<b>Maria</b> Lopez · maria.lopez@acme.test · Enterprise")
        expect((yield* search(session, "enterprise")).results.map((r) => r.id)).toEqual([closerId])

        // a queued call has no transcript yet; the worker's completion makes it searchable
        expect((yield* search(session, "zeppelin")).total).toBe(0)
        yield* complete(callId, [[0, "Hi."], [95, "We fly the zeppelin to the client."]])
        const flown = yield* search(session, "zeppelin")
        expect(flown.results).toEqual([expect.objectContaining({ kind: "transcript", call_id: callId, start: 95 })])
        // a re-analysis replaces the document (call_transcript_search, kept by the database); one
        // without transcript text leaves nothing to find
        yield* complete(callId, [[0, "Hi."], [40, "The airship lands at noon."]])
        expect((yield* search(session, "zeppelin")).total).toBe(0)
        expect((yield* search(session, "airship")).results).toEqual([expect.objectContaining({ kind: "transcript", call_id: callId, start: 40 })])
        yield* complete(callId, [])
        expect((yield* search(session, "airship")).total).toBe(0)
        yield* complete(callId, [[0, "Hi."], [95, "We fly the zeppelin to the client."]])

        // outcome notes through the portal's operation, then changed
        const put = (notes: string) =>
          call("PUT", `/v1/client-portal/calls/${callId}/outcome-truth`, { session, body: { outcome: "lost", notes } })
        expect((yield* put("The champion left the company")).status).toBe(200)
        const champion = yield* search(session, "champion")
        expect(champion.results).toEqual([
          expect.objectContaining({ kind: "note", id: callId, call_id: callId, start: null, title: "Outcome note · Call CRM-4711 · maria.lopez@acme.test · 2026-02-17" })
        ])
        expect(champion.results[0]!.snippet).toBe("The <b>champion</b> left the company")
        expect((yield* put("Budget frozen until spring")).status).toBe(200)
        expect((yield* search(session, "champion")).total).toBe(0)
        expect((yield* search(session, "frozen")).results.map((r) => r.kind)).toEqual(["note"])

        // manual-audit notes
        const auditId = yield* seedAudit(clientId, callId, "Strong discovery, weak closing on the renewal")
        const renewal = yield* search(session, "renewal")
        expect(renewal.results).toEqual([expect.objectContaining({ kind: "note", id: auditId, call_id: callId })])
        expect(renewal.results[0]!.title).toMatch(/^Manual audit · Call CRM-4711/)
        expect(renewal.results[0]!.snippet).toContain("<b>renewal</b>")
      }))

    it.effect("tenant isolation: another tenant's calls, closers and notes are never returned", () =>
      Effect.gen(function* () {
        const a = yield* newTenant("Alpha")
        const b = yield* newTenant("Beta")
        const aCall = yield* seedCall(a.clientId, { externalId: "ALPHA-1", closerEmail: "quentin@alpha.test", segments: [[5, "Quarterly pricing for Alpha."]] })
        const bCall = yield* seedCall(b.clientId, { externalId: "BETA-1", closerEmail: "quentin@beta.test", segments: [[8, "Quarterly pricing for Beta."]] })
        const bCloser = yield* seedCloser(b.clientId, "quentin@beta.test", "Quentin Beta")
        const bAudit = yield* seedAudit(b.clientId, bCall, "Quarterly review went well")

        const fromA = yield* search(a.session, "quarterly")
        expect(fromA.results.map((r) => [r.kind, r.call_id])).toEqual([["transcript", aCall]])
        const fromB = yield* search(b.session, "quarterly")
        expect(fromB.results.map((r) => r.id).sort()).toEqual([bAudit, bCall].sort())
        // the other tenant's ids, names and external ids find nothing
        for (const q of ["BETA-1", bCall, "Quentin Beta", "quentin@beta.test", "review"]) {
          const hits = yield* search(a.session, q)
          expect(hits.results.filter((r) => r.call_id === bCall || r.id === bCloser || r.id === bAudit), q).toEqual([])
        }
        expect((yield* search(a.session, "quentin")).results.map((r) => r.id)).toEqual([aCall])
        expect((yield* search(b.session, "ALPHA-1")).total).toBe(0)
      }))
  })
})
