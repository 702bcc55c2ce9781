/**
 * Buyer push-back beyond the early-stage lexicon of `Lexicon.ts` (issue 14): the conditions,
 * constraints, risks and demands buyers raise in a negotiation, a renewal or a pilot — contract
 * terms their legal team wants changed, discount demands, approval over a limit, proof before
 * committing, security and data residency, timing, the status quo. Each finer category maps onto
 * the product's objection kinds (the API's enum is unchanged):
 *
 * | category        | kind       | why the nearest                                          |
 * |-----------------|------------|----------------------------------------------------------|
 * | discount, price | price      | what we charge                                           |
 * | contract_terms  | authority  | legal or finance must accept the paper before a signature |
 * | approval_limit  | authority  | someone above the buyer decides                          |
 * | proof           | need       | the value is not yet shown to them                       |
 * | security        | need       | a requirement the product must meet                      |
 * | product_concern | need       | the product does not fit as used                         |
 * | status_quo      | need       | no need felt                                             |
 * | timing          | timing     |                                                          |
 * | competitor      | competitor | an incumbent, a competing quote                          |
 *
 * Patterns are written against plain text (see `plain` in Lexicon.ts), one sentence at a time.
 * A request for material ("can you send me the security documentation?") is not push-back.
 */
import type { ObjectionKind } from "./Lexicon.js"

export type PushbackCategory =
  | "discount" | "price" | "contract_terms" | "approval_limit" | "proof" | "security" | "product_concern" | "status_quo" | "timing" | "competitor"

export const CATEGORY_KIND: Readonly<Record<PushbackCategory, ObjectionKind>> = {
  discount: "price",
  price: "price",
  contract_terms: "authority",
  approval_limit: "authority",
  proof: "need",
  security: "need",
  product_concern: "need",
  status_quo: "need",
  timing: "timing",
  competitor: "competitor"
}

const any = (...list: ReadonlyArray<string>): RegExp => new RegExp(`(?:^|\\s)(?:${list.join("|")})(?=\\s|$)`)

const NUMBER = "(?:[0-9][0-9,.]*|a few|several|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)"

/** In the order tried: the first category that matches a sentence is its category. */
export const PUSHBACK_PATTERNS: ReadonlyArray<readonly [PushbackCategory, RegExp]> = [
  ["competitor", any(
    `(quote|offer|proposal|bid|price) from (another|a different|one other|other|a competing|a cheaper) [a-z]+`,
    `${NUMBER}( [a-z]+)? (percent|%) cheaper`, "cheaper (per|than (you|yours|your))",
    `(signed|locked in|committed to|tied into) (a |an )?([a-z]+ ){0,3}(deal|contract|agreement) with`,
    "(our|the) (current|existing) (provider|vendor|supplier|system|tool|platform) ([a-z]+ ){0,3}(says|tells|promises|is adding|already)",
    "(used|uses|using|prefers|likes) a different (one|tool|platform|vendor|system|provider)",
    "whether we keep (the|our) [a-z]+", "(keep|stay with|stick with) (the|our) (current )?(platform|system|tool|vendor|provider) we have"
  )],
  ["discount", any(
    `${NUMBER}( [a-z]+)? (percent|%) off`, "(a |any |the )?discount", "not a discount", "(above|over|higher than) the benchmark", "benchmark",
    "(better|lower|best) price", "(meet|match|beat) (that|their|the) (price|quote|number)", "sharpen (your|the) pencil", "free (extension|month|months|period)"
  )],
  ["price", any(
    "(price|cost|quote|number|proposal) ([a-z]+ ){0,4}(is|was|seems|feels) (above|over|more than|higher than|too|a lot|steep|high)",
    "above what (i|we) (had in mind|expected|budgeted|planned)", "is a lot (for|when|of money|to)",
    `${NUMBER} (percent|%) (more|increase|higher|up)`, "(more|higher) than last year", "(price )?(increase|uplift|hike)",
    "(cannot|can not) walk into ([a-z]+ ){0,4}with"
  )],
  ["contract_terms", any(
    "(will not|would not|cannot|can not|not) let (me|us) sign", "sign (it|this|that)? ?as written", "(liability|indemnit[a-z]*|auto renewal|automatic renewal|renew themselves|termination|exit clause|payment terms|in arrears|upfront|up front|annually in advance|redlines?|net (30|60|90|thirty|sixty|ninety))",
    "we (do not|never|only) (do|sign|pay|accept|agree to)", "we pay (everyone|all (our )?(vendors|suppliers)|suppliers|vendors) (at|on|in)",
    "(your|the) (agreement|contract|paper|msa|terms) (says|caps|requires|has)", "wants? (it|that|this) out", "(counsel|lawyers?|legal) (wants?|went through|needs?|will not|flagged)"
  )],
  ["approval_limit", any(
    `anything (over|above|more than) ([a-z0-9,$]+ ){1,5}(has to|needs?|must|goes|go)`, "(needs?|requires?) (three|3|two|multiple|competitive) (quotes|bids)",
    "(has to|have to|needs to|need to|must) (go )?(past|through|to|via) (our|my|the) (owner|boss|cfo|ceo|board|procurement|finance|manager|director|committee)",
    "procurement (rules|policy|process|team) ([a-z]+ ){0,2}(says?|requires?|needs?)", "(my|our) (manager|boss|director|cfo|owner|ceo) (will|would) (ask|want|need|question)",
    "(cannot|can not|not allowed to|not able to) sign", "(has|have) to sign (it|this|off)", "(single|sole) source", "bounce (straight )?back", "(over|above) (my|our) (limit|threshold|approval)"
  )],
  ["proof", any(
    "(until|unless|before) (i|we|they|he|she) (see|have seen|can see|test|try|prove|get)", "see (it|that|this|them) (work|working|in action)",
    "wants? to see ([a-z]+ ){0,6}working", "(heard|seen) (numbers|claims|promises|that|this|it|things) like (that|this) before",
    "something (i|we) can show", "(need|want|needs|wants) proof", "prove (it|that|this)", "(from|on|with) (our|their) own (system|data|numbers|statements|files|reports)",
    "not going to commit", "not (committing|commit) to anything", "looked great in a demo", "(nobody|no one) (used|uses|ended up using)"
  )],
  ["security", any(
    "security (people|team|review|questionnaire|policy|blocked)", "it (team|department|people)? ?(will|would) (want|need) to (know|see|check|review|approve)", "access points?",
    "(customer |our |patient )?data (stays|must stay|has to stay|needs to stay|residency|lives|leaves)", "gdpr", "hipaa", "soc 2", "iso 27001",
    "(host|hosted|hosting) (in|outside)", "not negotiable", "blocked (the|it|them|us)", "on (our|the) network", "compliance (team|review|requirement)"
  )],
  ["timing", any(
    "(not|never) (switching|changing|moving|buying|doing (this|anything|another)|going through another)", "freeze", "(just|recently) (moved|switched|signed|changed|bought|renewed|migrated)",
    "another migration", "not this year", "(new|a new) ([a-z]+ ){0,3}(starting|joining|coming in|arrives)", "until (she|he|they|the new|after|next)",
    "(next|new) (fiscal|financial|budget) year", "fiscal year", "hold off", "too soon", "(before|after) (the|our) (audit|launch|migration|freeze|merger|year end)"
  )],
  ["status_quo", any(
    "works (fine|well|ok|okay)", "(do not|did not) have (a|any) problem", "no problem to solve", "(happy|fine|good) with (what|how|our|the current)",
    "(do not|cannot) see (why|the need|a need)", "(current|existing) (setup|system|tool|process|provider) (works|is fine|does the job)"
  )],
  ["product_concern", any(
    "(found|finds|find) (it|them|the [a-z]+) (noisy|confusing|slow|clunky|hard|difficult|complicated|buggy|annoying)",
    "(turned|switched) (the [a-z]+|them|it) off", "too many (for|alerts|notifications|emails|steps)",
    "(worried|concerned) (about|that)", "(my|the|our|his|her) (worry|concern|fear) is"
  )]
]

