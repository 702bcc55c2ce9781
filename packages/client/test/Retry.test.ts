/**
 * Retries and timeouts of @callsight/client against a local `node:http` server that fails on
 * purpose: 503 then 200, 429 with `Retry-After`, a connection reset, a POST that must not be sent
 * twice, an upload retried with one `Idempotency-Key`, `maxRetries`, and `timeoutMs`.
 */
import {
  CallsightClient,
  CallsightError,
  createCallsightClient,
  isRequestTimeout,
  MAX_RETRY_AFTER_MS,
  RequestTimeout,
  retryAfterMs
} from "@callsight/client"
import { FetchHttpClient } from "@effect/platform"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** What the server saw of one request. */
interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  /** Bytes of the body it read (before answering). */
  readonly bodyBytes: number
  /** `Date.now()` when the request arrived. */
  readonly at: number
}

/** One answer: a function of the request (it may also destroy the socket or never answer). */
type Step = (req: IncomingMessage, res: ServerResponse) => void

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Step => (_req, res) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(body))
}
const unavailable = json(503, { _tag: "ServiceUnavailable", message: "try again" })
const reset: Step = (req) => req.socket.destroy()
const silent: Step = () => undefined

const EMPTY_PAGE = { calls: [], next_cursor: null }

const servers: Array<Server> = []

/**
 * A server answering its N-th request with `steps[N]` (the last step for every request after),
 * after reading the whole request body.
 */
const scripted = async (steps: ReadonlyArray<Step>) => {
  const seen: Array<Seen> = []
  const server = createServer((req, res) => {
    const at = Date.now()
    let bodyBytes = 0
    req.on("data", (chunk: Buffer) => (bodyBytes += chunk.length))
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, bodyBytes, at })
      steps[Math.min(seen.length - 1, steps.length - 1)]!(req, res)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, seen }
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** The rejection of `promise`, which must be a `CallsightError`. */
const failure = async (promise: Promise<unknown>): Promise<CallsightError> => {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(CallsightError)
  return error as CallsightError
}

const accepted = (callId: string) =>
  json(202, {
    call_id: callId,
    status: "queued",
    external_call_id: null,
    created_at: new Date().toISOString(),
    status_url: `http://x/analysis/${callId}`,
    report_url: `http://x/reports/${callId}/html`
  })

const AUDIO = new Uint8Array(200_000).fill(7)

