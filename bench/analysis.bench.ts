/**
 * Acoustic analysis benchmark (the targets of issue 11):
 *
 * - a 60-minute mono MP3 is analysed on one core; its wall time is printed beside the time
 *   `ffmpeg` takes just to decode the same file on the same core, with the ratio and the
 *   real-time factor (target: ≥ 500× real time, ≤ 5× ffmpeg's decode);
 * - a 120-minute call is analysed in a child process whose peak RSS is printed (target ≤ 250 MB),
 *   with the part of it the child held before the analysis began (Node, tsx, Effect).
 *
 * The calls are made from the fixtures (bench/lib.ts): their decoded PCM, cycled with small gain
 * changes, is encoded by a pure-JS MP3 encoder (lamejs) at the fixtures' own MP3 settings (16 kHz
 * mono, 48 kbit/s) and cached under bench/.cache/ (gitignored). Each analysis runs in a fresh child
 * process (bench/analysis-child.mjs) pinned to one CPU when `taskset` is there, and so does ffmpeg
 * (the same CPU). Timings on a shared machine wander, so each measurement is taken RUNS times
 * (default 3; `RUNS=1` for a quick look), the ffmpeg decode and the analysis taking turns, and the
 * medians are printed.
 *
 *   npx tsx bench/analysis.bench.ts          # the build, in plain node, as the service runs it (npm run bench)
 *   npx tsx --conditions=source bench/analysis.bench.ts [--from <analysis dir>]   # the source, under tsx
 *
 * Without `--conditions=source` the children run the last build (packages/analysis/dist; `npm run
 * bench` builds what is stale first) in plain `node`. With it, they run the source under tsx,
 * whose loader makes every typed array access in the process slower (see analysis-child.mjs):
 * for comparing two versions in one sitting, not for the bar.
 *
 * `--from` has the children analyse with another copy of the analysis package (e.g. the last
 * commit's: `mkdir -p bench/.cache/head && git archive HEAD packages/analysis | tar -x -C
 * bench/.cache/head`, then `--from bench/.cache/head/packages/analysis`), to compare in one sitting.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type * as SignalModule from "@callsight/analysis/signal"
import { cacheDir, CALL_KBPS, fixturePcm, median, repoRoot, writeCallMp3 } from "./lib.js"

const fromIndex = process.argv.indexOf("--from")
/** Another copy of the analysis package to measure (`--from`), resolved from the working directory. */
const from = fromIndex >= 0 && process.argv[fromIndex + 1] ? path.resolve(process.argv[fromIndex + 1]!) : undefined
// one copy of the package in each process (a child's RSS is compared)
const Signal = (await import(
  from ? pathToFileURL(path.join(from, "src/signal/index.ts")).href : "@callsight/analysis/signal"
)) as typeof SignalModule

/** Encodes `minutes` of cycled fixture audio to an MP3 file, streaming (never the whole call in memory). */
const buildCall = async (file: string, minutes: number): Promise<void> =>
  writeCallMp3(Signal, await fixturePcm(Signal), file, minutes)

const ensureCalls = async (): Promise<{ sixty: string; twoHours: string }> => {
  fs.mkdirSync(cacheDir, { recursive: true })
  const sixty = path.join(cacheDir, `call-60min-16k-${CALL_KBPS}k.mp3`)
  const twoHours = path.join(cacheDir, `call-120min-16k-${CALL_KBPS}k.mp3`)
  if (!fs.existsSync(sixty)) {
    const started = performance.now()
    console.log("building the 60-minute MP3 from the fixtures (once; cached in bench/.cache/)...")
    await buildCall(sixty, 60)
    console.log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  if (!fs.existsSync(twoHours)) {
    // two 60-minute streams back to back: MP3 frames concatenate
    const bytes = fs.readFileSync(sixty)
    fs.writeFileSync(`${twoHours}.partial`, Buffer.concat([bytes, bytes]))
    fs.renameSync(`${twoHours}.partial`, twoHours)
  }
  return { sixty, twoHours }
}

const hasCommand = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0

/** The CPU every measured process is pinned to, when taskset is there. */
const pinned = (command: Array<string>): Array<string> => (hasCommand("taskset") ? ["taskset", "-c", "0", ...command] : command)

interface Timing {
  readonly seconds: number
  /** User + system CPU seconds, when known: steadier than the wall time on a shared machine. */
  readonly cpuSeconds: number | undefined
}

/** ffmpeg decoding `file`, wall time and (through GNU time, when there) CPU time. */
const ffmpegDecode = (file: string): Timing => {
  const cpuFile = path.join(cacheDir, `ffmpeg-cpu-${process.pid}.txt`)
  const time = fs.existsSync("/usr/bin/time") ? ["/usr/bin/time", "-f", "%U %S", "-o", cpuFile] : []
  const command = pinned([...time, "ffmpeg", "-v", "error", "-threads", "1", "-i", file, "-f", "null", "-"])
  const started = performance.now()
  execFileSync(command[0]!, command.slice(1), { stdio: "inherit" })
  const seconds = (performance.now() - started) / 1000
  if (time.length === 0) return { seconds, cpuSeconds: undefined }
  const [user, system] = fs.readFileSync(cpuFile, "utf8").trim().split(/\s+/).map(Number)
  fs.rmSync(cpuFile, { force: true })
  return { seconds, cpuSeconds: user! + system! }
}

interface ChildResult extends Timing {
  readonly maxRssMb: number
  /** The child's RSS just before the analysis began (Node, tsx and the modules loaded). */
  readonly startRssMb: number
  readonly durationS: number
  readonly speakers: number
  readonly turns: number
}

/**
 * This process's `--conditions` (`source`, as in the header's command), for the child: without
 * them it would resolve `@callsight/analysis` to the last build (dist/), not the source.
 */
const conditions = (): Array<string> => {
  const out: Array<string> = []
  const args = process.execArgv
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg.startsWith("--conditions=") || arg.startsWith("-C=")) out.push(arg)
    else if ((arg === "--conditions" || arg === "-C") && args[i + 1] !== undefined) out.push(arg, args[++i]!)
  }
  return out
}

