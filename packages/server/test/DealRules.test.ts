/**
 * The pure rules of deals (docs/deals.md): which account and deal a call belongs to
 * (`calls/DealAssignment.ts`), and a deal followed across its calls (`views/DealTimeline.ts`).
 */
import { describe, expect, it } from "vitest"
import { buyerDomain, chooseAccount, chooseDeal, domainOfAccount } from "../src/calls/DealAssignment.js"
import { type DealCall, dealRisk, dueDateOf, objectionsOf, scoreTrend, stakeholdersOf, stepFollowThrough } from "../src/views/DealTimeline.js"

const DAY = 86_400_000

describe("deal assignment", () => {
  it("reads a domain out of an account value, and leaves a name a name", () => {
    expect(domainOfAccount("Acme.com")).toBe("acme.com")
    expect(domainOfAccount("https://www.acme.co.uk/about")).toBe("acme.co.uk")
    expect(domainOfAccount("dana@Acme.com")).toBe("acme.com")
    expect(domainOfAccount("Acme Inc")).toBeUndefined()
    expect(domainOfAccount("Acme")).toBeUndefined()
  })

  it("the buyer's domain: not the tenant's, not free mail; the most frequent, ties to the first", () => {
    expect(buyerDomain(["me@seller.test", "a@gmail.com", "b@outlook.com"], ["seller.test"])).toBeUndefined()
    expect(buyerDomain(["a@one.test", "b@two.test", "c@two.test"], [])).toBe("two.test")
    expect(buyerDomain(["a@one.test", "b@two.test"], [])).toBe("one.test")
    expect(buyerDomain(["me@Seller.test", "x@Buyer.test"], ["seller.test"])).toBe("buyer.test")
  })

  it("the account: the upload's first, then the known deal's, then the attendees'", () => {
    const base = { account: null, knownDealAccountId: null, attendees: ["x@buyer.test"], ownDomains: [] }
    expect(chooseAccount({ ...base, account: "Globex" })).toEqual({ _tag: "ByName", name: "Globex" })
    expect(chooseAccount({ ...base, account: "globex.test" })).toEqual({ _tag: "ByDomain", domain: "globex.test", from: "upload" })
    expect(chooseAccount({ ...base, knownDealAccountId: "acct_1" })).toEqual({ _tag: "OfDeal", accountId: "acct_1" })
    expect(chooseAccount(base)).toEqual({ _tag: "ByDomain", domain: "buyer.test", from: "attendees" })
    expect(chooseAccount({ ...base, attendees: ["x@gmail.com"] })).toEqual({ _tag: "None" })
  })

  it("the deal: the external id, else the account's latest open deal within the cycle, else a new one", () => {
    const now = Date.UTC(2026, 5, 1)
    const at = (days: number) => new Date(now - days * DAY).toISOString()
    const base = { externalDealId: null, hasAccount: true, accountDeals: [], meetingAt: at(0), salesCycleDays: 30 }
    expect(chooseDeal({ ...base, externalDealId: " D-1 " })).toEqual({ _tag: "External", externalDealId: "D-1" })
    expect(chooseDeal({ ...base, hasAccount: false })).toEqual({ _tag: "None" })
    expect(chooseDeal(base)).toEqual({ _tag: "New" })
    const open = { dealId: "d_open", lastCallAt: at(10), decided: false, createdAt: at(40) }
    const older = { dealId: "d_older", lastCallAt: at(20), decided: false, createdAt: at(50) }
    const won = { dealId: "d_won", lastCallAt: at(2), decided: true, createdAt: at(9) }
    expect(chooseDeal({ ...base, accountDeals: [older, open, won] })).toEqual({ _tag: "Existing", dealId: "d_open" })
    // past the cycle: a new deal
    expect(chooseDeal({ ...base, accountDeals: [{ ...open, lastCallAt: at(31) }] })).toEqual({ _tag: "New" })
    // the only deal decided: a new deal
    expect(chooseDeal({ ...base, accountDeals: [won] })).toEqual({ _tag: "New" })
    // no sales cycle set: 90 days
    expect(chooseDeal({ ...base, salesCycleDays: null, accountDeals: [{ ...open, lastCallAt: at(80) }] })).toEqual({ _tag: "Existing", dealId: "d_open" })
  })
})

