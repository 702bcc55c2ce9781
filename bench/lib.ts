/**
 * The helpers the benchmarks share: ports, waiting for a child process to be ready and stopping
 * it, a process's CPU time, the environment of a production-like `callsight serve`, medians, and
 * the long MP3 calls made from the fixtures.
 *
 * No import of the analysis package here (the MP3 helpers are handed its functions):
 * bench/analysis.bench.ts loads one copy of it per process, possibly another checkout's (`--from`),
 * and measures its children's memory.
 */
import { Mp3Encoder } from "@breezystack/lamejs"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import { createServer } from "node:net"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type * as SignalModule from "@callsight/analysis/signal"

/** This folder (bench/). */
export const benchDir = path.dirname(fileURLToPath(import.meta.url))
/** The repository this bench/ is in. */
export const repoRoot = path.resolve(benchDir, "..")
/** The test fixtures (test/fixtures/). */
export const fixturesDir = path.join(repoRoot, "test/fixtures")
/** Where the benches cache what they build once (bench/.cache/, gitignored). */
export const cacheDir = path.join(benchDir, ".cache")

// ---------------------------------------------------------------------------------------------
// Processes

/** A TCP port free on 127.0.0.1 just now (the OS's pick, released before it is returned). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Polls `url` every 200 ms until it answers 2xx; fails when `child` exits first (with `detail()`,
 * e.g. its output, in the message) or after `timeoutS` seconds' worth of attempts.
 */
export const waitReady = async (
  url: string,
  child: ChildProcess,
  what: string,
  { detail, timeoutS = 120 }: { readonly timeoutS?: number; readonly detail?: () => string } = {}
) => {
  for (let i = 0; i < timeoutS * 5; i++) {
    if (child.exitCode !== null) {
      throw new Error(`${what} exited (${child.exitCode}) before it was ready${detail === undefined ? "" : `:\n${detail()}`}`)
    }
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return
    } catch {
      // not listening yet
    }
    await sleep(200)
  }
  throw new Error(`${what} was not ready in ${timeoutS} s`)
}

/** SIGTERM, then SIGKILL if the child has not exited `killAfterMs` later; resolves on its exit. */
export const stopChild = (child: ChildProcess, killAfterMs: number) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGTERM")
  })

let clockTicks: number | undefined

/** The kernel's clock ticks a second (USER_HZ), the unit of /proc's CPU times. */
export const clockTicksPerSecond = () =>
  (clockTicks ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim() || 100))

/** A process's CPU time so far (user + system), in seconds, from /proc/<pid>/stat; throws when it is gone. */
export const processCpuSeconds = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  // after the command: state is field 3, utime 14 and stime 15 (1-based over the whole line)
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond()
}

/** /proc/<pid>/stat's fields after the command (field 3 on), or none when the process is gone. */
const statFields = (pid: string): ReadonlyArray<string> | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return [stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ...stat.slice(stat.lastIndexOf(")") + 2).split(" ")]
  } catch {
    return undefined
  }
}

/**
 * The CPU time (seconds) of a PostgreSQL server on this machine so far: its postmaster's own, that
 * of its children that have exited (reaped: the postmaster's cutime and cstime) and that of its
 * children alive (the backends, one per connection); undefined when no postmaster runs here (a
 * database on another machine). What the database spends on a load is the difference over it.
 */
export const postgresCpuSeconds = (): number | undefined => {
  const processes = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    const f = statFields(pid)
    return f === undefined || f[0] !== "postgres" ? [] : [{ pid, ppid: f[2]!, f }]
  })
  const pids = new Set(processes.map((p) => p.pid))
  const postmaster = processes.find((p) => !pids.has(p.ppid))
  if (postmaster === undefined) return undefined
  // after the command (index 0): utime 12, stime 13, cutime 14, cstime 15 (fields 14–17 of the line)
  const own = postmaster.f.slice(12, 16).reduce((sum, x) => sum + Number(x), 0)
  const children = processes.filter((p) => p.ppid === postmaster.pid).reduce((sum, p) => sum + Number(p.f[12]) + Number(p.f[13]), 0)
  return (own + children) / clockTicksPerSecond()
}

/**
 * The environment of a production-like `callsight serve` (or `callsight worker`) on `databaseUrl`,
 * without PORT: JSON logs, NODE_ENV=production, a fresh SECRETS_KEY at each call (a server and its
 * workers must share one: give them the same object).
 */
export const productionEnv = (
  { adminKey, dataDir, databaseUrl }: { readonly databaseUrl: string; readonly dataDir: string; readonly adminKey: string }
) => ({
  HOST: "127.0.0.1",
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  ADMIN_API_KEY: adminKey,
  SECRETS_KEY: randomBytes(32).toString("base64"),
  LOG_FORMAT: "json",
  NODE_ENV: "production",
  // production does not start without a mail transport; the benches send no mail (nodemailer
  // connects only to send), so a port where nothing listens will do
  SMTP_URL: "smtp://127.0.0.1:9"
})

