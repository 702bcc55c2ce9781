/**
 * The PGlite adapter: statements, transactions (one permit, savepoints), values read back exactly as
 * @effect/sql-pg reads them from PostgreSQL, persistence of a data directory, and `Database` on both
 * backends. Comparisons against PostgreSQL run when TEST_DATABASE_URL is set; the literal
 * expectations always run.
 */
import { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Redacted, Stream } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database, layerPglite, layerPostgres } from "../src/db/Database.js"
import { migrations } from "../src/db/Migrations.js"
import * as PgliteClient from "../src/db/PgliteClient.js"
import { pgliteTemplate, TestDatabase, testDatabaseUrl, testServerUrl } from "./utils/TestDatabase.js"

class Boom {
  readonly _tag = "Boom"
}

const count = (sql: SqlClient.SqlClient, table: string) =>
  Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`, ([row]) => row.n)

// Live clock: the concurrency test measures real waits.
// From the run's migrated database (a dump, as TestDatabase.layer loads it): a fresh cluster costs
// seconds more, and the data-directory test below creates one.
layer(PgliteClient.layer({ dataDir: undefined, loadDataDir: pgliteTemplate() }), { excludeTestServices: true })("PgliteClient", (it) => {
  it.effect("runs statements with parameters", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE people (id serial PRIMARY KEY, name text NOT NULL, age int4)`
      yield* sql`INSERT INTO people ${sql.insert([
        { name: "Ada", age: 36 },
        { name: "Alan", age: 41 }
      ])}`
      const rows = yield* sql<{ name: string; age: number }>`SELECT name, age FROM people WHERE age > ${40} ORDER BY id`
      expect(rows).toStrictEqual([{ name: "Alan", age: 41 }])
      const values = yield* sql`SELECT name, age FROM people ORDER BY id`.values
      expect(values).toStrictEqual([
        ["Ada", 36],
        ["Alan", 41]
      ])
      const streamed = yield* Stream.runCollect(sql<{ name: string }>`SELECT name FROM people WHERE id > ${0} ORDER BY id`.stream)
      expect(Array.from(streamed, (row) => row.name)).toStrictEqual(["Ada", "Alan"])
    }))

  it.effect("runs several statements in one unparameterised text, as pg does", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const results = yield* sql.unsafe(`CREATE TABLE multi (x int4); INSERT INTO multi VALUES (1), (2); SELECT sum(x)::int AS s FROM multi`)
      expect(results).toStrictEqual([[], [], [{ s: 3 }]])
    }))

  it.effect("reports PostgreSQL error codes in the cause, as pg does", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE uniq (k text PRIMARY KEY)`
      yield* sql`INSERT INTO uniq VALUES (${"a"})`
      const error = yield* Effect.flip(sql`INSERT INTO uniq VALUES (${"a"})`)
      expect(error).toBeInstanceOf(SqlError.SqlError)
      expect((error.cause as { code?: string }).code).toBe("23505")
    }))

  it.effect("commits a transaction", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE committed (x int4)`
      yield* sql.withTransaction(Effect.zipRight(sql`INSERT INTO committed VALUES (1)`, sql`INSERT INTO committed VALUES (2)`))
      expect(yield* count(sql, "committed")).toBe(2)
    }))

  it.effect("rolls a failed transaction back", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE rolled_back (x int4)`
      const exit = yield* Effect.exit(sql.withTransaction(Effect.zipRight(sql`INSERT INTO rolled_back VALUES (1)`, Effect.fail(new Boom()))))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* count(sql, "rolled_back")).toBe(0)
      // The connection is usable afterwards (no transaction left open).
      yield* sql`INSERT INTO rolled_back VALUES (2)`
      expect(yield* count(sql, "rolled_back")).toBe(1)
    }))

  it.effect("nests transactions as savepoints: the inner failure is undone, the outer commits", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE nested (x int4)`
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO nested VALUES (1)`
          yield* sql.withTransaction(Effect.zipRight(sql`INSERT INTO nested VALUES (2)`, Effect.fail(new Boom()))).pipe(Effect.ignore)
          yield* sql.withTransaction(sql`INSERT INTO nested VALUES (3)`)
        })
      )
      const rows = yield* sql<{ x: number }>`SELECT x FROM nested ORDER BY x`
      expect(rows.map((r) => r.x)).toStrictEqual([1, 3])
    }))

  it.effect("makes statements outside a transaction wait for it", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE waits (x int4)`
      const events: Array<string> = []
      const transaction = yield* Effect.fork(
        sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`INSERT INTO waits VALUES (1)`
            yield* Effect.sleep("150 millis")
            yield* sql`INSERT INTO waits VALUES (2)`
            events.push("committing")
          })
        )
      )
      yield* Effect.sleep("30 millis") // the transaction holds the permit now
      const seen = yield* count(sql, "waits")
      events.push("outside")
      yield* Fiber.join(transaction)
      // Without the permit this read would have run inside the open transaction and seen 1 row.
      expect(seen).toBe(2)
      expect(events).toStrictEqual(["committing", "outside"])
    }))

  it.effect("delivers pg_notify to listen on the same instance", () =>
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      const received = yield* Effect.fork(Stream.runHead(sql.listen("callsight_test")))
      yield* Effect.sleep("50 millis") // LISTEN is in place
      yield* sql.notify("callsight_test", "hello")
      const payload = yield* Fiber.join(received)
      expect(payload._tag === "Some" && payload.value).toBe("hello")
    }))

  it.effect("round-trips sql.json as PgClient does", () =>
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      const document = { a: 1, nested: { list: [1, "two", null] } }
      const [row] = yield* sql<{ doc: unknown }>`SELECT ${sql.json(document)}::jsonb AS doc`
      expect(row.doc).toStrictEqual(document)
    }))

  it.effect("values: reads back every type as @effect/sql-pg does", () => readsValues())
})

