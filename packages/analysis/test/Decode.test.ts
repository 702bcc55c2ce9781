/** Streaming decode to 16 kHz: durations, channels, timing across formats, and the resampler. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { MPEGDecoder } from "mpg123-decoder"
import * as fs from "node:fs"
import * as path from "node:path"
import { decodeFile, type SourceInfo } from "../src/signal/Decode.js"
import { createResampler } from "../src/signal/Resample.js"
import type { AudioFormat } from "../src/Types.js"
import { concatPcm, decodeAll, fixture, readTruth, tempDir } from "./utils.js"

const FILES = [
  ["discovery-short.wav", 1],
  ["discovery-short.mp3", 1],
  ["discovery-short.m4a", 1],
  ["demo-objection.mp3", 1],
  ["demo-objection.m4a", 1],
  ["renewal-stereo.wav", 2],
  ["renewal-stereo.mp3", 2]
] as const

const formatOf = (name: string) => name.split(".").pop() as AudioFormat

describe("decodeFile", () => {
  it.each(FILES)("%s: 16 kHz, %i channel(s), duration of the truth file within 0.1 s", async (name, channels) => {
    let source: SourceInfo | undefined
    let samples = 0
    let chunks = 0
    for await (const chunk of decodeFile(fixture(name), formatOf(name), { onSource: (s) => (source = s) })) {
      expect(chunk.channels).toHaveLength(channels)
      for (const c of chunk.channels) expect(c.length).toBe(chunk.channels[0]!.length)
      samples += chunk.channels[0]!.length
      chunks++
    }
    const truth = readTruth(name.split(".")[0]!)
    expect(source?.channels).toBe(channels)
    expect(Math.abs(samples / 16_000 - truth.duration)).toBeLessThan(0.1)
    // streamed, not decoded in one piece (the fixtures are 55–126 s; chunks are a few seconds at most)
    expect(chunks).toBeGreaterThan(1)
  })

  it("the stereo channels stay apart (rep left, prospect right)", async () => {
    const [left, right] = await decodeAll(fixture("renewal-stereo.wav"), "wav")
    const energy = (x: Float32Array, from: number, to: number) => {
      let e = 0
      for (let i = Math.round(from * 16_000); i < Math.round(to * 16_000); i++) e += x[i]! ** 2
      return e
    }
    // 2–7 s: the rep's first turn; 11–15 s: the prospect's
    expect(energy(left!, 2, 7)).toBeGreaterThan(100 * energy(right!, 2, 7))
    expect(energy(right!, 11, 15)).toBeGreaterThan(100 * energy(left!, 11, 15))
  })

  it("MP3 and M4A (moov after the media data) decode in time with the WAV", async () => {
    const [wav] = await decodeAll(fixture("discovery-short.wav"), "wav")
    for (const [name, format] of [["discovery-short.mp3", "mp3"], ["discovery-short.m4a", "m4a"]] as const) {
      const [other] = await decodeAll(fixture(name), format)
      // the lag that best aligns 20 s of speech is 0 (±1 ms)
      const correlationAt = (lag: number) => {
        let sum = 0
        for (let i = 16_000; i < 16_000 * 21; i++) sum += wav![i]! * other![i + lag]!
        return sum
      }
      let best = 0
      for (let lag = -800; lag <= 800; lag += 4) if (correlationAt(lag) > correlationAt(best)) best = lag
      expect(Math.abs(best)).toBeLessThanOrEqual(16)
    }
  })
})

describe("createResampler", () => {
  const tone = (rate: number, hz: number, seconds: number) =>
    Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.sin((2 * Math.PI * hz * i) / rate))

  const resampleInPieces = (input: Float32Array, from: number) => {
    const resampler = createResampler(from, 16_000)
    const parts: Array<Float32Array> = []
    for (let at = 0, size = 997; at < input.length; at += size, size = (size * 7) % 5003 + 101) {
      parts.push(resampler.push(input.subarray(at, at + size)))
    }
    parts.push(resampler.flush())
    const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0))
    let at = 0
    for (const p of parts) {
      out.set(p, at)
      at += p.length
    }
    return out
  }

  it.each([44_100, 48_000, 22_050, 8_000, 11_025])("%i Hz → 16 kHz keeps length, timing and a speech-band tone", (rate) => {
    const out = resampleInPieces(tone(rate, 440, 2), rate)
    expect(out.length).toBe(32_000)
    let error = 0
    for (let i = 200; i < out.length - 200; i++) error = Math.max(error, Math.abs(out[i]! - Math.sin((2 * Math.PI * 440 * i) / 16_000)))
    expect(error).toBeLessThan(0.01)
  })

  it("removes what would fold into the speech band (a 12 kHz tone at 48 kHz)", () => {
    const out = resampleInPieces(tone(48_000, 12_000, 1), 48_000)
    let peak = 0
    for (let i = 200; i < out.length - 200; i++) peak = Math.max(peak, Math.abs(out[i]!))
    expect(peak).toBeLessThan(0.01)
  })
})

describe("decoding without copies", () => {
  /** The samples of mpg123-decoder's own `decode`, fed the whole file in 256 KiB pieces. */
  const mpg123Samples = async (bytes: Uint8Array): Promise<Array<Float32Array>> => {
    const decoder = new MPEGDecoder()
    await decoder.ready
    const write = console.error
    console.error = () => {} // its line per damaged frame
    try {
      const parts: Array<Array<Float32Array>> = [[], []]
      for (let at = 0; at < bytes.length; at += 256 * 1024) {
        const { channelData } = decoder.decode(bytes.subarray(at, at + 256 * 1024))
        channelData.forEach((samples, c) => parts[c]!.push(samples))
      }
      return parts.map(concatPcm)
    } finally {
      console.error = write
      decoder.free()
    }
  }

  /** A fixture with damage: stretches of random bytes, and cut short. */
  const damaged = (bytes: Uint8Array): Uint8Array => {
    const out = bytes.slice(0, bytes.length - 777)
    let seed = 3
    for (const at of [out.length / 4, out.length / 2, (3 * out.length) / 4]) {
      for (let i = Math.floor(at); i < at + 2000; i++) out[i] = (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256
    }
    return out
  }

  it.effect.each(["discovery-short.mp3", "rep-monologue.mp3"])(
    "%s (16 kHz), intact and damaged: mpg123-decoder's samples, lent or handed over",
    (name) =>
      Effect.acquireUseRelease(
        Effect.sync(tempDir),
        ({ dir }) =>
          Effect.promise(async () => {
            const intact = new Uint8Array(fs.readFileSync(fixture(name)))
            for (const [label, bytes] of [["intact", intact], ["damaged", damaged(intact)]] as const) {
              const file = path.join(dir, `${label}.mp3`)
              fs.writeFileSync(file, bytes)
              const [want] = await mpg123Samples(bytes)
              // lent chunks are copied before the next is asked for; the others are kept as they are
              for (const borrow of [true, false]) {
                const parts: Array<Float32Array> = []
                for await (const chunk of decodeFile(file, "mp3", { borrow })) parts.push(borrow ? chunk.channels[0]!.slice() : chunk.channels[0]!)
                const got = concatPcm(parts)
                expect({ label, borrow, length: got.length }).toEqual({ label, borrow, length: want!.length })
                expect(Buffer.compare(Buffer.from(got.buffer), Buffer.from(want!.buffer))).toBe(0)
              }
            }
          }),
        ({ cleanup }) => Effect.sync(cleanup)
      )
  )

  it("a resampler reusing its output buffer answers the same samples", () => {
    const input = Float32Array.from({ length: 3 * 44_100 }, (_, i) => Math.sin(i * 0.05) * 0.4 + Math.sin(i * 0.9) * 0.1)
    const fresh = createResampler(44_100, 16_000)
    const reusing = createResampler(44_100, 16_000, { reuseOutput: true })
    for (let at = 0, size = 777; at <= input.length; at += size, size = (size * 5) % 9001 + 13) {
      const piece = input.subarray(at, at + size)
      const [a, b] = at + size > input.length ? [fresh.flush(), reusing.flush()] : [fresh.push(piece), reusing.push(piece)]
      expect(Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength))).toBe(0)
    }
  })
})
