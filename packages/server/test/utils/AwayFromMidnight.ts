/**
 * For a test whose calls are placed by the day ("today", "yesterday", the brief's last 7 days, in
 * UTC) and read back a moment later: when the UTC day has less than `margin` left, waits until the
 * next one has begun, so the day cannot turn between the seed and the reads (a CI run that crossed
 * midnight counted "today's" call as yesterday's). The margin covers a test of a few seconds; with
 * the wait it stays within vitest's 60 s test timeout.
 */
import { Effect } from "effect"

const DAY_MS = 86_400_000

export const awayFromMidnight = (margin = 30_000) =>
  Effect.suspend(() => {
    const left = DAY_MS - (Date.now() % DAY_MS)
    return left < margin ? Effect.sleep(left + 1_000) : Effect.void
  })
