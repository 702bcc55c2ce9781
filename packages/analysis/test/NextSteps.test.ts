/**
 * Next steps that generalise (issue 14): proposals put as questions wait for an answer, declined and
 * deferred days make no step, days offered as a choice take the one the other side picks, a day said
 * again to close completes the step said before, and dates that are no due (a lower bound, a topic,
 * what one has) make none.
 */
import { describe, expect, it } from "@effect/vitest"
import { actsIn } from "../src/text/Commitments.js"
import { dueText, findDues, sameDay } from "../src/text/Dates.js"
import { tokenize } from "../src/text/lexicon/Tokens.js"
import { scriptedCall, type Who } from "./utils/ScriptedCall.js"


const call = scriptedCall
const steps = (lines: ReadonlyArray<readonly [Who, string]>) => call(lines).next_steps.map((s) => [s.owner, s.due])
const dues = (text: string) => findDues(tokenize(text)).map(dueText)

describe("dates that are no due", () => {
  it("a lower bound and a day as the topic of talk name no due; a clock time after 'about' stays", () => {
    expect(dues("Ring me after the second of March.")).toEqual([])
    expect(dues("I need to check with my director about Thursday.")).toEqual([])
    expect(dues("We could start at about 3 pm.")).toEqual(["15:00"])
    expect(dues("How about the fourth of May?")).toEqual(["May 4"])
  })

  it("the first days of a period and a day of each month are no due; the first of a month stays", () => {
    expect(dues("We ride along with the crews for the first two weeks.")).toEqual([])
    expect(dues("Customers see the gain in the first 90 days.")).toEqual([])
    expect(dues("We meet on the first Tuesday of each month.")).toEqual([])
    expect(dues("Invoices go out on the 1st of every month.")).toEqual([])
    expect(dues("Let's start on the first.")).toEqual(["the 1st"])
    expect(dues("Can we meet on the first Tuesday of next month?")).toEqual(["the 1st Tuesday"])
  })

  it("a weekday after 'a' is any such day, a habit or an open choice: no due", () => {
    expect(dues("Half our people fill in their timesheets on a Friday afternoon from memory.")).toEqual([])
    expect(dues("Could you manage a Thursday?")).toEqual([])
    expect(dues("We get a call on a Tuesday night, and the family wants Friday.")).toEqual(["Friday"])
    expect(dues("Let's talk again on Friday afternoon.")).toEqual(["Friday"])
  })

  it("reads a hyphenated spoken ordinal as a day of the month", () => {
    expect(dues("Let's go over it on the twenty-fifth.")).toEqual(["the 25th"])
    expect(dues("Thursday the thirty-first at two works.")).toEqual(["Thursday the 31st 14:00"])
  })

  it("days offered as alternatives are one choice, not two days", () => {
    const [due] = findDues(tokenize("I could do Monday or Tuesday morning."))
    expect(due?.choice).toBe(true)
    expect(dueText(due ?? null)).toBe("Monday or Tuesday")
    expect(findDues(tokenize("Send it Monday, and we meet Tuesday."))[0]?.choice).toBeUndefined()
  })
})

describe("commitments: what one has is no act", () => {
  it("a present 'have' without an auxiliary is inert; with one, or joined to a committing verb, it acts", () => {
    expect(actsIn(tokenize("We have a board meeting on the ninth.")).every((a) => a.inert)).toBe(true)
    expect(actsIn(tokenize("I'll have the numbers with you on the ninth.")).some((a) => !a.inert && a.actor === "self")).toBe(true)
    expect(actsIn(tokenize("I'll sign it off and have the contract back to you on the ninth.")).filter((a) => !a.inert)).toHaveLength(2)
  })
})

