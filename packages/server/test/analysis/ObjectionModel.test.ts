/**
 * The learned objection model (issue 14): its committed weights are exactly what the train part of
 * the evaluation gives (training is deterministic, and reads no test call), and it adds the
 * push-back the patterns miss without taking neutral lines for push-back.
 */
import { describe, expect, it } from "@effect/vitest"
import { trainIds, trainObjectionModel } from "../../../../eval/train-objections.js"
import { plain } from "../../src/analysis/Lexicon.js"
import { OBJECTION_MODEL, objectionFeatures, pushbackProbability } from "../../src/analysis/ObjectionModel.js"
import { pushbackOf } from "../../src/analysis/Pushback.js"
import { scriptedCall } from "../utils/ScriptedCall.js"

const probability = (text: string) => pushbackProbability(objectionFeatures([{ plain: plain(text), question: text.endsWith("?") }]))

describe("the learned objection model", () => {
  it("is what the train part gives, and the train part holds no test call", async () => {
    const { readFileSync } = await import("node:fs")
    const split = JSON.parse(readFileSync(new URL("../../../../eval/split.json", import.meta.url), "utf8")) as { test: Array<string> }
    const ids = trainIds()
    expect(ids.filter((id) => split.test.includes(id))).toEqual([])
    expect(trainObjectionModel(ids).model).toEqual(OBJECTION_MODEL)
  }, 60_000)

  it("hears push-back with no pattern's words, and not neutral lines", () => {
    expect(pushbackOf(plain("Eighty seven still isn't the ninety five we asked for."))).toBeNull()
    expect(probability("Eighty seven still isn't the ninety five we asked for.")).toBeGreaterThan(OBJECTION_MODEL.threshold)
    expect(probability("Hmm. I'm not sold on that, to be honest.")).toBeGreaterThan(OBJECTION_MODEL.threshold)
    for (const neutral of ["We have forty people in the sales team.", "The numbers look good.", "What time works for you?", "Great, thanks for walking me through it."]) {
      expect(probability(neutral)).toBeLessThan(OBJECTION_MODEL.threshold)
    }
  })

  it("a buyer turn only the model hears is an objection, at its most likely sentence, of the kind its topic names", () => {
    const c = scriptedCall([
      ["rep", "So accuracy on the trial was eighty seven percent."],
      ["buyer", "Right. Eighty seven still isn't the ninety five we asked for."],
      ["rep", "What would closing that gap be worth to you?"]
    ])
    expect(c.objections).toHaveLength(1)
    expect(c.objections[0]!.quote).toBe("Eighty seven still isn't the ninety five we asked for.")
    expect(c.objections[0]!.response).toBe("question_back")
  })
})
