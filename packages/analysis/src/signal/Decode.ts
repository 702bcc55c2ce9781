/**
 * Streaming decode of an audio file into 16 kHz PCM, one chunk at a time, so a two-hour call
 * is never held in memory as samples: the caller turns each chunk into compact per-frame
 * features and drops it.
 *
 * Decoders are well-kept WASM/JS packages, one per format:
 * - MP3: `mpg123-decoder` (libmpg123; gapless via the LAME/Xing header), fed file chunks.
 * - WAV: `@audio/decode-wav` (PCM, float, A-law, µ-law, ADPCM), fed file chunks.
 * - M4A: `mp4box` reads the `moov` box (wherever it sits: encoders often write it after the
 *   media data), we walk its sample tables and read the AAC access units in file order with
 *   positioned reads, and `@audio/decode-aac` (FAAD2) decodes them, trimmed to the track's edit
 *   list. Raw ADTS streams go to the same decoder as a byte stream.
 *
 * Mono stays one channel, stereo stays two (whether the two differ is the analysis' call),
 * more channels are mixed down to one.
 */
import { decoder as createAacDecoder } from "@audio/decode-aac"
import { decoder as createWavDecoder } from "@audio/decode-wav"
import * as MP4Box from "mp4box"
import { MPEGDecoder } from "mpg123-decoder"
import * as fs from "node:fs"
import { ANALYSIS_RATE, createResampler, type Resampler } from "./Resample.js"
import { id3Length, mpegFrameLength } from "./Sniff.js"
import type { AudioFormat } from "../Types.js"

/** A piece of the call at `ANALYSIS_RATE`: one Float32Array per channel, all the same length. */
export interface PcmChunk {
  readonly channels: ReadonlyArray<Float32Array>
}

/** What the file says about itself, known once the first audio has been decoded. */
export interface SourceInfo {
  readonly sampleRate: number
  readonly channels: number
}

/** The file's bytes are not audio this decoder can read. */
export class DecodeFailure extends Error {
  override readonly name = "DecodeFailure"
}

export interface DecodeOptions {
  readonly signal?: AbortSignal
  /** Fraction of the file's bytes read so far (0..1). */
  readonly onProgress?: (fraction: number) => void
  /** Called once, before the first chunk. */
  readonly onSource?: (info: SourceInfo) => void
  /**
   * The caller uses each chunk before asking for the next and keeps none: the chunks may then be
   * views of buffers the decoder reuses (no copy, no garbage per chunk).
   */
  readonly borrow?: boolean
}

/** Decoded samples at the source's rate, per channel. */
interface RawAudio {
  readonly channelData: ReadonlyArray<Float32Array>
  readonly sampleRate: number
}

const READ_CHUNK = 256 * 1024

/**
 * Turns raw decoder output (any rate, any channel count) into `PcmChunk`s at 16 kHz with the
 * channel count fixed by the first output. With `reuse`, a chunk may be a view of a buffer the
 * next `emit` overwrites (for a caller that hands each chunk on before the next, to a borrower).
 */
