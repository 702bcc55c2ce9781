/**
 * Work that grows (issue 39, item 4): every interactive read at 10,000 and 100,000 calls, in one
 * tenant and across 200, and the market-intelligence rebuild's growth.
 *
 * For each size of SCALE_CALLS (10000,100000) and each tenant count of SCALE_TENANTS (1,200): a fresh
 * PostgreSQL database (TEST_DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432/postgres)
 * made by the service's own migrations, then the data of bench/scale/seed.ts written by SQL (real
 * analyses of the engine over evaluation calls, bench/scale/templates.ts, varied per call; closers,
 * outcome records, accounts and deals, tracker mentions, market and lead profiles), then the service
 * as it runs in production, `callsight serve --no-worker` from the build (scripts/start.mjs: every
 * HTTP door, its request log and metrics, no background work) in a process of its own, read over
 * HTTP as the portal reads it: the first tenant's owner's session (written with the data) and, for
 * market intelligence, the admin key. In the 200-tenant runs the measured tenant holds 1/200th of
 * the calls; the others' rows are in every table and index.
 *
 * The service ran in the bench's process until issue 39's last sessions: its heap then held the
 * bench's too (the TypeScript loader's modules, the seed's templates, the client's answers), ~180
 * MB live against the served process's ~110, and V8's full collections of it came in the middle of
 * the reads (a year of trends: the slowest tenth of the reads were those).
 *
 * Before the reads, the trends' days the seed marked stale are settled by the pass the background
 * work runs in production (trends/SettlePass.ts; the bench's service runs none), timed apart: the
 * seed writes a year of calls at once, which a team's service settles in the minutes after.
 *
 * Each read: SCALE_WARMUP (10) warm-up requests, then SCALE_READS (50) requests one after the other
 * (fewer when they take over SCALE_READ_BUDGET_S seconds in all, at least 5; one warm-up for a read
 * over 1 s): p50 and p95, and the first warm-up's time apart ("first read"). Ten warm-ups, as many as
 * the pool's connections: each PostgreSQL connection loads the catalog and plans a statement's
 * tables the first times it runs it, and a read of several statements at once spreads them over the
 * pool. With 3, the daily brief's first measured reads still met cold connections (141 and 132 ms,
 * then ~50): its p95 was theirs (132 ms; 84 with 10, the p50 the same). The market-intelligence
 * views are read after a rebuild (their stored aggregates, as in production); the rebuild
 * (`POST /v1/internal/admin/market-intel/rebuild`, all four period types) is timed once per run, and
 * its growth from the smallest size to each larger one is printed (linear: the ratio of the sizes).
 * Target: every read's p95 ≤ 100 ms at 100,000 calls.
 *
 *   npx tsx --conditions=source bench/scale.bench.ts
 *   SCALE_CALLS=10000 SCALE_TENANTS=1 SCALE_READS=30 npx tsx --conditions=source bench/scale.bench.ts
 *
 * SCALE_ONLY=name,name reads only those (substring of the read's name); SCALE_KEEP_DB=1 keeps the
 * databases (their names are printed), to look at plans; SCALE_SLOW_MS=n logs the statements over n
 * ms in the server's log (log_min_duration_statement of the bench database only); SCALE_OUT=file
 * writes the figures as JSON; SCALE_TEMPLATES (48) and SCALE_CLOSERS (25; a third as many per tenant
 * across 200) shape the data. The databases are dropped at the end, also on failure or Ctrl-C.
 * SCALE_REUSE=<database> reads a kept database again instead (no seed, nothing dropped; with one
 * size and tenant count, SCALE_NO_REBUILD=1 to skip the rebuild), signed in with a session of its
 * own (SCALE_SESSION, else a random one). SCALE_DUMP=<folder> writes each read's last answer there,
 * to compare the answers before and after a change. SCALE_GAP_MS=n pauses n ms before each measured
 * read (reads spaced as a person's clicks, not back to back). SCALE_SERIES=1 prints each read's
 * times in the order they were taken (where the slow ones fall).
 *
 * Beside p50 and p95, the CPU time a read costs (over the measured reads): the service's process's
 * and PostgreSQL's (its processes on this machine; both from /proc, as in bench/status.bench.ts).
 * On two cores shared by the two, the p95 follows their sum. /proc counts in clock ticks (10 ms):
 * over a few fast reads the figure is coarse. BENCH_SERVICE_ROOT=/path/to/another/checkout
 * serves from that checkout's build instead (before and after a change, one sitting, one database).
 */
