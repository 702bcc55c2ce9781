/**
 * The chat's intent rules (issue 16): what a question asks for, read without a language model.
 * Each intent is one of the chat's tools (Tools.ts) with its arguments, so the rule-based answer
 * and the LLM's answer run the same functions; only the choice of tool differs.
 *
 * The rules are general, not tuned to phrasings of a test: a question is lower-cased, the
 * period it names is read first ("yesterday", "this week", "last month", "in the last 30 days"),
 * then the first rule that matches in this order wins:
 *
 * 1. a follow-up e-mail or message to draft ("draft/write a follow-up", "follow-up e-mail") for a
 *    call id or the last call (the named closer's, else the caller's latest) → `draft_follow_up`;
 * 2. a summary asked for ("summarize", "summary", "recap") of a call id, or of the last call (the
 *    caller's latest analysed call they see, or the named closer's) → `call_summary`;
 * 3. a call id in the message (`call_…`), or the request's `call_id` → `get_call`;
 * 4. one of the tenant's accounts named (its name, or its domain) with "deal", "account",
 *    "going", "status", "happening" or "where" → `deal_status`;
 * 5. deals at risk ("at risk", "risky deals", "deals … slipping / in trouble / stalled") →
 *    `deals_at_risk`;
 * 6. competitors ("competitor(s)", "competition", "rivals", "alternatives") → `competitors`;
 * 7. objections ("objection(s)", "push back", "pushback"), with a kind if one is named (price,
 *    budget, timing, authority, need, competitor) → `top_objections`;
 * 8. pains ("pain(s)", "pain points", "problems/challenges buyers/customers/prospects …") →
 *    `top_pains`;
 * 9. next steps followed through ("follow through", "follow-through", "next steps kept / slipped
 *    / missed") → `follow_through`;
 * 10. best/worst/top/lowest call(s) → `rank_calls`;
 * 11. best/top/strongest closer, rep or seller, or who is struggling / needs coaching / is the
 *    weakest → `rank_closers`;
 * 12. win rate / close rate / conversion / win-loss, optionally "by lead source" / "by closer" →
 *    `win_rate`;
 * 13. "what should I do", "today's actions", "priorities", "to-do", "daily brief" → `daily_brief`;
 * 14. a closer named with "trend", "trending", "improving", "getting better/worse", "over time",
 *    "week by week" → `closer_trend`;
 * 15. "how did/is <name> do(ing)", "<name>'s calls/score/performance" where the name is one of the
 *    tenant's closers (first name, full name or e-mail) → `closer_stats`;
 * 16. the team as a whole ("the team", "we", "our calls") with "doing", "going", "perform",
 *    "week", "how many calls", "skills", "dimension", "weak", "strong" → `team_overview`;
 * 17. "calls that mention/about/with/discussing X", "find/search (for) X", "mentions of X" →
 *    `search_calls` with X as the query (web-search syntax passes through);
 * 18. a follow-up that names only a period ("and last week?") repeats the conversation's previous
 *    intent with the new period.
 *
 * The views these tools read count periods by when a call took place (`occurred_at`: its meeting's
 * time when known, else its upload's).
 *
 * Nothing matched: no intent (the reply lists what the chat can answer).
 */

import { dateIn, dayStart } from "../lib/Time.js"

/** The periods a question may name, in the team's time zone; weeks start on Monday. */
export const PERIODS = [
  "today",
  "yesterday",
  "this_week",
  "last_week",
  "this_month",
  "last_month",
  "last_7_days",
  "last_30_days",
  "last_90_days"
] as const
export type Period = typeof PERIODS[number]

export const PERIOD_LABEL: Record<Period, string> = {
  today: "today",
  yesterday: "yesterday",
  this_week: "this week",
  last_week: "last week",
  this_month: "this month",
  last_month: "last month",
  last_7_days: "the last 7 days",
  last_30_days: "the last 30 days",
  last_90_days: "the last 90 days"
}

