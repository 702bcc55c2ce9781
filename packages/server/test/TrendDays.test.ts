/**
 * `trend_days` (migration 0032, docs/trends.md "How it is counted"): the trends' numbers per tenant,
 * closer and UTC day, kept in step with `calls` by statement triggers whoever writes. After every
 * kind of write (calls inserted, analysed again, moved to another closer or day, failed, deleted,
 * many at once, a tenant deleted), the table holds exactly what `trend_day_rows` sums from the calls
 * as they are; and two transactions completing calls of the same day at once (PostgreSQL) both count.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestDatabase } from "./utils/TestDatabase.js"

const DAY = 86_400_000
/** A stored analysis with `n` of each counted part (objections of two kinds, a pain, dated steps, scores). */
const result = (n: number, overall: number | null) =>
  JSON.stringify({
    objections: Array.from({ length: n }, (_, i) => ({ kind: i % 2 === 0 ? "price" : "timing", response: i === 0 ? "other" : "answered" })),
    summary: { needs: Array.from({ length: n % 3 }, () => ({ kind: "pain", text: "slow onboarding" })) },
    next_steps: Array.from({ length: n % 2 + 1 }, (_, i) => ({ action: "send the proposal", due: i === 0 ? "next Friday" : "" })),
    scorecard: { overall, dimensions: [{ dimension: "discovery", score: 40 + n }, { dimension: "listening", score: null }] }
  })

/** The rows the table holds and the rows summed afresh from `calls`, each as sorted JSON text. */
const tableAndFresh = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const table = yield* sql<{ r: string }>`SELECT to_jsonb(d)::text AS r FROM trend_days d ORDER BY 1`
  const fresh = yield* sql<{ r: string }>`
    SELECT to_jsonb(d)::text AS r
    FROM (SELECT t.client_id, x.* FROM tenants t, LATERAL trend_day_rows(t.client_id, '-infinity', 'infinity') x) d ORDER BY 1`
  return { table: table.map((x) => x.r), fresh: fresh.map((x) => x.r) }
})

const expectInStep = Effect.gen(function* () {
  const { fresh, table } = yield* tableAndFresh
  expect(table).toEqual(fresh)
  return table.length
})

