/**
 * What the web app (`/app`, issue 37) needs of the interface, with the browser's session cookie and
 * no key: the list of calls (a rep's holds only their own; filtered by outcome and call type, page
 * after page), the upload and its status (a rep's upload is the rep's call; the Idempotency-Key is
 * the tenant's, whichever door), and a call's recording for the player, whole or by byte ranges
 * (206, 416), typed by its format, kept out of caches, 404 to another tenant and to another rep,
 * 410 once the retention policy removed it. The typed client (`@callsight/client`, `session: true`)
 * sends those operations without a key.
 */
import { CallsightApi, CreateClientRequest, SESSION_COOKIE } from "@callsight/api-spec"
import { CallsightClient } from "@callsight/client"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Either, Layer } from "effect"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fixture } from "../../../test/utils/Fixtures.js"
import { rangeOf } from "../src/lib/ByteRange.js"
import { admin, upload as keyUpload } from "./utils/AudioRequests.js"
import { call, freshEmail, memberSession, newTenant, repSession, signInByMail } from "./utils/PortalRequests.js"
import { seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

class BlobDir extends Context.Tag("test/BlobDir")<BlobDir, string>() {}

/** The server with its blobs in a directory the test knows (to find a recording's file). */
const server = Layer.unwrapScoped(
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-webapp-blobs-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ),
    (dir) => Layer.merge(serverWithSmtp({ blobDir: dir }), Layer.succeed(BlobDir, dir))
  )
)

/** A tenant made by the admin with `credits`, its key, and its owner signed in. */
const tenant = (credits: number) =>
  Effect.gen(function* () {
    const api = yield* HttpApiClient.make(CallsightApi)
    const email = freshEmail("owner")
    const created = yield* api.extensions.createClient({
      headers: admin,
      payload: CreateClientRequest.make({ company_name: "Acme", credits, plan: "growth", owner_email: email })
    })
    const session = yield* signInByMail(yield* Smtp, email)
    return { clientId: created.client_id as string, key: created.api_key as string, session }
  })

interface Team {
  readonly clientId: string
  readonly key: string
  readonly owner: string
  readonly emailA: string
  readonly emailB: string
  readonly repA: string
  readonly repB: string
  /** A member who is no closer. */
  readonly nobody: string
  /** The owner of another tenant. */
  readonly stranger: string
}

/** A tenant with its owner, two reps and a member who is no closer, and another tenant's owner. */
const team = (credits = 20) =>
  Effect.gen(function* () {
    const smtp = yield* Smtp
    const t = yield* tenant(credits)
    const emailA = freshEmail("rep-a")
    const emailB = freshEmail("rep-b")
    return {
      clientId: t.clientId,
      key: t.key,
      owner: t.session,
      emailA,
      emailB,
      repA: yield* repSession(smtp, t.clientId, emailA, "Alma Rep"),
      repB: yield* repSession(smtp, t.clientId, emailB, "Bruno Rep"),
      nobody: yield* memberSession(smtp, t.clientId, freshEmail("ops")),
      stranger: (yield* newTenant("Other Co")).session
    } satisfies Team
  })

/** Who calls: a session (the cookie, no key), or a key. */
type Who = { readonly session: string } | { readonly key: string }

const credentials = (who: Who): Record<string, string> =>
  "session" in who ? { cookie: `${SESSION_COOKIE}=${who.session}` } : { "x-api-key": who.key }

/** A multipart upload of `bytes` as `who`. */
const uploadAs = (
  who: Who,
  bytes: Uint8Array,
  options: { readonly name?: string; readonly closerEmail?: string; readonly idempotencyKey?: string; readonly origin?: string } = {}
) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const form = new FormData()
    form.append("audio", new Blob([bytes]), options.name ?? "call.wav")
    if (options.closerEmail !== undefined) form.append("closer_email", options.closerEmail)
    const headers = {
      ...credentials(who),
      ...(options.idempotencyKey === undefined ? {} : { "idempotency-key": options.idempotencyKey }),
      ...(options.origin === undefined ? {} : { origin: options.origin })
    }
    const response = yield* client.execute(
      HttpClientRequest.post("/v1/teams/audio").pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyFormData(form))
    )
    return { status: response.status, body: (yield* response.json) as any }
  }).pipe(Effect.orDie)

