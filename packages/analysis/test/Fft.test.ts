/** The specialised real FFT gives fft.js's `realTransform` values, to the bit. */
import { describe, expect, it } from "@effect/vitest"
import FFT from "fft.js"
import { createRealFft } from "../src/signal/Fft.js"

describe("createRealFft", () => {
  it.each([4, 8, 16, 32, 64, 128, 256, 512, 1024])("size %i: fft.js's spectrum (first half and middle bin)", (size) => {
    let seed = size
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1
    const reference = new FFT(size)
    const transform = createRealFft(size)
    for (let round = 0; round < 20; round++) {
      // random input; zero-padded like a 400-sample frame in 512 (every other round); tiny and huge values
      const scale = [1, 1e-6, 1e6][round % 3]!
      const input = Float64Array.from({ length: size }, (_, i) => (round % 2 === 1 && i >= (size * 25) / 32 ? 0 : scale * random()))
      const want = new Float64Array(2 * size)
      const got = new Float64Array(2 * size)
      reference.realTransform(want, input)
      transform(got, input)
      // the values the spectrum is read from; a zero may differ in sign only
      const differing = [...want.subarray(0, size + 2)].flatMap((v, k) => (v === got[k] ? [] : [k]))
      expect(differing).toEqual([])
    }
  })
})
