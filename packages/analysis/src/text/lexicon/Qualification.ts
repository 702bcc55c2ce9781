/**
 * Qualification cues (MEDDPICC, BANT, SPIN): the elements of each framework, the phrases that
 * touch each element, and what makes a mention of it specific.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { phrases } from "./Phrases.js"
import { APPROVAL, METRIC_CUES, PAIN_CUES } from "./Value.js"

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
