/**
 * Files the analysis cannot use end `failed` with a clear code (and no credit): not audio,
 * empty, undecodable, too short, no speech. A truncated MP3 is analysed as the shorter call it
 * still holds: its frames up to the cut are intact audio, and refusing them would throw away a
 * usable call (an upload cut off by a dropped connection is the usual cause).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { analyzeFile } from "../src/signal/Acoustic.js"
import { SNIFF_BYTES, sniffFormat } from "../src/signal/Sniff.js"
import type { AudioFormat } from "../src/Types.js"
import { decodeAll, fixture, readTruth, tempDir, wavBytes } from "./utils.js"

/** Runs `use` with a temporary directory that is removed afterwards. */
const withTempDir = <A, E>(use: (dir: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.sync(tempDir),
    ({ dir }) => use(dir),
    ({ cleanup }) => Effect.sync(cleanup)
  )

const failureOf = (file: string, format: AudioFormat) =>
  Effect.gen(function* () {
    const result = yield* Effect.either(analyzeFile(file, { format }))
    if (Either.isRight(result)) throw new Error(`expected ${path.basename(file)} to fail`)
    return result.left
  })

describe("bad files fail cleanly", () => {
  it.effect("a text file renamed .mp3: not audio (sniff says so, the analysis fails unsupported_format)", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "notes.mp3")
        fs.writeFileSync(file, "Call notes: follow up on pricing next Tuesday.\n".repeat(200))
        expect(sniffFormat(new Uint8Array(fs.readFileSync(file).subarray(0, SNIFF_BYTES)))).toBeUndefined()
        const failure = yield* failureOf(file, "mp3")
        expect(failure.code).toBe("unsupported_format")
        expect(failure.message).toMatch(/not MP3, WAV or M4A/)
      })
    ))

  it.effect("an empty file: undecodable_audio", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "empty.mp3")
        fs.writeFileSync(file, new Uint8Array(0))
        const failure = yield* failureOf(file, "mp3")
        expect(failure.code).toBe("undecodable_audio")
        expect(failure.message).toMatch(/empty/)
      })
    ))

  it.effect("a missing file: undecodable_audio", () =>
    Effect.gen(function* () {
      const failure = yield* failureOf(path.join(fixture("."), "does-not-exist.mp3"), "mp3")
      expect(failure.code).toBe("undecodable_audio")
    }))

  it.effect("an MP3 header followed by garbage: undecodable_audio", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "garbage.mp3")
        const head = fs.readFileSync(fixture("discovery-short.mp3")).subarray(0, 1024)
        const garbage = new Uint8Array(64 * 1024).map((_, i) => (i * 37 + 11) & 0x7f) // no sync bytes
        fs.writeFileSync(file, Buffer.concat([head, garbage]))
        const failure = yield* failureOf(file, "mp3")
        // the few intact frames of the head decode to well under 2 s
        expect(["undecodable_audio", "too_short"]).toContain(failure.code)
      })
    ))

  it.effect("an M4A whose movie header is cut off: undecodable_audio", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "cut.m4a")
        const bytes = fs.readFileSync(fixture("discovery-short.m4a"))
        fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)))
        const failure = yield* failureOf(file, "m4a")
        expect(failure.code).toBe("undecodable_audio")
        expect(failure.message).toMatch(/moov/)
      })
    ))

  it.effect("a WAV header over non-PCM data: undecodable_audio", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "odd.wav")
        const bytes = new Uint8Array(fs.readFileSync(fixture("discovery-short.wav")).subarray(0, 64 * 1024))
        new DataView(bytes.buffer).setUint16(20, 0x55, true) // format tag: MPEG layer 3 inside WAV
        fs.writeFileSync(file, bytes)
        const failure = yield* failureOf(file, "wav")
        expect(failure.code).toBe("undecodable_audio")
      })
    ))

  it.effect("the first 20 % of an MP3 is analysed as the shorter call it holds", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "truncated.mp3")
        const bytes = fs.readFileSync(fixture("discovery-short.mp3"))
        fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.2)))
        const analysis = yield* analyzeFile(file, { format: "mp3" })
        const full = readTruth("discovery-short").duration
        // 48 kbit/s constant bit rate: 20 % of the bytes is 20 % of the time, less a partial frame
        expect(Math.abs(analysis.duration_s - 0.2 * full)).toBeLessThan(0.5)
        expect(analysis.speaker_turns.length).toBeGreaterThan(0)
        expect(analysis.speaker_turns.at(-1)!.end).toBeLessThanOrEqual(analysis.duration_s)
      })
    ))

  it.effect("1 s of audio cut from a fixture WAV: too_short", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const [samples] = yield* Effect.promise(() => decodeAll(fixture("discovery-short.wav"), "wav"))
        const file = path.join(dir, "one-second.wav")
        fs.writeFileSync(file, wavBytes([samples!.subarray(16_000, 32_000)], 16_000))
        const failure = yield* failureOf(file, "wav")
        expect(failure.code).toBe("too_short")
        expect(failure.message).toMatch(/1 s long/)
      })
    ))

  it.effect("a WAV header with no samples: undecodable_audio", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "header-only.wav")
        fs.writeFileSync(file, wavBytes([new Float32Array(0)], 16_000))
        const failure = yield* failureOf(file, "wav")
        expect(failure.code).toBe("undecodable_audio")
      })
    ))

  it.effect("five seconds of room noise: no_speech", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        let x = 12345
        const noise = Float32Array.from({ length: 5 * 16_000 }, () => {
          x = (x * 1103515245 + 12345) & 0x7fffffff
          return (x / 0x7fffffff - 0.5) * 0.002
        })
        const file = path.join(dir, "noise.wav")
        fs.writeFileSync(file, wavBytes([noise], 16_000))
        const failure = yield* failureOf(file, "wav")
        expect(failure.code).toBe("no_speech")
      })
    ))

  it.effect("the bytes decide the decoder, not the declared format", () =>
    withTempDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "actually-a-wav.mp3")
        fs.copyFileSync(fixture("renewal-stereo.wav"), file)
        const analysis = yield* analyzeFile(file, { format: "mp3" })
        expect(analysis.channels).toBe(2)
      })
    ))
})