describe("next steps: proposals, replies and restatements", () => {
  it("a proposal put as a question is a step once the other side agrees, and none when it defers or counters", () => {
    expect(steps([["rep", "Can we meet on Thursday at eleven?"], ["buyer", "Yes, Thursday at eleven is fine."]])).toEqual([["S1", "Thursday 11:00"]])
    expect(steps([["rep", "Can we meet on Thursday at eleven?"], ["buyer", "Let me check with my boss about Thursday and get back to you."]])).toEqual([])
    expect(steps([["buyer", "Can you ring me in a few weeks?"], ["rep", "Sure, I'll ring you on Monday the sixth."], ["buyer", "Sounds good."]]))
      .toEqual([["S1", "Monday the 6th"]])
  })

  it("a commitment the other side turns down makes no step; one it accepts stays", () => {
    expect(steps([["rep", "I'll phone you on Friday the tenth in the afternoon."], ["buyer", "Afternoons are bad for me. Just email me."]])).toEqual([])
    expect(steps([["rep", "I'll phone you on Friday the tenth."], ["buyer", "Friday the tenth does not work, I'm away."]])).toEqual([])
    expect(steps([["rep", "I'll send the draft by Friday."], ["buyer", "No problem."]])).toEqual([["S1", "Friday"]])
  })

  it("a choice of days waits for the other side to pick one, and takes that one", () => {
    expect(steps([["rep", "I could do Monday or Tuesday afternoon for the walkthrough."], ["buyer", "I'll see what the team says."]])).toEqual([])
    expect(steps([["rep", "I could do Monday or Tuesday afternoon for the walkthrough."], ["buyer", "Tuesday suits us."]])).toEqual([["S1", "Tuesday"]])
  })

  it("a day said again to close, or a time added later, completes the step already agreed", () => {
    expect(steps([
      ["rep", "Let's review the figures together on Wednesday the fourth."],
      ["buyer", "Wednesday the fourth is fine."],
      ["rep", "Great, ten o'clock then."],
      ["buyer", "Speak on Wednesday."]
    ])).toEqual([["S1", "Wednesday the 4th 10:00"]])
  })

  it("a date stated with a verb of its own is no step; 'are we still on for' a day is scheduling", () => {
    expect(steps([["buyer", "The week after next is tricky."], ["rep", "Understood."]])).toEqual([])
    expect(steps([["rep", "The renewal is due on the thirtieth."], ["buyer", "Right."]])).toEqual([])
    expect(steps([["rep", "Are we still on for Monday at nine?"], ["buyer", "Yes, Monday at nine."]])).toEqual([["S1", "Monday 09:00"]])
  })

  it("an offer that answers a request for the same day accepts it; a question to a colleague is answered by the colleague", () => {
    expect(steps([["rep", "Could your engineer send me the log files by Thursday?"], ["buyer2", "I can get you the log files by Thursday."]]))
      .toEqual([["S3", "Thursday"]])
    expect(steps([["buyer", "Anna, can you get the form to legal this week?"], ["buyer2", "I'll get it to them on Wednesday."], ["rep", "Thanks."]]))
      .toEqual([["S3", "Wednesday"]])
  })

  it("asking whether a day works commits to nothing on that day", () => {
    expect(steps([["buyer", "I'll ask the director whether the twelfth works."], ["rep", "Thanks."]])).toEqual([])
  })
})

describe("next steps: deadlines told by reference, offers accepted, questions that end a sentence", () => {
  it("'by then' and 'before then' take the day named last; 'ahead of' a day is a deadline", () => {
    expect(steps([["buyer", "Let's meet again on Monday the twelfth."], ["rep", "Monday the twelfth works. I'll have the revised plan over to you before then."]]))
      .toEqual([["S2", "Monday the 12th"], ["S1", "Monday the 12th"]])
    expect(dues("I'll circulate the agenda ahead of Friday.")).toEqual(["Friday"])
    expect(dues("We went through the summary of Friday.")).toEqual([])
  })

  it("an offer accepted with 'please do' or 'that would be great' is a step", () => {
    expect(steps([["rep", "I can send the rollout checklist over tomorrow morning."], ["buyer", "Please do."]])).toEqual([["S1", "tomorrow"]])
    expect(steps([["rep", "I could get the template to you on Tuesday."], ["buyer", "That would be really helpful."]])).toEqual([["S1", "Tuesday"]])
  })

  it("a question mark holds only the last clause: an earlier commitment in the sentence stands", () => {
    expect(steps([["rep", "I'll have the sandbox ready by Monday, and we run the first session on Wednesday the 9th?"], ["buyer", "Wednesday the 9th is good."]]))
      .toEqual([["S1", "Monday"], ["S1", "Wednesday the 9th"]])
  })

  it("a noun after an article is no verb; an infinitive completes the act before it", () => {
    expect(steps([["rep", "I'll get the pricing options to you by the review on Thursday."], ["buyer", "Great."]])).toEqual([["S1", "Thursday"]])
    expect(steps([["rep", "I'll try to have the draft contract done before the 20th."], ["buyer", "Okay."]])).toEqual([["S1", "the 20th"]])
  })
})

