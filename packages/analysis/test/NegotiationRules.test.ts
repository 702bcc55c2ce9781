/** The rules of issue 14: dues read by chrono, commitments by compromise, push-back beyond the early-stage lexicon. */
import { describe, expect, it } from "@effect/vitest"
import { actsIn } from "../src/text/Commitments.js"
import { dueText, findDues } from "../src/text/Dates.js"
import { tokenize } from "../src/text/lexicon/Tokens.js"
import { CATEGORY_KIND, pushbackOf } from "../src/text/Pushback.js"
import { plain } from "../src/text/lexicon/Tokens.js"
import { scriptedCall } from "./utils/ScriptedCall.js"

const dues = (text: string) => findDues(tokenize(text)).map(dueText)

const call = scriptedCall

describe("dues (chrono-node, relative to a fixed reference: only the phrase is kept)", () => {
  it("reads ordinals, weekdays with a day of the month, spoken hours and relative periods", () => {
    expect(dues("I can get the figures over on the twelfth.")).toEqual(["the 12th"])
    expect(dues("Let's meet on Friday the thirtieth at three.")).toEqual(["Friday the 30th 15:00"])
    expect(dues("We should be done by the end of the quarter.")).toEqual(["end of the quarter"])
    expect(dues("I'll call you back in three weeks.")).toEqual(["in 3 weeks"])
    expect(dues("Tomorrow at 9 am works.")).toEqual(["tomorrow 09:00"])
    expect(dues("How about the second of June?")).toEqual(["June 2"])
  })

  it("periods gone by, habits, hedges and things that only look like dates are not dues", () => {
    for (const text of [
      "We lost three clients in the past two months.",
      "We meet every Monday anyway.",
      "I'll ping you sometime next month.",
      "The third option is the cheapest.",
      "We are looking at one other vendor.",
      "Our reps make forty calls a day.",
      "Right now it takes two minutes."
    ]) expect(dues(text)).toEqual([])
  })
})

describe("acts (compromise): who commits", () => {
  const actors = (text: string) => actsIn(tokenize(text)).filter((a) => !a.inert).map((a) => a.actor)
  it("I → self, we / let's → shared, you / an imperative → the other side, a third party → third", () => {
    expect(actors("I'll get the draft over to you.")).toEqual(["self"])
    expect(actors("Let's review the numbers together.")).toEqual(["shared"])
    expect(actors("You send us the export.")).toEqual(["other"])
    expect(actors("Email me the slides.")).toEqual(["other"])
    expect(actors("Our engineers arrive early.")).toEqual(["self"])
  })
  it("negated, past and conditional verbs commit nobody", () => {
    expect(actors("We did a trial with them last year.")).toEqual([])
    expect(actors("I'm not signing anything.")).toEqual([])
  })
})

describe("next steps from commitments", () => {
  it("several dated commitments in one turn are each a step, with their owners", () => {
    const c = call([
      ["rep", "Here is the plan. You share the usage report by Tuesday, and I'll send a revised quote on the ninth. Then we'll walk your CFO through it on Friday the twelfth."],
      ["buyer", "That works for me."]
    ])
    expect(c.next_steps.map((s) => [s.owner, s.due])).toEqual([["S2", "Tuesday"], ["S1", "the 9th"], ["S1", "Friday the 12th"]])
  })

  it("a buyer's request for material takes no day from the conversation, and a vague follow-up is no step", () => {
    const c = call([
      ["buyer", "Can you email me a couple of customer references?"],
      ["rep", "Of course. I'll touch base again sometime next month."],
      ["buyer", "Sure."]
    ])
    expect(c.next_steps).toEqual([])
  })

  it("a proposal without a day takes the reply's day only when the reply agrees", () => {
    const agreed = call([["rep", "Shall we book a session with your IT lead?"], ["buyer", "Yes, Wednesday at ten is good."]])
    expect(agreed.next_steps.map((s) => [s.owner, s.due])).toEqual([["S1", "Wednesday 10:00"]])
    const refused = call([["rep", "Shall we book a session with your IT lead?"], ["buyer", "No, Wednesday does not work, we're in audits."]])
    expect(refused.next_steps).toEqual([])
  })

  it("an offer ('I can…') with a day is a step only once the other side agrees", () => {
    expect(call([["rep", "I can have the security pack to you on Monday."], ["buyer", "Hmm, we'll see."]]).next_steps).toEqual([])
    expect(call([["rep", "I can have the security pack to you on Monday."], ["buyer", "Great, Monday is fine."]]).next_steps).toHaveLength(1)
  })

  it("a past event with a day, or a third party's plan, is no step", () => {
    const c = call([
      ["buyer", "We had a workshop with another vendor on Tuesday. Our new COO starts next week."],
      ["rep", "Thanks for telling me."]
    ])
    expect(c.next_steps).toEqual([])
  })
})

