/**
 * Which account (the buyer's company) and which deal a new call belongs to (issue 38, item 1;
 * docs/deals.md): pure rules, no SQL. `DealsRepo` reads what they need and writes what they decide,
 * inside the call's intake (`CallIntake.admit`, the tenant's row locked).
 *
 * **The account**, the first of:
 * 1. the upload's `account`: a domain-looking value (`acme.com`, `www.acme.com`, or an e-mail
 *    address, whose domain is taken) is an account by domain, anything else an account by name;
 * 2. the account of the deal the upload's `deal_id` names, when that deal is known and has one;
 * 3. the attendees' e-mail domains that are neither the tenant's own (the domains of its users'
 *    and closers' addresses, and the call's closer's) nor free mail (`FREE_MAIL_DOMAINS`): the most
 *    frequent, ties to the first in the attendees' order.
 * None of these: no account.
 *
 * **The deal**, the first of:
 * 1. the upload's `deal_id` (an id of the uploader's system or CRM): the tenant's deal of that
 *    external id, created on first sight;
 * 2. with an account: of its deals still open (none of its calls has a decided outcome: `won`,
 *    `lost` or `no_decision`), the one whose last call is the latest, when that call is within the
 *    tenant's sales cycle of this call's meeting (either side: a call uploaded late still joins) (market profile `sales_cycle_days`, `DEFAULT_SALES_CYCLE_DAYS` unset);
 * 3. with an account: a new deal of the account.
 * No account and no `deal_id`: no deal (deal intelligence treats the call as a deal of its own).
 */

/** Free-mail providers: an attendee of one of these says nothing of their company. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "msn.com", "yahoo.com", "ymail.com",
  "icloud.com", "me.com", "mac.com", "aol.com", "proton.me", "protonmail.com", "gmx.com", "gmx.net", "gmx.de",
  "web.de", "mail.com", "zoho.com", "yandex.com", "yandex.ru", "fastmail.com", "hey.com", "qq.com", "163.com"
])

/** The sales cycle when the market profile names none (days). */
export const DEFAULT_SALES_CYCLE_DAYS = 90

const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

/** The lower-cased domain of an e-mail address, or undefined when it has none. */
export const domainOfEmail = (email: string): string | undefined => {
  const at = email.lastIndexOf("@")
  if (at < 1) return undefined
  const domain = email.slice(at + 1).trim().toLowerCase()
  return DOMAIN.test(domain) ? domain : undefined
}

/**
 * The domain an upload's `account` names, when it looks like one: `acme.com`, `www.acme.com`,
 * `https://acme.com/`, or an address at it; undefined for a company name ("Acme Inc").
 */
export const domainOfAccount = (value: string): string | undefined => {
  const v = value.trim().toLowerCase()
  if (v.includes("@")) return domainOfEmail(v)
  const host = v.replace(/^https?:\/\//, "").replace(/\/.*$/, "").replace(/^www\./, "")
  return DOMAIN.test(host) ? host : undefined
}

/** What names the call's account. */
export type AccountChoice =
  | { readonly _tag: "ByDomain"; readonly domain: string; readonly from: "upload" | "attendees" }
  | { readonly _tag: "ByName"; readonly name: string }
  | { readonly _tag: "OfDeal"; readonly accountId: string }
  | { readonly _tag: "None" }

export interface AccountInput {
  /** The upload's `account`, trimmed (null: not given). */
  readonly account: string | null
  /** The account of the deal the upload's `deal_id` names, when that deal is known and has one. */
  readonly knownDealAccountId: string | null
  /** The meeting's attendees' addresses. */
  readonly attendees: ReadonlyArray<string>
  /** The tenant's own domains (its users', its closers', the call's closer's), lower-case. */
  readonly ownDomains: ReadonlyArray<string>
}

/** The buyer's domain among the attendees: not the tenant's, not free mail; the most frequent, then the first. */
export const buyerDomain = (attendees: ReadonlyArray<string>, ownDomains: ReadonlyArray<string>): string | undefined => {
  const own = new Set(ownDomains.map((d) => d.toLowerCase()))
  const counts = new Map<string, number>()
  for (const a of attendees) {
    const d = domainOfEmail(a)
    if (d === undefined || own.has(d) || FREE_MAIL_DOMAINS.has(d)) continue
    counts.set(d, (counts.get(d) ?? 0) + 1)
  }
  let best: string | undefined
  for (const [d, n] of counts) if (best === undefined || n > counts.get(best)!) best = d // Map keeps the first seen first
  return best
}

export const chooseAccount = (input: AccountInput): AccountChoice => {
  if (input.account !== null && input.account.trim() !== "") {
    const domain = domainOfAccount(input.account)
    return domain === undefined ? { _tag: "ByName", name: input.account.trim() } : { _tag: "ByDomain", domain, from: "upload" }
  }
  if (input.knownDealAccountId !== null) return { _tag: "OfDeal", accountId: input.knownDealAccountId }
  const domain = buyerDomain(input.attendees, input.ownDomains)
  return domain === undefined ? { _tag: "None" } : { _tag: "ByDomain", domain, from: "attendees" }
}

/** One of the account's deals, as the deal rule weighs it. */
export interface AccountDeal {
  readonly dealId: string
  /** When its latest call took place (`occurred_at`); null: no call yet. */
  readonly lastCallAt: string | null
  /** One of its calls has a decided outcome (won, lost, no decision). */
  readonly decided: boolean
  readonly createdAt: string
}

export type DealChoice =
  | { readonly _tag: "External"; readonly externalDealId: string }
  | { readonly _tag: "Existing"; readonly dealId: string }
  | { readonly _tag: "New" }
  | { readonly _tag: "None" }

export interface DealInput {
  /** The upload's `deal_id` (null: not given). */
  readonly externalDealId: string | null
  /** Whether the call has an account (decided by `chooseAccount`). */
  readonly hasAccount: boolean
  /** The account's deals, any order. */
  readonly accountDeals: ReadonlyArray<AccountDeal>
  /** When this call's meeting took place (or it arrived). */
  readonly meetingAt: string
  /** The tenant's sales cycle (null: `DEFAULT_SALES_CYCLE_DAYS`). */
  readonly salesCycleDays: number | null
}

const DAY_MS = 86_400_000

export const chooseDeal = (input: DealInput): DealChoice => {
  if (input.externalDealId !== null && input.externalDealId.trim() !== "") {
    return { _tag: "External", externalDealId: input.externalDealId.trim() }
  }
  if (!input.hasAccount) return { _tag: "None" }
  const cycleMs = (input.salesCycleDays !== null && input.salesCycleDays > 0 ? input.salesCycleDays : DEFAULT_SALES_CYCLE_DAYS) * DAY_MS
  const at = Date.parse(input.meetingAt)
  const latestOpen = input.accountDeals
    .filter((d) => !d.decided)
    .sort((a, b) => Date.parse(b.lastCallAt ?? b.createdAt) - Date.parse(a.lastCallAt ?? a.createdAt) || (a.dealId < b.dealId ? -1 : 1))[0]
  if (latestOpen !== undefined && Math.abs(at - Date.parse(latestOpen.lastCallAt ?? latestOpen.createdAt)) <= cycleMs) {
    return { _tag: "Existing", dealId: latestOpen.dealId }
  }
  return { _tag: "New" }
}