const createConditioner = (sourceChannels: number | undefined, options: DecodeOptions, reuse = false) => {
  let outChannels = 0
  let rate = 0
  let resamplers: Array<Resampler> = []
  let decodedSamples = 0

  const mapChannels = (data: ReadonlyArray<Float32Array>): Array<Float32Array> => {
    const available = Math.min(data.length, sourceChannels ?? data.length)
    if (outChannels === 1) {
      if (available === 1) return [data[0]!]
      const mixed = new Float32Array(data[0]!.length)
      for (let c = 0; c < available; c++) {
        const channel = data[c]!
        for (let i = 0; i < mixed.length; i++) mixed[i]! += channel[i]! / available
      }
      return [mixed]
    }
    return available >= 2 ? [data[0]!, data[1]!] : [data[0]!, data[0]!]
  }

  const emit = (raw: RawAudio): PcmChunk | undefined => {
    if (raw.channelData.length === 0 || raw.channelData[0]!.length === 0) return undefined
    if (outChannels === 0) {
      const channels = Math.min(raw.channelData.length, sourceChannels ?? raw.channelData.length)
      outChannels = channels === 2 ? 2 : 1
      options.onSource?.({ sampleRate: raw.sampleRate, channels })
    }
    const flushed = rate !== 0 && raw.sampleRate !== rate ? resamplers.map((r) => r.flush()) : undefined
    if (rate !== raw.sampleRate) {
      rate = raw.sampleRate
      resamplers = Array.from({ length: outChannels }, () => createResampler(rate, ANALYSIS_RATE, { reuseOutput: reuse }))
    }
    decodedSamples += raw.channelData[0]!.length
    const channels = mapChannels(raw.channelData).map((samples, c) => {
      const out = resamplers[c]!.push(samples)
      return flushed ? concat(flushed[c]!, out) : out
    })
    return channels[0]!.length > 0 ? { channels } : undefined
  }

  const finish = (): PcmChunk | undefined => {
    if (decodedSamples === 0) throw new DecodeFailure("no audio could be decoded from the file")
    const channels = resamplers.map((r) => r.flush())
    return channels[0]!.length > 0 ? { channels } : undefined
  }

  return { emit, finish }
}

const concat = (a: Float32Array, b: Float32Array): Float32Array => {
  if (a.length === 0) return b
  const out = new Float32Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Reads the file front to back in chunks of `READ_CHUNK` bytes. */
async function* readChunks(path: string, size: number, options: DecodeOptions, reuse = false): AsyncGenerator<Uint8Array> {
  if (reuse) {
    yield* readChunksInto(path, size, options)
    return
  }
  const stream = fs.createReadStream(path, {
    highWaterMark: READ_CHUNK,
    ...(options.signal ? { signal: options.signal } : {})
  })
  let read = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    read += chunk.length
    yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    options.onProgress?.(size > 0 ? read / size : 1)
  }
}

/**
 * `readChunks` into one buffer, read again for every chunk: for a decoder that copies each chunk
 * before asking for the next (a stream would leave a new 256 KiB buffer per chunk to the collector).
 */
async function* readChunksInto(path: string, size: number, options: DecodeOptions): AsyncGenerator<Uint8Array> {
  const handle = await fs.promises.open(path, "r")
  try {
    const buffer = new Uint8Array(READ_CHUNK)
    let read = 0
    for (;;) {
      options.signal?.throwIfAborted()
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, read)
      if (bytesRead === 0) break
      read += bytesRead
      yield buffer.subarray(0, bytesRead)
      options.onProgress?.(size > 0 ? read / size : 1)
    }
  } finally {
    await handle.close()
  }
}

const fileSize = async (path: string): Promise<number> => (await fs.promises.stat(path)).size

/** Reads `length` bytes at `position` (fewer at the end of the file). */
const readAt = async (handle: fs.promises.FileHandle, position: number, length: number): Promise<Uint8Array> => {
  const buffer = new Uint8Array(length)
  let filled = 0
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  return filled === length ? buffer : buffer.subarray(0, filled)
}

// ---------------------------------------------------------------------------------------------
// MP3

/** The channel count of the first MPEG frame (mpg123 always answers two channels). */
const mp3Channels = (head: Uint8Array): number | undefined => {
  const tag = id3Length(head)
  for (let at = tag; at + 4 <= head.length && at < tag + 64 * 1024; at++) {
    const length = mpegFrameLength(head, at)
    if (length !== undefined && (at + length + 4 > head.length || mpegFrameLength(head, at + length) !== undefined)) {
      return head[at + 3]! >> 6 === 3 ? 1 : 2
    }
  }
  return undefined
}

