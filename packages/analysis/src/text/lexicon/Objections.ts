/**
 * Objections raised by the buyer: the phrase patterns of each kind, and the kind a sentence raises.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { phrases } from "./Phrases.js"
import { plain, type Token } from "./Tokens.js"

export type ObjectionKind = "price" | "budget" | "timing" | "authority" | "need" | "competitor"

/**
 * Objection phrases per kind, in the order kinds are tried: a sentence gets the first kind that
 * matches. Price is about what we charge; budget about the buyer's money. A competitor merely
 * mentioned counts ("we are also looking at one other vendor"): the rep should explore it.
 */
export const OBJECTION_PATTERNS: ReadonlyArray<readonly [ObjectionKind, RegExp]> = [
  ["price", phrases(
    "too expensive", "(quite|very|really|rather|a bit|pretty) expensive", "expensive for us", "(the|your) price( is| was|s are| point)",
    "pricing (is|was|seems)", "(the )?cost is( too)? (high|a problem|an issue)", "costs too much", "too (much money|pricey|costly)",
    "cannot justify the (cost|price)", "cheaper", "price is a problem", "(over|above|exceeds) (our|the) budget"
  )],
  ["budget", phrases(
    "no budget", "(do not|did not) have (the |a |any )?budget", "budget (is|was) (tight|spent|frozen|gone|limited|used up|already|closer to|only|capped)",
    "out of (our |the )?budget", "not in (the|our|this year's) budget", "beyond (our|the) budget", "cannot afford", "can not afford",
    "budget (freeze|cuts?)", "budget for [a-z ]{1,30} is"
  )],
  ["timing", phrases(
    "not the right time", "(bad|wrong) time", "next (quarter|year)", "too busy", "(not|no) (a )?priority( right now)?", "not right now",
    "maybe later", "(revisit|circle back|check back)( on)?( this| it)? (later|in|next|after)", "wait (until|till)", "not (this|until) (quarter|year)",
    "after (the|our) (holidays|quarter|budget|reorg|renewal)", "(hiring|budget|spending) freeze", "let me (see|think)"
  )],
  ["authority", phrases(
    "(need|have|would have|will have) to (check|talk|speak|run (it|this|that) by|clear (it|this) with|ask)( with| to)? (my|our|the|him|her|them)",
    "not my (call|decision)", "not up to me", "(is not|not) my decision", "above my pay grade", "(need|get) (approval|sign off|buy in) from",
    "cannot (decide|sign)", "(my|our) (boss|manager|cfo|ceo|vp|director|board) (has|have|needs|need|would need) to (approve|sign|decide|see)"
  )],
  ["need", phrases(
    "(do not|did not) (really )?need", "no need", "already have (a|an|something|one|that|what)", "(happy|fine|good) with (what|our|the) (we|current|existing|one)",
    "not (really )?(interested|a need|a fit)", "(do not|cannot) see (the|a) (need|value|point)", "we are (fine|good|ok|okay) (for now|as is)", "works (fine|well) for us"
  )],
  ["competitor", phrases(
    "other vendors?", "another (vendor|provider|tool|solution)", "(looking at|talking to|evaluating|considering) (one |two |a few |some )?(other|another|alternatives?|different|options)",
    // "competitor" naming a kind of thing they look at ("checks three competitor sites") is no alternative
    "competitors?(?! (sites?|websites?|rates?|prices?|pricing|data|analysis|research|benchmarks?|comparisons?))", "(going|go|went) with (another|a different|the other)", "(already|currently) (use|using|work with|working with) [a-z]+",
    "(cheaper|better) (elsewhere|option)", "build (it|this|something) (ourselves|in house)"
  )]
]

/** The kind of objection a buyer sentence raises, or null (plain text or a sentence). */
export const objectionKind = (text: string | ReadonlyArray<Token>): ObjectionKind | null => {
  const p = plain(text)
  for (const [kind, pattern] of OBJECTION_PATTERNS) if (pattern.test(p)) return kind
  return null
}
