/**
 * `POST /mcp`, in-process with the analysis workers, through the SDK's own client
 * (`Client` + `StreamableHTTPClientTransport`): the key check (401, 403, 405), the tools and
 * their schemas, an upload as base64 and one by URL analysed to completion, `get_call` equal to
 * `GET /v1/teams/calls/{id}`, the list, search, outcome and report links, tenant isolation, and
 * bad arguments answered in one line that names each one (`missing argument "call_id"`).
 */
import { HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import { createTenant } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { ADMIN_KEY, testServerLayer } from "./utils/TestServer.js"

const TOOLS = [
  "upload_audio",
  "get_analysis",
  "wait_for_analysis",
  "get_call",
  "list_calls",
  "search_calls",
  "tracker_report",
  "trends",
  "create_closing_audit",
  "get_closing_audit",
  "record_outcome",
  "get_report_url"
]

/** The URL of the in-process server. */
const serverUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag !== "TcpAddress") throw new Error("not TCP")
  return `http://127.0.0.1:${address.port}`
})

/** An SDK client connected to `POST /mcp` with `headers`; closed by `use`'s end. */
const withClient = async <A>(base: string, headers: Record<string, string>, use: (client: Client) => Promise<A>): Promise<A> => {
  const client = new Client({ name: "callsight-test", version: "0.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers } })
  try {
    await client.connect(transport, { timeout: 20_000 })
    await client.listTools(undefined, { timeout: 20_000 }) // caches the output schemas: results are validated
    return await use(client)
  } finally {
    await client.close().catch(() => undefined)
  }
}

const call = (client: Client, name: string, args: Record<string, unknown>, timeoutMs = 30_000) =>
  client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs }) as Promise<CallToolResult>

const structured = (result: CallToolResult): any => {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false)
  return result.structuredContent
}

const errorText = (result: CallToolResult): string => {
  expect(result.isError).toBe(true)
  expect(result.structuredContent).toBeUndefined()
  return (result.content[0] as { text: string }).text
}

/** wait_for_analysis until the call ended (a few rounds of at most 50 s), with the progress notifications it sent. */
const waitEnded = async (client: Client, callId: string, progress: Array<{ progress: number; total?: number }> = []) => {
  for (let round = 0; round < 5; round++) {
    const result = await client.callTool({ name: "wait_for_analysis", arguments: { call_id: callId, timeout_seconds: 50 } }, undefined, {
      timeout: 58_000,
      onprogress: (p) => void progress.push(p)
    }) as CallToolResult
    const status = structured(result)
    if (status.status === "completed" || status.status === "failed") return status
  }
  throw new Error(`${callId} did not end`)
}

const restGet = async (base: string, key: string, path: string) => {
  const response = await fetch(`${base}${path}`, { headers: { "x-api-key": key }, signal: AbortSignal.timeout(20_000) })
  return { status: response.status, body: await response.json() as any }
}

