/**
 * The trends' settling pass in the background (issue 39; docs/trends.md "How it is counted"), beside
 * the analysis workers: every TRENDS_SETTLE_INTERVAL_SECONDS, the first one interval after start,
 * every tenant's stale days summed again and the months and weeks that are over built
 * (`TrendsQueries.settleAhead`), so that a read finds them done. A read still settles its own range
 * first (a day written since the last pass): the pass only takes the bulk off the reads. A failed
 * pass is logged and the next one runs on time; several processes may run it at once (a day summed
 * by one is found done by the others, a span built under its advisory lock).
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { AppConfig } from "../config.js"
import { TrendsQueries } from "../views/TrendsQueries.js"

/**
 * A pass sums stale days 500 at a time (the newest first) until none is left or 10 s have passed:
 * a closer's day is 0.5–2 ms (100,000 calls a year across 200 tenants / in one), so after an import
 * a pass takes at most ~10 s of one database connection a minute, and the rest waits for the next.
 */
export const SETTLE_LIMITS = { batch: 500, budgetMs: 10_000 } as const

/** One pass, logged when it did anything. */
export const settlePass = Effect.gen(function* () {
  const queries = yield* TrendsQueries
  const started = Date.now()
  const done = yield* queries.settleAhead(new Date(started), SETTLE_LIMITS)
  if (done.days + done.months + done.weeks > 0) {
    yield* Effect.logInfo("trends settled ahead").pipe(Effect.annotateLogs({ ...done, duration_ms: Date.now() - started }))
  }
  return done
})

export const TrendsSettlePassesLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const queries = yield* TrendsQueries
    const pass = settlePass.pipe(
      Effect.provideService(TrendsQueries, queries),
      Effect.catchAllCause((cause) => Effect.logError("trends settling pass failed", cause))
    )
    const interval = Duration.seconds(config.trendsSettleIntervalSeconds)
    yield* Effect.forkScoped(Effect.zipRight(Effect.sleep(interval), Effect.repeat(pass, Schedule.spaced(interval))))
  })
).pipe(Layer.provide(TrendsQueries.Default))
