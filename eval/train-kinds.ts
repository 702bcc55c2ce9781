/**
 * Trains the objection kind model of `packages/analysis/src/models/KindModel.ts` on the train part
 * of `eval/split.json` (never the test part) and writes its weights to `kind-model.json`.
 *
 *   npm run train:kinds
 *
 * One example per turn of each annotated objection that has a kind (an annotation may leave it
 * null when none of the six fits: a request for proof, contract terms, a security review): the
 * buyer's words of that turn (`turnFeatures`, without the rep's turn before), labelled with the
 * item's kind; a softmax regression (`trainSoftmaxModel` in `turn-model.ts`), L2 0.03, 10 passes.
 *
 * Why: the kind the rules gave a found objection (a phrase's category, else the topic its words
 * name, else `need`) agreed with the annotation on 0.39 of the matched objections that have one, on
 * the eighteen blind batches left out in turn (182 of 465: "Vinotrack offered us fourteen hundred,
 * no setup." was `need`, annotated `competitor`; "Fourteen thousand for the first year. Too much."
 * `need`, annotated `price`). This model, trained on the other batches, gives the annotated kind to
 * 0.699 of the objection turns of each batch left out (602 turns; with the rep's turn before as
 * context 0.668; L2 0.01 0.689, 0.05 0.688, 0.1 0.650 with the context; the first turn of each item
 * only 0.696 without it).
 */
import { writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Objection } from "@callsight/api-spec"
import { Schema } from "effect"
import { turnFeatures } from "@callsight/analysis"
import { HERE, isMain, read, Script, sentencesOf, trainIds, trainSoftmaxModel } from "./turn-model.js"

const OUT = join(dirname(fileURLToPath(import.meta.url)), "../packages/analysis/src/models/kind-model.json")
const SETTINGS = { l2: 0.03, epochs: 10 }

/** The API's kinds, in its order: each feature's weights follow it. */
const KINDS = Objection.fields.kind.literals

const Annotation = Schema.Struct({
  objections: Schema.Array(Schema.Struct({ turns: Schema.Array(Schema.Number), kind: Schema.NullOr(Objection.fields.kind) }))
})

/** Each turn of each annotated objection with a kind: its buyer's words and the kind. */
export const kindExamples = (ids: ReadonlyArray<string>) =>
  ids.flatMap((id) => {
    const script = read(Script, join(HERE, "calls", `${id}.script.json`))
    const annotation = read(Annotation, join(HERE, "calls", `${id}.annotation.json`))
    return annotation.objections.flatMap(({ kind, turns }) =>
      kind === null ? [] : turns.map((t) => ({ x: [...turnFeatures(sentencesOf(script.turns[t]!.text))], y: kind }))
    )
  })

/** The model the train calls give: deterministic, so a test checks the committed weights are these. */
export const trainKindModel = (ids: ReadonlyArray<string>) => trainSoftmaxModel(kindExamples(ids), KINDS, SETTINGS)

if (isMain(import.meta.url)) {
  const examples = kindExamples(trainIds())
  const model = trainSoftmaxModel(examples, KINDS, SETTINGS)
  writeFileSync(OUT, `${JSON.stringify(model)}\n`)
  console.log(`${examples.length} objection turns with a kind, ${Object.keys(model.weights).length} features → ${OUT}`)
}
