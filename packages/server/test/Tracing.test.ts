/**
 * Spans leave the process when OTEL_EXPORTER_OTLP_ENDPOINT is set: a local HTTP server plays the
 * OTLP/HTTP collector and receives `POST /v1/traces` with the service's spans.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { AppConfig } from "../src/config.js"
import { makeServerLayer } from "../src/main.js"
import { TracingLive } from "../src/Observability.js"
import { startTelegramServer, update } from "./utils/MessengerServers.js"
import { TestDatabase } from "./utils/TestDatabase.js"

interface Received {
  readonly path: string
  readonly contentType: string
  readonly body: string
}

const collector = Effect.acquireRelease(
  Effect.async<{ url: string; received: Array<Received>; close: () => void }>((resume) => {
    const received: Array<Received> = []
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c) => chunks.push(c))
      req.on("end", () => {
        received.push({
          path: req.url ?? "",
          contentType: String(req.headers["content-type"]),
          body: Buffer.concat(chunks).toString("utf8")
        })
        res.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, received, close: () => server.close() }))
    })
  }),
  (c) => Effect.sync(() => c.close())
)

describe("tracing", () => {
  it.scoped("exports the request spans to the OTLP endpoint", () =>
    Effect.gen(function* () {
      const otlp = yield* collector
      const config = AppConfig.layerWith({ otlpEndpoint: Option.some(new URL(otlp.url)) })
      const server = makeServerLayer(NodeHttpServer.layerTest, TestDatabase.layer).pipe(
        Layer.provide(TracingLive),
        Layer.provide(config),
        Layer.provide(Logger.minimumLogLevel(LogLevel.None))
      )
      // The server's scope closes at the end of this block: the span processor flushes then.
      yield* Effect.scoped(
        Effect.gen(function* () {
          const client = yield* HttpClient.HttpClient
          expect((yield* client.get("/health")).status).toBe(200)
        }).pipe(Effect.provide(server))
      )
      const traces = otlp.received.filter((r) => r.path === "/v1/traces")
      expect(traces.length).toBeGreaterThan(0)
      const all = traces.map((t) => t.body).join("\n")
      expect(all).toContain("callsight")
      expect(all).toContain("Probes.health")
    }), 30_000)

  it.scopedLive("keeps the messaging platforms' secrets out of the spans: their headers redacted, the token-bearing URLs unrecorded", () =>
    Effect.gen(function* () {
      const otlp = yield* collector
      const tg = yield* startTelegramServer
      const verifyToken = `verify_${crypto.randomUUID()}`
      const config = AppConfig.layerWith({
        otlpEndpoint: Option.some(new URL(otlp.url)),
        messengerABotToken: Option.some(Redacted.make(tg.botToken)),
        messengerASecretToken: Option.some(Redacted.make(tg.secretToken)),
        messengerAApiUrl: tg.url,
        messengerBVerifyToken: Option.some(Redacted.make(verifyToken)),
        messengerBAppSecret: Option.some(Redacted.make("app-secret")),
        messengerBAccessToken: Option.some(Redacted.make("access-token")),
        messengerBPhoneNumberId: Option.some("1234567890")
      })
      const server = makeServerLayer(NodeHttpServer.layerTest, TestDatabase.layer).pipe(
        Layer.provide(TracingLive),
        Layer.provide(config),
        Layer.provide(Logger.minimumLogLevel(LogLevel.None))
      )
      const signature = `sha256=${"ab".repeat(32)}`
      yield* Effect.scoped(
        Effect.gen(function* () {
          // the test's own requests make no span: only the server's are looked at
          const client = HttpClient.withTracerDisabledWhen(yield* HttpClient.HttpClient, () => true)
          const webhook = yield* client.execute(HttpClientRequest.post("/v1/companion/messenger-a/webhook").pipe(
            HttpClientRequest.setHeader("x-messenger-a-bot-api-secret-token", tg.secretToken),
            HttpClientRequest.bodyUnsafeJson(update(4242, "hello"))
          ))
          expect(webhook.status).toBe(200)
          // the reply went out through sendMessage, whose URL holds the bot token
          yield* tg.waitFor(4242, 1)
          const verify = yield* client.get(`/v1/companion/messenger-b/webhook?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=7`)
          expect(verify.status).toBe(200)
          const signed = yield* client.execute(HttpClientRequest.post("/v1/companion/messenger-b/webhook").pipe(
            HttpClientRequest.setHeader("x-hub-signature-256", signature),
            HttpClientRequest.bodyUnsafeJson({ object: "whatsapp_business_account", entry: [] })
          ))
          expect(signed.status).toBe(401)
        }).pipe(Effect.provide(server))
      )
      const all = otlp.received.filter((r) => r.path === "/v1/traces").map((t) => t.body).join("\n")
      expect(all).toContain("Companion.receiveMessengerA")
      expect(all).toContain("Companion.verifyMessengerB")
      expect(all).toContain(`{"key":"http.request.header.x-messenger-a-bot-api-secret-token","value":{"stringValue":"<redacted>"}}`)
      expect(all).toContain(`{"key":"http.request.header.x-hub-signature-256","value":{"stringValue":"<redacted>"}}`)
      for (const secret of [tg.secretToken, tg.botToken, tg.botToken.split(":")[1]!, verifyToken, signature.slice(7)]) {
        expect(all).not.toContain(secret)
      }
    }), 30_000)
})
