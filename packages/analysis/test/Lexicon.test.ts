/** The lexicons and patterns of the content analysis, on their own. */
import { describe, expect, it } from "@effect/vitest"
import { commitmentOf, isAgreement } from "../src/text/lexicon/Commitments.js"
import { findFillers } from "../src/text/lexicon/Fillers.js"
import { parseNumbers } from "../src/text/lexicon/Numbers.js"
import { objectionKind } from "../src/text/lexicon/Objections.js"
import { isAuthorityStatement, QUALIFICATION_CUES } from "../src/text/lexicon/Qualification.js"
import { isOpenQuestion, isQuestion } from "../src/text/lexicon/Questions.js"
import { plain, tokenize } from "../src/text/lexicon/Tokens.js"
import { hasPainCue, METRIC_CUES, PAIN_CUES, RELATIVE_VALUE, VALUE_CUES } from "../src/text/lexicon/Value.js"
import { findWhen, formatDue, hour24, NEXT_STEP_CUES } from "../src/text/lexicon/When.js"

const fillers = (text: string) => findFillers(tokenize(text)).map((f) => f.filler)
const question = (text: string) => isQuestion(tokenize(text))
const open = (text: string) => isOpenQuestion(tokenize(text))
const due = (text: string) => formatDue(findWhen(tokenize(text)))
const numbers = (text: string) => parseNumbers(text).map((n) => [n.value, n.unit])

describe("plain text", () => {
  it("is bare lower-case words with contractions written out", () => {
    expect(plain("We don't need it, let's talk! I'll call. Follow-up?")).toBe(
      "we do not need it let us talk i will call follow up"
    )
    expect(plain("It’s fine, we can’t")).toBe("it is fine we cannot")
  })
})

describe("objections", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["That sounds useful, but honestly the price is a problem.", "price"],
    ["It's just too expensive for a team our size.", "price"],
    ["That is way over our budget.", "price"],
    ["We don't have the budget for this right now.", "budget"],
    ["Our budget for tools this year is closer to thirty.", "budget"],
    ["Honestly it's not the right time for us.", "timing"],
    ["Let's revisit this next quarter.", "timing"],
    ["The team is too busy with the launch.", "timing"],
    ["I need to check with my boss first.", "authority"],
    ["That's not my call, really.", "authority"],
    ["We don't need another dashboard.", "need"],
    ["We already have something for that.", "need"],
    ["We are also looking at one other vendor.", "competitor"],
    ["We're already using Gong for this.", "competitor"],
    ["Another vendor offered us the same for less.", "competitor"]
  ]
  it.each(cases)("%s → %s", (text, kind) => {
    expect(objectionKind(text)).toBe(kind)
  })

  it("facts about the buying process are not objections", () => {
    for (const text of [
      "My boss, the VP of sales, signs off on anything over fifty thousand, and she wants a fix before the end of March.",
      "Me, our revenue operations lead, and then procurement and legal review the contract.",
      "Yes, I have about twenty minutes.",
      "Friday at ten is fine.",
      "If I can show the CFO that this pays for itself in a quarter, there is room to move."
    ]) expect(objectionKind(text)).toBeNull()
  })
})

describe("questions", () => {
  it("a sentence ending in a question mark is a question; one ending in a full stop is not", () => {
    expect(question("Is this still a good time to talk?")).toBe(true)
    expect(question("So that's where we are?")).toBe(true)
    expect(question("What we do is simple.")).toBe(false)
    expect(question("That is a big drop.")).toBe(false)
  })

  it("without punctuation, an interrogative or an auxiliary with a subject opens a question", () => {
    expect(question("what does that cost you when it happens")).toBe(true)
    expect(question("great what prompted you to look at call coaching tools")).toBe(true)
    expect(question("could we book thirty minutes next tuesday")).toBe(true)
    expect(question("is that a hard cap")).toBe(true)
    expect(question("will do")).toBe(false)
    expect(question("what we do is simple")).toBe(false)
    expect(question("we track talk ratio and monologues")).toBe(false)
  })

  it("open questions ask for the buyer's words; yes/no and either/or are closed", () => {
    expect(open("What does that cost you when it happens?")).toBe(true)
    expect(open("Can I ask how you arrived at thirty?")).toBe(true)
    expect(open("Tell me about your team.")).toBe(true)
    expect(open("Did anything change since we spoke?")).toBe(false)
    expect(open("Is that a hard cap, or what was planned before the win rate dropped?")).toBe(false)
  })
})

