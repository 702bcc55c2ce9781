/**
 * The lexicons and patterns of the content analysis (ANALYSIS.md step 7: "rule-based and
 * deterministic first (lexicons and patterns, versioned as `method_version`)"). Data, plus the
 * tiny matchers that read it; what is done with a match lives in `Content.ts`.
 *
 * Text comes in two forms:
 * - **tokens**: one per provider word, `raw` as said (with the provider's punctuation, "Dana,")
 *   and `word` bare and lower-cased ("dana"). Fillers, questions and numbers read tokens, because
 *   commas and question marks matter to them.
 * - **plain text** ({@link plain}): the bare words joined by single spaces, contractions expanded
 *   ("don't" → "do not", "let's" → "let us"), hyphens as spaces. Phrase patterns are written
 *   against it, once, in their long form.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */

// ---------------------------------------------------------------------------------------------
// Tokens and plain text

export interface Token {
  /** The word as the provider gave it, punctuation attached. */
  readonly raw: string
  /** Lower case, without leading/trailing punctuation; keeps a leading currency sign and a trailing %. */
  readonly word: string
}

/** Curly quotes and apostrophes as straight ones, so "don’t" matches "don't". */
const straight = (s: string) => s.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d]/g, "\"")

export const toToken = (raw: string): Token => ({
  raw,
  word: straight(raw)
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}$€£]+/u, "")
    .replace(/[^\p{L}\p{N}%]+$/u, "")
})

/** Tokens of a written sentence (tests and ad-hoc use; the analysis makes one token per provider word). */
export const tokenize = (text: string): Array<Token> => text.split(/\s+/).filter((t) => t.length > 0).map(toToken)

/** Contractions written out, so each pattern is written once, in its long form. */
const CONTRACTIONS: Readonly<Record<string, string>> = {
  "can't": "cannot",
  "won't": "will not",
  "shan't": "shall not",
  "let's": "let us",
  "it's": "it is",
  "that's": "that is",
  "what's": "what is",
  "there's": "there is",
  "here's": "here is",
  "he's": "he is",
  "she's": "she is",
  "who's": "who is",
  "how's": "how is",
  "where's": "where is"
}