describe("deal timeline", () => {
  const call = (id: string, meetingAt: string, extra: Partial<DealCall> = {}): DealCall => ({
    call_id: id,
    meeting_at: meetingAt,
    closer_email: "rep@seller.test",
    overall_score: null,
    objections: [],
    next_steps: [],
    attendees: [],
    ...extra
  })

  it("resolves a due relative to the call's meeting", () => {
    // 2026-03-04 is a Wednesday
    expect(dueDateOf("by Friday", "2026-03-04T15:00:00Z")).toBe("2026-03-06")
    expect(dueDateOf("tomorrow", "2026-03-04T15:00:00Z")).toBe("2026-03-05")
    expect(dueDateOf("next week", "2026-03-04T15:00:00Z")).toBe("2026-03-11")
    expect(dueDateOf("whenever", "2026-03-04T15:00:00Z")).toBeNull()
    expect(dueDateOf(null, "2026-03-04T15:00:00Z")).toBeNull()
  })

  it("a step is kept by a later call before its day plus one, slipped after, open before, undated without a date", () => {
    const now = new Date("2026-03-20T00:00:00Z")
    const steps = stepFollowThrough([
      call("c1", "2026-03-04T15:00:00Z", { next_steps: [{ quote: "send the quote", due: "by Friday" }, { quote: "talk soon", due: null }] }),
      // Saturday the 7th: within Friday + 1 day
      call("c2", "2026-03-07T10:00:00Z", { next_steps: [{ quote: "security review", due: "tomorrow" }] }),
      call("c3", "2026-03-18T10:00:00Z", { next_steps: [{ quote: "sign", due: "next Friday" }] })
    ], now)
    expect(steps.map((s) => [s.call_id, s.quote, s.due_date, s.state])).toEqual([
      ["c1", "send the quote", "2026-03-06", "kept"],
      ["c1", "talk soon", null, "undated"],
      // due the 8th, deadline the end of the 9th; the next call on the 18th is too late
      ["c2", "security review", "2026-03-08", "slipped"],
      ["c3", "sign", "2026-03-27", "open"]
    ])
  })

  it("the score trend, the objections raised and resolved, the stakeholders, the risk", () => {
    const calls = [
      call("c1", "2026-03-01T10:00:00Z", {
        overall_score: 70,
        objections: [{ kind: "price", response: "other", quote: "too expensive" }, { kind: "timing", response: "pause", quote: "not now" }],
        attendees: ["dana@buyer.test", "rep@seller.test", "x@gmail.com"]
      }),
      call("c2", "2026-03-08T10:00:00Z", { overall_score: null, objections: [{ kind: "price", response: "pause", quote: "still pricey" }] }),
      call("c3", "2026-03-15T10:00:00Z", {
        overall_score: 44,
        objections: [{ kind: "price", response: "long_pitch", quote: "the price again" }],
        attendees: ["lee@buyer.test", "Dana@buyer.test"]
      })
    ]
    const trend = scoreTrend(calls)
    expect(trend).toEqual({ first: 70, last: 44, change: -26, direction: "down", scores: [{ call_id: "c1", score: 70 }, { call_id: "c3", score: 44 }] })
    expect(scoreTrend([calls[0]!])).toMatchObject({ direction: "none", change: null })
    const objections = objectionsOf(calls)
    expect(objections.map((o) => [o.kind, o.raised_in, o.state, o.last_quote])).toEqual([
      ["price", ["c1", "c2", "c3"], "open", "the price again"],
      ["timing", ["c1"], "resolved", "not now"]
    ])
    expect(stakeholdersOf(calls, ["seller.test"])).toEqual(["dana@buyer.test", "x@gmail.com", "lee@buyer.test"])
    const risk = dealRisk("low", { steps: [], trend, objections }, 50)
    expect(risk.risk).toBe("high")
    expect(risk.reasons).toEqual(["score down from 70 to 44 over 2 calls", "price objection raised in 3 calls, still open"])
    expect(dealRisk("low", { steps: [], trend: scoreTrend([calls[0]!]), objections: [] }, 50)).toEqual({ risk: "low", reasons: [] })
  })
})
