/** Fixture recordings of the end-to-end tests (test/fixtures), and clips cut from them. */
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { ROOT } from "./Server.js"

export const FIXTURES = join(ROOT, "test/fixtures")

/** The four fixture calls: WAV, MP3, M4A and a stereo WAV. */
export const FIXTURE_FILES = {
  wav: join(FIXTURES, "discovery-short.wav"),
  mp3: join(FIXTURES, "demo-objection.mp3"),
  m4a: join(FIXTURES, "discovery-short.m4a"),
  stereo: join(FIXTURES, "renewal-stereo.wav")
} as const

/**
 * The first `seconds` of a PCM WAV file as a new WAV file's bytes: the `fmt ` chunk is kept,
 * the `data` chunk cut (to whole frames), other chunks dropped.
 */
export const cutWav = (wav: Uint8Array, seconds: number): Uint8Array => {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength)
  const tag = (at: number) => String.fromCharCode(...wav.subarray(at, at + 4))
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a RIFF/WAVE file")
  let fmt: Uint8Array | undefined
  let data: Uint8Array | undefined
  for (let at = 12; at + 8 <= wav.length;) {
    const size = view.getUint32(at + 4, true)
    const body = wav.subarray(at + 8, Math.min(at + 8 + size, wav.length))
    if (tag(at) === "fmt ") fmt = body
    if (tag(at) === "data") data = body
    at += 8 + size + (size % 2)
  }
  if (fmt === undefined || data === undefined) throw new Error("no fmt or data chunk")
  const fmtView = new DataView(fmt.buffer, fmt.byteOffset, fmt.byteLength)
  const byteRate = fmtView.getUint32(8, true)
  const blockAlign = fmtView.getUint16(12, true)
  const length = Math.min(data.length, Math.floor((byteRate * seconds) / blockAlign) * blockAlign)
  const out = new Uint8Array(12 + 8 + fmt.length + 8 + length)
  const o = new DataView(out.buffer)
  const put = (at: number, s: string) => out.set(Array.from(s, (c) => c.charCodeAt(0)), at)
  put(0, "RIFF")
  o.setUint32(4, out.length - 8, true)
  put(8, "WAVE")
  put(12, "fmt ")
  o.setUint32(16, fmt.length, true)
  out.set(fmt, 20)
  const dataAt = 20 + fmt.length
  put(dataAt, "data")
  o.setUint32(dataAt + 4, length, true)
  out.set(data.subarray(0, length), dataAt + 8)
  return out
}

/** Writes the first `seconds` of the WAV at `from` to `to`. */
export const writeWavClip = async (from: string, to: string, seconds: number): Promise<string> => {
  await writeFile(to, cutWav(new Uint8Array(await readFile(from)), seconds))
  return to
}