// --- values: the same as @effect/sql-pg reads from PostgreSQL ------------------------------------

const valuesQuery = (sql: SqlClient.SqlClient) =>
  sql`SELECT
    9007199254740993::int8 AS int8,
    42::int4 AS int4,
    1.50::numeric AS numeric,
    1.5::float8 AS float8,
    '2024-03-05 10:11:12.345+02'::timestamptz AS timestamptz,
    '2024-03-05'::date AS date,
    '{"a": [1, 2], "b": null}'::jsonb AS jsonb,
    '[1, "x"]'::json AS json,
    true AS bool_true,
    false AS bool_false,
    ARRAY[1, 2]::int4[] AS int4_array,
    ARRAY[1, 2]::int8[] AS int8_array,
    ARRAY['x', 'y,z', NULL]::text[] AS text_array,
    ARRAY[1.5]::numeric[] AS numeric_array,
    '\\x0102ff'::bytea AS bytea,
    NULL::text AS null_text,
    NULL::int8 AS null_int8,
    ${"9007199254740993"}::int8 AS int8_param,
    ${new Date("2024-03-05T08:11:12.345Z")}::timestamptz AS timestamptz_param,
    ${[3, 4]}::int4[] AS int4_array_param,
    ${Buffer.from([7, 8])}::bytea AS bytea_param,
    ${true}::bool AS bool_param,
    ${null}::text AS null_param,
    ${12} AS untyped_param`

/** What @effect/sql-pg 0.53 (node-postgres with its default type parsers) returns for `valuesQuery`. */
const expectedValues = {
  int8: "9007199254740993",
  int4: 42,
  numeric: "1.50",
  float8: 1.5,
  timestamptz: new Date("2024-03-05T08:11:12.345Z"),
  date: new Date(2024, 2, 5), // midnight in the process's time zone, as node-postgres parses a date
  jsonb: { a: [1, 2], b: null },
  json: [1, "x"],
  bool_true: true,
  bool_false: false,
  int4_array: [1, 2],
  int8_array: ["1", "2"],
  text_array: ["x", "y,z", null],
  numeric_array: [1.5], // node-postgres parses numeric[] elements as floats, unlike numeric
  bytea: Buffer.from([1, 2, 255]),
  null_text: null,
  null_int8: null,
  int8_param: "9007199254740993",
  timestamptz_param: new Date("2024-03-05T08:11:12.345Z"),
  int4_array_param: [3, 4],
  bytea_param: Buffer.from([7, 8]),
  bool_param: true,
  null_param: null,
  untyped_param: "12" // an untyped parameter is text
}

const readValues = Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.map(valuesQuery(sql), ([row]) => row))

// The test runs in the "PgliteClient" layer above, on its database (another instance would cost
// seconds to start on a small machine): the query reads no table, so what the other tests did there
// does not change what it reads.
const readsValues = () =>
  Effect.gen(function* () {
    const fromPglite = yield* readValues
    expect(fromPglite).toStrictEqual(expectedValues)
    expect(fromPglite.bytea).toBeInstanceOf(Buffer)

    const serverUrl = testServerUrl()
    if (serverUrl !== undefined) {
      const fromPostgres = yield* Effect.provide(readValues, PgClient.layer({ url: Redacted.make(serverUrl) }))
      expect(fromPostgres).toStrictEqual(expectedValues)
      expect(fromPglite).toStrictEqual(fromPostgres)
    }
  }).pipe(Effect.scoped)

// --- persistence ---------------------------------------------------------------------------------