describe("fillers", () => {
  it("hesitations, hedges and set-off 'like' count, each phrase once", () => {
    expect(fillers("So, um, we basically, you know, like, help teams")).toEqual(["um", "basically", "you know", "like"])
    expect(fillers("they, um, they basically pitch the product")).toEqual(["um", "basically"])
    expect(fillers("It is kind of slow, I mean, sort of.")).toEqual(["kind of", "i mean", "sort of"])
  })

  it("'like' as a verb or preposition, and 'you know' / 'kind of' with meaning, are not fillers", () => {
    expect(fillers("I like the dashboards and would like to see more")).toEqual([])
    expect(fillers("Choosing a tool like this takes time, it looks like.")).toEqual([])
    expect(fillers("Do you know the price? You know what we do.")).toEqual([])
    expect(fillers("What kind of tool is it?")).toEqual([])
    expect(fillers("I mean it. What actually closes business?")).toEqual([])
  })
})

describe("numbers", () => {
  it("spelled-out numbers, as the fixtures say them", () => {
    expect(numbers("thirty one percent")).toEqual([[31, "percent"]])
    expect(numbers("four hundred thousand dollars")).toEqual([[400000, "dollars"]])
    expect(numbers("fifty thousand")).toEqual([[50000, null]])
    expect(numbers("twenty minutes")).toEqual([[20, "minutes"]])
    expect(numbers("from thirty one percent to twenty four percent")).toEqual([[31, "percent"], [24, "percent"]])
    expect(numbers("forty eight thousand a year")).toEqual([[48000, null]])
    expect(numbers("a hundred and five reps")).toEqual([[105, "reps"]])
    expect(numbers("forty-five days")).toEqual([[45, "days"]])
    expect(numbers("two point five million")).toEqual([[2500000, null]])
    expect(numbers("one two three")).toEqual([[1, null], [2, null], [3, null]])
  })

  it("written numbers, as providers with smart formatting give them", () => {
    expect(numbers("31%")).toEqual([[31, "percent"]])
    expect(numbers("$400,000 behind plan")).toEqual([[400000, "dollars"]])
    expect(numbers("anything over $50k,")).toEqual([[50000, "dollars"]])
    expect(numbers("50 thousand dollars")).toEqual([[50000, "dollars"]])
    expect(numbers("$1.2m")).toEqual([[1200000, "dollars"]])
    expect(numbers("12 reps")).toEqual([[12, "reps"]])
  })

  it("a comma ends a number", () => {
    expect(numbers("thirty, and forty")).toEqual([[30, null], [40, null]])
  })
})

describe("next steps: days and times", () => {
  it("weekday with a time, in words or digits", () => {
    expect(due("Tuesday at two works.")).toBe("Tuesday 14:00")
    expect(due("Friday at ten is fine.")).toBe("Friday 10:00")
    expect(due("Friday at 10 o'clock")).toBe("Friday 10:00")
    expect(due("Friday at ten o'clock")).toBe("Friday 10:00")
    expect(due("Friday at 10")).toBe("Friday 10:00")
    expect(due("Thursday at 2pm")).toBe("Thursday 14:00")
    expect(due("Monday at 9:30")).toBe("Monday 09:30")
    expect(due("tomorrow at two thirty")).toBe("tomorrow 14:30")
    expect(due("next Tuesday")).toBe("Tuesday")
    expect(due("Does ten o'clock work?")).toBe("10:00")
  })

  it("other days: in two weeks, the fourth, a month and day", () => {
    expect(due("Check back in two weeks.")).toBe("in 2 weeks")
    expect(due("a call on the calendar for the fourth.")).toBe("the 4th")
    expect(due("on March 4th at 3 pm")).toBe("March 4 15:00")
    expect(due("by the end of the month")).toBe("end of the month")
  })

  it("numbers that are not times or days", () => {
    expect(due("in the first five minutes")).toBeNull()
    expect(due("we have twelve reps")).toBeNull()
    expect(due("at two percent")).toBeNull()
  })

  it("hours without am/pm are business hours", () => {
    expect(hour24(2, null)).toBe(14)
    expect(hour24(10, null)).toBe(10)
    expect(hour24(12, null)).toBe(12)
    expect(hour24(8, "pm")).toBe(20)
    expect(hour24(12, "am")).toBe(0)
  })

  it("actions, commitments and agreement", () => {
    for (const t of ["Could we book thirty minutes next Tuesday", "let us schedule fifteen minutes", "Send me the invite.", "I will follow up"]) {
      expect(NEXT_STEP_CUES.test(plain(t))).toBe(true)
    }
    expect(NEXT_STEP_CUES.test(plain("Let me show you how we would catch that."))).toBe(false)
    expect(commitmentOf("I will send it by Thursday")).toBe("self")
    expect(commitmentOf("Can you send me the contract?")).toBe("other")
    expect(commitmentOf("Send me the invite.")).toBe("other")
    expect(commitmentOf("Could we book thirty minutes, so I can show you?")).toBe("shared")
    expect(commitmentOf("The meeting is on Friday.")).toBeNull()
    expect(isAgreement("Tuesday at two works.")).toBe(true)
    expect(isAgreement("Friday at ten is fine.")).toBe(true)
    expect(isAgreement("Will do.")).toBe(true)
    expect(isAgreement("Friday does not work for me.")).toBe(false)
  })
})

