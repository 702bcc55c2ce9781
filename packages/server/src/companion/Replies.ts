/**
 * What the companion understands in a chat, and what it says back, as plain text (no markup, so
 * nothing a tenant's data holds can change the message's formatting on either platform).
 *
 * Commands take the slash or not, any case, and a Telegram group's `@bot` suffix:
 * `/start CODE` links the chat, `/brief` the daily brief, `/calls` the latest calls, `/stop`
 * unlinks, anything else is the help. An unlinked chat is told only how to link itself.
 */
import type { DailyBrief } from "@callsight/api-spec"

export type Command =
  | { readonly _tag: "Start"; readonly code: string | null }
  | { readonly _tag: "Brief" }
  | { readonly _tag: "Calls" }
  | { readonly _tag: "Stop" }
  | { readonly _tag: "Help" }

const HELP: Command = { _tag: "Help" }

export const parseCommand = (text: string): Command => {
  const trimmed = text.trim()
  const slashed = trimmed.startsWith("/")
  const [head = "", ...args] = (slashed ? trimmed.slice(1) : trimmed).split(/\s+/)
  const word = head.replace(/@[A-Za-z0-9_]+$/, "").toLowerCase()
  if (!slashed && head.includes("@")) return HELP
  switch (word) {
    case "start":
      return args.length === 0 ? { _tag: "Start", code: null } : { _tag: "Start", code: args.join("") }
    case "brief":
    case "calls":
    case "stop":
      // without the slash only the word alone is the command, so a sentence is not taken for one
      if (!slashed && args.length > 0) return HELP
      return { _tag: word === "brief" ? "Brief" : word === "calls" ? "Calls" : "Stop" }
    default:
      return HELP
  }
}

/** Connect codes: 8 characters of an alphabet without 0, O, 1 and I, which are easily mistaken. */
export const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
export const CODE_LENGTH = 8

/** A code as typed (any case, spaces and dashes): the code, or null when it cannot be one. */
export const normalizeCode = (typed: string): string | null => {
  const code = typed.toUpperCase().replace(/[\s-]/g, "")
  return code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)) ? code : null
}

export const helpUnlinked =
  "Callsight companion. This chat is not linked to a team yet: send /start followed by the connect code " +
  "your Callsight contact gave you, e.g. /start 7KQ2XWHM."

export const helpLinked = (company: string) =>
  `Callsight companion for ${company}.\n` +
  "/brief: the daily brief\n" +
  "/calls: the latest calls with their scores\n" +
  "/stop: unlink this chat"

export const linked = (company: string) =>
  `This chat is now linked to ${company}. Send /brief for the daily brief, /calls for the latest calls.`

export const codeRefused =
  "That code is not valid. A code works once and expires; ask your Callsight contact for a new one."

export const tooManyCodes = (minutes: number) =>
  `Too many codes were tried from this chat. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`

export const turnedOff =
  "The Callsight companion is turned off for your team. Ask your Callsight contact to turn it on."

export const stopped = (company: string) =>
  `This chat is no longer linked to ${company}. Send /start with a new code to link it again.`

const score = (s: number | null) => (s === null ? "no score" : `score ${s}`)

const bullet = (lines: ReadonlyArray<string>, max: number, more: (n: number) => string) => [
  ...lines.slice(0, max).map((l) => `• ${l}`),
  ...(lines.length > max ? [`• ${more(lines.length - max)}`] : [])
]

/** The daily brief (`ValueViews.dailyBrief`) as a message; the report links are the portal's. */
export const briefText = (company: string, brief: typeof DailyBrief.Type, reportUrl: (callId: string) => string): string => {
  const lines: Array<string> = [`Daily brief for ${company}, ${brief.date}`]
  lines.push(
    brief.calls.length === 0
      ? "No calls yesterday."
      : `Yesterday: ${brief.calls.length} call${brief.calls.length === 1 ? "" : "s"}, ${brief.calls_analysed} analysed` +
        (brief.average_score === null ? "." : `, average score ${brief.average_score}.`)
  )
  if (brief.calls.length > 0) {
    lines.push("", "Calls:")
    lines.push(...bullet(
      brief.calls.map((c) =>
        `${c.closer_email ?? "unknown closer"}: ${c.status === "completed" ? score(c.overall_score) : c.status}` +
        (c.status === "completed" ? ` ${reportUrl(c.call_id)}` : "")
      ),
      10,
      (n) => `and ${n} more`
    ))
  }
  if (brief.notable_moments.length > 0) {
    lines.push("", "Notable moments:")
    lines.push(...bullet(
      brief.notable_moments.map((m) =>
        m.kind === "best_score"
          ? `Best call: ${m.closer_email ?? "unknown closer"}, ${m.quote}`
          : m.kind === "lowest_score"
          ? `Lowest call: ${m.closer_email ?? "unknown closer"}, ${m.quote}`
          : `Objection not explored (${m.closer_email ?? "unknown closer"}): "${m.quote}"`
      ),
      5,
      (n) => `and ${n} more`
    ))
  }
  if (brief.deals_at_risk.length > 0) {
    lines.push("", "Deals at risk:")
    lines.push(...bullet(
      brief.deals_at_risk.map((d) => `${d.risk}: ${d.closer_email ?? "unknown closer"}, ${d.reasons.join("; ")} ${reportUrl(d.call_id)}`),
      5,
      (n) => `and ${n} more`
    ))
  }
  if (brief.suggested_actions.length > 0) {
    lines.push("", "Today:")
    lines.push(...bullet(
      brief.suggested_actions.map((a) => (a.url === null ? a.label : `${a.label} ${a.url}`)),
      5,
      (n) => `and ${n} more`
    ))
  }
  return lines.join("\n")
}

export interface LatestCall {
  readonly call_id: string
  readonly external_call_id: string | null
  readonly status: string
  readonly created_at: string
  readonly overall_score: number | null
}

/** The latest calls, newest first, with their scores and report links. */
export const callsText = (company: string, calls: ReadonlyArray<LatestCall>, reportUrl: (callId: string) => string): string => {
  if (calls.length === 0) return `No calls yet for ${company}.`
  return [
    `Latest calls of ${company}:`,
    ...calls.map((c) => {
      const when = `${c.created_at.slice(0, 10)} ${c.created_at.slice(11, 16)} UTC`
      const name = c.external_call_id === null ? "" : ` (${c.external_call_id})`
      const state = c.status === "completed"
        ? `${score(c.overall_score === null ? null : Math.round(c.overall_score * 10) / 10)} ${reportUrl(c.call_id)}`
        : c.status
      return `• ${when}${name}: ${state}`
    })
  ].join("\n")
}
