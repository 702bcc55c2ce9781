/**
 * Next steps: the actions that make one, and the day/time parser that reads when it is due
 * ("Tuesday at two" → Tuesday 14:00).
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { readSpelled, SMALL, TENS, UNITS } from "./Numbers.js"
import { phrases } from "./Phrases.js"
import { endsClause, plain, type Token } from "./Tokens.js"

/** Actions that make a next step: meetings to book, things to send, calls to make. */
export const NEXT_STEP_CUES: RegExp = phrases(
  "book", "schedule", "reschedule", "set up (a |the |some )?(call|meeting|time|demo|session)", "send (you|me|over|it|the|an|a|them|her|him|us)",
  "(calendar )?invite", "on the calendar", "calendar", "follow up", "check (back|in)", "circle back", "reconnect", "meet", "catch up",
  "call (you|me|back)", "touch base", "walk (you |her |him |them )?through", "demo", "forward", "get back to", "put (a|the) (call|meeting)",
  "reach out", "talk (again|next)", "speak (again|next)", "sync", "loop in", "pencil"
)

/**
 * What the call itself is for ("I want to walk you through our platform today", "the demo
 * today"): with "today" and no clock time, an agenda, not a next step after the call.
 */
export const AGENDA_CUES: RegExp = phrases(
  "walk (you |her |him |them )?through", "demo", "show (you|how)", "go (over|through)", "talk about", "cover", "discuss"
)

/** A next step's "today" that only names this call's agenda (see AGENDA_CUES). */
export const isAgendaToday = (tokens: ReadonlyArray<Token>, when: When): boolean =>
  when.day === "today" && when.time === null && AGENDA_CUES.test(plain(tokens))

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30
}
/** Words after an ordinal that make it something other than a date ("the fourth quarter"). */
const NOT_A_DATE_AFTER = new Set(["quarter", "time", "call", "meeting", "one", "step", "thing", "point", "option", "rep", "year", "week", "month", "page"])

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const ordinalSuffix = (n: number) => (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th")

/** A day-of-month ordinal at token i: "fourth", "twenty first", "4th", "21st". */
const readOrdinal = (tokens: ReadonlyArray<Token>, i: number): { day: number; to: number } | null => {
  const w = tokens[i]?.word ?? ""
  const digits = /^(\d{1,2})(st|nd|rd|th)$/.exec(w)
  if (digits !== null) return { day: Number(digits[1]), to: i + 1 }
  if (w in ORDINALS) return { day: ORDINALS[w]!, to: i + 1 }
  if ((w === "twenty" || w === "thirty") && (tokens[i + 1]?.word ?? "") in ORDINALS) {
    const day = TENS[w]! + ORDINALS[tokens[i + 1]!.word]!
    return day <= 31 ? { day, to: i + 2 } : null
  }
  return null
}

/**
 * Hours without am/pm are read as business hours: 1–6 are afternoon (13:00–18:00), 7–11 morning,
 * 12 noon. "at two" → 14:00, "ten o'clock" → 10:00.
 */
export const hour24 = (hour: number, meridiem: "am" | "pm" | null): number => {
  if (meridiem === "am") return hour === 12 ? 0 : hour
  if (meridiem === "pm") return hour === 12 ? 12 : hour + 12
  return hour >= 1 && hour <= 6 ? hour + 12 : hour
}

const pad2 = (n: number) => String(n).padStart(2, "0")

const MERIDIEM: Readonly<Record<string, "am" | "pm">> = { am: "am", "a.m": "am", pm: "pm", "p.m": "pm" }

/** A clock time at token i ("two", "ten o'clock", "2pm", "10:30", "two thirty pm"), or null. */
const readClock = (tokens: ReadonlyArray<Token>, i: number, afterAt: boolean): { time: string; to: number } | null => {
  const w = tokens[i]?.word ?? ""
  let hour: number | null = null
  let minute = 0
  let to = i + 1
  let meridiem: "am" | "pm" | null = null
  const written = /^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m|p\.m)?$/.exec(w)
  if (written !== null) {
    hour = Number(written[1])
    minute = written[2] === undefined ? 0 : Number(written[2])
    if (written[3] !== undefined) meridiem = MERIDIEM[written[3]]!
  } else if (w in SMALL && SMALL[w]! >= 1 && SMALL[w]! <= 12) {
    hour = SMALL[w]!
    // "two thirty", "ten fifteen", "two forty five"
    const m = tokens[to]?.word ?? ""
    if (m === "fifteen" || m === "thirty" || m === "forty" || m === "oh") {
      const spelled = m === "oh" ? null : readSpelled(tokens, to)
      if (spelled !== null && spelled.value < 60 && !endsClause(tokens[i]!.raw)) {
        minute = spelled.value
        to = spelled.to
      }
    }
  }
  if (hour === null || hour < 1 || hour > 12 || minute >= 60) return null
  const next = tokens[to]?.word ?? ""
  if (next === "o'clock" || next === "oclock") {
    to++
  } else if (next in MERIDIEM) {
    meridiem = MERIDIEM[next]!
    to++
  } else if (meridiem === null && written?.[2] === undefined && !afterAt) {
    return null // a bare number is a time only after "at" ("at two") or with o'clock/am/pm
  }
  if (next in UNITS) return null // "at two percent"
  if ((tokens[to]?.word ?? "") === "in" && tokens[to + 1]?.word === "the") {
    const part = tokens[to + 2]?.word
    if (part === "morning") meridiem = "am"
    if (part === "afternoon" || part === "evening") meridiem = "pm"
    if (meridiem !== null) to += 3
  }
  return { time: `${pad2(hour24(hour, meridiem))}:${pad2(minute)}`, to }
}

