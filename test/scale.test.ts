/**
 * The shape an operator runs at scale (docs/operations.md): one `callsight serve
 * --no-worker` and two `callsight worker` processes, each with its own DATA_DIR and BLOB_DIR, on one
 * PostgreSQL database with the audio in an S3 bucket (s3rver, in this process). 30 calls are
 * uploaded; one worker is SIGKILLed while it holds a call in `processing`; the other takes that job
 * up once its lease (WORKER_LEASE_SECONDS=6) runs out and analyses the rest. Then: 30 calls
 * completed, 30 `analysis` charges (one per call, the balance exactly used up), one
 * `analysis_completed` event per call, every job claimed once except the killed worker's (claimed
 * twice), and the bucket holding exactly the 30 calls' objects and nothing under `tmp/`.
 *
 * It needs a PostgreSQL server it may create a database on (`callsight_scale_<random>`, dropped at
 * the end): `TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres` (CI sets it). The
 * embedded database opens in one process only, so without TEST_DATABASE_URL the test is skipped
 * (`describe.skipIf`, with a warning), unless `CI` is set: then it fails.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx vitest run test/scale.test.ts
 *
 * It runs the built executable (packages/cli/dist): `npm test` builds first; run `npm run build`
 * before running this file alone.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, ManagedRuntime, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { S3_ACCESS_KEY, S3_SECRET_KEY, startS3Server } from "../packages/server/test/utils/S3Server.js"
import { FIXTURES } from "./utils/Audio.js"
import { freePort, ROOT, type RunningCli, startCli } from "./utils/Server.js"

const SERVER_URL = process.env.TEST_DATABASE_URL || undefined
const RUNS = SERVER_URL !== undefined || Boolean(process.env.CI)
if (!RUNS) {
  console.warn(
    "test/scale.test.ts skipped: it needs PostgreSQL (serve and two workers share one database); " +
      "set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres"
  )
}

const CALLS = 30
/** The shortest fixture call (55 s, 331 kB): analysed in well under a second. */
const FIXTURE = join(FIXTURES, "renewal-stereo.mp3")
const BUCKET = "callsight-scale"
const PREFIX = "callsight/"
const LEASE_SECONDS = 6
/** The longest the 30 analyses may take after the kill. */
const COMPLETION_LIMIT_MS = 240_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `probe` every `everyMs` until it answers a value other than `undefined`; fails after `limitMs`. */
const until = async <A>(what: string, limitMs: number, everyMs: number, probe: () => Promise<A | undefined>): Promise<A> => {
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs / 1000} s waiting for ${what}`)
    await sleep(everyMs)
  }
}

/** One statement on the server's own database (CREATE / DROP DATABASE), over a connection of its own. */
const onServer = (serverUrl: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, SqlError.SqlError>) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, statement).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1, applicationName: "callsight-scale-test" }))
    )
  )

/** The children started (killed by pid at the end) and their exits; what else to undo, newest last. */
const processes: Array<RunningCli> = []
const exits = new Map<number, unknown>()
const cleanups: Array<() => Promise<unknown>> = []
const alive = (child: RunningCli) => !exits.has(child.pid)

/**
 * Kills every child still running by its pid (a SIGSTOPped one dies by SIGKILL all the same), then
 * drops the database, stops the S3 server and removes the directories. Each step runs once: from
 * the test's `finally`, and from `afterAll` should the test time out while still waiting.
 */
const cleanUp = async () => {
  for (const child of processes.splice(0)) {
    if (alive(child)) {
      try {
        process.kill(child.pid, "SIGKILL")
      } catch {
        // already gone
      }
      await Promise.race([child.exited, sleep(10_000)])
    }
  }
  for (let cleanup = cleanups.pop(); cleanup !== undefined; cleanup = cleanups.pop()) {
    await cleanup().catch((e: unknown) => console.warn("scale test cleanup:", e))
  }
}
afterAll(cleanUp)

describe.skipIf(!RUNS)("at scale: serve --no-worker, two workers, PostgreSQL, S3", () => {
  it(`${CALLS} uploads, one worker SIGKILLed mid-analysis: ${CALLS} completed, ${CALLS} credits, no job run twice`, { timeout: 600_000 }, async () => {
    if (SERVER_URL === undefined) throw new Error("CI is set but TEST_DATABASE_URL is not: this test needs PostgreSQL")
    if (!existsSync(join(ROOT, "packages/cli/dist/main.js"))) {
      throw new Error("packages/cli/dist/main.js is missing: run `npm run build` first")
    }
    const started = Date.now()
    const timings: Record<string, number> = {}
    const mark = (name: string) => (timings[name] = Math.round((Date.now() - started) / 100) / 10)

    const spawnCli = (args: ReadonlyArray<string>, env: Record<string, string>) => {
      const child = startCli(args, env)
      processes.push(child)
      void child.exited.then((exit) => exits.set(child.pid, exit))
      return child
    }
    const outputs = () => processes.map((p) => `--- pid ${p.pid}:\n${p.output().slice(-4000)}`).join("\n")

    try {
      // The database: fresh on the test server, dropped at the end.
      const name = `callsight_scale_${randomBytes(8).toString("hex")}`
      await onServer(SERVER_URL, (sql) => sql`CREATE DATABASE ${sql(name)}`)
      cleanups.push(() => onServer(SERVER_URL, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`))
      const databaseUrl = new URL(SERVER_URL)
      databaseUrl.pathname = `/${name}`
      const db = ManagedRuntime.make(
        PgClient.layer({ url: Redacted.make(databaseUrl.toString()), maxConnections: 2, applicationName: "callsight-scale-test" })
      )
      cleanups.push(() => db.dispose())
      const query = <R extends object>(text: string, params: ReadonlyArray<string | number> = []) =>
        db.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<R>(text, params)))

      // The bucket: s3rver in this process, path-style, us-east-1.
      const s3Scope = Effect.runSync(Scope.make())
      cleanups.push(() => Effect.runPromise(Scope.close(s3Scope, Exit.void)))
      const s3 = await Effect.runPromise(Scope.extend(startS3Server([BUCKET]), s3Scope))

      // Each process its own DATA_DIR and BLOB_DIR, as on separate machines: only the database and the bucket are shared.
      const port = await freePort()
      const url = `http://127.0.0.1:${port}`
      const adminKey = `adm_${randomBytes(18).toString("base64url")}`
      const shared = {
        DATABASE_URL: databaseUrl.toString(),
        ADMIN_API_KEY: adminKey,
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: "us-east-1",
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: PREFIX,
        S3_ACCESS_KEY_ID: S3_ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: S3_SECRET_KEY,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
        WORKER_CONCURRENCY: "1",
        WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
        LOG_FORMAT: "json"
      }
      const ownDirs = async () => {
        const dir = await mkdtemp(join(tmpdir(), "callsight-scale-"))
        cleanups.push(() => rm(dir, { recursive: true, force: true }))
        return { DATA_DIR: join(dir, "data"), BLOB_DIR: join(dir, "blobs") }
      }

      // serve --no-worker first: it runs the migrations; the workers start on a migrated database.
      const serve = spawnCli(["serve", "--no-worker"], {
        ...shared,
        ...(await ownDirs()),
        PORT: String(port),
        HOST: "127.0.0.1",
        DB_POOL_MAX: "5"
      })
      await until("serve's /ready", 90_000, 200, async () => {
        if (!alive(serve)) throw new Error(`serve exited before it was ready:\n${outputs()}`)
        const ok = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status === 200, () => false)
        return ok ? true : undefined
      })
      mark("serve ready")

      const workerDirs = [await ownDirs(), await ownDirs()]
      const [victim, survivor] = workerDirs.map((dirs) => spawnCli(["worker"], { ...shared, ...dirs, DB_POOL_MAX: "3" }))
      const workerIds = await until("both workers' heartbeats", 90_000, 200, async () => {
        for (const w of [victim, survivor]) if (!alive(w)) throw new Error(`a worker exited at start-up:\n${outputs()}`)
        const rows = await query<{ worker_id: string; pid: number }>(
          "SELECT worker_id, pid FROM worker_heartbeats WHERE pid = ANY($1::int[])",
          [`{${victim.pid},${survivor.pid}}`]
        ).catch(() => [])
        const of = (pid: number) => rows.find((r) => r.pid === pid)?.worker_id
        const [a, b] = [of(victim.pid), of(survivor.pid)]
        return a !== undefined && b !== undefined ? { victim: a, survivor: b } : undefined
      })
      mark("workers ready")

      // The tenant: exactly one credit per call, on a plan whose monthly ingests (2000) do not limit the 30.
      const tenant = await fetch(`${url}/v1/internal/admin/clients`, {
        method: "POST",
        headers: { "x-api-key": adminKey, "content-type": "application/json" },
        body: JSON.stringify({ company_name: "Scale Test", credits: CALLS, plan: "scale" }),
        signal: AbortSignal.timeout(30_000)
      }).then(async (r) => {
        expect(r.status, await r.clone().text()).toBe(201)
        return (await r.json()) as { client_id: string; api_key: string }
      })

      // 30 uploads, six at a time, through the HTTP-only process into the bucket.
      const audio = readFileSync(FIXTURE)
      const externalIds = Array.from({ length: CALLS }, (_, i) => `scale-${String(i + 1).padStart(2, "0")}`)
      const callIds: Array<string> = []
      const upload = async (externalId: string) => {
        const form = new FormData()
        form.append("audio", new Blob([audio]), `${externalId}.mp3`)
        form.append("external_call_id", externalId)
        const response = await fetch(`${url}/v1/teams/audio`, {
          method: "POST",
          headers: { "x-api-key": tenant.api_key },
          body: form,
          signal: AbortSignal.timeout(60_000)
        })
        const body = await response.text()
        expect(response.status, body).toBe(202)
        callIds.push((JSON.parse(body) as { call_id: string }).call_id)
      }
      const queue = [...externalIds]
      await Promise.all(Array.from({ length: 6 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) await upload(next)
      }))
      expect(new Set(callIds).size).toBe(CALLS)
      mark("uploaded")

      // The kill: once a third of the calls are done, when the victim holds a call in `processing`. The
      // victim is frozen (SIGSTOP) while that is checked again, so it cannot finish the call in between.
      // Meanwhile, which worker was seen running which call (each of them runs some).
      const seenRunning = new Map<string, Set<string>>([[workerIds.victim, new Set()], [workerIds.survivor, new Set()]])
      const holding = `SELECT j.call_id FROM analysis_jobs j JOIN calls c USING (call_id)
                       WHERE j.state = 'running' AND j.lease_owner = $1 AND c.status = 'processing'`
      const killedHolding = await until("the victim worker holding a call in processing", 120_000, 10, async () => {
        if (!alive(victim)) throw new Error(`the victim worker exited by itself:\n${outputs()}`)
        const running = await query<{ call_id: string; lease_owner: string }>(
          "SELECT call_id, lease_owner FROM analysis_jobs WHERE state = 'running'"
        )
        for (const r of running) seenRunning.get(r.lease_owner)?.add(r.call_id)
        const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM calls WHERE status = 'completed'")
        if (n < CALLS / 3) return undefined
        if ((await query<{ call_id: string }>(holding, [workerIds.victim])).length === 0) return undefined
        process.kill(victim.pid, "SIGSTOP")
        const held = await query<{ call_id: string }>(holding, [workerIds.victim])
        if (held.length === 0) {
          process.kill(victim.pid, "SIGCONT")
          return undefined
        }
        process.kill(victim.pid, "SIGKILL")
        return { callId: held[0]!.call_id, completedBefore: n, at: new Date() }
      })
      const victimExit = await Promise.race([victim.exited, sleep(10_000).then(() => "still running" as const)])
      expect(victimExit).toEqual({ code: null, signal: "SIGKILL" })
      mark("victim killed")

      // What the dead worker held: its one job (WORKER_CONCURRENCY=1), running under a lease no one renews any more.
      const held = await query<{ call_id: string; attempts: number }>(
        "SELECT call_id, attempts FROM analysis_jobs WHERE state = 'running' AND lease_owner = $1",
        [workerIds.victim]
      )
      expect(held).toEqual([{ call_id: killedHolding.callId, attempts: 1 }])

      // The survivor finishes everything, the dead worker's job after its lease ran out.
      const counts = await until(`${CALLS} calls completed`, COMPLETION_LIMIT_MS, 500, async () => {
        if (!alive(survivor)) throw new Error(`the surviving worker exited:\n${outputs()}`)
        if (!alive(serve)) throw new Error(`serve exited:\n${outputs()}`)
        const rows = await query<{ status: string; n: number }>("SELECT status, count(*)::int AS n FROM calls GROUP BY status")
        const by = Object.fromEntries(rows.map((r) => [r.status, r.n]))
        if ((by.failed ?? 0) > 0) throw new Error(`calls failed: ${JSON.stringify(by)}\n${outputs()}`)
        return by.completed === CALLS ? by : undefined
      }).catch((error: Error) => {
        throw new Error(`${error.message}\n${outputs()}`)
      })
      mark("all completed")
      expect(counts).toEqual({ completed: CALLS })

      // The calls: all 30, completed, each with its own external id.
      const calls = await query<{ call_id: string; external_call_id: string; status: string; blob_key: string }>(
        "SELECT call_id, external_call_id, status, blob_key FROM calls WHERE client_id = $1 ORDER BY external_call_id",
        [tenant.client_id]
      )
      expect(calls.map((c) => c.external_call_id)).toEqual(externalIds)
      expect(new Set(calls.map((c) => c.call_id))).toEqual(new Set(callIds))
      expect(calls.every((c) => c.status === "completed")).toBe(true)

      // The credits: one `analysis` charge of 1 per call, the 30 granted exactly used up.
      const charges = await query<{ call_id: string; delta: number }>(
        "SELECT call_id, delta FROM credit_ledger WHERE reason = 'analysis' AND client_id = $1",
        [tenant.client_id]
      )
      expect(charges).toHaveLength(CALLS)
      expect(new Set(charges.map((c) => c.call_id))).toEqual(new Set(callIds))
      expect(charges.every((c) => c.delta === -1)).toBe(true)
      const [{ balance }] = await query<{ balance: number }>(
        "SELECT COALESCE(sum(delta), 0)::int AS balance FROM credit_ledger WHERE client_id = $1",
        [tenant.client_id]
      )
      expect(balance).toBe(0)

      // The events: one analysis_completed per call, no failure.
      const events = await query<{ call_id: string; type: string; n: number }>(
        `SELECT call_id, type, count(*)::int AS n FROM call_events
         WHERE type IN ('analysis_completed', 'analysis_failed') GROUP BY call_id, type`
      )
      expect(events).toHaveLength(CALLS)
      expect(events.every((e) => e.type === "analysis_completed" && e.n === 1)).toBe(true)

      // The jobs: all done; claimed once each, but the dead worker's job: twice (its run, and the survivor's).
      const jobs = await query<{ call_id: string; state: string; attempts: number }>(
        "SELECT call_id, state, attempts FROM analysis_jobs"
      )
      expect(jobs).toHaveLength(CALLS)
      expect(jobs.every((j) => j.state === "done")).toBe(true)
      const reclaimed = jobs.filter((j) => j.attempts !== 1)
      expect(reclaimed).toEqual([{ call_id: killedHolding.callId, state: "done", attempts: 2 }])
      // Both workers ran calls to the end: the victim before it died (claimed once: finished by it).
      const victimFinished = [...seenRunning.get(workerIds.victim)!].filter((id) => id !== killedHolding.callId)
      expect(victimFinished.length).toBeGreaterThan(0)
      expect(seenRunning.get(workerIds.survivor)!.size).toBeGreaterThan(0)
      // No worker lost a lease to another: no job was ever being run by two at once.
      for (const p of [serve, survivor]) expect(p.output()).not.toMatch(/lease lost/)

      const [{ completed_at }] = await query<{ completed_at: Date }>("SELECT completed_at FROM calls WHERE call_id = $1", [
        killedHolding.callId
      ])
      const reclaimedAfterS = Math.round((completed_at.getTime() - killedHolding.at.getTime()) / 100) / 10

      // What the API answers for each call, through the HTTP-only process.
      for (const callId of callIds) {
        const status = await fetch(`${url}/analysis/${callId}`, {
          headers: { "x-api-key": tenant.api_key },
          signal: AbortSignal.timeout(10_000)
        }).then((r) => r.json() as Promise<{ status: string; credits_charged: number }>)
        expect(status, callId).toMatchObject({ status: "completed", credits_charged: 1 })
      }

      // The bucket: exactly the 30 calls' objects under the prefix, nothing under tmp/, nothing else.
      const objects = await Effect.runPromise(s3.list(""))
      const keys = objects.map((o) => o.Key ?? "").sort()
      expect(keys.filter((k) => k.startsWith(`${PREFIX}tmp/`))).toEqual([])
      expect(keys).toEqual(calls.map((c) => `${PREFIX}${c.blob_key}`).sort())
      expect(keys.every((k) => k.startsWith(`${PREFIX}${tenant.client_id}/`) && k.endsWith(".mp3"))).toBe(true)
      // The survivor's local copies were all removed after their analyses.
      const survivorTmp = join(workerDirs[1]!.BLOB_DIR, "tmp")
      expect(existsSync(survivorTmp) ? readdirSync(survivorTmp) : []).toEqual([])

      // A clean stop of the others.
      for (const p of [survivor, serve]) expect(await p.stop(20_000), outputs()).toEqual({ code: 0, signal: null })
      mark("stopped")
      console.info(
        `scale test: ${JSON.stringify(timings)} (s since start); victim killed after ${killedHolding.completedBefore} ` +
          `completed, holding ${killedHolding.callId} (completed by the survivor ${reclaimedAfterS} s after the kill); ` +
          `seen running: victim ${victimFinished.length} others, survivor ${seenRunning.get(workerIds.survivor)!.size}`
      )
    } finally {
      await cleanUp()
    }
  })
})
