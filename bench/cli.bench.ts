/**
 * CLI start-up: the wall time of `callsight --version` and of a client command that fails before
 * any request (`callsight status CALL_ID` without a key, exit 2), each the median of RUNS (default
 * 10) runs of the built CLI, beside `node -e 0` (Node's own start) in the same sitting. The CLI
 * loads the server only for `serve`, `worker` and `mcp` (test/cli-startup.test.ts).
 *
 *   npx tsx bench/cli.bench.ts            (after `npm run build`)
 *
 * BENCH_SERVICE_ROOT=/path/to/another/checkout times that checkout's built CLI instead.
 */
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(process.env.BENCH_SERVICE_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."))
const bin = path.join(root, "packages/cli/bin/callsight.js")
const RUNS = Number(process.env.RUNS ?? 10)

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

/** Wall seconds of each run of `node ...args`; fails when a run's exit code is not `expected`. */
const time = (args: ReadonlyArray<string>, expected: number) =>
  Array.from({ length: RUNS }, () => {
    const started = performance.now()
    const run = spawnSync(process.execPath, args, { env: { ...process.env, CALLSIGHT_API_KEY: "" }, encoding: "utf8" })
    const wall = (performance.now() - started) / 1000
    if (run.status !== expected) throw new Error(`node ${args.join(" ")} exited ${run.status}: ${run.stderr}`)
    return wall
  })

const line = (label: string, runs: ReadonlyArray<number>, base?: number) =>
  `${label.padEnd(44)} ${median(runs).toFixed(2).padStart(6)} s${base === undefined ? "" : `  (${(median(runs) - base).toFixed(2)} s over Node's start)`}  runs ${runs.map((r) => r.toFixed(2)).join(" ")}`

const node = time(["-e", "0"], 0)
const version = time([bin, "--version"], 0)
const status = time([bin, "status", "call_01JQ8ZK4V3M2N7P5R6S8T9W0XY"], 2)
console.log(`CLI start-up, median of ${RUNS}; CLI: ${bin}`)
console.log(line("node -e 0", node))
console.log(line("callsight --version", version, median(node)))
console.log(line("callsight status CALL_ID (no key: exit 2)", status, median(node)))
console.log(`target (issue 34): a client command ≤ 0.5 s: ${median(version) <= 0.5 && median(status) <= 0.5 ? "PASS" : "FAIL"}`)
