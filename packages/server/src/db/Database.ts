/**
 * The live database: which backend serves `SqlClient`, whether it answers, and how its connections
 * are used (`/health/db`). Each layer provides `Database` and `SqlClient` (and `PgClient`, so
 * `sql.json` works on both backends).
 *
 * - `layerPostgres`: @effect/sql-pg over a `pg` pool built here, so its acquisitions can be counted.
 * - `layerPglite`: the embedded PGlite adapter; its "pool" is the one permit of its one connection.
 */
import { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Layer, Redacted } from "effect"
import { createRequire } from "node:module"
import * as Pglite from "./PgliteClient.js"
import { type PgQueryClient, prepareMarked } from "./Prepared.js"

export interface PoolStats {
  /** Connections open. */
  readonly size: number
  readonly max: number
  readonly idle: number
  /** Connections lent out (to a statement or a transaction). */
  readonly busy: number
  /** Requests queued for a connection. */
  readonly waiting: number
  readonly avg_acquire_wait_ms: number
  /** Connections handed out since start. */
  readonly acquisitions: number
}

export class Database extends Context.Tag("@callsight/Database")<
  Database,
  {
    readonly backend: "postgres" | "pglite"
    /** Round-trip time of `SELECT 1` in ms; fails within `pingTimeout` when the database does not answer. */
    readonly ping: Effect.Effect<number, SqlError.SqlError>
    readonly poolStats: Effect.Effect<PoolStats>
  }
>() {}

/** Bounds `ping`, so a dead server is reported quickly instead of hanging a health check. */
export const pingTimeout = Duration.seconds(2)

const makePing = (sql: SqlClient.SqlClient) =>
  sql`SELECT 1`.pipe(
    Effect.timed,
    Effect.map(([elapsed]) => round(Duration.toMillis(elapsed))),
    Effect.timeoutFail({
      duration: pingTimeout,
      onTimeout: () =>
        new SqlError.SqlError({ message: `the database did not answer within ${Duration.format(pingTimeout)}` })
    }),
    Effect.withSpan("Database.ping")
  )

const round = (ms: number) => Math.round(ms * 1000) / 1000
const average = (totalMs: number, count: number) => (count === 0 ? 0 : round(totalMs / count))

// --- PostgreSQL -------------------------------------------------------------------------------

// `pg` ships no type declarations (and @types/pg is not installed): the part of its Pool used here.
type ConnectCallback = (error: Error | undefined, client: unknown, release: (error?: Error) => void) => void
interface PgPool {
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
  connect(callback?: ConnectCallback): Promise<unknown> | void
  query(text: string): Promise<unknown>
  end(): Promise<void>
  on(event: "error", listener: (error: Error) => void): unknown
  on(event: "connect", listener: (client: PgQueryClient) => void): unknown
}
const { Pool } = createRequire(import.meta.url)("pg") as {
  readonly Pool: new (config: Record<string, unknown>) => PgPool
}

/**
 * Counts every checkout of the pool and the time it waited: `pool.connect` is how @effect/sql-pg
 * takes a connection, for a statement and for a transaction alike (and `pool.query` goes through it).
 */
const measureAcquisitions = (pool: PgPool) => {
  const stats = { acquisitions: 0, totalWaitMs: 0 }
  const connect = pool.connect.bind(pool)
  pool.connect = (callback?: ConnectCallback) => {
    const startedAt = performance.now()
    const record = () => {
      stats.acquisitions++
      stats.totalWaitMs += performance.now() - startedAt
    }
    if (callback === undefined) {
      return (connect() as Promise<unknown>).then((client) => {
        record()
        return client
      })
    }
    return connect((error, client, release) => {
      if (!error) record()
      callback(error, client, release)
    })
  }
  return stats
}

export interface PostgresOptions {
  readonly url: Redacted.Redacted<string>
  readonly maxConnections: number
  readonly applicationName?: string
  /**
   * How long to wait for a connection, new or from the pool, before failing (default 5 s): a dead
   * server fails fast, and so does a request queued behind an exhausted pool.
   */
  readonly connectTimeout?: Duration.DurationInput
  /**
   * How long an idle connection is kept open (default IDLE_TIMEOUT). node-postgres closes one after
   * 10 s by default: a person's next click then opened new connections, whose first statements plan
   * and load the catalog again (a year of trends at 100,000 calls: ~100 ms back to back, 288 ms with
   * 11 s between reads).
   */
  readonly idleTimeout?: Duration.DurationInput
}