/** Runs the analysis of `file` in a fresh process (one CPU when taskset is there). */
const analyseInChild = (file: string): ChildResult => {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "analysis-child.mjs")
  const source = conditions().length > 0 || from !== undefined
  const runner = source ? [path.join(repoRoot, "node_modules/.bin/tsx"), ...conditions()] : [process.execPath]
  const command = pinned([...runner, script, file, ...(from ? ["--from", from] : [])])
  const result = spawnSync(command[0]!, command.slice(1), { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`analysis child failed: ${result.stderr}`)
  const line = result.stdout.trim().split("\n").pop()!
  return JSON.parse(line) as ChildResult
}

const RUNS = Math.max(1, Number(process.env["RUNS"] ?? 3))
const spread = (values: ReadonlyArray<number>, digits: number) =>
  values.length > 1 ? ` (runs: ${values.map((v) => v.toFixed(digits)).join(", ")})` : ""

/** The CPU times' medians and their ratio, when both are known. */
const cpuLine = (ours: ReadonlyArray<Timing>, ffmpeg: ReadonlyArray<Timing>): Array<string> => {
  const a = ours.map((r) => r.cpuSeconds), f = ffmpeg.map((r) => r.cpuSeconds)
  if (a.length === 0 || f.length === 0 || a.some((v) => v === undefined) || f.some((v) => v === undefined)) return []
  const analysis = median(a as Array<number>), decode = median(f as Array<number>)
  return [
    `  CPU time (user + system):    analysis ${analysis.toFixed(2)} s, ffmpeg decode ${decode.toFixed(2)} s → ` +
      `${(analysis / decode).toFixed(2)}× (steadier than the wall times when the machine is shared)` +
      (a.length > 1 ? ` (runs: ${a.map((v) => v!.toFixed(2)).join(", ")}; ffmpeg ${f.map((v) => v!.toFixed(2)).join(", ")})` : "")
  ]
}

const main = async () => {
  const { sixty, twoHours } = await ensureCalls()
  const withFfmpeg = hasCommand("ffmpeg")
  const ffmpegRuns: Array<Timing> = []
  const sixtyRuns: Array<ChildResult> = []
  for (let run = 0; run < RUNS; run++) {
    if (withFfmpeg) ffmpegRuns.push(ffmpegDecode(sixty))
    sixtyRuns.push(analyseInChild(sixty))
  }
  const longRuns = Array.from({ length: RUNS }, () => analyseInChild(twoHours))
  const ours = sixtyRuns[0]!
  const seconds = median(sixtyRuns.map((r) => r.seconds))
  const ffmpeg = withFfmpeg ? median(ffmpegRuns.map((r) => r.seconds)) : undefined
  const ratio = ffmpeg === undefined ? undefined : seconds / ffmpeg
  const realTime = ours.durationS / seconds
  const longRss = median(longRuns.map((r) => r.maxRssMb))
  const lines = [
    `60-minute mono MP3 (${(fs.statSync(sixty).size / 1e6).toFixed(1)} MB, ${(ours.durationS / 60).toFixed(1)} min), median of ${RUNS}` +
      `${from ? ` (analysis from ${path.relative(repoRoot, from) || from}, under tsx)` : conditions().length > 0 ? " (the source, under tsx)" : " (the build, in plain node)"}:`,
    `  Callsight acoustic analysis: ${seconds.toFixed(2)} s  (${realTime.toFixed(0)}× real time; target ≥ 500×) ` +
      `— ${ours.speakers} speakers, ${ours.turns} turns, peak RSS ${median(sixtyRuns.map((r) => r.maxRssMb)).toFixed(0)} MB` +
      spread(sixtyRuns.map((r) => r.seconds), 2),
    ffmpeg === undefined
      ? "  ffmpeg decode: ffmpeg not installed (apt-get install -y ffmpeg)"
      : `  ffmpeg decode only:          ${ffmpeg.toFixed(2)} s  → analysis / ffmpeg decode = ${ratio!.toFixed(2)}× (target ≤ 5×)` +
        spread(ffmpegRuns.map((r) => r.seconds), 2),
    ...cpuLine(sixtyRuns, ffmpegRuns),
    `120-minute call (${(longRuns[0]!.durationS / 60).toFixed(1)} min): analysis ${median(longRuns.map((r) => r.seconds)).toFixed(2)} s, ` +
      `peak RSS ${longRss.toFixed(0)} MB (target ≤ 250 MB; ${median(longRuns.map((r) => r.startRssMb)).toFixed(0)} MB of it held ` +
      `before the analysis began) — ${longRuns[0]!.speakers} speakers, ${longRuns[0]!.turns} turns` +
      spread(longRuns.map((r) => r.maxRssMb), 0),
    `verdict: speed ${realTime >= 500 && (ratio === undefined || ratio <= 5) ? "PASS" : "FAIL"}, memory ${longRss <= 250 ? "PASS" : "FAIL"}`
  ]
  console.log(lines.join("\n"))
}

await main()
