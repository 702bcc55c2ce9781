/**
 * The learned objection model (issue 14): its committed weights are exactly what the train part of
 * the evaluation gives (training is deterministic, and reads no test call), and it adds the
 * push-back the patterns miss without taking neutral lines for push-back.
 */
import { describe, expect, it } from "@effect/vitest"
import { trainObjectionModel } from "../../../eval/train-objections.js"
import { trainIds } from "../../../eval/turn-model.js"
import { plain } from "../src/text/lexicon/Tokens.js"
import { OBJECTION_MODEL, OWN_WORDS } from "../src/models/ObjectionModel.js"
import { probabilityOf, turnFeatures } from "../src/models/TurnModel.js"
import { pushbackOf } from "../src/text/Pushback.js"
import { scriptedCall } from "./utils/ScriptedCall.js"

const said = (text: string) => text.split(/(?<=[.?!])\s+/).map((s) => ({ plain: plain(s), question: s.endsWith("?") }))
/** The model's probability for a buyer's turn, with the rep's turn before it when given. */
const probability = (text: string, rep = "") => probabilityOf(turnFeatures(said(text), rep === "" ? [] : said(rep)), OBJECTION_MODEL)

describe("the learned objection model", () => {
  it("is what the train part gives, and the train part holds no test call", async () => {
    const { readFileSync } = await import("node:fs")
    const split = JSON.parse(readFileSync(new URL("../../../eval/split.json", import.meta.url), "utf8")) as { test: Array<string> }
    const ids = trainIds()
    expect(ids.filter((id) => split.test.includes(id))).toEqual([])
    expect(trainObjectionModel(ids).model).toEqual(OBJECTION_MODEL)
  }, 60_000)

  it("hears push-back with no pattern's words, and not neutral lines", () => {
    // alone, many plain lines are not past the threshold ("Honestly, my lads will just ignore it."
    // reads under 0.1; since callsight-1.11 (0.45, then 0.5, 0.6), "Honestly, I don't see my team giving
    // up their spreadsheets for this." after the rollout plan reads about 0.4 and is missed): the model adds
    // to the patterns, it does not replace them
    for (const [rep, buyer] of [
      ["The renewal would be at the new list price.", "Hmm. I'm not sold on that, to be honest."]
    ] as const) {
      expect(pushbackOf(plain(buyer))).toBeNull()
      expect(probability(buyer, rep)).toBeGreaterThan(OBJECTION_MODEL.threshold)
    }
    for (const neutral of ["We have forty people in the sales team.", "The numbers look good.", "What time works for you?", "Great, thanks for walking me through it."]) {
      expect(probability(neutral)).toBeLessThan(OBJECTION_MODEL.threshold)
    }
  })

  it("the rep's turn may lift a buyer's turn, not make it: a bare acknowledgement of an offer is no objection", () => {
    const offer = "Our renewal offer is ninety a seat, and honestly the terms are pretty clean, plus setup is free."
    for (const ack of ["Okay.", "Right.", "I see."]) {
      // the buyer's own words carry nothing, whatever the offer before them makes of the turn
      expect(probability(ack)).toBeLessThan(OWN_WORDS)
      expect(scriptedCall([["rep", offer], ["buyer", ack], ["rep", "Great, I'll send it over today."]]).objections).toEqual([])
    }
    const pushed = scriptedCall([["rep", offer], ["buyer", "Hmm. I'm not sold on that, to be honest."]])
    expect(pushed.objections).toHaveLength(1)
  })

  it("a buyer turn only the model hears is an objection, at its most likely sentence, of the kind its topic names", () => {
    const c = scriptedCall([
      ["rep", "The renewal would be at the new list price."],
      ["buyer", "Right. Hmm. I'm not sold on that, to be honest."],
      ["rep", "What would you need to see to be sold on it?"]
    ])
    expect(c.objections).toHaveLength(1)
    expect(c.objections[0]!.quote).toBe("I'm not sold on that, to be honest.")
    expect(c.objections[0]!.response).toBe("question_back")
  })
})
