/**
 * The day a next step's `due` names (docs/deals.md): the text as said, read by chrono-node relative
 * to its call's meeting (`calls.occurred_at`; forward: "Friday" is the next Friday, UTC). The deal
 * timeline (views/DealTimeline.ts) reads it at read time; the trends read it stored: each call's
 * days are resolved once, when its analysis is stored (calls/CallsRepo.ts `complete`; migration
 * 0027 for the calls analysed before), into `calls.trend_due_days`, in the order of
 * `calls.trend_dues` (0025: the dues of the analysis's dated steps), null where chrono reads none.
 * Shared here (lib/) so that the write and the reads resolve a due the same way.
 */
import * as chrono from "chrono-node"

/** The day a step's `due` names, relative to its call's meeting (UTC), or null. */
export const dueDateOf = (due: string | null, meetingAt: string): string | null => {
  if (due === null || due.trim() === "") return null
  const date = chrono.casual.parseDate(due, { instant: new Date(meetingAt), timezone: 0 }, { forwardDate: true })
  return date === null || Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10)
}

/**
 * `dueDateOf`, remembered: chrono takes 20–140 µs a parse, deal intelligence resolves the steps of
 * every open deal it ranks, and the trends those of the calls whose days are not stored yet. The
 * day is a function of the text and the meeting's instant only, so an entry never goes stale; the
 * map is emptied when it reaches DUE_MEMO_MAX entries (a few tens of MB at most).
 */
const DUE_MEMO_MAX = 200_000
const dueMemo = new Map<string, string | null>()
export const dueDateMemo = (due: string | null, meetingAt: string): string | null => {
  if (due === null || due.trim() === "") return null
  const key = `${meetingAt}\u0000${due}`
  const found = dueMemo.get(key)
  if (found !== undefined) return found
  const day = dueDateOf(due, meetingAt)
  if (dueMemo.size >= DUE_MEMO_MAX) dueMemo.clear()
  dueMemo.set(key, day)
  return day
}

const DAY = /^(?!0000)\d{4}-\d{2}-\d{2}$/

/**
 * What `calls.trend_due_days` holds for a call: the day of each of its dues (`calls.trend_dues`, in
 * their order; null for none) from its meeting, null where chrono reads none (or a day outside the
 * years 1–9999, which no deadline can be computed from either: neither kept nor slipped, as at read
 * time); null when it has no dated step.
 */
export const trendDueDays = (dues: ReadonlyArray<string> | null, meetingAt: string): Array<string | null> | null =>
  dues === null || dues.length === 0 ? null : dues.map((due) => {
    const day = dueDateOf(due, meetingAt)
    return day !== null && DAY.test(day) ? day : null
  })