describe("next steps: fronted times, spelled counts, a 'not' that turns a day down", () => {
  it("a time fronted before the clause that acts is that act's due", () => {
    expect(steps([["buyer", "After the steering group on the 21st, I'll take it to our CFO."], ["rep", "Great."]])).toEqual([["S2", "the 21st"]])
  })

  it("spelled counts past six are relative days", () => {
    expect(dues("Let me get the draft over to you in ten days.")).toEqual(["in 10 days"])
  })

  it("a reply that opens with 'not this week' names no step of its own", () => {
    expect(steps([["rep", "Could we meet again soon?"], ["buyer", "Not this week, though."]])).toEqual([])
  })
})

describe("next steps: answers that counter, mention or put off a day (issue 35)", () => {
  it("a proposal answered with another day is countered: the day taken is the other side's, a 'not' before the day turns it down", () => {
    expect(steps([["rep", "Could I bring the two meters over on Thursday?"], ["buyer", "Not Thursday. Come Saturday, at seven in the morning."], ["rep", "Saturday at seven, then."]]))
      .toEqual([["S1", "Saturday 07:00"]])
    expect(steps([["rep", "Could I bring the two meters over on Thursday?"], ["buyer", "Thursday suits."]])).toEqual([["S1", "Thursday"]])
  })

  it("a day only told about in the reply is no answer; a word of assent beside it is one", () => {
    expect(steps([["rep", "Could we run the training on Tuesday the fourth?"], ["buyer", "Tuesday the fourth he is at a trade fair."]])).toEqual([])
    expect(steps([["rep", "Could we run the training on Tuesday the fourth?"], ["buyer", "Tuesday the fourth, yes, after lunch."]])).toEqual([["S1", "Tuesday the 4th"]])
  })

  it("a proposal whose day the speaker names in the next sentence is that sentence's step; a counter day is a step once agreed, said in full where its time is added", () => {
    const c = call([
      ["rep", "Shall we book a review with your finance lead? Say, Monday the sixth at ten?"],
      ["buyer", "The sixth is her day off. The seventh?"],
      ["rep", "The seventh at ten, then."]
    ])
    expect(c.next_steps.map((s) => [s.owner, s.due, s.quote])).toEqual([["S2", "the 7th 10:00", "The seventh at ten, then."]])
  })

  it("a choice of days is agreed where the other side picks one", () => {
    const c = call([["rep", "I could do Monday the third or Wednesday the fifth."], ["buyer", "The fifth would suit us."]])
    expect(c.next_steps.map((s) => [s.owner, s.due, s.quote])).toEqual([["S1", "the 5th", "The fifth would suit us."]])
  })

  it("'I can…' said as a statement stands unless the reply puts it off; 'I could…' still waits", () => {
    expect(steps([["rep", "I can have the revised order form with you by Tuesday."], ["buyer", "Send it to our office manager as well."]])).toEqual([["S1", "Tuesday"]])
    expect(steps([["rep", "I can have the revised order form with you by Tuesday."], ["buyer", "We will see."]])).toEqual([])
    expect(steps([["rep", "I could have the revised order form with you by Tuesday."], ["buyer", "Send it to our office manager as well."]])).toEqual([])
  })
})

