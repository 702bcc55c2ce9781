/**
 * The number parser: numbers spelled out ("thirty one percent") and written ("31%", "$400,000",
 * "$50k"), with the unit that follows them.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { endsClause, endsSentence, tokenize, type Token } from "./Tokens.js"

export const SMALL: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19
}
export const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90
}
const SCALES: Readonly<Record<string, number>> = { thousand: 1e3, million: 1e6, billion: 1e9 }

/** Units after a number, normalised to one name. */
export const UNITS: Readonly<Record<string, string>> = {
  percent: "percent", "%": "percent", pct: "percent", percentage: "percent",
  dollars: "dollars", dollar: "dollars", bucks: "dollars", usd: "dollars", grand: "dollars",
  euros: "euros", euro: "euros", eur: "euros", pounds: "pounds", gbp: "pounds",
  days: "days", day: "days", weeks: "weeks", week: "weeks", months: "months", month: "months",
  quarters: "quarters", quarter: "quarters", years: "years", year: "years", hours: "hours", hour: "hours",
  minutes: "minutes", minute: "minutes", reps: "reps", rep: "reps", people: "people", persons: "people",
  calls: "calls", call: "calls", deals: "deals", deal: "deals", seats: "seats", seat: "seats", users: "users",
  customers: "customers", hires: "hires", accounts: "accounts", leads: "leads", meetings: "meetings", demos: "demos"
}
/** Units of money: a number with one of these is an amount. */
export const MONEY_UNITS: ReadonlySet<string> = new Set(["dollars", "euros", "pounds"])
/** Units that make a number a business figure (amounts, rates, durations, counts of the business). */
export const METRIC_UNITS: ReadonlySet<string> = new Set(["percent", "dollars", "euros", "pounds", "days", "weeks", "months", "quarters", "years", "reps", "deals", "customers", "accounts", "seats", "users", "hires", "leads"])

export interface NumberMention {
  readonly value: number
  /** "percent", "dollars", "days", "reps" … or null when none follows. */
  readonly unit: string | null
  /** Token index of the first word of the number (its currency sign included). */
  readonly from: number
  /** Token index after its last word (its unit included). */
  readonly to: number
}

const CURRENCY_SIGNS: Readonly<Record<string, string>> = { $: "dollars", "€": "euros", "£": "pounds" }

/** A written number: "31", "31%", "$400,000", "$50k", "1.2m", "2.5". */
const WRITTEN = /^([$€£])?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(k|m|mm|bn|b|%)?$/

const parseWritten = (word: string): { value: number; unit: string | null; scaled: boolean } | null => {
  const m = WRITTEN.exec(word)
  if (m === null) return null
  let value = Number(m[2]!.replace(/,/g, "") + (m[3] ?? ""))
  const suffix = m[4]
  if (suffix === "k") value *= 1e3
  else if (suffix === "m" || suffix === "mm") value *= 1e6
  else if (suffix === "bn" || suffix === "b") value *= 1e9
  const unit = suffix === "%" ? "percent" : m[1] !== undefined ? CURRENCY_SIGNS[m[1]]! : null
  return { value, unit, scaled: suffix !== undefined && suffix !== "%" }
}

/** A word split on hyphens ("forty-five" → forty, five) when every part is a number word. */
const numberParts = (word: string): Array<string> | null => {
  const parts = word.split("-")
  return parts.every((p) => p in SMALL || p in TENS || p === "hundred" || p in SCALES) ? parts : null
}

/**
 * Reads spelled-out number words from token `i` on: "thirty one" → 31, "four hundred thousand"
 * → 400000, "a hundred and five" → 105, "two point five" → 2.5. Returns the value and the index
 * after its last word, or null when no number starts at `i`.
 */
