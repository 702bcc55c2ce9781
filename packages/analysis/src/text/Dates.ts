/**
 * When an action is due, from the words as said: `chrono-node` finds and resolves the date and
 * time expressions ("by Monday", "tomorrow at 3 pm", "in two weeks", "end of the month", "March
 * 4th"), extended here with what it does not read in speech: a bare day of the month ("on the
 * fifteenth", "Thursday the twenty first") and spoken clock hours ("at two" is 14:00, business
 * hours).
 *
 * The call's own date is unknown (a recording has no trustworthy date), so chrono parses relative
 * to a fixed reference and only the phrase is kept: the weekday, the day of the month, the
 * relative day ("tomorrow", "next week", "in 2 weeks", "end of the quarter") and the clock time,
 * as the product's `due` always was ("Thursday the 21st 14:00"), never a calendar date that would
 * be wrong by the difference between the reference and the real day.
 */
import * as chrono from "chrono-node"
import { endsClause, endsSentence, type Token } from "./lexicon/Tokens.js"
import { hour24 } from "./lexicon/When.js"

/** A Monday, 09:00 UTC. Only which fields the phrase names is read, never the resolved date. */
const REFERENCE = new Date(Date.UTC(2001, 0, 1, 9))

const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30
}
const HOUR_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12
}
/** A day a recogniser split in two. */
const SPLIT_DAYS: Readonly<Record<string, string>> = { "to day": "today", "to morrow": "tomorrow", "to night": "tonight" }
const MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

/** Words after "the Nth" that make it something other than a day ("the third thing", "the first week"). */
const NOT_A_DAY_AFTER = new Set([
  "quarter", "time", "times", "call", "calls", "meeting", "one", "ones", "step", "steps", "thing", "things", "point", "points", "option",
  "rep", "year", "week", "month", "page", "day", "shift", "floor", "place", "row", "line", "item", "half", "person", "people", "round",
  "version", "phase", "stage", "level", "tier", "party", "vendor", "tool", "biggest", "largest", "most", "last", "entity", "site", "team",
  "session", "sessions", "workshop", "review", "draft", "module", "batch", "invoice", "payment", "instalment", "installment", "clause", "wave",
  "cohort", "group", "training", "demo", "pilot", "trial", "release", "sprint", "hour", "minute", "minutes", "order", "shipment", "delivery",
  // periods: "the first season", "the first fortnight", "the first weekend"
  "season", "fortnight", "weekend", "term", "semester"
])

/** A count after "the Nth" makes it the start of a period, not a day: "for the first two weeks", "in the first 90 days". */
const COUNTED = /^(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|few|couple)$/

/** After "at two", words that keep it a clock time; "looking at one other vendor" is not one. */
const CLOCK_FOLLOWERS = new Set([
  "o'clock", "oclock", "am", "pm", "a.m", "p.m", "thirty", "fifteen", "forty", "then", "on", "is", "works", "work", "tomorrow", "today",
  "sharp", "or", "in", "it", "that", "your", "my", "our", "their", "eastern", "central", "pacific", "london", "cet", "gmt", "est", "pst", "should", "would"
])
const isClockFollower = (tokens: ReadonlyArray<Token>, i: number): boolean => {
  const next = tokens[i + 1]
  if (next === undefined || /[,;:.?!]$/.test(tokens[i]!.raw)) return true
  return CLOCK_FOLLOWERS.has(next.word) || WEEKDAYS.includes(next.word)
}

/** chrono's casual English, plus a bare day of the month: "the 15th" (after the ordinals are written as digits). */
const parser = (() => {
  const p = chrono.casual.clone()
  p.parsers.push({
    // "on 15th", "by 15th": speech-to-text loses a short "the"
    pattern: () => new RegExp(`\\b(?:the|on|by|from|until|till|before)\\s+(\\d{1,2})(?:st|nd|rd|th)\\b(?!\\s+(?:of\\s+)?(?:${MONTHS})\\b)`, "i"),
    extract: (_context, match) => {
      const day = Number(match[1])
      return day >= 1 && day <= 31 ? { day } : null
    }
  })
  p.parsers.push({
    pattern: () => new RegExp(`\\b(${MONTHS})\\s+the\\s+(\\d{1,2})(?:st|nd|rd|th)\\b`, "i"),
    extract: (_context, match) => {
      const day = Number(match[2])
      const month = MONTHS.split("|").indexOf(match[1]!.toLowerCase()) + 1
      return day >= 1 && day <= 31 ? { day, month } : null
    }
  })
  // "end of the quarter": chrono reads "the quarter" alone; only the phrase is kept (relativePhrase)
  p.parsers.push({
    pattern: () => /\bend\s+of\s+(?:the\s+|this\s+|next\s+)?(?:week|quarter|year)\b(?!\s+(?:\d|one|two|three|four|five|six|seven|eight|nine|ten)\b)/i,
    extract: () => ({ day: 1 })
  })
  return p
})()

