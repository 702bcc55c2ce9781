/**
 * Trains the sentence-end model of `packages/analysis/src/models/SentenceEndModel.ts` on the train
 * part of `eval/split.json` (never the test part) and writes its weights to
 * `sentence-end-model.json`.
 *
 *   npm run train:sentence-ends               train and write the model
 *   npm run train:sentence-ends -- --evaluate  each half of the blind batches left out in turn: how
 *                                              well the cuts are placed on calls the model never read
 *
 * One example per gap between two words of a turn, labelled a sentence end when the word before it
 * ends with ".", "?" or "!" in the script. Each call is read twice: as written, lower-cased (the
 * analysis reads `Token.word`), and as speech-to-text would give it with its punctuation kept for
 * the labels (`asr-noise.ts`: 10 % word errors, numbers in digits, seed `TRAIN_SEED`, never the
 * evaluation's 35), so the model learns the ends around misheard and missing words too. The
 * features are `gapFeatures` (Sentences.ts); the sentence so far is counted from the last true end
 * in training and from the last cut made when reading (`sentencesOf`). The regression is the turn
 * models' (`turn-model.ts`, `trainLogistic`).
 */
import { writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { endsSentence, gapFeatures, opensClause, inContext, probabilityOf, toToken, type TurnModel } from "@callsight/analysis"
import { asrNoise, hashSeed } from "./asr-noise.js"
import { truthOf } from "./calls.js"
import { isMain, trainIds, trainLogistic } from "./turn-model.js"

const OUT = join(dirname(fileURLToPath(import.meta.url)), "../packages/analysis/src/models/sentence-end-model.json")
const SETTINGS = { l2: 0.003, epochs: 6, threshold: 0.2, prune: 0.2 }
/** The seed of the speech-to-text copy the model learns from: not the evaluation's (`ASR_SEED`, 35). */
const TRAIN_SEED = 1035
/** The seed of the copy `--evaluate` reads the left-out calls on. */
const CHECK_SEED = 2035

/** A turn as words (the analysis' tokens, in context) and, for each, whether a sentence ends after it. */
interface Said {
  readonly words: ReadonlyArray<string>
  readonly ends: ReadonlyArray<boolean>
}

/** Provider words (punctuation attached) as the analysis reads them; a word with no letter or digit gives its end to the word before. */
const saidOf = (raws: ReadonlyArray<string>): Said => {
  const tokens = inContext(raws.map(toToken))
  const words: Array<string> = []
  const ends: Array<boolean> = []
  tokens.forEach((t, i) => {
    const end = endsSentence(raws[i]!)
    if (t.word.length === 0) {
      if (end && ends.length > 0) ends[ends.length - 1] = true
      return
    }
    words.push(t.word)
    ends.push(end)
  })
  return { words, ends }
}

/** The turns of a call as written, and as speech-to-text gives them (punctuation kept for the labels) with `seed`. */
const turnsOf = (id: string, seed: number | null): Array<Said> => {
  const truth = truthOf(id)
  if (seed === null) return truth.turns.map((t) => saidOf(t.text.split(/\s+/).filter((x) => x.length > 0)))
  const noisy = asrNoise(truth, { seed: hashSeed(seed, id), wordErrorRate: 0.1, punctuation: "keep", lowercase: true, digits: true, labelDrift: 0 })
  return noisy.turns.map((t) => saidOf(t.words.map((w) => w.text)))
}

const examplesOf = (said: ReadonlyArray<Said>) =>
  said.flatMap(({ words, ends }) => {
    const out: Array<{ x: Array<string>; y: number }> = []
    let since = 1
    for (let i = 1; i < words.length; i++) {
      const y = ends[i - 1] === true ? 1 : 0
      out.push({ x: [...gapFeatures(words, i, since)], y })
      since = y === 1 ? 1 : since + 1
    }
    return out
  })

/** The model the train calls give: deterministic, so a test checks the committed weights are these. */
export const trainSentenceEndModel = (ids: ReadonlyArray<string>) => {
  const examples = ids.flatMap((id) => [...examplesOf(turnsOf(id, null)), ...examplesOf(turnsOf(id, TRAIN_SEED))])
  return { model: trainLogistic(examples, SETTINGS), gaps: examples.length, ends: examples.filter((e) => e.y === 1).length }
}

/** Cuts read as `sentencesOf` reads them (greedy, the sentence so far counted from the last cut), against the true ends. */
const score = (said: ReadonlyArray<Said>, model: TurnModel, thresholds: ReadonlyArray<number>) =>
  thresholds.map((threshold) => {
    let right = 0
    let cut = 0
    let ends = 0
    for (const { words, ends: truth } of said) {
      let since = 1
      for (let i = 1; i < words.length; i++) {
        const end = probabilityOf(gapFeatures(words, i, since), model) > threshold
        if (end) cut++
        if (truth[i - 1] === true) ends++
        if (end && truth[i - 1] === true) right++
        since = end ? 1 : since + 1
      }
    }
    return { threshold, right, cut, ends }
  })

const evaluate = () => {
  const ids = trainIds()
  const batches = [...new Set(ids.filter((id) => id.startsWith("dev")).map((id) => id.replace(/^(dev\d*-(?:[ab]-)?).*$/, "$1")))].sort()
  const halves = [batches.filter((_, k) => k % 2 === 0), batches.filter((_, k) => k % 2 === 1)]
  const thresholds = [0.15, 0.2, 0.25, 0.3, 0.4]
  const pooled = thresholds.map((threshold) => ({ threshold, right: 0, cut: 0, ends: 0 }))
  const inSample = thresholds.map((threshold) => ({ threshold, right: 0, cut: 0, ends: 0 }))
  for (const out of halves) {
    const left = (id: string) => out.some((b) => id.startsWith(b))
    const { model } = trainSentenceEndModel(ids.filter((id) => !left(id)))
    const add = (into: typeof pooled, xs: ReturnType<typeof score>) =>
      xs.forEach((x, k) => ((into[k]!.right += x.right), (into[k]!.cut += x.cut), (into[k]!.ends += x.ends)))
    add(pooled, score(ids.filter(left).flatMap((id) => turnsOf(id, CHECK_SEED)), model, thresholds))
    add(inSample, score(ids.filter((id) => !left(id)).flatMap((id) => turnsOf(id, CHECK_SEED)), model, thresholds))
  }
  const line = (x: (typeof pooled)[number]) => {
    const p = x.right / x.cut
    const r = x.right / x.ends
    return `P ${p.toFixed(3)} / R ${r.toFixed(3)} (F1 ${((2 * p * r) / (p + r)).toFixed(3)})`
  }
  const rule = { right: 0, cut: 0, ends: 0, threshold: 0 }
  for (const { words, ends } of ids.filter((id) => id.startsWith("dev")).flatMap((id) => turnsOf(id, CHECK_SEED))) {
    let since = 1
    for (let i = 1; i < words.length; i++) {
      const end = since >= 4 && opensClause(words as Array<string>, i)
      if (end) rule.cut++
      if (ends[i - 1] === true) rule.ends++
      if (end && ends[i - 1] === true) rule.right++
      since = end ? 1 : since + 1
    }
  }
  console.log(`opensClause after four words: ${line(rule)}`)
  console.log(`sentence ends on speech-to-text words (10 % WER, seed ${CHECK_SEED}), each half of the ${batches.length} blind batches left out in turn`)
  pooled.forEach((x, k) => console.log(`  ${x.threshold.toFixed(2)}  left out: ${line(x)}   trained on: ${line(inSample[k]!)}`))
}

if (isMain(import.meta.url)) {
  if (process.argv.includes("--evaluate")) evaluate()
  else {
    const { model, gaps, ends } = trainSentenceEndModel(trainIds())
    writeFileSync(OUT, `${JSON.stringify(model)}\n`)
    console.log(`${gaps} gaps (${ends} sentence ends), ${Object.keys(model.weights).length} weights → ${OUT}`)
  }
}
