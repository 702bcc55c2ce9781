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

/** Cosine distances of `n` unit vectors of `dims` values, as a packed n×n Float32Array. */
export const cosineDistances = (vectors: Float32Array, n: number, dims: number): Float32Array => {
  const d = new Float32Array(n * n)
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let dot = 0
      for (let k = 0; k < dims; k++) dot += vectors[i * dims + k]! * vectors[j * dims + k]!
      const v = 1 - dot
      d[i * n + j] = v
      d[j * n + i] = v
    }
  }
  return d
}

/** Euclidean distances of `n` vectors of `dims` values, as a packed n×n Float32Array. */
export const euclideanDistances = (vectors: Float32Array, n: number, dims: number): Float32Array => {
  const d = new Float32Array(n * n)
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let sum = 0
      for (let k = 0; k < dims; k++) sum += (vectors[i * dims + k]! - vectors[j * dims + k]!) ** 2
      const v = Math.sqrt(sum)
      d[i * n + j] = v
      d[j * n + i] = v
    }
  }
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
 * Average-linkage clustering by the nearest-neighbour chain algorithm: O(n²) time on a distance
 * matrix it updates in place (Lance–Williams), no priority queue.
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
  let merges = 0
  while (merges < n - 1) {
    if (chain.length === 0) chain.push(active.indexOf(1))
    const a = chain[chain.length - 1]!
    const previous = chain.length > 1 ? chain[chain.length - 2]! : -1
    // nearest active neighbour of a (prefer the previous link on ties, which ends the chain)
    let best = previous
    let bestDistance = previous >= 0 ? d[a * n + previous]! : Infinity
    for (let j = 0; j < n; j++) {
      if (!active[j] || j === a) continue
      const v = d[a * n + j]!
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
        const v = (na * d[a * n + j]! + nb * d[best * n + j]!) / (na + nb)
        d[best * n + j] = v
        d[j * n + best] = v
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
  const sums = new Float64Array(k)
  let total = 0
  for (let i = 0; i < n; i++) {
    sums.fill(0)
    for (let j = 0; j < n; j++) if (j !== i) sums[labels[j]!]! += distances[i * n + j]!
    const own = labels[i]!
    if (counts[own]! <= 1) continue // a singleton scores 0
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
  const tree = averageLinkage(distances.slice(), n)
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

export const distances = (metric: Metric, vectors: Float32Array, n: number, dims: number): Float32Array =>
  metric === "cosine" ? cosineDistances(vectors, n, dims) : euclideanDistances(vectors, n, dims)

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
