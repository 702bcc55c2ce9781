/**
 * Status-poll benchmark: agents poll `GET /analysis/{call_id}` in loops, so every request's fixed
 * cost matters. One run, one machine, one PostgreSQL database, three servers answering the same
 * poll from the same two statements (the key by its SHA-256, the call's status row):
 *
 * - bare Node: `node:http` + `pg`, no framework (bench/bare-status-server.mjs);
 * - the stack floor: the smallest honest server on our stack, an `HttpApi` with one group as the
 *   Effect docs write one, `@effect/sql-pg`, no middleware, logging or tracing
 *   (bench/floor-status-server.ts);
 * - `callsight serve --no-worker` (from the build, rebuilt first when stale), with everything it
 *   does on every request: the request log, metrics, security headers, the policy.
 *
 * Each is loaded alone with autocannon from this process at 50 and 200 connections (2 s of warm-up,
 * then DURATION_S seconds): req/s, p50 and p99, and at 200 connections the p99 of the answers after
 * each connection's first and the slowest first answer apart (see `load`). Then a fixed number of requests (CPU_REQUESTS, at
 * 50 connections) is sent and the server's own CPU time (user + system, /proc/<pid>/stat) over them
 * is divided by their number: CPU µs per request, the figure least moved by a busy machine; and so is
 * PostgreSQL's over the same requests, when it runs on this machine (what the statements cost it:
 * on one machine the database, the server and the load share the cores). The
 * service's lines give its share of the floor and of bare Node. Targets (issue 39): the poll at
 * ≥ 0.85 × the floor's req/s at 50 connections, p99 at 200 ≤ 1.25 × the floor's; `/health` at
 * ≥ 0.85 × the floor's; no non-2xx.
 *
 *   npx tsx bench/status.bench.ts        (PostgreSQL: TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_SERVICE_ROOT=/path/to/another/checkout measures that checkout's service instead (its
 * build), against the same floor and baseline: before and after a change, in one sitting.
 * BENCH_PROFILE_DIR=dir writes the service's CPU profile there (`node --cpu-prof`, on its exit).
 */
import autocannon from "autocannon"
import { type ChildProcess, fork, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import pg from "pg"
import { benchDir, fixturesDir, freePort, postgresCpuSeconds, processCpuSeconds, repoRoot, serviceRoot, sleep, startService, stopChild, waitReady } from "./lib.js"

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10)
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 20_000)
const ADMIN_KEY = `csa_bench_${Date.now()}`
const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"
const dbName = `callsight_bench_${process.pid}`
const dbUrl = `${serverUrl.replace(/\/[^/]*$/, "")}/${dbName}`

const stop = (child: ChildProcess) => stopChild(child, 15_000)

