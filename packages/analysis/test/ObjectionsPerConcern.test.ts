/**
 * Every concern in a turn (issue 35, item 1): one buyer turn may raise several objections, each
 * found in its own sentence or clause with its own quote, kind and time; a concern said again in
 * other words, or pressed with a short line, is still one.
 */
import { describe, expect, it } from "@effect/vitest"
import { OBJECTION_MODEL } from "../src/models/ObjectionModel.js"
import { probabilityOf, turnFeatures } from "../src/models/TurnModel.js"
import { plain, toToken } from "../src/text/lexicon/Tokens.js"
import { clausesOf, sentencesOf } from "../src/text/Sentences.js"
import { scriptedCall } from "./utils/ScriptedCall.js"

/** The objections of one buyer turn after a neutral rep line. */
const objectionsOf = (buyer: string) => scriptedCall([["rep", "Thanks for making the time this morning."], ["buyer", buyer]]).objections

describe("two concerns in one buyer turn are two objections", () => {
  it.each([
    [
      "Four hundred a month is well over what we set aside for software this year. And separately, I'm nervous about the timing, because we're moving the whole depot in September.",
      ["Four hundred a month", "nervous about the timing"]
    ],
    [
      "Honestly the fee is steep for a shop our size. I'm also not sure my mechanics would ever open an app on their phones during a job.",
      ["the fee is steep", "not sure my mechanics"]
    ],
    [
      "We're tied into a contract with our current supplier until the spring, and on top of that the price you quoted is more than double what we pay them.",
      ["tied into a contract", "the price you quoted"]
    ]
  ])("%s", (line, said) => {
    const found = [...objectionsOf(line)].sort((a, b) => a.at - b.at)
    // each with its own quote (the sentence or clause that raises it), time and kind
    expect(found.map((o) => said.filter((x) => o.quote.includes(x)))).toEqual(said.map((x) => [x]))
    expect(found[0]!.at).toBeLessThan(found[1]!.at)
    expect(found[0]!.kind).not.toBe(found[1]!.kind)
  })
})

describe("one concern said twice is one objection", () => {
  it.each([
    "It's too expensive for us. Honestly, it's just more money than a business like ours can spend on this.",
    "We won't sign anything for three years. Not a chance.",
    "We can't take on anything new before the summer. Nothing changes here until the season is over."
  ])("%s", (line) => {
    expect(objectionsOf(line)).toHaveLength(1)
  })
})

describe("clauses of a sentence", () => {
  /** The clauses of one buyer sentence, as text. */
  const clauses = (text: string) => {
    const words = text.split(" ").map((w, k) => ({
      text: w, start: k * 0.3, end: k * 0.3 + 0.25, provider: null, turn: 0, speaker: "S2", side: "buyer" as const, token: toToken(w)
    }))
    return sentencesOf([words], true).flatMap((s) => clausesOf(s).map((c) => c.text))
  }

  it("a comma before a joining word or a new subject cuts it", () => {
    expect(clauses("The fee is steep, and the timing is worse.")).toEqual(["The fee is steep,", "and the timing is worse."])
    expect(clauses("The fee is steep; we also have a freeze on new tools.")).toEqual(["The fee is steep;", "we also have a freeze on new tools."])
  })

  it("without punctuation, \"and\" or \"but\" before a new subject cuts it, as speech-to-text gives it", () => {
    expect(clauses("the fee is steep and we are moving offices in june")).toEqual(["the fee is steep", "and we are moving offices in june"])
  })

  it("each side keeps three words, and a list of things is one clause", () => {
    expect(clauses("Yes, and we can start then.")).toEqual(["Yes, and we can start then."])
    expect(clauses("We need the scanner and the labels and the printer by Friday.")).toEqual(["We need the scanner and the labels and the printer by Friday."])
  })

  it("a clause keeps its sentence's index and run", () => {
    const words = "One thing is certain, and another is not.".split(" ").map((w, k) => ({
      text: w, start: k, end: k + 0.5, provider: null, turn: 0, speaker: "S2", side: "buyer" as const, token: toToken(w)
    }))
    const [s] = sentencesOf([words], true)
    expect(clausesOf(s!).map((c) => [c.index, c.run])).toEqual([[0, 0], [0, 0]])
  })
})

