/**
 * The speech-to-text noise of `npm run eval -- --asr-noise` (eval/asr-noise.ts): a seeded,
 * deterministic transform from a call's truth to what a provider returns. Checked on the calls of
 * eval/calls: the same seed gives the same words; the word error rate measured by aligning the
 * output with the input is the rate asked for; "none" leaves no punctuation, lower case no
 * capital; number words become digits as a formatter writes them; and label drift moves a word
 * or two only across the edge between two neighbouring turns.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import type { Truth } from "../../../test/utils/Fixtures.js"
import { bareWord, truthWords } from "../../../test/utils/TruthWords.js"
import {
  type AsrNoiseOptions,
  asrContentInput,
  asrNoise,
  CLEAN,
  fullNoise,
  LABEL_DRIFT,
  werWords,
  wordErrorRate,
  wordsOf
} from "../../../eval/asr-noise.js"

const EVAL = new URL("../../../eval/", import.meta.url)
const truthOf = (id: string): Truth => JSON.parse(readFileSync(new URL(`calls/${id}.truth.json`, EVAL), "utf8"))
const TRAIN: ReadonlyArray<string> = JSON.parse(readFileSync(new URL("split.json", EVAL), "utf8")).train

/** Several calls one after the other, as one long call (each call's times moved past the one before). */
const longTruth = (ids: ReadonlyArray<string>): Truth => {
  let offset = 0
  const turns: Array<Truth["turns"][number]> = []
  for (const id of ids) {
    const t = truthOf(id)
    for (const turn of t.turns) turns.push({ ...turn, start: turn.start + offset, end: turn.end + offset })
    offset += t.duration + 1
  }
  return { duration: offset, stereo: false, speakers: ["rep", "prospect"], turns }
}

/** A call of one's own: each line a turn, the speakers alternating rep and prospect, 5 s a turn. */
const callOf = (...lines: ReadonlyArray<string>): Truth => ({
  duration: lines.length * 5,
  stereo: false,
  speakers: ["rep", "prospect"],
  turns: lines.map((text, i) => ({ speaker: i % 2 === 0 ? "rep" : "prospect", start: i * 5, end: i * 5 + 4.5, text }))
})

const textOf = (truth: Truth, options: Partial<AsrNoiseOptions>) =>
  wordsOf(asrNoise(truth, { ...CLEAN, seed: 1, ...options })).map((w) => w.text).join(" ")

const LONG = longTruth(TRAIN.slice(0, 12))

describe("asr-noise: determinism", () => {
  it("the same seed gives the same transcript; another seed another", () => {
    const truth = truthOf(TRAIN[0]!)
    const options = { seed: 7, ...fullNoise(0.2, "auto") }
    const a = asrNoise(truth, options)
    expect(asrNoise(truth, options)).toEqual(a)
    expect(asrNoise(truth, { ...options, seed: 8 })).not.toEqual(a)
    // the parts draw from streams of their own: switching the drift off leaves the words as they were
    const withoutDrift = asrNoise(truth, { ...options, labelDrift: 0 })
    expect(wordsOf(withoutDrift).map((w) => w.text)).toEqual(wordsOf(a).map((w) => w.text))
  })

  it("without noise every word of the truth comes through, in order, with its time", () => {
    const truth = truthOf(TRAIN[1]!)
    const words = wordsOf(asrNoise(truth, { ...CLEAN, seed: 3 }))
    expect(words).toEqual(truthWords(truth).map((w) => ({ text: w.text, start: w.start, end: w.end, speaker: w.speaker, confidence: w.confidence })))
  })
})

