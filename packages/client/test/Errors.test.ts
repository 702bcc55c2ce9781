/**
 * The client's errors read once: `message` says what happened without the tag, which is `tag`
 * (Promise) or `_tag` (Effect); `String(e)` and the first line of `e.stack` name it once. Every
 * declared error class of the API through `toCallsightError`, and every tag of the client's own
 * as the client produces it, against a local `node:http` server that answers what each case needs.
 */
import {
  Api,
  CallsightClient,
  CallsightError,
  createCallsightClient,
  MissingApiKey,
  RequestTimeout,
  toCallsightError,
  verifyWebhook,
  WaitTimeout,
  WebhookVerificationError
} from "@callsight/client"
import { HttpClientError, HttpClientRequest } from "@effect/platform"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

const servers: Array<Server> = []

/** A server answering every request with `answer`. */
const serve = async (answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> => {
  const server = createServer(answer)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const json = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/** A URL where nothing listens: a server's, closed. */
const closedUrl = async (): Promise<string> => {
  const url = await serve(() => undefined)
  const server = servers.pop()!
  await new Promise((resolve) => server.close(resolve))
  return url
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const failure = async (promise: Promise<unknown>): Promise<CallsightError> => {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(CallsightError)
  return error as CallsightError
}

/** The tag is named once: in `tag`, `String(e)` and the stack's first line, never in `message`. */
const expectReadsOnce = (error: CallsightError, tag: string, message: string | RegExp) => {
  expect(error.tag).toBe(tag)
  if (typeof message === "string") expect(error.message).toBe(message)
  else expect(error.message).toMatch(message)
  expect(error.message).not.toContain(tag)
  expect(error.name).toBe("CallsightError")
  expect(String(error)).toBe(`CallsightError [${tag}]: ${error.message}`)
  expect(error.stack!.split("\n")[0]).toBe(`CallsightError [${tag}]: ${error.message.split("\n")[0]}`)
}

describe("the declared errors, as the Promise facade reports them", () => {
  const cases = [
    { error: new Api.Unauthorized({ message: "invalid API key" }), status: 401, message: "invalid API key" },
    { error: new Api.Forbidden({ message: "this operation needs the admin key" }), status: 403, message: "this operation needs the admin key" },
    { error: new Api.NotFound({ message: "no call call_x" }), status: 404, message: "no call call_x" },
    { error: new Api.Conflict({ message: "the analysis is queued" }), status: 409, message: "the analysis is queued" },
    { error: new Api.PaymentRequired({ message: "no credit left" }), status: 402, message: "no credit left" },
    { error: new Api.PayloadTooLarge({ message: "over 500 MB" }), status: 413, message: "over 500 MB" },
    { error: new Api.UnsupportedMediaType({ message: "not MP3, WAV or M4A" }), status: 415, message: "not MP3, WAV or M4A" },
    {
      error: new Api.ValidationFailed({
        detail: [
          { loc: ["body", "company_name"], msg: "too short", type: "value_error" },
          { loc: ["query", "limit"], msg: "at most 200", type: "value_error" }
        ]
      }),
      status: 422,
      message: "body.company_name: too short; query.limit: at most 200"
    },
    { error: new Api.TooManyRequests({ message: "slow down", retry_after_s: 30 }), status: 429, message: "slow down" },
    { error: new Api.InternalError({ message: "something broke", trace_id: "abc" }), status: 500, message: "something broke" },
    { error: new Api.NotImplemented({ message: "not built yet", operation: "x" }), status: 501, message: "not built yet" },
    { error: new Api.ServiceUnavailable({ message: "the database is unreachable" }), status: 503, message: "the database is unreachable" }
  ]

  it.effect("each: tag and status from the class, message the error's own text, body its wire form", () =>
    Effect.gen(function* () {
      expect(cases).toHaveLength(12)
      for (const { error, message, status } of cases) {
        const reported = yield* toCallsightError(error)
        expectReadsOnce(reported, error._tag, message)
        expect(reported.status).toBe(status)
        expect(reported.body).toMatchObject({ _tag: error._tag })
        expect(reported.cause).toBe(error)
        // the typed error itself (what the Effect client fails with) names its tag once too
        expect(String(error)).toBe(`${error._tag}: ${error.message}`)
      }
    }))

  it.effect("a declared error without any text says what was answered", () =>
    Effect.gen(function* () {
      const reported = yield* toCallsightError(new Api.ValidationFailed({ detail: [] }))
      expectReadsOnce(reported, "ValidationFailed", "answered 422 without a message")
    }))
})

describe("the client's own tags, as the client produces them", () => {
  it("decoded from an answer: NotFound with the service's message", async () => {
    const url = await serve(json(404, { _tag: "NotFound", message: "no call call_00000000000000000000" }))
    const error = await failure(createCallsightClient({ baseUrl: url, apiKey: "csk_x" }).getCall("call_00000000000000000000"))
    expectReadsOnce(error, "NotFound", "no call call_00000000000000000000")
    expect(error.status).toBe(404)
    expect(error.body).toEqual({ _tag: "NotFound", message: "no call call_00000000000000000000" })
  })

  it("MissingApiKey: a keyed operation without a key", async () => {
    const error = await failure(createCallsightClient({ baseUrl: "http://127.0.0.1:9" }).listCalls())
    expectReadsOnce(
      error,
      "MissingApiKey",
      "no API key: pass apiKey when you create the client (extensions.listCalls sends it in the X-API-Key header)"
    )
    expect(error.status).toBeUndefined()
  })

  it("AudioSourceError: a file that is not there", async () => {
    const error = await failure(createCallsightClient({ baseUrl: "http://127.0.0.1:9", apiKey: "csk_x" }).uploadAudio("/no/such/call.wav"))
    expectReadsOnce(error, "AudioSourceError", "no such file: /no/such/call.wav")
  })

  it("WaitTimeout: an analysis that does not end in time", async () => {
    const url = await serve(json(200, {
      call_id: "call_00000000000000000001",
      external_call_id: null,
      status: "queued",
      stage: "queued",
      progress: 0,
      created_at: "2026-01-01T00:00:00.000Z",
      meeting_at: "2026-01-01T00:00:00.000Z",
      started_at: null,
      completed_at: null,
      duration_s: null,
      credits_charged: 0,
      error: null,
      summary: null
    }))
    const error = await failure(
      createCallsightClient({ baseUrl: url, apiKey: "csk_x" }).waitForCompletion("call_00000000000000000001", {
        timeoutMs: 300,
        intervalMs: 50
      })
    )
    expectReadsOnce(error, "WaitTimeout", "the analysis of call_00000000000000000001 did not end within 300 ms (last seen: queued, stage queued)")
    expect(error.body).toMatchObject({ call_id: "call_00000000000000000001", timeout_ms: 300, last: { status: "queued" } })
  })

  it("TransportError: nothing listening", async () => {
    const url = await closedUrl()
    const error = await failure(createCallsightClient({ baseUrl: url, maxRetries: 0 }).health())
    expectReadsOnce(error, "TransportError", new RegExp(`^GET ${url}/health: fetch failed: connect ECONNREFUSED`))
    expect(error.status).toBeUndefined()
  })

  it("Timeout: no answer within timeoutMs", async () => {
    const url = await serve(() => undefined)
    const error = await failure(createCallsightClient({ baseUrl: url, maxRetries: 0, timeoutMs: 200 }).health())
    expectReadsOnce(error, "Timeout", `GET ${url}/health: no answer within 200 ms`)
  })

  it("UnexpectedStatus: a status the operation does not declare (a proxy's 502 page)", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" })
      res.end("<h1>Bad Gateway</h1>")
    })
    const error = await failure(createCallsightClient({ baseUrl: url, maxRetries: 0 }).health())
    expectReadsOnce(error, "UnexpectedStatus", `502 GET ${url}/health: <h1>Bad Gateway</h1>`)
    expect(error.status).toBe(502)
    expect(error.body).toBe("<h1>Bad Gateway</h1>")
  })

  it("DecodeError: an answer of another shape, and an argument the client checks before sending", async () => {
    const url = await serve(json(200, { calls: "not a list" }))
    const answer = await failure(createCallsightClient({ baseUrl: url, apiKey: "csk_x" }).listCalls())
    expectReadsOnce(answer, "DecodeError", /\["calls"\]/)
    const argument = await failure(createCallsightClient({ baseUrl: url, apiKey: "csk_x" }).listCalls({ limit: 500 }))
    expectReadsOnce(argument, "DecodeError", /\["limit"\][\s\S]*between\(1, 200\)/)
  })

  it.effect("RequestError: a request that could not be made", () =>
    Effect.gen(function* () {
      const request = HttpClientRequest.get("http://127.0.0.1:9/health")
      const error = yield* toCallsightError(new HttpClientError.RequestError({ request, reason: "Encode", cause: new Error("cannot encode the body") }))
      expectReadsOnce(error, "RequestError", "GET http://127.0.0.1:9/health: cannot encode the body")
    }))

  it.effect("Defect: anything else", () =>
    Effect.gen(function* () {
      expectReadsOnce(yield* toCallsightError(new TypeError("x is not a function")), "Defect", "TypeError: x is not a function")
    }))
})

