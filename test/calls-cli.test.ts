/**
 * `callsight calls list`, run in process (test/utils/CliInProcess.ts) against the real service in
 * process (its workers analyse the uploads): the table and `--json` hold the values of the calls
 * uploaded, newest first and of the key's tenant alone; `--limit`, `--cursor` and `--all` page
 * through them as the API does; the filters (status, closer, upload time, score) are the
 * service's, and combine with paging; a bad flag is a usage error (exit 2) that says what is wrong.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createTenant, get, settle, upload } from "../packages/server/test/utils/AudioRequests.js"
import { testServerLayer } from "../packages/server/test/utils/TestServer.js"
import { runCli, serverUrl } from "./utils/CliInProcess.js"
import { fixture, wavOf, wavSamples } from "./utils/Fixtures.js"

interface ListedCall {
  readonly call_id: string
  readonly external_call_id: string | null
  readonly closer_email: string | null
  readonly status: string
  readonly created_at: string
  readonly completed_at: string | null
  readonly duration_s: number | null
  readonly overall_score: number | null
}

interface Seeded {
  readonly url: string
  readonly apiKey: string
  /** The tenant's calls as the API lists them, newest first. */
  readonly calls: ReadonlyArray<ListedCall>
  readonly otherKey: string
  readonly otherCallId: string
}

let seeded: Seeded | undefined

/**
 * A tenant with three analysed calls (uploaded in this order): a WAV of 75 s with an external id,
 * a clip of 1 s that fails as too short, a stereo WAV of 55 s; another tenant with one call.
 */
const seed = Effect.suspend(() =>
  seeded !== undefined
    ? Effect.succeed(seeded)
    : Effect.gen(function* () {
      const url = yield* serverUrl
      const tenant = yield* createTenant(10)
      const other = yield* createTenant(10)
      const uploads = [
        { bytes: fixture("discovery-short.wav"), name: "discovery.wav", externalCallId: "crm-1", closerEmail: "Ana@Example.com" },
        { bytes: wavOf(wavSamples("discovery-short.wav").subarray(16_000, 32_000)), name: "short.wav", externalCallId: "crm-2" },
        { bytes: fixture("renewal-stereo.wav"), name: "renewal.wav", closerEmail: "bo@example.com" }
      ]
      const ids: Array<string> = []
      for (const { bytes, ...options } of uploads) {
        const accepted = yield* upload(tenant.api_key, bytes, options)
        expect(accepted.status).toBe(202)
        ids.push(accepted.body.call_id)
      }
      // the other tenant's call has the same closer: a filter never reaches across tenants
      const otherCall = yield* upload(other.api_key, fixture("discovery-short.wav"), { name: "other.wav", closerEmail: "ana@example.com" })
      const settled = yield* Effect.forEach([...ids, otherCall.body.call_id], (id, i) =>
        settle(i < ids.length ? tenant.api_key : other.api_key, id), { concurrency: 4 })
      expect(settled.map((s) => s.status)).toEqual(["completed", "failed", "completed", "completed"])
      const listed = yield* get(tenant.api_key, "/v1/teams/calls")
      expect(listed.status).toBe(200)
      expect(listed.body.next_cursor).toBeNull()
      const calls = listed.body.calls as ReadonlyArray<ListedCall>
      expect(calls.map((c) => c.call_id)).toEqual([...ids].reverse())
      return (seeded = { url, apiKey: tenant.api_key, calls, otherKey: other.api_key, otherCallId: otherCall.body.call_id })
    })
)

/** The connection flags of the seeded tenant. */
const tenantFlags = (s: Seeded) => ["--url", s.url, "--api-key", s.apiKey]

/** The cells of a table line (columns are two spaces apart or more). */
const cells = (line: string) => line.trim().split(/ {2,}/)

const HEADING = ["CALL ID", "STATUS", "CREATED (UTC)", "OVERALL", "DURATION", "EXTERNAL ID"]

/** "2026-11-21T10:00:00.000Z" → "2026-11-21 10:00:00" */
const utc = (timestamp: string) => timestamp.slice(0, 19).replace("T", " ")

const json = (lines: ReadonlyArray<string>) => JSON.parse(lines.join("\n"))