describe("asr-noise: word errors", () => {
  it(`the measured word error rate is the rate asked, within two points, on a long text (${LONG.turns.length} turns)`, () => {
    for (const [rate, punctuation] of [[0.1, "none"], [0.2, "none"], [0.2, "auto"]] as const) {
      {
        const options = { ...fullNoise(rate, punctuation), seed: 11 }
        // the input as the provider formats it (digits, case), without errors: what the errors are counted against
        const reference = werWords(textOf(LONG, { ...options, wordErrorRate: 0 }))
        const noisy = asrNoise(LONG, options)
        const hypothesis = werWords(wordsOf(noisy).map((w) => w.text).join(" "))
        const measured = wordErrorRate(reference, hypothesis)
        expect(reference.length).toBeGreaterThan(5000)
        expect(measured.words).toBe(noisy.stats.reference_words)
        expect(Math.abs(measured.rate - rate), `${rate} ${punctuation}: measured ${measured.rate}`).toBeLessThanOrEqual(0.02)
        // every kind of error is made
        expect(noisy.stats.substitutions).toBeGreaterThan(0)
        expect(noisy.stats.deletions).toBeGreaterThan(0)
        expect(noisy.stats.fillers).toBeGreaterThan(0)
        expect(noisy.stats.splits + noisy.stats.merges).toBeGreaterThan(0)
      }
    }
  })

  it("the errors are the model's: homophones, dropped short words, splits, merges and fillers", () => {
    const truth = callOf(
      "We can't go there for a lot of reasons, and I know it's their week to decide.",
      "I cannot say; we're kind of going to wait, and anyone would want to see the quote.",
      "Right, I'll write to you by Friday with our price for the hour we need."
    )
    const clean = werWords(textOf(truth, { lowercase: true, punctuation: "none" }))
    const seen = new Set<string>()
    for (let seed = 0; seed < 40; seed++) {
      const noisy = werWords(textOf(truth, { seed, lowercase: true, punctuation: "none", wordErrorRate: 0.2 }))
      for (const w of noisy) if (!clean.includes(w)) seen.add(w)
      expect(wordErrorRate(clean, noisy).edits).toBeGreaterThan(0)
    }
    // merged and split words and homophones all turn up over the seeds (fillers take the budget the
    // others leave, none in a text this short: the long text's test counts them)
    for (const w of ["alot", "kinda", "gonna", "wanna", "can", "not", "any", "one"]) expect(seen, w).toContain(w)
    expect([...seen].some((w) => ["their", "they're", "four", "no", "its", "too", "two", "weak", "aisle", "hour", "are"].includes(w))).toBe(true)
  })

  it("word times stay in order, inside their turns, each with a start before its end", () => {
    const truth = truthOf(TRAIN[2]!)
    const noisy = asrNoise(truth, { ...fullNoise(0.2, "none"), labelDrift: 0, seed: 5 })
    noisy.turns.forEach((turn, j) => {
      const truthTurn = truth.turns[j]!
      let last = -Infinity
      for (const w of turn.words) {
        expect(w.end).toBeGreaterThan(w.start)
        expect(w.start).toBeGreaterThanOrEqual(last)
        expect(w.start).toBeGreaterThanOrEqual(truthTurn.start)
        expect(w.end).toBeLessThanOrEqual(truthTurn.end)
        last = w.start
      }
    })
  })
})

