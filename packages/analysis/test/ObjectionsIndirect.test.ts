/**
 * Objections put indirectly (issue 14): a bad experience told as a story, a colleague's concern
 * reported, a doubt hedged or asked as a question, a comparison with another product's terms; and
 * what is not push-back although it sounds like it (a declined offer, the decision process the rep
 * asked about, a proposed step, a fact about the buyer's setup or calendar, a question for information).
 */
import { describe, expect, it } from "@effect/vitest"
import { plain } from "../src/text/lexicon/Tokens.js"
import { OBJECTION_MODEL, OVERRULED } from "../src/models/ObjectionModel.js"
import { CATEGORY_KIND, pushbackOf } from "../src/text/Pushback.js"
import { probabilityOf, turnFeatures } from "../src/models/TurnModel.js"
import { scriptedCall } from "./utils/ScriptedCall.js"

const call = scriptedCall

/**
 * The model's probability of push-back in a one-sentence buyer line after a one-sentence rep line: the
 * tests of what is never overruled use lines it reads under `OVERRULED`, or they would pass without
 * their rule (every retraining moves the weights; this keeps them honest).
 */
const heard = (rep: string, buyer: string) =>
  probabilityOf(turnFeatures([{ plain: plain(buyer), question: false }], [{ plain: plain(rep), question: rep.endsWith("?") }]), OBJECTION_MODEL)

/** The objections of one buyer line after a neutral rep line. */
const objectionsOf = (buyer: string) => call([["rep", "Thanks for the time today."], ["buyer", buyer]]).objections

const kindOf = (text: string) => {
  const category = pushbackOf(plain(text))
  return category === null ? null : CATEGORY_KIND[category]
}

describe("objections told in the past still stand", () => {
  it.each([
    "Our previous provider charged us for setup and then took eight months to get anything working.",
    "The last time we trusted a scheduling system, it double-booked the whole theatre for a week.",
    "A friend at another clinic bought one of these, and it took her staff the whole summer to load the records.",
    "Our chairman signed off on a similar platform two years ago that nobody ever opened.",
    "The figures never matched the bank statements, so the accountants went back to their spreadsheets."
  ])("a bad experience with a vendor or a tool: %s", (line) => {
    expect(objectionsOf(line)).toHaveLength(1)
  })

  it("a colleague's concern reported still stands, of the kind its words tell", () => {
    const c = call([["rep", "Thanks for the time today."], ["buyer", "Our new controller asked why we pay for fifty licences when thirty people log in."]])
    // the rules hear it as price (what is paid for seats not used), and so does the kind model since
    // callsight-1.22 (trained with dev19; callsight-1.21's read licences nobody uses as a doubt of the need)
    expect(c.findings.objections.map((o) => [o.category, o.objection.kind])).toEqual([["price", "price"]])
  })

  it("a lock-in with the incumbent is timing, told in the past or not", () => {
    expect(objectionsOf("We just renewed with our current provider last month.")[0]?.kind).toBe("timing")
    expect(objectionsOf("We signed with them for another three years in the spring.")[0]?.kind).toBe("timing")
  })

  it("another product's terms, told, are a comparison with a competitor", () => {
    expect(objectionsOf("The other platform we spoke to included the training for free.")[0]?.kind).toBe("competitor")
  })

  it("a mere story with no bad outcome is no objection", () => {
    expect(objectionsOf("We moved the warehouse to the new site in March and hired two planners.")).toHaveLength(0)
  })
})

describe("doubts hedged, asked or conditional", () => {
  it.each([
    ["Is there any room on the onboarding fee?", "price"],
    ["Ten percent on top of a year when the reporting barely worked?", "price"],
    ["Forty thousand is a big number for a practice of our size.", "price"],
    ["Our chief nurse will want to see it tested on the ward, not in a demo.", "need"],
    ["I've heard promises like that before.", "need"],
    ["If a reference from a firm our size said it worked, that would go a long way.", "need"],
    ["I wonder whether the drivers would really use a second app on the road.", "need"],
    ["My engineers wouldn't be happy about anything that tracks their screens.", "need"],
    ["What happens to our data if your company goes under?", "need"],
    ["Honestly, we couldn't take on anything new before the audit is done.", "timing"],
    ["We only use about a third of the seats we pay for.", "need"],
    ["Our partners think tools like this are for the big firms.", "need"]
  ])("%s → %s", (line, kind) => {
    expect(kindOf(line)).toBe(kind)
  })
})