/**
 * `decoder.decode`, without the line `mpg123-decoder` writes to `console.error` for every frame
 * it cannot read ("mpg123-decoder: -1 MPG123_ERR"): a truncated or damaged MP3 is expected input
 * (what it holds is judged from the audio decoded), and the same errors are in the result's
 * `errors`. Anything else written meanwhile goes through.
 */
const decodeQuietly = (decoder: MPEGDecoder, bytes: Uint8Array): ReturnType<MPEGDecoder["decode"]> => {
  const write = console.error
  console.error = (...args: Array<unknown>) => {
    if (!(typeof args[0] === "string" && args[0].startsWith("mpg123-decoder: "))) write(...args)
  }
  try {
    return decoder.decode(bytes)
  } finally {
    console.error = write
  }
}

/**
 * The parts of an `MPEGDecoder` (mpg123-decoder 1.0.3, pinned) its own `decode` works with: the
 * WASM functions and the buffers it allocated in WASM memory. `decode` copies every frame's output
 * out of WASM memory twice (a slice per channel, then one array per channel for the call), always
 * for two channels: for a mono call that is four floats of garbage per sample, some hundreds of MB
 * an hour, which the collector lets pile up (tens of MB) before it runs. `decodeInto` runs the same
 * loop and copies each frame's samples once, into buffers that are reused.
 */
interface Mpg123Internals {
  readonly wasm: {
    readonly mpeg_decoder_feed: (decoder: number, input: number, length: number) => number
    readonly mpeg_decoder_read: (
      decoder: number,
      output: number,
      outputLength: number,
      samplesDecoded: number,
      sampleRate: number,
      errorString: number
    ) => number
  }
  readonly decoder: number
  readonly input: { readonly ptr: number; readonly len: number; readonly buf: Uint8Array }
  readonly output: { readonly ptr: number; readonly len: number; readonly buf: Float32Array }
  readonly samplesDecoded: { readonly ptr: number; readonly buf: Uint32Array }
  readonly sampleRate: { readonly ptr: number; readonly buf: Uint32Array }
  readonly errorString: { readonly ptr: number }
}

/** The decoder's internals when they are what `decodeInto` expects; otherwise `decode` is used. */
const mpg123Internals = (decoder: MPEGDecoder): Mpg123Internals | undefined => {
  const d = decoder as unknown as Record<string, { ptr?: unknown; len?: unknown; buf?: unknown } & Record<string, unknown>>
  const wasm = d["_common"]?.["wasm"] as Record<string, unknown> | undefined
  const pointer = (name: string, type: Function) =>
    typeof d[name]?.ptr === "number" && d[name]!.buf instanceof type ? d[name] : undefined
  const input = pointer("_input", Uint8Array)
  const output = pointer("_output", Float32Array)
  const samplesDecoded = pointer("_samplesDecodedPtr", Uint32Array)
  const sampleRate = pointer("_sampleRatePtr", Uint32Array)
  const errorString = pointer("_errorStringPtr", Uint32Array)
  const handle = (decoder as unknown as Record<string, unknown>)["_decoder"]
  if (
    typeof wasm?.["mpeg_decoder_feed"] !== "function" ||
    typeof wasm["mpeg_decoder_read"] !== "function" ||
    typeof handle !== "number" ||
    !input || typeof input.len !== "number" ||
    !output || typeof output.len !== "number" ||
    !samplesDecoded || !sampleRate || !errorString
  ) {
    return undefined
  }
  return { wasm, decoder: handle, input, output, samplesDecoded, sampleRate, errorString } as unknown as Mpg123Internals
}

