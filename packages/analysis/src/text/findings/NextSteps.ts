/**
 * The call's next steps: dated commitments (see `Content.ts`, "Next steps"), each tied to the
 * verb that governs its date, with its owner, and confirmed by the other side's reply.
 */
import { type Act, actsIn, isQuestionAt } from "../Commitments.js"
import { type Due, dueText, findDues, sameDay } from "../Dates.js"
import { commitmentOf, isAgreement } from "../lexicon/Commitments.js"
import { isOpenQuestion } from "../lexicon/Questions.js"
import { CLAUSE_OPENERS, endsClause, plain, type Token } from "../lexicon/Tokens.js"
import { isAgendaToday, NEXT_STEP_CUES } from "../lexicon/When.js"
import { type Moment, stripMoment } from "../Moment.js"
import { round } from "../Round.js"
import { momentOf, momentOfSentence, opensClause, runsOf, type Sentence, textOf } from "../Sentences.js"
import type { NextStepItem } from "../../Types.js"

export interface NextStepFinding {
  readonly step: NextStepItem
  readonly said: Moment
  /** The other side agreeing ("Tuesday at two works"), or null. */
  readonly confirmation: Moment | null
}

/**
 * Scheduling talk with no verb of its own that commits anyone: "Would Wednesday the ninth at ten
 * work?", "Thursday at two it is", "the twenty second works", "talk to you on the tenth".
 */
