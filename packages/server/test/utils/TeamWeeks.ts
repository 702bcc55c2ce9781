/**
 * A team's six weeks, written straight into the database for the tests of what joins calls
 * together (issue 38: deals, trends, the chat, the closing audit): three verified closers and 30
 * completed calls over the last six weeks, one every 33.6 hours, the last an hour ago. Each call
 * holds the engine's real analysis of a written sales call of the evaluation (`eval/calls`, taken
 * evenly from its sorted names, never chosen by content), stored as the worker stores it.
 *
 * 26 of the calls belong to ten deals of two to four calls (each deal one closer's, its calls spread
 * over the weeks), each deal of its own account but the last, which is a second deal of the fifth
 * deal's account begun after that deal's last call; the other four calls belong to no account. One
 * call in three is a recorder call, carrying its meeting's attendees (a buyer of the account's domain
 * and the closer); uploads are made a day after their meeting (`created_at`), recorder calls an
 * hour after, so a view that counts by upload time rather than `occurred_at` puts some in another week.
 */
import type { AnalysisResult } from "@callsight/analysis"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import type { Truth } from "../../../../test/utils/Fixtures.js"
import { analysedTruth } from "./AnalysedCalls.js"

const EVAL_CALLS = resolve(fileURLToPath(new URL("../../../../eval/calls", import.meta.url)))

export const TEAM_DOMAIN = "northwind-sales.test"

export interface TeamWeeks {
  readonly closers: ReadonlyArray<{ readonly closerId: string; readonly email: string; readonly fullName: string }>
  readonly accounts: ReadonlyArray<{ readonly accountId: string; readonly name: string; readonly domain: string }>
  readonly deals: ReadonlyArray<{
    readonly dealId: string
    readonly externalDealId: string
    readonly accountId: string
    /** Oldest first. */
    readonly callIds: ReadonlyArray<string>
  }>
  /** Oldest first. */
  readonly calls: ReadonlyArray<{
    readonly callId: string
    readonly closerEmail: string
    readonly meetingAt: string
    readonly createdAt: string
    readonly accountId: string | null
    readonly dealId: string | null
    readonly source: "api" | "recorder"
    readonly attendees: ReadonlyArray<string>
    /** The evaluation call's name. */
    readonly name: string
    readonly result: AnalysisResult
  }>
}

/** The positions (0 = oldest call) of each deal's calls; the rest (17, 23, 27, 29) belong to none. */
const DEAL_CALLS: ReadonlyArray<ReadonlyArray<number>> = [
  [0, 7, 15, 24],
  [1, 9, 18],
  [2, 11, 21],
  [3, 12, 26],
  [4, 13],
  [5, 16],
  [6, 19],
  [8, 22],
  [10, 20, 28],
  [14, 25]
]
const ACCOUNTS = ["Acme Freight", "Bluebird Dental", "Cobalt Fintech", "Dunmore Logistics", "Evergreen Clinics", "Foxglove Retail", "Granite Insurance", "Harbor Analytics", "Ironwood Labs"]
const BUYERS = ["dana", "lee", "sam", "kim"]
const CALLS = 30
const SPACING_MS = 33.6 * 3_600_000
const HOUR = 3_600_000

/** The evaluation's written calls, `count` of them evenly from their sorted names. */
const evalCalls = (count: number): Array<{ name: string; truth: Truth }> => {
  const names = readdirSync(EVAL_CALLS).filter((f) => f.endsWith(".truth.json")).map((f) => f.slice(0, -".truth.json".length)).sort()
  return Array.from({ length: count }, (_, i) => {
    const name = names[Math.floor((i * names.length) / count)]!
    return { name, truth: JSON.parse(readFileSync(join(EVAL_CALLS, `${name}.truth.json`), "utf8")) as Truth }
  })
}

let seq = 0

