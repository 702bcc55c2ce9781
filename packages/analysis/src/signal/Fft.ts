/**
 * The real-input FFT of the feature extraction: `fft.js`'s radix-4 `realTransform`, specialised
 * for a forward transform on Float64Arrays. It performs the same floating-point operations in
 * the same order, except for those that cannot change a value: products by the direction sign
 * +1, by the twiddle 1 of every butterfly's first leg, and by (or sums with) the imaginary parts
 * that are still exactly zero in the first two passes (at most the sign of a zero could differ,
 * which no later sum, product or square can tell). So its spectrum is, to the bit, `fft.js`'s
 * (`test/analysis/Fft.test.ts` checks it) at a lower cost: the first two passes are done
 * together in registers, each pass's twiddles are read in order from typed arrays, and nothing
 * is looked up on `this`.
 *
 * Like `fft.js`, it fills the spectrum's first half and the middle bin (`out[0..size+1]`, complex
 * interleaved); the upper half is partly written and is not meant to be read.
 */

export type RealFft = (out: Float64Array, input: Float64Array) => void

export const createRealFft = (size: number): RealFft => {
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
  // every radix-4 pass's twiddles (for B, C and D) in the order its butterflies use them
  const passTwiddles = new Map<number, Float64Array>()
  for (let step = firstStep >> 2; step >= 2; step >>= 2) {
    const hquarterLen = ((csize / step) << 1) >>> 3
    const tw = new Float64Array(6 * (hquarterLen >>> 1))
    for (let i = 2, k = step, t = 0; i <= hquarterLen; i += 2, k += step, t += 6) {
      tw[t] = table[k]!
      tw[t + 1] = table[k + 1]!
      tw[t + 2] = table[2 * k]!
      tw[t + 3] = table[2 * k + 1]!
      tw[t + 4] = table[3 * k]!
      tw[t + 5] = table[3 * k + 1]!
    }
    passTwiddles.set(step, tw)
  }
  const half = firstStep >>> 1
  const half2 = half * 2
  const half3 = half * 3

  return (out, data) => {
    let step = firstStep >> 2
    if (firstLen === 4 && step >= 2 && csize / step === 8) {
      // the radix-2 pass and the first radix-4 pass together, on registers: all imaginary
      // parts are still zero here, so their products (zeros) and sums (with zeros) are left out.
      // Only the slots the next passes read are written (the first pass's other slots are not
      // read again).
      const tBr = table[step]!, tBi = table[step + 1]!
      const tCr = table[2 * step]!, tCi = table[2 * step + 1]!
      const tDr = table[3 * step]!, tDi = table[3 * step + 1]!
      for (let outOff = 0, t = 0; outOff < csize; outOff += 16, t += 4) {
        const off0 = bitrev[t]! >>> 1, off1 = bitrev[t + 1]! >>> 1, off2 = bitrev[t + 2]! >>> 1, off3 = bitrev[t + 3]! >>> 1
        const e0 = data[off0]!, o0 = data[off0 + half]!
        const e1 = data[off1]!, o1 = data[off1 + half]!
        const e2 = data[off2]!, o2 = data[off2 + half]!
        const e3 = data[off3]!, o3 = data[off3 + half]!
        // i = 0: the sums of each pair
        const s0 = e0 + o0, s1 = e1 + o1, s2 = e2 + o2, s3 = e3 + o3
        const T0r = s0 + s2
        const T1r = s0 - s2
        const T2r = s1 + s3
        const T3r = s1 - s3
        out[outOff] = T0r + T2r
        out[outOff + 1] = 0
        out[outOff + 4] = T1r
        out[outOff + 5] = -T3r
        out[outOff + 8] = T0r - T2r
        out[outOff + 9] = 0
        // i = 2: the differences, turned by the block's twiddles
        const d0 = e0 - o0, d1 = e1 - o1, d2 = e2 - o2, d3 = e3 - o3
        const MBr = d1 * tBr, MBi = d1 * tBi
        const MCr = d2 * tCr, MCi = d2 * tCi
        const MDr = d3 * tDr, MDi = d3 * tDi
        const U0r = d0 + MCr
        const U1r = d0 - MCr
        const U2r = MBr + MDr
        const U2i = MBi + MDi
        const U3r = MBr - MDr
        const U3i = MBi - MDi
        out[outOff + 2] = U0r + U2r
        out[outOff + 3] = MCi + U2i
        out[outOff + 6] = U1r + U3i
        out[outOff + 7] = -MCi - U3r
      }
      step >>= 2
    } else if (firstLen === 8 && step >= 2 && csize / step === 16) {
      // the first radix-4 pass and the next one together, on registers: of the first pass's four
      // outputs per group, the first and third have a zero imaginary part, whose products and
      // sums are left out. Only the slots the next passes read are written.
      const t1Br = table[step]!, t1Bi = table[step + 1]!
      const t1Cr = table[2 * step]!, t1Ci = table[2 * step + 1]!
      const t1Dr = table[3 * step]!, t1Di = table[3 * step + 1]!
      const k2 = 2 * step
      const t2Br = table[k2]!, t2Bi = table[k2 + 1]!
      const t2Cr = table[2 * k2]!, t2Ci = table[2 * k2 + 1]!
      const t2Dr = table[3 * k2]!, t2Di = table[3 * k2 + 1]!
      for (let outOff = 0, t = 0; outOff < csize; outOff += 32, t += 4) {
        // the first pass on four groups: P·0 = T0 + T2, P·1 = (T1, -T3), P·2 = T0 - T2
        let off = bitrev[t]! >>> 1
        let Ar = data[off]!, Br = data[off + half]!, Cr = data[off + half2]!, Dr = data[off + half3]!
        let T0r = Ar + Cr, T2r = Br + Dr
        const P00 = T0r + T2r, P01r = Ar - Cr, P01i = -(Br - Dr), P02 = T0r - T2r
        off = bitrev[t + 1]! >>> 1
        Ar = data[off]!, Br = data[off + half]!, Cr = data[off + half2]!, Dr = data[off + half3]!
        T0r = Ar + Cr, T2r = Br + Dr
        const P10 = T0r + T2r, P11r = Ar - Cr, P11i = -(Br - Dr), P12 = T0r - T2r
        off = bitrev[t + 2]! >>> 1
        Ar = data[off]!, Br = data[off + half]!, Cr = data[off + half2]!, Dr = data[off + half3]!
        T0r = Ar + Cr, T2r = Br + Dr
        const P20 = T0r + T2r, P21r = Ar - Cr, P21i = -(Br - Dr), P22 = T0r - T2r
        off = bitrev[t + 3]! >>> 1
        Ar = data[off]!, Br = data[off + half]!, Cr = data[off + half2]!, Dr = data[off + half3]!
        T0r = Ar + Cr, T2r = Br + Dr
        const P30 = T0r + T2r, P31r = Ar - Cr, P31i = -(Br - Dr), P32 = T0r - T2r
        {
          // i = 0: real inputs, twiddles 1
          const U0r = P00 + P20
          const U1r = P00 - P20
          const U2r = P10 + P30
          const U3r = P10 - P30
          out[outOff] = U0r + U2r
          out[outOff + 1] = 0
          out[outOff + 8] = U1r
          out[outOff + 9] = -U3r
          out[outOff + 16] = U0r - U2r
          out[outOff + 17] = 0
        }
        {
          // i = 2: complex inputs, with the mirrored outputs
          const MBr = P11r * t1Br - P11i * t1Bi
          const MBi = P11r * t1Bi + P11i * t1Br
          const MCr = P21r * t1Cr - P21i * t1Ci
          const MCi = P21r * t1Ci + P21i * t1Cr
          const MDr = P31r * t1Dr - P31i * t1Di
          const MDi = P31r * t1Di + P31i * t1Dr
          const U0r = P01r + MCr
          const U0i = P01i + MCi
          const U1r = P01r - MCr
          const U1i = P01i - MCi
          const U2r = MBr + MDr
          const U2i = MBi + MDi
          const U3r = MBr - MDr
          const U3i = MBi - MDi
          out[outOff + 2] = U0r + U2r
          out[outOff + 3] = U0i + U2i
          out[outOff + 10] = U1r + U3i
          out[outOff + 11] = U1i - U3r
          out[outOff + 6] = U1r - U3i
          out[outOff + 7] = -U1i - U3r
          out[outOff + 14] = U0r - U2r
          out[outOff + 15] = U2i - U0i
        }
        {
          // i = 4 (the last): real inputs
          const MBr = P12 * t2Br, MBi = P12 * t2Bi
          const MCr = P22 * t2Cr, MCi = P22 * t2Ci
          const MDr = P32 * t2Dr, MDi = P32 * t2Di
          const U0r = P02 + MCr
          const U1r = P02 - MCr
          const U2r = MBr + MDr
          const U2i = MBi + MDi
          const U3r = MBr - MDr
          const U3i = MBi - MDi
          out[outOff + 4] = U0r + U2r
          out[outOff + 5] = MCi + U2i
          out[outOff + 12] = U1r + U3i
          out[outOff + 13] = -MCi - U3r
        }
      }
      step >>= 2
    } else if (firstLen === 4) {
      for (let outOff = 0, t = 0; outOff < csize; outOff += 4, t++) {
        const off = bitrev[t]! >>> 1
        const evenR = data[off]!
        const oddR = data[off + half]!
        out[outOff] = evenR + oddR
        out[outOff + 1] = 0
        out[outOff + 2] = evenR - oddR
        out[outOff + 3] = 0
      }
    } else {
      for (let outOff = 0, t = 0; outOff < csize; outOff += 8, t++) {
        const off = bitrev[t]! >>> 1
        const Ar = data[off]!
        const Br = data[off + half]!
        const Cr = data[off + half2]!
        const Dr = data[off + half3]!
        const T0r = Ar + Cr
        const T1r = Ar - Cr
        const T2r = Br + Dr
        const T3r = Br - Dr
        out[outOff] = T0r + T2r
        out[outOff + 1] = 0
        out[outOff + 2] = T1r
        out[outOff + 3] = -T3r
        out[outOff + 4] = T0r - T2r
        out[outOff + 5] = 0
        out[outOff + 6] = T1r
        out[outOff + 7] = T3r
      }
    }
    for (; step >= 2; step >>= 2) {
      const tw = passTwiddles.get(step)!
      const len = (csize / step) << 1
      const halfLen = len >>> 1
      const quarterLen = halfLen >>> 1
      const hquarterLen = quarterLen >>> 1
      for (let outOff = 0; outOff < csize; outOff += len) {
        {
          // i = 0: the twiddles are 1 (cos 0, -sin 0 = -0), whose products change no value
          // (at most the sign of a zero, which no later sum, product or square can tell)
          const A = outOff
          const B = A + quarterLen
          const C = B + quarterLen
          const D = C + quarterLen
          const Ar = out[A]!, Ai = out[A + 1]!
          const Br = out[B]!, Bi = out[B + 1]!
          const Cr = out[C]!, Ci = out[C + 1]!
          const Dr = out[D]!, Di = out[D + 1]!
          const T0r = Ar + Cr
          const T0i = Ai + Ci
          const T1r = Ar - Cr
          const T1i = Ai - Ci
          const T2r = Br + Dr
          const T2i = Bi + Di
          const T3r = Br - Dr
          const T3i = Bi - Di
          out[A] = T0r + T2r
          out[A + 1] = T0i + T2i
          out[B] = T1r + T3i
          out[B + 1] = T1i - T3r
          out[C] = T0r - T2r
          out[C + 1] = T0i - T2i
        }
        for (let i = 2, t = 0; i <= hquarterLen; i += 2, t += 6) {
          const A = outOff + i
          const B = A + quarterLen
          const C = B + quarterLen
          const D = C + quarterLen
          const Ar = out[A]!
          const Ai = out[A + 1]!
          const Br = out[B]!
          const Bi = out[B + 1]!
          const Cr = out[C]!
          const Ci = out[C + 1]!
          const Dr = out[D]!
          const Di = out[D + 1]!
          const tableBr = tw[t]!
          const tableBi = tw[t + 1]!
          const MBr = Br * tableBr - Bi * tableBi
          const MBi = Br * tableBi + Bi * tableBr
          const tableCr = tw[t + 2]!
          const tableCi = tw[t + 3]!
          const MCr = Cr * tableCr - Ci * tableCi
          const MCi = Cr * tableCi + Ci * tableCr
          const tableDr = tw[t + 4]!
          const tableDi = tw[t + 5]!
          const MDr = Dr * tableDr - Di * tableDi
          const MDi = Dr * tableDi + Di * tableDr
          const T0r = Ar + MCr
          const T0i = Ai + MCi
          const T1r = Ar - MCr
          const T1i = Ai - MCi
          const T2r = MBr + MDr
          const T2i = MBi + MDi
          const T3r = MBr - MDr
          const T3i = MBi - MDi
          out[A] = T0r + T2r
          out[A + 1] = T0i + T2i
          out[B] = T1r + T3i
          out[B + 1] = T1i - T3r
          if (i === hquarterLen) continue
          // the mirrored output (fft.js's "flipped case")
          const SA = outOff + quarterLen - i
          const SB = outOff + halfLen - i
          out[SA] = T1r - T3i
          out[SA + 1] = -T1i - T3r
          out[SB] = T0r - T2r
          out[SB + 1] = T2i - T0i
        }
      }
    }
  }
}
