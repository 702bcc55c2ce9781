/**
 * An `SqlClient` over PGlite, PostgreSQL compiled to WASM and run in-process: the embedded database
 * used when `DATABASE_URL` is unset (docs/architecture.md, "Database"). Same design as the PGlite client
 * Effect 4 ships: `SqlClient.make` over `db.query`/`db.exec`, the dialect of `PgClient.makeCompiler()`.
 *
 * PGlite is ONE connection. A transaction therefore holds a single permit from BEGIN to COMMIT or
 * ROLLBACK; a statement outside it takes the same permit for its own run, so it queues behind the
 * transaction instead of landing inside it.
 *
 * Values cross the boundary exactly as with `@effect/sql-pg`: parameters are prepared by node-postgres'
 * own `prepareValue` and every built-in type is parsed by node-postgres' own text parsers, so int8
 * and numeric come back as strings, timestamptz/date as `Date`, bytea as `Buffer`, and so on.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, SqlConnection, SqlError, Statement } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { PGlite, type Results } from "@electric-sql/pglite"
import { Context, Effect, Layer, type Scope, Stream } from "effect"
import { mkdirSync } from "node:fs"
import { createRequire } from "node:module"

// `pg` ships no type declarations (and @types/pg is not installed): load the two pieces used here,
// typed by hand. They are the very functions @effect/sql-pg's pool applies to every query.
const requirePg = createRequire(import.meta.url)
interface PgTypes {
  getTypeParser(oid: number, format: "text"): (value: string) => unknown
}
const pgTypes = (requirePg("pg") as { readonly types: PgTypes }).types
const { prepareValue } = requirePg("pg/lib/utils.js") as { readonly prepareValue: (value: unknown) => unknown }

/** How the single permit is used, for `Database.poolStats`. */
export interface PermitStats {
  readonly held: boolean
  readonly waiting: number
  readonly acquisitions: number
  readonly totalWaitMs: number
}

export interface PgliteClientService extends PgClient.PgClient {
  readonly pglite: PGlite
  readonly permitStats: Effect.Effect<PermitStats>
}

/** The adapter itself, for what `SqlClient` does not expose (the PGlite instance, the permit's stats). */
export class PgliteClient extends Context.Tag("@callsight/PgliteClient")<PgliteClient, PgliteClientService>() {}

export interface PgliteOptions {
  /** A directory (created if missing) to keep the database in; `undefined` keeps it in memory. */
  readonly dataDir: string | undefined
  /**
   * A database to start from instead of an empty one: a dump as `PGlite.dumpDataDir` writes it
   * (the test suite starts each file from one migrated template, packages/server/test/utils).
   */
  readonly loadDataDir?: Blob | undefined
  /**
   * How to get the instance, instead of opening one from `dataDir` and `loadDataDir` and closing it
   * with the scope: the test suite lends each file a database from a pool of its own
   * (packages/server/test/utils/PglitePool.ts).
   */
  readonly open?: Effect.Effect<PGlite, SqlError.SqlError, Scope.Scope> | undefined
}

/** One permit, counting waiters and the time spent waiting. */
const makePermit = Effect.gen(function* () {
  const semaphore = yield* Effect.makeSemaphore(1)
  let held = false
  let waiting = 0
  let acquisitions = 0
  let totalWaitMs = 0

  /** Takes the permit until the current scope closes. Interruptible while queued, never leaks. */
  const acquire: Effect.Effect<void, never, Scope.Scope> = Effect.uninterruptibleMask((restore) =>
    Effect.suspend(() => {
      const queuedAt = performance.now()
      waiting++
      return restore(semaphore.take(1)).pipe(
        Effect.ensuring(Effect.sync(() => waiting--)),
        Effect.zipRight(
          Effect.sync(() => {
            acquisitions++
            totalWaitMs += performance.now() - queuedAt
            held = true
          })
        ),
        Effect.zipRight(
          Effect.addFinalizer(() =>
            Effect.suspend(() => {
              held = false
              return semaphore.release(1)
            })
          )
        )
      )
    })
  )

  const withPermit = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.scoped(Effect.zipRight(acquire, effect))

  const stats = Effect.sync((): PermitStats => ({ held, waiting, acquisitions, totalWaitMs }))

  return { acquire, withPermit, stats } as const
})

type Guard = <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>
type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

