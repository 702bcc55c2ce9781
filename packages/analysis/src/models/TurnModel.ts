/**
 * What the learned models of the content analysis share (issue 14): a logistic regression over the
 * words and word pairs of one side's turn and of the other side's turn before it, its weights
 * trained by `eval/turn-model.ts` on the train part of the evaluation and nothing else. Three models
 * read turns so: objections (`ObjectionModel.ts`) and pains (`PainModel.ts`) in the buyer's turns,
 * value claims (`ValueModel.ts`) in the rep's.
 *
 * Pure and deterministic: the same words give the same probability.
 */
export interface TurnModel {
  readonly bias: number
  /** The probability above which a turn is taken for the model's item. */
  readonly threshold: number
  readonly weights: Readonly<Record<string, number>>
}

type Said = { readonly plain: string; readonly question: boolean }

/**
 * The features of one side's turn: its sentences as plain text (`u:` words, `b:` adjacent pairs),
 * which of them are questions (`f:question`), and what the other side said just before (`r:` words;
 * `r:question` when it asked: a pain is usually told in answer to a question, push-back in answer
 * to a proposal).
 */
export const turnFeatures = (sentences: ReadonlyArray<Said>, before: ReadonlyArray<Said> = []): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const s of before) for (const w of s.plain.split(" ")) if (w.length > 0) out.add(`r:${w}`)
  if (before.length > 0 && before[before.length - 1]!.question) out.add("r:question")
  for (const s of sentences) {
    const words = s.plain.split(" ").filter((w) => w.length > 0)
    words.forEach((w, i) => {
      out.add(`u:${w}`)
      const next = words[i + 1]
      if (next !== undefined) out.add(`b:${w}_${next}`)
    })
    if (s.question) out.add("f:question")
  }
  return out
}

/** The model's probability that a turn with these features holds its item. */
export const probabilityOf = (features: ReadonlySet<string>, m: TurnModel): number => {
  let z = m.bias
  for (const f of features) z += m.weights[f] ?? 0
  return 1 / (1 + Math.exp(-z))
}

/**
 * Where a model hears its item in a turn (every learned model of the analysis reads turns so):
 * null when the turn's sentences together are not past its threshold, else the sentence it finds
 * most likely.
 */
export const likeliest = <S extends Said>(heard: ReadonlyArray<S>, before: ReadonlyArray<Said>, m: TurnModel): S | null => {
  if (heard.length === 0 || probabilityOf(turnFeatures(heard, before), m) <= m.threshold) return null
  return heard.map((s) => ({ s, p: probabilityOf(turnFeatures([s], before), m) })).reduce((best, x) => (x.p > best.p ? x : best)).s
}
