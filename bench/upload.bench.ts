/**
 * Memory during a 200 MB upload: the service streams the file to the blob store, so its heap
 * must not grow with the file. The server runs in this process (PGlite, a temporary DATA_DIR);
 * curl uploads from another process, so only the server's memory is measured. Baseline in the
 * same run: the same file read whole into a Buffer, as a naive handler would.
 *
 *   npx tsx --conditions=source bench/upload.bench.ts [SIZE_MB]
 */
import { NodeHttpServer } from "@effect/platform-node"
import { spawn } from "node:child_process"
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { AppConfig, DatabaseLive, makeServerLayer } from "@callsight/server"

const sizeMb = Number(process.argv[2] ?? 200)
const dir = mkdtempSync(join(tmpdir(), "callsight-upload-bench-"))
const file = join(dir, "big.wav")
const port = 18_000 + Math.floor(Math.random() * 1000)
const adminKey = "bench-admin-key"

/** A WAV header declaring `bytes` of 16 kHz mono PCM, then noise-like PCM in 1 MB blocks. */
const writeWav = (path: string, bytes: number) => {
  const header = Buffer.alloc(44)
  header.write("RIFF", 0)
  header.writeUInt32LE(36 + bytes, 4)
  header.write("WAVEfmt ", 8)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(16_000, 24)
  header.writeUInt32LE(32_000, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write("data", 36)
  header.writeUInt32LE(bytes, 40)
  const fd = openSync(path, "w")
  writeSync(fd, header)
  const block = Buffer.alloc(1024 * 1024)
  for (let i = 0; i < block.length; i++) block[i] = (i * 7919) & 0xff
  for (let written = 0; written < bytes; written += block.length) writeSync(fd, block, 0, Math.min(block.length, bytes - written))
  closeSync(fd)
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`

const main = Effect.gen(function* () {
  writeWav(file, sizeMb * 1024 * 1024)
  const server = makeServerLayer(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }), DatabaseLive).pipe(
    Layer.provide(
      AppConfig.layerWith({
        port,
        dataDir: dir,
        blobDir: join(dir, "blobs"),
        maxUploadMb: sizeMb + 10,
        adminApiKey: Option.some(Redacted.make(adminKey))
      })
    ),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  yield* Effect.gen(function* () {
    const tenant = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${port}/v1/internal/admin/clients`, {
        method: "POST",
        headers: { "x-api-key": adminKey, "content-type": "application/json" },
        body: JSON.stringify({ company_name: "Bench", credits: 5 })
      }).then((r) => r.json() as Promise<{ api_key: string }>)
    )
    global.gc?.()
    const before = process.memoryUsage()
    let peakHeap = before.heapUsed
    let peakRss = before.rss
    const sampler = setInterval(() => {
      const m = process.memoryUsage()
      peakHeap = Math.max(peakHeap, m.heapUsed)
      peakRss = Math.max(peakRss, m.rss)
    }, 10)
    const started = performance.now()
    const status = yield* Effect.async<string>((resume) => {
      const curl = spawn("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", `x-api-key: ${tenant.api_key}`,
        "-F", `audio=@${file};type=audio/wav`, `http://127.0.0.1:${port}/v1/teams/audio`])
      let out = ""
      curl.stdout.on("data", (c) => (out += c))
      curl.on("exit", () => resume(Effect.succeed(out)))
    })
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)

    // Baseline: the naive way, the whole file in memory.
    global.gc?.()
    const naiveBefore = process.memoryUsage()
    const whole = readFileSync(file)
    const naive = process.memoryUsage()
    const naiveGrowth = naive.rss - naiveBefore.rss

    console.log(`upload of ${sizeMb} MB: HTTP ${status} in ${seconds.toFixed(1)} s (${(sizeMb / seconds).toFixed(0)} MB/s)`)
    console.log(`  streaming upload: heap growth ${mb(peakHeap - before.heapUsed)}, RSS growth ${mb(peakRss - before.rss)}`)
    console.log(`  baseline, file read whole: RSS growth ${mb(naiveGrowth)} (buffer ${mb(whole.length)})`)
    console.log(`  ratio heap growth / file size: ${((peakHeap - before.heapUsed) / (sizeMb * 1024 * 1024)).toFixed(4)}`)
    console.log(`  ratio RSS growth streaming / baseline: ${((peakRss - before.rss) / naiveGrowth).toFixed(3)}`)
  }).pipe(Effect.provide(server))
})

Effect.runPromise(Effect.scoped(main)).finally(() => rmSync(dir, { recursive: true, force: true }))