/** A GET as `who`, its answer's bytes (and JSON, when it is JSON). */
const fetchAs = (who: Who, path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders({ ...credentials(who), ...headers })))
    const bytes = new Uint8Array(yield* response.arrayBuffer)
    const isJson = (response.headers["content-type"] ?? "").includes("json")
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      json: (isJson ? JSON.parse(new TextDecoder().decode(bytes)) : undefined) as any
    }
  }).pipe(Effect.orDie)

/** Every page of the list with `query` as `who`, `limit` a page: the ids in order, and how many pages it took. */
const listAll = (who: Who, query: string, limit: number) =>
  Effect.gen(function* () {
    const ids: Array<string> = []
    let pages = 0
    let cursor: string | null = null
    do {
      const path: string = `/v1/teams/calls?limit=${limit}${query === "" ? "" : `&${query}`}${cursor === null ? "" : `&cursor=${cursor}`}`
      const page = yield* fetchAs(who, path)
      expect(page.status, path).toBe(200)
      ids.push(...page.json.calls.map((c: { call_id: string }) => c.call_id))
      cursor = page.json.next_cursor
      pages++
    } while (cursor !== null)
    return { ids, pages }
  })

/** The stored row of a call. */
const callRow = (callId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ closer_email: string | null; blob_key: string; format: string; source: string }>`
      SELECT closer_email, blob_key, format, source FROM calls WHERE call_id = ${callId}`
  ).pipe(Effect.map((rows) => rows[0]), Effect.orDie)

const callsOf = (clientId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE client_id = ${clientId}`).pipe(
    Effect.map((rows) => rows[0]!.n),
    Effect.orDie
  )

/** The analysis's type, as the worker stores it, on a seeded (completed) call. */
const setCallType = (callId: string, type: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE calls SET result = jsonb_set(result, '{call_type}',
          jsonb_build_object('type', ${type}::text, 'source', 'detected', 'confidence', 0.8, 'reason', 'seeded'))
        WHERE call_id = ${callId}`
  ).pipe(Effect.orDie)

