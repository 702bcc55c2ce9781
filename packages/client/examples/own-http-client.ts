// Effect with your own HttpClient (a proxy, tracing, NodeHttpClient, extra headers):
// CallsightClient.layerWithoutHttpClient requires one. Lists every call, a page at a time.
//   CALLSIGHT_URL=http://localhost:8080 CALLSIGHT_API_KEY=csk_... npx tsx own-http-client.ts
import { CallsightClient } from "@callsight/client"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Console, Effect, Layer } from "effect"

// fetch, with a User-Agent on every request
const HttpClientLive = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, HttpClient.mapRequest(HttpClientRequest.setHeader("user-agent", "acme-crm-sync/1.0")))
).pipe(Layer.provide(FetchHttpClient.layer))

const CallsightLive = CallsightClient.layerWithoutHttpClient({
  baseUrl: process.env.CALLSIGHT_URL ?? "http://localhost:8080",
  apiKey: process.env.CALLSIGHT_API_KEY,
  maxRetries: 4, // up to five attempts of an idempotent request (default 2)
  timeoutMs: 15_000 // per attempt (default 60 s)
}).pipe(Layer.provide(HttpClientLive))

const listAll = Effect.gen(function* () {
  const callsight = yield* CallsightClient
  let cursor: string | undefined
  do {
    // newest first; limit 1–200 (default 50), small here to show the paging
    const page = yield* callsight.listCalls({ limit: 2, cursor })
    for (const call of page.calls) {
      yield* Console.log(`${call.call_id} ${call.status} overall_score ${call.overall_score}`)
    }
    cursor = page.next_cursor ?? undefined // null on the last page
  } while (cursor !== undefined)
})

await Effect.runPromise(listAll.pipe(Effect.provide(CallsightLive)))