const expand = (word: string): string =>
  CONTRACTIONS[word] ??
  word
    .replace(/n't$/, " not")
    .replace(/'ll$/, " will")
    .replace(/'re$/, " are")
    .replace(/'m$/, " am")
    .replace(/'ve$/, " have")
    .replace(/'d$/, " would")

/** After a noun's "'s", words that make it "has": "the budget's been cut", "the data's left the UK". */
const HAS_AFTER = new Set(["been", "got", "gotten", "gone", "had", "left", "taken", "come", "grown", "doubled", "halved"])
/** After a noun's "'s", words that make it "is": "nobody's using it", "the number's right"; else it stays a possessive. */
const IS_AFTER = new Set([
  "not", "going", "just", "still", "already", "always", "never", "too", "very", "really", "quite", "pretty", "a", "an", "the", "on", "in",
  "at", "up", "out", "off", "over", "done", "fine", "right", "wrong", "tight", "gone", "frozen", "cut", "capped", "fixed", "set", "locked", "due", "about"
])

/** "nobody's" → "nobody is", "budget's been" → "budget has been"; a possessive ("the board's decision") is kept. */
const expandS = (word: string, next: string | undefined): string => {
  if (!word.endsWith("'s") || CONTRACTIONS[word] !== undefined || next === undefined) return expand(word)
  const stem = word.slice(0, -2)
  if (HAS_AFTER.has(next)) return `${stem} has`
  if (IS_AFTER.has(next) || (next.endsWith("ing") && next.length > 4)) return `${stem} is`
  return word
}

/** The plain text phrase patterns are matched against: bare words, contractions expanded, hyphens as spaces. */
export const plain = (tokens: ReadonlyArray<Token> | string): string => {
  const list = typeof tokens === "string" ? tokenize(tokens) : tokens
  return list
    .map((t, i) => expandS(t.word, list[i + 1]?.word).replace(/(\p{L})-(?=\p{L})/gu, "$1 "))
    .filter((w) => w.length > 0)
    .join(" ")
}

/** A pattern matching any of the phrases as whole words (each phrase may use regex syntax). */
const phrases = (...list: ReadonlyArray<string>): RegExp => new RegExp(`(?:^|\\s)(?:${list.join("|")})(?=\\s|$)`)

const ends = (raw: string, chars: RegExp) => chars.test(raw.replace(/["'”’)\]]+$/, ""))

// ---------------------------------------------------------------------------------------------
// Sentence ends

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set(["mr", "mrs", "ms", "dr", "vs", "etc", "e.g", "i.e", "a.m", "p.m", "approx", "inc", "st"])

/** Whether a provider word ends a sentence (".", "?", "!" or "…", not after an abbreviation). */
export const endsSentence = (raw: string): boolean => {
  if (!ends(raw, /[.?!…]$/)) return false
  const bare = straight(raw).toLowerCase().replace(/^[^\p{L}\p{N}]+/u, "").replace(/[.?!…"')\]]+$/u, "")
  return !(ends(raw, /\.$/) && ABBREVIATIONS.has(bare))
}

/** Whether a provider word ends a clause inside a sentence (a comma or a semicolon). */
export const endsClause = (raw: string): boolean => ends(raw, /[,;:]$/)

/** Words that open a new clause after a comma ("…by Thursday, and let us schedule…"). */
export const CLAUSE_OPENERS: ReadonlySet<string> = new Set(["and", "but", "then", "so", "or"])

// ---------------------------------------------------------------------------------------------
// Fillers (ANALYSIS.md step 6: `filler_rate`, filler words per 100 rep words)

/**
 * Hesitation sounds: always fillers. Backchannels ("mm-hmm", "yeah") are not fillers: they answer
 * someone. "ah" and "oh" are left out: they mostly react to what was said.
 */
export const FILLER_SOUNDS: ReadonlySet<string> = new Set(["um", "umm", "uh", "uhh", "uhm", "er", "erm", "ehm", "hmm"])

/**
 * Hedge words counted as fillers every time: in speech they carry no meaning of their own.
 * Not counted: "actually", "so", "well", "right", "okay", "just": too often they do mean something
 * ("what actually closes business").
 */
export const FILLER_WORDS: ReadonlySet<string> = new Set(["basically", "literally"])

/** Before "sort of" / "kind of", these make it a noun phrase ("what kind of tool"), not a hedge. */
const KIND_OF_DETERMINERS = new Set(["a", "the", "this", "that", "these", "those", "what", "which", "any", "some", "one", "every", "each", "no", "same", "different", "other", "all", "our", "your", "their", "my", "his", "her", "its", "right", "wrong"])

/** After "you know", these make "know" a verb with an object ("you know what we do"). */
const KNOW_OBJECTS = new Set(["what", "how", "where", "when", "why", "who", "whether", "if", "that", "about", "the", "it", "him", "her", "them", "me", "us", "this", "those", "these", "a", "an", "your", "our", "my", "their", "each", "more", "better", "best"])

/** Before "you know", these make it a question or a clause ("do you know", "as you know"). */
const KNOW_OPENERS = new Set(["do", "did", "does", "if", "as", "would", "will", "can", "could", "should", "that", "what", "how", "when", "whether", "unless"])

/** After "I mean", these make "mean" a verb ("I mean it", "I mean to"). */
const MEAN_OBJECTS = new Set(["it", "that", "to", "what", "you", "this", "the", "a", "business"])

/** Before "like", these make it a verb or a preposition ("I like", "would like", "looks like", "a tool like"). */
const LIKE_NOT_FILLER_BEFORE = new Set(["i", "you", "we", "they", "he", "she", "it", "would", "'d", "to", "do", "don't", "did", "didn't", "does", "doesn't", "really", "also", "look", "looks", "looked", "feel", "feels", "felt", "sound", "sounds", "seem", "seems", "something", "anything", "nothing", "just", "much", "more", "most", "exactly", "things", "people", "tools", "tool", "one", "ones"])

export interface FillerMatch {
  /** Index of the first token of the filler. */
  readonly at: number
  /** Tokens it spans (1 or 2). */
  readonly length: number
  readonly filler: string
}

/**
 * The fillers in a run of tokens; each counts once, whatever its length ("you know" is one filler).
 * "like" counts only when set off by a comma ("we, like, never call") or next to another filler,
 * and never after a word that makes it a verb or preposition ("I like it", "tools like this").
 */
export const findFillers = (tokens: ReadonlyArray<Token>): Array<FillerMatch> => {
  const out: Array<FillerMatch> = []
  const word = (i: number) => tokens[i]?.word ?? ""
  const commaBefore = (i: number) => i > 0 && endsClause(tokens[i - 1]!.raw)
  const sentenceStart = (i: number) => i === 0 || endsSentence(tokens[i - 1]!.raw)
  for (let i = 0; i < tokens.length; i++) {
    const w = word(i)
    const next = word(i + 1)
    const prev = sentenceStart(i) ? "" : word(i - 1)
    if (FILLER_SOUNDS.has(w) || FILLER_WORDS.has(w)) {
      out.push({ at: i, length: 1, filler: w })
    } else if (w === "you" && next === "know" && !KNOW_OPENERS.has(prev) && !KNOW_OBJECTS.has(word(i + 2))) {
      out.push({ at: i, length: 2, filler: "you know" })
      i++
    } else if (w === "i" && next === "mean" && !MEAN_OBJECTS.has(endsSentence(tokens[i + 1]!.raw) ? "" : word(i + 2))) {
      out.push({ at: i, length: 2, filler: "i mean" })
      i++
    } else if ((w === "sort" || w === "kind") && next === "of" && !KIND_OF_DETERMINERS.has(prev)) {
      out.push({ at: i, length: 2, filler: `${w} of` })
      i++
    } else if (w === "like" && !LIKE_NOT_FILLER_BEFORE.has(prev)) {
      const setOff = commaBefore(i) || endsClause(tokens[i]!.raw)
      const besideFiller = FILLER_SOUNDS.has(prev) || FILLER_SOUNDS.has(next)
      if (setOff || besideFiller) out.push({ at: i, length: 1, filler: "like" })
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Questions

/** Question words: a question that starts with one is open. */
export const INTERROGATIVES: ReadonlySet<string> = new Set(["what", "why", "how", "who", "whom", "whose", "which", "when", "where"])

/** Auxiliaries and modals that open a yes/no question ("Did anything change…", "Could we book…"). */
export const AUXILIARIES: ReadonlySet<string> = new Set([
  "do", "does", "did", "is", "are", "was", "were", "am", "can", "could", "would", "will", "should", "shall",
  "may", "might", "have", "has", "had", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't",
  "can't", "couldn't", "wouldn't", "won't", "shouldn't", "haven't", "hasn't"
])

/** A subject after an auxiliary makes it a question ("is that", "could we"); "will do" is not one. */
const SUBJECTS = new Set(["i", "you", "we", "they", "he", "she", "it", "that", "this", "there", "these", "those", "your", "the", "anyone", "anything", "anybody", "everyone", "any", "someone", "something"])

/** Words skipped at the start of a spoken sentence before deciding what it is ("Great, what…"). */
const DISCOURSE_MARKERS = new Set(["so", "and", "but", "ok", "okay", "great", "right", "well", "now", "alright", "understood", "sure", "yeah", "yes", "cool", "perfect", "oh", "um", "uh", "then", "also"])

/** Openers of open requests that work as questions ("tell me about…", "walk me through…"). */
const OPEN_REQUEST = /^(tell me|walk me through|talk me through|describe|explain|help me understand)\b/

const firstContentIndex = (tokens: ReadonlyArray<Token>): number => {
  let i = 0
  while (i < tokens.length - 1 && DISCOURSE_MARKERS.has(tokens[i]!.word)) i++
  return i
}

/**
 * Whether a sentence is a question: it ends in "?"; or, when the provider gave no end punctuation,
 * it opens (after "so", "great", …) with a question word or an auxiliary followed by a subject.
 * A sentence ending in "." or "!" is not a question.
 */
export const isQuestion = (tokens: ReadonlyArray<Token>): boolean => {
  const last = tokens[tokens.length - 1]
  if (last === undefined) return false
  if (ends(last.raw, /\?$/)) return true
  if (ends(last.raw, /[.!…]$/)) return false
  const i = firstContentIndex(tokens)
  const first = tokens[i]?.word ?? ""
  const second = tokens[i + 1]?.word ?? ""
  if (INTERROGATIVES.has(first)) {
    // "what we do is…" and "how I see it" are statements; "what prompted you…", "how is it" are not
    return second !== "" && !["i", "we", "you", "they", "he", "she", "if"].includes(second)
  }
  return AUXILIARIES.has(first) && SUBJECTS.has(second)
}

/**
 * An open question asks for an answer in the buyer's words: a question word among its first four
 * words ("What does that cost you…", "Can I ask how…"), or an open request ("Tell me about…").
 * Everything else is closed (yes/no, either/or).
 */
export const isOpenQuestion = (tokens: ReadonlyArray<Token>): boolean => {
  const i = firstContentIndex(tokens)
  const head = tokens.slice(i, i + 4).map((t) => t.word)
  return head.some((w) => INTERROGATIVES.has(w)) || OPEN_REQUEST.test(plain(tokens.slice(i)))
}

// ---------------------------------------------------------------------------------------------
// Objections raised by the buyer

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

// ---------------------------------------------------------------------------------------------
// Pains, metrics and value

/** Pain cues in the buyer's words: something dropping, slipping, costing, hurting. */
export const PAIN_CUES: RegExp = phrases(
  "drop(s|ped|ping)?", "declin(e|es|ed|ing)", "behind (plan|target|quota|forecast)", "miss(es|ed|ing)? (the |our )?(plan|target|quota|number|forecast)",
  "los(e|es|ing)", "lost", "struggl(e|es|ed|ing)", "cost(s|ing)? us", "slip(s|ped|ping)?", "(got|gets|getting) worse", "worse", "problem",
  "issues?", "challenges?", "pain", "frustrat(ed|ing|ion)", "no visibility", "(cannot|can not|could not) see", "go(es)? quiet", "went quiet",
  "churn(s|ed|ing)?", "delays?", "delayed", "too (slow|long)", "lower than (we )?(hoped|expected|planned)",
  "(do|does) not have (the )?time", "wast(e|es|ed|ing)", "bottleneck", "broken", "falling", "fell", "down from", "stuck", "stall(s|ed|ing)?",
  // work done by hand, things that fail or fall through, a cost that comes back
  "by hand", "manually", "line by line", "on paper", "(in|on|own|of) (spreadsheets?|excel)", "(re ?type|types?|typed) (it|them) up", "re ?enter(s|ed|ing)?",
  "(go|goes|going|went|gone) down", "downtime", "outages?", "incidents?", "overtime", "running late", "embarrass(ing|ed)",
  "fall(s)? (between|through|behind)", "charged? (us )?back", "chargebacks?", "penalt(y|ies)",
  "missed ([a-z]+ )?(windows?|deadlines?|dates?|slas?|shipments?|orders?)", "should have (seen|caught|known)",
  "nobody (ever )?(reads?|uses?|showed|looks? at|opens?)", "barely (use|uses|used|open|opens|opened|touch|touches)"
)

/**
 * Pain words that do not state a pain: a negated problem ("I don't have a problem to solve"), a
 * turn of phrase that announces what follows ("here's my problem though"), and the effort of
 * changing vendors ("switching is a pain", a status-quo objection, not a business problem).
 */
export const NOT_PAIN: RegExp = new RegExp(phrases(
  "(no|not a|not any|not really a|(do|does|did) not (really )?have (a|any)|never (had|have) (a|any)|without (a|any)) (real |big |major )?(problems?|issues?|pain|challenges?)( to [a-z]+)?",
  "(here is|that is|this is) (my|the|our) (real |main |big |biggest )?(problem|issue|challenge|pain)( though| then| here)?",
  "(the|my|our) (problem|issue) is",
  "(switching|moving|changing|migrating|(a|another|the) (switch|migration|change))( [a-z]+){0,3} (is|would be|will be|was|is going to be) (a )?(real |huge |big |bit of a )?(pain|hassle)"
).source, "g")

/** The buyer's words with a pain cue once turns of phrase and negated problems are set aside. */
export const hasPainCue = (plainText: string): boolean => PAIN_CUES.test(plainText.replace(NOT_PAIN, " "))

/**
 * A quantified problem without a pain word: the figure says it is a burden. Time or people taken
 * up ("two of them are on the phone most of the day", "spends two hours each morning"), a share
 * of the day, things counted against a whole ("we pay for 120 seats and 60 logged in"), failures
 * counted ("four errors a week"). Only with a number or a share in the same sentence (the caller checks).
 */
export const BURDEN: RegExp = phrases(
  "(spend|spends|spending|take|takes|eat|eats|eat up|eats up|tie up|ties up|tied up|lose|loses|drive|drives|waste|wastes) [a-z0-9 ]{0,30}(hours?|minutes?|days?|weeks?|mornings?|afternoons?|time)",
  "on the phone", "(chase|chases|chasing) [a-z ]{0,20}", "disappears?", "(most|half|all|a third|a quarter) of (the|my|our|their|his|her) (day|morning|week|month|time)",
  "(pay|paying|paid) for [a-z0-9 ]{1,30} (seats|licen[cs]es|users)", "(logged|log) in", "(only|just|barely) [a-z0-9 ]{0,20}(use|uses|using|open|opens)",
  "[a-z0-9]+ (errors|mistakes|defects|complaints|returns|escalations|tickets|failures|breakdowns) (a|an|per|every|each) (day|week|month|shift|hour)",
  "(error|failure|defect|return|complaint|mispick|scrap|rework|no show|churn) rates?"
)

/** A share said in words, a figure: "a third of their day", "half the team", "two thirds of". */
export const SHARE: RegExp = phrases("(a|one|two) (third|quarter)s? of", "two thirds", "three quarters", "half (of )?(the|their|our|my|his|her|a|an|all)")
/** A share, or "most of the day": enough to make a burden a pain, not a business figure. */
export const PROPORTION: RegExp = new RegExp(`${SHARE.source}|${phrases("most of (the|their|our|my|his|her) (day|morning|week|time)").source}`)

/** Words that make a number a business metric ("win rate", "pipeline", "bookings"…). */
export const METRIC_CUES: RegExp = phrases(
  "win rates?", "close rates?", "conversion", "revenue", "pipeline", "quota", "bookings?", "plan", "target", "forecast", "cycles?",
  "churn", "retention", "margin", "growth", "deals?", "budget", "cost", "costs", "spend", "arr", "mrr", "acv", "attainment", "ramp",
  "delay", "slip(s|ped)?", "behind", "dropped", "drop", "per (rep|month|quarter|year|week|day|hour|person)", "a (month|quarter|year|week|day)",
  "downtime", "overtime", "rates?", "(an|per|each|every) hour", "volume"
)

/**
 * A sentence about who approves ("anything over a few hundred has to go past our owner", "I can
 * sign up to forty"): it names an authority, not a metric or a criterion.
 */
export const APPROVAL: RegExp = phrases(
  "signs?( it)? off", "sign(s|ed)? (it|this|for|on|up to|anything|everything|the)", "(can|could|cannot|has to|have to|must|will|would|to) sign", "approv(e|es|ed|al|ing)",
  "(has|have|needs?) to go (past|to|through|up)", "goes (past|up|to [a-z]+ for)", "go(es)? up the chain", "final (say|decision|call)", "budget holder"
)

/** The rep's value and ROI language: what the buyer gets back. */
export const VALUE_CUES: RegExp = phrases(
  "roi", "return on (investment|the investment|your investment)", "pays? for itself", "paid for itself", "pay(s)? back", "payback", "pay off",
  "sav(e|es|ed|ing|ings)", "worth (it|the|every)", "recover(s|ed|ing)?", "recoup", "break even", "(increase|increases|boost|boosts|lift|lifts|raise|raises|improve|improves) (your|the|their) [a-z ]{0,20}(rate|revenue|pipeline|bookings|win)",
  "(cut|cuts|reduce|reduces|shorten|shortens) (your|the|their) [a-z ]{0,20}(cycle|time|cost|churn|ramp)", "more (revenue|deals|pipeline|bookings)",
  "is [a-z0-9 $%]{0,40}(thousand|million|hundred|percent|dollars|euros|pounds|[0-9][0-9,.]*[km%]?) against", "compared (to|with) (the|what|your)", "bottom line",
  "(come|comes|came) out ahead", "(lower|less|cheaper) than (what )?(you|people|they|most) (are )?(pay|paying|spend|spending)", "a win for (you|your)",
  "(exactly |just )?the (sort|kind) of thing [a-z ]{0,30}help(s)? with"
)

/**
 * A relative figure in the rep's words: a change by a share ("takes the driving time down by around
 * fifteen percent", "brought mispicks down by well over half"), time or work taken off ("take sixty
 * percent of those calls off the desk"), a ratio ("nine in ten lines matched"), capacity that
 * covers growth. Before/after ("from ten days to six") is read on the numbers (`Content.ts`).
 */
export const RELATIVE_VALUE: RegExp = phrases(
  "(down|up|off|back|fall|falls|fell|drop|drops|dropped|lower|higher|cut|cuts|reduce|reduces|reduced|shorten|shortens|shortened)( [a-z0-9 ]{1,40})? by (about |around |roughly |nearly |almost |over |well over |more than |up to )?([a-z0-9]+ )?(percent|half|a third|a quarter|two thirds|[0-9]+%)",
  "(take|takes|taking|took|knock|knocks|knocking|shave|shaves|shaving|cut|cuts|cutting) [a-z0-9 ]{1,40} off( (the|your|their|every|each))?",
  "(one|two|three|four|five|six|seven|eight|nine|[0-9]+) (in|out of) (ten|a hundred|[0-9]+)",
  "(cover|covers|handle|handles|absorb|absorbs|carry|carries) (your|the|that|this|their) [a-z ]{0,20}(growth|volume|increase|peak|extra)",
  "(without|no) (any )?(extra|more|additional|new) (hires|hiring|people|headcount|staff|heads)"
)

/** The rep applies a figure to the buyer's own case: "which for you would…", "across your eighty technicians is…". */
export const APPLIED_FIGURE: RegExp = phrases(
  "(for you|for your [a-z]+) (would|that is|is|means)", "(which|that) (for you )?(would|is|comes to|adds up|means)", "(across|on|for) (your|those|the|their) [a-z0-9 ]{0,30}(would|is|that is|comes to)",
  "would have been", "adds up"
)

/** The rep refers back to what the buyer said ("you mentioned", "your number"). */
export const BACK_REFERENCE: RegExp = phrases(
  "you (said|mentioned|told me|told us|were saying|showed me|gave me)", "as you said", "(your|that) (number|figure|drop|gap|target|goal)", "that (drop|delay|gap|loss|slip)",
  "your [a-z]+ (told|showed|gave) (me|us)", "(the|those) [a-z0-9 ]{1,30} you (had|have|mentioned|described)"
)

// ---------------------------------------------------------------------------------------------
// Numbers: spelled out ("thirty one percent") and written ("31%", "$400,000", "$50k")

const SMALL: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19
}
const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90
}
const SCALES: Readonly<Record<string, number>> = { thousand: 1e3, million: 1e6, billion: 1e9 }

/** Units after a number, normalised to one name. */
const UNITS: Readonly<Record<string, string>> = {
  percent: "percent", "%": "percent", pct: "percent", percentage: "percent",
  dollars: "dollars", dollar: "dollars", bucks: "dollars", usd: "dollars", grand: "dollars",
  euros: "euros", euro: "euros", eur: "euros", pounds: "pounds", gbp: "pounds",
  days: "days", day: "days", weeks: "weeks", week: "weeks", months: "months", month: "months",
  quarters: "quarters", quarter: "quarters", years: "years", year: "years", hours: "hours", hour: "hours",
  minutes: "minutes", minute: "minutes", reps: "reps", rep: "reps", people: "people", persons: "people",
  calls: "calls", call: "calls", deals: "deals", deal: "deals", seats: "seats", seat: "seats", users: "users",
  customers: "customers", hires: "hires", accounts: "accounts", leads: "leads", meetings: "meetings", demos: "demos"
}
/** Units of money: a number with one of these is an amount. */
export const MONEY_UNITS: ReadonlySet<string> = new Set(["dollars", "euros", "pounds"])
/** Units that make a number a business figure (amounts, rates, durations, counts of the business). */
export const METRIC_UNITS: ReadonlySet<string> = new Set(["percent", "dollars", "euros", "pounds", "days", "weeks", "months", "quarters", "years", "reps", "deals", "customers", "accounts", "seats", "users", "hires", "leads"])

export interface NumberMention {
  readonly value: number
  /** "percent", "dollars", "days", "reps" … or null when none follows. */
  readonly unit: string | null
  /** Token index of the first word of the number (its currency sign included). */
  readonly from: number
  /** Token index after its last word (its unit included). */
  readonly to: number
}

const CURRENCY_SIGNS: Readonly<Record<string, string>> = { $: "dollars", "€": "euros", "£": "pounds" }

/** A written number: "31", "31%", "$400,000", "$50k", "1.2m", "2.5". */
const WRITTEN = /^([$€£])?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(k|m|mm|bn|b|%)?$/

const parseWritten = (word: string): { value: number; unit: string | null; scaled: boolean } | null => {
  const m = WRITTEN.exec(word)
  if (m === null) return null
  let value = Number(m[2]!.replace(/,/g, "") + (m[3] ?? ""))
  const suffix = m[4]
  if (suffix === "k") value *= 1e3
  else if (suffix === "m" || suffix === "mm") value *= 1e6
  else if (suffix === "bn" || suffix === "b") value *= 1e9
  const unit = suffix === "%" ? "percent" : m[1] !== undefined ? CURRENCY_SIGNS[m[1]]! : null
  return { value, unit, scaled: suffix !== undefined && suffix !== "%" }
}

/** A word split on hyphens ("forty-five" → forty, five) when every part is a number word. */
const numberParts = (word: string): Array<string> | null => {
  const parts = word.split("-")
  return parts.every((p) => p in SMALL || p in TENS || p === "hundred" || p in SCALES) ? parts : null
}

/**
 * Reads spelled-out number words from token `i` on: "thirty one" → 31, "four hundred thousand"
 * → 400000, "a hundred and five" → 105, "two point five" → 2.5. Returns the value and the index
 * after its last word, or null when no number starts at `i`.
 */
const readSpelled = (tokens: ReadonlyArray<Token>, i: number): { value: number; to: number } | null => {
  let total = 0
  let group = 0
  let last: "none" | "small" | "ten" | "hundred" | "scale" = "none"
  let lastScale = Infinity
  let any = false
  const parts: Array<{ w: string; t: number }> = []
  // flatten hyphenated words, remembering the token each part came from
  for (let k = i; k < tokens.length; k++) {
    const w = tokens[k]!.word
    const split = numberParts(w)
    if (split === null) {
      parts.push({ w, t: k })
      if (!(w === "a" || w === "and" || w === "point")) break
    } else for (const p of split) parts.push({ w: p, t: k })
    // a word followed by punctuation ends the number ("thirty, and…")
    if (endsClause(tokens[k]!.raw) || endsSentence(tokens[k]!.raw)) break
  }
  let p = 0
  let endToken = i
  for (; p < parts.length; p++) {
    const { w, t } = parts[p]!
    const nextW = parts[p + 1]?.w ?? ""
    if (w === "a" && !any && (nextW === "hundred" || nextW in SCALES)) {
      group = 1
      last = "small"
      continue
    }
    if (w === "and" && (last === "hundred" || last === "scale") && (nextW in SMALL || nextW in TENS)) continue
    if (w in SMALL && (last === "none" || last === "ten" || last === "hundred" || last === "scale")) {
      if (last === "ten" && SMALL[w]! >= 10) break
      if (w === "zero" && any) break
      group += SMALL[w]!
      last = "small"
    } else if (w in TENS && (last === "none" || last === "hundred" || last === "scale")) {
      group += TENS[w]!
      last = "ten"
    } else if (w === "hundred" && (last === "small" || last === "ten") && group > 0 && group < 100) {
      group *= 100
      last = "hundred"
    } else if (w in SCALES && group > 0 && SCALES[w]! < lastScale) {
      total += group * SCALES[w]!
      lastScale = SCALES[w]!
      group = 0
      last = "scale"
    } else break
    any = true
    endToken = t + 1
  }
  if (!any) return null
  let value = total + group
  // decimals: "two point five"
  if (parts[p]?.w === "point" && parts[p + 1] !== undefined && parts[p + 1]!.w in SMALL && SMALL[parts[p + 1]!.w]! < 10) {
    let digits = ""
    let q = p + 1
    while (q < parts.length && parts[q]!.w in SMALL && SMALL[parts[q]!.w]! < 10) digits += String(SMALL[parts[q++]!.w])
    value = Number(`${value}.${digits}`)
    endToken = parts[q - 1]!.t + 1
    // "two point five million"
    const scale = parts[q]?.w
    if (scale !== undefined && scale in SCALES) {
      value *= SCALES[scale]!
      endToken = parts[q]!.t + 1
    }
  }
  return { value, to: endToken }
}

/** The unit that follows a number at token `i` ("percent", "per cent", "dollars", "days"…). */
const readUnit = (tokens: ReadonlyArray<Token>, i: number): { unit: string; to: number } | null => {
  const w = tokens[i]?.word
  if (w === undefined) return null
  if (w === "per" && tokens[i + 1]?.word === "cent") return { unit: "percent", to: i + 2 }
  const unit = UNITS[w]
  return unit === undefined ? null : { unit, to: i + 1 }
}

/**
 * Every number in a run of tokens, spelled or written, with the unit that follows it:
 * "thirty one percent" → 31 percent, "four hundred thousand dollars" → 400000 dollars,
 * "$50k" → 50000 dollars, "fifty thousand" → 50000 (no unit), "31%" → 31 percent.
 */
export const findNumbers = (tokens: ReadonlyArray<Token>): Array<NumberMention> => {
  const out: Array<NumberMention> = []
  let i = 0
  while (i < tokens.length) {
    const word = tokens[i]!.word
    let value: number
    let unit: string | null = null
    let to: number
    const written = parseWritten(word)
    const sign = CURRENCY_SIGNS[word]
    if (written !== null) {
      value = written.value
      unit = written.unit
      to = i + 1
      // "50 thousand", "$1.2 million"
      const scale = tokens[to]?.word
      if (scale !== undefined && !written.scaled && scale in SCALES) {
        value *= SCALES[scale]!
        to++
      }
    } else if (sign !== undefined && tokens[i + 1] !== undefined && readSpelled(tokens, i + 1) !== null) {
      // "$ fifty thousand" (a sign on its own)
      const spelled = readSpelled(tokens, i + 1)!
      value = spelled.value
      unit = sign
      to = spelled.to
    } else {
      const spelled = readSpelled(tokens, i)
      if (spelled === null) {
        i++
        continue
      }
      value = spelled.value
      to = spelled.to
    }
    // "k" as its own word ("fifty k"), then a unit word ("dollars", "percent", "days")
    if (tokens[to]?.word === "k" && !endsClause(tokens[to - 1]!.raw)) {
      value *= 1e3
      to++
    }
    if (!endsClause(tokens[to - 1]!.raw) && !endsSentence(tokens[to - 1]!.raw)) {
      const u = readUnit(tokens, to)
      if (u !== null && (unit === null || unit === u.unit)) {
        unit = u.unit
        to = u.to
      }
    }
    out.push({ value, unit, from: i, to })
    i = to
  }
  return out
}

/** Numbers in written text (tests and ad-hoc use). */
export const parseNumbers = (text: string): Array<NumberMention> => findNumbers(tokenize(text))

// ---------------------------------------------------------------------------------------------
// Next steps: actions, days and times

/** Actions that make a next step: meetings to book, things to send, calls to make. */
export const NEXT_STEP_CUES: RegExp = phrases(
  "book", "schedule", "reschedule", "set up (a |the |some )?(call|meeting|time|demo|session)", "send (you|me|over|it|the|an|a|them|her|him|us)",
  "(calendar )?invite", "on the calendar", "calendar", "follow up", "check (back|in)", "circle back", "reconnect", "meet", "catch up",
  "call (you|me|back)", "touch base", "walk (you |her |him |them )?through", "demo", "forward", "get back to", "put (a|the) (call|meeting)",
  "reach out", "talk (again|next)", "speak (again|next)", "sync", "loop in", "pencil"
)

/**
 * What the call itself is for ("I want to walk you through our platform today", "the demo
 * today"): with "today" and no clock time, an agenda, not a next step after the call.
 */
export const AGENDA_CUES: RegExp = phrases(
  "walk (you |her |him |them )?through", "demo", "show (you|how)", "go (over|through)", "talk about", "cover", "discuss"
)

/** A next step's "today" that only names this call's agenda (see AGENDA_CUES). */
export const isAgendaToday = (tokens: ReadonlyArray<Token>, when: When): boolean =>
  when.day === "today" && when.time === null && AGENDA_CUES.test(plain(tokens))

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30
}
/** Words after an ordinal that make it something other than a date ("the fourth quarter"). */
const NOT_A_DATE_AFTER = new Set(["quarter", "time", "call", "meeting", "one", "step", "thing", "point", "option", "rep", "year", "week", "month", "page"])

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const ordinalSuffix = (n: number) => (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th")

/** A day-of-month ordinal at token i: "fourth", "twenty first", "4th", "21st". */
const readOrdinal = (tokens: ReadonlyArray<Token>, i: number): { day: number; to: number } | null => {
  const w = tokens[i]?.word ?? ""
  const digits = /^(\d{1,2})(st|nd|rd|th)$/.exec(w)
  if (digits !== null) return { day: Number(digits[1]), to: i + 1 }
  if (w in ORDINALS) return { day: ORDINALS[w]!, to: i + 1 }
  if ((w === "twenty" || w === "thirty") && (tokens[i + 1]?.word ?? "") in ORDINALS) {
    const day = TENS[w]! + ORDINALS[tokens[i + 1]!.word]!
    return day <= 31 ? { day, to: i + 2 } : null
  }
  return null
}

/**
 * Hours without am/pm are read as business hours: 1–6 are afternoon (13:00–18:00), 7–11 morning,
 * 12 noon. "at two" → 14:00, "ten o'clock" → 10:00.
 */
export const hour24 = (hour: number, meridiem: "am" | "pm" | null): number => {
  if (meridiem === "am") return hour === 12 ? 0 : hour
  if (meridiem === "pm") return hour === 12 ? 12 : hour + 12
  return hour >= 1 && hour <= 6 ? hour + 12 : hour
}

const pad2 = (n: number) => String(n).padStart(2, "0")

const MERIDIEM: Readonly<Record<string, "am" | "pm">> = { am: "am", "a.m": "am", pm: "pm", "p.m": "pm" }

/** A clock time at token i ("two", "ten o'clock", "2pm", "10:30", "two thirty pm"), or null. */
const readClock = (tokens: ReadonlyArray<Token>, i: number, afterAt: boolean): { time: string; to: number } | null => {
  const w = tokens[i]?.word ?? ""
  let hour: number | null = null
  let minute = 0
  let to = i + 1
  let meridiem: "am" | "pm" | null = null
  const written = /^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m|p\.m)?$/.exec(w)
  if (written !== null) {
    hour = Number(written[1])
    minute = written[2] === undefined ? 0 : Number(written[2])
    if (written[3] !== undefined) meridiem = MERIDIEM[written[3]]!
  } else if (w in SMALL && SMALL[w]! >= 1 && SMALL[w]! <= 12) {
    hour = SMALL[w]!
    // "two thirty", "ten fifteen", "two forty five"
    const m = tokens[to]?.word ?? ""
    if (m === "fifteen" || m === "thirty" || m === "forty" || m === "oh") {
      const spelled = m === "oh" ? null : readSpelled(tokens, to)
      if (spelled !== null && spelled.value < 60 && !endsClause(tokens[i]!.raw)) {
        minute = spelled.value
        to = spelled.to
      }
    }
  }
  if (hour === null || hour < 1 || hour > 12 || minute >= 60) return null
  const next = tokens[to]?.word ?? ""
  if (next === "o'clock" || next === "oclock") {
    to++
  } else if (next in MERIDIEM) {
    meridiem = MERIDIEM[next]!
    to++
  } else if (meridiem === null && written?.[2] === undefined && !afterAt) {
    return null // a bare number is a time only after "at" ("at two") or with o'clock/am/pm
  }
  if (next in UNITS) return null // "at two percent"
  if ((tokens[to]?.word ?? "") === "in" && tokens[to + 1]?.word === "the") {
    const part = tokens[to + 2]?.word
    if (part === "morning") meridiem = "am"
    if (part === "afternoon" || part === "evening") meridiem = "pm"
    if (meridiem !== null) to += 3
  }
  return { time: `${pad2(hour24(hour, meridiem))}:${pad2(minute)}`, to }
}

export interface When {
  /** "Tuesday", "tomorrow", "next week", "in 2 weeks", "the 4th", "March 4"… or null. */
  readonly day: string | null
  /** "14:00" or null. */
  readonly time: string | null
}

/**
 * The day and time a run of tokens names: "next Tuesday" → Tuesday, "Tuesday at two" → Tuesday
 * 14:00, "Friday at 10 o'clock" → Friday 10:00, "in two weeks" → in 2 weeks, "for the fourth" →
 * the 4th. The first day and the first time found; null when neither is named. No calendar date
 * is computed: the recording date is unknown.
 */
export const findWhen = (tokens: ReadonlyArray<Token>): When | null => {
  let day: string | null = null
  let time: string | null = null
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]!.word
    const next = tokens[i + 1]?.word ?? ""
    if (day === null) {
      if (WEEKDAYS.includes(w)) day = capital(w)
      else if (w === "tomorrow" || w === "today" || w === "tonight") day = w
      else if ((w === "next" || w === "this") && (next === "week" || next === "month")) day = `${w} ${next}`
      else if (w === "end" && next === "of") {
        const k = tokens[i + 2]?.word === "the" ? i + 3 : i + 2
        const what = tokens[k]?.word ?? ""
        if (["day", "week", "month", "quarter", "year"].includes(what)) day = `end of the ${what}`
        else if (MONTHS.includes(what)) day = `end of ${capital(what)}`
      } else if (w === "in" || w === "within") {
        const n = next === "a" && ["week", "day", "month"].includes(tokens[i + 2]?.word ?? "")
          ? { value: 1, to: i + 2 }
          : next === "a" && tokens[i + 2]?.word === "couple" && tokens[i + 3]?.word === "of"
            ? { value: 2, to: i + 4 }
            : readSpelled(tokens, i + 1) ?? (/^\d+$/.test(next) ? { value: Number(next), to: i + 2 } : null)
        const unit = tokens[n?.to ?? -1]?.word ?? ""
        const name = UNITS[unit]
        if (n !== null && (name === "days" || name === "weeks" || name === "months")) {
          day = `in ${n.value} ${n.value === 1 ? name.slice(0, -1) : name}`
        }
      } else if (MONTHS.includes(w) && !(w === "may" && !/^\d|^(the|first|second|third)/.test(next))) {
        const k = next === "the" ? i + 2 : i + 1
        const o = readOrdinal(tokens, k) ?? (/^\d{1,2}$/.test(tokens[k]?.word ?? "") ? { day: Number(tokens[k]!.word), to: k + 1 } : null)
        if (o !== null && o.day >= 1 && o.day <= 31) day = `${capital(w)} ${o.day}`
      } else if (w === "the") {
        const o = readOrdinal(tokens, i + 1)
        const after = tokens[o?.to ?? -1]?.word ?? ""
        if (o !== null && !NOT_A_DATE_AFTER.has(after) && !(after in SMALL || after in TENS || /^\d/.test(after))) {
          const month = tokens[o.to]?.word === "of" ? tokens[o.to + 1]?.word ?? "" : ""
          day = MONTHS.includes(month) ? `${capital(month)} ${o.day}` : `the ${o.day}${ordinalSuffix(o.day)}`
        }
      }
    }
    if (time === null) {
      if (w === "noon" || w === "midday") time = "12:00"
      else if ((w === "half" || w === "quarter") && next === "past") {
        const c = readClock(tokens, i + 2, true)
        if (c !== null) time = c.time.replace(/:00$/, w === "half" ? ":30" : ":15")
      } else if (w === "at") {
        const c = readClock(tokens, i + 1, true)
        if (c !== null) time = c.time
      } else {
        const c = readClock(tokens, i, false)
        if (c !== null) time = c.time
      }
    }
  }
  return day === null && time === null ? null : { day, time }
}

/** The due phrase of a next step: "Tuesday 14:00", "Thursday", "14:00"; null when nothing was named. */
export const formatDue = (when: When | null): string | null => {
  if (when === null) return null
  const parts = [when.day, when.time].filter((p): p is string => p !== null)
  return parts.length > 0 ? parts.join(" ") : null
}

/** Who commits to an action, from its wording. */
export type Commitment = "self" | "other" | "shared"

/** "I will…" commits the speaker; "can you…" / "send me…" the other side; "let us…" / "could we…" both. */
const COMMITMENTS: ReadonlyArray<readonly [Commitment, RegExp]> = [
  ["self", phrases("i will", "i shall", "i can", "i am going to", "i would be happy to", "let me", "i am (sending|booking|scheduling)")],
  ["other", phrases("(can|could|would|will) you", "you (will|can|could|should)", "please", "^(send|book|schedule|check|call|email|forward|set|put|give|get|loop)")],
  ["shared", phrases("let us", "we (will|can|could|should|shall)", "(could|can|shall|should) we", "how about we", "why do not we")]
]

/** The commitment the earliest of these phrases makes in a clause, or null when none does. */
export const commitmentOf = (text: string | ReadonlyArray<Token>): Commitment | null => {
  const p = plain(text)
  let best: { c: Commitment; at: number } | null = null
  for (const [c, pattern] of COMMITMENTS) {
    const m = pattern.exec(p)
    if (m !== null && (best === null || m.index < best.at)) best = { c, at: m.index }
  }
  return best?.c ?? null
}

/** The other side agrees to a proposal ("Tuesday at two works", "Friday at ten is fine", "will do"). */
export const AGREEMENT_CUES: RegExp = phrases(
  "^(yes|yeah|yep|sure|ok|okay|great|perfect|deal|absolutely|definitely|of course|will do|sounds good)", "works( for me| for us)?",
  "is fine", "(that|this) (is )?fine", "sounds (good|great)", "see you (then|there)", "send (me |us )?the invite", "i will be there", "looking forward",
  // accepting an offer: "please do", "that would be great", "lovely"
  "^(please do|yes please|lovely|brilliant|good stuff|cool|fine)", "(that|it|which) would be (really |very |so |super )?(great|helpful|useful|perfect|lovely|good)"
)
const DISAGREEMENT = phrases("(does|do|will|would) not work", "not (fine|good)", "cannot (make|do)", "^no\\b")

export const isAgreement = (text: string | ReadonlyArray<Token>): boolean => {
  const p = plain(text)
  return AGREEMENT_CUES.test(p) && !DISAGREEMENT.test(p)
}

// ---------------------------------------------------------------------------------------------
// Qualification cues (MEDDPICC, BANT, SPIN)

export type QualificationElementName =
  | "metrics" | "economic_buyer" | "decision_criteria" | "decision_process" | "paper_process" | "identify_pain" | "champion" | "competition"
  | "budget" | "authority" | "need" | "timeline"
  | "situation" | "problem" | "implication" | "need_payoff"

export const FRAMEWORK_ELEMENTS: Readonly<Record<"MEDDPICC" | "BANT" | "SPIN", ReadonlyArray<QualificationElementName>>> = {
  MEDDPICC: ["metrics", "economic_buyer", "decision_criteria", "decision_process", "paper_process", "identify_pain", "champion", "competition"],
  BANT: ["budget", "authority", "need", "timeline"],
  SPIN: ["situation", "problem", "implication", "need_payoff"]
}

/**
 * What makes a mention specific (score 2): a number, an amount, a title or named party, a date, a
 * named competitor; "business" a business figure (a unit such as %, $, days, or 1,000 and more);
 * "authority" who approves with the scope of their authority ("signs off on anything over fifty
 * thousand", "I can sign for myself under forty"); "firm" a requirement stated as one ("a deal
 * breaker", "not negotiable"); "comparison" an alternative with a figure ("thirty percent
 * cheaper"); "steps" two parties or steps of the process, or one with a date or a threshold;
 * "action" a buyer acting to sell internally ("I'll introduce you", "I'll take it back").
 */
export type Specific = "number" | "money" | "party" | "date" | "competitor" | "business" | "authority" | "firm" | "comparison" | "steps" | "action"

/** Titles and roles: a decision maker named by role is specific ("the VP of sales", "the CFO"). */
export const TITLES: RegExp = phrases(
  "cfo", "ceo", "coo", "cro", "cto", "cio", "cmo", "vp", "vice president", "svp", "evp", "director", "head of [a-z]+",
  "chief [a-z]+ officer", "president", "founder", "owner", "board", "(my|our) (boss|manager)"
)
/** Parties and steps of a buying process: procurement, legal, security, a committee, an ops lead. */
export const PARTIES: RegExp = phrases(
  "procurement", "legal", "security", "finance", "committee", "board", "revenue operations", "revops", "sales ops", "purchasing",
  "compliance", "(ops|operations|team|sales|revenue|it|security|procurement|project|technical|engineering) lead", "cfo", "ceo", "vp",
  "director", "head of [a-z]+"
)
const PARTY_MENTION = new RegExp(PARTIES.source.replace("(?:^|\\s)(?:", "(?:^|\\s)("), "g")
/** The distinct parties named in a plain text ("procurement and legal review the contract" → procurement, legal). */
export const partiesIn = (plainText: string): Set<string> => new Set([...plainText.matchAll(PARTY_MENTION)].map((m) => m[1]!))

/** Dates and periods: weekdays, months, quarters, years, "end of…". */
export const DATES: RegExp = phrases(
  "monday", "tuesday", "wednesday", "thursday", "friday", "january", "february", "march", "april", "june", "july", "august",
  "september", "october", "november", "december", "q[1-4]", "(this|next|a|the) (quarter|half|year|month)", "end of (the )?[a-z]+", "20[0-9][0-9]", "in [a-z0-9]+ (days|weeks|months)"
)
/** Named competitors in call coaching and revenue intelligence (a tenant list would be better). */
const COMPETITOR_NAMES = [
  "gong", "chorus", "clari", "salesloft", "outreach", "avoma", "jiminny", "fireflies", "otter", "modjo", "wingman", "refract", "zoominfo"
]
export const NAMED_COMPETITORS: RegExp = phrases(...COMPETITOR_NAMES)

export interface ElementCue {
  /** Phrases that touch the element (score 1). */
  readonly cue: RegExp
  /** Whose words count: the buyer's statements, or the rep's questions (SPIN). */
  readonly from: "buyer" | "any" | "rep_question"
  /** Any of these makes it specific (score 2); for rep questions, found in the buyer's answer. */
  readonly specific: ReadonlyArray<Specific>
}

/** Who signs: the economic buyer (MEDDPICC) and the authority (BANT). A mention scores 1; who signs, with the scope, 2. */
const ECONOMIC_BUYER_PHRASES = [
  "signs? off", "sign off", "signs the", "approves?", "approval", "final (say|decision|call)", "budget holder", "decision maker",
  "economic buyer", "(my|our) (boss|manager)", "cfo", "ceo", "coo", "cro", "vp", "vice president", "head of [a-z]+", "the board",
  "director", "(our|my|the) (owner|gm|general manager|managing director|managing partner|partners)", "have a say", "upstairs",
  "(can|could|cannot|has to|have to|must|will) sign", "sign for", "(has|have|needs?) to go (past|to|through|up)", "up the chain"
]

/** Who: a person or a role, the speaker included ("I can sign…"). */
const WHO = /(?:^|\s)(?:i|she|he|they|myself|owner|boss|manager|gm|partners?|board|committee|cfo|ceo|coo|cro|cto|cio|vp|president|director|founder|head of [a-z]+|chief [a-z]+ officer)(?=\s|$)/
/** The scope of an authority: a threshold or an amount ("anything over", "up to forty", "under fifty", "any new vendor"). */
const SCOPE = /(?:^|\s)(?:(?:anything|everything|purchases?|spend|deals?|contracts?) (?:over|above|under|below|up to|more than|less than|of)|over|above|up to|under|below|within|any (?:new )?(?:vendor|purchase|tool|contract|spend|software))(?=\s|$)/
const NEGATED_AUTHORITY = /(?:^|\s)(?:cannot|can not|could not|will not|would not|not) (?:let me )?(?:sign|approve)(?=\s|$)|(?:^|\s)(?:will not|would not|do not|does not) let (?:me|us|him|her) (?:sign|approve)(?=\s|$)/

/** Who approves, with the scope of their authority: an approval act, a person or role, a threshold or amount, not negated. */
export const isAuthorityStatement = (plainText: string): boolean =>
  APPROVAL.test(plainText) && WHO.test(plainText) && SCOPE.test(plainText) && !NEGATED_AUTHORITY.test(plainText)

/** A buyer acting to sell internally: introducing the rep, taking the case to someone, submitting it. */
export const CHAMPION_ACTION: RegExp = phrases(
  "introduce you", "(take|bring|get) (it|this|them) (back|upstairs|to (him|her|them|my|our|the))", "get [a-z0-9 ]{1,25} past (him|her|them|my|our|the)",
  "submit (it|this)", "put (it|this) in front of", "i will bring (him|her|them)"
)

/** A requirement stated as one, not a preference. */
export const FIRM_REQUIREMENT: RegExp = phrases(
  "deal breakers?", "(not|non) negotiable", "(our|the|company) policy", "must", "(we|i) (will )?stop here", "until (i|we) see", "a hard (requirement|cap|limit)", "at least", "no more than"
)

/** The cue of every qualification element; whole sentences are matched. */
export const QUALIFICATION_CUES: Readonly<Record<QualificationElementName, ElementCue>> = {
  // MEDDPICC
  // metrics: the buyer's business figures (`Content.ts` also reads stated pains, and the rep's restatement of the buyer's figures)
  metrics: { cue: METRIC_CUES, from: "buyer", specific: ["business"] },
  economic_buyer: { cue: phrases(...ECONOMIC_BUYER_PHRASES), from: "any", specific: ["authority"] },
  decision_criteria: {
    cue: phrases("criteria", "requirements?", "must have", "has to", "needs to", "need it to", "looking for", "important (to|for) (us|me)",
      "matters (most|to us)?", "deal breaker", "evaluat(e|ed|ing) on", "if (i|we) can show", "as long as", "integrat(e|es|ion) with", "ease of use",
      "(i|we|she|he|they) (would )?(need|needs|want|wants) (to see|it|a|an|something|the)", "until (i|we) see", "(not|non) negotiable", "(our|the) policy",
      "(i|we) do not want", "had in mind"),
    from: "buyer",
    specific: ["number", "date", "firm"]
  },
  decision_process: {
    cue: phrases("who else", "involved", "decision process", "decide", "decides", "decision", "procurement", "legal", "review(s)? the (contract|proposal)",
      "approval process", "committee", "evaluation", "(has|have|needs?) to go (past|to|through|up)", "goes to", "up the chain", "upstairs", "have a say",
      "check with", "run it by", "(can|could|cannot|has to|have to|must|will) sign", "sign off", "signs off", "quotes"),
    from: "any",
    specific: ["steps"]
  },
  paper_process: {
    cue: phrases("procurement", "legal", "contracts?", "msa", "purchase order", "redlines?", "security (review|questionnaire|documentation|docs|people|team|assessment)",
      "signature", "paperwork", "vendor onboarding", "terms", "addendum", "penetration test", "order form", "counsel", "liability", "single source justification"),
    from: "any",
    specific: ["business", "date", "steps"]
  },
  identify_pain: { cue: PAIN_CUES, from: "buyer", specific: ["business"] },
  champion: {
    cue: phrases("if i can show", "i (will|can|could) (push|champion|sponsor|advocate|bring|take|present|forward|introduce|share|make the case)",
      "(on|in) (my|your) (side|corner)", "i am (on board|a fan|convinced)", "introduce you", "sponsor", "champion",
      "i (will|would|will need to|would have to|have to|need to) (ask|check with|confirm with|tell|talk to) (her|him|them|my|our|the)",
      "(take|bring|get) (it|this|them) (back|upstairs|to (him|her|them|my|our|the))", "get [a-z0-9 ]{1,25} past (him|her|them|my|our|the)",
      "submit (it|this)", "put (it|this) in front of", "i will bring (him|her|them)"),
    from: "buyer",
    specific: ["party", "action"]
  },
  competition: {
    cue: phrases("other vendors?", "another (vendor|provider|tool|solution)", "(looking at|evaluating|considering) (one |two |a few |some )?(other|another|alternatives?|options|vendors)", "competitors?", "alternatives?",
      "also talking to", "compared (to|with)", "build (it|this|something) (ourselves|in house)", "currently (use|using)", "already (use|using|have)",
      "(new|current|other|last|existing|big) [a-z ]{0,20}(provider|vendors?|platform)", "vendors", "anyone else", "benchmark", "(a )?different (one|tool|platform|vendor|provider)",
      ...COMPETITOR_NAMES),
    from: "any",
    specific: ["comparison", "competitor"]
  },
  // BANT
  budget: {
    cue: phrases("budget", "spend", "afford", "set aside", "allocated", "price range", "pay", "quote"),
    from: "any",
    specific: ["money", "number"]
  },
  authority: { cue: phrases(...ECONOMIC_BUYER_PHRASES, "decide", "decides", "decision"), from: "any", specific: ["authority"] },
  need: {
    cue: new RegExp(`${PAIN_CUES.source}|${phrases("we need", "looking for", "wants? a (fix|solution|tool)", "have to fix", "need to fix").source}`),
    from: "buyer",
    specific: ["number"]
  },
  timeline: {
    // a deadline, not any period: "our budget for tools this year" is not a timeline
    cue: phrases("(by|before|until) (the )?end of", "deadline", "go live", "timeline", "timeframe",
      "(decide|decision|start|roll out|rollout|live|implement|signed|in place) (by|before|this|next|within)",
      "by (january|february|march|april|may|june|july|august|september|october|november|december|q[1-4])", "before (january|february|march|april|june|july|august|september|october|november|december)"),
    from: "any",
    specific: ["date", "number"]
  },
  // SPIN: the rep's questions
  situation: {
    cue: phrases("currently", "today", "right now", "how many", "how do you", "how are you", "what (tools?|system|process|crm)", "tell me about",
      "walk me through", "(anything|something) change", "since we spoke", "who else", "set up", "planned"),
    from: "rep_question",
    specific: ["number", "party", "date"]
  },
  problem: {
    cue: phrases("problems?", "challenges?", "struggl(e|ing)", "difficult", "frustrat(ed|ing)", "not working", "issues?", "what prompted", "why now", "concerns?", "worr(y|ied)",
      "hard (to|for)", "holding [a-z ]{0,30}back", "in the way", "stopping"),
    from: "rep_question",
    specific: ["number", "party", "date"]
  },
  implication: {
    cue: phrases("cost you", "costing", "impact", "affect", "mean for", "consequences?", "what happens", "showing up", "result in", "lose", "losing", "how much", "delay"),
    from: "rep_question",
    specific: ["number", "party", "date"]
  },
  need_payoff: {
    cue: phrases("would it help", "help you", "how would", "what would it mean", "worth", "useful", "if you could", "benefit", "pays? for itself", "value"),
    from: "rep_question",
    specific: ["number", "party", "date"]
  }
}
