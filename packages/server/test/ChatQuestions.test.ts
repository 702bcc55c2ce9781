/**
 * Thirty questions a sales manager asks about their team (issue 38, item 5), written here in our own
 * words, asked of the workspace chat without an LLM, over a team's six weeks (`seedTeamWeeks`: three
 * closers, thirty calls with the engine's real analyses, deals and accounts). Each question names the
 * intent it must be taken for and what its answer must say, and the figures are computed here from
 * the seeded analyses, never read from the service. Every link in every answer (each suggested
 * action's page and operation, each call source) is followed and must resolve.
 */
import { DIMENSION_LABELS } from "@callsight/analysis/light"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp } from "./utils/SmtpServerLayer.js"
import { seedTeamWeeks, type TeamWeeks } from "./utils/TeamWeeks.js"

interface Reply {
  conversation_id: string
  reply: string
  intent: string | null
  sources: Array<{ kind: string; id: string | null; label: string }>
  suggested_actions: Array<{ action: string; label: string; call_id: string | null; url?: string | null; operation?: { method: string; path: string } | null }>
}

const chat = (session: string, message: string, conversationId?: string) =>
  Effect.gen(function* () {
    const reply = yield* call("POST", "/v1/workspace/chat", { session, body: { message, ...(conversationId === undefined ? {} : { conversation_id: conversationId }) } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as Reply
  })

type Call = TeamWeeks["calls"][number]

const DAY = 86_400_000
/** The UTC day `date` starts, as a time. */
const dayOf = (t: number) => Math.floor(t / DAY) * DAY
/** Monday 00:00 UTC of the week of `t`. */
const mondayOf = (t: number) => dayOf(t) - ((new Date(dayOf(t)).getUTCDay() + 6) % 7) * DAY
const monthOf = (t: number) => Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), 1)

/** The seeded calls whose meeting was in [from, to). */
const between = (calls: ReadonlyArray<Call>, from: number, to: number) =>
  calls.filter((c) => Date.parse(c.meetingAt) >= from && Date.parse(c.meetingAt) < to)

const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
const round1 = (x: number) => Math.round(x * 10) / 10

/** Objection kinds of the calls, most frequent first (ties by name), with their counts. */
const objectionCounts = (calls: ReadonlyArray<Call>) => {
  const counts = new Map<string, number>()
  for (const c of calls) for (const o of c.result.objections) counts.set(o.kind, (counts.get(o.kind) ?? 0) + 1)
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
}