export interface When {
  /** "Tuesday", "tomorrow", "next week", "in 2 weeks", "the 4th", "March 4"… or null. */
  readonly day: string | null
  /** "14:00" or null. */
  readonly time: string | null
}

/**
 * The day and time a run of tokens names: "next Tuesday" → Tuesday, "Tuesday at two" → Tuesday
 * 14:00, "Friday at 10 o'clock" → Friday 10:00, "in two weeks" → in 2 weeks, "for the fourth" →
 * the 4th. The first day and the first time found; null when neither is named. No calendar date
 * is computed: the recording date is unknown.
 */
export const findWhen = (tokens: ReadonlyArray<Token>): When | null => {
  let day: string | null = null
  let time: string | null = null
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]!.word
    const next = tokens[i + 1]?.word ?? ""
    if (day === null) {
      if (WEEKDAYS.includes(w)) day = capital(w)
      else if (w === "tomorrow" || w === "today" || w === "tonight") day = w
      else if ((w === "next" || w === "this") && (next === "week" || next === "month")) day = `${w} ${next}`
      else if (w === "end" && next === "of") {
        const k = tokens[i + 2]?.word === "the" ? i + 3 : i + 2
        const what = tokens[k]?.word ?? ""
        if (["day", "week", "month", "quarter", "year"].includes(what)) day = `end of the ${what}`
        else if (MONTHS.includes(what)) day = `end of ${capital(what)}`
      } else if (w === "in" || w === "within") {
        const n = next === "a" && ["week", "day", "month"].includes(tokens[i + 2]?.word ?? "")
          ? { value: 1, to: i + 2 }
          : next === "a" && tokens[i + 2]?.word === "couple" && tokens[i + 3]?.word === "of"
            ? { value: 2, to: i + 4 }
            : readSpelled(tokens, i + 1) ?? (/^\d+$/.test(next) ? { value: Number(next), to: i + 2 } : null)
        const unit = tokens[n?.to ?? -1]?.word ?? ""
        const name = UNITS[unit]
        if (n !== null && (name === "days" || name === "weeks" || name === "months")) {
          day = `in ${n.value} ${n.value === 1 ? name.slice(0, -1) : name}`
        }
      } else if (MONTHS.includes(w) && !(w === "may" && !/^\d|^(the|first|second|third)/.test(next))) {
        const k = next === "the" ? i + 2 : i + 1
        const o = readOrdinal(tokens, k) ?? (/^\d{1,2}$/.test(tokens[k]?.word ?? "") ? { day: Number(tokens[k]!.word), to: k + 1 } : null)
        if (o !== null && o.day >= 1 && o.day <= 31) day = `${capital(w)} ${o.day}`
      } else if (w === "the") {
        const o = readOrdinal(tokens, i + 1)
        const after = tokens[o?.to ?? -1]?.word ?? ""
        if (o !== null && !NOT_A_DATE_AFTER.has(after) && !(after in SMALL || after in TENS || /^\d/.test(after))) {
          const month = tokens[o.to]?.word === "of" ? tokens[o.to + 1]?.word ?? "" : ""
          day = MONTHS.includes(month) ? `${capital(month)} ${o.day}` : `the ${o.day}${ordinalSuffix(o.day)}`
        }
      }
    }
    if (time === null) {
      if (w === "noon" || w === "midday") time = "12:00"
      else if ((w === "half" || w === "quarter") && next === "past") {
        const c = readClock(tokens, i + 2, true)
        if (c !== null) time = c.time.replace(/:00$/, w === "half" ? ":30" : ":15")
      } else if (w === "at") {
        const c = readClock(tokens, i + 1, true)
        if (c !== null) time = c.time
      } else {
        const c = readClock(tokens, i, false)
        if (c !== null) time = c.time
      }
    }
  }
  return day === null && time === null ? null : { day, time }
}

/** The due phrase of a next step: "Tuesday 14:00", "Thursday", "14:00"; null when nothing was named. */
export const formatDue = (when: When | null): string | null => {
  if (when === null) return null
  const parts = [when.day, when.time].filter((p): p is string => p !== null)
  return parts.length > 0 ? parts.join(" ") : null
}
