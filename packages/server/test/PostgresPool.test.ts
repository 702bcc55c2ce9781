/**
 * The service's PostgreSQL connections (db/Database.ts `layerPostgres`): JIT compilation and parallel
 * workers are off on every connection of the pool, whatever the server's own settings (issue 39: an
 * interactive read over many calls paid seconds of compiling for a fraction of that in work, and a
 * read planned with parallel workers paid their start and a hash table built by each); an idle
 * connection is kept for IDLE_TIMEOUT, not node-postgres' 10 s; a statement marked `prepared`
 * (db/Prepared.ts) is prepared once per connection, the others are not, and a connection names at
 * most MAX_NAMED_PER_CONNECTION.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type Duration, Effect, Redacted } from "effect"
import { layerPostgres } from "../src/db/Database.js"
import { MAX_NAMED_PER_CONNECTION, prepared, preparedName } from "../src/db/Prepared.js"
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

  it.scoped.skipIf(testServerUrl() === undefined)("prepares a marked statement once per connection, with its values as parameters; an unmarked one never", () =>
    Effect.gen(function* () {
      const url = Redacted.make((yield* testDatabaseUrl())!)
      const found = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // one connection: a transaction holds it for every statement below
        return yield* sql.withTransaction(Effect.gen(function* () {
          const marked = (n: number) => sql<{ twice: number }>`${prepared(sql)}SELECT ${n}::int * 2 AS twice`
          const answers = [yield* marked(1), yield* marked(20), yield* marked(300)].map((rows) => rows[0]!.twice)
          // rows as arrays (@effect/sql's `.values`) take the same path, and the same statement
          const values = yield* marked(7).values
          yield* sql`SELECT 2 AS unmarked`
          const statements = yield* sql<{ name: string; statement: string; calls: number }>`
            SELECT name, statement, (generic_plans + custom_plans)::int AS calls FROM pg_prepared_statements ORDER BY name`
          return { answers, values, statements }
        }))
      }).pipe(Effect.provide(layerPostgres({ url, maxConnections: 1 })))
      expect(found.answers).toEqual([2, 40, 600])
      expect(found.values).toEqual([[14]])
      const text = "/* prepared */ SELECT $1::int * 2 AS twice"
      expect(found.statements).toEqual([{ name: preparedName(text), statement: text, calls: 4 }])
    }), 30_000)

  it.scoped.skipIf(testServerUrl() === undefined)("names at most MAX_NAMED_PER_CONNECTION marked texts a connection, and runs the others unnamed", () =>
    Effect.gen(function* () {
      const url = Redacted.make((yield* testDatabaseUrl())!)
      const found = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql.withTransaction(Effect.gen(function* () {
          // texts that vary (a constant written into each): what a marked statement must not be
          const answers = yield* Effect.forEach(
            Array.from({ length: MAX_NAMED_PER_CONNECTION + 6 }, (_, i) => i),
            (i) => Effect.map(sql<{ n: number }>`${prepared(sql)}SELECT ${sql.literal(String(i))}::int AS n`, (rows) => rows[0]!.n)
          )
          const named = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`
          return { answers, named: named[0]!.n }
        }))
      }).pipe(Effect.provide(layerPostgres({ url, maxConnections: 1 })))
      expect(found.answers).toEqual(Array.from({ length: MAX_NAMED_PER_CONNECTION + 6 }, (_, i) => i))
      expect(found.named).toBe(MAX_NAMED_PER_CONNECTION)
    }), 30_000)
})