describe("push-back beyond the early-stage lexicon", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["Our lawyers will not let us sign with unlimited indemnity.", "contract_terms"],
    ["We only pay suppliers at ninety days.", "contract_terms"],
    ["I'd need twenty percent off to get this past finance.", "discount"],
    ["Anything above ten thousand has to go through our board.", "approval_limit"],
    ["I won't put my name on it until we see it working with our own data.", "proof"],
    ["All customer data has to stay in Canada, that is not negotiable.", "security"],
    ["We just renewed with our current provider, so we're not switching before next year.", "timing"],
    ["Honestly, the spreadsheet works fine for us.", "status_quo"],
    ["The renewal came in fifteen percent higher than last year.", "price"],
    ["A competitor quoted us twenty percent cheaper for the same seats.", "competitor"]
  ]
  it.each(cases)("%s → %s", (text, category) => {
    expect(pushbackOf(plain(text))).toBe(category)
  })

  it("every category maps onto one of the product's kinds", () => {
    for (const kind of Object.values(CATEGORY_KIND)) expect(["price", "budget", "timing", "authority", "need", "competitor"]).toContain(kind)
  })

  it("requests for material and ordinary statements are not push-back", () => {
    for (const text of [
      "Could you also send me your security documentation?",
      "That's within what I can approve myself.",
      "We run about forty deals a quarter.",
      "The contract starts in March."
    ]) expect(pushbackOf(plain(text))).toBeNull()
  })

  it("in a call: one objection per buyer run, with its category; a story in the past is no timing objection", () => {
    const c = call([
      ["rep", "So that is the proposal."],
      ["buyer", "Our counsel wants the liability cap raised before anyone signs."],
      ["rep", "What is she protecting against?"],
      ["buyer", "The project stalled after the merger last year."]
    ])
    expect(c.findings.objections.map((o) => [o.objection.kind, o.category])).toEqual([["authority", "contract_terms"]])
  })

  it("the buyer setting the agenda of the paper or asking for it by a date is no push-back; a term argued is", () => {
    const c = call([
      ["rep", "Thanks for the redlines. Where would you like to start?"],
      ["buyer", "I would like to cover three points: the term, the payment terms and the exit provisions."],
      ["rep", "Happy to. Anything else?"],
      ["buyer", "Liability first."],
      ["rep", "Our cap is twelve months of fees."],
      ["buyer", "Our counsel wants the liability cap raised to three times the annual fees."],
      ["rep", "I can take that to our legal team."],
      ["buyer", "Good. I need the revised contract in my hands by Friday. Please let me know about the payment terms today."]
    ])
    expect(c.findings.objections.map((o) => [o.objection.quote, o.category])).toEqual([
      ["Our counsel wants the liability cap raised to three times the annual fees.", "contract_terms"]
    ])
    // the same sentences are about the paper all the same: the patterns read them so, the call does not
    expect(pushbackOf(plain("Liability first."))).toBe("contract_terms")
    expect(pushbackOf(plain("Please let me know about the payment terms today."))).toBe("contract_terms")
  })
})
