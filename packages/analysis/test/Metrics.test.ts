/** The word-free metrics on hand-made turns, the role cues, the clustering, and the test's own DER. */
import { describe, expect, it } from "@effect/vitest"
import { clusterDistances, cosineDistances, euclideanDistances, normalize } from "../src/signal/Cluster.js"
import { acousticMetrics, longestStretch } from "../src/signal/Metrics.js"
import { assignRolesByChannel, assignRolesByCues, risingEnding } from "../src/signal/Roles.js"
import type { Turn } from "../src/Types.js"
import { diarizationErrorRate } from "./utils.js"

const rep = (start: number, end: number): Turn => ({ speaker: "S1", role: "rep", start, end })
const buyer = (start: number, end: number, speaker = "S2"): Turn => ({ speaker, role: "buyer", start, end })

describe("acousticMetrics", () => {
  const turns = [rep(0, 10), buyer(11, 15), rep(16, 40), buyer(30, 30.5), rep(41, 50), buyer(50.5, 80), rep(79, 85)]
  const m = acousticMetrics(turns, 100)

  it("talk ratio is rep time over all speech time", () => {
    // rep 10 + 24 + 9 + 6 = 49; buyer 4 + 0.5 + 29.5 = 34
    expect(m.talk_ratio).toBeCloseTo(49 / 83, 3)
  })

  it("a monologue runs through buyer backchannels under 1 s", () => {
    // 16–50: the buyer's 0.5 s at 30 s does not break it
    expect(m.longest_monologue_s).toBeCloseTo(34, 2)
    expect(m.longest_customer_story_s).toBeCloseTo(29.5, 2)
    expect(longestStretch([rep(0, 5), rep(6, 10)], [buyer(5, 6.2)])).toBe(5)
  })

  it("interactivity is speaker switches per minute", () => {
    expect(m.interactivity).toBeCloseTo(6 / (100 / 60), 2)
  })

  it("patience is the median pause before the rep answers the buyer (overlapping answers waited 0 s)", () => {
    // buyer→rep pairs by start: 15→16 (1 s), 30.5→41 (10.5 s), 80→79 (0 s) → median 1
    expect(m.patience_s).toBe(1)
  })

  it("an interruption starts while the other side speaks and overlaps it by more than 0.3 s", () => {
    // buyer at 30 inside the rep's 16–40 (0.5 s overlap); rep at 79 inside the buyer's 50.5–80 (1 s)
    expect(m.interruptions).toBe(2)
    expect(acousticMetrics([rep(0, 10), buyer(9.8, 12)], 20).interruptions).toBe(0)
  })

  it("silence is the share of the call nobody speaks", () => {
    // speech union: 0–10, 11–15, 16–40, 41–50, 50.5–85 = 10 + 4 + 24 + 9 + 34.5 = 81.5
    expect(m.silence_ratio).toBeCloseTo(0.185, 3)
  })

  it("side metrics are null without both sides; content metrics are always null here", () => {
    const solo = acousticMetrics([rep(0, 10)], 20)
    expect(solo.talk_ratio).toBeNull()
    expect(solo.patience_s).toBeNull()
    expect(solo.interruptions).toBeNull()
    expect(solo.silence_ratio).toBe(0.5)
    expect([m.question_count, m.question_rate, m.words_per_minute, m.filler_rate]).toEqual([null, null, null, null])
  })

  it("several buyer speakers count as one side", () => {
    const multi = acousticMetrics([rep(0, 10), buyer(10, 15, "S2"), buyer(15, 20, "S3")], 20)
    expect(multi.talk_ratio).toBe(0.5)
    expect(multi.longest_customer_story_s).toBe(10)
  })
})

describe("roles", () => {
  it("stereo: left is the rep unless configured otherwise", () => {
    expect(assignRolesByChannel(2, undefined)).toEqual({ roles: ["rep", "buyer"], confidence: [0.9, 0.9] })
    expect(assignRolesByChannel(2, "right")).toEqual({ roles: ["buyer", "rep"], confidence: [1, 1] })
  })

  it("mono: the opener is the rep; questions confirm or overrule it", () => {
    const opener = assignRolesByCues([
      { firstSpeechS: 0.5, judgedTurns: 6, risingEndings: 0 },
      { firstSpeechS: 3, judgedTurns: 6, risingEndings: 1 }
    ])
    expect(opener.roles).toEqual(["rep", "buyer"])
    expect(opener.confidence[0]).toBeGreaterThan(0.6)
    expect(opener.confidence[0]).toBeLessThan(0.7)
    const agreed = assignRolesByCues([
      { firstSpeechS: 0.5, judgedTurns: 6, risingEndings: 4 },
      { firstSpeechS: 3, judgedTurns: 6, risingEndings: 0 }
    ])
    expect(agreed.confidence[0]).toBeGreaterThan(opener.confidence[0]!)
    const asker = assignRolesByCues([
      { firstSpeechS: 0.5, judgedTurns: 6, risingEndings: 0 },
      { firstSpeechS: 3, judgedTurns: 8, risingEndings: 6 },
      { firstSpeechS: 9, judgedTurns: 3, risingEndings: 0 }
    ])
    expect(asker.roles).toEqual(["buyer", "rep", "buyer"])
  })

  it("a rising final syllable is question-like, a falling one is not", () => {
    const contour = (from: number, to: number) => {
      const pitch = new Float32Array(100)
      for (let i = 70; i < 95; i++) pitch[i] = from * (to / from) ** ((i - 70) / 24)
      return pitch
    }
    expect(risingEnding(contour(100, 130), 0, 100)).toBe(true)
    expect(risingEnding(contour(130, 100), 0, 100)).toBe(false)
    expect(risingEnding(new Float32Array(100), 0, 100)).toBeUndefined()
  })
})