describe("retries", () => {
  it("a GET answered 503 twice, then 200, succeeds after 3 requests", async () => {
    const server = await scripted([unavailable, unavailable, json(200, EMPTY_PAGE)])
    const client = createCallsightClient({ baseUrl: server.url, apiKey: "csk_test" })
    expect(await client.listCalls()).toEqual(EMPTY_PAGE)
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(Array(3).fill("GET /v1/teams/calls?limit=50"))
  })

  it("429 with Retry-After: 1 waits about a second before the next attempt", async () => {
    const server = await scripted([
      json(429, { _tag: "TooManyRequests", message: "slow down", retry_after_s: 1 }, { "retry-after": "1" }),
      json(200, EMPTY_PAGE)
    ])
    const client = createCallsightClient({ baseUrl: server.url, apiKey: "csk_test" })
    expect(await client.listCalls()).toEqual(EMPTY_PAGE)
    expect(server.seen).toHaveLength(2)
    const waited = server.seen[1]!.at - server.seen[0]!.at
    expect(waited).toBeGreaterThanOrEqual(950)
    expect(waited).toBeLessThan(2_500)
  })

  it("a Retry-After longer than the cap is answered at once, not waited for", async () => {
    const server = await scripted([
      json(429, { _tag: "TooManyRequests", message: "slow down", retry_after_s: 3600 }, { "retry-after": "3600" })
    ])
    const client = createCallsightClient({ baseUrl: server.url, apiKey: "csk_test" })
    const started = Date.now()
    const error = await failure(client.listCalls())
    expect(error.status).toBe(429)
    expect(server.seen).toHaveLength(1)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it("Retry-After is read as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(retryAfterMs("3", now)).toBe(3_000)
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5_000)
    expect(retryAfterMs("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0)
    expect(retryAfterMs("soon", now)).toBeUndefined()
    expect(retryAfterMs(undefined, now)).toBeUndefined()
    expect(MAX_RETRY_AFTER_MS).toBe(60_000)
  })

  it("a connection reset is retried", async () => {
    const server = await scripted([reset, json(200, EMPTY_PAGE)])
    const client = createCallsightClient({ baseUrl: server.url, apiKey: "csk_test" })
    expect(await client.listCalls()).toEqual(EMPTY_PAGE)
    expect(server.seen).toHaveLength(2)
  })

  it("a GET answered 500 is retried; 400-range answers are not", async () => {
    const server500 = await scripted([json(500, { _tag: "InternalError", message: "x", trace_id: "t" }), json(200, EMPTY_PAGE)])
    expect(await createCallsightClient({ baseUrl: server500.url, apiKey: "csk_test" }).listCalls()).toEqual(EMPTY_PAGE)
    expect(server500.seen).toHaveLength(2)

    const server401 = await scripted([json(401, { _tag: "Unauthorized", message: "invalid API key" })])
    const error = await failure(createCallsightClient({ baseUrl: server401.url, apiKey: "csk_test" }).listCalls())
    expect(error.tag).toBe("Unauthorized")
    expect(server401.seen).toHaveLength(1)
  })

  it("a POST that is not idempotent, answered 503 or reset, is sent once", async () => {
    const server = await scripted([unavailable])
    const admin = createCallsightClient({ baseUrl: server.url, apiKey: "adm_test" })
    const error = await failure(admin.admin.createClient({ company_name: "Acme" }))
    expect(error.status).toBe(503)
    expect(server.seen.map((s) => s.method)).toEqual(["POST"])

    const resetting = await scripted([reset, json(201, {})])
    const again = await failure(createCallsightClient({ baseUrl: resetting.url, apiKey: "adm_test" }).admin.createClient({ company_name: "Acme" }))
    expect(again.tag).toBe("TransportError")
    expect(resetting.seen).toHaveLength(1)
  })

  it("a POST whose connection was refused (nothing sent) is tried again", async () => {
    // nothing listens: count what the client asks of fetch
    const { url } = await scripted([json(200, {})])
    const closed = servers.pop()!
    closed.closeAllConnections()
    await new Promise((resolve) => closed.close(resolve))
    let attempts = 0
    const fetch: typeof globalThis.fetch = (input, init) => {
      attempts++
      return globalThis.fetch(input, init)
    }
    const error = await failure(createCallsightClient({ baseUrl: url, apiKey: "adm_test", fetch }).admin.createClient({ company_name: "Acme" }))
    expect(error.tag).toBe("TransportError")
    expect(attempts).toBe(3)
  })

  it("an upload is retried (503, then a reset) with the same Idempotency-Key and the whole file each time", async () => {
    const server = await scripted([unavailable, reset, accepted("call_00000000000000000001")])
    const client = createCallsightClient({ baseUrl: server.url, apiKey: "csk_test" })
    const progress: Array<number> = []
    const body = await client.uploadAudio(AUDIO, { filename: "a.wav", onProgress: ({ sent }) => progress.push(sent) })
    expect(body.call_id).toBe("call_00000000000000000001")
    expect(server.seen).toHaveLength(3)
    const keys = server.seen.map((s) => s.headers["idempotency-key"])
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(keys).size).toBe(1)
    // each attempt sent the whole body again (from the start), not what was left of the first
    const sizes = server.seen.map((s) => s.bodyBytes)
    expect(sizes[0]).toBeGreaterThan(AUDIO.length)
    expect(new Set(sizes).size).toBe(1)
    expect(progress.filter((sent) => sent === sizes[0])).toHaveLength(3)

    // a key the caller gives is the one sent; two uploads without one get two keys
    const own = await scripted([unavailable, accepted("call_00000000000000000002")])
    const ownClient = createCallsightClient({ baseUrl: own.url, apiKey: "csk_test" })
    await ownClient.uploadAudio(AUDIO, { idempotencyKey: "crm-123" })
    expect(own.seen.map((s) => s.headers["idempotency-key"])).toEqual(["crm-123", "crm-123"])
    await ownClient.uploadAudio(AUDIO)
    await ownClient.uploadAudio(AUDIO)
    expect(new Set(own.seen.slice(2).map((s) => s.headers["idempotency-key"])).size).toBe(2)
  })

  it("an upload answered 500 is not sent again (a server error, not a passing one)", async () => {
    const server = await scripted([json(500, { _tag: "InternalError", message: "x", trace_id: "t" }), accepted("call_00000000000000000003")])
    const error = await failure(createCallsightClient({ baseUrl: server.url, apiKey: "csk_test" }).uploadAudio(AUDIO))
    expect(error.status).toBe(500)
    expect(server.seen).toHaveLength(1)
  })

  it("the Effect client's uploadAudio retries the same way, and its derived uploadAudio gets a key too", () =>
    Effect.gen(function* () {
      const server = yield* Effect.promise(() => scripted([reset, accepted("call_00000000000000000004")]))
      const client = yield* Effect.provide(
        CallsightClient,
        CallsightClient.layer({ baseUrl: server.url, apiKey: "csk_test" }).pipe(Layer.provide(FetchHttpClient.layer))
      )
      const body = yield* client.uploadAudio(new Blob([AUDIO], { type: "audio/wav" }))
      expect(body.call_id).toBe("call_00000000000000000004")
      const keys = server.seen.map((s) => s.headers["idempotency-key"])
      expect(keys).toHaveLength(2)
      expect(keys[0]).toEqual(keys[1])

      // the operation as derived from the declaration (a FormData body): a key is filled in when absent
      const form = new FormData()
      form.append("audio", new Blob([AUDIO], { type: "audio/wav" }), "a.wav")
      yield* client.audio.uploadAudio({ payload: form })
      expect(server.seen[2]!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/)
      expect(server.seen[2]!.headers["idempotency-key"]).not.toBe(keys[0])
    }).pipe(Effect.runPromise))

  it("maxRetries is respected: 0 sends once, 3 sends four times", async () => {
    const once = await scripted([unavailable])
    const none = await failure(createCallsightClient({ baseUrl: once.url, apiKey: "csk_test", maxRetries: 0 }).listCalls())
    expect(none.status).toBe(503)
    expect(once.seen).toHaveLength(1)

    const four = await scripted([unavailable])
    const client = createCallsightClient({ baseUrl: four.url, apiKey: "csk_test", maxRetries: 3 })
    const spent = await failure(client.listCalls())
    expect(spent.status).toBe(503)
    expect(four.seen).toHaveLength(4)
  }, 30_000)

  it("timeoutMs ends an attempt that gets no answer: a typed timeout once the retries are spent", async () => {
    const server = await scripted([silent])
    const client = createCallsightClient({ baseUrl: server.url, apiKey: "csk_test", timeoutMs: 300, maxRetries: 1 })
    const started = Date.now()
    const error = await failure(client.listCalls())
    expect(error.tag).toBe("Timeout")
    expect(error.message).toMatch(/no answer within 300 ms/)
    expect(server.seen).toHaveLength(2)
    expect(Date.now() - started).toBeLessThan(5_000)

    // the Effect client: a RequestError (reason Transport) caused by RequestTimeout
    const failed = await Effect.gen(function* () {
      const client = yield* Effect.provide(
        CallsightClient,
        CallsightClient.layer({ baseUrl: server.url, apiKey: "csk_test", timeoutMs: 200, maxRetries: 0 }).pipe(
          Layer.provide(FetchHttpClient.layer)
        )
      )
      return yield* Effect.flip(client.getAnalysis("call_x"))
    }).pipe(Effect.runPromise)
    expect(isRequestTimeout(failed)).toBe(true)
    expect(failed._tag).toBe("RequestError")
    expect((failed as { cause?: unknown }).cause).toBeInstanceOf(RequestTimeout)
    expect(((failed as { cause: RequestTimeout }).cause).timeout_ms).toBe(200)
  })

  it("a POST that is not idempotent is not retried after a timeout", async () => {
    const server = await scripted([silent])
    const admin = createCallsightClient({ baseUrl: server.url, apiKey: "adm_test", timeoutMs: 200 })
    const error = await failure(admin.admin.createClient({ company_name: "Acme" }))
    expect(error.tag).toBe("Timeout")
    expect(server.seen).toHaveLength(1)
  })
})