/** Growable channels of samples (the left only, or both), reused from one call to the next. */
class Sink {
  left = new Float32Array(1 << 16)
  right: Float32Array
  length = 0
  constructor(readonly stereo: boolean) {
    this.right = new Float32Array(stereo ? 1 << 16 : 0)
  }
  append(from: Float32Array, samples: number): void {
    if (this.length + samples > this.left.length) {
      const size = Math.max(2 * this.left.length, this.length + samples)
      const left = new Float32Array(size)
      left.set(this.left.subarray(0, this.length))
      this.left = left
      if (this.stereo) {
        const right = new Float32Array(size)
        right.set(this.right.subarray(0, this.length))
        this.right = right
      }
    }
    // mpg123-decoder's output buffer holds the left channel's samples, then the right's
    this.left.set(from.subarray(0, samples), this.length)
    if (this.stereo) this.right.set(from.subarray(samples, 2 * samples), this.length)
    this.length += samples
  }
  /** Both channels, as `decode` answers them (a mono file's second channel is not read). */
  channels(): Array<Float32Array> {
    const left = this.left.subarray(0, this.length)
    return [left, this.stereo ? this.right.subarray(0, this.length) : left]
  }
}

/**
 * What `MPEGDecoder.decode(data)` answers, with the same loop over the same WASM calls (feed the
 * input in pieces of the decoder's input buffer, read frames until it needs more; a frame that
 * cannot be read is skipped and reading goes on), into `sink` (emptied first). Its errors are not
 * collected (nothing reads them).
 */
const decodeInto = (mpg123: Mpg123Internals, data: Uint8Array, sink: Sink): RawAudio => {
  const { wasm, decoder, input, output, samplesDecoded, sampleRate, errorString } = mpg123
  sink.length = 0
  feed: for (let offset = 0, length = 0; offset < data.length; offset += length) {
    const piece = data.subarray(offset, input.len + offset)
    length = piece.length
    input.buf.set(piece)
    let error = wasm.mpeg_decoder_feed(decoder, input.ptr, length)
    if (error === -10) continue feed // MPG123_NEED_MORE
    for (;;) {
      samplesDecoded.buf[0] = 0
      error = wasm.mpeg_decoder_read(decoder, output.ptr, output.len, samplesDecoded.ptr, sampleRate.ptr, errorString.ptr)
      const samples = samplesDecoded.buf[0]!
      if (samples) sink.append(output.buf, samples)
      if (error === -10) continue feed // MPG123_NEED_MORE; -11 (MPG123_NEW_FORMAT) and errors: read on
    }
  }
  return { channelData: sink.channels(), sampleRate: sampleRate.buf[0]! }
}

/**
 * Input bytes per decoding step: a few seconds of audio (about 5 s at 48 kbit/s), so the decoded
 * samples held at once stay small.
 */
const MP3_PIECE = 32 * 1024

async function* decodeMp3(path: string, options: DecodeOptions): AsyncGenerator<PcmChunk> {
  const size = await fileSize(path)
  const decoder = new MPEGDecoder()
  await decoder.ready
  const mpg123 = mpg123Internals(decoder)
  try {
    let conditioner: ReturnType<typeof createConditioner> | undefined
    let sink: Sink | undefined
    // mpg123 copies the bytes it is given: one read buffer serves every chunk
    for await (const bytes of readChunks(path, size, options, true)) {
      // the first chunk (256 KiB) holds the ID3 tag and the first frames in practice
      if (!conditioner) {
        const channels = mp3Channels(bytes) ?? 2
        conditioner = createConditioner(channels, options, options.borrow)
        sink = new Sink(channels !== 1)
      }
      for (let at = 0; at < bytes.length; at += MP3_PIECE) {
        const piece = bytes.subarray(at, at + MP3_PIECE)
        const raw = mpg123 ? decodeInto(mpg123, piece, sink!) : decodeQuietly(decoder, piece)
        const chunk = conditioner.emit(raw)
        // the sink is reused: the chunk is handed out as is only to a caller that borrows
        if (chunk) yield options.borrow || !mpg123 ? chunk : { channels: chunk.channels.map((c) => c.slice()) }
      }
    }
    if (!conditioner) throw new DecodeFailure("the file is empty")
    const last = conditioner.finish()
    if (last) yield last
  } finally {
    decoder.free()
  }
}

