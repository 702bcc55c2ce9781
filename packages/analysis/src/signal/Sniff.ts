/**
 * Which audio format a file is, from its first bytes (never from its name). The upload answers
 * 415 when this says `undefined`; the analysis checks again before it decodes.
 *
 * - WAV: a RIFF header of form type WAVE.
 * - MP3: an ID3v2 tag followed by MPEG audio, or an MPEG audio frame header (layer I–III) at
 *   the start; when the head holds the next frame too, its sync must be where the first
 *   frame's length points, so random bytes that happen to start with 0xFFE are not audio.
 * - M4A: an ISO BMFF `ftyp` box with an audio/MP4 brand, or a raw ADTS AAC stream (the AAC
 *   decoder reads both; `AudioFormat` has no separate name for ADTS).
 */
import type { AudioFormat } from "../Types.js"

/** How many bytes `sniffFormat` wants to see to be sure (it decides with fewer when it can). */
export const SNIFF_BYTES = 4096

const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  at + length > bytes.length ? "" : String.fromCharCode(...bytes.subarray(at, at + length))

// ISO BMFF brands whose files carry an audio track the AAC decoder can read. Image brands
// (heic, avif...) share the box format and must not pass.
const MP4_BRANDS = new Set([
  "M4A ", "M4B ", "mp41", "mp42", "isom", "iso2", "iso3", "iso4", "iso5", "iso6",
  "dash", "3gp4", "3gp5", "3gp6", "3gp7", "3g2a", "qt  ", "MSNV", "avc1", "f4a "
])

const isM4a = (bytes: Uint8Array): boolean => {
  if (ascii(bytes, 4, 4) !== "ftyp") return false
  const size = (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!
  if (size < 16) return false
  if (MP4_BRANDS.has(ascii(bytes, 8, 4))) return true
  // compatible brands follow the major brand and its minor version
  for (let at = 16; at + 4 <= Math.min(size, bytes.length); at += 4) {
    if (MP4_BRANDS.has(ascii(bytes, at, 4))) return true
  }
  return false
}

const MPEG_BITRATES_KBPS: Record<string, ReadonlyArray<number>> = {
  // [version 1 | version 2/2.5] × layer, index 1..14 (0 = free format, 15 = invalid)
  "1-1": [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  "1-2": [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  "1-3": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  "2-1": [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  "2-2": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  "2-3": [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
}
const MPEG_RATES = [44100, 48000, 32000]

/** The length in bytes of the MPEG audio frame whose header is at `at`, or undefined if none is. */
export const mpegFrameLength = (bytes: Uint8Array, at: number): number | undefined => {
  if (at + 4 > bytes.length) return undefined
  const b1 = bytes[at + 1]!, b2 = bytes[at + 2]!
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined
  const versionBits = (b1 >> 3) & 3 // 0 = 2.5, 1 = reserved, 2 = 2, 3 = 1
  const layerBits = (b1 >> 1) & 3 // 0 = reserved (ADTS uses it), 1 = III, 2 = II, 3 = I
  const bitrateIndex = b2 >> 4
  const rateIndex = (b2 >> 2) & 3
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
    return undefined
  }
  const layer = 4 - layerBits
  const v1 = versionBits === 3
  const kbps = MPEG_BITRATES_KBPS[`${v1 ? 1 : 2}-${layer}`]![bitrateIndex]!
  const rate = MPEG_RATES[rateIndex]! / (versionBits === 3 ? 1 : versionBits === 2 ? 2 : 4)
  const padding = (b2 >> 1) & 1
  if (layer === 1) return Math.floor((12 * kbps * 1000) / rate + padding) * 4
  const perFrame = layer === 3 && !v1 ? 72 : 144
  return Math.floor((perFrame * kbps * 1000) / rate) + padding
}

const isMpegAudioAt = (bytes: Uint8Array, at: number): boolean => {
  const length = mpegFrameLength(bytes, at)
  if (length === undefined) return false
  const next = at + length
  // confirm with the next frame header when the head reaches it
  return next + 4 > bytes.length || mpegFrameLength(bytes, next) !== undefined
}

const isAdtsAt = (bytes: Uint8Array, at: number): boolean => {
  if (at + 7 > bytes.length) return false
  if (bytes[at] !== 0xff || (bytes[at + 1]! & 0xf6) !== 0xf0) return false
  const rateIndex = (bytes[at + 2]! >> 2) & 15
  if (rateIndex > 12) return false
  const length = ((bytes[at + 3]! & 3) << 11) | (bytes[at + 4]! << 3) | (bytes[at + 5]! >> 5)
  if (length < 7) return false
  const next = at + length
  return next + 2 > bytes.length || (bytes[next] === 0xff && (bytes[next + 1]! & 0xf6) === 0xf0)
}

/** Bytes taken by the ID3v2 tag at the start (0 when there is none). */
export const id3Length = (bytes: Uint8Array): number => {
  if (ascii(bytes, 0, 3) !== "ID3" || bytes.length < 10) return 0
  // the size is "synchsafe": 4 × 7 bits; a footer adds 10 bytes
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f)
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0)
}

export const sniffFormat = (head: Uint8Array): AudioFormat | undefined => {
  if (head.length < 4) return undefined
  if (ascii(head, 0, 4) === "RIFF") return ascii(head, 8, 4) === "WAVE" ? "wav" : undefined
  if (isM4a(head)) return "m4a"
  const tag = id3Length(head)
  if (tag > 0) {
    // a tag larger than the head hides what follows; MP3 is by far the usual case
    if (tag >= head.length) return "mp3"
    // encoders may leave a few stray bytes between the tag and the first frame
    for (let at = tag; at < Math.min(head.length - 4, tag + 1024); at++) {
      if (isMpegAudioAt(head, at)) return "mp3"
      if (isAdtsAt(head, at)) return "m4a"
    }
    return undefined
  }
  if (isMpegAudioAt(head, 0)) return "mp3"
  if (isAdtsAt(head, 0)) return "m4a"
  return undefined
}
