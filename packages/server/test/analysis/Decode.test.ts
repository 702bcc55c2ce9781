/** Streaming decode to 16 kHz: durations, channels, timing across formats, and the resampler. */
import { describe, expect, it } from "@effect/vitest"
import { decodeFile, type SourceInfo } from "../../src/analysis/Decode.js"
import { createResampler } from "../../src/analysis/Resample.js"
import type { AudioFormat } from "../../src/analysis/Types.js"
import { decodeAll, fixture, readTruth } from "./utils.js"

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