// ---------------------------------------------------------------------------------------------
// WAV

async function* decodeWav(path: string, options: DecodeOptions): AsyncGenerator<PcmChunk> {
  yield* decodeFrames(path, await fileSize(path), createWavDecoder(), "WAV file", options)
}

/** Feeds a file's bytes to a chunk decoder (WAV, raw AAC) and yields conditioned 16 kHz chunks. */
async function* decodeFrames(
  path: string,
  size: number,
  decoder: { readonly decode: (bytes: Uint8Array) => RawAudio; readonly free: () => void },
  what: string,
  options: DecodeOptions
): AsyncGenerator<PcmChunk> {
  const conditioner = createConditioner(undefined, options, options.borrow)
  try {
    for await (const bytes of readChunks(path, size, options)) {
      let raw: RawAudio
      try {
        raw = decoder.decode(bytes)
      } catch (cause) {
        throw new DecodeFailure(`not a readable ${what}: ${(cause as Error).message}`)
      }
      const chunk = conditioner.emit(raw)
      if (chunk) yield chunk
    }
    const last = conditioner.finish()
    if (last) yield last
  } finally {
    decoder.free()
  }
}

// ---------------------------------------------------------------------------------------------
// M4A (ISO BMFF with AAC) and raw ADTS

interface TopBox {
  readonly type: string
  readonly start: number
  readonly size: number
}

/** The top-level boxes of an ISO BMFF file, from their headers alone. */
const topLevelBoxes = async (handle: fs.promises.FileHandle, size: number): Promise<Array<TopBox>> => {
  const boxes: Array<TopBox> = []
  let at = 0
  while (at + 8 <= size) {
    const header = await readAt(handle, at, 16)
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength)
    const type = String.fromCharCode(header[4]!, header[5]!, header[6]!, header[7]!)
    let boxSize = view.getUint32(0)
    if (boxSize === 1 && header.length >= 16) boxSize = Number(view.getBigUint64(8))
    else if (boxSize === 0) boxSize = size - at // the last box runs to the end of the file
    if (boxSize < 8) break // damaged: stop at what was readable
    boxes.push({ type, start: at, size: Math.min(boxSize, size - at) })
    at += boxSize
  }
  return boxes
}

interface AacTrack {
  readonly asc: Uint8Array
  readonly sampleCount: number
  readonly sampleSize: (index: number) => number
  readonly chunkOffsets: ReadonlyArray<number>
  /** stsc: the first chunk (1-based) of each run and its samples per chunk */
  readonly firstChunk: ReadonlyArray<number>
  readonly samplesPerChunk: ReadonlyArray<number>
  /** The presentation window from the edit list, seconds of the media timeline. */
  readonly window: { readonly start: number; readonly duration?: number } | undefined
  readonly channels: number
}

// The parts of mp4box's parsed boxes this module reads (its own types are loose here).
interface ParsedTrak {
  readonly mdia: {
    readonly mdhd: { readonly timescale: number }
    readonly minf: {
      readonly stbl: {
        readonly stsd: { readonly entries: ReadonlyArray<{ readonly type?: string; readonly esds?: ParsedEsds; readonly channel_count?: number }> }
        readonly stsz?: { readonly sample_size: number; readonly sample_count: number; readonly sample_sizes: ArrayLike<number> }
        readonly stco?: { readonly chunk_offsets: ArrayLike<number> }
        readonly co64?: { readonly chunk_offsets: ArrayLike<number> }
        readonly stsc: { readonly first_chunk: ArrayLike<number>; readonly samples_per_chunk: ArrayLike<number> }
      }
    }
  }
  readonly edts?: { readonly elst?: { readonly entries: ReadonlyArray<{ readonly segment_duration: number; readonly media_time: number }> } }
}
interface ParsedEsds {
  readonly esd: { readonly descs: ReadonlyArray<{ readonly tag: number; readonly descs: ReadonlyArray<{ readonly tag: number; readonly data?: Uint8Array }> }> }
}