/** How long the pool keeps an idle connection: warm for the next read of a person who is reading. */
export const IDLE_TIMEOUT: Duration.DurationInput = "10 minutes"

const makePool = (options: PostgresOptions) => {
  const connectTimeout = Duration.decode(options.connectTimeout ?? "5 seconds")
  return Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new Pool({
        connectionString: Redacted.value(options.url),
        max: options.maxConnections,
        connectionTimeoutMillis: Duration.toMillis(connectTimeout),
        idleTimeoutMillis: Duration.toMillis(Duration.decode(options.idleTimeout ?? IDLE_TIMEOUT)),
        application_name: options.applicationName ?? "callsight",
        // No JIT compilation: PostgreSQL compiles a statement whose estimated cost is high, and an
        // interactive read over many calls paid seconds of compiling for a fraction of that in work
        // (the trends statement at 100,000 calls: ~7 s of JIT for 1.5 s of execution, issue 39).
        // No parallel workers either: a read over tens of thousands of rows was planned with a
        // Gather whose workers each built the same hash table (market intelligence's renewal radar at
        // 100,000 calls in one tenant, 2 cores: p50 122-131 -> 58-59 ms; the other reads the same,
        // alternated twice).
        options: "-c jit=off -c max_parallel_workers_per_gather=0"
      })
      // An idle connection that dies emits "error" on the pool; unhandled, it would crash the process.
      pool.on("error", () => {})
      // the statements marked `prepared` (Prepared.ts) are prepared once per connection
      pool.on("connect", prepareMarked)
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption("1 second"))
  ).pipe(
    // Fail at start-up, not at the first request, when the server is unreachable.
    Effect.tap((pool) =>
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError.SqlError({ cause, message: "PostgreSQL: failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: connectTimeout,
          onTimeout: () =>
            new SqlError.SqlError({ message: `PostgreSQL: no connection within ${Duration.format(connectTimeout)}` })
        })
      )
    )
  )
}

/** @effect/sql-pg on a pool of at most `maxConnections`, measured for `poolStats`. */
export const layerPostgres = (
  options: PostgresOptions
): Layer.Layer<Database | SqlClient.SqlClient | PgClient.PgClient, SqlError.SqlError> =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const pool = yield* makePool(options)
      const stats = measureAcquisitions(pool)
      const client = PgClient.layerFromPool({ acquire: Effect.succeed(pool), applicationName: options.applicationName })
      const database = Layer.effect(
        Database,
        Effect.map(SqlClient.SqlClient, (sql) =>
          Database.of({
            backend: "postgres",
            ping: makePing(sql),
            poolStats: Effect.sync(() => ({
              size: pool.totalCount,
              max: options.maxConnections,
              idle: pool.idleCount,
              busy: pool.totalCount - pool.idleCount,
              waiting: pool.waitingCount,
              avg_acquire_wait_ms: average(stats.totalWaitMs, stats.acquisitions),
              acquisitions: stats.acquisitions
            }))
          })
        )
      )
      return Layer.provideMerge(database, client)
    })
  )

// --- PGlite -----------------------------------------------------------------------------------

/** The embedded database: one connection, so size and max are 1 and busy means the permit is held. */
export const layerPglite = (
  options: Pglite.PgliteOptions
): Layer.Layer<Database | SqlClient.SqlClient | PgClient.PgClient | Pglite.PgliteClient, SqlError.SqlError> => {
  const database = Layer.effect(
    Database,
    Effect.map(Pglite.PgliteClient, (client) =>
      Database.of({
        backend: "pglite",
        ping: makePing(client),
        poolStats: Effect.map(client.permitStats, (permit) => ({
          size: 1,
          max: 1,
          idle: permit.held ? 0 : 1,
          busy: permit.held ? 1 : 0,
          waiting: permit.waiting,
          avg_acquire_wait_ms: average(permit.totalWaitMs, permit.acquisitions),
          acquisitions: permit.acquisitions
        }))
      })
    )
  )
  return Layer.provideMerge(database, Pglite.layer(options))
}
