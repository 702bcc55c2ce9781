/**
 * The retention pass in the background (issue 36), beside the analysis workers: every
 * RETENTION_INTERVAL_SECONDS, the first one interval after start. A failed pass is logged and the
 * next one runs on time; several processes may run it at once (a call deleted twice is deleted once).
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { AppConfig } from "../config.js"
import { Retention } from "./Retention.js"

export const RetentionPassesLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const retention = yield* Retention
    const pass = retention.pass().pipe(Effect.catchAllCause((cause) => Effect.logError("retention pass failed", cause)))
    const interval = Duration.seconds(config.retentionIntervalSeconds)
    yield* Effect.forkScoped(Effect.zipRight(Effect.sleep(interval), Effect.repeat(pass, Schedule.spaced(interval))))
  })
).pipe(Layer.provide(Retention.Default))