/** Reads `moov` with mp4box and picks the first AAC audio track's tables. */
const readAacTrack = (ftyp: Uint8Array, moov: Uint8Array): AacTrack => {
  // mp4box wants a file that starts with ftyp; sample offsets in moov are absolute, so a
  // buffer of ftyp + moov describes the real file's media data exactly
  const bytes = new Uint8Array(ftyp.length + moov.length)
  bytes.set(ftyp)
  bytes.set(moov, ftyp.length)
  const file = MP4Box.createFile()
  let failure: string | undefined
  file.onError = (_module: string, message: string) => {
    failure = message
  }
  const buffer = MP4Box.MP4BoxBuffer.fromArrayBuffer(bytes.buffer, 0)
  file.appendBuffer(buffer)
  file.flush()
  const info = file.getInfo()
  if (failure) throw new DecodeFailure(`unreadable MP4 header: ${failure}`)
  const track = info.audioTracks.find((t) => t.codec.startsWith("mp4a"))
  if (!track) throw new DecodeFailure("the MP4 file has no AAC audio track")
  const trak = file.getTrackById(track.id) as unknown as ParsedTrak
  const stbl = trak.mdia.minf.stbl
  const entry = stbl.stsd.entries[0]
  const decoderConfig = entry?.esds?.esd.descs.find((d) => d.tag === 4)
  const asc = decoderConfig?.descs.find((d) => d.tag === 5)?.data
  const offsets = stbl.stco?.chunk_offsets ?? stbl.co64?.chunk_offsets
  if (!asc || !stbl.stsz || !offsets || offsets.length === 0) {
    throw new DecodeFailure("the MP4 audio track has no sample tables (fragmented or damaged file)")
  }
  const stsz = stbl.stsz
  const sizes = stsz.sample_sizes
  const edits = (trak.edts?.elst?.entries ?? []).filter((e) => e.media_time >= 0)
  const movieTimescale = (file.moov as unknown as { mvhd: { timescale: number } }).mvhd.timescale
  const window =
    edits.length === 1
      ? {
          start: edits[0]!.media_time / trak.mdia.mdhd.timescale,
          ...(edits[0]!.segment_duration > 0 ? { duration: edits[0]!.segment_duration / movieTimescale } : {})
        }
      : undefined
  return {
    asc,
    sampleCount: stsz.sample_size > 0 ? stsz.sample_count : sizes.length,
    sampleSize: stsz.sample_size > 0 ? () => stsz.sample_size : (i) => sizes[i]!,
    chunkOffsets: Array.from(offsets),
    firstChunk: Array.from(stbl.stsc.first_chunk),
    samplesPerChunk: Array.from(stbl.stsc.samples_per_chunk),
    window,
    channels: track.audio?.channel_count ?? 2
  }
}

/** (offset, size) of every access unit, in table order, without materialising the list. */
function* samplePositions(track: AacTrack): Generator<readonly [number, number]> {
  let sample = 0
  let run = 0 // the stsc entry that covers `chunk` (entries are in chunk order)
  for (let chunk = 0; chunk < track.chunkOffsets.length && sample < track.sampleCount; chunk++) {
    while (run + 1 < track.firstChunk.length && track.firstChunk[run + 1]! - 1 <= chunk) run++
    let offset = track.chunkOffsets[chunk]!
    for (let i = 0; i < track.samplesPerChunk[run]! && sample < track.sampleCount; i++, sample++) {
      const size = track.sampleSize(sample)
      yield [offset, size]
      offset += size
    }
  }
}

const MAX_READ = READ_CHUNK
const FRAMES_PER_DECODE = 256

