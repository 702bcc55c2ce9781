/**
 * Call types and the stereo rep channel (issue 35, items 4 and 5): the call type model's committed
 * weights are what the train part gives; it types short calls written here, in no call of the
 * evaluation; every type's weights sum to 1; a dimension that does not apply to a type is not
 * assessed, says why, and is left out of the overall; the rep's channel under `auto` follows who
 * asks the questions and names the price.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { trainCallTypeModel } from "../../../eval/train-call-types.js"
import { contentInputOf } from "../../../eval/calls.js"
import { trainIds } from "../../../eval/turn-model.js"
import { truth } from "../../../test/utils/Fixtures.js"
import { callTypeOf, combine } from "../src/Analyzer.js"
import { CALL_TYPE_MODEL, CALL_TYPES, detectCallType } from "../src/models/CallTypeModel.js"
import { decideByWords, namesPrice, settleRepChannel, wordCues } from "../src/RepChannel.js"
import { CALL_TYPE_WEIGHTS, DIMENSION_WEIGHTS, DIMENSIONS, overallScore } from "../src/scoring/Dimensions.js"
import { byCallType, scoreCall } from "../src/scoring/Scorecard.js"
import { acousticMetrics } from "../src/signal/Metrics.js"
import { analyzeContent } from "../src/text/Content.js"
import type { AcousticAnalysis } from "../src/Types.js"

/** A call from alternating lines, the rep first. */
const call = (...lines: ReadonlyArray<string>) => lines.map((text, i) => ({ rep: i % 2 === 0, text }))

const CALLS = {
  cold_call: call(
    "Hi, is that Marta? This is Owen from Brightledger, I know I'm calling out of the blue, have you got thirty seconds?",
    "Who is this again? I'm in the middle of something.",
    "Owen, Brightledger. We help building firms stop chasing paper timesheets. Is that something that eats your week?",
    "We have a system. Send me an email, I don't take sales calls.",
    "Fair enough. Could I book fifteen minutes on Thursday to show you how the Hartley group cut it to an hour?",
    "Just email it over and I'll have a look if I get a minute."
  ),
  discovery: call(
    "Thanks for making time, Priya. Before I show anything, can you walk me through how your team handles supplier invoices today?",
    "Sure. Three of us key them in by hand, around nine hundred a month, and approvals sit in people's inboxes.",
    "What does that cost you when an approval stalls?",
    "Late fees mostly, and last quarter we lost an early payment discount of about two percent on our biggest supplier.",
    "Who else feels that pain, and who would sign off on changing the process?",
    "Our finance director, Tom. He's the one asking why month end takes eight days."
  ),
  demo: call(
    "Let me share my screen. This is the dashboard your dispatchers would see when they log in each morning.",
    "Okay, and where do the jobs from our booking form land?",
    "Right here in the queue. Watch, I'll drag this one onto Sam's route and the app updates his phone straight away.",
    "Oh nice. Can it show us which van is closest?",
    "Yes, click the map view, every van's live position, and here's the report you asked about for overtime.",
    "That's exactly the screen our ops manager wanted to see."
  ),
  negotiation: call(
    "So you've had the proposal. Where did you land on the numbers?",
    "Procurement wants fifteen percent off, and they won't sign a three year term without a break clause.",
    "I can't move fifteen on the annual price, but if you sign the three years I can hold the rate and waive the onboarding fee.",
    "What about payment terms? Our standard is sixty days.",
    "Sixty days is fine if we get the signed order form by the thirtieth. Can legal turn the redlines round this week?",
    "I'll push legal for Friday and get the signature before month end."
  ),
  renewal: call(
    "Your contract comes up for renewal at the end of next month, so I wanted to go over how the year went.",
    "Usage has been good, though two of our sites barely logged in.",
    "The renewal quote has a five percent uplift, and I'd like to talk about dropping the unused seats.",
    "Finance will push back on any uplift. We're reviewing all our subscriptions this year.",
    "Understood. If we renew for two years, I can keep this year's rate and remove the twelve unused licences.",
    "Send me that renewal option in writing and I'll take it to the budget meeting."
  ),
  support_upsell: call(
    "Hi Grace, I saw your ticket about the export failing, so I wanted to check in directly as your account manager.",
    "Yes, since the last update the weekly export to our payroll has been timing out. It's been a headache for the team.",
    "Our support team found the cause and the fix goes out tonight. Sorry for the disruption. How is everything else going?",
    "Otherwise fine. The new starters are using it and the support desk has been quick.",
    "Good to hear. Since you're adding two sites, the scheduling add-on might save your managers the rota juggling you mentioned.",
    "Maybe, send me something on the add-on and I'll raise it at our next check-in."
  )
} as const

