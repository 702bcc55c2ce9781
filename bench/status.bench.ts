/**
 * Status-poll benchmark: agents poll `GET /analysis/{call_id}` in loops, so every request's fixed
 * cost matters. One run, one machine, one PostgreSQL database:
 *
 * - the baseline: bare `node:http` + `pg` with the same two queries and pool size
 *   (bench/bare-status-server.mjs), and its `/health`;
 * - `callsight serve --no-worker` (from the build, rebuilt first when stale), its status poll of
 *   a completed call (with a whole stored analysis behind it) and its `/health`.
 *
 * Each is loaded with autocannon from this process at 50 and 200 connections (2 s of warm-up, then
 * DURATION_S seconds); req/s, p50 and p99 are printed with the service's share of the baseline.
 * Targets (issue 11): the poll at ≥ 50 % of the baseline's req/s at 50 connections and p99 ≤ 60 ms
 * at 200; `/health` at ≥ 60 % of bare Node's.
 *
 *   npx tsx bench/status.bench.ts        (PostgreSQL: TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_SERVICE_ROOT=/path/to/another/checkout measures that checkout's service instead (its
 * build), against the same baseline: before and after a change, in one sitting.
 */
import autocannon from "autocannon"
import { type ChildProcess, fork, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, "..")
const serviceRoot = path.resolve(process.env.BENCH_SERVICE_ROOT ?? root)
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10)
const ADMIN_KEY = `csa_bench_${Date.now()}`
const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"
const dbName = `callsight_bench_${process.pid}`
const dbUrl = `${serverUrl.replace(/\/[^/]*$/, "")}/${dbName}`

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const waitReady = async (url: string, child: ChildProcess, what: string) => {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before it was ready`)
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return
    } catch {
      // not listening yet
    }
    await sleep(200)
  }
  throw new Error(`${what} was not ready in 120 s`)
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref()
  })

/** `callsight serve` from the build (scripts/start.mjs rebuilds it when a source changed). */
const startService = async (port: number, dataDir: string, args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, [path.join(serviceRoot, "scripts/start.mjs"), ...args], {
    cwd: serviceRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: dbUrl,
      DATA_DIR: dataDir,
      ADMIN_API_KEY: ADMIN_KEY,
      SECRETS_KEY: randomBytes(32).toString("base64"),
      LOG_FORMAT: "json",
      NODE_ENV: "production",
      // production does not start without a mail transport; the bench sends no mail (nodemailer
      // connects only to send), so a port where nothing listens will do
      SMTP_URL: "smtp://127.0.0.1:9"
    },
    // the request log goes to a pipe, as in production, and is drained
    stdio: ["ignore", "pipe", "inherit"]
  })
  child.stdout!.resume()
  await waitReady(`http://127.0.0.1:${port}/ready`, child, "callsight serve")
  return child
}

/** A tenant with a completed call (its whole analysis stored), analysed by the service's own worker. */
const seed = async (base: string) => {
  const created = await (await fetch(`${base}/v1/internal/admin/clients`, {
    method: "POST",
    headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
    body: JSON.stringify({ company_name: "Bench", credits: 10 })
  })).json() as { api_key: string }
  const form = new FormData()
  form.append("audio", new Blob([readFileSync(path.join(root, "test/fixtures/discovery-short.wav"))]), "call.wav")
  const accepted = await (await fetch(`${base}/v1/teams/audio`, {
    method: "POST",
    headers: { "x-api-key": created.api_key },
    body: form
  })).json() as { call_id: string }
  for (let i = 0; i < 600; i++) {
    const status = await (await fetch(`${base}/analysis/${accepted.call_id}`, { headers: { "x-api-key": created.api_key } })).json() as {
      status: string
    }
    if (status.status === "completed") return { apiKey: created.api_key, callId: accepted.call_id }
    if (status.status === "failed") throw new Error("the seed call failed")
    await sleep(250)
  }
  throw new Error("the seed call did not complete in 150 s")
}

interface Load {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
}

const load = async (url: string, connections: number, headers: Record<string, string> = {}): Promise<Load> => {
  await autocannon({ url, connections, duration: 2, headers })
  const result = await autocannon({ url, connections, duration: DURATION_S, headers })
  const errors = result.errors + result.timeouts + result.non2xx
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors }
}

const row = (name: string, l: Load, baseline?: Load) =>
  `${name.padEnd(52)} ${l.rps.toFixed(0).padStart(8)} req/s  p50 ${String(l.p50).padStart(4)} ms  p99 ${
    String(l.p99).padStart(4)
  } ms${l.errors > 0 ? `  (${l.errors} errors)` : ""}${baseline === undefined ? "" : `  ${((100 * l.rps) / baseline.rps).toFixed(0)} % of bare`}`

const main = async () => {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${dbName}`)
  const dataDir = await mkdtemp(path.join(tmpdir(), "callsight-bench-"))
  const children: Array<ChildProcess> = []
  try {
    // the schema and a completed call, made by the service itself (workers on for the seed only)
    const seedPort = await freePort()
    const seeder = await startService(seedPort, dataDir, [])
    const { apiKey, callId } = await seed(`http://127.0.0.1:${seedPort}`)
    await stop(seeder)

    const barePort = await freePort()
    const bare = fork(path.join(here, "bare-status-server.mjs"), [], {
      env: { ...process.env, PORT: String(barePort), DATABASE_URL: dbUrl, DB_POOL_MAX: "10" }
    })
    children.push(bare)
    await waitReady(`http://127.0.0.1:${barePort}/health`, bare, "the bare server")
    const servicePort = await freePort()
    const service = await startService(servicePort, dataDir, ["--no-worker"])
    children.push(service)

    const key = { "x-api-key": apiKey }
    const bareUrl = `http://127.0.0.1:${barePort}`
    const serviceUrl = `http://127.0.0.1:${servicePort}`
    console.log(`status poll of a completed call, ${DURATION_S} s per line after 2 s of warm-up; one machine, one database`)
    console.log(`service: ${serviceRoot}\n`)
    for (const connections of [50, 200]) {
      const base = await load(`${bareUrl}/analysis/${callId}`, connections, key)
      const ours = await load(`${serviceUrl}/analysis/${callId}`, connections, key)
      console.log(row(`bare node:http + pg, ${connections} connections`, base))
      console.log(row(`callsight GET /analysis/{call_id}, ${connections} connections`, ours, base))
    }
    const bareHealth = await load(`${bareUrl}/health`, 50)
    const health = await load(`${serviceUrl}/health`, 50)
    console.log(row("bare node:http /health, 50 connections", bareHealth))
    console.log(row("callsight GET /health, 50 connections", health, bareHealth))
  } finally {
    await Promise.all(children.map(stop))
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await admin.end()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
