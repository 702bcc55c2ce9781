/**
 * The chat's intent rules on their own: periods, each intent in several wordings (none of them the
 * rules' own examples), follow-ups, and questions that must not be taken for an intent.
 */
import { describe, expect, it } from "vitest"
import { periodOf, periodRange, priorRange, recognise } from "../../src/conversation/Intents.js"

const closers = [
  { email: "maria@acme.test", fullName: "Maria Lopez" },
  { email: "tom@acme.test", fullName: "Tom Berg" },
  { email: "tom.h@acme.test", fullName: "Tom Hale" }
]

describe("periods", () => {
  it("reads the period a question names", () => {
    expect(periodOf("anything from yesterday?")).toBe("yesterday")
    expect(periodOf("over the past week")).toBe("last_week")
    expect(periodOf("in the last 30 days")).toBe("last_30_days")
    expect(periodOf("past seven days")).toBe("last_7_days")
    expect(periodOf("this month so far")).toBe("this_month")
    expect(periodOf("how are we")).toBeUndefined()
  })

  it("bounds periods in UTC or the team's time zone, with weeks from Monday, and the period before", () => {
    const now = new Date("2026-11-26T15:00:00Z") // a Thursday
    expect(periodRange("this_week", now)).toEqual({ from: new Date("2026-11-23T00:00:00Z"), to: new Date("2026-11-27T00:00:00Z") })
    expect(periodRange("last_week", now)).toEqual({ from: new Date("2026-11-16T00:00:00Z"), to: new Date("2026-11-23T00:00:00Z") })
    expect(periodRange("yesterday", now)).toEqual({ from: new Date("2026-11-25T00:00:00Z"), to: new Date("2026-11-26T00:00:00Z") })
    expect(priorRange("this_week", now)).toEqual(periodRange("last_week", now))
    expect(priorRange("last_month", now)).toEqual({ from: new Date("2026-09-01T00:00:00Z"), to: new Date("2026-10-01T00:00:00Z") })
    expect(priorRange("last_7_days", now)).toEqual({ from: new Date("2026-11-13T00:00:00Z"), to: new Date("2026-11-20T00:00:00Z") })
    // in the team's time zone: 01:30 UTC on Thursday is still Wednesday in New York
    const late = new Date("2026-11-26T01:30:00Z")
    expect(periodRange("today", late, "America/New_York")).toEqual({ from: new Date("2026-11-25T05:00:00Z"), to: new Date("2026-11-26T05:00:00Z") })
    expect(periodRange("this_week", late, "America/New_York").from).toEqual(new Date("2026-11-23T05:00:00Z"))
    expect(priorRange("yesterday", late, "America/New_York")).toEqual({ from: new Date("2026-11-23T05:00:00Z"), to: new Date("2026-11-24T05:00:00Z") })
    // across the change to summer time the day is 23 hours long
    expect(periodRange("today", new Date("2026-03-08T12:00:00Z"), "America/New_York")).toEqual({ from: new Date("2026-03-08T05:00:00Z"), to: new Date("2026-03-09T04:00:00Z") })
    // a Sunday is the week's last day
    expect(periodRange("this_week", new Date("2026-11-29T23:00:00Z")).from).toEqual(new Date("2026-11-23T00:00:00Z"))
  })
})