/**
 * The general shape of push-back when no phrase above matches: a constraint or a demand ("has to",
 * "we need", "we can't", "only if", "unless", "not going to") about a topic of the deal; the topic
 * gives the category.
 */
const CONSTRAINT = any(
  "(has|have|needs?|need) to", "must", "we need", "i need", "(will|would) need", "(can|could) not", "cannot", "will not", "would not", "(is|are) not going to",
  "only (if|when)", "unless", "as long as", "not (negotiable|possible|allowed|acceptable|approved)", "(too|very) (high|expensive|long|risky|much)", "no way", "not sure (we|it|this|that)",
  "(worried|concerned|nervous|skeptical|sceptical)", "risk"
)
const TOPICS: ReadonlyArray<readonly [PushbackCategory, RegExp]> = [
  ["discount", any("discount", "percent off", "better (deal|price|rate)")],
  ["price", any("price", "pricing", "cost", "costs", "fee", "fees", "rate", "quote", "expensive", "per (seat|user|license|month|year)")],
  ["contract_terms", any("contract", "terms", "clause", "agreement", "legal", "lawyers?", "counsel", "liability", "renewal", "payment", "invoice", "notice period", "commitment", "multi year", "sla")],
  ["approval_limit", any("approv(e|al|ed)", "sign off", "procurement", "board", "cfo", "ceo", "budget holder", "committee", "quotes")],
  ["security", any("security", "secure", "data", "privacy", "compliance", "compliant", "audit", "it department", "hosting", "hosted", "encryption", "breach")],
  ["proof", any("proof", "prove", "evidence", "references?", "case stud(y|ies)", "pilot", "trial", "test (it|this)", "results", "see it")],
  ["timing", any("this (year|quarter)", "next (year|quarter)", "timing", "timeline", "deadline", "busy", "right now", "migration", "go live")]
]

/** A request or a question for information: not push-back ("can you send me the security documentation?"). */
const REQUEST = any("(can|could|would) you (also )?(send|share|forward|include)", "send (me|us|over)", "what would (this|it) cost")

/** "like I said", "again": a restated objection, counted where it was first raised. */
export const RESTATED = any("like i said", "as i said", "i will say it again", "i said before")

/** The push-back category of a buyer sentence (plain text), or null. */
export const pushbackOf = (plainText: string): PushbackCategory | null => {
  if (REQUEST.test(plainText)) return null
  for (const [category, pattern] of PUSHBACK_PATTERNS) if (pattern.test(plainText)) return category
  if (!CONSTRAINT.test(plainText)) return null
  for (const [category, topic] of TOPICS) if (topic.test(plainText)) return category
  return null
}