describe("not push-back", () => {
  it.each([
    "He checks the competitor prices by hand every Monday.",
    "Our fiscal year closes at the end of September.",
    "The committee meets on the fourth.",
    "What does it cost for a team of twelve?",
    "How much would that run for three sites?"
  ])("a fact or a question for information: %s", (line) => {
    expect(objectionsOf(line)).toHaveLength(0)
  })

  it("a no to the rep's offer declines a step, not the product", () => {
    const { objections } = call([
      ["rep", "Do you want me to set up a call with our integration team?"],
      ["buyer", "No, we don't need that. Our developers already have the documentation."]
    ])
    expect(objections).toHaveLength(0)
  })

  it("who signs, in answer to the rep's question about the decision, is the process", () => {
    const { objections } = call([
      ["rep", "Who else would be involved in a decision like this?"],
      ["buyer", "Anything over twenty thousand goes to the board, and they need two quotes."]
    ])
    expect(objections).toHaveLength(0)
  })

  it("the same limit raised unprompted is push-back", () => {
    const { objections } = call([
      ["rep", "So shall we go ahead with the annual plan?"],
      ["buyer", "Anything over twenty thousand goes to the board, and they need two quotes."]
    ])
    expect(objections.map((o) => o.kind)).toEqual(["authority"])
  })

  it("a rule for every purchase, told in passing, is how they buy", () => {
    const { objections } = call([
      ["rep", "How many sites do you run at the moment?"],
      ["buyer", "Four. Anything over five thousand a year goes to the finance board, and it meets quarterly."]
    ])
    expect(objections).toHaveLength(0)
  })

  it("the rule told after another clause is how they buy too", () => {
    const { objections } = call([
      ["rep", "How many sites do you run at the moment?"],
      ["buyer", "Four. My cousin's the managing director, anything over five thousand goes past him."]
    ])
    expect(objections).toHaveLength(0)
  })

  it("a limit someone must approve, said against the deal, is push-back", () => {
    const { objections } = call([
      ["rep", "How many sites do you run at the moment?"],
      ["buyer", "Four. Marco has to approve anything over ten thousand a year, and he's away until the twenty-ninth."]
    ])
    expect(objections.map((o) => o.kind)).toEqual(["authority"])
  })

  it("the same rule turned against the deal is push-back", () => {
    const { objections } = call([
      ["rep", "How many sites do you run at the moment?"],
      ["buyer", "Four. But anything over a hundred thousand has to go through procurement, and they want three bids."]
    ])
    expect(objections.map((o) => o.kind)).toEqual(["authority"])
  })

  it("a phrase of the weakest categories the model hears no push-back in is overruled", () => {
    // who approves, proof, security, the paper: the phrase patterns hear push-back in each line, the
    // learned model, with the rep's turn before, under 0.1 (OVERRULED in ObjectionModel.ts)
    for (const line of [
      "I must dash, the committee awaits.",
      "Who else uses it, out of interest?",
      "And the SOC 2, whenever you can.",
      "Redline in Word, not PDF."
    ]) {
      expect(pushbackOf(plain(line))).not.toBeNull()
      expect(objectionsOf(line)).toEqual([])
    }
  })

  it("an approval limit that names its amount is never overruled", () => {
    // the model reads this line under 0.1 after the ask; the limit tied to money is the push-back all the same
    expect(heard("So shall we go ahead with the annual plan?", "Anything over twenty thousand goes to the board, and they need two quotes.")).toBeLessThan(OVERRULED)
    const { objections } = call([
      ["rep", "So shall we go ahead with the annual plan?"],
      ["buyer", "Anything over twenty thousand goes to the board, and they need two quotes."]
    ])
    expect(objections.map((o) => [o.kind, o.quote])).toEqual([["authority", "Anything over twenty thousand goes to the board, and they need two quotes."]])
  })

  it("a price or a date told of the buyer's own affairs, the model hearing no push-back, is overruled", () => {
    // the phrase patterns hear price and timing in these; told at length, the model reads each under 0.1 (callsight-1.17)
    for (const line of [
      "The ferry to the island is expensive in summer, so the staff come over on Sundays.",
      "I'm on leave until the new year, so send it to Ruth in the meantime."
    ]) {
      expect(pushbackOf(plain(line))).not.toBeNull()
      expect(objectionsOf(line)).toEqual([])
    }
  })

  it("the plainest push-back is never overruled: a short line, a price with its figure", () => {
    // (a lock-in told as a fact is kept too: "objections told in the past still stand")
    // each reads under 0.1 with the rep's line before (callsight-1.20: 0.05, 0.06, 0.04): with so few
    // words the model has little but its bias to go on
    const neutral = "Thanks for the time today."
    expect(heard("And the annual plan includes the reporting module.", "Too expensive.")).toBeLessThan(OVERRULED)
    expect(heard(neutral, "Not this year.")).toBeLessThan(OVERRULED)
    const told = "That sounds good in theory, but forty thousand is well above what we had in mind for this."
    expect(heard(neutral, told)).toBeLessThan(OVERRULED)
    const price = call([
      ["rep", "And the annual plan includes the reporting module."],
      ["buyer", "Too expensive."]
    ])
    expect(price.objections.map((o) => [o.kind, o.quote])).toEqual([["price", "Too expensive."]])
    expect(objectionsOf("Not this year.").map((o) => [o.kind, o.quote])).toEqual([["timing", "Not this year."]])
    expect(objectionsOf(told)[0]?.kind).toBe("price")
  })

  it("a step the buyer proposes puts nothing off", () => {
    expect(objectionsOf("Let's go through the numbers together after the quarter closes, on the third.")).toHaveLength(0)
  })
})

describe("a run with several objections is named by the most substantive", () => {
  it("the price over a hedge raised before it", () => {
    const [o] = objectionsOf("That sounds good in theory. But forty thousand is above what we had in mind.")
    expect(o?.kind).toBe("price")
  })

  it("the price over who decides", () => {
    const [o] = objectionsOf("I would have to ask my director. And the price is above what I had in mind.")
    expect(o?.kind).toBe("price")
  })
})
