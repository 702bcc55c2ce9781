/**
 * Next steps in words as speech-to-text gives them (issue 35, item 3): no punctuation, or sentence
 * ends without commas; numbers in digits; a contraction heard as its homophone. The step is placed
 * where its own clause starts, not at the start of the run-on sentence holding it.
 */
import { describe, expect, it } from "@effect/vitest"
import { dueText, findDues } from "../src/text/Dates.js"
import { tokenize } from "../src/text/lexicon/Tokens.js"
import { opensClause } from "../src/text/Sentences.js"
import { scriptedCall, type Who } from "./utils/ScriptedCall.js"

const steps = (lines: ReadonlyArray<readonly [Who, string]>) => scriptedCall(lines).next_steps.map((s) => [s.owner, s.due, s.quote])
const dues = (text: string) => findDues(tokenize(text)).map(dueText)
const opens = (text: string) => {
  const words = tokenize(text).map((t) => t.word)
  return words.flatMap((w, i) => (opensClause(words, i) ? [w] : []))
}

describe("where a clause opens without a comma", () => {
  it("a subject with its verb, a question, a question word and a joining word before a subject open one", () => {
    expect(opens("lovely we'll ring you back")).toEqual(["we'll"])
    expect(opens("noted could you email the floor plan")).toEqual(["could"])
    expect(opens("fine how about the morning")).toEqual(["how"])
    expect(opens("brilliant then let's pencil it in")).toEqual(["then"])
  })

  it("a verb after its subject, a subject after its auxiliary and a clause after a binder do not", () => {
    expect(opens("I'll have it ready")).toEqual([])
    expect(opens("we can do that")).toEqual([])
    expect(opens("can I have the export")).toEqual([])
    expect(opens("I think we can")).toEqual([])
  })
})

describe("next steps without punctuation", () => {
  it("a step after an acknowledgement starts at its own subject", () => {
    expect(steps([
      ["buyer", "that would help a lot"],
      ["rep", "great I'll send the revised price list by thursday"]
    ])).toEqual([["S1", "Thursday", "I'll send the revised price list by thursday"]])
  })

  it("a step after a joining word starts at its subject, the one before it keeps its own day", () => {
    const found = steps([
      ["rep", "I'll draft the rota changes by monday then let's walk through them together on wednesday"],
      ["buyer", "wednesday suits me"]
    ])
    expect(found).toContainEqual(["S1", "Monday", "I'll draft the rota changes by monday"])
    expect(found).toContainEqual(["S1", "Wednesday", "let's walk through them together on wednesday"])
  })

  it("with sentence ends but no commas, the step still starts at its subject", () => {
    expect(steps([
      ["buyer", "Send it across."],
      ["rep", "Brilliant I'll get the floor plan over to you tomorrow."]
    ])).toEqual([["S1", "tomorrow", "I'll get the floor plan over to you tomorrow."]])
  })

  it("a question asked with an auxiliary keeps it: the step starts at the auxiliary", () => {
    const found = steps([
      ["rep", "okay could you send the stock counts by friday"],
      ["buyer", "yes I can do friday"]
    ])
    expect(found).toEqual([["S2", "Friday", "could you send the stock counts by friday"]])
  })

  it("'I'll' heard as 'aisle' is still a promise; 'the aisle' stays a place", () => {
    expect(steps([
      ["buyer", "we need the quote before the board"],
      ["rep", "sure aisle email you the quote on monday"]
    ])).toEqual([["S1", "Monday", "aisle email you the quote on monday"]])
    expect(tokenize("it sits in the aisle by the door").map((t) => t.word)).toContain("aisle")
  })

  it("a misheard 'have', 'by' or 'to' is read as said: a modal's 'of', 'buy' before a day, 'too' before a person", () => {
    expect(steps([
      ["buyer", "can we see the numbers first"],
      ["rep", "of course I can of the comparison with you buy thursday"]
    ])).toEqual([["S1", "Thursday", "I can of the comparison with you buy thursday"]])
    expect(steps([
      ["buyer", "we need the certificate"],
      ["rep", "I'll get it back too you on the 12th"]
    ])).toEqual([["S1", "the 12th", "I'll get it back too you on the 12th"]])
    const words = (text: string) => tokenize(text).map((t) => t.word)
    // where the words are what they say, they stay: a purchase, a number, a goodbye, a noun
    expect(words("we might buy the licences in june")).toContain("buy")
    expect(words("the two you sent are fine")).toContain("two")
    expect(words("okay bye then")).toContain("bye")
    expect(words("a matter of the will of the board")).toContain("of")
  })

  it("a word heard as two, a pronoun heard with 'have', 'these' for 'this', 'than' for 'then', 'bye' before an end: read as said (callsight-1.25)", () => {
    const words = (text: string) => tokenize(text).map((t) => t.word).filter((w) => w.length > 0).join(" ")
    expect(words("i'll ring the depot to morrow")).toBe("i'll ring the depot tomorrow")
    expect(words("can we get it done to day")).toBe("can we get it done today")
    expect(words("could we've a look on friday")).toBe("could we a look on friday")
    expect(words("i'll ring you've in the morning")).toBe("i'll ring you in the morning")
    expect(words("let's meet these wednesday and than we decide")).toBe("let's meet this wednesday and then we decide")
    expect(words("the forms bye end of play")).toBe("the forms by end of play")
    // where the words are what they say, they stay
    expect(words("it changes from day to day")).toBe("it changes from day to day")
    expect(words("back to day one")).toBe("back to day one")
    expect(words("after you've signed we've a kickoff")).toBe("after you've signed we've a kickoff")
    expect(words("could you've seen it coming")).toBe("could you've seen it coming")
    expect(words("more than we thought")).toBe("more than we thought")
    expect(words("we'll buy the end units")).toBe("we'll buy the end units")
    expect(steps([
      ["buyer", "so what do you need from us"],
      ["rep", "aisle send you've the revised schedule to morrow"]
    ])).toEqual([["S1", "tomorrow", "aisle send you've the revised schedule to morrow"]])
  })
})

describe("numbers in digits", () => {
  it("a count of minutes, money or a percentage is no clock time", () => {
    expect(dues("40 minutes is fine")).toEqual([])
    expect(dues("we lose 12 quid a box")).toEqual([])
    expect(dues("we swap about 60 keys a month at 12 bucks each")).toEqual([])
    expect(dues("cap the rise at 4% please")).toEqual([])
  })

  it("a clock time in digits stays one, before or after its day", () => {
    expect(dues("thursday at 2 on the shop floor")).toEqual(["Thursday 14:00"])
    expect(dues("I'll ring you at 10 tomorrow")).toEqual(["tomorrow 10:00"])
    expect(dues("friday at 9:30 works")).toEqual(["Friday 09:30"])
    expect(dues("say 3 pm on monday")).toEqual(["Monday 15:00"])
  })
})

describe("more clause openings without a comma", () => {
  it("a third person's contraction and a condition with its subject open a clause", () => {
    expect(opens("right she'll ring the depot")).toEqual(["she'll"])
    expect(opens("send it over if we get it by friday")).toEqual(["if"])
    expect(opens("fine what if it goes down")).toEqual(["what"])
  })
})

describe("a number past twelve in digits", () => {
  it("is no spoken hour without its minutes", () => {
    expect(dues("we can talk about the discount at 15")).toEqual([])
    expect(dues("friday at 15:30")).toEqual(["Friday 15:30"])
  })
})