const suffix = (n: number) => (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th")
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const pad2 = (n: number) => String(n).padStart(2, "0")

/**
 * The tokens written for chrono: spelled ordinals as digits ("twenty first" → "21st"), a spoken
 * hour after "at" as digits ("at two" → "at 2"), and where each token starts in that text.
 */
const normalise = (tokens: ReadonlyArray<Token>): { text: string; starts: Array<number>; skip: Set<number> } => {
  const parts: Array<string> = []
  const skip = new Set<number>()
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]!.word
    const next = tokens[i + 1]?.word ?? ""
    const prev = tokens[i - 1]?.word ?? ""
    const tail = tokens[i]!.raw.match(/[,;:.?!]+$/)?.[0] ?? ""
    if ((w === "twenty" || w === "thirty") && next in ORDINAL_WORDS && !endsClause(tokens[i]!.raw)) {
      const day = (w === "twenty" ? 20 : 30) + ORDINAL_WORDS[next]!
      parts.push(`${day}${suffix(day)}${tokens[i + 1]!.raw.match(/[,;:.?!]+$/)?.[0] ?? ""}`)
      parts.push("")
      skip.add(i + 1)
      i++
    } else if (/^(?:twenty|thirty)-[a-z]+$/.test(w) && w.split("-")[1]! in ORDINAL_WORDS) {
      // "the twenty-third", as a transcript may hyphenate it
      const [tens, unit] = w.split("-") as [string, string]
      const day = (tens === "twenty" ? 20 : 30) + ORDINAL_WORDS[unit]!
      parts.push(`${day}${suffix(day)}${tail}`)
    } else if (w in ORDINAL_WORDS && prev === "the") {
      parts.push(`${ORDINAL_WORDS[w]}${suffix(ORDINAL_WORDS[w]!)}${tail}`)
    } else if (SPLIT_DAYS[`${w} ${next}`] !== undefined && !endsClause(tokens[i]!.raw)) {
      // "to day", "to morrow": a day a recogniser heard as two words
      parts.push(`${SPLIT_DAYS[`${w} ${next}`]}${tokens[i + 1]!.raw.match(/[,;:.?!]+$/)?.[0] ?? ""}`)
      parts.push("")
      skip.add(i + 1)
      i++
    } else if (w === "these" && ["morning", "afternoon", "evening", "week"].includes(next)) {
      // "these afternoon": "this", misheard
      parts.push("this")
    } else if (w in HOUR_WORDS && (next === "o'clock" || next === "oclock" || ((prev === "at" || prev === "around") && isClockFollower(tokens, i)))) {
      parts.push(`${HOUR_WORDS[w]}${tail}`)
    } else {
      parts.push(tokens[i]!.raw.replace(/[\u2018\u2019]/g, "'"))
    }
  }
  const starts: Array<number> = []
  let at = 0
  for (const p of parts) {
    starts.push(at)
    at += p.length + 1
  }
  return { text: parts.join(" "), starts, skip }
}

export interface Due {
  /** The day as said: "Thursday", "the 21st", "Thursday the 21st", "March 4", "tomorrow", "in 2 weeks"… or null. */
  readonly day: string | null
  /** "14:00" or null. */
  readonly time: string | null
  /** Token indices of the phrase, [from, to). */
  readonly from: number
  readonly to: number
  /** Alternatives offered ("Tuesday or Wednesday afternoon"): a choice for the other side, no day agreed yet. */
  readonly choice?: boolean
}

