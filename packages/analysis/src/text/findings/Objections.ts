/**
 * The buyer's objections (see `Content.ts`, "Objections"): one per buyer voice in a buyer run, by
 * the rules, the objection model and the kind model, each with the rep's response read from the
 * next run (a question back, a long pitch, a pause, other).
 */
import { isWord } from "../Attach.js"
import type { Moment } from "../Moment.js"
import { CATEGORY_KIND, isSettled, raisedAgainst, RESTATED, topicOf } from "../Pushback.js"
import { round } from "../Round.js"
import { bySpeaker, momentOfSentence, runMoment, runsOf, type Sentence } from "../Sentences.js"
import { objectionOf, statesPain } from "./Statements.js"
import { objectionKindOf } from "../../models/KindModel.js"
import { OBJECTION_MODEL, overrulable, OVERRULED, OWN_WORDS } from "../../models/ObjectionModel.js"
import { likeliest, probabilityOf, turnFeatures } from "../../models/TurnModel.js"
import type { ObjectionItem, Turn } from "../../Types.js"

export interface ObjectionFinding {
  readonly objection: ObjectionItem
  /** The finer category: discount, contract_terms, approval_limit, proof, security… (`Pushback.ts`), else the kind. */
  readonly category?: string
  readonly said: Moment
  /** The rep's first sentence after the objection, or null when the rep never answered. */
  readonly reply: Moment | null
  /** The rep's question back, when the response is `question_back`. */
  readonly question: Moment | null
  /** The rep's whole run, when the response is `long_pitch`. */
  readonly pitch: Moment | null
}

/** The rep waited before answering an objection. */
export const OBJECTION_PAUSE_S = 1
/** A response longer than this (seconds or words) without a question is a long pitch. */
export const PITCH_S = 30
export const PITCH_WORDS = 80

/** Words of a run, counted as in the metrics. */
const wordCount = (sentences: ReadonlyArray<Sentence>) => sentences.reduce((n, s) => n + s.words.filter(isWord).length, 0)

/**
 * Which of a run's objections names it: what we charge and the buyer's money first, then another
 * vendor, then who decides and when (often a way of putting off the substance), then the catch-all
 * "need" of a doubt, a proof or a risk ("it sounds good in theory, but we're locked into X" is about
 * the competitor; "I'd have to ask her, and the price is above what I had in mind" about the price).
 */
const KIND_RANK: Readonly<Record<ObjectionItem["kind"], number>> = { price: 0, budget: 0, competitor: 1, authority: 2, timing: 2, need: 3 }

export const findObjections = (sentences: ReadonlyArray<Sentence>, turns: ReadonlyArray<Turn>): Array<ObjectionFinding> => {
  const runs = runsOf(sentences)
  const out: Array<ObjectionFinding> = []
  runs.forEach((run, r) => {
    if (run[0]!.side !== "buyer") return
    // a restated objection ("like I said, …") counts where it was first raised, unless nothing else is new
    // several in one run: the most substantive kind, the first of it (`KIND_RANK`)
    // what the rep just said: an offer declined or a question about the decision answered is no push-back
    const before = runs[r - 1]
    const asked = before?.[0]?.side === "rep" ? before.map((s) => s.plain).join(" ") : undefined
    const repBefore = before?.[0]?.side === "rep" ? before : []
    // in a multi-party call, each buyer who speaks in the run may raise one ("What I can't move on is the audit." "Which is a problem for me…")
    for (const voice of bySpeaker(run)) {
      const raised = voice
        .map((s) => ({ s, o: objectionOf(s) }))
        .filter((x) => x.o !== null && raisedAgainst(asked, x.s.plain, x.o.kind, x.o.category))
      const fresh = raised.filter((x) => !RESTATED.test(x.s.plain))
      const found = fresh.reduce<typeof fresh[number] | undefined>(
        (best, x) => best === undefined || KIND_RANK[x.o!.kind] < KIND_RANK[best.o!.kind] ? x : best,
        undefined
      ) ?? raised[0]
      // a weak category's phrase the model hears no push-back in, with the rep's turn before, is overruled (`overrulable`)
      const overruled = found !== undefined && found.o !== null && overrulable(found.o.category, found.s.plain) &&
        probabilityOf(turnFeatures(voice, repBefore), OBJECTION_MODEL) < OVERRULED
      if (overruled) continue
      // whether it is push-back is the rules' and the objection model's call; what it is about, the kind model's (`KindModel.ts`)
      if (found !== undefined && found.o !== null) out.push(answered(runs, turns, r, found.s, objectionKindOf(voice, found.o.kind), found.o.category))
      else {
        // what the patterns miss, the learned model may hear (`ObjectionModel.ts`): said where it is most likely; the topic it names, if any, is the rules' kind
        const learned = learnedObjection(voice, repBefore)
        if (learned !== null && raisedAgainst(asked, learned.s.plain, learned.kind, learned.category)) {
          const named = learned.category === "learned" ? null : learned.kind
          out.push(answered(runs, turns, r, learned.s, objectionKindOf(voice, named), learned.category))
        }
      }
    }
  })
  return out
}