import { NodeHttpClient, NodeRuntime } from "@effect/platform-node"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Logger, LogLevel, Redacted, Stream } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { layerPostgres } from "../packages/server/src/db/Database.js"
import { MigrationsLive } from "../packages/server/src/db/Migrations.js"
import { makeSettlePass } from "../packages/server/src/trends/SettlePass.js"
import { TrendsQueries } from "../packages/server/src/views/TrendsQueries.js"
import { freePort, postgresCpuSeconds, processCpuSeconds, startService, stopChild } from "./lib.js"
import { seed, tenantId } from "./scale/seed.js"
import { analysedTemplates } from "./scale/templates.js"

const list = (value: string | undefined, fallback: string) => (value ?? fallback).split(",").map((x) => Number(x.trim())).filter((x) => x > 0)
const SIZES = list(process.env.SCALE_CALLS, "10000,100000")
const TENANTS = list(process.env.SCALE_TENANTS, "1,200")
const READS = Number(process.env.SCALE_READS ?? 50)
const WARMUP = Number(process.env.SCALE_WARMUP ?? 10)
const BUDGET_MS = 1000 * Number(process.env.SCALE_READ_BUDGET_S ?? 15)
const TEMPLATES = Number(process.env.SCALE_TEMPLATES ?? 48)
const CLOSERS = Number(process.env.SCALE_CLOSERS ?? 25)
const ONLY = (process.env.SCALE_ONLY ?? "").split(",").map((x) => x.trim()).filter((x) => x !== "")
const SLOW_MS = process.env.SCALE_SLOW_MS
/** A database kept by an earlier run (SCALE_KEEP_DB=1) read again as it is: no seed, not dropped (one size and tenant count). */
const REUSE = process.env.SCALE_REUSE
/** SCALE_DUMP=<folder>: each read's last answer written there (`<read>.json`), to compare answers before and after a change. */
const DUMP = process.env.SCALE_DUMP
/** SCALE_GAP_MS=n: a pause of n ms before each measured read, as a person's clicks come (the pool's idle connections may close meanwhile). */
const GAP_MS = Number(process.env.SCALE_GAP_MS ?? 0)
const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"
const ADMIN_KEY = `csa_bench_${randomBytes(8).toString("hex")}`
const SESSION = process.env.SCALE_SESSION ?? `ses_bench_${randomBytes(16).toString("hex")}`
const TARGET_MS = 100

/** Runs one statement on the server's own database. */
const onServer = (statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, statement).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1 }))
  )