describe("brush-offs that end or defer the conversation are objections", () => {
  it.each([
    "Honestly, just email me something and I'll have a look when I can.",
    "Try me again after the harvest, there's no point before.",
    "This is a really awkward time, I'm about to go into a board meeting.",
    "We're all set for now, thanks.",
    "I don't agree to anything over the phone, sorry."
  ])("%s", (line) => {
    expect(objectionsOf(line)).toHaveLength(1)
  })

  it("material asked for about something or for someone, with the call going on, is a request, not a brush-off", () => {
    for (const line of [
      "Could you send me something on the stock module that I can pass to our office manager?",
      "Send me something to look through before we speak on Thursday.",
      "And pop me over some info about the training days, please."
    ]) {
      expect(objectionsOf(line)).toEqual([])
    }
    // "just", or a look put off, still makes it the buyer's way off the call
    expect(objectionsOf("Look, just send me something over and I'll read it when things calm down.")).toHaveLength(1)
    expect(objectionsOf("Email me some details and I'll have a look at some point.")).toHaveLength(1)
  })

  it("a request for a named document, a day given for a call the buyer wants, and a story of a busy phone are not", () => {
    expect(objectionsOf("Can you send me the data processing agreement so legal can start on it?")).toHaveLength(0)
    expect(objectionsOf("Our phones did not stop ringing that whole week after the article.")).toHaveLength(0)
  })
})

describe("a worry told as a feeling is an objection", () => {
  it.each([
    "I'm a little scared my drivers will simply ignore the alerts.",
    "Our two receptionists are lovely, but they're frightened of anything that changes the booking screen.",
    "To be honest I get quite jittery about moving all the client files in one go.",
    "The bit about the overnight sync, that's the part that bothers me."
  ])("%s", (line) => {
    expect(objectionsOf(line)).toHaveLength(1)
  })

  it("not a worry waved away, nor a polite \"I'm afraid\"", () => {
    expect(objectionsOf("I'm not worried about the set-up at all, our lad is good with that.")).toEqual([])
    expect(objectionsOf("I'm afraid I've only got ten minutes, so go ahead.")).toEqual([])
  })

  it("beside another concern in the same turn, in a sentence of its own, it is a second objection", () => {
    const found = objectionsOf("The monthly fee is more than we set aside for this. Honestly, I'm a bit frightened the older staff will never get used to it.")
    expect(found).toHaveLength(2)
    expect(new Set(found.map((o) => o.kind)).size).toBe(2)
  })
})

describe("a concern asked as a question", () => {
  it.each([
    "So why am I paying for thirty licences when half the team never logs in?",
    "Why would we be paying for the weekends when the office is shut?",
    "Why do we pay for twenty seats, then?"
  ])("%s", (line) => {
    expect(objectionsOf(line)).toHaveLength(1)
  })
})

describe("a second concern said in a sentence that adds it", () => {
  const price = "Twelve hundred a year is more than we budgeted for."

  it("a phrase's concern in an \"And…\" sentence needs the model less sure of it than one said without", () => {
    // the premise: the model reads the freeze in its own words past `ADDED_BAR` (0.15) and not past
    // `OTHER_BAR` (0.3) nor its threshold; a retrained model may move it out of that band
    const freeze = "There is a freeze on new systems until the spring."
    const p = probabilityOf(turnFeatures([{ plain: plain(freeze), question: false }]), OBJECTION_MODEL)
    expect(p).toBeGreaterThan(0.15)
    expect(p).toBeLessThanOrEqual(0.3)
    const added = objectionsOf(`${price} And ${freeze.charAt(0).toLowerCase()}${freeze.slice(1)}`)
    expect(added).toHaveLength(2)
    expect(new Set(added.map((o) => o.kind)).size).toBe(2)
    expect(objectionsOf(`${price} ${freeze}`)).toHaveLength(1)
  })

  it("a reason for the first concern stays with it", () => {
    expect(objectionsOf(`${price} We're a small shop with four staff.`)).toHaveLength(1)
  })
})