/** Relative days kept as said. */
const RELATIVE = /^(?:today|tomorrow(?: (?:morning|afternoon|evening|night))?|tonight|this (?:morning|afternoon|evening|week)|next (?:week|month)|(?:by |at )?(?:the )?end of (?:the |this |next )?(?:day|week|month|quarter|year)|end of (?:january|february|march|april|may|june|july|august|september|october|november|december)|(?:in|within) (?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|a couple of|a few) (?:days?|weeks?|months?))$/

const SPELLED_COUNT: Readonly<Record<string, string>> = {
  a: "1", an: "1", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", ten: "10", eleven: "11",
  twelve: "12", fourteen: "14", fifteen: "15", twenty: "20", thirty: "30", "a couple of": "2", "a few": "3"
}

/**
 * Words before a date that make it no due: a period gone by, a habit, a hedge ("sometime next month"), a label ("the summary of
 * today"), a lower bound ("after the first of November": any day after it, none agreed).
 */
const NOT_DUE_BEFORE = new Set(["last", "past", "every", "each", "since", "of", "sometime", "ago", "previous", "than", "after"])
/** Words before a weekday that make it a kind of day: "your" (the other side's week, "your Sunday"), and "any", "typical", "normal", "usual", "given", "average". */
const GENERIC_DAY = new Set(["your", "any", "typical", "normal", "usual", "given", "average"])
/** Words that hedge the day beside them. */
const HEDGES = new Set(["maybe", "perhaps", "possibly"])
/** A clock time is said as one: "at 2", "10:30", "3 pm", "ten o'clock", "noon" (not "now", not "in two minutes"). */
const CLOCK = /\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.?|p\.m\.?|o'?clock)?\b/

/**
 * A number in digits that counts something rather than tells the time: "2 minutes", "at 12 bucks
 * each", "cap it at 4%", "15 trucks by 10 in the morning" keeps its "10". Speech-to-text writes
 * numbers as digits ("40 minutes is fine"), where chrono reads "40 minutes" as a time from now and a
 * bare "at 12" as noon. A clock time in digits has a colon or "am"/"pm"/"o'clock", or ends its clause,
 * or is an hour of twelve or less followed by what follows a time (`isClockFollower`: "at 2 on
 * Friday", "at 10 tomorrow"); "we talk about the discount at 15" names no time.
 */
const countNotClock = (tokens: ReadonlyArray<Token>, from: number, to: number): boolean => {
  const numbers = tokens.slice(from, to).map((t, k) => ({ word: t.word, i: from + k })).filter((t) => /^\d/.test(t.word))
  if (numbers.length === 0) return false
  return numbers.every(({ word, i }) => {
    if (/^\d{1,2}:\d{2}/.test(word) || /^\d{1,2}(?:am|pm)$/.test(word) || /^(?:\d{1,2}(?:st|nd|rd|th)|\d{4})$/.test(word)) return false
    const next = tokens[i + 1]?.word ?? ""
    if (["am", "pm", "a.m", "p.m", "o'clock", "oclock"].includes(next)) return false
    // "at 15" is a number said in digits (fifteen percent, a price): a spoken hour goes to twelve
    return !/^\d{1,2}$/.test(word) || Number(word) > 12 || !isClockFollower(tokens, i)
  })
}

/** "in two weeks" → "in 2 weeks". */
const relativePhrase = (text: string): string | null => {
  const t = text.toLowerCase().replace(/^(?:on|by|for|until|till|before)\s+/, "").replace(/[,;:.?!]+$/, "").trim()
  if (!RELATIVE.test(t)) return null
  if (t.startsWith("tomorrow")) return "tomorrow"
  const end = /end of (the |this |next )?(day|week|month|quarter|year)$/.exec(t)
  if (end !== null) return `end of ${end[1] === "next " ? "next" : "the"} ${end[2]}`
  const endMonth = /end of ([a-z]+)$/.exec(t)
  if (endMonth !== null) return `end of ${capital(endMonth[1]!)}`
  const within = /^(?:in|within) (\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|a couple of|a few) (day|week|month)s?$/.exec(t)
  if (within !== null) {
    const n = SPELLED_COUNT[within[1]!] ?? within[1]!
    return `in ${n} ${within[2]}${n === "1" ? "" : "s"}`
  }
  return t
}