/** The finding of an objection said in the run `r`, with the rep's response read from the next run. */
const answered = (
  runs: ReadonlyArray<ReadonlyArray<Sentence>>,
  turns: ReadonlyArray<Turn>,
  r: number,
  said: Sentence,
  kind: ObjectionItem["kind"],
  category: string
): ObjectionFinding => {
  const run = runs[r]!
  const answer = runs[r + 1]
  let response: ObjectionItem["response"] = "other"
  let pause: number | null = null
  let reply: Moment | null = null
  let question: Moment | null = null
  let pitch: Moment | null = null
  if (answer !== undefined) {
    const lastBuyerTurn = turns[run[run.length - 1]!.words[run[run.length - 1]!.words.length - 1]!.turn]
    const repTurn = turns[answer[0]!.words[0]!.turn]
    pause = lastBuyerTurn !== undefined && repTurn !== undefined ? round(Math.max(0, repTurn.start - lastBuyerTurn.end), 2) : null
    reply = momentOfSentence(answer[0]!)
    const start = answer[0]!.start
    let wordsBefore = 0
    for (const s of answer) {
      if (s.start - start > PITCH_S || wordsBefore > PITCH_WORDS) break
      if (s.question) {
        question = momentOfSentence(s)
        break
      }
      wordsBefore += s.words.filter(isWord).length
    }
    const length = answer[answer.length - 1]!.end - start
    if (question !== null) response = "question_back"
    else if (length > PITCH_S || wordCount(answer) > PITCH_WORDS) {
      response = "long_pitch"
      pitch = runMoment(answer)
    } else if (pause !== null && pause >= OBJECTION_PAUSE_S) response = "pause"
  }
  return {
    objection: { kind, at: round(said.start, 3), quote: said.quote, response, response_pause_s: pause },
    category,
    said: momentOfSentence(said),
    reply,
    question,
    pitch
  }
}

/** A buyer's turn the learned model takes for push-back: its most likely sentence, and the kind its topic names ("need" without one). */
const learnedObjection = (
  voice: ReadonlyArray<Sentence>,
  repBefore: ReadonlyArray<Sentence>
): { s: Sentence; kind: ObjectionItem["kind"]; category: string } | null => {
  // a pain told is the buyer's problem, not push-back against the deal: the model reads only what is not one
  const heard = voice.filter((s) => !statesPain(s))
  if (heard.length === 0 || isSettled(heard.map((s) => s.plain).join(" "))) return null
  const s = likeliest(heard, repBefore, OBJECTION_MODEL)
  // the rep's turn before may lift the buyer's words past the threshold, not stand in for them
  if (s === null || probabilityOf(turnFeatures(heard), OBJECTION_MODEL) < OWN_WORDS) return null
  const topic = topicOf(s.plain)
  return { s, kind: topic === null ? "need" : CATEGORY_KIND[topic], category: topic ?? "learned" }
}