describe("next steps: what commits nobody (issue 35)", () => {
  it("a conditional ('we would…', 'I'd…') is no commitment; 'we will' is", () => {
    expect(steps([["rep", "If you signed this month, we would have the sensors in by Friday."], ["buyer", "Right."]])).toEqual([])
    expect(steps([["rep", "We will have the sensors in by Friday."], ["buyer", "Right."]])).toEqual([["S1", "Friday"]])
  })

  it("a habit told in the simple present is no step; the simple present of one day still is", () => {
    expect(steps([["buyer", "I do the rota on Sunday evenings, with a spreadsheet."], ["rep", "Right."]])).toEqual([])
    expect(steps([["buyer", "I sign it next Monday, once legal has read it."], ["rep", "Great."]])).toEqual([["S2", "Monday"]])
  })

  it("the other side's part told as the deal's terms is no step, unless the speaker takes a part too", () => {
    expect(steps([["rep", "That price holds: you sign the order form by the end of May."], ["buyer", "Understood."]])).toEqual([])
    expect(steps([["rep", "You share the usage report by Tuesday, and I will send the quote on the ninth."], ["buyer", "Fine."]]))
      .toEqual([["S2", "Tuesday"], ["S1", "the 9th"]])
  })

  it("'today' with no clock time is a step only when something is promised for it", () => {
    expect(steps([["buyer", "It is quiet today."], ["rep", "Good."]])).toEqual([])
    expect(steps([["rep", "I will send the summary today."], ["buyer", "Thanks."]])).toEqual([["S1", "today"]])
  })

  it("'you' right after a verb is its object: the speaker stays the owner", () => {
    expect(actsIn(tokenize("I will send you last year's figures by Tuesday.")).map((a) => a.actor)).toEqual(["self"])
    expect(steps([["buyer", "I will send you last year's figures by Tuesday."], ["rep", "Thanks."]])).toEqual([["S2", "Tuesday"]])
  })

  it("a goodbye that names a day restates a step and is none of its own", () => {
    expect(steps([["buyer", "Thanks, see you on the tenth."], ["rep", "Bye."]])).toEqual([])
    expect(steps([["rep", "Let's meet on the tenth at two."], ["buyer", "The tenth at two works."], ["rep", "See you on the tenth."]])).toEqual([["S1", "the 10th 14:00"]])
  })
})

describe("next steps: telling someone, deadlines set, and days that are no day (issue 35)", () => {
  it("telling someone, promised, is an act after the call; 'I tell you' is not", () => {
    expect(steps([["buyer", "I will tell our director tonight."], ["rep", "Thanks."]])).toEqual([["S2", "tonight"]])
    expect(steps([["buyer", "I will let our accountant know this afternoon."], ["rep", "Thanks."]])).toEqual([["S2", "this afternoon"]])
    expect(steps([["buyer", "I tell you, it is a mess on Mondays."], ["rep", "I see."]])).toEqual([])
  })

  it("'I need it by' a day sets a deadline; not needing it sets none", () => {
    expect(steps([["buyer", "I need the signed form back before the thirtieth."], ["rep", "Understood."]])).toEqual([["S2", "the 30th"]])
    expect(steps([["buyer", "I do not need it before the thirtieth."], ["rep", "Understood."]])).toEqual([])
  })

  it("'let's say' a day names it", () => {
    expect(steps([["rep", "When can you send the list?"], ["buyer", "Let us say Friday."], ["rep", "Great."]])).toEqual([["S2", "Friday"]])
  })

  it("the end of this or next week, and the week of a day, are dues; a hedged day and a vague span are not", () => {
    expect(dues("I will send the revised plan by the end of next week.")).toEqual(["end of next week"])
    expect(dues("I will send it by the end of this week.")).toEqual(["end of the week"])
    expect(dues("I will present it to the owner in the week of the twelfth.")).toEqual(["week of the 12th"])
    expect(dues("I will ask my team, maybe end of next week.")).toEqual([])
    expect(dues("I will circle back in a couple of weeks.")).toEqual([])
    expect(dues("I will circle back in two weeks.")).toEqual(["in 2 weeks"])
  })

  it("a kind of day ('your Sunday', 'any given Saturday') and the first of a period ('the first season') are no dues", () => {
    expect(dues("So walk me through your Sunday evening.")).toEqual([])
    expect(dues("We lose a third on any given Saturday.")).toEqual([])
    expect(dues("Most shops see the gain in the first season.")).toEqual([])
    expect(dues("I'll brief her on Sunday evening.")).toEqual(["Sunday"])
  })

  it("a span of days with a verb in the simple present is how long something takes, not a due", () => {
    expect(steps([["rep", "Our customers see a return within three months."], ["buyer", "Right."]])).toEqual([])
    expect(steps([["rep", "Let me get the draft to you in ten days."], ["buyer", "Fine."]])).toEqual([["S1", "in 10 days"]])
  })
})