describe("PgliteClient data directory", () => {
  it.scoped("creates a missing directory and keeps the data across two opens", () =>
    Effect.gen(function* () {
      const root = mkdtempSync(join(tmpdir(), "callsight-pglite-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(root, { recursive: true, force: true })))
      const dataDir = join(root, "nested", "db")

      const sqlIn = <A, E>(effect: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
        Effect.scoped(Effect.provide(Effect.flatMap(SqlClient.SqlClient, effect), PgliteClient.layer({ dataDir })))

      yield* sqlIn((sql) => Effect.zipRight(sql`CREATE TABLE kept (note text)`, sql`INSERT INTO kept VALUES (${"still here"})`))
      const rows = yield* sqlIn((sql) => sql<{ note: string }>`SELECT note FROM kept`)
      expect(rows).toStrictEqual([{ note: "still here" }])
    }))
})

// --- Database ------------------------------------------------------------------------------------

describe("Database", () => {
  it.live("pglite: ping answers and poolStats follow the permit", () =>
    Effect.gen(function* () {
      const db = yield* Database
      const sql = yield* SqlClient.SqlClient
      expect(db.backend).toBe("pglite")
      expect(yield* db.ping).toBeGreaterThanOrEqual(0)

      const idle = yield* db.poolStats
      expect(idle).toMatchObject({ size: 1, max: 1, idle: 1, busy: 0, waiting: 0 })

      const transaction = yield* Effect.fork(sql.withTransaction(Effect.sleep("200 millis")))
      yield* Effect.sleep("30 millis")
      const waiter = yield* Effect.fork(sql`SELECT 1`)
      yield* Effect.sleep("30 millis")
      const busy = yield* db.poolStats
      expect(busy).toMatchObject({ size: 1, max: 1, idle: 0, busy: 1, waiting: 1 })
      yield* Fiber.join(transaction)
      yield* Fiber.join(waiter)

      const after = yield* db.poolStats
      expect(after).toMatchObject({ idle: 1, busy: 0, waiting: 0 })
      expect(after.acquisitions).toBeGreaterThan(idle.acquisitions + 1)
      // The waiter queued for most of the transaction's 200 ms.
      expect(after.avg_acquire_wait_ms).toBeGreaterThan(0)
    }).pipe(Effect.scoped, Effect.provide(layerPglite({ dataDir: undefined, loadDataDir: pgliteTemplate() }))))

  it.live.skipIf(testServerUrl() === undefined)("postgres: ping answers and poolStats count acquisitions", () =>
    Effect.gen(function* () {
      const url = yield* testDatabaseUrl()
      const context = yield* Layer.build(layerPostgres({ url: Redacted.make(url!), maxConnections: 2 }))
      const db = yield* Effect.provide(Database, context)
      const sql = yield* Effect.provide(SqlClient.SqlClient, context)
      expect(db.backend).toBe("postgres")
      expect(yield* db.ping).toBeGreaterThanOrEqual(0)
      const before = yield* db.poolStats
      expect(before).toMatchObject({ max: 2, waiting: 0 })

      // Two transactions hold both connections; a third statement waits for one of them.
      const holders = yield* Effect.forkAll([0, 1].map(() => sql.withTransaction(Effect.zipRight(sql`SELECT 1`, Effect.sleep("300 millis")))))
      yield* Effect.sleep("100 millis")
      const waiter = yield* Effect.fork(sql`SELECT 1`)
      yield* Effect.sleep("50 millis")
      const busy = yield* db.poolStats
      expect(busy).toMatchObject({ size: 2, max: 2, idle: 0, busy: 2, waiting: 1 })
      yield* Fiber.join(holders)
      yield* Fiber.join(waiter)

      const after = yield* db.poolStats
      expect(after.acquisitions).toBeGreaterThanOrEqual(before.acquisitions + 3)
      expect(after.avg_acquire_wait_ms).toBeGreaterThan(0)
      expect(after.busy).toBe(after.size - after.idle)
    }).pipe(Effect.scoped))

  it.live("postgres: a server that never answers fails within the connect timeout, not forever", () =>
    Effect.gen(function* () {
      // A TCP server that accepts connections and never speaks: what a hung database looks like.
      const silent = createServer(() => {})
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => void silent.listen(0, "127.0.0.1", () => resume(Effect.void))),
        () => Effect.sync(() => silent.close())
      )
      const { port } = silent.address() as AddressInfo
      const started = Date.now()
      const exit = yield* Effect.exit(
        Layer.build(
          layerPostgres({ url: Redacted.make(`postgres://postgres@127.0.0.1:${port}/postgres`), maxConnections: 1, connectTimeout: "1 second" })
        )
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(Date.now() - started).toBeLessThan(4_000)
    }).pipe(Effect.scoped))
})

layer(TestDatabase.layer)("TestDatabase.layer", (it) => {
  it.effect("provides a database of its own, migrated from the run's template, on the backend the environment names", () =>
    Effect.gen(function* () {
      const db = yield* Database
      const sql = yield* SqlClient.SqlClient
      expect(db.backend).toBe(testServerUrl() === undefined ? "pglite" : "postgres")
      // every migration applied already (DatabaseTemplate.ts): the server's migrations find nothing to do
      const applied = yield* sql<{ name: string }>`SELECT name FROM effect_sql_migrations ORDER BY migration_id`
      expect(applied.map((m) => m.name)).toEqual(Object.keys(migrations).map((key) => key.replace(/^\d+_/, "")))
      // its own: a table another file's database made is not here, and this one stays here
      const [{ tables }] = yield* sql<{ tables: number }>`
        SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'mine'`
      expect(tables).toBe(0)
      yield* sql`CREATE TABLE mine (x int4)`
    }))
})