/** `callsight serve` from the build on the bench's database, profiled when BENCH_PROFILE_DIR is set (not the seeder). */
const serve = (port: number, dataDir: string, args: ReadonlyArray<string>) =>
  startService({
    port,
    databaseUrl: dbUrl,
    dataDir,
    adminKey: ADMIN_KEY,
    args,
    nodeArgs: process.env.BENCH_PROFILE_DIR === undefined || args.length === 0
      ? []
      : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE_DIR)}`]
  })

/** A tenant with a completed call (its whole analysis stored), analysed by the service's own worker. */
const seed = async (base: string) => {
  const created = await (await fetch(`${base}/v1/internal/admin/clients`, {
    method: "POST",
    headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
    body: JSON.stringify({ company_name: "Bench", credits: 10 })
  })).json() as { api_key: string }
  const form = new FormData()
  form.append("audio", new Blob([readFileSync(path.join(fixturesDir, "discovery-short.wav"))]), "call.wav")
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
  /** p99 of the answers after each connection's first (the connections' start left out: see `load`). */
  readonly steadyP99: number
  /** The slowest first answer of a connection, and the median and 90th percentile of the first answers. */
  readonly firstMax: number
  readonly firstP50: number
  readonly firstP90: number
  readonly errors: number
}

const quantile = (sorted: ReadonlyArray<number>, q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? 0

/**
 * req/s, p50 and p99 of a timed load (autocannon's figures), and the p99 of the answers after each
 * connection's first apart. A server whose CPU is saturated accepts new connections slowly: Node
 * takes the connections waiting in the kernel's queue a few at a time while the connected clients
 * keep it busy, so the first request of the late ones waits seconds (seen here with plain
 * `node:http` spending 2 ms of CPU per request as much as with the stack floor and the service, and
 * never with bare Node, which is not CPU-bound at 200 connections). That start decides the whole
 * load's p99 at 200 connections, and varies from run to run with how saturated the server is; the
 * steady p99 is what a client that is already connected sees.
 */
const load = async (url: string, connections: number, headers: Record<string, string> = {}): Promise<Load> => {
  await autocannon({ url, connections, duration: 2, headers })
  const steady: Array<number> = []
  const first: Array<number> = []
  const result = await autocannon({
    url,
    connections,
    duration: DURATION_S,
    headers,
    setupClient: (client: { on: (event: "response", f: (status: number, bytes: number, ms: number) => void) => void }) => {
      let answered = 0
      client.on("response", (_status, _bytes, ms) => (answered++ === 0 ? first : steady).push(ms))
    }
  } as autocannon.Options)
  const errors = result.errors + result.timeouts + result.non2xx
  steady.sort((a, b) => a - b)
  first.sort((a, b) => a - b)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    steadyP99: Math.round(quantile(steady, 0.99)),
    firstMax: Math.round(first.at(-1) ?? 0),
    firstP50: Math.round(quantile(first, 0.5)),
    firstP90: Math.round(quantile(first, 0.9)),
    errors
  }
}

/** A process's CPU time so far (user + system), in µs, from /proc/<pid>/stat. */
const cpuUs = (pid: number) => processCpuSeconds(pid) * 1_000_000

/** PostgreSQL's CPU time so far (all its processes on this machine), in µs; undefined when it runs elsewhere. */
const databaseUs = () => {
  const s = postgresCpuSeconds()
  return s === undefined ? undefined : s * 1_000_000
}

/**
 * The server's CPU µs per request over CPU_REQUESTS requests at 50 connections (after the timed
 * loads), and the database's (`db`: what its statements cost PostgreSQL, which shares this
 * machine's cores with the server and the load).
 */
const cpuPerRequest = async (pid: number, url: string, headers: Record<string, string> = {}) => {
  const before = cpuUs(pid)
  const dbBefore = databaseUs()
  const result = await autocannon({ url, connections: 50, amount: CPU_REQUESTS, headers })
  const dbAfter = databaseUs()
  const n = result.requests.total
  return {
    us: (cpuUs(pid) - before) / n,
    db: dbBefore === undefined || dbAfter === undefined ? undefined : (dbAfter - dbBefore) / n,
    errors: result.errors + result.timeouts + result.non2xx
  }
}

interface Cpu {
  readonly us: number
  readonly db: number | undefined
  readonly errors: number
}

interface Figures {
  readonly poll50: Load
  readonly poll200: Load
  readonly health: Load
  readonly pollCpu: Cpu
  readonly healthCpu: Cpu
}

const measure = async (pid: number, base: string, callId: string, key: Record<string, string>): Promise<Figures> => ({
  poll50: await load(`${base}/analysis/${callId}`, 50, key),
  poll200: await load(`${base}/analysis/${callId}`, 200, key),
  health: await load(`${base}/health`, 50),
  pollCpu: await cpuPerRequest(pid, `${base}/analysis/${callId}`, key),
  healthCpu: await cpuPerRequest(pid, `${base}/health`)
})

/** ours / theirs, or "n/a" when theirs is 0 (the database's CPU for `/health`, which pings once a second). */
const share = (ours: number, theirs: number) => (theirs > 0 ? (ours / theirs).toFixed(2) : "n/a")

const report = (name: string, f: Figures, floor?: Figures, bare?: Figures) => {
  const shares = (pick: (f: Figures) => number, inverse = false) =>
    floor === undefined || bare === undefined
      ? ""
      : inverse
      ? `  ${share(pick(f), pick(floor))}× floor, ${share(pick(f), pick(bare))}× bare`
      : `  ${share(pick(f), pick(floor))} of floor, ${share(pick(f), pick(bare))} of bare`
  const errors = (n: number) => (n > 0 ? `  (${n} non-2xx or errors)` : "")
  const loadLine = (what: string, l: Load, pick: (f: Figures) => number) =>
    `  ${what.padEnd(16)} ${l.rps.toFixed(0).padStart(7)} req/s  p50 ${String(l.p50).padStart(4)} ms  p99 ${
      String(l.p99).padStart(4)
    } ms${shares(pick)}${errors(l.errors)}`
  console.log(name)
  console.log(loadLine("poll, 50 conn", f.poll50, (x) => x.poll50.rps))
  console.log(`${loadLine("poll, 200 conn", f.poll200, (x) => x.poll200.rps)}${
    floor === undefined ? "" : `  p99 ${share(f.poll200.p99, floor.poll200.p99)}× floor's`
  }`)
  console.log(`  ${"".padEnd(16)} steady p99 ${String(f.poll200.steadyP99).padStart(4)} ms${
    floor === undefined ? "" : ` (${share(f.poll200.steadyP99, floor.poll200.steadyP99)}× floor's)`
  }, first answers of the connections p50 ${f.poll200.firstP50} ms, p90 ${f.poll200.firstP90} ms, slowest ${f.poll200.firstMax} ms`)
  console.log(loadLine("/health, 50 conn", f.health, (x) => x.health.rps))
  console.log(`  CPU per request  poll ${f.pollCpu.us.toFixed(0).padStart(5)} µs${shares((x) => x.pollCpu.us, true)}${errors(f.pollCpu.errors)}`)
  console.log(`                   /health ${f.healthCpu.us.toFixed(0).padStart(5)} µs${shares((x) => x.healthCpu.us, true)}${errors(f.healthCpu.errors)}`)
  if (f.pollCpu.db !== undefined && f.healthCpu.db !== undefined) {
    console.log(`  PostgreSQL's CPU per request  poll ${f.pollCpu.db.toFixed(0).padStart(5)} µs${shares((x) => x.pollCpu.db ?? NaN, true)}`)
    console.log(`                                /health ${f.healthCpu.db.toFixed(0).padStart(5)} µs${shares((x) => x.healthCpu.db ?? NaN, true)}`)
  }
}

