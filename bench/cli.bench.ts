/**
 * CLI start-up, each figure the median of RUNS (default 10) runs of the built CLI, beside `node -e 0`
 * (Node's own start) in the same sitting:
 *
 * - `callsight --version`, and once more without the client bundle's compile cache
 *   (`NODE_DISABLE_COMPILE_CACHE=1`: what a first run costs, bin/compile-cache.js);
 * - `callsight status CALL_ID` without a key (a usage error before any request, exit 2);
 * - `callsight calls list --json` against a running service (`callsight serve --no-worker` on an
 *   embedded database, started here, with a tenant of its own): start, one request, the answer;
 * - the stdio MCP server (`callsight mcp`): from the start of the process to its answer to
 *   `initialize`.
 *
 * The CLI loads the server only for `serve` and `worker` (test/cli-startup.test.ts).
 *
 *   npx tsx bench/cli.bench.ts            (after `npm run build`)
 *
 * BENCH_SERVICE_ROOT=/path/to/another/checkout times that checkout's built CLI instead (its
 * service too; a checkout without `calls list` skips that line).
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { freePort, median, repoRoot, stopChild, waitReady } from "./lib.js"

const root = path.resolve(process.env.BENCH_SERVICE_ROOT ?? repoRoot)
const bin = path.join(root, "packages/cli/bin/callsight.js")
const RUNS = Number(process.env.RUNS ?? 10)
const ADMIN_KEY = `csa_bench_${crypto.randomUUID()}`

const env = (extra: Record<string, string> = {}) => ({ ...process.env, CALLSIGHT_API_KEY: "", CALLSIGHT_URL: "", ...extra })

/** Wall seconds of each run of `node ...args`; fails when a run's exit code is not `expected`. */
const time = (args: ReadonlyArray<string>, expected: number, extra: Record<string, string> = {}) =>
  Array.from({ length: RUNS }, () => {
    const started = performance.now()
    const run = spawnSync(process.execPath, args, { env: env(extra), encoding: "utf8" })
    const wall = (performance.now() - started) / 1000
    if (run.status !== expected) throw new Error(`node ${args.join(" ")} exited ${run.status}: ${run.stderr}`)
    return wall
  })

const line = (label: string, runs: ReadonlyArray<number>, base?: number) =>
  `${label.padEnd(44)} ${median(runs).toFixed(2).padStart(6)} s${
    base === undefined ? "" : `  (${(median(runs) - base).toFixed(2)} s over Node's start)`
  }  runs ${runs.map((r) => r.toFixed(2)).join(" ")}`

/** `callsight serve --no-worker` on a fresh embedded database; resolves once /ready answers (2xx). */
const startService = async () => {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), "callsight-cli-bench-"))
  const child = spawn(process.execPath, [bin, "serve", "--no-worker"], {
    env: { ...env(), PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, LOG_FORMAT: "json" },
    stdio: "ignore"
  })
  const url = `http://127.0.0.1:${port}`
  const stop = () => stopChild(child, 15_000).then(() => rmSync(dataDir, { recursive: true, force: true }))
  try {
    await waitReady(`${url}/ready`, child, "the service")
  } catch (e) {
    await stop()
    throw e
  }
  return { url, stop }
}

/** Seconds from the start of `callsight mcp` to its answer to `initialize` (stdio, JSON-RPC lines). */
const mcpInitialize = (url: string, apiKey: string) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [bin, "mcp", "--url", url, "--api-key", apiKey], { env: env(), stdio: ["pipe", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes("\n")) {
        const wall = (performance.now() - started) / 1000
        const answer = JSON.parse(out.split("\n")[0]!) as { result?: { serverInfo?: unknown } }
        child.stdin.end()
        if (answer.result?.serverInfo === undefined) reject(new Error(`not an initialize answer: ${out}`))
        else resolve(wall)
      }
    })
    child.once("exit", (code) => code !== 0 && !out.includes("\n") && reject(new Error(`callsight mcp exited ${code}`)))
    child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } }
      }) + "\n"
    )
  })

const node = time(["-e", "0"], 0)
const version = time([bin, "--version"], 0)
const uncached = time([bin, "--version"], 0, { NODE_DISABLE_COMPILE_CACHE: "1" })
const status = time([bin, "status", "call_01JQ8ZK4V3M2N7P5R6S8T9W0XY"], 2)

const service = await startService()
let list: Array<number> | undefined
const mcp: Array<number> = []
try {
  const created = spawnSync(
    process.execPath,
    [bin, "admin", "create-tenant", "--name", "Bench", "--json", "--url", service.url, "--admin-key", ADMIN_KEY],
    { env: env(), encoding: "utf8" }
  )
  if (created.status !== 0) throw new Error(`create-tenant exited ${created.status}: ${created.stderr}`)
  const apiKey = (JSON.parse(created.stdout) as { api_key: string }).api_key
  const hasList = spawnSync(process.execPath, [bin, "--help"], { env: env(), encoding: "utf8" }).stdout.includes("calls list")
  if (hasList) list = time([bin, "calls", "list", "--json", "--url", service.url, "--api-key", apiKey], 0)
  for (let i = 0; i < RUNS; i++) mcp.push(await mcpInitialize(service.url, apiKey))
} finally {
  await service.stop()
}

console.log(`CLI start-up, median of ${RUNS}; CLI: ${bin}`)
console.log(line("node -e 0", node))
console.log(line("callsight --version", version, median(node)))
console.log(line("callsight --version, no compile cache", uncached, median(node)))
console.log(line("callsight status CALL_ID (no key: exit 2)", status, median(node)))
if (list !== undefined) console.log(line("callsight calls list --json (a service)", list, median(node)))
else console.log("callsight calls list --json: not in this checkout")
console.log(line("callsight mcp: answer to initialize", mcp, median(node)))
const clientCommands = [version, status, ...(list === undefined ? [] : [list])]
console.log(
  `targets (issue 34): a client command ≤ 0.5 s: ${clientCommands.every((runs) => median(runs) <= 0.5) ? "PASS" : "FAIL"}; ` +
    `stdio MCP initialize ≤ 1.5 s: ${median(mcp) <= 1.5 ? "PASS" : "FAIL"}`
)
