/**
 * The two dimensions scored from who spoke when (with or without a transcript): Listening and
 * Conversation flow, from the metrics, or from the moments of the speaker turns where a metric is
 * `null`.
 */
import type { Metrics } from "../Types.js"
import { type Applied, fmtS, item, perEventEffects, round1, roundPoints, rule, signed } from "./Evidence.js"
import type { CallMoments } from "./Moments.js"
import { interpolate } from "./Rules.js"

const median = (xs: ReadonlyArray<number>): number | null => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

export const listening = (m: Metrics, mo: CallMoments, duration: number): Array<Applied> => {
  const out: Array<Applied> = []
  const wholeCall = { start: 0, end: duration }
  const repLabel = mo.repSpeakers.length === 1 ? mo.repSpeakers[0]! : null

  const speech = mo.repTalk_s + mo.buyerTalk_s
  const ratio = m.talk_ratio ?? (speech > 0 ? mo.repTalk_s / speech : null)
  if (ratio !== null && Number.isFinite(ratio)) {
    const pct = ratio * 100
    const effect = roundPoints(interpolate(rule("talk_ratio").points!, pct))
    out.push({
      rule: "talk_ratio",
      summary: `rep talk ${Math.round(pct)} % (${signed(effect)})`,
      evidence: [item("listening", wholeCall, repLabel, effect, duration)]
    })
  }

  const derivedPatience = median(mo.handoffs.map((h) => h.pause_s))
  const patience = m.patience_s ?? derivedPatience
  if (patience !== null && Number.isFinite(patience) && mo.handoffs.length > 0) {
    const effect = roundPoints(interpolate(rule("patience").points!, patience))
    // the hand-off whose pause is closest to the value scored (ties: the earliest)
    let at = mo.handoffs[0]!
    for (const h of mo.handoffs) if (Math.abs(h.pause_s - patience) < Math.abs(at.pause_s - patience)) at = h
    out.push({
      rule: "patience",
      summary: `patience ${round1(patience)} s (${signed(effect)})`,
      evidence: [item("listening", at, at.speaker, effect, duration)]
    })
  }

  const story = mo.stories[0]
  const storyS = m.longest_customer_story_s ?? (story ? story.end - story.start : null)
  if (storyS !== null && Number.isFinite(storyS) && story !== undefined) {
    const effect = roundPoints(interpolate(rule("customer_story").points!, storyS))
    out.push({
      rule: "customer_story",
      summary: `longest customer story ${fmtS(storyS)} (${signed(effect)})`,
      evidence: [item("listening", story, story.speaker, effect, duration)]
    })
  }

  const repInterruptions = mo.interruptions.filter((i) => i.side === "rep")
  const effects = perEventEffects(repInterruptions.length, rule("interruptions").perEvent!)
  const sum = effects.reduce((a, b) => a + b, 0)
  out.push({
    rule: "interruptions",
    summary:
      repInterruptions.length === 0
        ? "no interruptions by the rep (±0)"
        : `${repInterruptions.length} interruption${repInterruptions.length === 1 ? "" : "s"} by the rep (${signed(sum)})`,
    evidence: repInterruptions.map((i, k) => item("listening", i, i.speaker, effects[k]!, duration))
  })
  return out
}

export const conversationFlow = (m: Metrics, mo: CallMoments, duration: number): Array<Applied> => {
  const out: Array<Applied> = []
  const minutes = duration / 60
  const interactivity = m.interactivity ?? (minutes > 0 ? mo.switches / minutes : null)
  if (interactivity !== null && Number.isFinite(interactivity)) {
    const effect = roundPoints(interpolate(rule("interactivity").points!, interactivity))
    out.push({
      rule: "interactivity",
      summary: `${round1(interactivity)} speaker switches/min (${signed(effect)})`,
      evidence: [item("conversation_flow", { start: 0, end: duration }, null, effect, duration)]
    })
  }

  const longest = mo.monologues[0]
  const longestS = m.longest_monologue_s ?? (longest ? longest.end - longest.start : null)
  if (longestS !== null && Number.isFinite(longestS) && longest !== undefined) {
    const effect = roundPoints(interpolate(rule("longest_monologue").points!, longestS))
    out.push({
      rule: "longest_monologue",
      summary: `longest monologue ${fmtS(longestS)} (${signed(effect)})`,
      evidence: [item("conversation_flow", longest, longest.speaker, effect, duration)]
    })
    const others = mo.monologues.slice(1).filter((s) => s.end - s.start > 120).sort((a, b) => a.start - b.start)
    if (others.length > 0) {
      const effects = perEventEffects(others.length, rule("long_monologues").perEvent!)
      out.push({
        rule: "long_monologues",
        summary: `${others.length} more monologue${others.length === 1 ? "" : "s"} past 2 min (${signed(effects.reduce((a, b) => a + b, 0))})`,
        evidence: others.map((s, k) => item("conversation_flow", s, s.speaker, effects[k]!, duration))
      })
    }
  }
  return out
}