describe("the call type model", () => {
  it("is what the train part gives, and the train part holds no test call", () => {
    const split = JSON.parse(readFileSync(new URL("../../../eval/split.json", import.meta.url), "utf8")) as { test: Array<string> }
    const ids = trainIds()
    expect(ids.filter((id) => split.test.includes(id))).toEqual([])
    expect(trainCallTypeModel(ids)).toEqual(CALL_TYPE_MODEL)
    expect(CALL_TYPE_MODEL.classes).toEqual(["cold_call", "discovery", "demo", "negotiation", "renewal", "support_upsell"])
  }, 120_000)

  it.each(Object.entries(CALLS))("types a %s written here", (type, turns) => {
    const found = detectCallType(turns)
    expect(found?.type).toBe(type)
    expect(found!.confidence).toBeGreaterThan(0)
    expect(found!.confidence).toBeLessThanOrEqual(1)
    // the reason names words that were said, with the side that said them
    expect(found!.words.length).toBeGreaterThan(0)
    const said = (side: "rep" | "buyer") => turns.filter((t) => t.rep === (side === "rep")).map((t) => t.text.toLowerCase()).join(" ")
    for (const w of found!.words) expect(said(w.side)).toContain(w.word.split(" ")[0]!)
  })

  it("knows nothing of a call with no words it has seen", () => {
    expect(detectCallType([{ rep: true, text: "Zzxq vvrrp." }])).toBeNull()
    expect(detectCallType([])).toBeNull()
  })
})

