/**
 * A `RateLimiterStore` for @effect/experimental's `RateLimiter` in PostgreSQL (and PGlite), so
 * every server process on one database counts the same requests. It keeps the semantics of the
 * library's memory and Redis stores: a fixed window whose expiry grows by `refillRate` per token
 * taken, and a token bucket refilled one token per `refillRate`. Each call is one transaction on
 * a row locked `FOR UPDATE`; times come from the database's clock. Expired rows are deleted every
 * ten minutes.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Schedule, Schema } from "effect"
import * as Rows from "../db/Rows.js"

const storeError = (cause: unknown) =>
  new RateLimiter.RateLimitStoreError({ message: "the rate-limit store could not be read or written", cause })

export const RateLimiterStoreSql = Layer.scoped(
  RateLimiter.RateLimiterStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** The key's window, locked; `ttl_ms` 0 once it expired. */
    const lockWindow = Rows.single({
      Request: Schema.String,
      Result: Schema.Struct({ count: Schema.Number, ttl_ms: Schema.Number }),
      execute: (key) =>
        sql`SELECT count, GREATEST(0, extract(epoch FROM expires_at - now()) * 1000)::float8 AS ttl_ms
            FROM rate_limit_windows WHERE key = ${key} FOR UPDATE`
    })

    /** The key's bucket, locked, and the time since its last refill. */
    const lockBucket = Rows.single({
      Request: Schema.String,
      Result: Schema.Struct({ tokens: Schema.Number, elapsed_ms: Schema.Number }),
      execute: (key) =>
        sql`SELECT tokens, GREATEST(0, extract(epoch FROM now() - last_refill) * 1000)::float8 AS elapsed_ms
            FROM rate_limit_buckets WHERE key = ${key} FOR UPDATE`
    })

    const fixedWindow = (options: {
      readonly key: string
      readonly tokens: number
      readonly refillRate: Duration.Duration
      readonly limit: number | undefined
    }) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const refillMs = Duration.toMillis(options.refillRate)
          yield* sql`INSERT INTO rate_limit_windows (key, count, expires_at) VALUES (${options.key}, 0, now())
                     ON CONFLICT (key) DO NOTHING`
          const row = yield* lockWindow(options.key)
          // an expired window counts as none
          const ttl = row.ttl_ms > 0 ? row.ttl_ms : 0
          const next = (ttl > 0 ? row.count : 0) + options.tokens
          if (ttl > 0 && options.limit !== undefined && next > options.limit) return [next, ttl] as const
          const nextTtl = ttl + refillMs * options.tokens
          yield* sql`UPDATE rate_limit_windows
                     SET count = ${next}, expires_at = now() + make_interval(secs => ${nextTtl / 1000})
                     WHERE key = ${options.key}`
          return [next, nextTtl] as const
        })
      ).pipe(Effect.mapError(storeError))

    const tokenBucket = (options: {
      readonly key: string
      readonly tokens: number
      readonly limit: number
      readonly refillRate: Duration.Duration
      readonly allowOverflow: boolean
    }) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const refillMs = Duration.toMillis(options.refillRate)
          yield* sql`INSERT INTO rate_limit_buckets (key, tokens, last_refill) VALUES (${options.key}, ${options.limit}, now())
                     ON CONFLICT (key) DO NOTHING`
          const row = yield* lockBucket(options.key)
          const refills = Math.floor(row.elapsed_ms / refillMs)
          const available = refills > 0 ? Math.min(options.limit, row.tokens + refills) : row.tokens
          const next = available - options.tokens
          const kept = options.allowOverflow || next >= 0 ? next : available
          yield* sql`UPDATE rate_limit_buckets
                     SET tokens = ${kept}, last_refill = last_refill + make_interval(secs => ${(refills * refillMs) / 1000})
                     WHERE key = ${options.key}`
          return next
        })
      ).pipe(Effect.mapError(storeError))

    // Windows past their expiry count as none already; deleting them only keeps the table small.
    // A bucket untouched for a day is full again: deleting it recreates it full.
    yield* Effect.forkScoped(
      Effect.repeat(
        Effect.ignoreLogged(
          Effect.all([
            sql`DELETE FROM rate_limit_windows WHERE expires_at < now()`,
            sql`DELETE FROM rate_limit_buckets WHERE last_refill < now() - interval '1 day'`
          ])
        ),
        Schedule.spaced(Duration.minutes(10))
      )
    )

    return RateLimiter.RateLimiterStore.of({ fixedWindow, tokenBucket })
  })
)

/** The library's rate limiter on the database store. */
export const RateLimiterLive = RateLimiter.layer.pipe(Layer.provide(RateLimiterStoreSql))