describe("clusterDistances", () => {
  /** `perCluster` noisy unit vectors around each of `k` orthogonal directions. */
  const blobs = (k: number, perCluster: number, dims = 8) => {
    let x = 7
    const noise = () => {
      x = (x * 1103515245 + 12345) & 0x7fffffff
      return (x / 0x7fffffff - 0.5) * 0.6
    }
    const vectors = new Float32Array(k * perCluster * dims)
    for (let c = 0; c < k; c++) {
      for (let i = 0; i < perCluster; i++) {
        const v = vectors.subarray((c * perCluster + i) * dims, (c * perCluster + i + 1) * dims)
        for (let d = 0; d < dims; d++) v[d] = (d === c ? 1 : 0) + noise()
        normalize(v)
      }
    }
    return vectors
  }

  it.each([2, 3, 5, 6])("finds %i clusters when there are %i", (k) => {
    const result = clusterDistances(cosineDistances(blobs(k, 40), k * 40, 8), k * 40, { minK: 2, maxK: 6, minShare: 0.02 })
    expect(result.k).toBe(k)
    for (let c = 0; c < k; c++) {
      const labels = new Set(result.labels.subarray(c * 40, (c + 1) * 40))
      expect(labels.size).toBe(1)
    }
  })

  it("a few outliers are folded into the nearest cluster, never a cluster of their own", () => {
    // two clusters of 60, and 2 items between them: 2 < 3, the smallest cluster kept
    const vectors = new Float32Array(122)
    for (let i = 0; i < 60; i++) vectors[i] = (i % 7) * 0.01
    for (let i = 60; i < 120; i++) vectors[i] = 10 + (i % 7) * 0.01
    vectors[120] = 4
    vectors[121] = 6.5
    const result = clusterDistances(euclideanDistances(vectors, 122, 1), 122, { minK: 2, maxK: 6, minShare: 0.02 })
    expect(result.k).toBe(2)
    expect(result.labels[120]).toBe(result.labels[0])
    expect(result.labels[121]).toBe(result.labels[60])
  })

  it("a small distinct cluster beside a dominant spread one is a cluster (Euclidean)", () => {
    // 200 items spread around the origin, 6 items far away: the 6 are the second cluster
    let x = 11
    const noise = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5) * 2
    const dims = 4
    const vectors = new Float32Array(206 * dims)
    for (let i = 0; i < 206 * dims; i++) vectors[i] = noise() + (i >= 200 * dims && i % dims === 0 ? 8 : 0)
    const result = clusterDistances(euclideanDistances(vectors, 206, dims), 206, { minK: 2, maxK: 6, minShare: 0.02 })
    expect(result.k).toBe(2)
    expect(new Set(result.labels.subarray(200)).size).toBe(1)
    expect(result.labels[200]).not.toBe(result.labels[0])
    expect(new Set(result.labels.subarray(0, 200)).size).toBe(1)
  })
})

describe("diarizationErrorRate (the test's own scorer)", () => {
  const truth = [
    { speaker: "rep", start: 0, end: 10 },
    { speaker: "prospect", start: 11, end: 20 }
  ]

  it("is 0 for a perfect answer under any names", () => {
    const hyp = [
      { speaker: "S2", start: 0, end: 10 },
      { speaker: "S1", start: 11, end: 20 }
    ]
    const result = diarizationErrorRate(truth, hyp, 20)
    expect(result.der).toBe(0)
    expect(result.mapping).toEqual({ S2: "rep", S1: "prospect" })
  })

  it("counts missed speech, false alarms and confusion outside the 0.25 s collars", () => {
    // nothing said: every scored truth frame is missed
    expect(diarizationErrorRate(truth, [], 20).der).toBe(1)
    // one speaker for everything: the prospect's scored time is confusion
    const one = diarizationErrorRate(truth, [{ speaker: "S1", start: 0, end: 20 }], 20)
    expect(one.confusion).toBeCloseTo(8.5, 2)
    expect(one.falseAlarm).toBeCloseTo(0.5, 2) // 10.25–10.75 lies between the collars
    // a boundary 0.2 s off is inside the collar: no error
    const shifted = diarizationErrorRate(truth, [
      { speaker: "A", start: 0.2, end: 10.2 },
      { speaker: "B", start: 11.2, end: 20 }
    ], 20)
    expect(shifted.der).toBe(0)
  })
})
