/** The kernel's FFT, two frames at once, gives each frame fft.js's `realTransform` values, to the bit. */
import { describe, expect, it } from "@effect/vitest"
import FFT from "fft.js"
import { createPairFft } from "../src/signal/Fft.js"
import { kernel } from "../src/signal/wasm/Kernel.js"

describe("createPairFft", () => {
  it.each([4, 8, 16, 32, 64, 128, 256, 512, 1024])("size %i: each frame's spectrum is fft.js's (first half and middle bin)", (size) => {
    let seed = size
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1
    const reference = new FFT(size)
    const pair = createPairFft(size)
    for (let round = 0; round < 20; round++) {
      // random inputs; zero-padded like a 400-sample frame in 512 (every other round); tiny and
      // huge values; the two frames of a pair at different scales
      const frames = [0, 1].map((lane) => {
        const scale = [1, 1e-6, 1e6][(round + lane) % 3]!
        return Float64Array.from({ length: size }, (_, i) => (round % 2 === 1 && i >= (size * 25) / 32 ? 0 : scale * random()))
      })
      // the kernel's scratch: the two inputs side by side (two doubles a slot), then the spectra
      const input = 0, output = size * 16
      kernel.scratch(output + 2 * size * 16)
      frames.forEach((frame, lane) => frame.forEach((v, i) => (kernel.f64[input / 8 + 2 * i + lane] = v)))
      pair(input, output)
      frames.forEach((frame, lane) => {
        const want = new Float64Array(2 * size)
        reference.realTransform(want, frame)
        const got = Float64Array.from({ length: size + 2 }, (_, k) => kernel.f64[output / 8 + 2 * k + lane]!)
        // the values the spectrum is read from; a zero may differ in sign only
        const differing = [...want.subarray(0, size + 2)].flatMap((v, k) => (v === got[k] ? [] : [k]))
        expect(differing).toEqual([])
      })
    }
  })
})
