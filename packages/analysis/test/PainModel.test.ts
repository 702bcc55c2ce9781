/**
 * The learned pain model (issue 14): its committed weights are exactly what the train part of the
 * evaluation gives (training is deterministic, and reads no test call), and it hears problems told
 * without a pain word, where the rules hear none, without taking logistics or facts for pains.
 */
import { describe, expect, it } from "@effect/vitest"
import { trainIds } from "../../../eval/turn-model.js"
import { trainPainModel } from "../../../eval/train-pains.js"
import { plain } from "../src/text/lexicon/Tokens.js"
import { hasPainCue } from "../src/text/lexicon/Value.js"
import { probabilityOf, turnFeatures } from "../src/models/TurnModel.js"
import { PAIN_MODEL } from "../src/models/PainModel.js"
import { scriptedCall } from "./utils/ScriptedCall.js"

const said = (text: string) => text.split(/(?<=[.?!])\s+/).map((s) => ({ plain: plain(s), question: s.endsWith("?") }))
/** The model's probability for a turn, with the other side's turn before it. */
const probability = (text: string, before: string) => probabilityOf(turnFeatures(said(text), said(before)), PAIN_MODEL)

describe("the learned pain model", () => {
  it("is what the train part gives", () => {
    expect(trainPainModel(trainIds()).model).toEqual(PAIN_MODEL)
  }, 60_000)

  it("hears a burden in figures and a failure told as a story, and not logistics or plain facts", () => {
    for (const [rep, buyer] of [
      ["How long do customers wait today?", "Average hold time was nine minutes in March, and a quarter of callers give up."],
      ["What happened last winter?", "The boiler was overdue a service by a year and nobody noticed until it stopped."]
    ] as const) {
      expect(hasPainCue(plain(buyer))).toBe(false)
      expect(probability(buyer, rep)).toBeGreaterThan(PAIN_MODEL.threshold)
    }
    for (const [rep, buyer] of [
      ["When would suit you?", "Tuesday at ten works for me."],
      ["Thanks for the time today.", "Thank you, it was useful."],
      ["What does your team look like?", "We have forty people in the sales team."]
    ] as const) expect(probability(buyer, rep)).toBeLessThan(PAIN_MODEL.threshold)
  })

  it("a buyer turn only the model hears is a pain, at its most likely sentence, with its figures", () => {
    const c = scriptedCall([
      ["rep", "How long do customers wait today?"],
      ["buyer", "Well. Average hold time was nine minutes in March, and a quarter of callers give up."],
      ["rep", "What does a caller who gives up cost you?"]
    ])
    expect(c.findings.pains.map((p) => p.quote)).toEqual(["Average hold time was nine minutes in March, and a quarter of callers give up."])
    expect(c.findings.pains[0]!.numbers.length).toBeGreaterThan(0)
  })
})
