/** The fixture calls (test/fixtures, copied from ../shared/fixtures) and files made from them. */
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const FIXTURES = resolve(fileURLToPath(new URL("../fixtures", import.meta.url)))

export const fixturePath = (name: string) => join(FIXTURES, name)
export const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(fixturePath(name)))

export interface TruthTurn {
  readonly speaker: string
  readonly start: number
  readonly end: number
  readonly text: string
}
export interface Truth {
  readonly duration: number
  readonly stereo: boolean
  readonly speakers: ReadonlyArray<string>
  readonly turns: ReadonlyArray<TruthTurn>
}
export const truth = (call: string): Truth => JSON.parse(readFileSync(fixturePath(`${call}.truth.json`), "utf8"))

/** A 16-bit PCM WAV of the given mono samples (16 kHz unless said otherwise). */
export const wavOf = (samples: Int16Array, sampleRate = 16_000): Uint8Array => {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  const header = Buffer.alloc(44)
  header.write("RIFF", 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write("WAVE", 8)
  header.write("fmt ", 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write("data", 36)
  header.writeUInt32LE(data.length, 40)
  return new Uint8Array(Buffer.concat([header, data]))
}

/** The samples of a 16-bit mono WAV fixture (its `data` chunk). */
export const wavSamples = (name: string): Int16Array => {
  const bytes = Buffer.from(fixture(name))
  let offset = 12
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("ascii", offset, offset + 4)
    const size = bytes.readUInt32LE(offset + 4)
    if (id === "data") {
      const data = bytes.subarray(offset + 8, offset + 8 + size)
      return new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length))
    }
    offset += 8 + size + (size % 2)
  }
  throw new Error(`no data chunk in ${name}`)
}
