/**
 * The mixture's fast evaluation and training give the plain formulas' numbers, to the bit: the
 * per-component densities, the log-likelihood (a running log-sum-exp over the components in
 * order) and the trained models.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Gmm, logLikelihood, trainGmm } from "../src/signal/Gmm.js"

let seed = 99
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random())

/** Rows drawn from a few well separated blobs (and some far away), `dims` values each. */
const data = (n: number, dims: number) =>
  Float32Array.from({ length: n * dims }, (_, i) => {
    const row = Math.floor(i / dims), d = i % dims
    const blob = row % 5
    return gaussian() * (blob === 4 ? 6 : 1) + (blob === 4 ? 40 : blob * (d % 3 === 0 ? 3 : -1.5))
  })

/** The plain log-likelihood: one component after the other, a running log-sum-exp. */
const plainLogLikelihood = (gmm: Gmm, x: Float32Array, offset: number): number => {
  let max = -Infinity
  let sum = 0
  for (let c = 0; c < gmm.components; c++) {
    let q = 0
    for (let d = 0; d < gmm.dims; d++) {
      const diff = x[offset + d]! - gmm.means[c * gmm.dims + d]!
      q += diff * diff * gmm.precisions[c * gmm.dims + d]!
    }
    const l = gmm.constants[c]! - 0.5 * q
    if (l > max) {
      sum = sum * Math.exp(max - l) + 1
      max = l
    } else {
      sum += Math.exp(l - max)
    }
  }
  return max + Math.log(sum)
}

/** The plain EM training (the same starting point and steps as `trainGmm`). */
const plainTrain = (x: Float32Array, n: number, dims: number, components: number, iterations = 8): Gmm => {
  const finalize = (k: number, weights: Float64Array, means: Float64Array, variances: Float64Array): Gmm => {
    const precisions = new Float64Array(k * dims), constants = new Float64Array(k)
    for (let c = 0; c < k; c++) {
      let logDet = 0
      for (let d = 0; d < dims; d++) {
        const v = Math.max(1e-2, variances[c * dims + d]!)
        precisions[c * dims + d] = 1 / v
        logDet += Math.log(v)
      }
      constants[c] = Math.log(Math.max(weights[c]!, 1e-8)) - 0.5 * (logDet + dims * Math.log(2 * Math.PI))
    }
    return { dims, components: k, means, precisions, constants, groupedMeans: new Float64Array(0), groupedPrecisions: new Float64Array(0) }
  }
  const k = Math.max(1, Math.min(components, Math.floor(n / (4 * dims)) || 1))
  const weights = new Float64Array(k).fill(1 / k), means = new Float64Array(k * dims), variances = new Float64Array(k * dims)
  const globalMean = new Float64Array(dims), globalVar = new Float64Array(dims)
  for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) globalMean[d]! += x[i * dims + d]! / n
  for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) globalVar[d]! += (x[i * dims + d]! - globalMean[d]!) ** 2 / n
  for (let c = 0; c < k; c++) {
    const row = Math.floor(((c + 0.5) * n) / k)
    for (let d = 0; d < dims; d++) {
      means[c * dims + d] = x[row * dims + d]!
      variances[c * dims + d] = globalVar[d]!
    }
  }
  let model = finalize(k, weights, means, variances)
  const resp = new Float64Array(k)
  for (let it = 0; it < iterations; it++) {
    const sumW = new Float64Array(k), sumX = new Float64Array(k * dims), sumXX = new Float64Array(k * dims)
    for (let i = 0; i < n; i++) {
      let max = -Infinity
      for (let c = 0; c < k; c++) {
        let q = 0
        for (let d = 0; d < dims; d++) {
          const diff = x[i * dims + d]! - model.means[c * dims + d]!
          q += diff * diff * model.precisions[c * dims + d]!
        }
        resp[c] = model.constants[c]! - 0.5 * q
        if (resp[c]! > max) max = resp[c]!
      }
      let total = 0
      for (let c = 0; c < k; c++) {
        resp[c] = Math.exp(resp[c]! - max)
        total += resp[c]!
      }
      for (let c = 0; c < k; c++) {
        const r = resp[c]! / total
        if (r < 1e-4) continue
        sumW[c]! += r
        for (let d = 0; d < dims; d++) {
          const v = x[i * dims + d]!
          sumX[c * dims + d]! += r * v
          sumXX[c * dims + d]! += r * v * v
        }
      }
    }
    for (let c = 0; c < k; c++) {
      const w = sumW[c]!
      weights[c] = w / n
      if (w < 1e-3) continue
      for (let d = 0; d < dims; d++) {
        const m = sumX[c * dims + d]! / w
        means[c * dims + d] = m
        variances[c * dims + d] = sumXX[c * dims + d]! / w - m * m
      }
    }
    model = finalize(k, weights, means.slice(), variances)
  }
  return model
}

describe("Gmm: the plain formulas' numbers", () => {
  it.each([
    [19, 8, 4000],
    [19, 5, 600],
    [7, 3, 500],
    [19, 1, 50]
  ])("%i dims, %i components, %i rows: trained models and log-likelihoods", (dims, components, n) => {
    const x = data(n, dims)
    const model = trainGmm(x, n, dims, components)
    const plain = plainTrain(x, n, dims, components)
    expect([...model.means]).toEqual([...plain.means])
    expect([...model.precisions]).toEqual([...plain.precisions])
    expect([...model.constants]).toEqual([...plain.constants])
    for (let i = 0; i < n; i++) {
      const got = logLikelihood(model, x, i * dims)
      const want = plainLogLikelihood(model, x, i * dims)
      if (got !== want) expect({ row: i, got }).toEqual({ row: i, got: want })
    }
    // far from every component: most terms are below the running maximum by more than 40 nats
    const far = Float32Array.from({ length: dims }, (_, d) => 200 * Math.cos(d))
    expect(logLikelihood(model, far)).toBe(plainLogLikelihood(model, far, 0))
  })
})