/** The checkout whose service the benches measure (its build): this one, or BENCH_SERVICE_ROOT's. */
export const serviceRoot = path.resolve(process.env.BENCH_SERVICE_ROOT ?? repoRoot)

/**
 * `callsight serve` with `args` from `serviceRoot`'s build (scripts/start.mjs rebuilds it first when a
 * source changed), in production's environment (`productionEnv`) on `databaseUrl`, its request log
 * going to a pipe, drained, as in production; resolves once /ready answers (stopped if it does not).
 */
export const startService = async (options: {
  readonly port: number
  readonly databaseUrl: string
  readonly dataDir: string
  readonly adminKey: string
  readonly args: ReadonlyArray<string>
  /** node's own flags (a CPU profile). */
  readonly nodeArgs?: ReadonlyArray<string>
  readonly timeoutS?: number
}) => {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(serviceRoot, "scripts/start.mjs"), ...options.args], {
    cwd: serviceRoot,
    env: { ...process.env, PORT: String(options.port), ...productionEnv(options) },
    stdio: ["ignore", "pipe", "inherit"]
  })
  child.stdout!.resume()
  try {
    await waitReady(`http://127.0.0.1:${options.port}/ready`, child, "callsight serve", { timeoutS: options.timeoutS })
  } catch (error) {
    await stopChild(child, 5_000)
    throw error
  }
  return child
}

// ---------------------------------------------------------------------------------------------
// Figures

/** The median (the mean of the middle two for an even count). */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

// ---------------------------------------------------------------------------------------------
// Long calls from the fixtures

/** What the MP3 helpers use of the analysis package (handed in: see the header). */
export type Signal = Pick<typeof SignalModule, "ANALYSIS_RATE" | "decodeFile">

/** The fixtures whose speech the long calls cycle through, in order. */
export const CALL_SOURCES = ["discovery-short.wav", "demo-objection.mp3", "renewal-stereo.wav"]
/** The long calls' bit rate: the fixtures' own MP3 setting (16 kHz mono, 48 kbit/s). */
export const CALL_KBPS = 48

/** The fixtures' audio (CALL_SOURCES) as mono PCM at the analysis rate (the stereo one mixed down). */
export const fixturePcm = async ({ decodeFile }: Signal): Promise<Array<Float32Array>> => {
  const out: Array<Float32Array> = []
  for (const name of CALL_SOURCES) {
    const parts: Array<Float32Array> = []
    for await (const chunk of decodeFile(path.join(fixturesDir, name), name.endsWith(".wav") ? "wav" : "mp3")) {
      const [left, right] = chunk.channels
      parts.push(right ? left!.map((v, i) => 0.5 * (v + right[i]!)) : left!)
    }
    const pcm = new Float32Array(parts.reduce((n, p) => n + p.length, 0))
    let at = 0
    for (const p of parts) {
      pcm.set(p, at)
      at += p.length
    }
    out.push(pcm)
  }
  return out
}

/**
 * Writes `minutes` of `sources` cycled, with small gain changes, to `file` as a mono MP3 at the
 * analysis rate and CALL_KBPS, streaming (never the whole call in memory; written to
 * `<file>.partial`, then renamed). `firstRound` picks the first source and gain, so that calls
 * built with different ones differ.
 */
export const writeCallMp3 = (
  { ANALYSIS_RATE }: Signal,
  sources: ReadonlyArray<Float32Array>,
  file: string,
  minutes: number,
  firstRound = 0
): void => {
  const encoder = new Mp3Encoder(1, ANALYSIS_RATE, CALL_KBPS)
  const fd = fs.openSync(`${file}.partial`, "w")
  const target = Math.round(minutes * 60 * ANALYSIS_RATE)
  const block = new Int16Array(1152 * 20)
  let written = 0
  let round = firstRound
  while (written < target) {
    const pcm = sources[round % sources.length]!
    const gain = 0.7 + 0.3 * ((round * 7) % 5) / 4 // vary the level a little between repeats
    round++
    for (let at = 0; at < pcm.length && written < target; at += block.length) {
      const n = Math.min(block.length, pcm.length - at, target - written)
      for (let i = 0; i < n; i++) block[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[at + i]! * gain * 32767)))
      const mp3 = encoder.encodeBuffer(block.subarray(0, n))
      if (mp3.length) fs.writeSync(fd, mp3)
      written += n
    }
  }
  const tail = encoder.flush()
  if (tail.length) fs.writeSync(fd, tail)
  fs.closeSync(fd)
  fs.renameSync(`${file}.partial`, file)
}