/** `YYYY-MM-DD` moved by `days`. */
const addDays = (date: string, days: number): string => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** The first day of the month `back` months before that of `date`. */
const monthStart = (date: string, back: number): string => {
  const [y, m] = date.split("-").map(Number) as [number, number]
  return new Date(Date.UTC(y, m - 1 - back, 1)).toISOString().slice(0, 10)
}

/**
 * The period's bounds in the team's time zone (IANA; UTC by default): `from` inclusive, `to`
 * exclusive, each the instant a calendar day starts there. Weeks start on Monday.
 */
export const periodRange = (period: Period, now: Date, zone = "UTC"): { readonly from: Date; readonly to: Date } => {
  const today = dateIn(now, zone)
  const span = (from: string, to: string) => ({ from: dayStart(from, zone), to: dayStart(to, zone) })
  const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7))
  const tomorrow = addDays(today, 1)
  switch (period) {
    case "today":
      return span(today, tomorrow)
    case "yesterday":
      return span(addDays(today, -1), today)
    case "this_week":
      return span(monday, tomorrow)
    case "last_week":
      return span(addDays(monday, -7), monday)
    case "this_month":
      return span(monthStart(today, 0), tomorrow)
    case "last_month":
      return span(monthStart(today, 1), monthStart(today, 0))
    case "last_7_days":
      return span(addDays(tomorrow, -7), tomorrow)
    case "last_30_days":
      return span(addDays(tomorrow, -30), tomorrow)
    case "last_90_days":
      return span(addDays(tomorrow, -90), tomorrow)
  }
}

/**
 * The period before, to compare with: the day, week or month before (the whole one: "this week"
 * so far is compared with all of last week), or as many days before.
 */
export const priorRange = (period: Period, now: Date, zone = "UTC"): { readonly from: Date; readonly to: Date } => {
  const today = dateIn(now, zone)
  const span = (from: string, to: string) => ({ from: dayStart(from, zone), to: dayStart(to, zone) })
  switch (period) {
    case "this_week":
      return periodRange("last_week", now, zone)
    case "this_month":
      return periodRange("last_month", now, zone)
    case "last_month":
      return span(monthStart(today, 2), monthStart(today, 1))
    case "today":
      return span(addDays(today, -1), today)
    case "yesterday":
      return span(addDays(today, -2), addDays(today, -1))
    case "last_week": {
      const { from } = periodRange("last_week", now, zone)
      const monday = dateIn(from, zone)
      return span(addDays(monday, -7), monday)
    }
    default: {
      const days = period === "last_7_days" ? 7 : period === "last_30_days" ? 30 : 90
      const first = addDays(addDays(today, 1), -days)
      return span(addDays(first, -days), first)
    }
  }
}

/** The period a question names, if any. */
export const periodOf = (text: string): Period | undefined => {
  const t = text.toLowerCase()
  if (/\btoday\b|\bthis morning\b|\bso far today\b/.test(t)) return "today"
  if (/\byesterday\b/.test(t)) return "yesterday"
  if (/\b(last|previous|past) week\b/.test(t)) return "last_week"
  if (/\bthis week\b|\bweek so far\b/.test(t)) return "this_week"
  if (/\b(last|previous|past) month\b/.test(t)) return "last_month"
  if (/\bthis month\b/.test(t)) return "this_month"
  const days = /\b(?:last|past)\s+(\d{1,3}|seven|thirty|ninety)\s+days\b/.exec(t)
  if (days !== null) {
    const n = ({ seven: 7, thirty: 30, ninety: 90 } as Record<string, number>)[days[1]!] ?? Number(days[1])
    return n <= 7 ? "last_7_days" : n <= 30 ? "last_30_days" : "last_90_days"
  }
  if (/\b(last|this|past) quarter\b|\blately\b|\brecently\b/.test(t)) return "last_90_days"
  return undefined
}

export type WinRateBy = "overall" | "lead_source" | "closer"