/** A local HTTP server answering every GET with `bytes` (the recording downloaded by URL). */
const serveBytes = (bytes: Uint8Array) =>
  new Promise<{ url: string; server: Server }>((resolve) => {
    const server = createServer((_, res) => {
      res.writeHead(200, { "content-type": "audio/mpeg", "content-length": bytes.length })
      res.end(bytes)
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({ url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`, server })
    })
  })

describe("MCP over Streamable HTTP", () => {
  layer(testServerLayer({ workerConcurrency: 2, closingAuditCredits: 1 }, { workers: true }), { excludeTestServices: true, timeout: 120_000 })("POST /mcp", (it) => {
    it.effect("answers 401 without a key or with an unknown one, 403 to a staff key, 405 to GET and DELETE", () =>
      Effect.gen(function* () {
        const base = yield* serverUrl
        const initialize = {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "0" } }
        }
        const post = (headers: Record<string, string>) =>
          Effect.promise(() =>
            fetch(`${base}/mcp`, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
              body: JSON.stringify(initialize),
              signal: AbortSignal.timeout(20_000)
            })
          )
        const none = yield* post({})
        expect(none.status).toBe(401)
        expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/)
        expect(yield* Effect.promise(() => none.json())).toMatchObject({ _tag: "Unauthorized" })
        expect((yield* post({ "x-api-key": "csk_not_a_key" })).status).toBe(401)
        expect((yield* post({ authorization: "Bearer csk_not_a_key" })).status).toBe(401)
        expect((yield* post({ "x-api-key": ADMIN_KEY })).status).toBe(403)
        const tenant = yield* createTenant(1)
        const ok = yield* post({ authorization: `Bearer ${tenant.api_key}` })
        expect(ok.status).toBe(200)
        yield* Effect.promise(() => ok.text())
        for (const method of ["GET", "DELETE"]) {
          const response = yield* Effect.promise(() =>
            fetch(`${base}/mcp`, { method, headers: { "x-api-key": tenant.api_key }, signal: AbortSignal.timeout(20_000) })
          )
          expect(response.status).toBe(405)
          expect(response.headers.get("allow")).toBe("POST")
        }
      }))

    it.effect("lists the tools with input and output schemas from the declaration", () =>
      Effect.gen(function* () {
        const base = yield* serverUrl
        const tenant = yield* createTenant(1)
        const { tools } = yield* Effect.promise(() =>
          withClient(base, { "x-api-key": tenant.api_key }, (client) => client.listTools(undefined, { timeout: 20_000 }))
        )
        expect(tools.map((t) => t.name)).toEqual(TOOLS)
        for (const t of tools) {
          expect(t.inputSchema.type, t.name).toBe("object")
          expect(t.outputSchema?.type, t.name).toBe("object")
          expect(t.description, t.name).toBeTruthy()
        }
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
        // over HTTP the recording is a URL or base64; the form fields are the upload's
        expect(Object.keys(byName.upload_audio!.inputSchema.properties ?? {})).toEqual(
          ["url", "content_base64", "filename", "external_call_id", "closer_email", "call_type", "rep_channel", "account", "deal_id",
            "meeting_at", "attendees", "idempotency_key"]
        )
        expect(byName.get_call!.inputSchema).toMatchObject({ required: ["call_id"] })
        // the list's query parameters as the declaration has them: integers, bounded, default 50
        expect(byName.list_calls!.inputSchema.properties).toMatchObject({
          limit: { type: "integer", minimum: 1, maximum: 200, default: 50 },
          cursor: { type: "string" },
          status: { enum: ["queued", "processing", "completed", "failed"] },
          min_score: { type: "number", minimum: 0, maximum: 100 }
        })
        expect(byName.record_outcome!.inputSchema).toMatchObject({ required: ["call_id", "outcome"] })
        expect((byName.record_outcome!.inputSchema.properties as any).outcome.enum).toEqual(["won", "lost", "no_decision", "open"])
        expect(byName.get_call!.outputSchema).toMatchObject({ required: expect.arrayContaining(["call_id", "speaker_turns", "scorecard"]) })
        expect(byName.wait_for_analysis!.annotations).toMatchObject({ readOnlyHint: true })
      }))

    it.effect("answers bad arguments with one line naming each argument, what was expected and what was sent", () =>
      Effect.gen(function* () {
        const base = yield* serverUrl
        const tenant = yield* createTenant(1)
        const texts = yield* Effect.promise(() =>
          withClient(base, { "x-api-key": tenant.api_key }, async (client) => ({
            missing: errorText(await call(client, "wait_for_analysis", { timeout_seconds: 5 })),
            wrongType: errorText(await call(client, "get_analysis", { call_id: 42 })),
            outOfRange: errorText(await call(client, "wait_for_analysis", { call_id: "call_x", timeout_seconds: 900 })),
            notInteger: errorText(await call(client, "wait_for_analysis", { call_id: "call_x", timeout_seconds: 1.5 })),
            queryRange: errorText(await call(client, "list_calls", { limit: 500 })),
            queryText: errorText(await call(client, "list_calls", { limit: "many" })),
            filterMessage: errorText(await call(client, "search_calls", { q: "x" })),
            unknown: errorText(await call(client, "get_call", { call_id: "call_x", verbose: true })),
            several: errorText(await call(client, "record_outcome", { outcome: "won", currency: "euro" })),
            notAnUpload: errorText(await call(client, "upload_audio", { url: 7 })),
            // arguments that decode, answered by the API with an error: its tag, then its message
            notFound: errorText(await call(client, "get_analysis", { call_id: "call_nope" }))
          }))
        )
        expect(texts.notFound).toMatch(/^NotFound: \S[^\n]*$/)
        const { notFound: _, ...invalid } = texts
        expect(invalid).toEqual({
          missing: 'missing argument "call_id"',
          wrongType: 'invalid argument "call_id": expected string, got 42',
          outOfRange: 'invalid argument "timeout_seconds": expected a number between 1 and 300, got 900',
          notInteger: 'invalid argument "timeout_seconds": expected an integer, got 1.5',
          queryRange: 'invalid argument "limit": expected a number between 1 and 200, got 500',
          queryText: 'invalid argument "limit": unable to decode "many" into a number',
          filterMessage: 'invalid argument "q": expected a string at least 2 character(s) long, got "x"',
          unknown: 'unknown argument "verbose" (the arguments are call_id)',
          several: 'missing argument "call_id"; invalid argument "currency": must be an ISO-4217 currency code such as USD, got "euro"',
          notAnUpload: 'invalid argument "url": expected string, got 7'
        })
        // one line each, and nothing of the schema parser's trees
        for (const text of Object.values(texts)) {
          expect(text).not.toMatch(/\n|Struct|Encoded side|<->|└─/)
        }
      }))

    it.effect("uploads as base64 and by URL, waits, and reads what the REST operations read; keys see only their tenant", () =>
      Effect.gen(function* () {
        const base = yield* serverUrl
        const a = yield* createTenant(5)
        const b = yield* createTenant(5)
        const mp3 = fixture("discovery-short.mp3")
        const remote = yield* Effect.promise(() => serveBytes(fixture("renewal-stereo.mp3")))
        yield* Effect.promise(() =>
          withClient(base, { "x-api-key": a.api_key }, async (client) => {
            const fromBase64 = structured(
              await call(client, "upload_audio", {
                content_base64: Buffer.from(mp3).toString("base64"),
                filename: "discovery.mp3",
                external_call_id: "mcp-b64-42",
                closer_email: "rep@acme.test",
                call_type: "discovery",
                idempotency_key: "mcp-b64"
              })
            )
            expect(fromBase64).toMatchObject({ status: "queued", external_call_id: "mcp-b64-42" })
            expect(fromBase64.call_id).toMatch(/^call_/)
            const fromUrl = structured(await call(client, "upload_audio", { url: `${remote.url}/calls/renewal.mp3` }))
            // the same key, file and fields: the first upload's answer again
            const again = structured(
              await call(client, "upload_audio", {
                content_base64: Buffer.from(mp3).toString("base64"),
                external_call_id: "mcp-b64-42",
                closer_email: "rep@acme.test",
                call_type: "discovery",
                idempotency_key: "mcp-b64"
              })
            )
            expect(again.call_id).toBe(fromBase64.call_id)

            const progress: Array<{ progress: number; total?: number }> = []
            const done = await waitEnded(client, fromBase64.call_id, progress)
            expect(done).toMatchObject({ call_id: fromBase64.call_id, status: "completed", credits_charged: 1 })
            // progress notifications, increasing, of a total of 1
            expect(progress.length).toBeGreaterThan(0)
            expect(progress.every((p, i) => p.total === 1 && (i === 0 || p.progress > progress[i - 1]!.progress))).toBe(true)
            expect((await waitEnded(client, fromUrl.call_id)).status).toBe("completed")
            expect(structured(await call(client, "get_analysis", { call_id: fromBase64.call_id }))).toEqual(
              (await restGet(base, a.api_key, `/analysis/${fromBase64.call_id}`)).body
            )

            const analysis = structured(await call(client, "get_call", { call_id: fromBase64.call_id }))
            const rest = await restGet(base, a.api_key, `/v1/teams/calls/${fromBase64.call_id}`)
            expect(rest.status).toBe(200)
            expect(analysis).toEqual(rest.body)
            // the type given to the tool is the upload's: it wins over detection
            expect(analysis.requested_call_type).toBe("discovery")
            expect(analysis.call_type).toMatchObject({ type: "discovery", source: "given" })

            const page = structured(await call(client, "list_calls", { limit: 10 }))
            expect(page.calls.map((c: { call_id: string }) => c.call_id).sort()).toEqual([fromBase64.call_id, fromUrl.call_id].sort())
            expect(page).toEqual((await restGet(base, a.api_key, "/v1/teams/calls?limit=10")).body)
            const first = structured(await call(client, "list_calls", { limit: 1 }))
            expect(first.calls).toHaveLength(1)
            expect(first.next_cursor).not.toBeNull()
            // the filters are the operation's: the same answer as REST's with the same query
            const completed = structured(await call(client, "list_calls", { status: "completed", min_score: 0 }))
            expect(completed).toEqual((await restGet(base, a.api_key, "/v1/teams/calls?status=completed&min_score=0")).body)
            expect(structured(await call(client, "list_calls", { status: "failed" })).calls).toEqual([])

            const found = structured(await call(client, "search_calls", { q: "mcp-b64-42" }))
            expect(found.results.some((r: { call_id: string | null }) => r.call_id === fromBase64.call_id)).toBe(true)
            // the trackers' report over the key's tenant (no tracker yet: nothing counted); bad arguments are tool errors
            expect(structured(await call(client, "tracker_report", { period: "month", quotes: 1 }))).toMatchObject({ period: "month", trackers: [], calls: [], next_cursor: null })
            expect(errorText(await call(client, "tracker_report", { period: "year" }))).toContain("period")
            // the trends over the key's tenant (the whole team): this week's calls are the two completed ones
            const trends = structured(await call(client, "trends", { periods: 1 }))
            expect([...trends.team.periods[0].calls.call_ids].sort()).toEqual([fromBase64.call_id, fromUrl.call_id].sort())
            expect(trends.team.periods[0].calls.count).toBe(2)
            expect(errorText(await call(client, "trends", { period: "year" }))).toContain("period")
            // the Team Closing Audit (a credit here): made and read as REST answers it; bad arguments and unknown ids are tool errors
            const audit = structured(await call(client, "create_closing_audit", { call_ids: [fromBase64.call_id], title: "MCP audit" }))
            expect(audit).toMatchObject({ title: "MCP audit", calls: 1, credits_charged: 1, selection: { mode: "call_ids" } })
            expect(structured(await call(client, "get_closing_audit", { audit_id: audit.audit_id }))).toEqual(
              (await restGet(base, a.api_key, `/v1/client-portal/closing-audits/${audit.audit_id}`)).body
            )
            expect(errorText(await call(client, "create_closing_audit", { call_ids: [fromBase64.call_id], last_per_closer: 2 }))).toContain("exactly one")
            expect(errorText(await call(client, "get_closing_audit", { audit_id: "cla_nope" }))).toContain("NotFound")

            const outcome = structured(
              await call(client, "record_outcome", {
                call_id: fromBase64.call_id,
                outcome: "won",
                deal_value: 12_000,
                currency: "EUR",
                notes: "signed after the second demo"
              })
            )
            expect(outcome).toMatchObject({
              call_id: fromBase64.call_id,
              outcome: "won",
              deal_value: 12_000,
              currency: "EUR",
              is_test_data: false,
              recorded_by: a.key_id
            })
            expect(structured(await call(client, "search_calls", { q: "second demo" })).total).toBeGreaterThan(0)

            const links = structured(await call(client, "get_report_url", { call_id: fromBase64.call_id }))
            expect(links).toMatchObject({ call_id: fromBase64.call_id, status: "completed", ready: true })
            expect(links.report_url).toMatch(new RegExp(`/reports/${fromBase64.call_id}/html$`))

            // bad arguments are tool errors, not protocol errors
            expect(errorText(await call(client, "get_call", {}))).toBe('missing argument "call_id"')
            expect(errorText(await call(client, "record_outcome", { call_id: fromBase64.call_id, outcome: "maybe" })))
              .toBe('invalid argument "outcome": expected "won", "lost", "no_decision" or "open", got "maybe"')
            expect(errorText(await call(client, "upload_audio", { url: "file:///etc/passwd" }))).toMatch(/must be an http\(s\) URL/)
            expect(errorText(await call(client, "upload_audio", {}))).toMatch(/exactly one of url and content_base64/)
            expect(errorText(await call(client, "upload_audio", { content_base64: "bm90IGF1ZGlv" }))).toMatch(/UnsupportedMediaType/)

            // tenant b, through Authorization: Bearer, sees none of it
            await withClient(base, { authorization: `Bearer ${b.api_key}` }, async (other) => {
              for (const name of ["get_call", "get_analysis", "wait_for_analysis", "get_report_url"]) {
                expect(errorText(await call(other, name, { call_id: fromBase64.call_id })), name).toMatch(/NotFound/)
              }
              expect(errorText(await call(other, "record_outcome", { call_id: fromBase64.call_id, outcome: "lost" }))).toMatch(/NotFound/)
              expect(structured(await call(other, "list_calls", {})).calls).toEqual([])
              expect(structured(await call(other, "search_calls", { q: "mcp-b64-42" })).total).toBe(0)
            })
            // and the outcome a's key recorded is unchanged
            expect(structured(await call(client, "record_outcome", { call_id: fromBase64.call_id, outcome: "won" })).outcome).toBe("won")
          }).finally(() => remote.server.close())
        )
      }), { timeout: 400_000 })
  })
})
