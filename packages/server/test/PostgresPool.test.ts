/**
 * The service's PostgreSQL connections (db/Database.ts `layerPostgres`): JIT compilation and parallel
 * workers are off on every connection of the pool, whatever the server's own settings (issue 39: an
 * interactive read over many calls paid seconds of compiling for a fraction of that in work, and a
 * read planned with parallel workers paid their start and a hash table built by each); an idle
 * connection is kept for IDLE_TIMEOUT, not node-postgres' 10 s.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type Duration, Effect, Redacted } from "effect"
import { layerPostgres } from "../src/db/Database.js"
import { testDatabaseUrl, testServerUrl } from "./utils/TestDatabase.js"

describe("the PostgreSQL pool", () => {
  it.scoped.skipIf(testServerUrl() === undefined)("runs every statement without JIT and without parallel workers, on each of its connections", () =>
    Effect.gen(function* () {
      const url = (yield* testDatabaseUrl())!
      // (the server's own defaults are `on` and 2: PostgreSQL's, and this machine's)
      const settings = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // four at once: four of the pool's connections
        return yield* Effect.all(
          Array.from({ length: 4 }, () =>
            Effect.flatMap(
              sql<{ jit: string; workers: string }>`
                SELECT current_setting('jit') AS jit, current_setting('max_parallel_workers_per_gather') AS workers, pg_sleep(0.05)`,
              (rows) => Effect.succeed(`${rows[0]!.jit} ${rows[0]!.workers}`)
            )),
          { concurrency: 4 }
        )
      }).pipe(Effect.provide(layerPostgres({ url: Redacted.make(url), maxConnections: 4 })))
      expect(settings).toEqual(["off 0", "off 0", "off 0", "off 0"])
    }), 30_000)

  it.scopedLive.skipIf(testServerUrl() === undefined)("keeps an idle connection open past node-postgres' 10 seconds, and closes it after its own idle timeout", () =>
    Effect.gen(function* () {
      const url = Redacted.make((yield* testDatabaseUrl())!)
      const backend = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`).pipe(
        Effect.map((rows) => rows[0]!.pid)
      )
      const twice = (pause: Duration.DurationInput) =>
        Effect.gen(function* () {
          const first = yield* backend
          yield* Effect.sleep(pause)
          return [first, yield* backend] as const
        })
      // the default: the same connection answers after 11 s idle (node-postgres' own default closes it at 10 s)
      const [a, b] = yield* twice("11 seconds").pipe(Effect.provide(layerPostgres({ url, maxConnections: 1 })))
      expect(b).toBe(a)
      // a short idle timeout closes it: another connection (another backend) answers
      const [c, d] = yield* twice("1 second").pipe(Effect.provide(layerPostgres({ url, maxConnections: 1, idleTimeout: "200 millis" })))
      expect(d).not.toBe(c)
    }), 30_000)
})
