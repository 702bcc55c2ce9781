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

/** The stale days one pass sums again at most (1–2 ms each at 100,000 calls a year): the rest wait for the next pass. */
export const SETTLE_DAYS_PER_PASS = 5_000

/** One pass, logged when it did anything. */
export const settlePass = Effect.gen(function* () {
  const queries = yield* TrendsQueries
  const started = Date.now()
  const done = yield* queries.settleAhead(new Date(started), SETTLE_DAYS_PER_PASS)
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