export const seedTeamWeeks = (clientId: string): Effect.Effect<TeamWeeks, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const tag = `${Date.now().toString(36)}_${seq++}`
    const closers = [
      { closerId: `clo_tw_${tag}_0`, email: `avery@${TEAM_DOMAIN}`, fullName: "Avery Stone" },
      { closerId: `clo_tw_${tag}_1`, email: `blake@${TEAM_DOMAIN}`, fullName: "Blake Ortiz" },
      { closerId: `clo_tw_${tag}_2`, email: `casey@${TEAM_DOMAIN}`, fullName: "Casey Lin" }
    ]
    for (const c of closers) {
      yield* sql`INSERT INTO closers (closer_id, client_id, email, full_name, status, email_verified_at)
                 VALUES (${c.closerId}, ${clientId}, ${c.email}, ${c.fullName}, 'active', now())`
    }
    const accounts = ACCOUNTS.map((name, i) => ({
      accountId: `acc_tw_${tag}_${i}`,
      name,
      domain: `${name.toLowerCase().replace(/\s+/g, "-")}.test`
    }))
    for (const a of accounts) {
      yield* sql`INSERT INTO accounts (account_id, client_id, name, domain) VALUES (${a.accountId}, ${clientId}, ${a.name}, ${a.domain})`
    }
    const dealOf = new Map<number, { deal: number; nth: number }>()
    DEAL_CALLS.forEach((positions, deal) => positions.forEach((p, nth) => dealOf.set(p, { deal, nth })))
    const dealAccount = (deal: number) => accounts[deal < accounts.length ? deal : 4]!
    const dealIds = DEAL_CALLS.map((_, d) => `deal_tw_${tag}_${d}`)
    for (const [d, dealId] of dealIds.entries()) {
      yield* sql`INSERT INTO deals (deal_id, client_id, account_id, external_deal_id, name)
                 VALUES (${dealId}, ${clientId}, ${dealAccount(d).accountId}, ${`D-${1000 + d}`}, ${`${dealAccount(d).name} deal ${d}`})`
    }

    const now = Date.now()
    const written = evalCalls(CALLS)
    const calls: Array<TeamWeeks["calls"][number]> = []
    for (let i = 0; i < CALLS; i++) {
      const { name, truth } = written[i]!
      const result = analysedTruth(truth)
      const inDeal = dealOf.get(i)
      const closer = closers[(inDeal?.deal ?? i) % closers.length]!
      const account = inDeal === undefined ? null : dealAccount(inDeal.deal)
      const source = i % 3 === 1 ? "recorder" as const : "api" as const
      const meeting = now - HOUR - (CALLS - 1 - i) * SPACING_MS
      const created = source === "recorder" ? meeting + HOUR : Math.min(meeting + 26 * HOUR, now - 60_000)
      const attendees = source === "recorder"
        ? [...(account === null ? [] : [`${BUYERS[(inDeal?.nth ?? 0) % BUYERS.length]}@${account.domain}`]), closer.email]
        : []
      const callId = `call_tw_${tag}_${i}`
      const meetingAt = new Date(meeting).toISOString()
      const createdAt = new Date(created).toISOString()
      yield* sql`
        INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                           created_at, started_at, completed_at, duration_s, method_version, result, source,
                           meeting_at, attendees, account_id, deal_id)
        VALUES (${callId}, ${clientId}, ${`ext-${callId}`}, ${closer.email}, 'completed', 'wav', ${`blob/${callId}`}, 1, 'x',
                ${createdAt}::timestamptz, ${createdAt}::timestamptz, ${createdAt}::timestamptz + interval '1 minute',
                ${result.duration_s}, ${result.method_version}, ${JSON.stringify(result)}::jsonb, ${source},
                ${meetingAt}::timestamptz, ${JSON.stringify(attendees)}::jsonb, ${account?.accountId ?? null},
                ${inDeal === undefined ? null : dealIds[inDeal.deal]!})`
      calls.push({
        callId,
        closerEmail: closer.email,
        meetingAt,
        createdAt,
        accountId: account?.accountId ?? null,
        dealId: inDeal === undefined ? null : dealIds[inDeal.deal]!,
        source,
        attendees,
        name,
        result
      })
    }
    const deals = DEAL_CALLS.map((positions, d) => ({
      dealId: dealIds[d]!,
      externalDealId: `D-${1000 + d}`,
      accountId: dealAccount(d).accountId,
      callIds: positions.map((p) => calls[p]!.callId)
    }))
    return { closers, accounts, deals, calls }
  }).pipe(Effect.orDie)
