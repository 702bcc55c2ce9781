/**
 * The recorder's background passes, beside the analysis workers: every
 * RECORDER_SCHEDULE_INTERVAL_SECONDS (the first one interval after start), the scheduling pass
 * (calendars of the next 24 hours, bots to create again or to cancel), then the polling pass
 * (bots whose meeting should be over). A failed pass is logged and the next one runs on time. Several processes may run them at once:
 * each step on a meeting is conditional on its state (RecorderRepo). It needs the closers'
 * calendars (`MeetingCalendars`), which the integrations implement; `main.ts` provides them.
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { AppConfig } from "../config.js"
import { Recorder } from "./Recorder.js"

export const RecorderSchedulerLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const recorder = yield* Recorder
    const pass = Effect.gen(function* () {
      const scheduled = yield* recorder.schedulePass()
      const polled = yield* recorder.pollPass()
      if (scheduled.scheduled + scheduled.retried + scheduled.cancelled + polled.settled > 0) {
        yield* Effect.logInfo("recorder pass").pipe(Effect.annotateLogs({ ...scheduled, polled: polled.due, settled: polled.settled }))
      }
    }).pipe(Effect.catchAllCause((cause) => Effect.logError("recorder pass failed", cause)))
    const interval = Duration.seconds(config.recorderScheduleIntervalSeconds)
    yield* Effect.forkScoped(Effect.zipRight(Effect.sleep(interval), Effect.repeat(pass, Schedule.spaced(interval))))
  })
).pipe(Layer.provide(Recorder.Default))
