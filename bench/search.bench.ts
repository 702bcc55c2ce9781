/**
 * Workspace search benchmark (issue 16): one tenant with BENCH_SIZES calls (1,000 then 10,000),
 * each completed with a generated transcript of about 300 words in 20 segments, its closer and
 * external id, an outcome note on one call in five; a second tenant with a tenth as many calls of
 * the same words (its rows are in the indexes, never in the answers). Each size gets a fresh
 * database (PostgreSQL: TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
 * BENCH_DB=pglite: the embedded database), the migrations, the data, ANALYZE, then the search
 * service (`Search.search`, the statement and decoding the handler runs; HTTP adds no query) with
 * a mix of queries BENCH_READS times each (after 3 warm-up runs): common and rare words, a phrase,
 * `-word`, `or`, an external id, a word found nowhere. p50 and p95 per query and over all.
 * Target: p95 under 50 ms at 10,000 calls. Not part of `npm run bench` (seeding takes a while):
 *
 *   npx tsx --conditions=source bench/search.bench.ts
 *   BENCH_DB=pglite BENCH_SIZES=1000,10000 npx tsx --conditions=source bench/search.bench.ts
 *
 * BENCH_KEEP_DB=1 keeps the PostgreSQL databases afterwards (their names are printed), to look at plans.
 */
import type { ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { performance } from "node:perf_hooks"
import { layerPglite, layerPostgres } from "../packages/server/src/db/Database.js"
import { runMigrations } from "../packages/server/src/db/Migrations.js"
import { Search } from "../packages/server/src/views/Search.js"

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000").split(",").map(Number)
const READS = Number(process.env.BENCH_READS ?? 50)
const usePglite = process.env.BENCH_DB === "pglite"
const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"

// A deterministic generator, so every run searches the same data.
let state = 0x2545f491
const random = () => {
  state ^= state << 13
  state ^= state >>> 17
  state ^= state << 5
  return (state >>> 0) / 4294967296
}
const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!

const FILLER = (
  "the a we you our your it is are to of and in for on with that this have be can will just so really think know " +
  "going team today week month next call time question right okay yes sure great good need want look make"
).split(" ")
// 1,500 made-up content words, drawn with a skew (a few common, most rare).
const SYLLABLES = ["ka", "lo", "mi", "tes", "ran", "vo", "qui", "del", "sor", "na", "pe", "tur", "gal", "ben", "xo"]
const CONTENT = Array.from({ length: 1500 }, (_, i) => {
  let n = i + 7
  let word = ""
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length]
    n = Math.floor(n / SYLLABLES.length)
  }
  return word
})
const SALES = ["pricing", "budget", "contract", "discount", "timeline", "renewal", "integration", "security", "onboarding", "champion"]
const skewed = () => CONTENT[Math.floor(CONTENT.length * random() ** 3)]!

const sentence = () =>
  Array.from({ length: 15 }, () => {
    const r = random()
    return r < 0.5 ? pick(FILLER) : r < 0.53 ? pick(SALES) : skewed()
  }).join(" ") + "."

const transcript = (sentences: number) =>
  Array.from({ length: sentences }, (_, i) => ({
    speaker: i % 2 === 0 ? "closer" : "prospect",
    start: i * 9,
    end: i * 9 + 8,
    text: sentence()
  }))

const QUERIES = [
  "pricing", // in most calls
  "pricing budget",
  "\"annual contract\"",
  "contract -discount",
  "security or onboarding",
  CONTENT[40]!, // common made-up word
  CONTENT[1400]!, // rare
  "EXT-000777", // an external id
  "zzyzx" // nowhere
]