const databaseUrl = (name: string) => {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** A fresh database for one run, dropped when the run's scope closes (whatever happened). */
const freshDatabase = (name: string) =>
  REUSE !== undefined
    ? layerPostgres({ url: Redacted.make(databaseUrl(REUSE)), maxConnections: 10, applicationName: "callsight-bench-scale" })
    : Layer.unwrapScoped(
    Effect.acquireRelease(
      Effect.gen(function* () {
        yield* onServer((sql) => sql`CREATE DATABASE ${sql(name)}`)
        if (SLOW_MS !== undefined) {
          yield* onServer((sql) => sql.unsafe(`ALTER DATABASE ${name} SET log_min_duration_statement = ${Number(SLOW_MS)}`))
        }
        return layerPostgres({ url: Redacted.make(databaseUrl(name)), maxConnections: 10, applicationName: "callsight-bench-scale" })
      }),
      () =>
        process.env.SCALE_KEEP_DB === "1"
          ? Effect.sync(() => console.log(`kept the database ${name} (${databaseUrl(name)})`))
          : Effect.ignore(onServer((sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`))
    )
  )

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!

interface Figure {
  readonly p50: number
  readonly p95: number
  readonly n: number
  /** The answer's size. */
  readonly kb: number
  readonly note: string
  /** The first warm-up read's time: the read on connections that have not served it yet. */
  readonly firstMs: number
  /** CPU ms per measured read: this process's (the service and the bench's client) and PostgreSQL's (undefined when it runs elsewhere). */
  readonly cpuMs: number
  readonly dbCpuMs: number | undefined
}

interface RunFigures {
  readonly calls: number
  readonly tenants: number
  readonly tenantCalls: number
  readonly seedS: number
  readonly rebuildMs: number
  readonly rebuildServiceMs: number
  readonly rebuildRows: number
  readonly reads: Record<string, Figure>
}

/**
 * `callsight serve --no-worker` on `database` (bench/lib.ts `startService`: the build, production's
 * environment), stopped when the scope closes (before the database is dropped).
 */
const serve = (database: string, dataDir: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const port = await freePort()
      // a stale build is rebuilt first: minutes on a slow machine
      const child = await startService({ port, databaseUrl: databaseUrl(database), dataDir, adminKey: ADMIN_KEY, args: ["--no-worker"], timeoutS: 600 })
      return { pid: child.pid!, base: `http://127.0.0.1:${port}`, child }
    }),
    ({ child }) => Effect.promise(() => stopChild(child, 15_000))
  )

const runOne = (calls: number, tenants: number, templates: ReturnType<typeof analysedTemplates>) => {
  const name = `callsight_bench_scale_${process.pid}_${calls}_${tenants}`
  const blobDir = mkdtempSync(join(tmpdir(), "callsight-bench-scale-"))
  // the bench's own connections: the service's migrations, the seed, the cursors
  const database = MigrationsLive.pipe(Layer.provideMerge(freshDatabase(name)))
  return Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const client = yield* HttpClient.HttpClient
    const t0 = performance.now()
    const counts = REUSE !== undefined
      ? (yield* sql<{ calls: number; completed: number; outcomes: number; mentions: number; bytes: number }>`
          SELECT (SELECT count(*)::int FROM calls) AS calls, (SELECT count(*)::int FROM calls WHERE status = 'completed') AS completed,
                 (SELECT count(*)::int FROM outcome_truth) AS outcomes, (SELECT count(*)::int FROM tracker_mentions) AS mentions,
                 pg_database_size(current_database())::float8 AS bytes`)[0]!
      : yield* seed({ calls, tenants, closers: tenants === 1 ? CLOSERS : Math.max(3, Math.round(CLOSERS / 3)), templates, sessionToken: SESSION })
    if (REUSE !== undefined) {
      yield* sql`INSERT INTO sessions (session_hash, user_id, client_id, expires_at)
                 VALUES (${createHash("sha256").update(SESSION).digest("hex")}, 'usr_s0', ${tenantId(0)}, now() + interval '14 days')
                 ON CONFLICT DO NOTHING`
    }
    const seedS = (performance.now() - t0) / 1000
    // the trends' days the seed marked stale, settled as the background work's pass does in production
    // (the bench's service runs no background work): timed apart, not in any read's first time
    const t1 = performance.now()
    const settled = { days: 0, months: 0, weeks: 0 }
    const settlePass = yield* makeSettlePass()
    for (let more = true; more;) {
      const pass = yield* settlePass
      settled.days += pass.days
      settled.months += pass.months
      settled.weeks += pass.weeks
      more = pass.days + pass.months + pass.weeks > 0
    }
    const settleS = (performance.now() - t1) / 1000
    const service = yield* serve(REUSE ?? name, blobDir)
    const me = tenantId(0)
    const [mine] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE client_id = ${me}`
    const tenantCalls = mine!.n
    console.log(
      `\n${calls} calls in ${tenants} tenant(s) (measured tenant: ${tenantCalls} calls), ${counts.completed} completed, ` +
        `${counts.outcomes} outcome records, ${counts.mentions} tracker mentions; database ${(counts.bytes / 2 ** 20).toFixed(0)} MB; ` +
        `seeded in ${seedS.toFixed(1)} s; the trends' settling passes: ${settled.days} days, ${settled.months} months, ` +
        `${settled.weeks} weeks in ${settleS.toFixed(1)} s`
    )

    const session = { cookie: `callsight_session=${SESSION}` }
    const admin = { "x-api-key": ADMIN_KEY }
    /**
     * One request, timed to the answer's last byte. The answer is kept as text when `keep` (or when
     * it is not a 200): otherwise its bytes are only counted as they arrive (the bench shares the
     * machine's two cores with the service and the database: it does not decode a 1.8 MB answer it
     * does not read).
     */
    const request = (method: "GET" | "POST", path: string, headers: Record<string, string>, body?: unknown, keep = true) =>
      Effect.gen(function* () {
        let req = HttpClientRequest.make(method)(`${service.base}${path}`).pipe(HttpClientRequest.setHeaders(headers))
        if (body !== undefined) req = HttpClientRequest.bodyUnsafeJson(req, body)
        const start = performance.now()
        const response = yield* client.execute(req)
        if (keep || response.status !== 200) {
          const text = yield* response.text
          return { ms: performance.now() - start, status: response.status, text, bytes: Buffer.byteLength(text) }
        }
        const bytes = yield* Stream.runFold(response.stream, 0, (n, chunk) => n + chunk.length)
        return { ms: performance.now() - start, status: response.status, text: "", bytes }
      })

    // the cursors of the deep pages: the keyset position of the call at that depth (what `next_cursor` encodes)
    const cursorAt = (offset: number) =>
      Effect.map(
        sql<{ position: string; call_id: string }>`
          SELECT created_at::text AS position, call_id FROM calls WHERE client_id = ${me}
          ORDER BY created_at DESC, call_id DESC OFFSET ${offset} LIMIT 1`,
        (rows) => rows.length === 0 ? "" : Buffer.from(`${rows[0]!.position}|${rows[0]!.call_id}`).toString("base64url")
      )
    const middle = yield* cursorAt(Math.floor(tenantCalls / 2))
    const deep = yield* cursorAt(Math.max(0, tenantCalls - 60))
    const closer = `rep3@t0.bench.test`
    const MI = "/v1/internal/admin/market-intel"
    const industries = yield* request("GET", `${MI}/industries`, admin)
    const industry = (JSON.parse(industries.text).industries as Array<any>).find((i) => i.icps.some((x: any) => x.icp_label !== "unassigned"))
    const icpPath = industry === undefined
      ? `${MI}/industries/saas/icps/unassigned`
      : `${MI}/industries/${encodeURIComponent(industry.industry_label)}/icps/${
        encodeURIComponent(industry.icps.find((x: any) => x.icp_label !== "unassigned").icp_label)
      }`

    const READ_LIST: ReadonlyArray<readonly [string, string, Record<string, string>]> = [
      ["calls list, first page", "/v1/teams/calls?limit=50", session],
      ["calls list, middle page (cursor)", `/v1/teams/calls?limit=50&cursor=${middle}`, session],
      ["calls list, last page (cursor)", `/v1/teams/calls?limit=50&cursor=${deep}`, session],
      ["calls list, one closer", `/v1/teams/calls?limit=50&closer_email=${encodeURIComponent(closer)}`, session],
      ["calls list, no outcome, score ≥ 70", "/v1/teams/calls?limit=50&outcome=none&min_score=70&status=completed", session],
      ["search: pricing", "/v1/workspace/search?q=pricing", session],
      ["search: discount budget", "/v1/workspace/search?q=discount%20budget", session],
      ["search: \"security review\"", `/v1/workspace/search?q=${encodeURIComponent("\"security review\"")}`, session],
      ["search: external id", `/v1/workspace/search?q=EXT-0-0000777`, session],
      ["search: closer name", "/v1/workspace/search?q=Okafor", session],
      ["search: nowhere", "/v1/workspace/search?q=zzyzxq", session],
      ["account cockpit", "/v1/client-portal/account-cockpit", session],
      ["daily brief", "/v1/client-portal/daily-brief", session],
      ["team health", "/v1/workspace/team-health", session],
      ["coaching dashboard", "/v1/coaching/dashboard", session],
      ["trends (6 weeks)", "/v1/client-portal/trends", session],
      ["trends (12 months)", "/v1/client-portal/trends?period=month&periods=12", session],
      ["trends (one closer, 26 weeks)", `/v1/client-portal/trends?periods=26&closer_email=${encodeURIComponent(closer)}`, session],
      // the web app's largest choices (packages/web Trends: 4, 6, 8, 12 or 26 weeks or months)
      ["trends (26 weeks)", "/v1/client-portal/trends?periods=26", session],
      ["trends (26 months)", "/v1/client-portal/trends?period=month&periods=26", session],
      ["deal intelligence", "/v1/workspace/deal-intelligence", session],
      ["outcome backlog", "/v1/client-portal/outcome-truth-backlog", session],
      ["mi overview", `${MI}/overview`, admin],
      ["mi industries", `${MI}/industries`, admin],
      ["mi industry ICP", icpPath, admin],
      ["mi lead-sources", `${MI}/lead-sources`, admin],
      ["mi outcome-truth", `${MI}/outcome-truth`, admin],
      ["mi segment-truth-gap", `${MI}/segment-truth-gap`, admin],
      ["mi truth-adoption", `${MI}/truth-adoption`, admin],
      ["mi truth-backlog-priority", `${MI}/truth-backlog-priority`, admin],
      ["mi trends", `${MI}/trends`, admin],
      ["mi data-hygiene", `${MI}/data-hygiene`, admin],
      ["mi renewal-expansion-radar", `${MI}/clients/${me}/renewal-expansion-radar`, admin],
      ["mi profiles", `${MI}/profiles`, admin]
    ]

    // the rebuild first: the views are read from the stored aggregates, as in production
    const r0 = performance.now()
    const rebuild = process.env.SCALE_NO_REBUILD === "1" ? { status: 200, text: '{"duration_ms":0,"rows_written":0}' } : yield* request("POST", `${MI}/rebuild`, { ...admin, "content-type": "application/json" }, {})
    const rebuildMs = performance.now() - r0
    if (rebuild.status !== 200) throw new Error(`rebuild: ${rebuild.status} ${rebuild.text.slice(0, 300)}`)
    const rebuilt = JSON.parse(rebuild.text)
    console.log(`market-intel rebuild: ${(rebuildMs / 1000).toFixed(2)} s (${rebuilt.duration_ms} ms in the service, ${rebuilt.rows_written} rows)`)

    const reads: Record<string, Figure> = {}
    const f = (x: number) => x.toFixed(1).padStart(8)
    console.log(`${"read".padEnd(38)}${"p50".padStart(11)}${"p95".padStart(11)}     n   answer   CPU ms a read: ours / PostgreSQL's   first read`)
    for (const [label, path, headers] of READ_LIST) {
      if (ONLY.length > 0 && !ONLY.some((o) => label.includes(o))) continue
      let note = ""
      let first = 0
      for (let i = 0; i < WARMUP; i++) {
        const r = yield* request("GET", path, headers, undefined, i === 0)
        if (i === 0) first = r.ms
        if (r.ms > 1000) i = WARMUP // one warm-up is enough for a slow read
        if (r.status !== 200) note = `${r.status} ${r.text.slice(0, 120)}`
        else if (r.text === "null") note = "null"
      }
      const runs: Array<number> = []
      const started = performance.now()
      const cpuBefore = processCpuSeconds(service.pid)
      const dbBefore = postgresCpuSeconds()
      let size = 0
      let lastText = ""
      while (runs.length < READS && (runs.length < 5 || performance.now() - started < BUDGET_MS + READS * GAP_MS)) {
        if (GAP_MS > 0) yield* Effect.sleep(GAP_MS)
        const r = yield* request("GET", path, headers, undefined, DUMP !== undefined)
        runs.push(r.ms)
        size = r.bytes
        if (r.text !== "") lastText = r.text
      }
      if (process.env.SCALE_SERIES === "1") console.log(`  ${label}: ${runs.map((ms) => ms.toFixed(0)).join(" ")}`)
      const cpuSeconds = processCpuSeconds(service.pid) - cpuBefore
      const dbAfter = postgresCpuSeconds()
      runs.sort((a, b) => a - b)
      if (DUMP !== undefined) writeFileSync(join(DUMP, `${label.replace(/[^a-z0-9]+/gi, "_")}.json`), lastText)
      const figure = {
        p50: percentile(runs, 0.5),
        p95: percentile(runs, 0.95),
        n: runs.length,
        kb: size / 1024,
        note,
        firstMs: first,
        cpuMs: (cpuSeconds * 1000) / runs.length,
        dbCpuMs: dbBefore === undefined || dbAfter === undefined ? undefined : ((dbAfter - dbBefore) * 1000) / runs.length
      }
      reads[label] = figure
      console.log(
        `${label.padEnd(38)}${f(figure.p50)} ms${f(figure.p95)} ms  ${String(figure.n).padStart(4)}${figure.kb.toFixed(0).padStart(7)} kB` +
          `${f(figure.cpuMs)} /${figure.dbCpuMs === undefined ? "      n/a" : f(figure.dbCpuMs)}${f(figure.firstMs)} ms` +
          `${figure.p95 > TARGET_MS ? "  over 100 ms" : ""}${note === "" ? "" : `  (${note})`}`
      )
    }
    return {
      calls,
      tenants,
      tenantCalls,
      seedS,
      rebuildMs,
      rebuildServiceMs: rebuilt.duration_ms as number,
      rebuildRows: rebuilt.rows_written as number,
      reads
    } satisfies RunFigures
  }).pipe(
    Effect.scoped,
    Effect.provide(TrendsQueries.Default),
    Effect.provide(database),
    Effect.provide(NodeHttpClient.layerUndici),
    Effect.ensuring(Effect.sync(() => rmSync(blobDir, { recursive: true, force: true })))
  )
}