const SCHEDULING = /(?:^|\s)(?:(?:does|would|will|could|should|can) [a-z0-9 ]{0,40}work|works?( for (?:me|you|us))?|it is$|then$|(?:is|sounds|should be|would be|'d be) (?:fine|good|great|ok|okay|best|better|ideal|perfect)|suits? (?:me|us)|(?:let us|shall we|we) say|same time|talk (?:to you )?(?:then|on|next)|see you|speak (?:then|on)|slot|how about|what about|is that (?:ok|okay|alright)|(?:are we|is (?:it|that|this)|we are) (?:still )?on(?: for)?)(?=\s|$)/
/** A day said again to close ("talk on Wednesday", "see you then"): the step said before, not another one. */
const CLOSING = /(?:^|\s)(?:talk|speak|see you|catch up)(?=\s|$)/
/** "ask her whether the fourteenth works": a day inside a question put to someone else is no due of the asking. */
const WHETHER = new Set(["whether", "if"])
const DISAGREES = /(?:^|\s)(?:^not (?:this|that|next|on|before|until)|no good|(?:does|do|will|would) not work|cannot (?:make|do)|not (?:free|available|possible)|^no)(?=\s|$)/
/** A reply that turns a day down: "mornings are bad for me", "Friday does not work", "I am away that week". */
const DECLINES = /(?:^|\s)(?:no good|(?:does|do|will|would) not work|cannot (?:make|do)|not (?:free|available|possible|great|ideal)|(?:is|are) (?:bad|tricky|difficult|hard|out)|(?:i am|i will be|we are|we will be) (?:away|travelling|traveling|out|off)|rather not|^no(?! problem| worries| rush)|^(?:sorry|unfortunately))(?=\s|$)/
/** A reply that puts the decision off: "I will ask him about Wednesday", "let me check", "I will get back to you". */
const DEFERS = /(?:^|\s)(?:(?:i will|let me|i need to|i have to|i would have to|we will|we need to|i must) (?:first )?(?:ask|check|see|find out|run (?:it|this) by|confirm|think)|get back to you|let you know)(?=\s|$)/

/** "I'd send…", "we would have…": a conditional, not a commitment. */
const hypothetical = (act: Act): boolean => !act.request && /\bwould\b/.test(act.aux)
/** "you sign by the end of May", "you see it running on the tenth": the other side's part told as the deal's terms, not asked of them. */
const terms = (act: Act, s: Sentence): boolean =>
  act.actor === "other" && !act.request && act.aux === "" && act.form === "simple-present" && OTHER_SUBJECT.has(s.tokens[act.subject]?.word ?? "")
/** "You share the report by Tuesday, and I'll send the quote on the ninth": a plan that gives each side its part. */
const dividesWork = (acts: ReadonlyArray<Act>): boolean =>
  acts.some((a) => !a.inert && (a.actor === "self" || a.actor === "shared") && /\b(?:will|shall)\b/.test(a.aux))
const OTHER_SUBJECT = new Set(["you", "you'll", "you're"])
/** "today" with no clock time is a step only when something is promised for it ("I'll send it today"), not told of it. */
const promised = (act: Act): boolean => /\b(?:will|shall|can|could|going|gonna)\b/.test(act.aux) || act.form.includes("future")
/** "I send…", "we open…": the simple present of the speaker's side, with no auxiliary. */
const habitual = (act: Act, s: Sentence): boolean =>
  (act.actor === "self" || act.actor === "shared") && act.aux === "" && act.form === "simple-present" && HABIT.test(s.plain)
/**
 * "I do my site reviews Friday morning", "on Sunday evening I type it in", "we open on the first of May": the speaker's
 * side in the simple present, said of a named day, tells a routine or the calendar, not a promise ("I'll do it Friday").
 * Still a plan: a meeting with someone ("I see him on Thursday", "I ask her tonight"), something done for the other side
 * ("I send you the contract on Friday"), a proposal ("let's meet Monday"),
 * the next of a sequence ("then I talk to Judith on the eleventh"), a day counted from now ("I sign it next Monday",
 * "tomorrow", "in two weeks"), or a subject other than "I" and "we" ("our installers come in on the third").
 */
const toldPresent = (act: Act, s: Sentence, due: Due): boolean =>
  (act.actor === "self" || act.actor === "shared") && act.aux === "" && act.form === "simple-present" && due.day !== null &&
  ["i", "we"].includes(s.tokens[act.subject]?.word ?? "") && !MEETS.has(act.infinitive.split(/\s+/)[0] ?? "") &&
  s.tokens[act.at + 1]?.word !== "you" &&
  !s.tokens.slice(Math.max(0, act.subject - 2), act.subject).some((t) => t.word === "then" || LET.has(t.word)) &&
  !/^(?:today|tonight|tomorrow|this|next|in )/.test(due.day) &&
  !s.tokens.slice(Math.max(0, due.from - 1), due.to).some((t) => ["this", "next", "coming"].includes(t.word))
/** Acts with another person: arranged for a day, they are plans even in the simple present. */
const MEETS = new Set(["see", "meet", "talk", "speak", "ask", "call", "ring", "phone", "email", "e-mail", "write", "tell", "show", "text", "visit"])
/** What recurs: "on Sunday evenings", "Fridays", "usually", "every week". */
const HABIT = /(?:^|\s)(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days|mornings|afternoons|evenings|nights|weekends|usually|always|often|normally|sometimes|(?:every|each) (?:other )?(?:day|week|month|year|season|morning|evening|night|time|(?:mon|tues|wednes|thurs|fri|satur|sun)day))(?=\s|$)/

/**
 * "When does the board pack close?" / "Friday.": a bare day in answer to a question that asks when
 * something happens, not when either side will act, is information. The turn asked in proposes a
 * step when any of its sentences names a day, is scheduling talk or names a step's action ("when
 * shall we meet?", "what day works?", "should we have a session?"), asks when someone is free ("what
 * day suits you?", "are you around on…"), or has either side act ("when can you send it?", "when do
 * you see Moira?", "let's train Sam").
 */
const AVAILABLE = /(?:^|\s)(?:suits?|free|available|convenient|around)(?=\s|$)/
const answersForInformation = (
  s: Sentence,
  sentences: ReadonlyArray<Sentence>,
  runs: ReadonlyArray<ReadonlyArray<Sentence>>,
  duesOf: (s: Sentence) => ReadonlyArray<Due>
): boolean => {
  const q = sentences[s.index - 1]
  if (q === undefined || q.run !== s.run - 1 || !q.question) return false
  const asked = runs[q.run] ?? []
  const proposes = (x: Sentence) =>
    duesOf(x).some((d) => d.day !== null) || SCHEDULING.test(x.plain) || NEXT_STEP_CUES.test(x.plain) || AVAILABLE.test(x.plain) ||
    actsIn(x.tokens).some((a) => !a.inert && a.actor !== "third")
  return !asked.some(proposes)
}

/** "See you on the tenth.", "Thanks, talk next week, Marcus.": a goodbye, no subject or modal of its own and no question. */
const isGoodbye = (s: Sentence, [from, to]: readonly [number, number]): boolean => {
  const clause = plain(s.tokens.slice(from, to))
  return !s.question && GOODBYE.test(clause) && !COMMITTING.test(clause)
}
const GOODBYE = /(?:^|\s)(?:see you|talk|speak)(?=\s|$)/
const COMMITTING = /(?:^|\s)(?:i|we|let us|shall|can|could|will|would|should)(?=\s)/

/** "Let's say Friday.", "shall we say the ninth?": "say" names the day proposed. */
const naming = (act: Act, s: Sentence): boolean =>
  act.infinitive === "say" && ["let's", "us", "we"].includes(s.tokens[act.at - 1]?.word ?? "")

/** "I need X by <day>": the speaker's need, not negated, not past, with a deadline ("by", "before") in its clause. */
const needsBy = (act: Act, s: Sentence, due: Due): boolean =>
  act.infinitive === "need" && (act.actor === "self" || act.actor === "shared") && !act.past && !s.question &&
  !s.tokens.slice(act.subject, due.from).some((t) => t.word === "not" || t.word === "never" || t.word.endsWith("n't")) &&
  s.tokens.slice(Math.max(0, due.from - 2), due.from + 1).some((t) => t.word === "by" || t.word === "before") && due.day !== null

/** "let me get it to you in ten days", "let's meet in two weeks": a proposal or a promise, whatever the verb's form. */
const LET = new Set(["let", "let's"])

/** "I can…", not "I could…" or "I might…": an offer said as what the speaker will do. */
const canDo = (act: Act): boolean => act.actor === "self" && /\bcan\b/.test(act.aux)

/** "Not Thursday.", "Monday not, we have visitors": a "not" just before or after the day turns it down. */
const negated = (tokens: ReadonlyArray<Token>, due: Due): boolean =>
  tokens.slice(Math.max(0, due.from - 2), due.from).some((t) => t.word === "not") || tokens[due.to]?.word === "not"

/** A word of assent anywhere in a reply ("Tuesday at two, yes", "Wednesday six, okay", "the ninth is possible"). */
const ASSENTS = /(?:^|\s)(?:yes|yeah|yep|aye|ok|okay|fine|good|great|perfect|lovely|brilliant|ideal|suits?|works?|would work|possible|can do|is best)(?=\s|$)/

/** The clause holding a date (cut at , ; :) has a verb of its own: "Thursday he's at a training", not "Thursday, before nine". */
const actsInClause = (s: Sentence, due: Due): boolean => {
  let from = due.from
  while (from > 0 && !endsClause(s.tokens[from - 1]!.raw)) from--
  const main = (a: Act) => !TIME_CLAUSE.has(s.tokens[a.subject - 1]?.word ?? "") && !TIME_CLAUSE.has(s.tokens[a.at - 1]?.word ?? "")
  return actsIn(s.tokens).some((a) => a.at >= from && main(a))
}
/** "…, before they head out": a clause of time around the day, not a statement about it. */
const TIME_CLAUSE = new Set(["before", "after", "till", "until", "when", "once", "if", "so", "as"])


/** Words opening a clause that is only a time, fronted before the clause that acts ("after the board on the 19th, …"). */
const FRONTED = new Set(["after", "on", "by", "before", "from", "once"])

/** "by then", "before then", "ahead of then": the day named last, in this sentence's turn or the few sentences before it. */
const THEN = /(?:^|\s)(?:by|before|ahead of) then(?=\s|$)/
const THEN_LOOKBACK = 6

const withThen = (
  s: Sentence,
  dues: ReadonlyArray<Due>,
  sentences: ReadonlyArray<Sentence>,
  duesOf: (s: Sentence) => ReadonlyArray<Due>
): ReadonlyArray<Due> => {
  if (dues.length > 0 || !THEN.test(s.plain)) return dues
  const at = s.tokens.findIndex((t, i) => t.word === "then" && ["by", "before", "of"].includes(s.tokens[i - 1]?.word ?? ""))
  if (at < 0) return dues
  for (const b of sentences.slice(Math.max(0, s.index - THEN_LOOKBACK), s.index).reverse()) {
    const named = [...duesOf(b)].reverse().find((d) => d.day !== null)
    if (named !== undefined) return [{ day: named.day, time: null, from: at, to: at + 1 }]
  }
  return dues
}

/**
 * Clause spans of a sentence (token ranges): cut after a comma or semicolon before an opener or a
 * new subject; in a transcript without commas (speech-to-text without punctuation, or an automatic
 * punctuator that gives only sentence ends), before a word that opens a clause (`opensClause`: "great I'll
 * send it by Thursday", "…the seventeenth if I need to can we…").
 */
const clauseSpans = (s: Sentence): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  const bare = !s.commas
  const words = bare ? s.tokens.map((t) => t.word) : []
  let from = 0
  for (let i = 1; i < s.words.length; i++) {
    const prev = s.words[i - 1]!.text
    const word = s.tokens[i]!.word
    if (/;$/.test(prev) || (endsClause(prev) && (CLAUSE_OPENERS.has(word) || CLAUSE_SUBJECTS.has(word))) || (bare && opensClause(words, i))) {
      out.push([from, i])
      from = i
    }
  }
  out.push([from, s.words.length])
  return out
}
const CLAUSE_SUBJECTS = new Set(["i", "i'll", "i'm", "we", "we'll", "we're", "let's", "you", "you'll", "shall", "could", "can", "would"])

/**
 * Where a step with a verb is said: its clause, from the act's subject where that comes first. In a
 * transcript without commas a clause may still hold what was said before the act ("perfect the
 * revised order form by Wednesday"), so there the step starts at the subject, or at the auxiliary
 * that asks before it ("could Linda send…").
 */
const stepStart = (s: Sentence, span: readonly [number, number], act: Act): number => {
  if (s.commas) return Math.min(span[0], act.subject)
  const start = Math.max(span[0], isQuestionAt(s.tokens, act.subject) ? act.subject - 1 : act.subject)
  // a fronted time's act is in the next clause ("after the board on the 19th I'll take it…"): the time's clause stays whole
  return start < span[1] ? start : span[0]
}
/**
 * Where a step without a verb of its own is said ("would Tuesday work", "say the ninth"): its
 * clause; in a transcript without commas, from its day and the words that ask for it or lead to it
 * (at most two: "how about Friday", "would Tuesday work"), where the clause may still hold what was
 * said before ("of course would early next week work say Tuesday").
 */
const dayStart = (s: Sentence, span: readonly [number, number], due: Due): number => {
  if (s.commas) return span[0]
  let start = due.from
  while (start > span[0] && due.from - start < 2 && BEFORE_DAY.has(s.tokens[start - 1]!.word)) start--
  return Math.max(span[0], start)
}
const BEFORE_DAY = new Set(["on", "by", "at", "say", "for", "from", "until", "till", "before", "about", "how", "what", "would", "could", "does", "will", "can", "shall", "be", "might", "is"])

const clauseMoment = (s: Sentence, [from, to]: readonly [number, number]): Moment => {
  const start = from > 0 && to - from > 1 && CLAUSE_OPENERS.has(s.tokens[from]!.word) ? from + 1 : from
  const words = s.words.slice(start, to)
  return momentOf(words, textOf(words).replace(/[,;:]$/, ""))
}

interface StepCandidate {
  readonly sentence: Sentence
  moment: Moment
  readonly owner: string | null
  day: string | null
  time: string | null
  /**
   * A step only once the other side agrees: an offer ("I can…"), a proposal or a request put as a question ("can we
   * meet on Friday?", "can you call me back in two weeks?"), a choice of days ("Tuesday or Wednesday").
   */
  readonly offer: boolean
  /** Days offered as alternatives: the agreeing reply names the one taken. */
  readonly choice: boolean
  /** A date with no committing verb, said as a fragment or a goodbye ("Thursday at eleven then", "talk on the tenth"). */
  readonly restates: boolean
  /** "I can have it with you by Tuesday": said as a plain statement it stands, unless the reply puts it off ("we'll see"). */
  readonly able?: boolean
  /** A verbless day ("Tuesday.", "The eighteenth, Wednesday."). */
  readonly bare?: boolean
  /** A goodbye that names the day ("See you on the tenth.", "Talk Tuesday, Marcus."): it only restates a step. */
  readonly goodbye: boolean
}

/**
 * Next steps are dated commitments (see the header): in each sentence, every due date or time
 * chrono finds (`Dates.ts`) is tied to the act that governs it (`Commitments.ts`: the nearest verb
 * before it in its clause, else the nearest after): a first-person or "we" commitment is a step
 * owned by the speaker; an instruction or a request to the other side ("you send me… by Friday",
 * "can you send… by Friday") is the other side's step; a date with no committing verb is a step
 * only in scheduling talk ("Would Thursday at ten work?"). Negated, past and third-party verbs
 * ("the lights go live", "we had a demo on Monday") make none, nor does a request without its own
 * date. One step per act. The other side's reply that names the same day confirms the step (and
 * may add the time: "Tuesday at two works"); it is not a step of its own. A proposal without a
 * day ("shall we book a call?") borrows the day of the reply only when the reply agrees.
 * A proposal or a request put as a question, an offer and a choice of days ("Tuesday or Wednesday")
 * wait for the other side to agree (a choice takes the day picked); a reply that turns the day down
 * ("mornings are bad for me") drops the step, one that puts it off ("let me check about Wednesday")
 * neither confirms it nor is absorbed. A day said again to close ("talk on Wednesday", "Thursday at
 * eleven then") or a time added a turn later completes the step already found, not a new one.
 */
export const findNextSteps = (sentences: ReadonlyArray<Sentence>): Array<NextStepFinding> => {
  const runs = runsOf(sentences)
  const out: Array<{ c: StepCandidate; confirmation: Moment | null }> = []
  const absorbed = new Set<number>()
  const duesCache = new Map<number, ReturnType<typeof findDues>>()
  const duesOf = (s: Sentence) => {
    let d = duesCache.get(s.index)
    if (d === undefined) duesCache.set(s.index, (d = findDues(s.tokens)))
    return d
  }
  const otherSpeaker = (s: Sentence): string | null =>
    (sentences.slice(s.index + 1).find((x) => x.side !== s.side) ?? [...sentences.slice(0, s.index)].reverse().find((x) => x.side !== s.side))?.speaker ?? null
  /** The sentence just before (this run or the other side's run before it) that names the same day, not as a question. */
  const echoOf = (s: Sentence, c: StepCandidate): Sentence | undefined =>
    sentences.slice(Math.max(0, s.index - 3), s.index).reverse()
      .find((b) => b.run === s.run - 1 && !b.question && duesOf(b).some((d) => d.day !== null && sameDay(d, c)))
  for (const s of sentences) {
    if (absorbed.has(s.index)) continue
    const dues = withThen(s, duesOf(s), sentences, duesOf)
    // a proposal by both sides without a day ("shall we book a call?") may take the day of an agreeing reply
    const proposal = dues.length === 0 && NEXT_STEP_CUES.test(s.plain) && /(?:^|\s)(?:let us|shall we|(?:could|can|should) we|how about we)(?=\s)/.test(s.plain)
    if (dues.length === 0 && !proposal) continue
    // an open question ("how are you doing today?", "what happens today?") commits nobody
    if (s.question && isOpenQuestion(s.tokens)) continue
    const acts = actsIn(s.tokens)
    const spans = clauseSpans(s)
    const spanOf = (i: number) => spans.find(([a, b]) => i >= a && i < b) ?? spans[0]!
    const used = new Set<number>()
    const found: Array<StepCandidate> = []
    const ownerOf = (act: Act) => (act.actor === "other" ? otherSpeaker(s) : s.speaker)
    for (const due of dues) {
      const span = spanOf(due.from)
      const inSpan = acts.filter((a) => a.at >= span[0] && a.at < span[1])
      // a fronted time ("After the board on the 19th, I'll take it to the VC") belongs to the next clause's act
      const fronted = inSpan.length === 0 && FRONTED.has(s.tokens[span[0]]?.word === "and" ? s.tokens[span[0] + 1]?.word ?? "" : s.tokens[span[0]]!.word)
      const nextSpan = spans[spans.indexOf(span) + 1]
      const act = [...inSpan].reverse().find((a) => a.at < due.from) ?? inSpan.find((a) => a.at >= due.to) ??
        (fronted && nextSpan !== undefined ? acts.find((a) => a.at >= nextSpan[0] && a.at < nextSpan[1]) : undefined)
      const when = { day: due.day, time: due.time }
      if (act !== undefined && act.at < due.from && s.tokens.slice(act.at + 1, due.from).some((t) => WHETHER.has(t.word))) continue
      // in a question, the other side acts only when asked ("can you…"), not in "how are you doing today?"
      if (act !== undefined && s.question && act.actor === "other" && !act.request) continue
      // "I'd bring the rota", "we'd have the data by July": what would happen, if; "I do them on Sunday evenings", "we open on
      // the first of May": a habit or the calendar, told as a statement. Neither commits anyone (a question or a request still does).
      if (act !== undefined && !act.inert && act.actor !== "third" && !s.question && (hypothetical(act) || habitual(act, s) || toldPresent(act, s, due) || (terms(act, s) && !dividesWork(acts)))) continue
      if (act !== undefined && when.day === "today" && when.time === null && !promised(act)) continue
      // "our customers see a return within three months", "we issue the notices within five days": with a verb in the simple
      // present, a span of days is how long something takes, not when anything is due
      if (act !== undefined && when.day?.startsWith("in ") === true && act.aux === "" && act.form !== "imperative" && !act.request &&
        !LET.has(s.tokens[act.subject - 1]?.word ?? "") && !LET.has(s.tokens[act.subject]?.word ?? "")) continue
      if (act !== undefined && !act.inert && act.actor !== "third") {
        if (used.has(act.at)) continue
        if (isAgendaToday(s.tokens.slice(span[0], span[1]), when)) continue
        used.add(act.at)
        const choice = due.choice === true
        // the question mark belongs to the last clause: "I'll have the accounts set up by Wednesday, and we do the training on Thursday?"
        const asked = s.question && span === spans[spans.length - 1]
        found.push({
          sentence: s, moment: clauseMoment(s, [stepStart(s, span, act), span[1]]), owner: ownerOf(act), ...when,
          offer: (act.offer && !canDo(act)) || asked || choice, choice, able: act.offer && canDo(act), restates: CLOSING.test(act.infinitive), goodbye: isGoodbye(s, span)
        })
      } else if (act !== undefined && needsBy(act, s, due)) {
        // "I need the renewal signed before the thirty-first", "I'll need a contact by Friday": a deadline the speaker sets
        found.push({ sentence: s, moment: clauseMoment(s, [stepStart(s, span, act), span[1]]), owner: s.speaker, ...when, offer: false, choice: false, restates: false, goodbye: false })
      } else if (act === undefined || (act.actor === "third" && !act.inert) || ((act.infinitive === "be" || naming(act, s)) && !act.past)) {
        const clause = plain(s.tokens.slice(span[0], span[1]))
        const words = s.tokens.slice(span[0], span[1]).filter((t) => /[\p{L}\p{N}]/u.test(t.word)).length
        // a date that is most of a verbless clause ("Thursday at two, then"); a verb of its own ("next week is tricky",
        // "the pilot ends on the third") makes it a statement, a step only in scheduling talk
        const dateOnly = act === undefined && due.to - due.from >= words / 2 && due.day !== null && !due.day.startsWith("in ")
        if ((!SCHEDULING.test(clause) && !dateOnly) || DISAGREES.test(clause) || negated(s.tokens, due)) continue
        // "Quiet today.", "today we serve four hundred shops": today with no clock time and no one promising is no step
        if (when.day === "today" && when.time === null) continue
        if (found.some((f) => sameDay(f, when))) continue
        // "I could do Thursday at eight, or Friday afternoon": a day after "or" is one of the alternatives offered
        const choice = due.choice === true || s.tokens[span[0]]?.word === "or"
        found.push({
          sentence: s, moment: clauseMoment(s, [dayStart(s, span, due), span[1]]), owner: s.speaker, ...when, offer: s.question || choice, choice,
          restates: dateOnly || CLOSING.test(clause), goodbye: isGoodbye(s, span), bare: dateOnly
        })
      }
    }
    // "Could we book a session? Say, Tuesday at ten?": the proposal's day is the speaker's own next sentence, a step of its own
    const ownDayNext = sentences[s.index + 1]?.run === s.run && duesOf(sentences[s.index + 1]!).some((d) => d.day !== null)
    if (proposal && found.length === 0 && !ownDayNext) {
      const act = acts.find((a) => !a.inert && a.actor === "shared")
      if (act !== undefined) found.push({ sentence: s, moment: clauseMoment(s, spanOf(act.at)), owner: ownerOf(act), day: null, time: null, offer: true, choice: false, restates: false, goodbye: false })
    }
    // a clock time alone right after a dated step completes it: of the same speaker ("…on Friday. Does ten o'clock work?"),
    // or a step still without a time from the run before ("Will do, ten o'clock")
    const previous = out[out.length - 1]?.c
    const completes = (c: StepCandidate) =>
      c.day === null && c.time !== null && previous !== undefined &&
      (previous.sentence.run === s.run || (previous.time === null && s.run - previous.sentence.run <= 2))
    const completing = found.filter(completes)
    for (const c of completing) previous!.time ??= c.time
    found.splice(0, found.length, ...found.filter((c) => !completing.includes(c)))
    // the reply: the next sentences of another speaker of the same side, when one answers at once (a colleague
    // asked by name), else the sentences of the other side's next run
    const next = sentences[s.index + 1]
    const reply = next !== undefined && next.run === s.run && next.speaker !== s.speaker
      ? sentences.slice(s.index + 1).filter((r) => r.run === s.run && r.speaker === next.speaker)
      : runs[s.run + 1] ?? []
    for (const c of found) {
      let confirmation: Moment | null = null
      let declined = false
      let deferred = false
      // "I can get you a sample by Friday" in answer to "could you send me a sample by Friday?" accepts; it awaits no answer
      const accepts = c.offer && !s.question && c.day !== null && (runs[s.run - 1] ?? []).some((r) => duesOf(r).some((d) => d.day !== null && sameDay(d, c)))
      const awaits = c.offer && !accepts
      reply.slice(0, 3).forEach((r, k) => {
        if (declined && confirmation === null) return
        const named = duesOf(r)
        // "let me check with him about Wednesday" neither confirms nor turns down: the step waits
        if (DEFERS.test(r.plain)) {
          deferred = true
          return
        }
        const agrees = isAgreement(r.tokens) && !DISAGREES.test(r.plain)
        const same = named.find((d) => (c.day === null ? d.day !== null : sameDay(d, c) && d.day !== null))
        // a proposal answered with another day ("Not Thursday. Saturday, early."; "Monday's picking. Come Tuesday."):
        // countered, the day proposed is not taken; the other side's day is a step of its own
        const other = named.find((d) => d.day !== null && c.day !== null && !sameDay(d, c))
        const countered = awaits && !c.choice && confirmation === null && other !== undefined
        // the day proposed only told about, not agreed to ("Thursday he's away.", "The sixth is her day off."): a statement
        // with a verb of its own in the day's clause, no word of assent and no commitment of the one replying
        const mentioned = awaits && same !== undefined && !agrees && !ASSENTS.test(r.plain) && !SCHEDULING.test(r.plain) &&
          commitmentOf(r.tokens) === null && actsInClause(r, same)
        // a day turned down: the one named ("Not Thursday."), or the first thing said in reply when it names none ("mornings are bad for me")
        // one of the alternatives turned down ("Not Thursday.") leaves the others open
        if (same !== undefined && negated(r.tokens, same) && c.choice) return
        if ((same !== undefined && negated(r.tokens, same)) || countered) {
          declined = confirmation === null
          if (same !== undefined) absorbed.add(r.index)
        } else if (DECLINES.test(r.plain) && (same !== undefined || (k === 0 && named.length === 0)) && confirmation === null) declined = true
        else if (mentioned) absorbed.add(r.index)
        else if (same !== undefined && !DISAGREES.test(r.plain)) {
          if (c.choice) {
            // the day is agreed where it is picked: the step is said there, with the time said with it
            c.moment = momentOfSentence(r)
            c.day = same.day
            c.time = same.time
          }
          // a bare day answered with its time ("Tuesday." / "Tuesday at two, then."): the step is said in full in the answer
          if (c.restates && !c.choice && c.time === null && same.time !== null && confirmation === null) c.moment = momentOfSentence(r)
          // a proposal without a day ("Shall we book the review?" / "Tuesday the fourth, at ten."): the day is said in the answer
          if (c.day === null && confirmation === null) c.moment = momentOfSentence(r)
          c.day ??= same.day
          c.time ??= same.time
          confirmation ??= momentOfSentence(r)
          absorbed.add(r.index)
        } else if ((agrees || (ASSENTS.test(r.plain) && r.tokens.length <= 5 && !DISAGREES.test(r.plain))) && named.length === 0 && c.day !== null && !c.choice) {
          confirmation ??= momentOfSentence(r)
        } else if (c.day !== null && c.time !== null && named.length > 0 && named.every((d) => d.day === null && d.time === c.time) &&
          (agrees || ASSENTS.test(r.plain)) && !DISAGREES.test(r.plain)) {
          // "Thursday at eleven, then?" / "Eleven's good.": the time said again with assent agrees to the day it was proposed with
          confirmation ??= momentOfSentence(r)
          absorbed.add(r.index)
        }
      })
      if (c.day === null && c.time === null) continue
      if (declined && confirmation === null) continue
      if (c.able === true && deferred && confirmation === null) continue
      if (c.offer && confirmation === null && !accepts) continue
      // said again ("Thursday at eleven then", "talk on Wednesday"): it completes the step said before, not a new one
      const earlier = c.restates ? out.find((o) => o.c.day !== null && c.day !== null && sameDay(o.c, c)) : undefined
      if (earlier !== undefined) {
        earlier.c.time ??= c.time
        continue
      }
      if (c.goodbye) continue
      if (c.bare === true && answersForInformation(s, sentences, runs, duesOf)) continue
      // a bare day that echoes or completes a day just named ("Plot four has its walkround on Tuesday." / "Tuesday."): the step
      // is the sentence that named it, said by whoever said it
      const echoed = c.bare === true && c.day !== null && c.time === null ? echoOf(s, c) : undefined
      if (echoed !== undefined) {
        if (out.some((o) => o.c.sentence.index === echoed.index)) continue
        out.push({ c: { ...c, sentence: echoed, moment: momentOfSentence(echoed), owner: echoed.speaker }, confirmation: momentOfSentence(s) })
        continue
      }
      out.push({ c, confirmation })
    }
  }
  return out.map(({ c, confirmation }) => ({
    step: { at: round(c.moment.start, 3), quote: c.moment.quote, owner: c.owner, due: dueText(c) },
    said: stripMoment(c.moment),
    confirmation
  }))
}
