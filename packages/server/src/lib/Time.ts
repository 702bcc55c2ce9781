/** Calendar days in a time zone (IANA), with the instants they start at. */

const partsIn = (at: Date, timeZone: string) => {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit"
  }).formatToParts(at)
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value)
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") }
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
const offsetAt = (at: Date, timeZone: string) => {
  const p = partsIn(at, timeZone)
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000
}

/** `YYYY-MM-DD` of an instant in the zone. */
export const dateIn = (at: Date, timeZone: string): string => {
  const p = partsIn(at, timeZone)
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`
}

/** The instant a calendar day (`YYYY-MM-DD`) starts in the zone (its first minute, around DST changes too). */
export const dayStart = (date: string, timeZone: string): Date => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number]
  const midnightUtc = Date.UTC(y, m - 1, d)
  // the offset at the guess, then at the corrected instant (they differ only across a DST change)
  const first = midnightUtc - offsetAt(new Date(midnightUtc), timeZone)
  return new Date(midnightUtc - offsetAt(new Date(first), timeZone))
}

/** The day before `date` (`YYYY-MM-DD`). */
export const previousDate = (date: string): string => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10)
}

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/
/** A UTC day, in milliseconds. */
export const DAY_MS = 86_400_000

/** The first instant (ms) of the UTC week (Monday to Sunday) holding `ms`. */
export const utcWeekStart = (ms: number): number => {
  const day = Math.floor(ms / DAY_MS) * DAY_MS
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS
}

/** The first instant (ms) of the UTC month holding `ms`, or of the `next`-th month after it. */
export const utcMonthStart = (ms: number, next = 0): number => {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + next, 1)
}

/**
 * The first instant of an inclusive lower bound given as an ISO-8601 time or a plain date
 * (`YYYY-MM-DD`: its midnight, UTC), as an ISO-8601 instant.
 */
export const instantFrom = (from: string): string =>
  new Date(PLAIN_DATE.test(from) ? Date.parse(`${from}T00:00:00Z`) : Date.parse(from)).toISOString()

/**
 * The first instant after an inclusive upper bound: after the whole day of a plain date (UTC),
 * after the millisecond of a time, as the API writes times (a row's own time as the bound keeps
 * it; the database holds microseconds).
 */
export const instantAfter = (to: string): string =>
  new Date(PLAIN_DATE.test(to) ? Date.parse(`${to}T00:00:00Z`) + DAY_MS : Date.parse(to) + 1).toISOString()
