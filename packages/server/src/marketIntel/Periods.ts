/**
 * The periods of market intelligence, in UTC: a day; an ISO week (Monday to Sunday, labelled by
 * its ISO week-numbering year, `2026-W01`); a calendar month; a quarter. A period is named by its
 * first day; any day inside it names it too (`normalise`). A call belongs to the period holding
 * the instant it was made (`calls.created_at`): one made at 23:59:59 on a Sunday is in that week.
 */
import type { PeriodType } from "@callsight/api-spec"
import { DAY_MS, utcWeekStart } from "../lib/Time.js"

export interface Period {
  readonly period_type: PeriodType
  /** First day, `YYYY-MM-DD`. */
  readonly period_start: string
  /** First day of the next period (exclusive). */
  readonly period_end: string
  readonly label: string
}

const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
const parseYmd = (day: string): number => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number]
  return Date.UTC(y, m - 1, d)
}

/** The UTC day (midnight, ms) of a `period_start` parameter: a day, or a date-time with a zone; `now` when absent or empty. */
export const dayOf = (input: string | undefined, now: Date): number => {
  if (input === undefined || input === "") return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  if (/^\d{4}-\d{2}-\d{2}$/.test(input)) return parseYmd(input)
  const at = new Date(input)
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())
}

/** The first day (ms) of the period of `type` holding the day `dayMs`. */
export const startOf = (type: PeriodType, dayMs: number): number => {
  const d = new Date(dayMs)
  switch (type) {
    case "day":
      return dayMs
    case "week":
      return utcWeekStart(dayMs)
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
    case "quarter":
      return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1)
  }
}

/** The first day of the period `k` periods after the one starting at `startMs` (k may be negative). */
export const shift = (type: PeriodType, startMs: number, k: number): number => {
  const d = new Date(startMs)
  switch (type) {
    case "day":
      return startMs + k * DAY_MS
    case "week":
      return startMs + 7 * k * DAY_MS
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1)
    case "quarter":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 3 * k, 1)
  }
}

/** ISO 8601 week label of the week starting on the Monday `mondayMs`: its Thursday's year and week. */
const isoWeekLabel = (mondayMs: number): string => {
  const thursday = new Date(mondayMs + 3 * DAY_MS)
  const year = thursday.getUTCFullYear()
  const dayOfYear = Math.round((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS) + 1
  const week = Math.floor((dayOfYear - 1) / 7) + 1
  return `${year}-W${String(week).padStart(2, "0")}`
}

const labelOf = (type: PeriodType, startMs: number): string => {
  const d = new Date(startMs)
  switch (type) {
    case "day":
      return ymd(startMs)
    case "week":
      return isoWeekLabel(startMs)
    case "month":
      return ymd(startMs).slice(0, 7)
    case "quarter":
      return `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`
  }
}

/** The period of `type` starting at `startMs`. */
export const periodAt = (type: PeriodType, startMs: number): Period => ({
  period_type: type,
  period_start: ymd(startMs),
  period_end: ymd(shift(type, startMs, 1)),
  label: labelOf(type, startMs)
})

/** The period of `type` holding the day a `period_start` parameter names (the current one without it). */
export const normalise = (type: PeriodType, input: string | undefined, now: Date): Period =>
  periodAt(type, startOf(type, dayOf(input, now)))

/** `count` periods ending with `last`, oldest first. */
export const trailing = (last: Period, count: number): ReadonlyArray<Period> => {
  const start = parseYmd(last.period_start)
  return Array.from({ length: count }, (_, i) => periodAt(last.period_type, shift(last.period_type, start, i - count + 1)))
}

/** The period before `period`. */
export const previous = (period: Period): Period =>
  periodAt(period.period_type, shift(period.period_type, parseYmd(period.period_start), -1))

/** The instant (ISO 8601) a day starts, UTC. */
export const instantOf = (day: string): string => `${day}T00:00:00.000Z`
