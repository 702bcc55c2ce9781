/**
 * Spans leave the process when OTEL_EXPORTER_OTLP_ENDPOINT is set: a local HTTP server plays the
 * OTLP/HTTP collector and receives `POST /v1/traces` with the service's spans.
 */
import { HttpClient } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Option } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { AppConfig } from "../src/config.js"
import { makeServerLayer } from "../src/main.js"
import { TracingLive } from "../src/Observability.js"
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
})