const main = async () => {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${dbName}`)
  const dataDir = await mkdtemp(path.join(tmpdir(), "callsight-bench-"))
  const children: Array<ChildProcess> = []
  try {
    // the schema and a completed call, made by the service itself (workers on for the seed only)
    const seedPort = await freePort()
    const seeder = await serve(seedPort, dataDir, [])
    const { apiKey, callId } = await seed(`http://127.0.0.1:${seedPort}`)
    await stop(seeder)
    const key = { "x-api-key": apiKey }
    const pool = { DATABASE_URL: dbUrl, DB_POOL_MAX: "10" }

    console.log(`status poll of a completed call and /health; ${DURATION_S} s per load after 2 s of warm-up, then ${CPU_REQUESTS} requests for the CPU;`)
    console.log(`one machine, one database, one server at a time. Service: ${serviceRoot}\n`)

    const barePort = await freePort()
    const bare = fork(path.join(benchDir, "bare-status-server.mjs"), [], { env: { ...process.env, PORT: String(barePort), ...pool } })
    children.push(bare)
    await waitReady(`http://127.0.0.1:${barePort}/health`, bare, "the bare server")
    const bareFigures = await measure(bare.pid!, `http://127.0.0.1:${barePort}`, callId, key)
    await stop(bare)

    const floorPort = await freePort()
    const floor = spawn(process.execPath, ["--import", "tsx", path.join(benchDir, "floor-status-server.ts")], {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(floorPort), ...pool },
      stdio: ["ignore", "inherit", "inherit"]
    })
    children.push(floor)
    await waitReady(`http://127.0.0.1:${floorPort}/health`, floor, "the stack floor")
    const floorFigures = await measure(floor.pid!, `http://127.0.0.1:${floorPort}`, callId, key)
    await stop(floor)

    const servicePort = await freePort()
    const service = await serve(servicePort, dataDir, ["--no-worker"])
    children.push(service)
    const ours = await measure(service.pid!, `http://127.0.0.1:${servicePort}`, callId, key)
    await stop(service)

    report("bare node:http + pg", bareFigures)
    report("stack floor (HttpApi + @effect/sql-pg)", floorFigures)
    report("callsight serve --no-worker", ours, floorFigures, bareFigures)
  } finally {
    await Promise.all(children.map(stop))
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await admin.end()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
