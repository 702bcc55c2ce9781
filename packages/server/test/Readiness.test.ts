/**
 * `/ready` and `/health` when the database goes away under a running server: on PostgreSQL the
 * connection runs through a TCP proxy that the test cuts; on the embedded database the PGlite
 * instance is closed.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import * as net from "node:net"
import { AppConfig } from "../src/config.js"
import { layerPglite, layerPostgres } from "../src/db/Database.js"
import { PgliteClient } from "../src/db/PgliteClient.js"
import { makeServerLayer } from "../src/main.js"
import { pgliteTemplate, testDatabaseUrl, testServerUrl } from "./utils/TestDatabase.js"

/** A TCP proxy to `target` that can be cut: it then closes every connection and refuses new ones. */
const cuttableProxy = (target: URL) =>
  Effect.acquireRelease(
    Effect.async<{ port: number; cut: () => void }>((resume) => {
      const sockets = new Set<net.Socket>()
      const server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on("error", () => s.destroy())
          s.on("close", () => sockets.delete(s))
        }
        client.pipe(upstream).pipe(client)
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as net.AddressInfo).port
        resume(Effect.succeed({
          port,
          cut: () => {
            server.close()
            for (const s of sockets) s.destroy()
          }
        }))
      })
    }),
    (proxy) => Effect.sync(() => proxy.cut())
  )

const config = AppConfig.layerWith({})
const quiet = Logger.minimumLogLevel(LogLevel.None)

const expectOutage = Effect.gen(function* () {
  const client = yield* HttpClient.HttpClient
  const ready = yield* client.get("/ready")
  expect(ready.status).toBe(503)
  expect(yield* ready.json).toMatchObject({ _tag: "ServiceUnavailable" })
  const health = yield* client.get("/health")
  expect(health.status).toBe(200)
  const body: any = yield* health.json
  expect(body.status).toBe("degraded")
  expect(body.database.connected).toBe(false)
  expect(body.database.error).toEqual(expect.any(String))
})

describe("readiness when the database becomes unreachable", () => {
  it.scoped.skipIf(testServerUrl() === undefined)("PostgreSQL behind a cut connection: /ready 503, /health degraded", () =>
    Effect.gen(function* () {
      const url = new URL((yield* testDatabaseUrl())!)
      const proxy = yield* cuttableProxy(url)
      const viaProxy = new URL(url)
      viaProxy.hostname = "127.0.0.1"
      viaProxy.port = String(proxy.port)
      const database = layerPostgres({
        url: Redacted.make(viaProxy.toString()),
        maxConnections: 2,
        connectTimeout: "1 second"
      })
      const server = makeServerLayer(NodeHttpServer.layerTest, database).pipe(Layer.provide(config), Layer.provide(quiet))
      yield* Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        expect((yield* client.get("/ready")).status).toBe(200)
        proxy.cut()
        const started = Date.now()
        yield* expectOutage
        // Answered from the ping's bound, not from a hung connection attempt.
        expect(Date.now() - started).toBeLessThan(8_000)
      }).pipe(Effect.provide(server))
    }), 30_000)

  it.scoped("embedded PGlite closed under the server: /ready 503, /health degraded", () =>
    Effect.gen(function* () {
      const database = layerPglite({ dataDir: undefined, loadDataDir: pgliteTemplate() })
      const server = makeServerLayer(NodeHttpServer.layerTest, database).pipe(Layer.provide(config), Layer.provide(quiet))
      yield* Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        expect((yield* client.get("/ready")).status).toBe(200)
        const pglite = yield* PgliteClient
        yield* Effect.promise(() => pglite.pglite.close())
        yield* expectOutage
      }).pipe(Effect.provide(server))
    }), 30_000)
})