const main = Effect.gen(function* () {
  console.log(`scale benchmark: ${SIZES.join(", ")} calls × ${TENANTS.join(", ")} tenant(s), ${READS} reads each; PostgreSQL`)
  const t0 = performance.now()
  const templates = analysedTemplates(TEMPLATES)
  const bytes = templates.map((t) => JSON.stringify(t.result).length)
  console.log(
    `${templates.length} real analyses as templates in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
      `(${Math.round(bytes.reduce((a, b) => a + b, 0) / bytes.length / 1024)} kB of JSON each on average)`
  )
  const runs: Array<RunFigures> = []
  for (const tenants of TENANTS) {
    for (const calls of SIZES) runs.push(yield* runOne(calls, tenants, templates))
  }

  // the summary: every read, every run
  const labels = [...new Set(runs.flatMap((r) => Object.keys(r.reads)))]
  const head = runs.map((r) => `${r.calls / 1000}k/${r.tenants}t`.padStart(17)).join("")
  console.log(`\nsummary: p50 / p95 in ms (calls/tenants)\n${"read".padEnd(38)}${head}`)
  for (const label of labels) {
    console.log(label.padEnd(38) + runs.map((r) => {
      const x = r.reads[label]
      return (x === undefined ? "-" : `${x.p50.toFixed(1)} / ${x.p95.toFixed(1)}${x.p95 > TARGET_MS ? "!" : " "}`).padStart(17)
    }).join(""))
  }
  console.log("market-intel rebuild".padEnd(38) + runs.map((r) => `${(r.rebuildMs / 1000).toFixed(2)} s`.padStart(17)).join(""))
  for (const tenants of TENANTS) {
    const these = runs.filter((r) => r.tenants === tenants).sort((a, b) => a.calls - b.calls)
    const base = these[0]
    for (const r of these.slice(1)) {
      console.log(
        `rebuild growth, ${tenants} tenant(s): ${base!.calls} → ${r.calls} calls (×${(r.calls / base!.calls).toFixed(1)}): ` +
          `×${(r.rebuildMs / base!.rebuildMs).toFixed(1)} in time (${(base!.rebuildMs / 1000).toFixed(2)} s → ${(r.rebuildMs / 1000).toFixed(2)} s)`
      )
    }
  }
  const over = runs.flatMap((r) => Object.entries(r.reads).filter(([, x]) => x.p95 > TARGET_MS).map(([l, x]) => `${l} at ${r.calls}/${r.tenants}t (${x.p95.toFixed(0)} ms)`))
  console.log(over.length === 0 ? `every read's p95 ≤ ${TARGET_MS} ms` : `over ${TARGET_MS} ms at p95: ${over.join("; ")}`)
  if (process.env.SCALE_OUT !== undefined) writeFileSync(process.env.SCALE_OUT, JSON.stringify(runs, null, 2))
}).pipe(Effect.provide(Logger.minimumLogLevel(LogLevel.Error)))

NodeRuntime.runMain(main)
