/** Push-back read by structure (issue 14): a constraint, doubt, demand, comparison or refusal about a topic of the deal. */
import { describe, expect, it } from "@effect/vitest"
import { plain } from "../src/text/lexicon/Tokens.js"
import { CATEGORY_KIND, isSettled, pushbackOf } from "../src/text/Pushback.js"
import { scriptedCall } from "./utils/ScriptedCall.js"

const call = scriptedCall

const kindOf = (text: string) => {
  const category = pushbackOf(plain(text))
  return category === null ? null : CATEGORY_KIND[category]
}

describe("push-back by structure, across industries and deal stages", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["That's more than we'd budgeted for this.", "budget"],
    ["We won't have budget until the new financial year.", "budget"],
    ["I can't justify that spend right now.", "budget"],
    ["I'm a bit worried about the cost once we add the other sites.", "price"],
    ["Five hundred a seat is steep.", "price"],
    ["Why would we pay more than we do now?", "price"],
    ["Is there any flexibility on the price?", "price"],
    ["We'd want the extra month at no cost.", "price"],
    ["Anything like this needs the partners' approval.", "authority"],
    ["That decision sits with our VP, not me.", "authority"],
    ["We need the right to terminate for convenience.", "authority"],
    ["We can't commit to three years.", "authority"],
    ["The CRM we use has its own version of this feature.", "competitor"],
    ["We're locked into our current platform until the end of next year.", "competitor"],
    ["Why would we pay more per seat than what we pay for the project module?", "competitor"],
    ["Now isn't a good time for us.", "timing"],
    ["We're heads down on the launch until the summer.", "timing"],
    ["Can we push it to after the migration instead?", "timing"],
    ["I'm not sure we're ready for another platform.", "timing"],
    ["We have an in-house tool that covers this.", "need"],
    ["We've managed fine without it so far.", "need"],
    ["Nothing gets on the plant network without their review.", "need"],
    ["We'd want a pilot before committing to the whole team.", "need"],
    ["Nobody wants to spend two days in training in the middle of a project.", "need"],
    ["That might be a stretch for us.", "need"],
    // issue 14, second round: conditions, doubts and lock-ins told in other words
    ["If the tool can't export to our ledger, we can't go ahead.", "need"],
    ["Honestly I doubt the numbers hold up at our scale.", "need"],
    ["I'm a little uneasy about moving the whole depot at once.", "need"],
    ["We've got a platform for that already.", "competitor"],
    ["Our engineers reckon they could build the reporting layer themselves.", "need"],
    ["It's not a trivial amount for a team our size.", "price"],
    ["Could the setup be free if we sign for two years?", "price"],
    ["I'd need to see it in our own data first.", "need"],
    ["I don't think now is the right time for another project.", "timing"],
    ["We agreed no new software until the merger is done.", "timing"],
    // third round: contractions of nouns, refusals, rhetorical and reported doubts, downgrades
    ["The training budget's been halved this year.", "budget"],
    ["Nobody's signing anything until after the audit.", "timing"],
    ["If it can't match what we already pay for, that's the end of it.", "competitor"],
    ["The tool we trialled in spring was half the price.", "competitor"],
    ["I'd need to understand how you got to that saving.", "need"],
    ["Twenty thousand for something we open once a week is hard to defend.", "budget"],
    ["Ten seats instead of twenty-five, please.", "budget"],
    ["Our CEO will ask why we can't just use the spreadsheet.", "authority"],
    ["And she'll want to know why we need another login.", "need"],
    ["I'm not having the launch put at risk by a pilot.", "need"]
  ]
  it.each(cases)("%s → %s", (text, kind) => {
    expect(kindOf(text)).toBe(kind)
  })

  it("neutral facts, agreement, past events and requests for information are not push-back", () => {
    for (const text of [
      "We have forty people in the sales team.",
      "How long does implementation usually take?",
      "Our budget cycle starts in April.",
      "The CFO signs off on purchases like this.",
      "We need to hire ten reps this year.",
      "Who else on your side will be on the call?",
      "Where are you hosted?",
      "The contract runs until March.",
      "That's a lot of forms to fill in by hand.",
      "Honestly, I'm not worried about the migration.",
      "I'd rather know the price before we go on.",
      "Our head of ops asked whether she could join the next call."
    ]) expect(pushbackOf(plain(text))).toBeNull()
    expect(isSettled(plain("The price is in line with what we expected."))).toBe(true)
    expect(isSettled(plain("The price is not in line with what we expected."))).toBe(false)
  })

  it("in a call: a settled point and a story told in the past raise no objection", () => {
    const c = call([
      ["rep", "Where did the proposal land?"],
      ["buyer", "The price you quoted is what we agreed, so that part is settled."],
      ["rep", "Good. Anything else?"],
      ["buyer", "We did a trial with another company two years ago and the fitting went fine."],
      ["rep", "And this year?"],
      ["buyer", "Honestly, getting this onto the agenda this quarter might be a stretch."]
    ])
    expect(c.findings.objections.map((o) => [o.objection.kind, o.category])).toEqual([["timing", "timing"]])
  })

  it("a restated objection ('that's the point') counts where the new one is raised", () => {
    const c = call([
      ["rep", "Can we get it signed this month?"],
      ["buyer", "I can't sign anything, that's the point. And we're also looking at whether we keep the platform we have."]
    ])
    expect(c.findings.objections.map((o) => o.objection.kind)).toEqual(["competitor"])
  })
})

describe("objections in a multi-party call", () => {
  it("two buyers speaking in turn may each raise one, and share the rep's response", () => {
    const c = call([
      ["rep", "So that's the proposal."],
      ["buyer", "Our security policy says customer data can't leave the country."],
      ["buyer2", "And honestly, the price is above what we budgeted."],
      ["rep", "Understood. Which of those matters most to you?"]
    ])
    expect(c.objections.map((o) => [o.kind, o.response])).toEqual([["need", "question_back"], ["price", "question_back"]])
  })

  it("one buyer raising two concerns in a turn counts each, with one response (issue 35; once before callsight-1.22)", () => {
    const c = call([
      ["rep", "So that's the proposal."],
      ["buyer", "Our security policy says customer data can't leave the country. And the price is above what we budgeted."],
      ["rep", "Understood."]
    ])
    expect(c.objections.map((o) => [o.quote, o.response])).toEqual([
      ["And the price is above what we budgeted.", "pause"],
      ["Our security policy says customer data can't leave the country.", "pause"]
    ])
  })
})
