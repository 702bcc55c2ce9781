/** The operations probes: liveness, readiness and the database's deep health. */
import { ServiceUnavailable } from "@callsight/api-spec"
import { Effect } from "effect"
import { BlobStore } from "../calls/BlobStore.js"
import { AppConfig } from "../config.js"
import { Database } from "../db/Database.js"
import { recentWithin } from "../lib/Recent.js"
import { spanned } from "../lib/Spans.js"
import { API_VERSION, VERSION } from "../version.js"
import { ProbesQueries } from "./ProbesQueries.js"

export class Probes extends Effect.Service<Probes>()("Probes", {
  effect: Effect.gen(function* () {
    const db = yield* Database
    const queries = yield* ProbesQueries
    const config = yield* AppConfig
    const blobs = yield* BlobStore
    const startedAt = Date.now()

    // Liveness answers from a ping at most a second old: a probe polled by many checkers (or a
    // load balancer) costs the database one round trip a second, not one per request.
    const recentPing = recentWithin(Effect.either(db.ping), 1_000)

    const health = spanned("Probes.health", () =>
      Effect.map(recentPing, (ping) => ({
        status: ping._tag === "Right" ? ("ok" as const) : ("degraded" as const),
        version: VERSION,
        api_version: API_VERSION,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        database: {
          backend: db.backend,
          connected: ping._tag === "Right",
          latency_ms: ping._tag === "Right" ? ping.right : null,
          error: ping._tag === "Left" ? ping.left.message : null
        }
      })))

    // Migrations run before the server listens, so a server that answers has run them.
    const ready = Effect.fn("Probes.ready")(function* () {
      yield* db.ping.pipe(
        Effect.mapError(() => new ServiceUnavailable({ message: "the database is unreachable" }))
      )
      // Object storage (S3_BUCKET): uploads and the analysis need the bucket to answer.
      yield* blobs.check.pipe(Effect.mapError((e) => new ServiceUnavailable({ message: e.message })))
      return { status: "ready" as const, database: "ok" as const, migrations: "ok" as const }
    })

    const dbHealth = Effect.fn("Probes.dbHealth")(function* () {
      const pool = yield* db.poolStats
      const rows = yield* Effect.either(Effect.timeout(queries.connectionsByState, "2 seconds"))
      const connections = { active: 0, idle: 0, idle_in_transaction: 0, other: 0, total: 0 }
      if (rows._tag === "Right") {
        for (const { state, n } of rows.right) {
          if (state === "active") connections.active += n
          else if (state === "idle") connections.idle += n
          else if (state === "idle in transaction" || state === "idle in transaction (aborted)") {
            connections.idle_in_transaction += n
          } else connections.other += n
          connections.total += n
        }
      }
      // The embedded database is one in-process connection: pg_stat_activity does not see it.
      if (db.backend === "pglite") {
        connections.total = Math.max(connections.total, pool.size)
        connections.active = Math.max(connections.active, pool.busy)
        connections.idle = connections.total - connections.active - connections.idle_in_transaction - connections.other
      }
      const cap = config.dbConnectionCap
      const headroom = Math.max(cap - connections.total, 0)
      return {
        status: rows._tag === "Left" ? ("unavailable" as const) : headroom < cap * 0.1 ? ("degraded" as const) : ("ok" as const),
        backend: db.backend,
        pool,
        connections,
        cap,
        headroom,
        headroom_pct: Math.round((headroom / cap) * 1000) / 10
      }
    })

    return { health, ready, dbHealth } as const
  }),
  dependencies: [ProbesQueries.Default, BlobStore.Default]
}) {}