describe("pains, metrics, value", () => {
  it("pain cues", () => {
    for (const t of ["our win rate dropped", "We are about four hundred thousand dollars behind plan", "bookings that slip", "the team struggles with discovery", "it costs us a deal a week"]) {
      expect(PAIN_CUES.test(plain(t))).toBe(true)
    }
    expect(PAIN_CUES.test(plain("The team uses the dashboards every Monday."))).toBe(false)
  })

  it("metric and value cues", () => {
    expect(METRIC_CUES.test(plain("our win rate"))).toBe(true)
    expect(METRIC_CUES.test(plain("in the pipeline numbers"))).toBe(true)
    for (const t of ["the tool pays for itself in about three months", "a one page ROI summary", "it saves each manager two hours", "that is forty eight thousand against three hundred and sixty thousand"]) {
      expect(VALUE_CUES.test(plain(t))).toBe(true)
    }
    expect(VALUE_CUES.test(plain("Every call is scored on discovery, listening, objection handling, value, and next steps."))).toBe(false)
    // "is … against" is a comparison of figures, not any "against"
    expect(VALUE_CUES.test(plain("Every line is matched automatically against the ledger."))).toBe(false)
    for (const t of ["it brings the error count down by well over half", "we take about a third of those calls off the desk", "eight in ten tickets are closed without anyone", "it covers your growth without extra hires"]) {
      expect(RELATIVE_VALUE.test(plain(t))).toBe(true)
    }
    expect(RELATIVE_VALUE.test(plain("the dashboard shows every campaign in one place"))).toBe(false)
  })

  it("pains said as turns of phrase are not pains", () => {
    expect(hasPainCue(plain("I really don't have a problem to solve here."))).toBe(false)
    expect(hasPainCue(plain("Here's my problem though."))).toBe(false)
    expect(hasPainCue(plain("Moving everything over would be a real pain."))).toBe(false)
    expect(hasPainCue(plain("The problem is our reps lose deals in the last week."))).toBe(true)
    expect(hasPainCue(plain("Reconciliation is done by hand every month."))).toBe(true)
  })

  it("an authority statement names who approves and up to what", () => {
    expect(isAuthorityStatement(plain("The CFO signs off on anything over fifty thousand."))).toBe(true)
    expect(isAuthorityStatement(plain("That's within what I can sign for myself."))).toBe(true)
    expect(isAuthorityStatement(plain("Our CFO will want to see it."))).toBe(false)
    expect(isAuthorityStatement(plain("I can't sign anything over ten thousand."))).toBe(false)
  })

  it("qualification cues", () => {
    const cue = (element: keyof typeof QUALIFICATION_CUES, t: string) => QUALIFICATION_CUES[element].cue.test(plain(t))
    expect(cue("economic_buyer", "the VP of sales signs off on anything over fifty thousand")).toBe(true)
    expect(cue("decision_process", "then procurement and legal review the contract")).toBe(true)
    expect(cue("paper_process", "legal review the contract")).toBe(true)
    expect(cue("competition", "We are also looking at one other vendor.")).toBe(true)
    expect(cue("champion", "If I can show the CFO that this pays for itself")).toBe(true)
    expect(cue("timeline", "she wants a fix before the end of March")).toBe(true)
    expect(cue("budget", "our budget for tools this year is closer to thirty")).toBe(true)
    expect(cue("implication", "What does that cost you when it happens?")).toBe(true)
    expect(cue("need_payoff", "Would it help if I prepared a one page ROI summary?")).toBe(true)
    expect(cue("economic_buyer", "Thanks for making time today.")).toBe(false)
  })
})

describe("plain text: a noun's 's", () => {
  it("reads 'has' before a participle, 'is' before a verb in -ing or a state, and keeps a possessive", () => {
    expect(plain("The budget's been cut.")).toBe("the budget has been cut")
    expect(plain("Nobody's using it.")).toBe("nobody is using it")
    expect(plain("The number's right.")).toBe("the number is right")
    expect(plain("The board's decision stands.")).toBe("the board's decision stands")
  })
})