// The workers poll and renew their leases on the real clock; so does the CLI's client.
layer(testServerLayer({ workerConcurrency: 2 }, { workers: true }), { excludeTestServices: true })("callsight calls list", (it) => {
  describe("a page", () => {
    it.effect("is a table of the tenant's calls, newest first: id, status, created, overall score, duration, external id", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const [renewal, short, discovery] = s.calls
        // the completed calls have a score and a duration; the failed one has no score
        expect(renewal!.overall_score).toEqual(expect.any(Number))
        expect(discovery!.overall_score).toEqual(expect.any(Number))
        expect(short!.overall_score).toBeNull()
        expect(Math.round(discovery!.duration_s!)).toBe(75)
        expect(Math.round(renewal!.duration_s!)).toBe(55)

        const listed = yield* runCli(["calls", "list", ...tenantFlags(s)])
        expect(listed.code).toBe(0)
        expect(listed.stderr).toEqual([])
        expect(cells(listed.stdout[0]!)).toEqual(HEADING)
        const rows = [
          [renewal!.call_id, "completed", utc(renewal!.created_at), String(renewal!.overall_score), "0:55", "-"],
          [short!.call_id, "failed", utc(short!.created_at), "-", short!.duration_s === null ? "-" : "0:01", "crm-2"],
          [discovery!.call_id, "completed", utc(discovery!.created_at), String(discovery!.overall_score), "1:15", "crm-1"]
        ]
        expect(listed.stdout.slice(1).map(cells)).toEqual(rows)
        // the columns line up: text starts under its heading, numbers end under theirs
        const heading = listed.stdout[0]!
        rows.forEach((row, i) => {
          const line = listed.stdout[i + 1]!
          HEADING.forEach((title, column) => {
            const at = heading.indexOf(title)
            if (title === "OVERALL" || title === "DURATION") expect(line.slice(0, at + title.length).endsWith(row[column]!)).toBe(true)
            else expect(line.slice(at).startsWith(row[column]!), `${title} of line ${i + 1}`).toBe(true)
          })
        })
        expect(listed.stdout.join("\n")).not.toContain(s.otherCallId)
      }), 240_000)

    it.effect("--json prints the API's answer as one JSON document, nothing else", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const listed = yield* runCli(["calls", "list", "--json", ...tenantFlags(s)])
        expect(listed.code).toBe(0)
        expect(listed.stderr).toEqual([])
        expect(json(listed.stdout)).toEqual({ calls: s.calls, next_cursor: null })
        // the other tenant's key lists its own call alone
        const other = yield* runCli(["calls", "list", "--json", "--url", s.url, "--api-key", s.otherKey])
        expect(json(other.stdout).calls.map((c: ListedCall) => c.call_id)).toEqual([s.otherCallId])
      }))

    it.effect("reads the service and the key from CALLSIGHT_URL and CALLSIGHT_API_KEY", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const listed = yield* runCli(["calls", "list", "--json"], { CALLSIGHT_URL: s.url, CALLSIGHT_API_KEY: s.apiKey })
        expect(listed.code).toBe(0)
        expect(json(listed.stdout)).toEqual({ calls: s.calls, next_cursor: null })
      }))

    it.effect("says so when the tenant has no calls", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const empty = yield* createTenant(1)
        const flags = ["--url", s.url, "--api-key", empty.api_key]
        expect(yield* runCli(["calls", "list", ...flags])).toEqual({ code: 0, stdout: ["No calls."], stderr: [] })
        expect(json((yield* runCli(["calls", "list", "--json", ...flags])).stdout)).toEqual({ calls: [], next_cursor: null })
      }))
  })

  describe("paging", () => {
    it.effect("--limit gives a page and its cursor; --cursor the next page, the last with next_cursor null", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const first = yield* runCli(["calls", "list", "--limit", "2", "--json", ...tenantFlags(s)])
        const firstPage = json(first.stdout)
        expect(firstPage.calls).toEqual(s.calls.slice(0, 2))
        expect(firstPage.next_cursor).toEqual(expect.any(String))

        const second = yield* runCli(["calls", "list", "--limit", "2", "--cursor", firstPage.next_cursor, "--json", ...tenantFlags(s)])
        expect(json(second.stdout)).toEqual({ calls: s.calls.slice(2), next_cursor: null })

        // the table ends with the command for the next page
        const table = yield* runCli(["calls", "list", "--limit", "2", ...tenantFlags(s)])
        expect(table.code).toBe(0)
        expect(table.stdout.slice(1, 3).map((line) => cells(line)[0])).toEqual(s.calls.slice(0, 2).map((c) => c.call_id))
        expect(table.stdout.slice(3)).toEqual(["", `More calls: callsight calls list --limit 2 --cursor ${firstPage.next_cursor}`])
        const last = yield* runCli(["calls", "list", "--limit", "2", "--cursor", firstPage.next_cursor, ...tenantFlags(s)])
        expect(last.stdout.slice(1).map((line) => cells(line)[0])).toEqual([s.calls[2]!.call_id])
      }))

    it.effect("--all follows the cursors to the last page", () =>
      Effect.gen(function* () {
        const s = yield* seed
        // one call a request: three pages
        const all = yield* runCli(["calls", "list", "--all", "--limit", "1", "--json", ...tenantFlags(s)])
        expect(all.code).toBe(0)
        expect(json(all.stdout)).toEqual({ calls: s.calls, next_cursor: null })
        const table = yield* runCli(["calls", "list", "--all", "--limit", "1", ...tenantFlags(s)])
        expect(table.stdout.slice(1).map((line) => cells(line)[0])).toEqual(s.calls.map((c) => c.call_id))
        // from a cursor: the pages after it
        const first = json((yield* runCli(["calls", "list", "--limit", "1", "--json", ...tenantFlags(s)])).stdout)
        const rest = yield* runCli(["calls", "list", "--all", "--limit", "1", "--cursor", first.next_cursor, "--json", ...tenantFlags(s)])
        expect(json(rest.stdout)).toEqual({ calls: s.calls.slice(1), next_cursor: null })
      }))
  })

  describe("filters", () => {
    /** The ids `calls list --json` answers with these options. */
    const idsWith = (s: Seeded, options: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const listed = yield* runCli(["calls", "list", "--json", ...options, ...tenantFlags(s)])
        expect(listed.code, options.join(" ")).toBe(0)
        return (json(listed.stdout).calls as ReadonlyArray<ListedCall>).map((c) => c.call_id)
      })
    const idsOf = (calls: ReadonlyArray<ListedCall>) => calls.map((c) => c.call_id)

    it.effect("by status, closer (any case), upload time and score, each and combined, in the key's tenant alone", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const [renewal, short, discovery] = s.calls
        expect(yield* idsWith(s, ["--status", "completed"])).toEqual(idsOf([renewal!, discovery!]))
        expect(yield* idsWith(s, ["--status", "failed"])).toEqual(idsOf([short!]))
        expect(yield* idsWith(s, ["--status", "queued"])).toEqual([])
        expect(discovery!.closer_email).toBe("Ana@Example.com")
        expect(yield* idsWith(s, ["--closer", "ANA@example.COM"])).toEqual(idsOf([discovery!]))
        expect(yield* idsWith(s, ["--closer", "nobody@example.com"])).toEqual([])

        // both bounds are inclusive: the middle call's own time keeps it
        expect(yield* idsWith(s, ["--from", short!.created_at])).toEqual(idsOf([renewal!, short!]))
        expect(yield* idsWith(s, ["--to", short!.created_at])).toEqual(idsOf([short!, discovery!]))
        expect(yield* idsWith(s, ["--from", short!.created_at, "--to", short!.created_at])).toEqual(idsOf([short!]))
        // a date: from its midnight, to its end (UTC)
        const day = (offset: number) => new Date(Date.parse(renewal!.created_at.slice(0, 10)) + offset * 86_400_000).toISOString().slice(0, 10)
        expect(yield* idsWith(s, ["--from", day(0), "--to", day(0)])).toEqual(idsOf(s.calls))
        expect(yield* idsWith(s, ["--to", day(-1)])).toEqual([])
        expect(yield* idsWith(s, ["--from", day(1)])).toEqual([])

        // scores: analysed calls only, bounds inclusive
        const scores = [renewal!, discovery!].map((c) => c.overall_score!)
        for (const bound of [...scores, 0, 100]) {
          expect(yield* idsWith(s, ["--min-score", String(bound)]), `min ${bound}`)
            .toEqual(idsOf(s.calls.filter((c) => c.overall_score !== null && c.overall_score >= bound)))
          expect(yield* idsWith(s, ["--max-score", String(bound)]), `max ${bound}`)
            .toEqual(idsOf(s.calls.filter((c) => c.overall_score !== null && c.overall_score <= bound)))
        }
        expect(yield* idsWith(s, ["--status", "completed", "--closer", "bo@example.com", "--min-score", "0"])).toEqual(idsOf([renewal!]))

        // the same filters over HTTP, and another tenant's call with the same closer stays out
        const http = yield* get(s.otherKey, "/v1/teams/calls?closer_email=ana%40example.com&status=completed")
        expect(http.body.calls.map((c: ListedCall) => c.call_id)).toEqual([s.otherCallId])
        for (const [query, field] of [["status=done", "status"], ["min_score=-1", "min_score"], ["created_from=yesterday", "created_from"]]) {
          const bad = yield* get(s.apiKey, `/v1/teams/calls?${query}`)
          expect(bad.status, query).toBe(422)
          expect(bad.body.detail[0].loc, query).toEqual(["query", field])
        }
      }))

    it.effect("page with the filters kept: the next page's command repeats them, and --all follows them", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const [renewal, , discovery] = s.calls
        const first = yield* runCli(["calls", "list", "--status", "completed", "--limit", "1", ...tenantFlags(s)])
        expect(first.code).toBe(0)
        expect(cells(first.stdout[1]!)[0]).toBe(renewal!.call_id)
        const more = first.stdout.at(-1)!
        expect(more).toMatch(/^More calls: callsight calls list --limit 1 --cursor \S+ --status completed$/)
        const cursor = more.split(" ").at(-3)!
        expect(yield* idsWith(s, ["--status", "completed", "--limit", "1", "--cursor", cursor])).toEqual([discovery!.call_id])
        expect(yield* idsWith(s, ["--status", "completed", "--limit", "1", "--all"])).toEqual(idsOf([renewal!, discovery!]))
      }))
  })

  describe("a bad command line", () => {
    it.effect("is a usage error (exit 2) that names what is wrong, on stderr, with nothing on stdout", () =>
      Effect.gen(function* () {
        const s = yield* seed
        const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string | RegExp]> = [
          [["--bogus"], "callsight: Received unknown argument: '--bogus'"],
          [["--limit", "0"], "callsight: --limit: Expected a number between 1 and 200, actual 0"],
          [["--limit", "201"], "callsight: --limit: Expected a number between 1 and 200, actual 201"],
          [["--limit", "abc"], /^callsight: 'abc' is not an? integer$/],
          [["--cursor", "not-a-cursor"], "callsight: the service rejected the request (422): query.cursor: not a cursor of this list"],
          [["--status", "done"], /^callsight: Expected one of the following cases: queued, processing, completed, failed/],
          [["--closer", "ana"], "callsight: --closer: must be an e-mail address"],
          [["--from", "yesterday"], "callsight: --from: must be an ISO-8601 date-time with a time zone (2026-11-21T10:00:00Z) or a date (2026-11-21)"],
          [["--to", "2026-02-30"], "callsight: --to: must be a real date"],
          [["--min-score", "101", "--max-score", "-1"], "callsight: --min-score: Expected a number between 0 and 100, actual 101; --max-score: Expected a number between 0 and 100, actual -1"]
        ]
        for (const [args, message] of cases) {
          const result = yield* runCli(["calls", "list", ...args, ...tenantFlags(s)])
          expect(result.code, args.join(" ")).toBe(2)
          expect(result.stdout, args.join(" ")).toEqual([])
          const expected = typeof message === "string" ? new RegExp(`^${escape(message)}$`) : message
          expect(result.stderr, args.join(" ")).toEqual([expect.stringMatching(expected)])
        }
        const noKey = yield* runCli(["calls", "list", "--url", s.url])
        expect(noKey).toEqual({ code: 2, stdout: [], stderr: ["callsight: no API key: pass --api-key or set CALLSIGHT_API_KEY"] })
        // a key the service does not know is the service's answer (exit 3)
        const unknownKey = yield* runCli(["calls", "list", "--url", s.url, "--api-key", "csk_unknown"])
        expect(unknownKey.code).toBe(3)
        expect(unknownKey.stderr.join("\n")).toMatch(/^callsight: 401 Unauthorized/)
      }))
  })
})

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
