/**
 * The sentence-end model (issue 35, item 3): where speech-to-text gives no punctuation, sentences
 * end where the model reads an end, not only at a long pause; its committed weights are exactly what
 * the train part gives (training is deterministic and reads no test call); where the provider
 * punctuates, its punctuation alone decides.
 */
import { describe, expect, it } from "@effect/vitest"
import { trainIds } from "../../../eval/turn-model.js"
import { trainSentenceEndModel } from "../../../eval/train-sentence-ends.js"
import { SENTENCE_END_MODEL } from "../src/models/SentenceEndModel.js"
import { inContext, toToken } from "../src/text/lexicon/Tokens.js"
import { sentencesOf } from "../src/text/Sentences.js"

/** One speaker's words, evenly spaced (no pause long enough to end a sentence), read into sentences. */
const sentences = (text: string) => {
  const raws = text.split(" ")
  const tokens = inContext(raws.map(toToken))
  const words = raws.map((w, k) => ({ text: w, start: k * 0.3, end: k * 0.3 + 0.25, provider: null, turn: 0, speaker: "S2", side: "buyer" as const, token: tokens[k]! }))
  const punctuated = raws.some((w) => /[.?!]$/.test(w))
  return sentencesOf([words], punctuated).map((s) => s.text)
}

describe("the sentence-end model", () => {
  it("is what the train part gives", () => {
    expect(trainSentenceEndModel(trainIds()).model).toEqual(SENTENCE_END_MODEL)
  }, 240_000)

  it("ends sentences in words without punctuation: a question, a promise and an answer each stand alone", () => {
    const found = sentences("that makes sense we looked at two other tools last year neither of them handled the night shifts what would the rollout look like for forty staff")
    expect(found[0]).toBe("that makes sense")
    expect(found).toContain("what would the rollout look like for forty staff")
    expect(sentences("okay that works for me i'll send the invite for thursday at ten does that suit your manager"))
      .toContain("i'll send the invite for thursday at ten")
    expect(sentences("thanks for that the price is more than we budgeted honestly i'm also worried about the training can you send me a case study"))
      .toContain("can you send me a case study")
  })

  it("is not read where the provider punctuates", () => {
    expect(sentences("Okay that works for me I'll send the invite for Thursday at ten.")).toEqual(["Okay that works for me I'll send the invite for Thursday at ten."])
  })
})
