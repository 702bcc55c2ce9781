/**
 * Who commits to what in a sentence: the verb phrases `compromise` finds (with their tense, form,
 * auxiliary and negation), each given the side that acts from the words before it: "I'll send",
 * "our installers come in" → the speaker; "let's go through", "we'll review", "shall we keep" →
 * both (the speaker proposes); "you send me", "can you send", an imperative "send me" → the other
 * side; "the lights go live", "she's asked" → a third party, no commitment of either side.
 *
 * compromise is used for what it is good at (which words are verbs, their tense and negation);
 * its subject guesses are not used: in speech they often take an object or a date for a subject
 * ("Marcus, talk to you…"), so the subject is read from the few words before the verb.
 */
import nlp from "compromise"
import type { Token } from "./lexicon/Tokens.js"

export type Actor = "self" | "shared" | "other" | "third"

export interface Act {
  /** Token index of the verb's first word. */
  readonly at: number
  /** Token index where the subject starts (the act's clause starts no later). */
  readonly subject: number
  readonly actor: Actor
  /** "can you…", "could you…", an imperative: the speaker asks the other side. */
  readonly request: boolean
  /** "I can…", "we could…": an offer, a step only once the other side agrees. */
  readonly offer: boolean
  /** Not an action now or later: negated, past, a state of mind ("I think", "I want"). */
  readonly inert: boolean
  /** Past or perfect: what happened, not what will. */
  readonly past: boolean
  readonly infinitive: string
  /** The auxiliary ("will", "would", "can"…; "" for none), shared by a verb joined to the act before it. */
  readonly aux: string
  /** compromise's verb form ("simple-present", "simple-future", "modal-infinitive"…), shared the same way. */
  readonly form: string
}

/** States of mind and speech, not actions after the call. */
const NOT_ACTIONS = new Set([
  "think", "guess", "hope", "know", "want", "like", "love", "wish", "feel", "believe", "mean", "understand", "hear", "need", "prefer",
  "suppose", "expect", "say", "tell", "thank", "thanks", "be", "is", "are", "am", "was", "were", "let", "sound", "seem", "mind", "appreciate"
])
const SELF = new Set(["i", "i'll", "i'm", "i'd", "i've", "me", "myself"])
const SHARED = new Set(["we", "we'll", "we're", "we'd", "we've", "let's", "us"])
const OTHER = new Set(["you", "you'll", "you're", "you'd", "you've"])
const OUR = new Set(["our", "my"])
const REQUEST_AUX = new Set(["can", "could", "would", "will", "please"])
const OFFER_AUX = new Set(["can", "could", "might", "may"])
/** Words skipped between a subject and its verb ("I'll also send", "we can then review"). */
const BETWEEN = new Set([
  "also", "just", "then", "really", "actually", "probably", "definitely", "certainly", "still", "both", "all", "happily", "personally",
  "will", "shall", "can", "could", "would", "should", "might", "may", "must", "'ll", "not", "never", "go", "going", "to", "be", "am",
  "are", "is", "gonna", "try", "always", "first", "quickly", "already"
])
const DETERMINERS = new Set(["the", "a", "an", "our", "your", "their", "his", "her", "its", "each", "every"])
const CONJUNCTIONS = new Set(["and", "then", "or", "but", "plus"])
const PAST_FORMS = new Set([
  "simple-past", "auxiliary-past", "past-perfect", "past-progressive", "past-perfect-progressive", "past-conditional", "present-perfect", "present-perfect-progressive"
])
/** Words that open a subordinate clause: its verb is a condition or a description, not a commitment. */
const SUBORDINATORS = new Set(["if", "when", "unless", "once", "whether", "what", "which", "who", "that", "where", "how", "until", "because", "since", "while", "than", "as"])

/** The words as one text for compromise, and where each token starts in it. */
const textOf = (tokens: ReadonlyArray<Token>) => {
  const starts: Array<number> = []
  let at = 0
  for (const t of tokens) {
    starts.push(at)
    at += t.raw.length + 1
  }
  return { text: tokens.map((t) => t.raw.replace(/[\u2018\u2019]/g, "'")).join(" "), starts }
}