let seq = 0
const insertCall = (clientId: string, options: { closer: string | null; at: number; n: number; overall?: number | null; status?: string }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_td_${seq++}`
    const status = options.status ?? "completed"
    yield* sql`INSERT INTO calls (call_id, client_id, closer_email, status, format, blob_key, size_bytes, sha256, created_at, result)
               VALUES (${callId}, ${clientId}, ${options.closer}, ${status}, 'mp3', 'x', 1, 'x', ${new Date(options.at).toISOString()},
                       ${status === "completed" ? result(options.n, options.overall ?? 50 + options.n) : null}::jsonb)`
    return callId
  })

describe("trend_days", () => {
  it.layer(TestDatabase.layer, { timeout: 60_000 })((it) => {
    it.effect("follows every write to calls: inserts, analyses again, closers and days changed, failures, deletes, a tenant deleted", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES ('cli_td1', 'One', 'growth'), ('cli_td2', 'Two', 'growth')`
        const day0 = Math.floor(Date.now() / DAY) * DAY - 3 * DAY
        const ids: Array<string> = []
        // 3 days, 3 closers (one spelled in two cases, one call without a closer), 14 calls a day, equal times on day 1
        for (let d = 0; d < 3; d++) {
          for (let i = 0; i < 14; i++) {
            const closer = i % 7 === 6 ? null : ["ana@t.test", "Ana@T.test", "bo@t.test", "cy@t.test"][i % 4]!
            ids.push(yield* insertCall("cli_td1", { closer, at: day0 + d * DAY + (d === 1 ? 3_600_000 : i * 60_000), n: i % 5 }))
          }
        }
        yield* insertCall("cli_td2", { closer: "ana@t.test", at: day0, n: 2 })
        yield* insertCall("cli_td1", { closer: "ana@t.test", at: day0, n: 1, status: "queued" })
        const rows = yield* expectInStep
        expect(rows).toBeGreaterThanOrEqual(3 * 4 + 1)
        // what a day holds: the sums of its calls, and each number's newest 10 of the day
        const [ana] = yield* sql<{ n_calls: number; s_objections: number; ids: Array<string>; metrics: Array<number> }>`
          SELECT n_calls, s_objections, ids, metrics FROM trend_days WHERE client_id = 'cli_td1' AND ck = 'ana@t.test' AND day = ${new Date(day0).toISOString().slice(0, 10)}::date`
        expect(ana!.n_calls).toBe(7) // i % 4 = 0 or 1, but not i % 7 = 6: 0, 1, 4, 5, 8, 9, 12
        expect(ana!.s_objections).toBe([0, 1, 4, 5, 8, 9, 12].reduce((s, i) => s + (i % 5), 0))
        expect(ana!.ids.length).toBe(ana!.metrics.length)

        // analysed again, moved to another closer, to another day, failed, completed, deleted
        yield* sql`UPDATE calls SET result = ${result(4, 12)}::jsonb WHERE call_id = ${ids[0]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET closer_email = 'dee@t.test' WHERE call_id = ${ids[1]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET meeting_at = ${new Date(day0 + 2 * DAY + 5_000).toISOString()} WHERE call_id = ${ids[2]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET status = 'failed', result = NULL WHERE call_id = ${ids[3]!}`
        yield* expectInStep
        yield* sql`UPDATE calls SET status = 'completed', result = ${result(3, 77)}::jsonb WHERE status = 'queued'`
        yield* expectInStep
        yield* sql`DELETE FROM calls WHERE call_id = ${ids[4]!}`
        yield* expectInStep
        // many rows in one statement, and a write that changes nothing counted
        yield* sql`UPDATE calls SET closer_email = upper(closer_email) WHERE client_id = 'cli_td1' AND closer_email LIKE 'b%'`
        yield* expectInStep
        const before = (yield* tableAndFresh).table
        yield* sql`UPDATE calls SET stage = 'done' WHERE client_id = 'cli_td1'`
        expect((yield* tableAndFresh).table).toEqual(before)
        // a day emptied leaves no row
        yield* sql`DELETE FROM calls WHERE client_id = 'cli_td1' AND created_at < ${new Date(day0 + DAY).toISOString()} AND meeting_at IS NULL`
        yield* expectInStep
        const [{ n }] = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM trend_days WHERE client_id = 'cli_td1' AND day = ${new Date(day0).toISOString().slice(0, 10)}::date`) as [{ n: number }]
        expect(n).toBe(0)
        yield* sql`DELETE FROM tenants WHERE client_id = 'cli_td2'`
        yield* expectInStep
        expect((yield* sql`SELECT 1 FROM trend_days WHERE client_id = 'cli_td2'`).length).toBe(0)
      }))
  })

  it.scopedLive.skipIf(TestDatabase.testServerUrl() === undefined)(
    "two transactions completing calls of the same day at once both count (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tenants (client_id, company_name, plan) VALUES ('cli_tdc', 'Con', 'growth')`
        const at = Math.floor(Date.now() / DAY) * DAY - DAY + 3_600_000
        const a = yield* insertCall("cli_tdc", { closer: "ana@t.test", at, n: 1, status: "queued" })
        const b = yield* insertCall("cli_tdc", { closer: "ana@t.test", at: at + 1000, n: 1, status: "queued" })
        const complete = (callId: string, holdMs: number) =>
          sql.withTransaction(Effect.gen(function* () {
            yield* sql`UPDATE calls SET status = 'completed', result = ${result(2, 60)}::jsonb WHERE call_id = ${callId}`
            yield* Effect.sleep(holdMs)
          }))
        // the first holds its transaction open while the second completes its call
        yield* Effect.all([complete(a, 500), Effect.zipRight(Effect.sleep(100), complete(b, 0))], { concurrency: 2 })
        const [row] = yield* sql<{ n_calls: number }>`SELECT n_calls FROM trend_days WHERE client_id = 'cli_tdc'`
        expect(row?.n_calls).toBe(2)
        yield* expectInStep
      }).pipe(Effect.provide(TestDatabase.layer)),
    60_000
  )
})