export const readSpelled = (tokens: ReadonlyArray<Token>, i: number): { value: number; to: number } | null => {
  let total = 0
  let group = 0
  let last: "none" | "small" | "ten" | "hundred" | "scale" = "none"
  let lastScale = Infinity
  let any = false
  const parts: Array<{ w: string; t: number }> = []
  // flatten hyphenated words, remembering the token each part came from
  for (let k = i; k < tokens.length; k++) {
    const w = tokens[k]!.word
    const split = numberParts(w)
    if (split === null) {
      parts.push({ w, t: k })
      if (!(w === "a" || w === "and" || w === "point")) break
    } else for (const p of split) parts.push({ w: p, t: k })
    // a word followed by punctuation ends the number ("thirty, and…")
    if (endsClause(tokens[k]!.raw) || endsSentence(tokens[k]!.raw)) break
  }
  let p = 0
  let endToken = i
  for (; p < parts.length; p++) {
    const { w, t } = parts[p]!
    const nextW = parts[p + 1]?.w ?? ""
    if (w === "a" && !any && (nextW === "hundred" || nextW in SCALES)) {
      group = 1
      last = "small"
      continue
    }
    if (w === "and" && (last === "hundred" || last === "scale") && (nextW in SMALL || nextW in TENS)) continue
    if (w in SMALL && (last === "none" || last === "ten" || last === "hundred" || last === "scale")) {
      if (last === "ten" && SMALL[w]! >= 10) break
      if (w === "zero" && any) break
      group += SMALL[w]!
      last = "small"
    } else if (w in TENS && (last === "none" || last === "hundred" || last === "scale")) {
      group += TENS[w]!
      last = "ten"
    } else if (w === "hundred" && (last === "small" || last === "ten") && group > 0 && group < 100) {
      group *= 100
      last = "hundred"
    } else if (w in SCALES && group > 0 && SCALES[w]! < lastScale) {
      total += group * SCALES[w]!
      lastScale = SCALES[w]!
      group = 0
      last = "scale"
    } else break
    any = true
    endToken = t + 1
  }
  if (!any) return null
  let value = total + group
  // decimals: "two point five"
  if (parts[p]?.w === "point" && parts[p + 1] !== undefined && parts[p + 1]!.w in SMALL && SMALL[parts[p + 1]!.w]! < 10) {
    let digits = ""
    let q = p + 1
    while (q < parts.length && parts[q]!.w in SMALL && SMALL[parts[q]!.w]! < 10) digits += String(SMALL[parts[q++]!.w])
    value = Number(`${value}.${digits}`)
    endToken = parts[q - 1]!.t + 1
    // "two point five million"
    const scale = parts[q]?.w
    if (scale !== undefined && scale in SCALES) {
      value *= SCALES[scale]!
      endToken = parts[q]!.t + 1
    }
  }
  return { value, to: endToken }
}

/** The unit that follows a number at token `i` ("percent", "per cent", "dollars", "days"…). */
const readUnit = (tokens: ReadonlyArray<Token>, i: number): { unit: string; to: number } | null => {
  const w = tokens[i]?.word
  if (w === undefined) return null
  if (w === "per" && tokens[i + 1]?.word === "cent") return { unit: "percent", to: i + 2 }
  const unit = UNITS[w]
  return unit === undefined ? null : { unit, to: i + 1 }
}

/**
 * Every number in a run of tokens, spelled or written, with the unit that follows it:
 * "thirty one percent" → 31 percent, "four hundred thousand dollars" → 400000 dollars,
 * "$50k" → 50000 dollars, "fifty thousand" → 50000 (no unit), "31%" → 31 percent.
 */
export const findNumbers = (tokens: ReadonlyArray<Token>): Array<NumberMention> => {
  const out: Array<NumberMention> = []
  let i = 0
  while (i < tokens.length) {
    const word = tokens[i]!.word
    let value: number
    let unit: string | null = null
    let to: number
    const written = parseWritten(word)
    const sign = CURRENCY_SIGNS[word]
    if (written !== null) {
      value = written.value
      unit = written.unit
      to = i + 1
      // "50 thousand", "$1.2 million"
      const scale = tokens[to]?.word
      if (scale !== undefined && !written.scaled && scale in SCALES) {
        value *= SCALES[scale]!
        to++
      }
    } else if (sign !== undefined && tokens[i + 1] !== undefined && readSpelled(tokens, i + 1) !== null) {
      // "$ fifty thousand" (a sign on its own)
      const spelled = readSpelled(tokens, i + 1)!
      value = spelled.value
      unit = sign
      to = spelled.to
    } else {
      const spelled = readSpelled(tokens, i)
      if (spelled === null) {
        i++
        continue
      }
      value = spelled.value
      to = spelled.to
    }
    // "k" as its own word ("fifty k"), then a unit word ("dollars", "percent", "days")
    if (tokens[to]?.word === "k" && !endsClause(tokens[to - 1]!.raw)) {
      value *= 1e3
      to++
    }
    if (!endsClause(tokens[to - 1]!.raw) && !endsSentence(tokens[to - 1]!.raw)) {
      const u = readUnit(tokens, to)
      if (u !== null && (unit === null || unit === u.unit)) {
        unit = u.unit
        to = u.to
      }
    }
    out.push({ value, unit, from: i, to })
    i = to
  }
  return out
}

/** Numbers in written text (tests and ad-hoc use). */
export const parseNumbers = (text: string): Array<NumberMention> => findNumbers(tokenize(text))
