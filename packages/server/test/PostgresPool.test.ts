/**
 * The service's PostgreSQL connections (db/Database.ts `layerPostgres`): JIT compilation and parallel
 * workers are off on every connection of the pool, whatever the server's own settings (issue 39: an
 * interactive read over many calls paid seconds of compiling for a fraction of that in work, and a
 * read planned with parallel workers paid their start and a hash table built by each).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
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
})