describe("the weights of each call type", () => {
  it("sum to 1 for every type, and the default is the unknown type's", () => {
    expect(Object.keys(CALL_TYPE_WEIGHTS).sort()).toEqual([...CALL_TYPES].sort())
    for (const type of CALL_TYPES) {
      const w = CALL_TYPE_WEIGHTS[type]
      expect(Object.keys(w).sort()).toEqual([...DIMENSIONS].sort())
      expect(DIMENSIONS.reduce((sum, d) => sum + w[d], 0)).toBeCloseTo(1, 10)
      for (const d of DIMENSIONS) expect(w[d]).toBeGreaterThanOrEqual(0)
    }
    expect(DIMENSIONS.reduce((sum, d) => sum + DIMENSION_WEIGHTS[d], 0)).toBeCloseTo(1, 10)
    // a demo is not judged mainly on discovery; a discovery call is
    expect(CALL_TYPE_WEIGHTS.demo.value).toBeGreaterThan(CALL_TYPE_WEIGHTS.demo.discovery)
    expect(CALL_TYPE_WEIGHTS.discovery.discovery).toBeGreaterThan(DIMENSION_WEIGHTS.discovery)
  })

  const scoredFixture = () => {
    const input = contentInputOf(truth("demo-objection"))
    const content = analyzeContent(input)
    const metrics = { ...acousticMetrics(input.speaker_turns, input.duration_s), ...content.metrics }
    return scoreCall({ metrics, speaker_turns: input.speaker_turns, speakers: input.speakers, duration_s: input.duration_s, content })
  }

  it("does not score a dimension that does not apply to the type: not assessed, why, and left out of the overall", () => {
    const plain = scoredFixture()
    const discovery = plain.scorecard.dimensions.find((d) => d.dimension === "discovery")!
    expect(discovery.assessed).toBe(true)
    expect(plain.evidence.some((e) => e.dimension === "discovery")).toBe(true)

    const negotiation = byCallType(plain, "negotiation")
    const d = negotiation.scorecard.dimensions.find((x) => x.dimension === "discovery")!
    expect(d).toMatchObject({ score: null, assessed: false, weight: 0 })
    expect(d.reason).toMatch(/^does not apply to a negotiation call: /)
    expect(negotiation.evidence.some((e) => e.dimension === "discovery")).toBe(false)
    expect(negotiation.evidence.length).toBe(plain.evidence.filter((e) => e.dimension !== "discovery").length)
    // the overall: the other five, each with the negotiation weight
    const others = plain.scorecard.dimensions.filter((x) => x.dimension !== "discovery")
    const expected = Math.round(
      others.reduce((sum, x) => sum + x.score! * CALL_TYPE_WEIGHTS.negotiation[x.dimension], 0) /
        others.reduce((sum, x) => sum + CALL_TYPE_WEIGHTS.negotiation[x.dimension], 0)
    )
    expect(negotiation.scorecard.overall).toBe(expected)
    expect(negotiation.scorecard.overall_basis).toEqual({ assessed: 5, of: 5, partial: false })
    for (const x of negotiation.scorecard.dimensions) expect(x.weight).toBe(CALL_TYPE_WEIGHTS.negotiation[x.dimension])

    // a type where every dimension applies: all scored, with its weights
    const demo = byCallType(plain, "demo")
    expect(demo.scorecard.dimensions.every((x) => x.assessed)).toBe(true)
    expect(demo.scorecard.overall).toBe(overallScore(demo.scorecard.dimensions))
    expect(demo.scorecard.dimensions.find((x) => x.dimension === "value")!.weight).toBe(0.25)
    // unknown: the default weights, as before
    expect(byCallType(plain, null).scorecard).toEqual(plain.scorecard)
  })

  it("the analysis gives the type it was given, else the one it detects, else null", () => {
    const t = truth("demo-objection")
    const input = contentInputOf(t)
    const acoustic: AcousticAnalysis = {
      duration_s: t.duration,
      channels: 1,
      diarization: "clustering",
      speakers: input.speakers,
      speaker_turns: input.speaker_turns,
      metrics: acousticMetrics(input.speaker_turns, t.duration)
    }
    const transcript = { provider: "deepgram" as const, model: "nova-3", language: "en", words: input.words }
    const given = combine(acoustic, transcript, "MEDDPICC", "negotiation")
    expect(given.call_type).toEqual({ type: "negotiation", source: "given", confidence: 1, reason: "given at upload" })
    expect(given.scorecard.dimensions.find((d) => d.dimension === "discovery")!.assessed).toBe(false)
    const detected = combine(acoustic, transcript, "MEDDPICC")
    expect(detected.call_type?.source).toBe("detected")
    expect(detected.call_type?.type).toBe(callTypeOf(acoustic, analyzeContent(input), null)?.type)
    expect(detected.call_type?.reason).toMatch(/^detected from the words of the call: "/)
    expect(detected.rep_channel).toBeNull()
    const silent = combine(acoustic, null, "MEDDPICC")
    expect(silent.call_type).toBeNull()
    expect(silent.scorecard.dimensions.map((d) => d.weight)).toEqual(DIMENSIONS.map((d) => DIMENSION_WEIGHTS[d]))
  })
})

describe("the rep's channel under auto", () => {
  it("hears a price named", () => {
    expect(namesPrice("It's 450 dollars a month for the whole team.")).toBe(true)
    expect(namesPrice("The licence is £12 per user.")).toBe(true)
    expect(namesPrice("We have about 40 drivers.")).toBe(false)
    expect(namesPrice("Is that the final price?")).toBe(false)
  })

  it("takes the channel that asks the questions and names the price, and says so", () => {
    const segments = [
      { speaker: "S1", text: "Hello, yes, this is Dana." },
      { speaker: "S2", text: "Hi Dana, how are you handling the rota today? What happens when someone calls in sick?" },
      { speaker: "S1", text: "We ring round. It takes an hour every morning." },
      { speaker: "S2", text: "Who else is involved in that? The plan is 300 dollars a month for up to fifty staff." }
    ]
    const cues = wordCues(segments)
    expect(cues).toEqual({ left: { questions: 0, prices: 0 }, right: { questions: 3, prices: 1 } })
    const d = decideByWords(cues)!
    expect(d.chosen).toBe("right")
    expect(d.reason).toBe("auto, from the words: the right channel asked 3 of the 3 questions and named the price 1 of 1 times")
    // cues that disagree: the weightier one wins, and the reason says which
    const split = decideByWords({ left: { questions: 1, prices: 1 }, right: { questions: 9, prices: 0 } })!
    expect(split.chosen).toBe("right")
    expect(split.reason).toMatch(/the questions outweighed the price named$/)
    expect(decideByWords({ left: { questions: 0, prices: 0 }, right: { questions: 0, prices: 0 } })).toBeNull()
  })

  it("counts the same questions in words without punctuation, cut where a clause opens", () => {
    const segments = [
      { speaker: "S1", text: "hello yes this is dana" },
      { speaker: "S2", text: "how are you handling the rota today and what do you do when someone calls in sick" },
      { speaker: "S1", text: "we ring round it takes an hour every morning" },
      { speaker: "S2", text: "right so who signs off on it can you tell me that" }
    ]
    expect(wordCues(segments)).toEqual({ left: { questions: 0, prices: 0 }, right: { questions: 4, prices: 0 } })
    // the same words ended by a full stop are one sentence each, a statement: no question is counted
    expect(wordCues(segments.map((s) => ({ ...s, text: `${s.text}.` })))).toEqual({ left: { questions: 0, prices: 0 }, right: { questions: 0, prices: 0 } })
  })

  it("swaps the roles of a stereo call when the words put the rep on the other channel", () => {
    const turns = [
      { speaker: "S1", role: "rep" as const, start: 0, end: 2 },
      { speaker: "S2", role: "buyer" as const, start: 2.5, end: 6 },
      { speaker: "S1", role: "rep" as const, start: 6.5, end: 8 },
      { speaker: "S2", role: "buyer" as const, start: 8.5, end: 12 }
    ]
    const acoustic: AcousticAnalysis = {
      duration_s: 12,
      channels: 2,
      diarization: "channel",
      speakers: [
        { speaker: "S1", role: "rep", role_confidence: 0.64, talk_time_s: 3.5, talk_share: 0.29 },
        { speaker: "S2", role: "buyer", role_confidence: 0.64, talk_time_s: 7, talk_share: 0.71 }
      ],
      speaker_turns: turns,
      metrics: acousticMetrics(turns, 12),
      rep_channel: { requested: "auto", chosen: "left", reason: "auto, from the acoustic cues (no words to go on): …" }
    }
    const segments = [
      { speaker: "S1", text: "Hello?" },
      { speaker: "S2", text: "What does your team use now? How many sites do you run?" },
      { speaker: "S1", text: "Two sites, spreadsheets." },
      { speaker: "S2", text: "Our price is 200 pounds per site per month." }
    ]
    const settled = settleRepChannel(acoustic, segments, (t) => acousticMetrics(t, 12))
    expect(settled.rep_channel?.chosen).toBe("right")
    expect(settled.speakers.map((s) => s.role)).toEqual(["buyer", "rep"])
    expect(settled.speaker_turns.map((t) => t.role)).toEqual(["buyer", "rep", "buyer", "rep"])
    expect(settled.metrics.talk_ratio).toBeCloseTo(7 / 10.5, 3)
    // a channel set by the upload stands, whatever the words say
    const set = { ...acoustic, rep_channel: { requested: "left" as const, chosen: "left" as const, reason: "set to the left channel" } }
    expect(settleRepChannel(set, segments, (t) => acousticMetrics(t, 12))).toBe(set)
  })
})