async function* decodeMp4(path: string, size: number, options: DecodeOptions): AsyncGenerator<PcmChunk> {
  const handle = await fs.promises.open(path, "r")
  try {
    const boxes = await topLevelBoxes(handle, size)
    const ftypBox = boxes.find((b) => b.type === "ftyp")
    const moovBox = boxes.find((b) => b.type === "moov")
    if (!ftypBox || !moovBox) throw new DecodeFailure("the MP4 file has no movie header (moov); truncated or fragmented")
    const track = readAacTrack(await readAt(handle, ftypBox.start, ftypBox.size), await readAt(handle, moovBox.start, moovBox.size))
    const decoder = await createAacDecoder({ asc: track.asc, ...(track.window ? { gapless: track.window } : {}) }).catch(
      (cause: Error) => {
        throw new DecodeFailure(`unsupported AAC configuration: ${cause.message}`)
      }
    )
    try {
      const conditioner = createConditioner(undefined, options)
      // group consecutive access units into reads of up to READ_CHUNK bytes
      let group: Array<readonly [number, number]> = []
      let groupStart = 0
      let groupEnd = 0
      const decodeGroup = async (): Promise<PcmChunk | undefined> => {
        if (group.length === 0) return undefined
        options.signal?.throwIfAborted()
        const bytes = await readAt(handle, groupStart, groupEnd - groupStart)
        const frames: Array<Uint8Array> = []
        for (const [offset, length] of group) {
          const from = offset - groupStart
          if (from + length > bytes.length) break // the file ends early: decode what is there
          frames.push(bytes.subarray(from, from + length))
        }
        group = []
        let chunk: PcmChunk | undefined
        for (let i = 0; i < frames.length; i += FRAMES_PER_DECODE) {
          const raw = decoder.decode(frames.slice(i, i + FRAMES_PER_DECODE))
          const piece = conditioner.emit(raw)
          if (piece) chunk = chunk ? { channels: chunk.channels.map((c, k) => concat(c, piece.channels[k]!)) } : piece
        }
        options.onProgress?.(size > 0 ? Math.min(1, groupEnd / size) : 1)
        return chunk
      }
      for (const [offset, length] of samplePositions(track)) {
        if (offset >= size) break
        const contiguous = group.length > 0 && offset === groupEnd && groupEnd + length - groupStart <= MAX_READ
        if (!contiguous) {
          const chunk = await decodeGroup()
          if (chunk) yield chunk
          groupStart = offset
          groupEnd = offset
        }
        group.push([offset, length])
        groupEnd = offset + length
      }
      const chunk = await decodeGroup()
      if (chunk) yield chunk
      const last = conditioner.finish()
      if (last) yield last
    } finally {
      decoder.free()
    }
  } finally {
    await handle.close()
  }
}

async function* decodeAdts(path: string, size: number, options: DecodeOptions): AsyncGenerator<PcmChunk> {
  yield* decodeFrames(path, size, await createAacDecoder(), "AAC stream", options)
}

async function* decodeM4a(path: string, options: DecodeOptions): AsyncGenerator<PcmChunk> {
  const size = await fileSize(path)
  const handle = await fs.promises.open(path, "r")
  const head = await readAt(handle, 0, 8).finally(() => handle.close())
  const isMp4 = head.length === 8 && String.fromCharCode(...head.subarray(4, 8)) === "ftyp"
  yield* isMp4 ? decodeMp4(path, size, options) : decodeAdts(path, size, options)
}

// ---------------------------------------------------------------------------------------------

/**
 * The file's audio as 16 kHz chunks, in order. Fails with `DecodeFailure` when the bytes are not
 * audio of `format`; a file that ends early yields what it holds.
 */
export const decodeFile = (path: string, format: AudioFormat, options: DecodeOptions = {}): AsyncGenerator<PcmChunk> => {
  switch (format) {
    case "mp3":
      return decodeMp3(path, options)
    case "wav":
      return decodeWav(path, options)
    case "m4a":
      return decodeM4a(path, options)
  }
}
