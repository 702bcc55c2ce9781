/** The format is told from the bytes, never from the file name. */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { SNIFF_BYTES, sniffFormat } from "../src/signal/Sniff.js"
import { fixture } from "./utils.js"

const head = (name: string) => new Uint8Array(fs.readFileSync(fixture(name)).subarray(0, SNIFF_BYTES))

/** Deterministic pseudo-random bytes (xorshift), so a failure can be replayed. */
const randomBytes = (length: number, seed: number): Uint8Array => {
  let x = seed >>> 0 || 1
  return Uint8Array.from({ length }, () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) & 0xff
  })
}

describe("sniffFormat", () => {
  it.each([
    ["discovery-short.wav", "wav"],
    ["renewal-stereo.wav", "wav"],
    ["discovery-short.mp3", "mp3"],
    ["demo-objection.mp3", "mp3"],
    ["renewal-stereo.mp3", "mp3"],
    ["discovery-short.m4a", "m4a"],
    ["demo-objection.m4a", "m4a"]
  ] as const)("%s is %s", (name, format) => {
    expect(sniffFormat(head(name))).toBe(format)
  })

  it("an MP3 without an ID3 tag is found by its frame headers", () => {
    const bytes = fs.readFileSync(fixture("discovery-short.mp3"))
    const tagEnd = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!)
    expect(sniffFormat(new Uint8Array(bytes.subarray(tagEnd, tagEnd + SNIFF_BYTES)))).toBe("mp3")
  })

  it("text, empty input and a few bytes are not audio", () => {
    expect(sniffFormat(new TextEncoder().encode("Hello, this is a transcript, not a recording.\n".repeat(50)))).toBeUndefined()
    expect(sniffFormat(new Uint8Array(0))).toBeUndefined()
    expect(sniffFormat(new Uint8Array([0xff, 0xfb]))).toBeUndefined()
  })

  it("random bytes are not audio", () => {
    for (let seed = 1; seed <= 200; seed++) expect(sniffFormat(randomBytes(SNIFF_BYTES, seed))).toBeUndefined()
  })

  it("random bytes after an MPEG sync word are not audio (the next frame must follow)", () => {
    for (let seed = 1; seed <= 50; seed++) {
      const bytes = randomBytes(SNIFF_BYTES, seed)
      bytes.set([0xff, 0xfb, 0x90, 0x64]) // a valid MPEG-1 layer III header, then noise
      expect(sniffFormat(bytes)).toBeUndefined()
    }
  })

  it("other RIFF and ISO BMFF files are not audio (AVI, HEIC)", () => {
    const avi = new TextEncoder().encode("RIFF\x00\x10\x00\x00AVI LIST")
    expect(sniffFormat(avi)).toBeUndefined()
    const heic = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode("ftypheic\x00\x00\x00\x00mif1heic")])
    expect(sniffFormat(heic)).toBeUndefined()
  })

  it("an ID3 tag followed by something else is not audio", () => {
    const bytes = new Uint8Array(2048)
    bytes.set(new TextEncoder().encode("ID3"))
    bytes.set([4, 0, 0, 0, 0, 0, 100], 3) // tag of 100 bytes
    bytes.set(new TextEncoder().encode("<html><body>not audio</body></html>"), 110)
    expect(sniffFormat(bytes)).toBeUndefined()
  })
})
