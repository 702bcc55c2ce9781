import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { recentWithin } from "../src/lib/Recent.js"

describe("recentWithin", () => {
  it.live("runs the effect once for the calls of a period, each of which gets its outcome; again after the period", () =>
    Effect.gen(function* () {
      let runs = 0
      const slow = Effect.as(Effect.sleep("50 millis"), undefined).pipe(Effect.map(() => ++runs))
      const shared = recentWithin(slow, 200)
      // calls while the first run is on wait for it, and calls after it get its value at once
      const together = yield* Effect.all([shared, shared, shared], { concurrency: "unbounded" })
      expect(together).toEqual([1, 1, 1])
      expect(yield* shared).toBe(1)
      expect(runs).toBe(1)
      yield* Effect.sleep("250 millis")
      expect(yield* shared).toBe(2)
      expect(runs).toBe(2)
    }))

  it.live("a caller interrupted while it waits does not stop the run the others wait for", () =>
    Effect.gen(function* () {
      let runs = 0
      const shared = recentWithin(Effect.sleep("80 millis").pipe(Effect.map(() => ++runs)), 1_000)
      const first = yield* Effect.fork(shared)
      yield* Effect.sleep("10 millis")
      const second = yield* Effect.fork(shared)
      yield* Fiber.interrupt(first)
      expect(yield* Fiber.join(second)).toBe(1)
      expect(runs).toBe(1)
    }))

  it.live("a failure and a defect are each period's outcome for every caller, not a hang", () =>
    Effect.gen(function* () {
      const failing = recentWithin(Effect.fail("down" as const), 1_000)
      expect(yield* Effect.exit(failing)).toEqual(Exit.fail("down"))
      expect(yield* Effect.exit(failing)).toEqual(Exit.fail("down"))
      const dying = recentWithin(Effect.die(new Error("boom")), 1_000)
      const exits = yield* Effect.all([Effect.exit(dying), Effect.exit(dying)], { concurrency: "unbounded" })
      for (const exit of exits) expect(Exit.isFailure(exit) && exit.cause._tag === "Die").toBe(true)
    }))
})