describe("next steps: where a step is said (issue 35)", () => {
  it("a proposal without a day is said where the other side names the day", () => {
    const c = call([["rep", "Shall we book the quarterly review?"], ["buyer", "Yes, Tuesday the fourth at ten."]])
    expect(c.next_steps.map((s) => [s.owner, s.due, s.quote])).toEqual([["S1", "Tuesday the 4th 10:00", "Yes, Tuesday the fourth at ten."]])
  })

  it("a bare day answered with its time is said in the answer; the time said again with assent agrees", () => {
    expect(call([["buyer", "Tuesday."], ["rep", "Tuesday at two, then."]]).next_steps.map((s) => [s.due, s.quote])).toEqual([["Tuesday 14:00", "Tuesday at two, then."]])
    expect(steps([["rep", "Thursday at eleven, then?"], ["buyer", "Eleven is good."]])).toEqual([["S1", "Thursday 11:00"]])
    expect(steps([["rep", "Thursday at eleven, then?"], ["buyer", "Hmm."]])).toEqual([])
  })

  it("a bare day that echoes the other side's day is their step, said where they said it", () => {
    const c = call([["buyer", "Our inspection is on Tuesday."], ["rep", "Tuesday."]])
    expect(c.next_steps.map((s) => [s.owner, s.quote])).toEqual([["S2", "Our inspection is on Tuesday."]])
  })

  it("a day offered after 'or' is one of a choice: one alternative turned down leaves the other, taken where it is picked", () => {
    const c = call([["rep", "I could do Thursday at eight, or Friday afternoon."], ["buyer", "Not Thursday. Friday afternoon works."]])
    expect(c.next_steps.map((s) => [s.owner, s.due, s.quote])).toEqual([["S1", "Friday", "Friday afternoon works."]])
  })
})

describe("next steps: what is told, not promised (callsight-1.25)", () => {
  it("a bare day in answer to a question about when something happens is information; asked for a step or an act, it is one", () => {
    expect(steps([["rep", "When does the auditors' visit start?"], ["buyer", "Wednesday."], ["rep", "Right."]])).toEqual([])
    expect(steps([["rep", "And their board, that is in March?"], ["buyer", "The ninth."], ["rep", "Good to know."]])).toEqual([])
    expect(steps([["rep", "When can you get me the floor plans?"], ["buyer", "Wednesday."], ["rep", "Great."]])).toEqual([["S2", "Wednesday"]])
    expect(steps([["rep", "What day suits you for the walkthrough?"], ["buyer", "Wednesday."], ["rep", "Wednesday it is."]])).toHaveLength(1)
  })

  it("a day of the month is one day however it is written: its echo is the step said before", () => {
    expect(sameDay({ day: "Friday March 6 10:00" }, { day: "the 6th" })).toBe(true)
    expect(sameDay({ day: "March 6" }, { day: "the 16th" })).toBe(false)
    const c = call([["rep", "Could we take it to your finance lead on Friday the sixth of March at ten?"], ["buyer", "The sixth. Yes, that works."]])
    expect(c.next_steps.map((s) => s.due)).toEqual(["Friday March 6 10:00"])
  })

  it("the speaker's side in the simple present on a named day tells a routine; a meeting, a sequence or a day from now stays a plan", () => {
    expect(steps([["buyer", "I check the fridge logs on Saturday morning."], ["rep", "I see."]])).toEqual([])
    expect(steps([["buyer", "We close the books on the thirtieth."], ["rep", "Right."]])).toEqual([])
    expect(steps([["buyer", "I meet our treasurer on Thursday, I'll show her then."], ["rep", "Great."]])).toEqual([["S2", "Thursday"]])
    expect(steps([["buyer", "Then I sign it on the thirtieth."], ["rep", "Great."]])).toEqual([["S2", "the 30th"]])
    expect(steps([["buyer", "I sign it next Tuesday."], ["rep", "Great."]])).toEqual([["S2", "Tuesday"]])
    expect(steps([["rep", "I send you the contract on Friday."], ["buyer", "Good."]])).toEqual([["S1", "Friday"]])
  })

  it("a habit that used to be, and a verb joined to a negated one, promise nothing", () => {
    expect(actsIn(tokenize("We used to count the stock on a Sunday night.")).every((a) => a.past && a.inert)).toBe(true)
    expect(steps([["buyer", "I used to ring round the drivers on Friday night."], ["rep", "Painful."]])).toEqual([])
    expect(steps([["rep", "I won't try and book anything in today, just listen."], ["buyer", "Good."]])).toEqual([])
    expect(steps([["rep", "I'll try and send the figures over by Friday."], ["buyer", "Thanks."]])).toEqual([["S1", "Friday"]])
  })
})
