/**
 * @callsight/client without an API key: a keyed operation fails with a plain "no API key" error
 * before any request is sent (the Promise facade and the Effect client); operations that need no
 * key are sent as always. No server: a `fetch` that records what it is asked.
 */
import { CallsightClient, CallsightError, createCallsightClient, MissingApiKey } from "@callsight/client"
import { describe, expect, it } from "@effect/vitest"
import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { FIXTURE_FILES } from "./utils/Audio.js"

const BASE_URL = "http://127.0.0.1:9"

/** A `fetch` that records every request and answers 401 (nothing listens at BASE_URL). */
const recordingFetch = () => {
  const requests: Array<string> = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    requests.push(input instanceof Request ? `${input.method} ${input.url}` : `${init?.method ?? "GET"} ${String(input)}`)
    return new Response(JSON.stringify({ _tag: "Unauthorized", message: "invalid API key" }), {
      status: 401,
      headers: { "content-type": "application/json" }
    })
  }
  return { fetch, requests }
}

/** The rejection of `promise`, which must be a `CallsightError`. */
const failure = async (promise: Promise<unknown>): Promise<CallsightError> => {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(CallsightError)
  return error as CallsightError
}

describe("createCallsightClient without apiKey", () => {
  it("rejects every keyed operation with MissingApiKey, a plain message, and sends nothing", async () => {
    for (const apiKey of [undefined, "", "   "]) {
      const { fetch, requests } = recordingFetch()
      const client = createCallsightClient({ baseUrl: BASE_URL, apiKey, fetch })
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ["extensions.listCalls", () => client.listCalls()],
        ["extensions.getCall", () => client.getCall("call_x")],
        ["audio.getAnalysis", () => client.getAnalysis("call_x")],
        ["audio.getReportHtml", () => client.getReportHtml("call_x")],
        ["audio.uploadAudio", () => client.uploadAudio(FIXTURE_FILES.wav)],
        ["extensions.createClient", () => client.admin.createClient({ company_name: "Acme" })]
      ]
      for (const [operation, attempt] of attempts) {
        const error = await failure(attempt())
        expect(error.tag).toBe("MissingApiKey")
        expect(error.status).toBeUndefined()
        expect(error.message).toBe(
          `no API key: pass apiKey when you create the client (${operation} sends it in the X-API-Key header)`
        )
        expect(error.message).not.toMatch(/is missing|readonly/)
      }
      expect(requests).toEqual([])
    }
  })

  it("sends the operations that need no key", async () => {
    const { fetch, requests } = recordingFetch()
    const client = createCallsightClient({ baseUrl: BASE_URL, fetch })
    const error = await failure(client.health())
    expect(error.tag).not.toBe("MissingApiKey")
    expect(requests).toEqual([`GET ${BASE_URL}/health`])
  })

  it("with a key, the request is sent with it", async () => {
    const { fetch, requests } = recordingFetch()
    const client = createCallsightClient({ baseUrl: BASE_URL, apiKey: "csk_wrong", fetch })
    const error = await failure(client.listCalls())
    expect(error.tag).toBe("Unauthorized")
    expect(requests).toHaveLength(1)
  })
})

describe("CallsightClient (Effect) without apiKey", () => {
  const layer = (fetch: typeof globalThis.fetch) =>
    CallsightClient.layer({ baseUrl: BASE_URL }).pipe(
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch))
    )

  it.effect("fails keyed operations with MissingApiKey before sending; a key given later or per request is sent", () =>
    Effect.gen(function* () {
      const { fetch, requests } = recordingFetch()
      const client = yield* Effect.provide(CallsightClient, layer(fetch))

      const listed = yield* Effect.flip(client.extensions.listCalls({ urlParams: { limit: 10 } }))
      expect(listed).toBeInstanceOf(MissingApiKey)
      expect(listed._tag).toBe("MissingApiKey")
      expect(listed.message).toBe(
        "no API key: pass apiKey when you create the client (extensions.listCalls sends it in the X-API-Key header)"
      )
      const uploaded = yield* Effect.flip(client.uploadAudio(FIXTURE_FILES.wav))
      expect(uploaded._tag).toBe("MissingApiKey")
      const waited = yield* Effect.flip(client.waitForCompletion("call_x", { timeoutMs: 1_000 }))
      expect(waited._tag).toBe("MissingApiKey")
      expect(requests).toEqual([])

      // the key of withApiKey, or one in the request's headers, is sent (and refused by the fake server)
      const refused = yield* Effect.flip(client.withApiKey("csk_wrong").listCalls())
      expect(refused._tag).toBe("Unauthorized")
      const perRequest = yield* Effect.flip(
        client.extensions.listCalls({ urlParams: { limit: 10 }, headers: { "x-api-key": "csk_wrong" } })
      )
      expect(perRequest._tag).toBe("Unauthorized")
      expect(requests).toHaveLength(2)
    }))
})
