/**
 * The trends' settling pass in the background (issue 39; docs/trends.md "Settled ahead"), beside
 * the analysis workers: every TRENDS_SETTLE_INTERVAL_SECONDS, the first one interval after start,
 * every tenant's stale days summed again and the months and weeks that are over built, so that a
 * read finds them done. A read still settles its own range first (a day written since the last
 * pass): the pass only takes the bulk off the reads. A failed pass is logged and the next one runs
 * on time; several processes may run it at once (a day summed by one is found done by the others, a
 * span built under its advisory lock).
 */
import { TRENDS_PERIODS_MAX } from "@callsight/api-spec"
import { Duration, Effect, Layer, Schedule } from "effect"
import { AppConfig } from "../config.js"
import { TrendsQueries } from "../views/TrendsQueries.js"

/**
 * A pass sums stale days 500 at a time (the newest first) until none is left or 10 s have passed:
 * a closer's day is 0.5–2 ms (100,000 calls a year across 200 tenants / in one), so after an import
 * a pass takes at most ~10 s of one database connection a minute, and the rest waits for the next.
 */
export const SETTLE_LIMITS = { batch: 500, budgetMs: 10_000 } as const

/**
 * How often a pass looks for every span in reach (the last TRENDS_PERIODS_MAX months and weeks) not
 * built: at its first pass, after it summed days (a day summed again removes its month and week),
 * and at least this often (a read that sums a day removes them too). Otherwise it looks at the last
 * month and week only, which end while it runs: the whole look reads every tenant's days of two
 * years (97,000 rows at 100,000 calls across 200 tenants, ~100 ms).
 */
export const FULL_LOOK_EVERY_MS = 3_600_000

/** A process's pass (it remembers when it last looked at every span), logged when it did anything. */
export const makeSettlePass = (fullLookEveryMs = FULL_LOOK_EVERY_MS) =>
  Effect.gen(function* () {
    const queries = yield* TrendsQueries
    let lastFullLook = -Infinity
    return Effect.gen(function* () {
      const started = Date.now()
      const days = yield* queries.settleStaleDays(SETTLE_LIMITS)
      const full = days > 0 || started - lastFullLook >= fullLookEveryMs
      if (full) lastFullLook = started
      const spans = yield* queries.buildSpans(new Date(started), full ? TRENDS_PERIODS_MAX : 1)
      const done = { days, ...spans }
      if (days + spans.months + spans.weeks > 0) {
        yield* Effect.logInfo("trends settled ahead").pipe(Effect.annotateLogs({ ...done, duration_ms: Date.now() - started }))
      }
      return done
    })
  })

export const TrendsSettlePassesLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const pass = (yield* makeSettlePass()).pipe(Effect.catchAllCause((cause) => Effect.logError("trends settling pass failed", cause)))
    const interval = Duration.seconds(config.trendsSettleIntervalSeconds)
    yield* Effect.forkScoped(Effect.zipRight(Effect.sleep(interval), Effect.repeat(pass, Schedule.spaced(interval))))
  })
).pipe(Layer.provide(TrendsQueries.Default))
