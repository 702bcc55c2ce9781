/**
 * The service's PostgreSQL connections (db/Database.ts `layerPostgres`): JIT compilation is off on
 * every connection of the pool, whatever the server's own setting (issue 39: an interactive read
 * over many calls paid seconds of compiling for a fraction of that in work).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import { layerPostgres } from "../src/db/Database.js"
import { testDatabaseUrl, testServerUrl } from "./utils/TestDatabase.js"

describe("the PostgreSQL pool", () => {
  it.scoped.skipIf(testServerUrl() === undefined)("runs every statement without JIT, on each of its connections", () =>
    Effect.gen(function* () {
      const url = (yield* testDatabaseUrl())!
      // (the server's own default is `on`: PostgreSQL's, and this machine's)
      const settings = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // four at once: four of the pool's connections
        return yield* Effect.all(
          Array.from({ length: 4 }, () =>
            Effect.flatMap(sql<{ jit: string }>`SELECT current_setting('jit') AS jit, pg_sleep(0.05)`, (rows) =>
              Schema.decodeUnknown(Schema.Literal("on", "off"))(rows[0]!.jit))),
          { concurrency: 4 }
        )
      }).pipe(Effect.provide(layerPostgres({ url: Redacted.make(url), maxConnections: 4 })))
      expect(settings).toEqual(["off", "off", "off", "off"])
    }), 30_000)
})
