/**
 * The ways to build the Effect client: `CallsightClient.layer` needs nothing (it brings
 * `FetchHttpClient`, and takes a `Fetch` given to it) and ignores any other `HttpClient` around it;
 * `layerWithoutHttpClient` runs over the caller's `HttpClient` (the CLI's session client adds its
 * cookie so). Against a local `node:http` server that records what it receives.
 */
import { CallsightClient } from "@callsight/client"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"

const EMPTY_PAGE = { calls: [], next_cursor: null }
const servers: Array<Server> = []

/** A server answering every request with an empty page of calls, recording each request's headers. */
const recording = async () => {
  const seen: Array<IncomingMessage["headers"]> = []
  const server = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify(EMPTY_PAGE))
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const listCalls = Effect.flatMap(CallsightClient, (c) => c.listCalls())

/** An `HttpClient` layer over fetch that sets `name: value` on every request. */
const withHeader = (name: string, value: string) =>
  Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, HttpClient.mapRequest(HttpClientRequest.setHeader(name, value)))).pipe(
    Layer.provide(FetchHttpClient.layer)
  )

describe("CallsightClient's layers", () => {
  it("layer({ baseUrl, apiKey }) alone: nothing else to provide, the request goes out with the key", async () => {
    const server = await recording()
    const layer: Layer.Layer<CallsightClient> = CallsightClient.layer({ baseUrl: server.url, apiKey: "csk_one" })
    expect(await Effect.runPromise(listCalls.pipe(Effect.provide(layer)))).toEqual(EMPTY_PAGE)
    expect(server.seen.map((h) => h["x-api-key"])).toEqual(["csk_one"])
  })

  it("layer uses the Fetch it is given", async () => {
    const server = await recording()
    const fetched: Array<string> = []
    const fetch: typeof globalThis.fetch = (input, init) => {
      fetched.push(String(input))
      return globalThis.fetch(input, init)
    }
    const layer = CallsightClient.layer({ baseUrl: server.url, apiKey: "csk_one" }).pipe(
      Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch))
    )
    expect(await Effect.runPromise(listCalls.pipe(Effect.provide(layer)))).toEqual(EMPTY_PAGE)
    expect(fetched).toEqual([`${server.url}/v1/teams/calls?limit=50`])
  })

  it("layer sends through fetch whatever HttpClient surrounds it (a program's own, a test server's)", async () => {
    const server = await recording()
    const program = listCalls.pipe(Effect.provide(CallsightClient.layer({ baseUrl: server.url, apiKey: "csk_one" })))
    const page = await Effect.runPromise(program.pipe(Effect.provide(withHeader("cookie", "callsight_session=s1"))))
    expect(page).toEqual(EMPTY_PAGE)
    expect(server.seen.map((h) => [h["x-api-key"], h.cookie])).toEqual([["csk_one", undefined]])
  })

  it("layerWithoutHttpClient over an HttpClient that adds a session cookie (the CLI's session client)", async () => {
    const server = await recording()
    const layer = CallsightClient.layerWithoutHttpClient({ baseUrl: server.url, apiKey: "csk_one" }).pipe(
      Layer.provide(withHeader("cookie", "callsight_session=s1"))
    )
    expect(await Effect.runPromise(listCalls.pipe(Effect.provide(layer)))).toEqual(EMPTY_PAGE)
    expect(server.seen.map((h) => h.cookie)).toEqual(["callsight_session=s1"])
  })

  it("layerWithoutHttpClient requires the caller's HttpClient and runs over it", async () => {
    const server = await recording()
    const layer: Layer.Layer<CallsightClient, never, HttpClient.HttpClient> = CallsightClient.layerWithoutHttpClient({
      baseUrl: server.url,
      apiKey: "csk_two"
    })
    const page = await Effect.runPromise(listCalls.pipe(Effect.provide(layer.pipe(Layer.provide(withHeader("user-agent", "acme/1.0"))))))
    expect(page).toEqual(EMPTY_PAGE)
    expect(server.seen.map((h) => [h["x-api-key"], h["user-agent"]])).toEqual([["csk_two", "acme/1.0"]])
  })

  it("layerFetch, deprecated, is layer", async () => {
    const server = await recording()
    expect(await Effect.runPromise(listCalls.pipe(Effect.provide(CallsightClient.layerFetch({ baseUrl: server.url, apiKey: "csk_three" })))))
      .toEqual(EMPTY_PAGE)
    expect(server.seen.map((h) => h["x-api-key"])).toEqual(["csk_three"])
  })
})
