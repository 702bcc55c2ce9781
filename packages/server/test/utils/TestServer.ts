/**
 * The real HTTP service in-process on Node's test server (a random local port), on a fresh
 * database (PostgreSQL when TEST_DATABASE_URL is set, embedded PGlite otherwise). Its HttpClient
 * talks to that server.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig, type AppConfigShape } from "../../src/config.js"
import { makeServerLayer } from "../../src/main.js"
import { TestDatabase } from "./TestDatabase.js"

export const ADMIN_KEY = `csa_test_admin_${crypto.randomUUID()}`
export const ASSISTANT_KEY = `csa_test_assistant_${crypto.randomUUID()}`

export interface TestServerOptions {
  readonly workers?: boolean
  /** When given, every log line of the server (all levels, logfmt) is pushed here instead of printed. */
  readonly logs?: Array<string>
  /**
   * Listen on this port rather than a random one: for a test whose configuration names the
   * server's own URL before it starts (`publicBaseUrl`, where an OAuth provider sends the browser back).
   */
  readonly port?: number
}

/** Node's test server (as `NodeHttpServer.layerTest`, whose client talks to it) on `port`. */
const nodeTestServer = (port: number) =>
  HttpServer.layerTestClient.pipe(
    Layer.provide(NodeHttpClient.layerWithoutAgent),
    Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port }))
  )

/** Warnings and errors printed, or every line kept in `logs` (to search them for a secret). */
const testLogger = (logs: Array<string> | undefined) =>
  logs === undefined
    ? Logger.minimumLogLevel(LogLevel.Warning)
    : Layer.merge(
      Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void logs.push(line))),
      Logger.minimumLogLevel(LogLevel.All)
    )

/** A directory of its own for a test server's uploads, removed when the server is. */
const blobDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-blobs-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

export const testServerLayer = (overrides: Partial<AppConfigShape> = {}, options: TestServerOptions = {}) =>
  makeServerLayer(options.port === undefined ? NodeHttpServer.layerTest : nodeTestServer(options.port), TestDatabase.layer, options).pipe(
    Layer.provide(
      Layer.unwrapScoped(Effect.map(blobDirectory, (blobDir) =>
        AppConfig.layerWith({
          adminApiKey: Option.some(Redacted.make(ADMIN_KEY)),
          assistantApiKey: Option.some(Redacted.make(ASSISTANT_KEY)),
          secretsKey: Option.some(Redacted.make(randomBytes(32).toString("base64"))),
          blobDir,
          ...overrides
        })))
    ),
    Layer.provide(testLogger(options.logs))
  )
