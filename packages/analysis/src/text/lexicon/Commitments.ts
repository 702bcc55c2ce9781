/**
 * Commitments and agreement: who an action's wording commits, and whether the other side agrees
 * to a proposal.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { phrases } from "./Phrases.js"
import { plain, type Token } from "./Tokens.js"

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