describe("the Effect client's own error classes", () => {
  it("MissingApiKey, AudioSourceError, WaitTimeout and RequestTimeout name their tag once; so do decoded errors", async () => {
    const url = await serve(json(401, { _tag: "Unauthorized", message: "invalid API key" }))
    const silent = await serve(() => undefined)
    const errors = await Effect.runPromise(
      Effect.gen(function* () {
        const callsight = yield* CallsightClient
        return [
          yield* Effect.flip(callsight.listCalls()),
          yield* Effect.flip(callsight.withApiKey("csk_x").uploadAudio("/no/such/call.wav")),
          yield* Effect.flip(callsight.withApiKey("csk_x").listCalls())
        ] as const
      }).pipe(Effect.provide(CallsightClient.layer({ baseUrl: url })))
    )
    const [missing, source, unauthorized] = errors
    expect(missing).toBeInstanceOf(MissingApiKey)
    expect(source._tag).toBe("AudioSourceError")
    expect(unauthorized).toBeInstanceOf(Api.Unauthorized)
    expect(unauthorized.message).toBe("invalid API key")

    const timedOut = await Effect.runPromise(
      Effect.flip(Effect.flatMap(CallsightClient, (c) => c.probes.health())).pipe(
        Effect.provide(CallsightClient.layer({ baseUrl: silent, maxRetries: 0, timeoutMs: 100 }))
      )
    )
    const timeout = (timedOut as { cause?: unknown }).cause
    expect(timeout).toBeInstanceOf(RequestTimeout)

    const waited = new WaitTimeout({ message: "the analysis of call_x did not end within 1 s", call_id: "call_x", timeout_ms: 1000, last: undefined })
    for (const error of [missing, source, unauthorized, timeout as RequestTimeout, waited]) {
      expect(error.message, error._tag).not.toContain(error._tag)
      expect(String(error)).toBe(`${error._tag}: ${error.message}`)
    }
  })

  it("WebhookVerificationError names itself once", async () => {
    const error = await verifyWebhook("{}", {}, "whsec_c2VjcmV0").then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(WebhookVerificationError)
    expect((error as Error).message).toBe("missing webhook-id, webhook-timestamp or webhook-signature")
    expect(String(error)).toBe("WebhookVerificationError: missing webhook-id, webhook-timestamp or webhook-signature")
  })
})
