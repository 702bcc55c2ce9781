/**
 * Where the acoustic analysis spends its time, stage by stage (not part of `npm run bench`):
 *
 *   npx tsx --conditions=source bench/analysis.profile.ts [file] [--from <analysis dir>]
 *
 * runs each stage on its own, in order, on one file (default: the bench's 60-minute call, built
 * by `bench/analysis.bench.ts`): decode, speech activity, features, diarization (embedding,
 * clustering, resegmentation), roles and metrics, then the scoring and the report of the result.
 * Wall and CPU time per stage, their shares, and the peak RSS. Resampling is part of decoding; a
 * 16 kHz file is passed through, so it is also timed alone on an hour of 44.1 kHz audio.
 *
 * `--from` points at another copy of the analysis package (e.g. the last commit's, from
 * `git worktree add /tmp/head HEAD`: `--from /tmp/head/packages/analysis`), to compare.
 *
 *   npx tsx --conditions=source bench/analysis.profile.ts --snapshot out.json [--from <dir>]
 *
 * writes the analysis of every fixture (and of the bench's 60-minute call) to a JSON file, to
 * diff two versions' results.
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type * as AnalysisModule from "@callsight/analysis"
import type { AcousticAnalysis, AudioFormat } from "@callsight/analysis"

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, "..")
const args = process.argv.slice(2)
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const from = path.resolve(option("--from") ?? path.join(root, "packages/analysis"))
const positional = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"))
const sixty = path.join(here, ".cache/call-60min-16k-48k.mp3")
const formatOf = (file: string): AudioFormat => (file.endsWith(".wav") ? "wav" : file.endsWith(".m4a") ? "m4a" : "mp3")

// every module through the package's entry, so `--from` may point at another copy of it
const Analysis = (await import(pathToFileURL(path.join(from, "src/index.ts")).href)) as typeof AnalysisModule

interface Timing {
  readonly stage: string
  readonly wall: number
  readonly cpu: number
}

const timed = async <A>(into: Array<Timing>, stage: string, f: () => A | Promise<A>): Promise<A> => {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const out = await f()
  const used = process.cpuUsage(cpu)
  into.push({ stage, wall: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 })
  return out
}

const stages = async (file: string) => {
  const format = formatOf(file)
  const timings: Array<Timing> = []
  await timed(timings, "decode (and resample)", async () => {
    for await (const _ of Analysis.decodeFile(file, format, { borrow: true })) {
      // decoded and dropped
    }
  })
  const features = await timed(timings, "decode + features", async () => {
    let extractor: ReturnType<typeof Analysis.createFeatureExtractor> | undefined
    for await (const chunk of Analysis.decodeFile(file, format, { borrow: true })) {
      extractor ??= Analysis.createFeatureExtractor(chunk.channels.length)
      extractor.push(chunk.channels)
    }
    return extractor!.finish()
  })
  const masks = await timed(timings, "speech activity", () => features.channels.map((c) => Analysis.detectSpeech(c)))
  if (features.channels.length === 1) {
    const marks: Array<[number, number]> = []
    const started = performance.now()
    await timed(timings, "diarization", () =>
      Analysis.diarizeMono(features.mfcc, masks[0]!, undefined, (f) => marks.push([f, (performance.now() - started) / 1000]))
    )
    const at = (f: number) => marks.find(([g]) => g === f)?.[1] ?? 0
    const total = timings[timings.length - 1]!.wall
    console.log(
      `  diarization: embedding ${at(0.2).toFixed(2)} s, clustering ${(at(0.4) - at(0.2)).toFixed(2)} s, ` +
        `resegmentation (GMM + Viterbi) ${(total - at(0.4)).toFixed(2)} s`
    )
  }
  const acoustic = await timed(timings, "activity + diarization + roles/metrics", () => Analysis.analyzeFeatures(features, features.channels.length))
  if (!("speakers" in acoustic)) throw new Error(acoustic.message)
  const scored = await timed(timings, "scoring", () => Analysis.combine(acoustic as AcousticAnalysis, null, "MEDDPICC"))
  await timed(timings, "report", () =>
    Analysis.renderReport({ call_id: "call_profile", external_call_id: null, created_at: new Date(0).toISOString(), ...scored })
  )
  // a whole-call run for the total
  await timed(timings, "analyzeFile (all of the above but scoring and report)", () => Effect.runPromise(Analysis.analyzeFile(file, { format })))
  // resampling alone: an hour of one 44.1 kHz channel, in 10 s pieces
  await timed(timings, "resample 60 min of 44.1 kHz (alone, for reference)", () => {
    const resampler = Analysis.createResampler(44_100, 16_000)
    const piece = Float32Array.from({ length: 441_000 }, (_, i) => Math.sin(i * 0.031) * 0.3 + Math.sin(i * 0.0071) * 0.2)
    for (let i = 0; i < 360; i++) resampler.push(piece)
    resampler.flush()
  })

  const get = (stage: string) => timings.find((t) => t.stage === stage)!
  const decode = get("decode (and resample)")
  const featuresOnly = { wall: get("decode + features").wall - decode.wall, cpu: get("decode + features").cpu - decode.cpu }
  const activity = get("speech activity")
  const diarization = timings.find((t) => t.stage === "diarization") ?? { wall: 0, cpu: 0 }
  const after = get("activity + diarization + roles/metrics")
  const rolesMetrics = { wall: Math.max(0, after.wall - activity.wall - diarization.wall), cpu: Math.max(0, after.cpu - activity.cpu - diarization.cpu) }
  const rows: Array<[string, { wall: number; cpu: number }]> = [
    ["decode (mpg123; resampling: none at 16 kHz)", decode],
    ["features (FFT, band energy, MFCC, pitch)", featuresOnly],
    ["speech activity", activity],
    ["diarization (clustering + resegmentation)", diarization],
    ["roles and metrics", rolesMetrics],
    ["scoring", get("scoring")],
    ["report", get("report")]
  ]
  const sum = rows.reduce((n, [, t]) => n + t.wall, 0)
  console.log(`${path.basename(file)} — analysis from ${path.relative(root, from) || from}`)
  for (const [stage, t] of rows) {
    console.log(`  ${stage.padEnd(46)} ${t.wall.toFixed(2).padStart(6)} s wall ${t.cpu.toFixed(2).padStart(6)} s CPU ${((100 * t.wall) / sum).toFixed(1).padStart(5)} %`)
  }
  const whole = get("analyzeFile (all of the above but scoring and report)")
  console.log(`  ${"sum of the stages".padEnd(46)} ${sum.toFixed(2).padStart(6)} s`)
  console.log(`  ${"analyzeFile, in one go".padEnd(46)} ${whole.wall.toFixed(2).padStart(6)} s wall ${whole.cpu.toFixed(2).padStart(6)} s CPU`)
  const resample = get("resample 60 min of 44.1 kHz (alone, for reference)")
  console.log(`  ${"(resampling 60 min of one 44.1 kHz channel)".padEnd(46)} ${resample.wall.toFixed(2).padStart(6)} s wall`)
  console.log(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (this process, all stages)`)
}

const snapshot = async (out: string) => {
  const fixtures = path.join(root, "test/fixtures")
  const files = fs.readdirSync(fixtures).filter((f) => /\.(wav|mp3|m4a)$/.test(f)).map((f) => path.join(fixtures, f))
  if (fs.existsSync(sixty)) files.push(sixty)
  const result: Record<string, unknown> = {}
  for (const file of files) {
    result[path.basename(file)] = await Effect.runPromise(Effect.either(Analysis.analyzeFile(file, { format: formatOf(file) })))
    console.log(path.basename(file))
  }
  fs.writeFileSync(out, JSON.stringify(result, null, 1))
}

const snapshotOut = option("--snapshot")
if (snapshotOut !== undefined) await snapshot(snapshotOut)
else await stages(positional[0] ?? sixty)
