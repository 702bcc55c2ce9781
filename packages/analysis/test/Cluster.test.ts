/**
 * The clustering's fast paths give the plain formulas' numbers, to the bit: the pairwise
 * distances (four pairs summed side by side), the silhouette (sums per cluster over its members)
 * and the average linkage on the matrix's upper half (the same merges as on the whole matrix),
 * after which the matrix is as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  averageLinkage,
  clusterDistances,
  cosineDistances,
  type Dendrogram,
  euclideanDistances,
  normalize,
  silhouette
} from "../src/signal/Cluster.js"

let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31

const vectors = (n: number, dims: number) => {
  const v = Float32Array.from({ length: n * dims }, (_, i) => random() - 0.5 + (Math.floor(i / dims) % 3) * 0.4 * ((i % dims) % 2 ? 1 : -1))
  return v
}

const plainDistances = (v: Float32Array, n: number, dims: number, euclidean: boolean) => {
  const d = new Float32Array(n * n)
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let sum = 0
      for (let k = 0; k < dims; k++) sum += euclidean ? (v[i * dims + k]! - v[j * dims + k]!) ** 2 : v[i * dims + k]! * v[j * dims + k]!
      d[i * n + j] = d[j * n + i] = euclidean ? Math.sqrt(sum) : 1 - sum
    }
  }
  return d
}

const plainSilhouette = (d: Float32Array, n: number, labels: Int32Array, k: number) => {
  const counts = new Int32Array(k)
  for (let i = 0; i < n; i++) counts[labels[i]!]!++
  const sums = new Float64Array(k)
  let total = 0
  for (let i = 0; i < n; i++) {
    sums.fill(0)
    for (let j = 0; j < n; j++) if (j !== i) sums[labels[j]!]! += d[i * n + j]!
    const own = labels[i]!
    if (counts[own]! <= 1) continue
    const a = sums[own]! / (counts[own]! - 1)
    let b = Infinity
    for (let c = 0; c < k; c++) if (c !== own && counts[c]! > 0) b = Math.min(b, sums[c]! / counts[c]!)
    total += (b - a) / Math.max(a, b)
  }
  return total / n
}

describe("clustering: the plain formulas' numbers", () => {
  it.each([[1], [2], [5], [6], [7], [38]])("distances and silhouettes (%i dims)", (dims) => {
    for (const n of [1, 2, 3, 4, 5, 9, 61]) {
      const v = vectors(n, dims)
      const unit = v.slice()
      for (let i = 0; i < n; i++) normalize(unit.subarray(i * dims, (i + 1) * dims))
      const cosine = cosineDistances(unit, n, dims)
      const euclidean = euclideanDistances(v, n, dims)
      expect([...cosine]).toEqual([...plainDistances(unit, n, dims, false)])
      expect([...euclidean]).toEqual([...plainDistances(v, n, dims, true)])
      // into a reused buffer (larger, with old values in it)
      expect([...euclideanDistances(v, n, dims, new Float32Array(n * n + 5).fill(3))]).toEqual([...euclidean])
      for (const k of [1, 2, 3, 5]) {
        const labels = Int32Array.from({ length: n }, (_, i) => (i * 7 + (i >> 2)) % k)
        expect(silhouette(euclidean, n, labels, k)).toBe(plainSilhouette(euclidean, n, labels, k))
      }
    }
  })

  /** The linkage as first written: the whole matrix, both halves updated. */
  const plainLinkage = (distances: Float32Array, n: number): Dendrogram => {
    const d = distances.slice()
    const size = new Int32Array(n).fill(1)
    const id = Int32Array.from({ length: n }, (_, i) => i)
    const active = new Uint8Array(n).fill(1)
    const left = new Int32Array(Math.max(0, n - 1)), right = new Int32Array(Math.max(0, n - 1)), height = new Float64Array(Math.max(0, n - 1))
    const chain: Array<number> = []
    let merges = 0
    while (merges < n - 1) {
      if (chain.length === 0) chain.push(active.indexOf(1))
      const a = chain[chain.length - 1]!
      const previous = chain.length > 1 ? chain[chain.length - 2]! : -1
      let best = previous
      let bestDistance = previous >= 0 ? d[a * n + previous]! : Infinity
      for (let j = 0; j < n; j++) {
        if (!active[j] || j === a) continue
        if (d[a * n + j]! < bestDistance) {
          bestDistance = d[a * n + j]!
          best = j
        }
      }
      if (best === previous) {
        chain.pop()
        chain.pop()
        const na = size[a]!, nb = size[best]!
        for (let j = 0; j < n; j++) {
          if (!active[j] || j === a || j === best) continue
          d[best * n + j] = d[j * n + best] = (na * d[a * n + j]! + nb * d[best * n + j]!) / (na + nb)
        }
        active[a] = 0
        size[best] = na + nb
        left[merges] = Math.min(id[a]!, id[best]!)
        right[merges] = Math.max(id[a]!, id[best]!)
        height[merges] = bestDistance
        id[best] = n + merges
        merges++
      } else {
        chain.push(best)
      }
    }
    // sorted by height, merged ids renumbered (as averageLinkage answers)
    const order = Array.from({ length: merges }, (_, t) => t).sort((x, y) => height[x]! - height[y]!)
    const rank = new Int32Array(merges)
    order.forEach((t, r) => (rank[t] = r))
    const rename = (c: number) => (c < n ? c : n + rank[c - n]!)
    return {
      n,
      left: Int32Array.from(order, (t) => rename(left[t]!)),
      right: Int32Array.from(order, (t) => rename(right[t]!)),
      height: Float64Array.from(order, (t) => height[t]!)
    }
  }

  it("the linkage on the upper half: the same merges, in the same order (ties too)", () => {
    for (const [n, dims, ties] of [[2, 3, false], [7, 3, false], [150, 12, false], [90, 4, true]] as const) {
      const v = vectors(n, dims)
      const distances = euclideanDistances(v, n, dims)
      // integer distances: many equal pairs
      if (ties) for (let i = 0; i < distances.length; i++) distances[i] = Math.round(distances[i]! * 3)
      const want = plainLinkage(distances, n)
      const matrix = distances.slice()
      const got = averageLinkage(matrix, n)
      expect({ n: got.n, left: [...got.left], right: [...got.right], height: [...got.height] }).toEqual({
        n: want.n,
        left: [...want.left],
        right: [...want.right],
        height: [...want.height]
      })
      // the lower half is untouched
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (matrix[i * n + j] !== distances[i * n + j]) expect([i, j]).toEqual("untouched")
    }
  })

  it("clusterDistances leaves the matrix as it was, and clusters as on a copy", () => {
    const n = 150, dims = 12
    const v = vectors(n, dims)
    const options = { minK: 2, maxK: 6, minShare: 0.02 }
    const matrix = euclideanDistances(v, n, dims)
    const before = matrix.slice()
    const result = clusterDistances(matrix, n, options)
    expect(Buffer.compare(Buffer.from(matrix.buffer), Buffer.from(before.buffer))).toBe(0)
    expect(clusterDistances(before.slice(), n, options)).toEqual(result)
  })
})