const clauseEnd = (raw: string) => /[,;:]$/.test(raw)

interface VerbJson {
  readonly offset: { readonly start: number; readonly length: number }
  readonly verb: {
    readonly auxiliary: string
    readonly negative: boolean
    readonly infinitive: string
    readonly grammar: { readonly form?: string; readonly tense?: string; readonly copula?: boolean }
  }
}

/**
 * The acts of a sentence's tokens, in order. A verb that follows a noun with no subject of its
 * own, right after another act, is part of that act's phrase ("have the redlines back") and is
 * left out; a verb after "and"/"then" with no subject shares the previous act's subject.
 */
export const actsIn = (tokens: ReadonlyArray<Token>): ReadonlyArray<Act> => {
  const cached = seen.get(tokens)
  if (cached !== undefined) return cached
  const acts = parseActs(tokens)
  seen.set(tokens, acts)
  return acts
}

/** The acts of each sentence's tokens, parsed once (objections, pains and next steps all ask). */
const seen = new WeakMap<ReadonlyArray<Token>, ReadonlyArray<Act>>()

const parseActs = (tokens: ReadonlyArray<Token>): Array<Act> => {
  if (tokens.length === 0) return []
  const { text, starts } = textOf(tokens)
  const tokenAt = (char: number): number => {
    let k = 0
    while (k + 1 < starts.length && starts[k + 1]! <= char) k++
    return k
  }
  const verbs = nlp(text).verbs().json({ offset: true }) as ReadonlyArray<VerbJson>
  const out: Array<Act> = []
  /** Whether each act of `out` is negated: a verb joined to a negated one shares its "not" ("I won't try and sell you anything"). */
  const negatives: Array<boolean> = []
  for (const v of verbs) {
    const at = tokenAt(v.offset.start)
    const infinitive = v.verb.infinitive.toLowerCase()
    const word = tokens[at]!.word
    if (word === "let's" || (word === "let" && tokens[at + 1]?.word === "us")) continue
    if (["will", "shall", "can", "could", "would", "should", "might", "may", "must"].includes(word) && v.verb.auxiliary === "") continue
    // "Does ten o'clock work?": a question's opening auxiliary is no act of its own
    if (["do", "does", "did"].includes(word) && (at === 0 || clauseEnd(tokens[at - 1]!.raw)) && at + 1 < tokens.length) continue
    // "by the catch-up on Thursday": a word after an article or a possessive is a noun, whatever its tag
    if (at > 0 && DETERMINERS.has(tokens[at - 1]!.word) && v.verb.auxiliary === "") continue
    const aux = v.verb.auxiliary.toLowerCase()
    const previous = out[out.length - 1]
    // "I'll let our accountant know": the verb after "let" and its object completes the "let"
    if (previous !== undefined && previous.infinitive === "let" && !previous.inert && at - previous.at <= 4 && v.verb.auxiliary === "") continue
    // "I'll aim to have it done", "we'll try to get it signed": the infinitive completes the act before it
    if (previous !== undefined && tokens[at - 1]?.word === "to" && at - previous.at <= 3 && !previous.inert) continue
    // the subject: the word before the verb, skipping adverbs and auxiliaries; compromise starts
    // "I'll have" at "I'll", whose "'ll" is the auxiliary: then the subject is that word itself
    let k = at - 1
    if (word.includes("'") && (SELF.has(word) || SHARED.has(word) || OTHER.has(word))) k = at
    else while (k >= 0 && BETWEEN.has(tokens[k]!.word) && !clauseEnd(tokens[k]!.raw)) k--
    const before = k >= 0 ? tokens[k]!.word : ""
    const brokenBefore = k < 0 || (k < at && clauseEnd(tokens[k]!.raw))
    let actor: Actor
    let subject = k >= 0 ? k : at
    let request = false
    /** "I'll get it approved and have the redlines back": the verb shares the previous act's subject and auxiliary. */
    let conjoined = false
    if (SELF.has(before) || before === "let") actor = "self"
    else if (SHARED.has(before)) actor = before === "us" && tokens[k - 1]?.word !== "let" ? "third" : "shared"
    // "I'll send you last year's figures": "you" right after a verb is its object, and what follows belongs to that act
    else if (OTHER.has(before) && before === "you" && previous !== undefined && !previous.inert && k - previous.at <= 2 && k > previous.at &&
      !tokens.slice(previous.at, k).some((t) => clauseEnd(t.raw))) continue
    else if (OTHER.has(before)) {
      actor = "other"
      const auxBefore = tokens[k - 1]?.word ?? ""
      request = REQUEST_AUX.has(auxBefore)
    } else if (k >= 1 && OUR.has(tokens[k - 1]!.word) && !brokenBefore) {
      actor = "self"
      subject = k - 1
    } else if (CONJUNCTIONS.has(before) && previous !== undefined) {
      actor = previous.actor
      request = previous.request
      subject = previous.subject
      conjoined = true
    } else if (brokenBefore || CONJUNCTIONS.has(before) || ["please", "so", "then", "now", "okay", "ok", "great"].includes(before)) {
      // no subject: an imperative ("send me…"), or "will do" with an elided "I"
      actor = aux === "will" || aux === "shall" ? "self" : "other"
      request = actor === "other"
      subject = at
    } else if (previous !== undefined && at - previous.at <= 12 && !SUBORDINATORS.has(before) && tokens[at - 1]?.word !== "to") {
      continue // a verb inside the previous act's phrase ("have the redlines back to you")
    } else actor = "third"
    // "if we write…", "what you'd get", "to catch up": a condition, a description, an infinitive
    const opener = tokens[subject - 1]?.word ?? ""
    const subordinate = SUBORDINATORS.has(opener) || SUBORDINATORS.has(before) || tokens[at - 1]?.word === "to"
    const form = v.verb.grammar.form ?? ""
    const past = PAST_FORMS.has(form) || (v.verb.grammar.tense === "PastTense" && aux === "")
    // "I have Tuesday free", "we have a board meeting on the ninth": a present "have" with no auxiliary is what
    // one has, not an action ("I'll have it to you by Monday" keeps its auxiliary and stays one)
    const holding = infinitive === "have" && aux === "" && !past && !conjoined && v.verb.grammar.tense !== "FutureTense"
    const offer = (actor === "self" || actor === "shared") && aux.split(/\s+/).some((a) => OFFER_AUX.has(a)) && !isQuestionAt(tokens, subject)
    const negative = v.verb.negative || (conjoined && negatives[negatives.length - 1] === true)
    negatives.push(negative)
    out.push({
      at,
      subject,
      actor,
      request,
      offer,
      inert: negative || past || subordinate || holding || (NOT_ACTIONS.has(infinitive.split(/\s+/)[0] ?? "") && !informs(tokens, at, infinitive, aux, before)) ||
        v.verb.grammar.copula === true,
      past,
      infinitive,
      aux: conjoined && previous !== undefined && aux === "" ? previous.aux : aux,
      form: conjoined && previous !== undefined && aux === "" ? previous.form : form
    })
  }
  return out
}

/**
 * "I'll tell him tonight", "I'll let Morag know this afternoon", "please let me know today": telling someone, promised or asked
 * for, is an act after the call; "I tell you", "let me explain" are not.
 */
const informs = (tokens: ReadonlyArray<Token>, at: number, infinitive: string, aux: string, before: string): boolean => {
  const verb = infinitive.split(/\s+/)[0] ?? ""
  const letKnow = verb === "let" && tokens.slice(at + 1, at + 5).some((t) => t.word === "know")
  if (verb !== "tell" && !letKnow) return false
  if (verb === "tell" && ["you", "me"].includes(tokens[at + 1]?.word ?? "") && ["what", "that", "the", "about", "honestly"].includes(tokens[at + 2]?.word ?? "")) return false
  return /\b(?:will|shall|going|gonna)\b/.test(aux) || tokens[at]!.word.endsWith("'ll") || before === "please"
}

/** "can we…", "shall we…", "could you…": the subject follows an auxiliary at the clause's start. */
export const isQuestionAt = (tokens: ReadonlyArray<Token>, subject: number): boolean =>
  subject > 0 && ["can", "could", "shall", "should", "would", "will"].includes(tokens[subject - 1]!.word)
