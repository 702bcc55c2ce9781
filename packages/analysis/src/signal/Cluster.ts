/**
 * Agglomerative clustering (average linkage) over a distance matrix, and the choice of the number
 * of clusters from the data.
 *
 * The number of clusters is chosen among 2..6 by the silhouette of each cut of the dendrogram
 * (how much closer each item is to its own cluster than to the next one). A cut that only splits
 * off a handful of outliers is not a new speaker: such clusters are not counted and their items
 * go to the nearest real cluster (by average distance). The distances are the caller's: cosine
 * between unit vectors, or Euclidean.
 */

/**
 * Cosine distances of `n` unit vectors of `dims` values, as a packed n×n Float32Array (into `out`
 * when given: a buffer of at least n² values to reuse).
 */
export const cosineDistances = (vectors: Float32Array, n: number, dims: number, out?: Float32Array): Float32Array =>
  pairwise(vectors, n, dims, out, false)

/** Euclidean distances of `n` vectors of `dims` values, as a packed n×n Float32Array (into `out`, as above). */
export const euclideanDistances = (vectors: Float32Array, n: number, dims: number, out?: Float32Array): Float32Array =>
  pairwise(vectors, n, dims, out, true)

/**
 * 1 − dot product, or the Euclidean distance, of every pair. Each pair's sum runs over the
 * dimensions in order; four pairs (one row against four others) are summed side by side.
 */
const pairwise = (vectors: Float32Array, n: number, dims: number, out: Float32Array | undefined, euclidean: boolean): Float32Array => {
  const d = out ? out.subarray(0, n * n) : new Float32Array(n * n)
  // the upper half row by row, then the lower half as its mirror (writing both as they come
  // would write the lower half a column at a time, a cache line per value)
  const put = (i: number, j: number, sum: number) => {
    d[i * n + j] = euclidean ? Math.sqrt(sum) : 1 - sum
  }
  for (let i = 0; i < n; i++) {
    d[i * n + i] = 0
    const a = i * dims
    let j = i + 1
    for (; j + 4 <= n; j += 4) {
      const b0 = j * dims, b1 = b0 + dims, b2 = b1 + dims, b3 = b2 + dims
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0
      if (euclidean) {
        for (let k = 0; k < dims; k++) {
          // e * e is e ** 2 to the bit (V8's pow squares by multiplying), without the call
          const x = vectors[a + k]!
          const e0 = x - vectors[b0 + k]!, e1 = x - vectors[b1 + k]!, e2 = x - vectors[b2 + k]!, e3 = x - vectors[b3 + k]!
          s0 += e0 * e0
          s1 += e1 * e1
          s2 += e2 * e2
          s3 += e3 * e3
        }
      } else {
        for (let k = 0; k < dims; k++) {
          const x = vectors[a + k]!
          s0 += x * vectors[b0 + k]!
          s1 += x * vectors[b1 + k]!
          s2 += x * vectors[b2 + k]!
          s3 += x * vectors[b3 + k]!
        }
      }
      put(i, j, s0)
      put(i, j + 1, s1)
      put(i, j + 2, s2)
      put(i, j + 3, s3)
    }
    for (; j < n; j++) {
      const b = j * dims
      let sum = 0
      if (euclidean) {
        for (let k = 0; k < dims; k++) {
          const e = vectors[a + k]! - vectors[b + k]!
          sum += e * e
        }
      } else {
        for (let k = 0; k < dims; k++) sum += vectors[a + k]! * vectors[b + k]!
      }
      put(i, j, sum)
    }
  }
  mirrorUpper(d, n)
  return d
}

export interface Dendrogram {
  readonly n: number
  /** Merge t joins clusters `left[t]` and `right[t]` (ids < n are items, n + t is merge t). */
  readonly left: Int32Array
  readonly right: Int32Array
  readonly height: Float64Array
}

