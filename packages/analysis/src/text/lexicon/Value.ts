/**
 * Pains, metrics and value: the buyer's pain and burden cues, the words that make a number a
 * business metric (and the approval sentences that make one no metric), and the rep's value,
 * ROI and back-reference language.
 *
 * English only. Any change to a list here changes scores: bump `METHOD_VERSION`.
 */
import { phrases } from "./Phrases.js"

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
