/**
 * A client made for a browser signed in to the portal (`session: true`, no key): the operations
 * that take a tenant key or the portal's session go without `X-API-Key` (the browser's cookie
 * authenticates them); the key-only ones still fail with `MissingApiKey` before sending; a key given
 * is sent as always. No server: a `fetch` that records what it is asked and answers 401.
 */
import { createCallsightClient, type CallsightError } from "@callsight/client"
import { describe, expect, it } from "@effect/vitest"

const BASE_URL = "http://127.0.0.1:9"

/** A `fetch` that records each request's method, path and whether it carried a key; it answers 401. */
const recordingFetch = () => {
  const requests: Array<{ readonly request: string; readonly key: string | null }> = []
  const queries: Array<Record<string, string>> = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    requests.push({ request: `${init?.method ?? "GET"} ${url.pathname}`, key: new Headers(init?.headers).get("x-api-key") })
    queries.push(Object.fromEntries(url.searchParams))
    return new Response(JSON.stringify({ _tag: "Unauthorized", message: "the session is unknown or expired" }), {
      status: 401,
      headers: { "content-type": "application/json" }
    })
  }
  return { fetch, requests, queries }
}

const failure = (promise: Promise<unknown>): Promise<CallsightError> =>
  promise.then(() => expect.unreachable("resolved"), (e: CallsightError) => e)

describe("a client of the portal's session (session: true)", () => {
  it("sends the operations a session may call without a key, and fails the key-only ones before sending", async () => {
    const { fetch, requests } = recordingFetch()
    const client = createCallsightClient({ baseUrl: BASE_URL, session: true, fetch, maxRetries: 0 })
    const sent: Array<[string, () => Promise<unknown>]> = [
      ["GET /v1/teams/calls", () => client.listCalls({ outcome: "none", call_type: "demo" })],
      ["GET /analysis/call_x", () => client.getAnalysis("call_x")],
      ["GET /reports/call_x/html", () => client.getReportHtml("call_x")],
      ["DELETE /v1/teams/calls/call_x", () => client.deleteCall("call_x")],
      ["POST /v1/teams/audio", () => client.uploadAudio(new Blob([new Uint8Array(64)]), { filename: "call.wav" })]
    ]
    for (const [request, attempt] of sent) {
      const error = await failure(attempt())
      expect([request, error.tag, error.status]).toEqual([request, "Unauthorized", 401])
    }
    expect(requests).toEqual(sent.map(([request]) => ({ request, key: null })))

    for (const [operation, attempt] of [
      ["extensions.getCall", () => client.getCall("call_x")],
      ["extensions.createClient", () => client.admin.createClient({ company_name: "Acme" })]
    ] as const) {
      const error = await failure(attempt())
      expect([error.tag, error.message]).toEqual([
        "MissingApiKey",
        `no API key: pass apiKey when you create the client (${operation} sends it in the X-API-Key header)`
      ])
    }
    expect(requests).toHaveLength(sent.length)
  })

  it("sends a key given beside it, and the filters of the list as the query", async () => {
    const { fetch, queries, requests } = recordingFetch()
    const client = createCallsightClient({ baseUrl: BASE_URL, apiKey: "csk_given", session: true, fetch, maxRetries: 0 })
    await failure(client.listCalls({ limit: 5, outcome: "won", call_type: "discovery" }))
    expect(queries[0]).toEqual({ limit: "5", outcome: "won", call_type: "discovery" })
    await failure(client.getCall("call_x"))
    expect(requests).toEqual([
      { request: "GET /v1/teams/calls", key: "csk_given" },
      { request: "GET /v1/teams/calls/call_x", key: "csk_given" }
    ])
  })
})
