/**
 * The process: configuration, database (PostgreSQL when `DATABASE_URL` is set, embedded PGlite
 * under `DATA_DIR` otherwise), migrations, then the HTTP server. SIGTERM interrupts the main
 * fiber: the server stops accepting, in-flight requests finish, then the pool closes.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { join } from "node:path"
import { AppConfig } from "./config.js"
import { layerPglite, layerPostgres } from "./db/Database.js"
import { MigrationsLive } from "./db/Migrations.js"
import { HttpAppLive } from "./http/Server.js"
import { LoggerLive, TracingLive } from "./Observability.js"

/** The database the configuration names, with the migrations run on it. */
export const DatabaseLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onSome: (url) => layerPostgres({ url, maxConnections: config.dbPoolMax, applicationName: "callsight" }),
      onNone: () => layerPglite({ dataDir: join(config.dataDir, "db") })
    })
  )
)

const NodeServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
)

/**
 * The HTTP service on a given server and database; the database is migrated before it listens.
 * Tests pass the test server and a fresh database.
 */
export const makeServerLayer = <S, E1, R1, D, E2, R2>(
  server: Layer.Layer<S, E1, R1>,
  database: Layer.Layer<D, E2, R2>
) =>
  HttpAppLive.pipe(
    HttpServer.withLogAddress,
    Layer.provideMerge(server),
    Layer.provide(MigrationsLive),
    Layer.provideMerge(database)
  )

/** `callsight serve`: everything, from the environment. */
export const ServeLive = makeServerLayer(NodeServerLive, DatabaseLive).pipe(
  Layer.provide(TracingLive),
  Layer.provide(LoggerLive),
  Layer.provide(AppConfig.layer)
)
