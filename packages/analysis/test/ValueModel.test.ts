/**
 * The learned value-claim model (issue 14): its committed weights are exactly what the train part of
 * the evaluation gives (training is deterministic, and reads no test call), and it hears what the
 * rep says the buyer gets where the rules hear no value word or figure, tied to the pain the buyer
 * told just before; scheduling and questions are no claims.
 */
import { describe, expect, it } from "@effect/vitest"
import { trainIds } from "../../../eval/turn-model.js"
import { trainValueModel } from "../../../eval/train-value.js"
import { plain } from "../src/text/lexicon/Tokens.js"
import { VALUE_CUES } from "../src/text/lexicon/Value.js"
import { probabilityOf, turnFeatures } from "../src/models/TurnModel.js"
import { VALUE_MODEL } from "../src/models/ValueModel.js"
import { scriptedCall } from "./utils/ScriptedCall.js"

const said = (text: string) => text.split(/(?<=[.?!])\s+/).map((s) => ({ plain: plain(s), question: s.endsWith("?") }))
/** The model's probability for a turn, with the other side's turn before it. */
const probability = (text: string, before: string) => probabilityOf(turnFeatures(said(text), said(before)), VALUE_MODEL)

describe("the learned value-claim model", () => {
  it("is what the train part gives", () => {
    expect(trainValueModel(trainIds()).model).toEqual(VALUE_MODEL)
  }, 60_000)

  it("a rep's run only the model hears is a claim, tied to the pain the buyer told just before", () => {
    const claim = "So with the job tickets feeding the hours, your engineers get their Friday afternoons back."
    expect(VALUE_CUES.test(plain(claim))).toBe(false)
    const c = scriptedCall([
      ["rep", "How do timesheets work today?"],
      ["buyer", "Our engineers spend every Friday afternoon on timesheets, and half of them are late anyway."],
      ["rep", `${claim} The timesheet fills itself as they close each job.`],
      ["buyer", "Interesting."]
    ])
    expect(c.findings.value_claims.map((v) => v.quote)).toEqual([claim])
    expect(c.findings.value_claims[0]!.link).toBe("pain")
    expect(c.findings.value_claims[0]!.linked_to?.quote).toBe(c.findings.pains[0]!.quote)
  })

  it("scheduling and questions are no claims", () => {
    for (const [buyer, rep] of [
      ["That sounds fine.", "Great. I'll send the invite for Thursday at ten."],
      ["Who else should join?", "Let's bring in your IT lead for the security part."],
      ["Okay.", "Can you tell me how you handle returns today?"]
    ] as const) expect(probability(rep, buyer)).toBeLessThan(VALUE_MODEL.threshold)
  })
})
