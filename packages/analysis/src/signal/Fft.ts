/**
 * The real-input FFT of the feature extraction: `fft.js`'s radix-4 `realTransform` (forward),
 * two frames at a time in the WebAssembly kernel (`fftPair` in wasm/kernel.wat), frame A in
 * every value's first lane and frame B in its second. Lane by lane it performs fft.js's
 * floating-point operations in fft.js's order, except for those that cannot change a value
 * (products by the direction sign +1, and by the twiddle 1 of every butterfly's first leg; at
 * most the sign of a zero could differ, which no later sum, product or square can tell). So each
 * frame's spectrum is, to the bit, fft.js's (Fft.test checks it), at a lower cost: twice the
 * arithmetic per instruction, and nothing looked up on `this`.
 *
 * Like `fft.js`, it fills the spectrum's first half and the middle bin (slots 0..size+1, complex
 * interleaved); the upper half is partly written and is not meant to be read.
 */
import { kernel, placed } from "./wasm/Kernel.js"

/** fft.js's plan of a real transform of `size`: its twiddles, bit reversal and first pass. */
const plan = (size: number) => {
  if (size < 4 || (size & (size - 1)) !== 0) throw new Error("FFT size must be a power of two, at least 4")
  const csize = size << 1
  // twiddles, computed as fft.js does
  const table = new Float64Array(size * 2)
  for (let i = 0; i < table.length; i += 2) {
    const angle = (Math.PI * i) / size
    table[i] = Math.cos(angle)
    table[i + 1] = -Math.sin(angle)
  }
  let power = 0
  for (let t = 1; size > t; t <<= 1) power++
  // full radix-4 starts with len 8 (width one smaller), otherwise a radix-2 pass gives len 4
  const width = power % 2 === 0 ? power - 1 : power
  const bitrev = new Int32Array(1 << width)
  for (let j = 0; j < bitrev.length; j++) {
    for (let shift = 0; shift < width; shift += 2) bitrev[j]! |= ((j >>> shift) & 3) << (width - shift - 2)
  }
  const firstStep = 1 << width
  const firstLen = (csize / firstStep) << 1
  return { csize, table, bitrev, firstStep, firstLen }
}

/**
 * Two frames' transforms at once, in the WebAssembly kernel (`fftPair` in wasm/kernel.wat): the
 * inputs as `size` slots of two doubles (frame A, frame B) at byte `input` of the kernel's
 * memory, the spectra as `2 · size` slots at byte `output` (complex interleaved). Each
 * frame's spectrum is fft.js's (see above).
 */
export const createPairFft = (size: number): ((input: number, output: number) => void) => {
  const { csize, table, bitrev, firstStep, firstLen } = plan(size)
  const tables = placed(table.length * 8 + bitrev.length * 4, (at) => {
    kernel.f64.set(table, at / 8)
    new Int32Array(kernel.f64.buffer, at + table.length * 8, bitrev.length).set(bitrev)
  })
  return (input, output) => {
    const at = tables()
    kernel.exports.fftPair(input, output, csize, at + table.length * 8, at, firstLen, firstStep >>> 1, firstStep >> 2)
  }
}