/**
 * Average-linkage clustering by the nearest-neighbour chain algorithm: O(n²) time on a symmetric
 * distance matrix whose upper half (i < j) it updates in place (Lance–Williams), no priority
 * queue. The lower half is neither read nor written: it still holds the distances afterwards
 * (`restoreUpper` copies them back).
 */
export const averageLinkage = (distances: Float32Array, n: number): Dendrogram => {
  const d = distances
  const size = new Int32Array(n).fill(1)
  const id = Int32Array.from({ length: n }, (_, i) => i) // cluster id held by each active slot
  const active = new Uint8Array(n).fill(1)
  const left = new Int32Array(Math.max(0, n - 1))
  const right = new Int32Array(Math.max(0, n - 1))
  const height = new Float64Array(Math.max(0, n - 1))
  const chain: Array<number> = []
  /** Where the distance of i and j is kept: the upper half. */
  const at = (i: number, j: number) => (i < j ? i * n + j : j * n + i)
  let merges = 0
  while (merges < n - 1) {
    if (chain.length === 0) chain.push(active.indexOf(1))
    const a = chain[chain.length - 1]!
    const previous = chain.length > 1 ? chain[chain.length - 2]! : -1
    // nearest active neighbour of a (prefer the previous link on ties, which ends the chain),
    // the others in index order: first the column above a, then the row after it
    let best = previous
    let bestDistance = previous >= 0 ? d[at(a, previous)]! : Infinity
    for (let j = 0; j < a; j++) {
      if (!active[j]) continue
      const v = d[j * n + a]!
      if (v < bestDistance) {
        bestDistance = v
        best = j
      }
    }
    for (let j = a + 1, row = a * n; j < n; j++) {
      if (!active[j]) continue
      const v = d[row + j]!
      if (v < bestDistance) {
        bestDistance = v
        best = j
      }
    }
    if (best === previous) {
      chain.pop()
      chain.pop()
      // merge a and previous into slot `previous`
      const na = size[a]!, nb = size[best]!
      for (let j = 0; j < n; j++) {
        if (!active[j] || j === a || j === best) continue
        d[at(best, j)] = (na * d[at(a, j)]! + nb * d[at(best, j)]!) / (na + nb)
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
  // the chain finds merges out of height order; sort them and renumber the merged ids
  const order = Array.from({ length: merges }, (_, t) => t).sort((x, y) => height[x]! - height[y]!)
  const rank = new Int32Array(merges)
  order.forEach((t, r) => (rank[t] = r))
  const rename = (c: number) => (c < n ? c : n + rank[c - n]!)
  const sorted = {
    n,
    left: new Int32Array(merges),
    right: new Int32Array(merges),
    height: new Float64Array(merges)
  }
  order.forEach((t, r) => {
    sorted.left[r] = rename(left[t]!)
    sorted.right[r] = rename(right[t]!)
    sorted.height[r] = height[t]!
  })
  return sorted
}

/** Copies the lower half of an n×n matrix onto its upper half (in tiles, to stay in cache). */
export const restoreUpper = (d: Float32Array, n: number): void => {
  const TILE = 64
  for (let ti = 0; ti < n; ti += TILE) {
    for (let tj = ti; tj < n; tj += TILE) {
      for (let i = ti; i < Math.min(n, ti + TILE); i++) {
        for (let j = Math.max(tj, i + 1); j < Math.min(n, tj + TILE); j++) d[i * n + j] = d[j * n + i]!
      }
    }
  }
}

/** Copies the upper half of an n×n matrix onto its lower half (in tiles). */
const mirrorUpper = (d: Float32Array, n: number): void => {
  const TILE = 64
  for (let ti = 0; ti < n; ti += TILE) {
    for (let tj = ti; tj < n; tj += TILE) {
      for (let j = tj; j < Math.min(n, tj + TILE); j++) {
        for (let i = ti; i < Math.min(j, ti + TILE); i++) d[j * n + i] = d[i * n + j]!
      }
    }
  }
}

/** Cluster index (0..k-1) of every item when the dendrogram is cut into k clusters. */
export const cutTree = (tree: Dendrogram, k: number): Int32Array => {
  const { n } = tree
  const parent = Int32Array.from({ length: 2 * n }, (_, i) => i)
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!
      x = parent[x]!
    }
    return x
  }
  const merges = Math.max(0, n - k)
  for (let t = 0; t < merges; t++) {
    parent[find(tree.left[t]!)] = n + t
    parent[find(tree.right[t]!)] = n + t
  }
  const labels = new Int32Array(n)
  const names = new Map<number, number>()
  for (let i = 0; i < n; i++) {
    const root = find(i)
    if (!names.has(root)) names.set(root, names.size)
    labels[i] = names.get(root)!
  }
  return labels
}

/** Mean silhouette of a labelling, from the full distance matrix. */
export const silhouette = (distances: Float32Array, n: number, labels: Int32Array, k: number): number => {
  const counts = new Int32Array(k)
  for (let i = 0; i < n; i++) counts[labels[i]!]!++
  // the members of each cluster in index order: each item's sum over a cluster adds the same
  // distances in the same order as a pass over all items would, in a register
  const start = new Int32Array(k + 1)
  for (let c = 0; c < k; c++) start[c + 1] = start[c]! + counts[c]!
  const members = new Int32Array(n)
  const fill = start.slice(0, k)
  for (let j = 0; j < n; j++) members[fill[labels[j]!]!++] = j
  const sums = new Float64Array(k)
  let total = 0
  for (let i = 0; i < n; i++) {
    const own = labels[i]!
    if (counts[own]! <= 1) continue // a singleton scores 0
    const row = i * n
    for (let c = 0; c < k; c++) {
      let sum = 0
      for (let m = start[c]!, end = start[c + 1]!; m < end; m++) {
        const j = members[m]!
        if (j !== i) sum += distances[row + j]!
      }
      sums[c] = sum
    }
    const a = sums[own]! / (counts[own]! - 1)
    let b = Infinity
    for (let c = 0; c < k; c++) if (c !== own && counts[c]! > 0) b = Math.min(b, sums[c]! / counts[c]!)
    total += (b - a) / Math.max(a, b)
  }
  return total / n
}

export interface Clustering {
  readonly k: number
  readonly labels: Int32Array
  /** The silhouette of the chosen labels. */
  readonly silhouette: number
  /** The best silhouette of each count considered. */
  readonly scores: ReadonlyArray<{ readonly k: number; readonly silhouette: number }>
}

/**
 * Labels for `n` items, given their distances, with the number of clusters chosen from the data
 * in [minK, maxK]. Clusters holding less than `minShare` of the items (and at least 3) are folded
 * into the nearest large cluster, so an outlier is never a speaker.
 */
export const clusterDistances = (
  distances: Float32Array,
  n: number,
  options: { readonly minK: number; readonly maxK: number; readonly minShare: number }
): Clustering => {
  if (n <= options.minK) return { k: n, labels: Int32Array.from({ length: n }, (_, i) => i), silhouette: 0, scores: [] }
  // the linkage works in the upper half of the (symmetric) matrix, which is then restored from
  // the lower: `distances` is as it was, and no second n² matrix is needed
  const tree = averageLinkage(distances, n)
  restoreUpper(distances, n)
  const minSize = Math.max(3, Math.ceil(options.minShare * n))
  const scores: Array<{ k: number; silhouette: number }> = []
  let best: { k: number; labels: Int32Array; score: number } | undefined
  // cut deeper than maxK so that outlier clusters do not use up the speaker count; several cuts
  // can fold to the same count, and each is a candidate
  for (let cut = options.minK; cut <= Math.min(n, options.maxK + 6); cut++) {
    const labels = foldSmallClusters(distances, n, cutTree(tree, cut), cut, minSize)
    const k = Math.max(...labels) + 1
    if (k < options.minK || k > options.maxK) continue
    const score = silhouette(distances, n, labels, k)
    const seen = scores.find((s) => s.k === k)
    if (seen === undefined) scores.push({ k, silhouette: score })
    else seen.silhouette = Math.max(seen.silhouette, score)
    if (!best || score > best.score) best = { k, labels, score }
  }
  scores.sort((a, b) => a.k - b.k)
  if (!best) {
    const labels = cutTree(tree, options.minK)
    return { k: options.minK, labels, silhouette: silhouette(distances, n, labels, options.minK), scores }
  }
  return { k: best.k, labels: best.labels, silhouette: best.score, scores }
}

/** Moves the items of clusters smaller than `minSize` to the large cluster nearest on average. */
const foldSmallClusters = (distances: Float32Array, n: number, labels: Int32Array, k: number, minSize: number): Int32Array => {
  const counts = new Int32Array(k)
  for (const l of labels) counts[l]!++
  const large = Array.from({ length: k }, (_, c) => c).filter((c) => counts[c]! >= minSize)
  if (large.length === 0 || large.length === k) return labels
  const slot = new Int32Array(k).fill(-1)
  large.forEach((c, index) => (slot[c] = index))
  const out = new Int32Array(n)
  const sums = new Float64Array(large.length)
  for (let i = 0; i < n; i++) {
    if (slot[labels[i]!]! >= 0) {
      out[i] = slot[labels[i]!]!
      continue
    }
    sums.fill(0)
    for (let j = 0; j < n; j++) {
      const s = slot[labels[j]!]!
      if (s >= 0) sums[s]! += distances[i * n + j]!
    }
    let target = 0
    for (let s = 1; s < large.length; s++) {
      if (sums[s]! / counts[large[s]!]! < sums[target]! / counts[large[target]!]!) target = s
    }
    out[i] = target
  }
  return out
}

/**
 * How two vectors are compared: by direction around the origin (cosine, between unit vectors) or by
 * position (Euclidean).
 */
export type Metric = "cosine" | "euclidean"

export const distances = (metric: Metric, vectors: Float32Array, n: number, dims: number, out?: Float32Array): Float32Array =>
  metric === "cosine" ? cosineDistances(vectors, n, dims, out) : euclideanDistances(vectors, n, dims, out)

/** Mean of the vectors labelled `c` (normalised to unit length for cosine). */
export const centroid = (
  vectors: Float32Array,
  dims: number,
  labels: ArrayLike<number>,
  c: number,
  metric: Metric = "cosine"
): Float32Array => {
  const sum = new Float32Array(dims)
  let count = 0
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] !== c) continue
    for (let k = 0; k < dims; k++) sum[k]! += vectors[i * dims + k]!
    count++
  }
  if (metric === "cosine") return normalize(sum)
  for (let k = 0; k < dims; k++) sum[k]! /= Math.max(1, count)
  return sum
}

export const normalize = (v: Float32Array): Float32Array => {
  let norm = 0
  for (let k = 0; k < v.length; k++) norm += v[k]! * v[k]!
  norm = Math.sqrt(norm) || 1
  for (let k = 0; k < v.length; k++) v[k]! /= norm
  return v
}

/** Index of the centroid nearest to `v`: the largest cosine similarity, or the shortest distance. */
export const nearest = (v: Float32Array, centroids: ReadonlyArray<Float32Array>, metric: Metric = "cosine"): number => {
  let best = 0
  let bestScore = -Infinity
  centroids.forEach((c, index) => {
    let score = 0
    if (metric === "cosine") for (let k = 0; k < v.length; k++) score += v[k]! * c[k]!
    else for (let k = 0; k < v.length; k++) score -= (v[k]! - c[k]!) ** 2
    if (score > bestScore) {
      bestScore = score
      best = index
    }
  })
  return best
}
