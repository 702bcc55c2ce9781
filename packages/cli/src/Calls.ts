/**
 * `callsight calls list [--limit N] [--cursor CURSOR] [--all] [--json]`: the tenant's calls,
 * newest first, with a tenant key (`--api-key` or `CALLSIGHT_API_KEY`), through the client's
 * `listCalls` (`GET /v1/teams/calls`).
 *
 * The operation pages by cursor and takes no filter (by status, closer or date): the command
 * offers what it takes and filters nothing itself. A page is a table (call id, status, created,
 * overall score, duration, external id) followed by the command for the next page; `--all`
 * follows the cursors to the last page. `--json` prints the answer as it came, one JSON document
 * (`{ calls, next_cursor }`; with `--all`, every call and `next_cursor: null`).
 */
import { ExtensionsApi } from "@callsight/api-spec"
import type { CallsMethods, CallsPage } from "@callsight/client"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option, ParseResult, Schema } from "effect"
import { ExtensionsClientApi } from "./Apis.js"
import { apiKeyOption, jsonOption, urlOption, withTenantApi } from "./Connection.js"
import { UsageError } from "./Errors.js"
import { group } from "./Help.js"
import { printJson } from "./Output.js"

type Call = CallsPage["calls"][number]


/** The query of the operation as the API declares it (`limit` 1–200, `cursor`), in its encoded form. */
const ListCallsQuery = Option.getOrThrow(
  ExtensionsApi.endpoints.listCalls.urlParamsSchema as unknown as Option.Option<
    Schema.Schema<unknown, { readonly limit?: string; readonly cursor?: string }>
  >
)

/** `--limit` and `--cursor` as the operation takes them; a value it refuses is a usage error, before any request. */
const checkQuery = (limit: number | undefined, cursor: string | undefined) =>
  Schema.decodeUnknown(ListCallsQuery)({
    ...(limit === undefined ? {} : { limit: String(limit) }),
    ...(cursor === undefined ? {} : { cursor })
  }).pipe(
    Effect.mapError((e) => {
      // the first issue of each option (an optional field's union also reports "Expected undefined")
      const byOption = new Map<string, string>()
      for (const issue of ParseResult.ArrayFormatter.formatErrorSync(e)) {
        const option = `--${issue.path.join(".")}`
        if (!byOption.has(option)) byOption.set(option, `${option}: ${issue.message}`)
      }
      return new UsageError({ message: [...byOption.values()].join("; ") })
    })
  )

/** Every page from `cursor` to the last, in one answer of the operation's shape. */
const everyPage = (client: CallsMethods, limit: number | undefined, cursor: string | undefined) =>
  Effect.gen(function* () {
    const calls: Array<Call> = []
    let next = cursor
    do {
      const page = yield* client.listCalls({ limit, cursor: next })
      calls.push(...page.calls)
      next = page.next_cursor ?? undefined
    } while (next !== undefined)
    return { calls, next_cursor: null } satisfies CallsPage
  })

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
    json: jsonOption,
    url: urlOption,
    apiKey: apiKeyOption
  },
  (args) =>
    Effect.gen(function* () {
      const limit = Option.getOrUndefined(args.limit)
      const cursor = Option.getOrUndefined(args.cursor)
      yield* checkQuery(limit, cursor)
      const page = yield* withTenantApi(ExtensionsClientApi, args, (c) => (args.all ? everyPage(c, limit, cursor) : c.listCalls({ limit, cursor })))
      if (args.json) return yield* printJson(page)
      const lines = page.calls.length === 0 ? ["No calls."] : [...callsTable(page.calls)]
      if (page.next_cursor !== null) {
        const more = ["callsight calls list", ...(limit === undefined ? [] : [`--limit ${limit}`]), `--cursor ${page.next_cursor}`]
        lines.push("", `More calls: ${more.join(" ")}`)
      }
      yield* Console.log(lines.join("\n"))
    })
).pipe(Command.withDescription("The tenant's calls, newest first, a page at a time (--all: every page)"))

export const calls = group("calls", "The tenant's calls (needs a tenant API key); one call: result or status", [list])
