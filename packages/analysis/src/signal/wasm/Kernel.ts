/**
 * The analysis' WebAssembly kernels (`kernel.wat`, built into `kernelBytes.ts`) and their memory.
 *
 * The memory has two parts:
 * - the scratch, at its start: a call's inputs and outputs, written and read around each call;
 * - the arena after it: data placed once and used by many calls (a mixture's parameters), bump
 *   allocated. When the arena is full it starts again from its beginning, and `generation`
 *   changes: whatever was placed before must be placed again (callers keep the generation they
 *   placed at and compare).
 *
 * The typed views are replaced when the memory grows: read `f32` and `f64` after `scratch` and
 * `place`, never keep them across those calls.
 *
 * The module's initial memory (kernel.wat: 24 pages, 1.5 MB) holds the arena and every scratch
 * the analysis asks for, so it never grows for the analysis' own sizes. A growth detaches the old
 * buffer, and after the first detached buffer V8 checks every typed array access in the process
 * for detachment (its ArrayBufferDetaching protector): the whole analysis ran ~8 % slower so.
 */
import { KERNEL_BASE64 } from "./kernelBytes.js"

// The WebAssembly API as used here (the project's TypeScript libraries do not declare it)
declare const WebAssembly: {
  readonly Module: new (bytes: Uint8Array) => object
  readonly Instance: new (module: object) => { readonly exports: object }
}

interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number }
  readonly gmmScores: (block: number, groups: number, dims: number, x: number, out: number) => void
  readonly gmmAccumulate: (x: number, r: number, k: number, dims: number, sumW: number, sumX: number, sumXX: number) => void
  readonly fftPair: (
    input: number,
    output: number,
    csize: number,
    bitrev: number,
    table: number,
    firstLen: number,
    half: number,
    step: number
  ) => void
  readonly powerPair: (output: number, power: number, bins: number) => void
  readonly melPair: (power: number, firsts: number, counts: number, weights: number, bands: number, out: number) => void
  readonly dctPair: (logMel: number, dct: number, rows: number, bands: number, out: number) => void
  readonly windowPair: (samples: number, hop: number, meanA: number, meanB: number, window: number, n: number, out: number) => void
  readonly bandPair: (power: number, low: number, high: number, chunk: number, eps: number, max: number, out: number) => void
  readonly pitchPair: (
    correlation: number,
    window: number,
    minLag: number,
    maxLag: number,
    threshold: number,
    margin: number,
    fraction: number,
    rate: number,
    out: number
  ) => void
}

const PAGE = 65_536
/** The arena's room before it starts again (placed mixtures are ~2.6 KB each). */
const ARENA_BYTES = 1 << 20

const align16 = (bytes: number) => (bytes + 15) & ~15

class Kernel {
  readonly exports: KernelExports
  f32: Float32Array
  f64: Float64Array
  /** Changes whenever earlier placements are dropped. */
  generation = 0
  private scratchBytes = 0
  private next = 0

  constructor() {
    const module = new WebAssembly.Module(Buffer.from(KERNEL_BASE64, "base64"))
    this.exports = new WebAssembly.Instance(module).exports as unknown as KernelExports
    this.f32 = new Float32Array(this.exports.memory.buffer)
    this.f64 = new Float64Array(this.exports.memory.buffer)
  }

  /** Makes the scratch at least `bytes` long (dropping the placements when it must grow). */
  scratch(bytes: number): void {
    if (bytes <= this.scratchBytes) return
    this.scratchBytes = align16(Math.max(bytes, 2 * this.scratchBytes))
    this.restart()
    this.ensure(this.scratchBytes)
  }

  /** Room for `bytes` in the arena, 16-byte aligned; its byte offset. */
  place(bytes: number): number {
    const size = align16(bytes)
    if (this.next + size > this.scratchBytes + Math.max(ARENA_BYTES, size)) this.restart()
    this.ensure(this.next + size)
    const at = this.next
    this.next += size
    return at
  }

  private restart(): void {
    this.generation++
    this.next = this.scratchBytes
  }

  private ensure(bytes: number): void {
    const memory = this.exports.memory
    if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE))
    if (this.f64.buffer !== memory.buffer) {
      this.f32 = new Float32Array(memory.buffer)
      this.f64 = new Float64Array(memory.buffer)
    }
  }
}

/** This thread's kernels (each worker thread loads its own). */
export const kernel = new Kernel()

/**
 * Data the kernel reads often (a transform's twiddles, filter weights): `fill(at)` copies it to
 * byte `at` of the arena on first use, and again whenever the arena started again. The answer
 * gives its current byte offset; read it at every use, just before the kernel's call.
 */
export const placed = (bytes: number, fill: (at: number) => void): (() => number) => {
  let generation = -1
  let at = 0
  return () => {
    if (generation !== kernel.generation) {
      at = kernel.place(bytes)
      fill(at)
      generation = kernel.generation
    }
    return at
  }
}
