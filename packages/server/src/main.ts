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

/** The HTTP service on a given server layer; the database is already migrated when it listens. */
export const makeServerLayer = <E, R>(server: Layer.Layer<HttpServer.HttpServer, E, R>) =>
  HttpAppLive.pipe(
    HttpServer.withLogAddress,
    Layer.provide(server),
    Layer.provide(MigrationsLive),
    Layer.provideMerge(DatabaseLive)
  )

/** `callsight serve`: everything, from the environment. */
export const ServeLive = makeServerLayer(NodeServerLive).pipe(
  Layer.provide(TracingLive),
  Layer.provide(LoggerLive),
  Layer.provide(AppConfig.layer)
)
