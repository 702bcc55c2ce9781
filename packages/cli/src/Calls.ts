/**
 * `callsight calls list [--limit N] [--cursor CURSOR] [--all] [--status S] [--closer EMAIL]
 * [--from TIME] [--to TIME] [--min-score N] [--max-score N] [--json]`: the tenant's calls, newest
 * first, with a tenant key (`--api-key` or `CALLSIGHT_API_KEY`), through the client's `listCalls`
 * (`GET /v1/teams/calls`).
 *
 * The filters are the operation's (the service filters; the command filters nothing itself), and
 * the operation's query schema checks them before any request. A page is a table (call id,
 * status, created, overall score, duration, external id) followed by the command for the next
 * page, with the same filters; `--all` follows the cursors to the last page. `--json` prints the
 * answer as it came, one JSON document (`{ calls, next_cursor }`; with `--all`, every call and
 * `next_cursor: null`).
 */
import { AnalysisStatus, ListCallsQuery } from "@callsight/api-spec"
import type { CallsMethods, CallsPage, ListCallsOptions } from "@callsight/client"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option, ParseResult, Schema } from "effect"
import { ExtensionsClientApi } from "./Apis.js"
import { apiKeyOption, jsonOption, urlOption, withTenantApi } from "./Connection.js"
import { UsageError } from "./Errors.js"
import { group } from "./Help.js"
import { printJson } from "./Output.js"

type Call = CallsPage["calls"][number]


/** Each filter's option, by the query field it fills. */
const OPTION_OF: Record<string, string> = {
  limit: "--limit",
  cursor: "--cursor",
  status: "--status",
  closer_email: "--closer",
  created_from: "--from",
  created_to: "--to",
  min_score: "--min-score",
  max_score: "--max-score"
}

/**
 * The options as the operation's query (`ListCallsQuery`, encoded: every value a string) checks
 * them; a value it refuses is a usage error naming the option, before any request.
 */
const checkQuery = (query: ListCallsOptions) =>
  Schema.decodeUnknown(ListCallsQuery, { errors: "all" })(
    Object.fromEntries(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])))
  ).pipe(
    Effect.mapError((e) => {
      // the first issue of each option (an optional field's union also reports "Expected undefined")
      const byOption = new Map<string, string>()
      for (const issue of ParseResult.ArrayFormatter.formatErrorSync(e)) {
        const field = issue.path.join(".")
        const option = OPTION_OF[field] ?? `--${field}`
        if (!byOption.has(option)) byOption.set(option, `${option}: ${issue.message}`)
      }
      return new UsageError({ message: [...byOption.values()].join("; ") })
    })
  )

/** Every page from `cursor` to the last, in one answer of the operation's shape. */
const everyPage = (client: CallsMethods, query: ListCallsOptions) =>
  Effect.gen(function* () {
    const calls: Array<Call> = []
    let next = query.cursor
    do {
      const page = yield* client.listCalls({ ...query, cursor: next })
      calls.push(...page.calls)
      next = page.next_cursor ?? undefined
    } while (next !== undefined)
    return { calls, next_cursor: null } satisfies CallsPage
  })

/** The command that asks the next page: the same options, the new cursor. */
const nextPageCommand = (query: ListCallsOptions, cursor: string) =>
  [
    "callsight calls list",
    ...Object.entries({ ...query, cursor }).flatMap(([k, v]) => (v === undefined ? [] : [`${OPTION_OF[k]} ${v}`]))
  ].join(" ")

/** "2026-11-21T10:00:00.000Z" → "2026-11-21 10:00:00" (UTC). */
const utc = (timestamp: string) => {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString().replace("T", " ").slice(0, 19)
}

/** 83.4 → "1:23"; 4512 → "1:15:12". */
const duration = (seconds: number) => {
  const total = Math.round(seconds)
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60]
  const two = (n: number) => String(n).padStart(2, "0")
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`
}

const COLUMNS = ["CALL ID", "STATUS", "CREATED (UTC)", "OVERALL", "DURATION", "EXTERNAL ID"] as const
/** The numbers are aligned on the right. */
const RIGHT = new Set([3, 4])

/** The calls as a table, one line each, the heading first. */
export const callsTable = (calls: ReadonlyArray<Call>): ReadonlyArray<string> => {
  const rows = calls.map((c) => [
    c.call_id,
    c.status,
    utc(c.created_at),
    c.overall_score === null ? "-" : String(c.overall_score),
    c.duration_s === null ? "-" : duration(c.duration_s),
    c.external_call_id ?? "-"
  ])
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : RIGHT.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
  return [line(COLUMNS), ...rows.map(line)]
}

const list = Command.make(
  "list",
  {
    limit: Options.integer("limit").pipe(
      Options.withPseudoName("N"),
      Options.optional,
      Options.withDescription("Calls per page, 1 to 200 (default 50); with --all, calls per request")
    ),
    cursor: Options.text("cursor").pipe(
      Options.withPseudoName("CURSOR"),
      Options.optional,
      Options.withDescription("Start where the page that gave this cursor ended (its next_cursor)")
    ),
    all: Options.boolean("all").pipe(Options.withDescription("Follow the cursors to the last page and list every call")),
    status: Options.choice("status", AnalysisStatus.literals).pipe(
      Options.optional,
      Options.withDescription("Only calls in this status")
    ),
    closer: Options.text("closer").pipe(
      Options.withPseudoName("EMAIL"),
      Options.optional,
      Options.withDescription("Only this closer's calls (the e-mail, any case)")
    ),
    from: Options.text("from").pipe(
      Options.withPseudoName("TIME"),
      Options.optional,
      Options.withDescription("Uploaded at or after this ISO-8601 time or date (UTC midnight)")
    ),
    to: Options.text("to").pipe(
      Options.withPseudoName("TIME"),
      Options.optional,
      Options.withDescription("Uploaded at or before this ISO-8601 time, or on or before this date")
    ),
    minScore: Options.float("min-score").pipe(
      Options.withPseudoName("N"),
      Options.optional,
      Options.withDescription("Analysed calls with an overall score of at least N (0-100)")
    ),
    maxScore: Options.float("max-score").pipe(
      Options.withPseudoName("N"),
      Options.optional,
      Options.withDescription("Analysed calls with an overall score of at most N (0-100)")
    ),
    json: jsonOption,
    url: urlOption,
    apiKey: apiKeyOption
  },
  (args) =>
    Effect.gen(function* () {
      const query: ListCallsOptions = {
        limit: Option.getOrUndefined(args.limit),
        cursor: Option.getOrUndefined(args.cursor),
        status: Option.getOrUndefined(args.status),
        closer_email: Option.getOrUndefined(args.closer),
        created_from: Option.getOrUndefined(args.from),
        created_to: Option.getOrUndefined(args.to),
        min_score: Option.getOrUndefined(args.minScore),
        max_score: Option.getOrUndefined(args.maxScore)
      }
      yield* checkQuery(query)
      const page = yield* withTenantApi(ExtensionsClientApi, args, (c) => (args.all ? everyPage(c, query) : c.listCalls(query)))
      if (args.json) return yield* printJson(page)
      const lines = page.calls.length === 0 ? ["No calls."] : [...callsTable(page.calls)]
      if (page.next_cursor !== null) lines.push("", `More calls: ${nextPageCommand(query, page.next_cursor)}`)
      yield* Console.log(lines.join("\n"))
    })
).pipe(Command.withDescription("The tenant's calls, newest first, filtered, a page at a time (--all: every page)"))

export const calls = group("calls", "The tenant's calls (needs a tenant API key); one call: result or status", [list])