/** A `Connection` over the instance; `guard` wraps every round trip (the permit, or nothing inside a transaction). */
const makeConnection = (db: PGlite, guard: Guard): SqlConnection.Connection => {
  const attempt = <A>(run: () => Promise<A>) =>
    guard(
      Effect.tryPromise({
        try: run,
        catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })
      })
    )

  // Like node-postgres: without parameters the simple protocol runs the text, which may hold several
  // statements (one row array each, as pg answers); with parameters, one prepared statement.
  const raw = (
    sql: string,
    params: ReadonlyArray<unknown>,
    rowMode?: "array"
  ): Effect.Effect<Results | Array<Results>, SqlError.SqlError> =>
    params.length === 0
      ? Effect.map(attempt(() => db.exec(sql, { rowMode })), (results) => (results.length === 1 ? results[0] : results))
      : attempt(() => db.query(sql, params.map((value) => prepareValue(value)), { rowMode }))

  const rows = (
    sql: string,
    params: ReadonlyArray<unknown>,
    rowMode?: "array"
  ): Effect.Effect<ReadonlyArray<any>, SqlError.SqlError> =>
    Effect.map(raw(sql, params, rowMode), (result) =>
      Array.isArray(result) ? result.map((r) => r.rows) : result.rows
    )

  const execute = (sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) =>
    transformRows ? Effect.map(rows(sql, params), transformRows) : rows(sql, params)

  return {
    execute,
    executeUnprepared: execute,
    executeRaw: (sql, params) => raw(sql, params),
    executeValues: (sql, params) => rows(sql, params, "array"),
    // PGlite has no cursors across calls: read the whole result, then stream it.
    executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(execute(sql, params, transformRows))
  }
}

/** Replaces PGlite's parsers by node-postgres' for every type the database knows. */
const useNodePostgresParsers = (db: PGlite) =>
  Effect.tryPromise({
    try: async () => {
      const types = await db.query<{ oid: number }>("SELECT oid::int4 AS oid FROM pg_catalog.pg_type")
      for (const { oid } of types.rows) {
        const parse = pgTypes.getTypeParser(oid, "text")
        // Called with the value only: PGlite passes the type id as a second argument.
        db.parsers[oid] = (value: string) => parse(value)
      }
    },
    catch: (cause) => new SqlError.SqlError({ cause, message: "PgliteClient: failed to read the type catalogue" })
  })

const open = (options: PgliteOptions) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        if (options.dataDir !== undefined) mkdirSync(options.dataDir, { recursive: true })
        const db = new PGlite({
          dataDir: options.dataDir,
          ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir })
        })
        await db.waitReady
        return db
      },
      catch: (cause) =>
        new SqlError.SqlError({
          cause,
          message: `PgliteClient: failed to open ${options.dataDir ?? "an in-memory database"}`
        })
    }),
    (db) => (db.closed ? Effect.void : Effect.tryPromise(() => db.close()).pipe(Effect.ignore))
  )

// The JSON parameter of PgClient's compiler (`PgClient.makeCompiler` compiles the kind "PgJson").
interface PgJson extends Statement.Custom<"PgJson", unknown> {}
const PgJson = Statement.custom<PgJson>("PgJson")

/** Opens PGlite for the current scope and builds the client over it. */
export const make = (
  options: PgliteOptions
): Effect.Effect<PgliteClientService, SqlError.SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function* () {
    const db = yield* (options.open ?? open(options))
    yield* useNodePostgresParsers(db)
    const permit = yield* makePermit

    const outside = makeConnection(db, permit.withPermit)
    // Inside a transaction the permit is already held by the transaction's scope.
    const inside = makeConnection(db, (effect) => effect)

    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(outside),
      transactionAcquirer: Effect.as(permit.acquire, inside),
      compiler: PgClient.makeCompiler(),
      spanAttributes: [
        ["db.system.name", "postgresql"],
        ["db.namespace", options.dataDir ?? "memory"]
      ]
    })

    const pgClient: Omit<PgliteClientService, keyof SqlClient.SqlClient> = {
      [PgClient.TypeId]: PgClient.TypeId,
      config: {},
      pglite: db,
      permitStats: permit.stats,
      json: (value) => PgJson(value),
      // Notifications only reach listeners of this same instance (PGlite is one process, one connection).
      listen: (channel) =>
        Stream.asyncPush<string, SqlError.SqlError>((emit) =>
          Effect.acquireRelease(
            permit.withPermit(
              Effect.tryPromise({
                try: () => db.listen(channel, (payload) => emit.single(payload)),
                catch: (cause) => new SqlError.SqlError({ cause, message: "Failed to listen" })
              })
            ),
            (unlisten) => permit.withPermit(Effect.promise(() => unlisten()))
          )
        ),
      notify: (channel, payload) => Effect.asVoid(client`SELECT pg_notify(${channel}, ${payload})`)
    }
    return Object.assign(client, pgClient)
  })

/**
 * PGlite as `SqlClient` (and as `PgClient`, so `sql.json` works on both backends, and as `PgliteClient`).
 * The instance is closed when the layer's scope ends.
 */
export const layer = (
  options: PgliteOptions
): Layer.Layer<PgliteClient | SqlClient.SqlClient | PgClient.PgClient, SqlError.SqlError> =>
  Layer.scopedContext(
    Effect.map(make(options), (client) =>
      Context.make(PgliteClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(PgClient.PgClient, client)
      )
    )
  ).pipe(Layer.provide(Reactivity.layer))