describe("asr-noise: punctuation, case and digits", () => {
  it("\"none\" leaves no punctuation on any word, and lower case no capital", () => {
    const words = wordsOf(asrNoise(LONG, { ...fullNoise(0.1, "none"), seed: 2 }))
    expect(words.length).toBeGreaterThan(5000)
    for (const w of words) {
      // apostrophes and hyphens inside a word, "%" and a time's ":" are spelling
      expect(w.text).toMatch(/^[\p{L}\p{N}$€£](?:[\p{L}\p{N}'’\-%]|:(?=\d))*$/u)
      expect(w.text).toBe(w.text.toLowerCase())
    }
  })

  it("\"auto\" ends sentences at most of the truth's sentence ends, misses some, adds some, and drops every comma", () => {
    const noisy = wordsOf(asrNoise(LONG, { ...CLEAN, punctuation: "auto", seed: 4 }))
    const truth = truthWords(LONG)
    expect(noisy.map((w) => bareWord(w.text))).toEqual(truth.map((w) => bareWord(w.text)).filter((w) => w.length > 0))
    const ended = (t: string) => /[.?!]$/.test(t)
    let kept = 0
    let missed = 0
    let added = 0
    const truthWithWords = truth.filter((w) => bareWord(w.text).length > 0)
    truthWithWords.forEach((t, i) => {
      const a = ended(t.text)
      const b = ended(noisy[i]!.text)
      if (a && b) kept++
      else if (a) missed++
      else if (b) added++
    })
    expect(noisy.some((w) => /[,;:]/.test(w.text))).toBe(false)
    expect(kept / (kept + missed)).toBeGreaterThan(0.75)
    expect(missed).toBeGreaterThan(0)
    expect(added).toBeGreaterThan(0)
    expect(added).toBeLessThan(kept)
  })

  it("number words become digits as a formatter writes them; \"half past two\" is kept", () => {
    const truth = callOf(
      "It's thirty five percent off, so call me on the tenth.",
      "We have two thousand users and one hundred and twenty sites, a hundred reps.",
      "Then Thursday the tenth at two thirty, or half past two, for three weeks.",
      "By the twenty first of March, in twenty twenty five, and one of them is fine.",
      "The first thing is the fifth quarter, twelve people, and two options."
    )
    expect(textOf(truth, { digits: true })).toBe(
      "It's 35% off, so call me on the 10th. We have 2000 users and 120 sites, 100 reps. " +
        "Then Thursday the 10th at 2:30, or half past two, for 3 weeks. By the 21st of March, in 2025, and one of them is fine. " +
        "The first thing is the 5th quarter, 12 people, and two options."
    )
    // with lower case and no punctuation, as a provider answers
    expect(textOf(truth, { digits: true, lowercase: true, punctuation: "none" })).toBe(
      "it's 35% off so call me on the 10th we have 2000 users and 120 sites 100 reps " +
        "then thursday the 10th at 2:30 or half past two for 3 weeks by the 21st of march in 2025 and one of them is fine " +
        "the first thing is the 5th quarter 12 people and two options"
    )
  })
})

describe("asr-noise: label drift", () => {
  it("moves one or two words only across the edge between two neighbouring turns of different speakers", () => {
    const truth = LONG
    const clean = asrNoise(truth, { ...CLEAN, seed: 9 })
    const drifted = asrNoise(truth, { ...CLEAN, labelDrift: 1, seed: 9 })
    // the words, their order and times are the same: only the turn they are in changes
    expect(wordsOf(drifted).map((w) => [w.text, w.start, w.end])).toEqual(wordsOf(clean).map((w) => [w.text, w.start, w.end]))
    const origin = new Map<number, number>()
    clean.turns.forEach((t, j) => t.words.forEach((w) => origin.set(w.start, j)))
    let moved = 0
    drifted.turns.forEach((turn, j) => {
      const from = turn.words.map((w) => origin.get(w.start)!)
      // a turn is: words of the turn before (at most two), its own (at least one), words of the turn after (at most two)
      const before = from.filter((k) => k === j - 1).length
      const own = from.filter((k) => k === j).length
      const after = from.filter((k) => k === j + 1).length
      expect(before + own + after).toBe(from.length)
      expect(own).toBeGreaterThanOrEqual(1)
      expect(before).toBeLessThanOrEqual(2)
      expect(after).toBeLessThanOrEqual(2)
      expect(from).toEqual([...Array(before).fill(j - 1), ...Array(own).fill(j), ...Array(after).fill(j + 1)])
      if (before > 0) expect(truth.turns[j - 1]!.speaker).not.toBe(turn.speaker)
      if (after > 0) expect(truth.turns[j + 1]!.speaker).not.toBe(turn.speaker)
      // every word is labelled with the speaker of the turn it is in, and the turn spans its words
      for (const w of turn.words) expect(w.speaker).toBe(turn.speaker)
      if (turn.words.length > 0) {
        expect(turn.start).toBeLessThanOrEqual(turn.words[0]!.start)
        expect(turn.end).toBeGreaterThanOrEqual(turn.words[turn.words.length - 1]!.end)
      }
      moved += before + after
    })
    expect(moved).toBe(drifted.stats.moved_words)
    const changes = truth.turns.filter((t, j) => j > 0 && truth.turns[j - 1]!.speaker !== t.speaker).length
    expect(drifted.stats.drifted_edges).toBeGreaterThan(changes * 0.9)
    // at the model's share, about a quarter of the speaker changes
    const some = asrNoise(truth, { ...CLEAN, labelDrift: LABEL_DRIFT, seed: 9 }).stats.drifted_edges / changes
    expect(some).toBeGreaterThan(0.15)
    expect(some).toBeLessThan(0.35)
  })

  it("the analysis' input: our turns follow the drifted edges, or stay the truth's with only the labels drifted", () => {
    const truth = truthOf(TRAIN[3]!)
    const drifted = asrNoise(truth, { ...CLEAN, labelDrift: 1, seed: 9 })
    const provider = asrContentInput(truth, drifted, "provider")
    const ours = asrContentInput(truth, drifted, "truth")
    expect(provider.words).toEqual(wordsOf(drifted))
    expect(ours.words).toEqual(wordsOf(drifted))
    expect(provider.speaker_turns.map((t) => [t.start, t.end])).toEqual(drifted.turns.map((t) => [t.start, t.end]))
    expect(ours.speaker_turns.map((t) => [t.start, t.end])).toEqual(truth.turns.map((t) => [t.start, t.end]))
    expect(provider.speaker_turns.map((t) => t.role)).toEqual(truth.turns.map((t) => (t.speaker === "rep" ? "rep" : "buyer")))
    expect(provider.speaker_turns.some((t, j) => t.start !== truth.turns[j]!.start || t.end !== truth.turns[j]!.end)).toBe(true)
  })
})