/**
 * Every due date or time named in a run of tokens, in order: chrono's results, adjacent ones taken
 * together ("Thursday the 10th at 2"), each with its token span. A result is kept when it names a
 * weekday, a day of the month, a relative day or a clock time; periods gone by ("last spring", "the
 * past two months"), habits ("every Monday") and hedged periods ("sometime next month") are not dues.
 */
/** Words without which no due can be named: chrono runs only on sentences with one (the analysis stays fast). */
const MAY_NAME_A_DAY = new RegExp(
  `\\b(?:${WEEKDAYS.join("|")}|${MONTHS}|today|tonight|tomorrow|morrow|morning|afternoon|evening|noon|midday|week|weeks|month|months|quarter|year|days?|o'?clock|am|pm|a\\.m|p\\.m|${Object.keys(ORDINAL_WORDS).join("|")})\\b|\\d`
)

export const findDues = (tokens: ReadonlyArray<Token>): Array<Due> => {
  if (tokens.length === 0 || !tokens.some((t) => MAY_NAME_A_DAY.test(t.word))) return []
  const { text, starts } = normalise(tokens)
  const tokenAt = (char: number): number => {
    let k = 0
    while (k + 1 < starts.length && starts[k + 1]! <= char) k++
    return k
  }
  const results = parser.parse(text, REFERENCE, { forwardDate: true })
  const out: Array<Due & { readonly end: number }> = []
  for (const r of results) {
    const from = tokenAt(r.index)
    const to = tokenAt(r.index + r.text.length - 1) + 1
    // the word before the phrase, past an article chrono leaves out ("after the 1st of November")
    const before = (tokens[from - 1]?.word === "the" ? tokens[from - 2]?.word : tokens[from - 1]?.word) ?? ""
    const first = tokens[from]?.word ?? ""
    // "ahead of Tuesday", "in advance of the 9th": a deadline, not a period ("the summary of today")
    const deadline = before === "of" && ["ahead", "advance"].includes(tokens[tokens[from - 1]?.word === "the" ? from - 3 : from - 2]?.word ?? "")
    // "in the week of the twelfth": the week that day falls in
    const weekOf = before === "of" && tokens[tokens[from - 1]?.word === "the" ? from - 3 : from - 2]?.word === "week"
    if ((NOT_DUE_BEFORE.has(before) && !deadline && !weekOf) || NOT_DUE_BEFORE.has(first) || tokens[to]?.word === "ago") continue
    // "maybe end of next week", "Next week, maybe.": a day hedged is no day agreed (a hedged clock time after a day stays one)
    const hedged = HEDGES.has(before) || HEDGES.has(tokens[to]?.word ?? "")
    // "on a Sunday night", "a Thursday": any such day, a habit or an open choice, never one agreed; "your Sunday", "any given
    // Saturday", "a normal Monday morning": a kind of day, not a date
    if (tokens[from - 1]?.word === "a" && WEEKDAYS.includes(first)) continue
    if (WEEKDAYS.includes(first) && (GENERIC_DAY.has(before) || (GENERIC_DAY.has(tokens[from - 2]?.word ?? "") && tokens[from - 1]?.word !== "on"))) continue
    // "the first Tuesday of each month", "the 1st of every month": a habit
    const of = WEEKDAYS.includes(tokens[to]?.word ?? "") ? to + 1 : to
    if (tokens[of]?.word === "of" && ["each", "every"].includes(tokens[of + 1]?.word ?? "")) continue
    const said = r.text.toLowerCase()
    const known = (c: chrono.Component) => r.start.isCertain(c)
    let day: string | null = null
    const weekday = known("weekday") ? r.start.get("weekday") : null
    // "tomorrow at 10", "at 10 tomorrow": the day without its clock time
    const relative = relativePhrase(said.replace(/\s+at\s+\d.*$/, "").replace(/^(?:at|around)\s+\d\S*\s+(?=[a-z])/, ""))
    if (relative !== null) day = relative
    else if (/\b\d{1,2}(?:st|nd|rd|th)\b/.test(said) || new RegExp(`\\b(?:${MONTHS})\\b`).test(said)) {
      const d = known("day") ? r.start.get("day") : null
      const after = tokens[to]?.word ?? ""
      if (d !== null && !NOT_A_DAY_AFTER.has(after) && !COUNTED.test(after)) {
        const month = known("month") && new RegExp(`\\b(?:${MONTHS})\\b`).test(said) ? r.start.get("month") : null
        day = month !== null && month !== undefined ? `${capital(MONTHS.split("|")[month - 1]!)} ${d}` : `the ${d}${suffix(d)}`
      }
    }
    // chrono reads "a day" or "a week" as a weekday: only a weekday said by its name counts
    if (weekday !== null && weekday !== undefined && relative === null && said.includes(WEEKDAYS[weekday]!.slice(0, 3))) {
      const name = capital(WEEKDAYS[weekday]!)
      day = day === null ? name : `${name} ${day}`
    }
    let time: string | null = null
    if (known("hour") && CLOCK.test(said.replace(/\b\d{1,2}(?:st|nd|rd|th)\b/g, "").replace(/\bin \d+ (?:minutes?|hours?)\b/g, "")) && !countNotClock(tokens, from, to)) {
      const hour = r.start.get("hour")!
      const minute = r.start.get("minute") ?? 0
      const meridiem = known("meridiem") ? (r.start.get("meridiem") === 1 ? "pm" : "am") : null
      const h12 = hour > 12 ? hour - 12 : hour === 0 ? 12 : hour
      time = `${pad2(meridiem === null && hour <= 12 ? hour24(h12, null) : hour)}:${pad2(minute)}`
    } else if (/\bnoon\b|\bmidday\b/.test(said)) time = "12:00"
    if (day === null && time === null) continue
    if (hedged && day !== null) continue
    if (weekOf && day !== null) day = `week of ${day}`
    // "in a couple of weeks", "in a few weeks": a span left vague, no day anyone can hold to
    if (day !== null && /^in 3 |^in 2 /.test(day) && /\b(?:few|couple)\b/.test(said)) continue
    // "ask him about Wednesday": a day as the topic of talk, not when anything is due (a clock time stays: "about 3 pm")
    if (before === "about" && time === null && !["how", "what"].includes(tokens[tokens[from - 1]?.word === "the" ? from - 3 : from - 2]?.word ?? "")) continue
    const last = out[out.length - 1]
    // adjacent results name one moment: "Thursday" + "the 10th" + "at 2"
    if (last !== undefined && from - last.to <= 1 && !endsSentence(tokens[last.to - 1]!.raw)) {
      const choice = last.choice === true || (from - last.to === 1 && tokens[last.to]!.word === "or")
      const merged = {
        day: last.day !== null && day !== null && !last.day.includes(day) ? `${last.day}${choice ? " or " : " "}${day}` : last.day ?? day,
        time: last.time ?? time,
        from: last.from,
        to,
        end: to,
        ...(choice ? { choice } : {})
      }
      out[out.length - 1] = merged
      continue
    }
    out.push({ day, time, from, to, end: to })
  }
  return out.map(({ day, time, from, to, choice }) => (choice === true ? { day, time, from, to, choice } : { day, time, from, to }))
}

/** The due phrase: "Thursday the 10th 14:00", "in 2 weeks", "15:00"; null when nothing was named. */
export const dueText = (due: Pick<Due, "day" | "time"> | null): string | null => {
  if (due === null) return null
  const parts = [due.day, due.time].filter((p): p is string => p !== null)
  return parts.length > 0 ? parts.join(" ") : null
}

/** Whether two dues name the same day (a weekday or a day of the month in common), or either names none. */
export const sameDay = (a: Pick<Due, "day">, b: Pick<Due, "day">): boolean => {
  if (a.day === null || b.day === null) return true
  // a day of the month is one key however it is written: "the 8th", "January 8"
  const keys = (d: string) =>
    new Set(
      (d.toLowerCase().match(/monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d+(?:st|nd|rd|th)|(?:january|february|march|april|may|june|july|august|september|october|november|december) \d+\b|today|tomorrow|tonight|next week|next month/g) ?? [d.toLowerCase()])
        .map((k) => k.replace(/^[a-z]+ (\d+)$|^(\d+)(?:st|nd|rd|th)$/, (_, m?: string, n?: string) => `day ${m ?? n}`))
    )
  const ka = keys(a.day)
  return [...keys(b.day)].some((k) => ka.has(k))
}
