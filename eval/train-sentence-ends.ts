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

type CutsAt = (words: ReadonlyArray<string>, at: number, since: number) => boolean

/** Cuts read as `sentencesOf` reads them (greedy, the sentence so far counted from the last cut), against the true ends. */
const score = (said: ReadonlyArray<Said>, cuts: CutsAt) => {
  let right = 0
  let cut = 0
  let ends = 0
  for (const { words, ends: truth } of said) {
    let since = 1
    for (let i = 1; i < words.length; i++) {
      const end = cuts(words, i, since)
      if (end) cut++
      if (truth[i - 1] === true) ends++
      if (end && truth[i - 1] === true) right++
      since = end ? 1 : since + 1
    }
  }
  return { right, cut, ends }
}
type Score = ReturnType<typeof score>

const line = (x: Score) => {
  const p = x.right / x.cut
  const r = x.right / x.ends
  return `P ${p.toFixed(3)} / R ${r.toFixed(3)} (F1 ${((2 * p * r) / (p + r)).toFixed(3)})`
}
const sum = (xs: ReadonlyArray<Score>): Score => xs.reduce((a, x) => ({ right: a.right + x.right, cut: a.cut + x.cut, ends: a.ends + x.ends }))

/**
 * The blind batches in two halves (every other batch), each left out in turn: the model trained on
 * the rest cuts the left-out calls (and, to show how much it learned by heart, the calls it was
 * trained on), read as speech-to-text gives them with a seed of their own; beside it the clause rule
 * that cut sentences before the model (callsight-1.22–1.23: `opensClause` once four words are said).
 */
const evaluate = () => {
  const ids = trainIds()
  const batches = [...new Set(ids.filter((id) => id.startsWith("dev")).map((id) => id.replace(/^(dev\d*-(?:[ab]-)?).*$/, "$1")))].sort()
  const halves = [batches.filter((_, k) => k % 2 === 0), batches.filter((_, k) => k % 2 === 1)]
  const thresholds = [0.15, 0.2, 0.25, 0.3, 0.4]
  const folds = halves.map((out) => {
    const left = (id: string) => out.some((b) => id.startsWith(b))
    const { model } = trainSentenceEndModel(ids.filter((id) => !left(id)))
    const heard = (keep: (id: string) => boolean) => ids.filter(keep).flatMap((id) => turnsOf(id, CHECK_SEED))
    const [unseen, seen] = [heard(left), heard((id) => !left(id))]
    return thresholds.map((threshold) => {
      const cuts: CutsAt = (words, at, since) => probabilityOf(gapFeatures(words, at, since), model) > threshold
      return { unseen: score(unseen, cuts), seen: score(seen, cuts) }
    })
  })
  const blind = ids.filter((id) => id.startsWith("dev")).flatMap((id) => turnsOf(id, CHECK_SEED))
  console.log(`the clause rule (opensClause once four words are said): ${line(score(blind, (words, at, since) => since >= 4 && opensClause(words, at)))}`)
  console.log(`sentence ends on speech-to-text words (10 % WER, seed ${CHECK_SEED}), each half of the ${batches.length} blind batches left out in turn`)
  thresholds.forEach((t, k) => {
    const unseen = sum(folds.map((f) => f[k]!.unseen))
    const seen = sum(folds.map((f) => f[k]!.seen))
    console.log(`  ${t.toFixed(2)}  left out: ${line(unseen)}   trained on: ${line(seen)}`)
  })
}

if (isMain(import.meta.url)) {
  if (process.argv.includes("--evaluate")) evaluate()
  else {
    const { model, gaps, ends } = trainSentenceEndModel(trainIds())
    writeFileSync(OUT, `${JSON.stringify(model)}\n`)
    console.log(`${gaps} gaps (${ends} sentence ends), ${Object.keys(model.weights).length} weights → ${OUT}`)
  }
}