/** A file's length and SHA-256, to compare files byte for byte (a deep equality of megabytes is slow to run and to read). */
const digest = (bytes: Uint8Array) => ({ length: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") })

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString()

describe("the byte range of a request (lib/ByteRange.ts)", () => {
  it("serves one range of bytes, clamps the end, ignores what it may ignore, and refuses a start past the end", () => {
    const size = 1000
    expect(rangeOf(undefined, size)).toEqual({ _tag: "Whole" })
    expect(rangeOf("bytes=0-99", size)).toEqual({ _tag: "Span", start: 0, end: 99 })
    expect(rangeOf("bytes=900-", size)).toEqual({ _tag: "Span", start: 900, end: 999 })
    expect(rangeOf("bytes=-100", size)).toEqual({ _tag: "Span", start: 900, end: 999 })
    expect(rangeOf("bytes=-5000", size)).toEqual({ _tag: "Span", start: 0, end: 999 })
    expect(rangeOf("bytes=990-5000", size)).toEqual({ _tag: "Span", start: 990, end: 999 })
    expect(rangeOf("BYTES = 5-5", size)).toEqual({ _tag: "Span", start: 5, end: 5 })
    expect(rangeOf("bytes=0-0,", size)).toEqual({ _tag: "Span", start: 0, end: 0 })
    expect(rangeOf("bytes=999-", size)).toEqual({ _tag: "Span", start: 999, end: 999 })
    for (const unsatisfiable of ["bytes=1000-", "bytes=1000-1200", "bytes=-0", "bytes=99999999999999999999-"]) {
      expect(rangeOf(unsatisfiable, size), unsatisfiable).toEqual({ _tag: "Unsatisfiable" })
    }
    for (const ignored of ["items=0-1", "bytes=5-1", "bytes=0-1,5-9", "bytes=a-b", "bytes=", "bytes=--1", "0-99"]) {
      expect(rangeOf(ignored, size), ignored).toEqual({ _tag: "Whole" })
    }
  })
})

layer(server, { excludeTestServices: true, timeout: 120_000 })("the web app's operations with a session", (it) => {
  it.effect("the list of calls: the team's for the owner, a rep's own for a rep, none for a member who is no closer, each with its outcome and call type", () =>
    Effect.gen(function* () {
      const t = yield* team()
      const seed = (closerEmail: string, minutes: number, overall: number) =>
        seedWeekCall(t.clientId, { closerEmail, weeksAgo: 0, overall, dims: { discovery: overall }, at: minutesAgo(minutes) })
      const a1 = yield* seed(t.emailA, 50, 61)
      const b1 = yield* seed(t.emailB, 40, 44)
      const a2 = yield* seed(t.emailA, 30, 72)
      const b2 = yield* seed(t.emailB, 20, 88)
      yield* setCallType(a2, "demo")
      expect((yield* call("PUT", `/v1/client-portal/calls/${a2}/outcome-truth`, { session: t.owner, body: { outcome: "won" } })).status).toBe(200)

      const ids = (who: Who, query = "") => Effect.map(fetchAs(who, `/v1/teams/calls${query}`), (r) => {
        expect(r.status, JSON.stringify(r.json)).toBe(200)
        return r.json.calls.map((c: { call_id: string }) => c.call_id) as Array<string>
      })
      // newest first; the key and the owner's session list the same team
      expect(yield* ids({ session: t.owner })).toEqual([b2, a2, b1, a1])
      expect(yield* ids({ key: t.key })).toEqual([b2, a2, b1, a1])
      expect(yield* ids({ session: t.repA })).toEqual([a2, a1])
      expect(yield* ids({ session: t.repB })).toEqual([b2, b1])
      expect(yield* ids({ session: t.nobody })).toEqual([])
      expect(yield* ids({ session: t.stranger })).toEqual([])
      // a rep asking for another rep's calls gets none of them; their own by name, in any case
      expect(yield* ids({ session: t.repA }, `?closer_email=${encodeURIComponent(t.emailB)}`)).toEqual([])
      expect(yield* ids({ session: t.repA }, `?closer_email=${encodeURIComponent(t.emailA.toUpperCase())}`)).toEqual([a2, a1])
      // a rep's filtered list stays theirs
      expect(yield* ids({ session: t.repA }, "?outcome=none")).toEqual([a1])
      expect(yield* ids({ session: t.repB }, "?outcome=won")).toEqual([])

      // each call says its outcome (null: none recorded) and the type its analysis took (null: none)
      const listed = (yield* fetchAs({ session: t.repA }, "/v1/teams/calls")).json.calls
      expect(listed).toEqual([
        {
          call_id: a2,
          external_call_id: `ext-${a2}`,
          closer_email: t.emailA,
          status: "completed",
          created_at: expect.any(String),
          completed_at: expect.any(String),
          duration_s: null,
          overall_score: 72,
          outcome: "won",
          call_type: "demo"
        },
        expect.objectContaining({ call_id: a1, overall_score: 61, outcome: null, call_type: null })
      ])

      // the typed client in a browser (`session: true`): no key sent, the cookie authenticates
      const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
      // a browser's fetch: the cookie goes with every request; what each request carried is kept
      const sent: Array<Headers> = []
      const browserFetch: typeof globalThis.fetch = (input, init) => {
        const headers = new Headers(init?.headers)
        headers.set("cookie", `${SESSION_COOKIE}=${t.repA}`)
        sent.push(headers)
        return globalThis.fetch(input, { ...init, headers })
      }
      const withCookie = FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, browserFetch)))
      const browser = yield* Effect.provide(
        CallsightClient,
        CallsightClient.layerWithoutHttpClient({ baseUrl: `http://127.0.0.1:${address.port}`, session: true }).pipe(Layer.provide(withCookie))
      )
      const page = yield* browser.listCalls({ limit: 1, outcome: "won" })
      expect(page.calls.map((c) => [c.call_id, c.outcome, c.call_type])).toEqual([[a2, "won", "demo"]])
      expect(page.next_cursor).toBeNull()
      expect((yield* browser.getAnalysis(a1)).call_id).toBe(a1)
      expect(sent.length).toBe(2)
      expect(sent.map((headers) => headers.has("x-api-key"))).toEqual([false, false])
      // a key-only operation still needs a key
      const keyOnly = yield* Effect.flip(browser.getCall(a1))
      expect(keyOnly._tag).toBe("MissingApiKey")
      // a client without `session` keeps failing before it sends
      const keyless = yield* Effect.provide(
        CallsightClient,
        CallsightClient.layerWithoutHttpClient({ baseUrl: `http://127.0.0.1:${address.port}` }).pipe(Layer.provide(withCookie))
      )
      expect((yield* Effect.flip(keyless.listCalls()))._tag).toBe("MissingApiKey")
      expect(sent.length).toBe(2)
    }))

  it.effect("filters by outcome and call type, combined, page after page (the cursor keeps the filters' place)", () =>
    Effect.gen(function* () {
      const t = yield* team()
      // twelve calls a minute apart, newest last: types and outcomes in turn
      const types = ["discovery", "demo", "negotiation"] as const
      const outcomes = ["won", "lost", null, "open", "no_decision", "won"] as const
      const seeded: Array<{ id: string; type: string; outcome: string | null; closer: string; score: number }> = []
      for (let i = 0; i < 12; i++) {
        const closer = i % 2 === 0 ? t.emailA : t.emailB
        const score = 50 + i
        const id = yield* seedWeekCall(t.clientId, { closerEmail: closer, weeksAgo: 0, overall: score, dims: { discovery: 50 }, at: minutesAgo(60 - i) })
        const type = types[i % 3]!
        yield* setCallType(id, type)
        const outcome = outcomes[i % 6]!
        if (outcome !== null) {
          expect((yield* call("PUT", `/v1/client-portal/calls/${id}/outcome-truth`, { session: t.owner, body: { outcome } })).status).toBe(200)
        }
        seeded.push({ id, type, outcome, closer, score })
      }
      // a call still queued: no type yet, no outcome
      const queued = yield* seedWeekCall(t.clientId, { closerEmail: t.emailA, weeksAgo: 0, status: "queued", at: minutesAgo(1) })
      const newestFirst = [...seeded].reverse()
      const expected = (keep: (c: (typeof seeded)[number]) => boolean) => newestFirst.filter(keep).map((c) => c.id)

      const cases: Array<[string, Array<string>]> = [
        ["outcome=won", expected((c) => c.outcome === "won")],
        ["outcome=none", [queued, ...expected((c) => c.outcome === null)]],
        ["outcome=no_decision", expected((c) => c.outcome === "no_decision")],
        ["call_type=demo", expected((c) => c.type === "demo")],
        ["call_type=discovery&outcome=won", expected((c) => c.type === "discovery" && c.outcome === "won")],
        ["call_type=negotiation&status=completed&min_score=55", expected((c) => c.type === "negotiation" && c.score >= 55)],
        ["call_type=renewal", []]
      ]
      for (const [query, ids] of cases) {
        // a page of 1 and of 2: the same calls, in the same order, none twice
        const byOne = yield* listAll({ key: t.key }, query, 1)
        expect(byOne.ids, `${query}, a call a page`).toEqual(ids)
        expect(byOne.pages).toBe(Math.max(1, ids.length))
        expect((yield* listAll({ session: t.owner }, query, 2)).ids, `${query}, two a page`).toEqual(ids)
      }
      // and a rep's filtered pages are their own
      const wonOfA = yield* listAll({ session: t.repA }, "outcome=won", 1)
      expect(wonOfA.ids).toEqual(expected((c) => c.outcome === "won" && c.closer === t.emailA))
      expect(wonOfA.ids.length).toBeGreaterThan(0)
      // a value the filter does not know is 422, saying where
      for (const [query, field] of [["outcome=maybe", "query.outcome"], ["call_type=webinar", "query.call_type"]] as const) {
        const bad = yield* fetchAs({ session: t.owner }, `/v1/teams/calls?${query}`)
        expect(bad.status, query).toBe(422)
        expect(bad.json.detail.map((d: { loc: Array<string> }) => d.loc.join(".")), query).toContain(field)
      }
    }))

  it.effect("a rep's upload is the rep's call, polled by the rep alone; another closer's e-mail is 403, as is a member who is no closer", () =>
    Effect.gen(function* () {
      const t = yield* team()
      const wav = fixture("discovery-short.wav")
      const before = yield* callsOf(t.clientId)

      const mine = yield* uploadAs({ session: t.repA }, wav)
      expect(mine.status, JSON.stringify(mine.body)).toBe(202)
      expect(mine.body).toMatchObject({ status: "queued", external_call_id: null })
      expect(yield* callRow(mine.body.call_id)).toMatchObject({ closer_email: t.emailA.toLowerCase(), format: "wav", source: "api" })
      // their own e-mail, in another case: theirs
      const named = yield* uploadAs({ session: t.repA }, wav, { closerEmail: t.emailA.toUpperCase() })
      expect(named.status).toBe(202)
      expect((yield* callRow(named.body.call_id)).closer_email).toBe(t.emailA.toLowerCase())

      // the status: the rep's and the team's, 404 to another rep and to another tenant
      const status = (who: Who) => fetchAs(who, `/analysis/${mine.body.call_id}`)
      const own = yield* status({ session: t.repA })
      expect([own.status, own.json.call_id, own.json.status]).toEqual([200, mine.body.call_id, "queued"])
      expect((yield* status({ session: t.owner })).status).toBe(200)
      expect((yield* status({ key: t.key })).status).toBe(200)
      expect((yield* status({ session: t.repB })).status).toBe(404)
      expect((yield* status({ session: t.nobody })).status).toBe(404)
      const foreign = yield* status({ session: t.stranger })
      expect([foreign.status, foreign.json._tag]).toEqual([404, "NotFound"])
      // the rep's report link opens with the session too (409: not analysed yet, but theirs)
      expect((yield* fetchAs({ session: t.repA }, new URL(mine.body.report_url).pathname)).status).toBe(409)
      expect((yield* fetchAs({ session: t.repB }, new URL(mine.body.report_url).pathname)).status).toBe(404)

      // another closer's e-mail: 403, nothing kept (no call, no staged file)
      const others = yield* uploadAs({ session: t.repA }, wav, { closerEmail: t.emailB })
      expect([others.status, others.body._tag]).toEqual([403, "Forbidden"])
      expect(others.body.message).toMatch(/own/)
      // a session's upload sent from another site is refused before anything is read (the portal's writes all are)
      const crossSite = yield* uploadAs({ session: t.repA }, wav, { origin: "https://elsewhere.example" })
      expect([crossSite.status, crossSite.body._tag]).toEqual([403, "Forbidden"])
      expect(crossSite.body.message).toMatch(/cross-site/)
      const noCloser = yield* uploadAs({ session: t.nobody }, wav)
      expect([noCloser.status, noCloser.body._tag]).toEqual([403, "Forbidden"])
      expect(noCloser.body.message).toMatch(/closer/)
      expect(yield* callsOf(t.clientId)).toBe(before + 2)
      expect(readdirSync(join(yield* BlobDir, "tmp"))).toEqual([])

      // an owner's session uploads for anyone, as a key does
      const forB = yield* uploadAs({ session: t.owner }, wav, { closerEmail: t.emailB })
      expect(forB.status).toBe(202)
      expect((yield* callRow(forB.body.call_id)).closer_email).toBe(t.emailB)
      const unnamed = yield* uploadAs({ session: t.owner }, wav)
      expect((yield* callRow(unnamed.body.call_id)).closer_email).toBeNull()
      // another tenant's session uploads into its own tenant, never this one
      const elsewhere = yield* uploadAs({ session: t.stranger }, wav)
      expect(elsewhere.status).toBe(202)
      expect((yield* status({ session: t.owner })).status).toBe(200)
      expect((yield* fetchAs({ session: t.owner }, `/analysis/${elsewhere.body.call_id}`)).status).toBe(404)
    }))

  it.effect("the Idempotency-Key is the tenant's, whichever door: the same upload again answers the same call; credits as with a key", () =>
    Effect.gen(function* () {
      const t = yield* team(3)
      const mp3 = fixture("discovery-short.mp3")
      const key = `web-${Date.now()}`
      const first = yield* uploadAs({ session: t.repA }, mp3, { name: "call.mp3", idempotencyKey: key })
      expect(first.status).toBe(202)
      const again = yield* uploadAs({ session: t.repA }, mp3, { name: "call.mp3", idempotencyKey: key })
      expect(again.status).toBe(202)
      expect(again.body).toEqual(first.body)
      const count = yield* callsOf(t.clientId)
      // the tenant's key with the same Idempotency-Key and file names the same call, when it says the same closer
      const byKey = yield* keyUpload(t.key, mp3, { name: "call.mp3", idempotencyKey: key, closerEmail: t.emailA.toLowerCase() })
      expect([byKey.status, byKey.body.call_id]).toEqual([202, first.body.call_id])
      // ...and another closer (none) is a conflict, as for two uploads with a key
      const conflict = yield* keyUpload(t.key, mp3, { name: "call.mp3", idempotencyKey: key })
      expect([conflict.status, conflict.body._tag]).toEqual([409, "Conflict"])
      // rep B with the key: B's upload would be B's call, so it conflicts; it never answers A's call
      const byB = yield* uploadAs({ session: t.repB }, mp3, { name: "call.mp3", idempotencyKey: key })
      expect([byB.status, byB.body.call_id]).toEqual([409, undefined])
      // another file with the key: 409
      const otherFile = yield* uploadAs({ session: t.repA }, fixture("discovery-short.wav"), { idempotencyKey: key })
      expect(otherFile.status).toBe(409)
      expect(yield* callsOf(t.clientId)).toBe(count)

      // credits as with a key: three credits, one held by the call in flight; two more, then 402
      expect((yield* uploadAs({ session: t.repA }, mp3, { name: "call.mp3" })).status).toBe(202)
      expect((yield* uploadAs({ session: t.owner }, mp3, { name: "call.mp3" })).status).toBe(202)
      const refused = yield* uploadAs({ session: t.repB }, mp3, { name: "call.mp3" })
      expect([refused.status, refused.body._tag]).toEqual([402, "PaymentRequired"])
    }))

  it.effect("a call's audio: whole (200) or a range (206), byte for byte, typed by its format, kept out of caches; 416 past the end", () =>
    Effect.gen(function* () {
      const t = yield* team()
      for (const [name, type] of [["discovery-short.wav", "audio/wav"], ["discovery-short.mp3", "audio/mpeg"], ["discovery-short.m4a", "audio/mp4"]] as const) {
        const bytes = fixture(name)
        const size = bytes.length
        const accepted = yield* keyUpload(t.key, bytes, { name, closerEmail: t.emailA })
        expect(accepted.status).toBe(202)
        const path = `/v1/client-portal/calls/${accepted.body.call_id}/audio`

        const whole = yield* fetchAs({ session: t.owner }, path)
        expect(whole.status, name).toBe(200)
        expect(digest(whole.bytes)).toEqual(digest(bytes))
        expect(whole.headers).toMatchObject({
          "content-type": type,
          "content-length": String(size),
          "accept-ranges": "bytes",
          "cache-control": "private, no-store"
        })
        expect(whole.headers["content-range"]).toBeUndefined()

        const ranged = (range: string, who: Who = { session: t.repA }) => fetchAs(who, path, { range })
        const first = yield* ranged("bytes=0-99")
        expect(first.status).toBe(206)
        expect(first.bytes).toEqual(bytes.slice(0, 100))
        expect(first.headers).toMatchObject({
          "content-type": type,
          "content-length": "100",
          "content-range": `bytes 0-99/${size}`,
          "accept-ranges": "bytes",
          "cache-control": "private, no-store"
        })
        const from = yield* ranged(`bytes=${size - 1000}-`)
        expect([from.status, from.headers["content-range"]]).toEqual([206, `bytes ${size - 1000}-${size - 1}/${size}`])
        expect(digest(from.bytes)).toEqual(digest(bytes.slice(size - 1000)))
        const last = yield* ranged("bytes=-500")
        expect([last.status, last.headers["content-range"]]).toEqual([206, `bytes ${size - 500}-${size - 1}/${size}`])
        expect(digest(last.bytes)).toEqual(digest(bytes.slice(size - 500)))
        const middle = yield* ranged("bytes=4096-8191", { key: t.key })
        expect(digest(middle.bytes)).toEqual(digest(bytes.slice(4096, 8192)))
        // a last position past the end is the end
        const clamped = yield* ranged(`bytes=${size - 10}-${size + 5000}`)
        expect([clamped.status, clamped.headers["content-range"], clamped.bytes]).toEqual([206, `bytes ${size - 10}-${size - 1}/${size}`, bytes.slice(size - 10)])

        // past the end: 416, the size in Content-Range
        const past = yield* ranged(`bytes=${size}-`)
        expect(past.status).toBe(416)
        expect(past.headers["content-range"]).toBe(`bytes */${size}`)
        expect(past.json).toMatchObject({ _tag: "RangeNotSatisfiable" })
        // ranges it may ignore: the whole file
        for (const ignored of ["bytes=50-10", "bytes=0-1,10-20", "lines=1-2"]) {
          const answer = yield* ranged(ignored)
          expect([answer.status, answer.bytes.length], ignored).toEqual([200, size])
        }
        // an If-Range cannot match this answer (it has no validator): the whole file
        const conditional = yield* fetchAs({ session: t.repA }, path, { range: "bytes=0-9", "if-range": "\"x\"" })
        expect([conditional.status, conditional.bytes.length]).toEqual([200, size])
      }
    }))

  it.effect("a call's audio is the tenant's and, for a rep, their own: 404 to another rep and another tenant; 410 once retention removed it", () =>
    Effect.gen(function* () {
      const t = yield* team()
      const bytes = fixture("discovery-short.mp3")
      const ofA = (yield* uploadAs({ session: t.repA }, bytes, { name: "a.mp3" })).body.call_id as string
      const ofB = (yield* uploadAs({ session: t.repB }, bytes, { name: "b.mp3" })).body.call_id as string
      const audio = (who: Who, callId: string) => fetchAs(who, `/v1/client-portal/calls/${callId}/audio`, { range: "bytes=0-9" })
      expect((yield* audio({ session: t.repA }, ofA)).bytes).toEqual(bytes.slice(0, 10))
      expect((yield* audio({ session: t.owner }, ofB)).status).toBe(206)
      expect((yield* audio({ key: t.key }, ofB)).status).toBe(206)
      for (const [who, callId, what] of [
        [{ session: t.repA }, ofB, "rep A on B's call"],
        [{ session: t.repB }, ofA, "rep B on A's call"],
        [{ session: t.nobody }, ofA, "a member who is no closer"],
        [{ session: t.stranger }, ofA, "another tenant's owner"],
        [{ session: t.owner }, "call_unknown", "an unknown call"]
      ] as const) {
        const answer = yield* audio(who, callId)
        expect([answer.status, answer.json?._tag], what).toEqual([404, "NotFound"])
        expect(answer.bytes.length, what).toBeLessThan(200)
      }
      // no session, no key: 401 naming both doors
      const anonymous = yield* Effect.flatMap(HttpClient.HttpClient, (c) => c.get(`/v1/client-portal/calls/${ofA}/audio`)).pipe(Effect.orDie)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers["www-authenticate"]).toMatch(/ApiKey.*Cookie/)

      // retention removed the recording (its file, then the mark, as the pass does): 410, the analysis stays
      const row = yield* callRow(ofA)
      const file = join(yield* BlobDir, row.blob_key)
      expect(existsSync(file)).toBe(true)
      unlinkSync(file)
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE calls SET audio_removed_at = now() WHERE call_id = ${ofA}`).pipe(Effect.orDie)
      const gone = yield* audio({ session: t.repA }, ofA)
      expect([gone.status, gone.json._tag]).toEqual([410, "Gone"])
      expect(gone.json.message).toMatch(/retention/)
      expect((yield* fetchAs({ session: t.repA }, `/analysis/${ofA}`)).status).toBe(200)
      // still 404 (not 410) to whoever may not see the call
      expect((yield* audio({ session: t.repB }, ofA)).status).toBe(404)
      expect((yield* audio({ session: t.stranger }, ofA)).status).toBe(404)
      // a recording missing from the store without retention's mark: 404, not a 500
      unlinkSync(join(yield* BlobDir, (yield* callRow(ofB)).blob_key))
      expect((yield* audio({ session: t.repB }, ofB)).status).toBe(404)
    }))

  it.effect("the derived client reads the audio as bytes, 206 with its response, and decodes the 416 and the 410", () =>
    Effect.gen(function* () {
      const t = yield* team()
      const bytes = fixture("discovery-short.wav")
      const callId = (yield* keyUpload(t.key, bytes, { name: "call.wav" })).body.call_id
      const api = yield* HttpApiClient.make(CallsightApi)
      const [range, response] = yield* api.extensions.getCallAudio({
        path: { call_id: callId },
        headers: { "x-api-key": t.key, range: "bytes=100-199" },
        withResponse: true
      })
      expect(response.status).toBe(206)
      expect(range).toEqual(bytes.slice(100, 200))
      expect(digest(yield* api.extensions.getCallAudio({ path: { call_id: callId }, headers: { "x-api-key": t.key } }))).toEqual(digest(bytes))
      const past = yield* Effect.either(
        api.extensions.getCallAudio({ path: { call_id: callId }, headers: { "x-api-key": t.key, range: `bytes=${bytes.length + 1}-` } })
      )
      expect(Either.isLeft(past) && past.left._tag).toBe("RangeNotSatisfiable")
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE calls SET audio_removed_at = now() WHERE call_id = ${callId}`).pipe(Effect.orDie)
      const gone = yield* Effect.either(api.extensions.getCallAudio({ path: { call_id: callId }, headers: { "x-api-key": t.key } }))
      expect(Either.isLeft(gone) && gone.left._tag).toBe("Gone")
    }))

  it.effect("webhooks from the portal: an owner's session adds, lists, reads deliveries and removes (the audit row names the person); a member's is 403 and changes nothing; the key sees the same endpoints", () =>
    Effect.gen(function* () {
      const t = yield* team()
      const sql = yield* SqlClient.SqlClient
      const created = yield* call("POST", "/v1/teams/webhooks", { session: t.owner, body: { url: "https://hooks.example.com/from-the-app", description: "app" } })
      expect(created.status).toBe(201)
      expect(created.body.secret).toMatch(/^whsec_/)
      const hookId = created.body.webhook_id as string
      // the key and the session see one list; neither shows the secret again
      const bySession = yield* call("GET", "/v1/teams/webhooks", { session: t.owner })
      const byKey = yield* call("GET", "/v1/teams/webhooks", { headers: { "x-api-key": t.key } })
      expect(bySession.body.webhooks.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([hookId])
      expect(byKey.body.webhooks).toEqual(bySession.body.webhooks)
      expect(JSON.stringify([bySession.body, byKey.body])).not.toContain(created.body.secret)
      expect((yield* call("GET", `/v1/teams/webhooks/${hookId}/deliveries?limit=5`, { session: t.owner })).body).toEqual({ deliveries: [] })
      // a member (a rep, or one who is no closer): 403 on every webhook operation, nothing changed
      for (const member of [t.repA, t.nobody]) {
        expect((yield* call("GET", "/v1/teams/webhooks", { session: member })).status).toBe(403)
        expect((yield* call("POST", "/v1/teams/webhooks", { session: member, body: { url: "https://evil.example.com/x" } })).status).toBe(403)
        expect((yield* call("DELETE", `/v1/teams/webhooks/${hookId}`, { session: member })).status).toBe(403)
        expect((yield* call("GET", `/v1/teams/webhooks/${hookId}/deliveries`, { session: member })).status).toBe(403)
      }
      // another tenant's owner: 404, as for an endpoint that is not
      expect((yield* call("DELETE", `/v1/teams/webhooks/${hookId}`, { session: t.stranger })).status).toBe(404)
      expect((yield* call("GET", "/v1/teams/webhooks", { headers: { "x-api-key": t.key } })).body.webhooks).toHaveLength(1)
      // a bad body from the app is the same 422 as from a key
      const bad = yield* call("POST", "/v1/teams/webhooks", { session: t.owner, body: { url: "ftp://hooks.example.com/x" } })
      expect(bad.status).toBe(422)
      expect(bad.body.detail[0].loc).toEqual(["body", "url"])
      const removed = yield* call("DELETE", `/v1/teams/webhooks/${hookId}`, { session: t.owner })
      expect(removed.status).toBe(200)
      expect((yield* call("GET", "/v1/teams/webhooks", { headers: { "x-api-key": t.key } })).body.webhooks).toEqual([])
      // the audit rows name the owner who did it, as a user
      const rows = yield* sql<{ action: string; actor_type: string; actor: string }>`
        SELECT action, actor_type, actor FROM audit_logs WHERE client_id = ${t.clientId} AND target_id = ${hookId} ORDER BY at`.pipe(Effect.orDie)
      expect(rows.map((r) => [r.action, r.actor_type])).toEqual([["webhook.created", "user"], ["webhook.deleted", "user"]])
      const owner = yield* call("GET", "/v1/client-auth/me", { session: t.owner })
      expect(rows.every((r) => r.actor === owner.body.user_id)).toBe(true)
    }))
})