describe("thirty questions a manager asks, answered without an LLM", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("a team's six weeks", (it) => {
    it.effect("the seed: three closers, thirty calls over six weeks, deals of several calls", () =>
      Effect.gen(function* () {
        const { clientId } = yield* newTenant()
        const team = yield* seedTeamWeeks(clientId)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ n: number; deals: number; weeks: number }>`
          SELECT count(*)::int AS n, count(DISTINCT deal_id)::int AS deals,
                 count(DISTINCT date_trunc('week', occurred_at))::int AS weeks
          FROM calls WHERE client_id = ${clientId}`
        expect(rows[0]).toMatchObject({ n: 30, deals: 10 })
        expect(rows[0]!.weeks).toBeGreaterThanOrEqual(6)
        expect(new Set(team.calls.map((c) => c.closerEmail)).size).toBe(3)
        expect(team.calls.every((c) => c.result.transcript !== null && c.result.transcript.length > 0)).toBe(true)
        expect(team.calls.filter((c) => c.source === "recorder").length).toBe(10)
      }))

    it.effect("asks the thirty questions; every answer says what the seeded calls say, and every link resolves", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const team = yield* seedTeamWeeks(clientId)
        const sql = yield* SqlClient.SqlClient
        const now = Date.now()
        const today = dayOf(now)
        const tomorrow = today + DAY
        const range = {
          this_week: [mondayOf(now), tomorrow],
          last_week: [mondayOf(now) - 7 * DAY, mondayOf(now)],
          this_month: [monthOf(now), tomorrow],
          last_month: [monthOf(monthOf(now) - DAY), monthOf(now)],
          last_30_days: [tomorrow - 30 * DAY, tomorrow],
          last_90_days: [tomorrow - 90 * DAY, tomorrow]
        } as const
        const prior30 = [tomorrow - 60 * DAY, tomorrow - 30 * DAY] as const
        const within = (r: readonly [number, number]) => between(team.calls, r[0], r[1])
        const closerName = (email: string) => team.closers.find((c) => c.email === email)!.fullName
        const callsOf = (email: string) => team.calls.filter((c) => c.closerEmail === email)
        const scored = (calls: ReadonlyArray<Call>) => calls.flatMap((c) => (c.result.scorecard.overall === null ? [] : [c.result.scorecard.overall]))
        const avg = (calls: ReadonlyArray<Call>) => (scored(calls).length === 0 ? null : round1(mean(scored(calls))))
        const [avery, blake, casey] = team.closers.map((c) => c.email) as [string, string, string]
        const latest = team.calls.at(-1)!
        const latestOf = (email: string) => callsOf(email).at(-1)!
        const quotesOf = (c: Call) => (c.result.summary === null ? [] : [...c.result.summary.needs, ...c.result.summary.agreed, ...c.result.summary.risks].flatMap((i) => i.quotes.map((q) => q.quote)))
        const dealCall = team.calls[team.deals[2]!.callIds[1] === undefined ? 0 : team.calls.findIndex((c) => c.callId === team.deals[2]!.callIds[1])]!
        const accountName = (id: string | null) => team.accounts.find((a) => a.accountId === id)?.name ?? null

        // outcomes recorded on three deals' last calls: two won, one lost
        const outcomes: Array<[string, "won" | "lost"]> = [[team.deals[0]!.callIds.at(-1)!, "won"], [team.deals[1]!.callIds.at(-1)!, "lost"], [team.deals[2]!.callIds.at(-1)!, "won"]]
        for (const [callId, outcome] of outcomes) {
          const put = yield* call("PUT", `/v1/client-portal/calls/${callId}/outcome-truth`, { session, body: { outcome, lead_source: "Referral" } })
          expect(put.status, JSON.stringify(put.body)).toBe(200)
        }
        // the market profile's competitors: the Competitors tracker counts their mentions
        const competitors = ["spreadsheet", "Excel", "PestPac", "Siemens", "Salesforce"]
        const profile = yield* call("PUT", "/v1/client-portal/market-profile", { session, body: { competitors } })
        expect(profile.status, JSON.stringify(profile.body)).toBe(200)
        const mentionsIn = (calls: ReadonlyArray<Call>, term: string) =>
          calls.reduce((n, c) => n + (c.result.transcript ?? []).reduce((m, seg) => m + (seg.text.match(new RegExp(`(?<![\\p{L}\\p{N}])${term}(?![\\p{L}\\p{N}]|['’][\\p{L}])`, "giu"))?.length ?? 0), 0), 0)

        const objectionLine = (calls: ReadonlyArray<Call>) => objectionCounts(calls).map(([kind, n]) => `${kind} ${n} (`)
        const painsIn = (calls: ReadonlyArray<Call>) => calls.reduce((n, c) => n + (c.result.summary?.needs.filter((x) => x.kind === "pain").length ?? 0), 0)
        const dims = (calls: ReadonlyArray<Call>) => {
          const by = new Map<string, Array<number>>()
          for (const c of calls) for (const d of c.result.scorecard.dimensions) if (d.score !== null) by.set(d.dimension, [...(by.get(d.dimension) ?? []), d.score])
          return [...by.entries()].map(([d, xs]) => ({ dimension: d, average: round1(mean(xs)) })).sort((a, b) => a.average - b.average)
        }
        const weekly = (email: string) => {
          const weeks = new Map<number, Array<Call>>()
          for (const c of callsOf(email)) {
            const w = mondayOf(Date.parse(c.meetingAt))
            if (w >= mondayOf(now) - 5 * 7 * DAY) weeks.set(w, [...(weeks.get(w) ?? []), c])
          }
          return [...weeks.entries()].sort((a, b) => a[0] - b[0]).map(([w, calls]) => ({ week: new Date(w).toISOString().slice(0, 10), average: avg(calls), n: calls.length }))
        }
        const rankClosers = (r: readonly [number, number]) =>
          team.closers.map((c) => ({ name: c.fullName, average: avg(within(r).filter((x) => x.closerEmail === c.email)) }))
            .filter((c) => c.average !== null).sort((a, b) => b.average! - a.average!)
        const inOrder = (text: string, parts: ReadonlyArray<string>) => {
          const at = parts.map((p) => text.indexOf(p))
          expect(at.every((i) => i >= 0), `${JSON.stringify(parts)} in ${text}`).toBe(true)
          expect([...at].sort((a, b) => a - b)).toEqual(at)
        }
        const stepsOf = (c: Call) => c.result.next_steps.map((s) => s.quote)
        const dealOf = (i: number) => {
          const d = team.deals[i]!
          return { deal: d, name: accountName(d.accountId)!, calls: d.callIds.map((id) => team.calls.find((c) => c.callId === id)!) }
        }

        const questions: Array<{ q: string; intent: string; check: (r: Reply) => void; follows?: boolean }> = [
          {
            q: "What objections came up most this month?",
            intent: "top_objections",
            check: (r) => (within(range.this_month).length === 0 || objectionCounts(within(range.this_month)).length === 0
              ? expect(r.reply).toMatch(/no objection/i)
              : expect(r.reply).toContain(objectionLine(within(range.this_month))[0]))
          },
          {
            q: "Which objections did we hear the most last month?",
            intent: "top_objections",
            check: (r) => inOrder(r.reply, objectionLine(within(range.last_month)))
          },
          {
            q: "Are price objections going up?",
            intent: "top_objections",
            check: (r) => {
              const count = (calls: ReadonlyArray<Call>) => calls.reduce((n, c) => n + c.result.objections.filter((o) => o.kind === "price").length, 0)
              expect(r.reply).toContain(`Price objections, the last 30 days: ${count(within(range.last_30_days))}`)
              expect(r.reply).toContain(`${count(between(team.calls, prior30[0], prior30[1]))} in the 30 days before`)
            }
          },
          {
            q: "Which competitors came up in the last 90 days?",
            intent: "competitors",
            check: (r) => {
              const found = competitors.map((t) => [t, mentionsIn(within(range.last_90_days), t)] as const).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])
              expect(found.length).toBeGreaterThan(0)
              for (const [term, n] of found) expect(r.reply).toContain(`${term} ${n} (`)
              for (const term of competitors.filter((t) => !found.some(([f]) => f === t))) expect(r.reply).not.toContain(`${term} `)
            }
          },
          {
            q: "Summarize my last call",
            intent: "call_summary",
            check: (r) => {
              expect(r.sources.map((s) => s.id)).toContain(latest.callId)
              for (const q of quotesOf(latest)) expect(r.reply).toContain(q)
            }
          },
          {
            q: "Give me a recap of Blake's last call",
            intent: "call_summary",
            check: (r) => {
              expect(r.sources.map((s) => s.id)).toContain(latestOf(blake).callId)
              for (const q of quotesOf(latestOf(blake))) expect(r.reply).toContain(q)
            }
          },
          {
            q: `Can you summarize ${dealCall.callId} for me?`,
            intent: "call_summary",
            check: (r) => {
              expect(r.sources.map((s) => s.id)).toContain(dealCall.callId)
              for (const q of quotesOf(dealCall)) expect(r.reply).toContain(q)
            }
          },
          {
            q: "How is the team doing this week?",
            intent: "team_overview",
            check: (r) => {
              const calls = within(range.this_week)
              expect(r.reply).toContain(`The team, this week: ${calls.length} call${calls.length === 1 ? "" : "s"} analysed`)
              if (avg(calls) !== null) expect(r.reply).toContain(`average score ${avg(calls)}`)
            }
          },
          {
            q: "How did the team do last week?",
            intent: "team_overview",
            check: (r) => {
              const calls = within(range.last_week)
              expect(r.reply).toContain(`The team, last week: ${calls.length} calls analysed, average score ${avg(calls)}`)
              for (const c of team.closers) {
                const mine = calls.filter((x) => x.closerEmail === c.email)
                if (mine.length > 0) expect(r.reply).toContain(`${c.fullName} ${mine.length} (${avg(mine)})`)
              }
            }
          },
          {
            q: "How many calls did we have last month?",
            intent: "team_overview",
            check: (r) => expect(r.reply).toContain(`The team, last month: ${within(range.last_month).length} calls analysed`)
          },
          {
            q: "Which skill is the team weakest on over the last 30 days?",
            intent: "team_overview",
            check: (r) => {
              const d = dims(within(range.last_30_days))
              expect(r.reply).toContain(`weakest: ${DIMENSION_LABELS[d[0]!.dimension as keyof typeof DIMENSION_LABELS]} (${d[0]!.average})`)
              expect(r.reply).toContain(`strongest: ${DIMENSION_LABELS[d.at(-1)!.dimension as keyof typeof DIMENSION_LABELS]} (${d.at(-1)!.average})`)
            }
          },
          {
            q: "Who is the best closer?",
            intent: "rank_closers",
            check: (r) => inOrder(r.reply, rankClosers(range.last_30_days).map((c) => `${c.name}: ${c.average}`))
          },
          {
            q: "and last month?",
            intent: "rank_closers",
            follows: true,
            check: (r) => inOrder(r.reply, rankClosers(range.last_month).map((c) => `${c.name}: ${c.average}`))
          },
          {
            q: "Who on my team is struggling the most?",
            intent: "rank_closers",
            check: (r) => inOrder(r.reply, [...rankClosers(range.last_30_days)].reverse().map((c) => `${c.name}: ${c.average}`))
          },
          {
            q: "How is Avery trending?",
            intent: "closer_trend",
            check: (r) => {
              expect(r.reply).toContain("Avery Stone")
              for (const w of weekly(avery)) if (w.average !== null) expect(r.reply).toContain(`${w.week}: ${w.average} (${w.n} call`)
            }
          },
          {
            q: "Is Casey Lin improving week over week?",
            intent: "closer_trend",
            check: (r) => {
              const weeks = weekly(casey).filter((w) => w.average !== null)
              for (const w of weeks) expect(r.reply).toContain(`${w.week}: ${w.average} (${w.n} call`)
              const first = weeks[0]!.average!
              const last = weeks.at(-1)!.average!
              expect(r.reply).toContain(`from ${first} to ${last}`)
            }
          },
          {
            q: "How did Blake do last month?",
            intent: "closer_stats",
            check: (r) => {
              const mine = within(range.last_month).filter((c) => c.closerEmail === blake)
              expect(r.reply).toContain(`Blake Ortiz, last month: ${mine.length} call${mine.length === 1 ? "" : "s"} analysed`)
            }
          },
          {
            q: "Which deals are at risk right now?",
            intent: "deals_at_risk",
            check: (r) => {
              expect(r.reply).toMatch(/deal/i)
              // won and lost deals are never at risk
              for (const i of [0, 1, 2]) expect(r.reply).not.toContain(`${dealOf(i).name} (deal`)
            }
          },
          {
            q: `Where do we stand with ${dealOf(3).name}?`,
            intent: "deal_status",
            check: (r) => {
              const { calls, deal, name } = dealOf(3)
              expect(r.reply).toContain(`${name} (deal ${deal.externalDealId}): ${calls.length} calls`)
              inOrder(r.reply, calls.map((c) => `${round1(c.result.scorecard.overall!)}`))
              expect(r.sources.filter((s) => s.kind === "call").map((s) => s.id)).toEqual(expect.arrayContaining([...deal.callIds]))
            }
          },
          {
            q: `What's happening on the ${dealOf(8).name} deal?`,
            intent: "deal_status",
            check: (r) => expect(r.reply).toContain(`${dealOf(8).name} (deal ${dealOf(8).deal.externalDealId}): ${dealOf(8).calls.length} calls`)
          },
          {
            q: "Draft a follow-up email for my last call",
            intent: "draft_follow_up",
            check: (r) => {
              expect(r.reply).toContain("Subject:")
              for (const q of stepsOf(latest)) expect(r.reply).toContain(q)
              expect(r.reply).toContain(closerName(latest.closerEmail))
              expect(r.sources.map((s) => s.id)).toContain(latest.callId)
            }
          },
          {
            q: `Write a follow-up e-mail to the buyer from ${dealCall.callId}`,
            intent: "draft_follow_up",
            check: (r) => {
              for (const q of stepsOf(dealCall)) expect(r.reply).toContain(q)
              expect(r.reply).toContain(closerName(dealCall.closerEmail))
            }
          },
          {
            q: "What were the worst calls last week?",
            intent: "rank_calls",
            check: (r) => {
              const calls = within(range.last_week).filter((c) => c.result.scorecard.overall !== null)
                .sort((a, b) => a.result.scorecard.overall! - b.result.scorecard.overall! || b.meetingAt.localeCompare(a.meetingAt))
              expect(r.sources.filter((s) => s.kind === "call").map((s) => s.id)).toEqual(calls.slice(0, 5).map((c) => c.callId))
            }
          },
          {
            q: "Show me the top 3 calls last month",
            intent: "rank_calls",
            check: (r) => {
              const calls = within(range.last_month).filter((c) => c.result.scorecard.overall !== null)
                .sort((a, b) => b.result.scorecard.overall! - a.result.scorecard.overall! || b.meetingAt.localeCompare(a.meetingAt))
              expect(r.sources.filter((s) => s.kind === "call").map((s) => s.id)).toEqual(calls.slice(0, 3).map((c) => c.callId))
            }
          },
          {
            q: "What's our win rate?",
            intent: "win_rate",
            check: (r) => expect(r.reply).toContain("67% (2 won of 3 decided)")
          },
          {
            q: "What's the close rate for each rep?",
            intent: "win_rate",
            check: (r) => {
              expect(r.reply).toContain(`${avery}: 100% (1 won of 1 decided)`)
              expect(r.reply).toContain(`${blake}: 0% (0 won of 1 decided)`)
            }
          },
          {
            q: "Find calls that mention pricing",
            intent: "search_calls",
            check: (r) => expect(r.reply.toLowerCase()).toMatch(/pric/)
          },
          {
            q: "What pain points do buyers raise?",
            intent: "top_pains",
            check: (r) => {
              const calls = within(range.last_30_days)
              expect(r.reply).toContain(`Pains buyers stated, the last 30 days: ${painsIn(calls)} in ${calls.filter((c) => painsIn([c]) > 0).length} calls`)
            }
          },
          {
            q: "Are we following through on our next steps?",
            intent: "follow_through",
            check: (r) => {
              const calls = within(range.last_30_days)
              const said = calls.reduce((n, c) => n + c.result.next_steps.length, 0)
              const dated = calls.reduce((n, c) => n + c.result.next_steps.filter((s) => s.due !== null && s.due.trim() !== "").length, 0)
              expect(r.reply).toContain(`Next steps, the last 30 days: ${said} said`)
              expect(r.reply).toContain(`${dated} with a date`)
            }
          },
          {
            q: "What should I focus on today?",
            intent: "daily_brief",
            check: (r) => expect(r.reply).toContain("Yesterday:")
          }
        ]
        expect(questions.length).toBe(30)

        let conversation: string | undefined
        for (const question of questions) {
          const reply = yield* chat(session, question.q, question.follows === true ? conversation : undefined)
          conversation = reply.conversation_id
          expect(reply.intent, question.q).toBe(question.intent)
          question.check(reply)
          // every link resolves: each action's page and operation, each call named
          for (const a of reply.suggested_actions) {
            const page = yield* call("GET", new URL(a.url!).pathname, { session })
            expect(page.status, `${question.q}: ${a.url}`).toBe(200)
            if (a.operation?.method === "GET") {
              const done = yield* call("GET", a.operation.path, { session })
              expect(done.status, `${question.q}: ${a.operation.path}`).toBe(200)
            }
          }
          for (const s of reply.sources.filter((s) => s.kind === "call")) {
            expect((yield* call("GET", `/v1/workspace/calls/${s.id}`, { session })).status, `${question.q}: ${s.id}`).toBe(200)
          }
        }
        // every call the answers rest on is the tenant's own
        const ids = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE client_id = ${clientId}`
        expect(ids[0]!.n).toBe(30)
      }))
  })
})