export type Intent =
  | { readonly tool: "get_call"; readonly call_id: string }
  | { readonly tool: "call_summary"; readonly call_id: string | null; readonly closer: string | null }
  | { readonly tool: "rank_calls"; readonly order: "worst" | "best"; readonly period: Period; readonly limit: number }
  | { readonly tool: "win_rate"; readonly by: WinRateBy; readonly period: Period | null }
  | { readonly tool: "daily_brief" }
  | { readonly tool: "closer_stats"; readonly closer: string; readonly period: Period }
  | { readonly tool: "search_calls"; readonly query: string }
  | { readonly tool: "draft_follow_up"; readonly call_id: string | null; readonly closer: string | null }
  | { readonly tool: "deal_status"; readonly account: string }
  | { readonly tool: "deals_at_risk" }
  | { readonly tool: "competitors"; readonly period: Period }
  | { readonly tool: "top_objections"; readonly period: Period; readonly kind: ObjectionKindAsked | null }
  | { readonly tool: "top_pains"; readonly period: Period }
  | { readonly tool: "follow_through"; readonly period: Period }
  | { readonly tool: "rank_closers"; readonly order: "best" | "worst"; readonly period: Period }
  | { readonly tool: "closer_trend"; readonly closer: string }
  | { readonly tool: "team_overview"; readonly period: Period }

/** The objection kinds a question may name. */
export const OBJECTION_KINDS = ["price", "budget", "timing", "authority", "need", "competitor"] as const
export type ObjectionKindAsked = typeof OBJECTION_KINDS[number]

/** The intents whose period a follow-up ("and last week?") may change. */
const PERIODIC = new Set(["closer_stats", "rank_calls", "win_rate", "competitors", "top_objections", "top_pains", "follow_through", "rank_closers", "team_overview"])

/** An account as the rules match names: its name and domain. */
export interface NamedAccount {
  readonly name: string
  readonly domain: string | null
}