const seed = (clientId: string, calls: number, prefix: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES (${clientId}, ${clientId}, 'scale')`
    const closers = Array.from({ length: 20 }, (_, i) => `closer${i}.${prefix}@bench.test`)
    for (const [i, email] of closers.entries()) {
      yield* sql`INSERT INTO closers (closer_id, client_id, email, full_name, status)
                 VALUES (${`clo_${prefix}_${i}`}, ${clientId}, ${email}, ${`Closer ${pick(CONTENT)} ${i}`}, 'active')`
    }
    const BATCH = 250
    for (let from = 0; from < calls; from += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, calls - from) }, (_, j) => {
        const n = from + j
        const segments = transcript(20)
        // one call in 50 says "annual contract" in a row
        if (n % 50 === 0) segments[3]!.text = `We want an annual contract. ${segments[3]!.text}`
        return {
          call_id: `call_${prefix}_${n}`,
          client_id: clientId,
          external_call_id: `EXT-${String(n).padStart(6, "0")}`,
          closer_email: closers[n % closers.length]!,
          status: "completed",
          format: "wav",
          blob_key: `blob/${prefix}/${n}`,
          size_bytes: 1,
          sha256: "x",
          created_at: new Date(Date.UTC(2026, 0, 1) + n * 3_600_000),
          result: JSON.stringify({ transcript: segments })
        }
      })
      yield* sql`INSERT INTO calls ${sql.insert(rows)}`
      const notes = rows.filter((_, j) => (from + j) % 5 === 0).map((r) => ({
        call_id: r.call_id,
        client_id: clientId,
        outcome: "lost",
        notes: `${sentence()} ${sentence()}`
      }))
      if (notes.length > 0) yield* sql`INSERT INTO outcome_truth ${sql.insert(notes)}`
    }
  })

const percentile = (xs: ReadonlyArray<number>, p: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const onServer = (statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, statement).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1 }))
  )

const databaseOf = (size: number) => {
  if (usePglite) return layerPglite({ dataDir: undefined })
  const name = `callsight_bench_search_${process.pid}_${size}`
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return Layer.unwrapScoped(
    Effect.acquireRelease(
      Effect.as(
        onServer((sql) => sql`CREATE DATABASE ${sql(name)}`),
        layerPostgres({ url: Redacted.make(url.toString()), maxConnections: 4, applicationName: "callsight-bench" })
      ),
      () =>
        process.env.BENCH_KEEP_DB === "1"
          ? Effect.sync(() => console.log(`kept the database ${name}`))
          : Effect.ignore(onServer((sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`))
    )
  )
}

const runSize = (size: number) =>
  Effect.gen(function* () {
    state = 0x2545f491 // each size its own data, whatever ran before
    yield* runMigrations
    const sql = yield* SqlClient.SqlClient
    const seeding = performance.now()
    yield* seed("cli_bench_a", size, "a")
    yield* seed("cli_bench_b", Math.ceil(size / 10), "b")
    yield* sql`ANALYZE`
    const words = yield* sql<{ words: number }>`
      SELECT round(avg(length(jsonb_path_query_array(result, '$.transcript[*].text')::text) / 6.0))::int AS words FROM calls`
    console.log(
      `\n${size} calls (+${Math.ceil(size / 10)} of another tenant), ~${words[0]!.words} words each: seeded in ` +
        `${((performance.now() - seeding) / 1000).toFixed(1)} s`
    )
    const search = yield* Search
    const all: Array<number> = []
    for (const q of QUERIES) {
      const times: Array<number> = []
      let total = 0
      for (let i = 0; i < READS + 3; i++) {
        const t0 = performance.now()
        const r = yield* search.search("cli_bench_a" as ClientId, { q, limit: 20 })
        const ms = performance.now() - t0
        total = r.total
        if (i >= 3) times.push(ms)
      }
      all.push(...times)
      console.log(
        `  ${JSON.stringify(q).padEnd(26)} hits ${String(total).padStart(6)}  p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms` +
          `  p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms`
      )
    }
    console.log(`  all queries: p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms`)
  }).pipe(Effect.provide(Layer.provideMerge(Search.Default, databaseOf(size))))

const main = Effect.gen(function* () {
  console.log(`workspace search on ${usePglite ? "PGlite" : "PostgreSQL"}, ${READS} reads per query`)
  for (const size of SIZES) yield* runSize(size)
}).pipe(Effect.provide(Logger.minimumLogLevel(LogLevel.Error)))

Effect.runPromise(main).catch((e) => {
  console.error(e)
  process.exit(1)
})
