/**
 * The analysis bench's child (bench/analysis.bench.ts): analyses one file and prints one JSON
 * line (wall and CPU time, peak RSS, the RSS held before it began, the call's length, speakers
 * and turns).
 *
 *   node bench/analysis-child.mjs FILE                 # the build (packages/analysis/dist), as the service runs it
 *   tsx --conditions=source bench/analysis-child.mjs FILE [--from DIR]   # the source, or another copy's
 *
 * Plain JavaScript so that the build is measured under plain `node`, as `callsight serve` and
 * `callsight worker` run it: tsx's loader detaches an ArrayBuffer at start-up, after which V8
 * checks every typed array access in the process (its ArrayBufferDetaching protector) and the
 * analysis runs some 8 % slower than in the service.
 */
import { Effect } from "effect"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

const args = process.argv.slice(2)
const fromIndex = args.indexOf("--from")
const from = fromIndex >= 0 ? path.resolve(args[fromIndex + 1]) : undefined
const file = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--from")
const { analyzeFile } = await import(from ? pathToFileURL(path.join(from, "src/signal/index.ts")).href : "@callsight/analysis/signal")

const startRssMb = process.memoryUsage().rss / 1024 / 1024
const started = performance.now()
const cpu = process.cpuUsage()
const analysis = await Effect.runPromise(analyzeFile(file, { format: "mp3" }))
const seconds = (performance.now() - started) / 1000
const used = process.cpuUsage(cpu)
console.log(
  JSON.stringify({
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    // maxRSS is in kilobytes
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    startRssMb,
    durationS: analysis.duration_s,
    speakers: analysis.speakers.length,
    turns: analysis.speaker_turns.length
  })
)