describe("intents", () => {
  it("a closer by full name, unique first name or e-mail; an ambiguous first name is not a closer", () => {
    expect(recognise("what are Maria's numbers looking like last month", closers)).toEqual({ tool: "closer_stats", closer: "maria@acme.test", period: "last_month" })
    expect(recognise("How is tom berg doing", closers)).toEqual({ tool: "closer_stats", closer: "tom@acme.test", period: "this_week" })
    expect(recognise("summary for maria@acme.test yesterday", closers)).toMatchObject({ tool: "closer_stats", period: "yesterday" })
    expect(recognise("how is Tom doing", closers)).toBeUndefined()
  })

  it("searches, rankings, win rates, the brief and call ids", () => {
    expect(recognise("Any conversations discussing SOC 2 audits?", closers)).toEqual({ tool: "search_calls", query: "SOC 2 audits" })
    expect(recognise("find \"annual contract\"", closers)).toEqual({ tool: "search_calls", query: "annual contract" })
    expect(recognise("which were our top 3 calls last week", closers)).toEqual({ tool: "rank_calls", order: "best", period: "last_week", limit: 3 })
    expect(recognise("lowest scoring conversation today", closers)).toEqual({ tool: "rank_calls", order: "worst", period: "today", limit: 1 })
    expect(recognise("close rate per rep this month", closers)).toEqual({ tool: "win_rate", by: "closer", period: "this_month" })
    expect(recognise("conversion by channel", closers)).toEqual({ tool: "win_rate", by: "lead_source", period: null })
    expect(recognise("what are my priorities", closers)).toEqual({ tool: "daily_brief" })
    expect(recognise("which deals are at risk?", closers)).toEqual({ tool: "deals_at_risk" })
    expect(recognise("open call_ab12cd34ef please", closers)).toEqual({ tool: "get_call", call_id: "call_ab12cd34ef" })
  })

  it("the team's questions: objections, competitors, pains, follow-through, the team, closers ranked and trending, deals, drafts", () => {
    const accounts = [{ name: "Globex Corp", domain: "globex.test" }, { name: "Initech", domain: null }]
    expect(recognise("what pushback do we get most in the past 30 days", closers)).toEqual({ tool: "top_objections", period: "last_30_days", kind: null })
    expect(recognise("are buyers objecting on budget more this month? any budget objections?", closers)).toEqual({ tool: "top_objections", period: "this_month", kind: "budget" })
    expect(recognise("do rivals come up much lately", closers)).toEqual({ tool: "competitors", period: "last_90_days" })
    expect(recognise("what problems do our prospects keep describing", closers)).toEqual({ tool: "top_pains", period: "last_30_days" })
    expect(recognise("did the next steps from last week actually happen", closers)).toEqual({ tool: "follow_through", period: "last_week" })
    expect(recognise("give me an overview of how our team did last month", closers)).toEqual({ tool: "team_overview", period: "last_month" })
    expect(recognise("who is our star rep this week", closers)).toEqual({ tool: "rank_closers", order: "best", period: "this_week" })
    expect(recognise("who needs coaching the most", closers)).toEqual({ tool: "rank_closers", order: "worst", period: "last_30_days" })
    expect(recognise("is maria getting better", closers)).toEqual({ tool: "closer_trend", closer: "maria@acme.test" })
    expect(recognise("any deals stalling?", closers)).toEqual({ tool: "deals_at_risk" })
    expect(recognise("where are we with globex?", closers, undefined, accounts)).toEqual({ tool: "deal_status", account: "Globex Corp" })
    expect(recognise("status of the initech deal", closers, undefined, accounts)).toEqual({ tool: "deal_status", account: "Initech" })
    expect(recognise("where are we with umbrella?", closers, undefined, accounts)).toBeUndefined()
    expect(recognise("please write a follow up email for Maria Lopez's latest call", closers)).toEqual({ tool: "draft_follow_up", call_id: null, closer: "maria@acme.test" })
    expect(recognise("compose a follow-up for call_ab12cd34ef", closers)).toEqual({ tool: "draft_follow_up", call_id: "call_ab12cd34ef", closer: null })
    expect(recognise("and last week?", closers, { tool: "top_objections", period: "this_week", kind: null })).toEqual({ tool: "top_objections", period: "last_week", kind: null })
  })

  it("follow-ups change the period of the previous intent; unknown questions match nothing", () => {
    const previous = recognise("how did Maria do this week", closers)
    expect(recognise("and the month before?", closers, previous)).toBeUndefined()
    expect(recognise("what about last month?", closers, previous)).toEqual({ tool: "closer_stats", closer: "maria@acme.test", period: "last_month" })
    expect(recognise("what about last month?", closers)).toBeUndefined()
    expect(recognise("hello there", closers)).toBeUndefined()
    expect(recognise("write me a poem about sales", closers)).toBeUndefined()
  })
})