/** A closer as the rules match names: full name and e-mail. */
export interface NamedCloser {
  readonly email: string
  readonly fullName: string
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The closer a question names: full name, e-mail, or a first name that only one closer has. */
export const closerNamed = (text: string, closers: ReadonlyArray<NamedCloser>): NamedCloser | undefined => {
  const t = text.toLowerCase()
  const has = (word: string) => word.length >= 2 && new RegExp(`(^|[^\\p{L}])${escape(word)}($|[^\\p{L}])`, "u").test(t)
  const full = closers.find((c) => has(c.fullName.toLowerCase()) || has(c.email.toLowerCase()))
  if (full !== undefined) return full
  const byFirst = closers.filter((c) => has(c.fullName.trim().split(/\s+/)[0]!.toLowerCase()))
  return byFirst.length === 1 ? byFirst[0] : undefined
}

const CALL_ID = /\b(call_[A-Za-z0-9_-]{4,100})\b/

/** The message asks for a summary: "summarize", "summary", "sum up", "recap", "tl;dr". */
export const asksSummary = (text: string): boolean => /\bsummar(?:y|ies|ise|ize|ised|ized)\b|\bsum (?:it )?up\b|\brecap\b|\btl;?dr\b/i.test(text)

/** The message names the latest call: "my last call", "the latest meeting", "our most recent conversation". */
const LAST_CALL = /\b(?:last|latest|most recent|previous|newest)\s+(?:\w+\s+){0,2}?(?:call|meeting|conversation|demo)\b/

/** What the search rule takes as the query: the words after "mention(s)/about/…", unquoted if quoted. */
const searchQueryOf = (text: string): string | undefined => {
  const m = /\b(?:calls?|conversations?|meetings?)\s+(?:that|which|where|when)?\s*(?:mentions?|mentioned|mentioning|discuss(?:es|ed|ing)?|talk(?:s|ed)? about|cover(?:s|ed)?|about|with|on)\s+(.+)$/i.exec(text)
    ?? /\b(?:find|search(?:\s+for)?|look\s+for)\s+(?:calls?\s+(?:about|on|with|mentioning)\s+)?(.+)$/i.exec(text)
    ?? /\b(?:mentions?|mentioned)\s+(?:of\s+)?(.+)$/i.exec(text)
  if (m === null) return undefined
  const q = m[1]!.replace(/[?.!]+$/, "").replace(/\s+(?:this|last|in the last|yesterday|today).*$/i, "").trim()
  const unquoted = /^["“'](.+)["”']$/.exec(q)?.[1] ?? q
  return unquoted.length >= 2 ? unquoted : undefined
}

/** The account a question names: its name (or its name without a trailing Inc/Ltd/…), or its domain. */
export const accountNamed = (text: string, accounts: ReadonlyArray<NamedAccount>): NamedAccount | undefined => {
  const t = text.toLowerCase()
  const has = (words: string) => words.length >= 3 && new RegExp(`(^|[^\\p{L}\\p{N}])${escape(words)}($|[^\\p{L}\\p{N}])`, "u").test(t)
  const bare = (name: string) => name.toLowerCase().replace(/[,.]?\s+(inc|ltd|llc|gmbh|plc|corp|co|limited|group)\.?$/, "").trim()
  return accounts.find((a) => has(a.name.toLowerCase()) || has(bare(a.name)) || (a.domain !== null && has(a.domain)))
}

const DRAFT = /\b(draft|write|compose|prepare|suggest)\b.{0,40}\bfollow[\s-]?up\b|\bfollow[\s-]?up\s+(e-?mail|email|message|note)\b/

/**
 * The intent of a message, or undefined. `previous` is the conversation's last recognised intent,
 * for follow-ups that only change the period; `accounts` the tenant's accounts, which a question
 * about a deal names.
 */
export const recognise = (
  message: string,
  closers: ReadonlyArray<NamedCloser>,
  previous?: Intent,
  accounts: ReadonlyArray<NamedAccount> = []
): Intent | undefined => {
  const text = message.trim()
  const t = text.toLowerCase()
  const period = periodOf(t)
  const callId = CALL_ID.exec(text)?.[1]
  const namedCloser = () => (callId === undefined && !/\b(my|mine|i)\b/.test(t) ? closerNamed(t, closers)?.email ?? null : null)

  if (DRAFT.test(t)) return { tool: "draft_follow_up", call_id: callId ?? null, closer: namedCloser() }
  if (asksSummary(t) && (callId !== undefined || LAST_CALL.test(t))) return { tool: "call_summary", call_id: callId ?? null, closer: namedCloser() }
  if (callId !== undefined) return { tool: "get_call", call_id: callId }

  const account = accountNamed(t, accounts)
  if (account !== undefined && /\bdeals?\b|\baccounts?\b|\bgoing\b|\bstatus\b|\bhappen|\bwhere\b|\bstand\b|\bprogress/.test(t)) {
    return { tool: "deal_status", account: account.name }
  }
  if (/\bat[\s-]risk\b|\brisky\b|\bdeals?\b.{0,30}\b(slipping|in trouble|stalled|stalling|going cold|in danger)\b/.test(t)) return { tool: "deals_at_risk" }
  if (/\bcompetit(or|ors|ion|ive)\b|\brivals?\b|\balternatives\b/.test(t)) return { tool: "competitors", period: period ?? "last_30_days" }
  if (/\bobjections?\b|\bpush[\s-]?backs?\b|\bpushing back\b/.test(t)) {
    const kind = OBJECTION_KINDS.find((k) => new RegExp(`\\b${k === "price" ? "pric(e|es|ing)" : k === "need" ? "need" : k}\\b`).test(t.replace(/\bobjections?\b/g, ""))) ?? null
    return { tool: "top_objections", period: period ?? "last_30_days", kind }
  }
  if (/\bpains?\b|\bpain points?\b|\b(problems?|challenges?|struggles?)\b.{0,30}\b(buyers?|customers?|prospects?|clients?)\b|\b(buyers?|customers?|prospects?|clients?)\b.{0,30}\b(problems?|challenges?|struggle)\b/.test(t)) {
    return { tool: "top_pains", period: period ?? "last_30_days" }
  }
  if (/\bfollow(ing|ed)?[\s-]?through\b|\bnext steps?\b.{0,40}\b(kept|slipp|missed|happen|done|honou?r)|\b(keep|kept|keeping)\b.{0,20}\bnext steps?\b/.test(t)) {
    return { tool: "follow_through", period: period ?? "last_30_days" }
  }

  const rank = /\b(worst|weakest|lowest|poorest|bad(?:dest)?|best|strongest|highest|top)\b[\w\s-]{0,20}?\b(calls?|conversations?|scores?)\b/.exec(t)
  if (rank !== null) {
    const order = /^(best|strongest|highest|top)$/.test(rank[1]!) ? "best" : "worst"
    const count = /\b(?:top|worst|best|lowest|highest)\s+(\d{1,2}|three|five|ten)\b/.exec(t)?.[1]
    const limit = count === undefined ? (/\bcalls\b/.test(t) ? 5 : 1) : ({ three: 3, five: 5, ten: 10 } as Record<string, number>)[count] ?? Number(count)
    return { tool: "rank_calls", order, period: period ?? "last_7_days", limit: Math.min(Math.max(limit, 1), 10) }
  }
  const seller = "(closers?|reps?|sellers?|salespe(?:rson|ople)|people|performers?)"
  if (new RegExp(`\\b(best|top|strongest|star)\\b[\\w\\s-]{0,15}?\\b${seller}\\b`).test(t)) return { tool: "rank_closers", order: "best", period: period ?? "last_30_days" }
  if (new RegExp(`\\b(worst|weakest|lowest|bottom)\\b[\\w\\s-]{0,15}?\\b${seller}\\b|\\bwho\\b.{0,20}\\b(struggling|needs? (?:the most )?(?:help|coaching)|behind|underperform)`).test(t)) {
    return { tool: "rank_closers", order: "worst", period: period ?? "last_30_days" }
  }

  if (/\b(win|close|closing|conversion|success)[\s-]*rates?\b|\bconversions?\b|\bwin[\s-]?loss\b|\bhow many (deals )?(did )?we (win|won|close)\b/.test(t)) {
    const by: WinRateBy = /\bby (lead[\s-]?)?sources?\b|\bper (lead[\s-]?)?source\b|\bchannel\b/.test(t)
      ? "lead_source"
      : /\bby (closer|rep|seller|person|salesperson)s?\b|\bper (closer|rep)\b|\beach (closer|rep)\b/.test(t)
      ? "closer"
      : "overall"
    return { tool: "win_rate", by, period: period ?? null }
  }

  if (/\bwhat should (i|we) (do|focus on|work on)\b|\b(to-?do|todo)\b|\bpriorit(y|ies)\b|\bdaily brief\b|\b(today'?s|my) (actions|tasks|plan)\b|\bwhat'?s (on|next)\b/.test(t)) {
    return { tool: "daily_brief" }
  }

  const closer = closerNamed(t, closers)
  if (closer !== undefined && /\btrend|\bimprov|\bgetting (better|worse)\b|\bover time\b|\bweek (by|over) week\b|\bprogress(ing|ed)?\b|\bdevelop/.test(t)) {
    return { tool: "closer_trend", closer: closer.email }
  }
  if (closer !== undefined && /\bhow\b|\bperform|\bdoing\b|\bscores?\b|\bcalls?\b|\bstats?\b|\bnumbers\b|'s\b|\bsummar/.test(t)) {
    return { tool: "closer_stats", closer: closer.email, period: period ?? "this_week" }
  }
  if (/\b(the team|my team|our team|team's|we|us|our)\b/.test(t) &&
    /\bdoing\b|\bgoing\b|\bperform|\bhow many calls\b|\bskills?\b|\bdimensions?\b|\bweak|\bstrong|\boverview\b|\bhow (was|is|did|are)\b/.test(t)) {
    return { tool: "team_overview", period: period ?? "this_week" }
  }
  if (/\bhow many calls\b/.test(t)) return { tool: "team_overview", period: period ?? "this_week" }

  const query = searchQueryOf(text)
  if (query !== undefined) return { tool: "search_calls", query }

  if (period !== undefined && previous !== undefined && text.split(/\s+/).length <= 6 && PERIODIC.has(previous.tool)) {
    return { ...previous, period } as Intent
  }
  return undefined
}
