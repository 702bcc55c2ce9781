/**
 * The chat's tools: the only way either chat (workspace or concierge, rules or LLM) reads data.
 * Every tool is bound to the caller's tenant and to whose calls the caller sees (`Viewer`: a rep,
 * their own) by the engine; its arguments never carry either, so no message, whatever it says,
 * can reach another tenant's rows or, for a rep, another rep's calls (a call id of another tenant
 * or rep is answered like an unknown one; another closer's figures are refused).
 *
 * Each tool answers a `ToolAnswer`: sentences for a person (the rule-based reply), the same
 * figures as data (what the LLM reads), the sources the answer rests on (call ids, closers, view
 * names) and, where the view has them, suggested actions. They run the views the other doors run:
 * workspace search (`views/Search.ts`), the call's analysis (`CallViews.analysis`), the daily brief
 * (`ValueViews.dailyBrief`); a closer's figures, ranked calls and win rates are read by
 * ConversationRepo.ts.
 */
import type { AnswerSource, ClientId, ListCallsQuery, SuggestedAction } from "@callsight/api-spec"
import { CallId } from "@callsight/api-spec"
import { Effect, Schema } from "effect"
import { DIMENSION_LABELS } from "@callsight/analysis/light"
import { CallViews } from "../calls/CallViews.js"
import { AppConfig } from "../config.js"
import { ClosersRepo } from "../tenancy/ClosersRepo.js"
import { sees, type Viewer } from "../tenancy/Sees.js"
import { suggestedActions } from "../views/Actions.js"
import { Search } from "../views/Search.js"
import { summaryLines } from "../views/SummaryText.js"
import { ValueQueries } from "../views/ValueQueries.js"
import { ValueViews } from "../views/ValueViews.js"
import { ConversationRepo, type RankedCallRow } from "./ConversationRepo.js"
import { type Intent, type NamedCloser, type Period, PERIOD_LABEL, periodRange, priorRange, type WinRateBy } from "./Intents.js"

export interface ToolAnswer {
  /** The answer in sentences, as the rule-based chat replies. */
  readonly text: string
  /** The same figures as data, for an LLM to phrase. */
  readonly data: unknown
  readonly sources: ReadonlyArray<typeof AnswerSource.Type>
  readonly suggested_actions: ReadonlyArray<typeof SuggestedAction.Type>
}

/** Search hits listed in an answer. */
export const SEARCH_HITS = 5

const round1 = (x: number) => Math.round(x * 10) / 10
const pct = (x: number) => `${Math.round(x * 100)}%`
const dimensionLabel = (d: string) => (DIMENSION_LABELS as Record<string, string>)[d] ?? d.replace(/_/g, " ")
const stripTags = (html: string) => html.replace(/<\/?b>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "'")
const callLabel = (c: { readonly call_id: string; readonly external_call_id: string | null }) => c.external_call_id ?? c.call_id
const callSource = (c: { readonly call_id: string; readonly external_call_id: string | null }) => ({ kind: "call", id: c.call_id, label: callLabel(c) })

const nothing = (text: string, data: unknown = null): ToolAnswer => ({ text, data, sources: [], suggested_actions: [] })

export class ConversationTools extends Effect.Service<ConversationTools>()("ConversationTools", {
  dependencies: [ConversationRepo.Default, Search.Default, CallViews.Default, ValueViews.Default, ValueQueries.Default, ClosersRepo.Default],
  effect: Effect.gen(function* () {
    const repo = yield* ConversationRepo
    const search = yield* Search
    const calls = yield* CallViews
    const value = yield* ValueViews
    const closersRepo = yield* ClosersRepo
    const valueQueries = yield* ValueQueries
    // the web app's page of each action and the operation that does it, as the daily brief's (views/Actions.ts)
    const act = suggestedActions((yield* AppConfig).publicBaseUrl)

    /** The team's time zone (the market profile's, else UTC), as the daily brief reads it: the periods' days are its days. */
    const zoneOf = (clientId: ClientId) =>
      Effect.map(Effect.orDie(valueQueries.settings(clientId)), (settings) => settings.time_zone ?? "UTC")

    /** The tenant's closers not removed, as the intent rules match names. */
    const closers = (clientId: ClientId) =>
      Effect.map(Effect.orDie(closersRepo.list(clientId)), (rows) =>
        rows.filter((r) => r.status !== "removed").map((r) => ({ email: r.email, fullName: r.full_name, closerId: r.closer_id })))

    const searchCalls = (viewer: Viewer, query: string) =>
      Effect.map(search.search(viewer.clientId, viewer.sees, { q: query, limit: SEARCH_HITS }), (found): ToolAnswer => {
        if (found.results.length === 0) return nothing(`No call, closer or note matches “${found.q}”.`, { query: found.q, total: 0, hits: [] })
        const hits = found.results.map((r) => ({
          kind: r.kind,
          call_id: r.call_id,
          title: r.title,
          snippet: stripTags(r.snippet),
          second: r.start === null ? null : Math.floor(r.start),
          at: r.at
        }))
        const lines = hits.map((h) => `- ${h.title}${h.second === null ? "" : ` at ${Math.floor(h.second / 60)}:${String(h.second % 60).padStart(2, "0")}`}: “${h.snippet}”`)
        const callIds = [...new Set(found.results.flatMap((r) => (r.call_id === null ? [] : [r.call_id])))]
        return {
          text: `${found.total} match${found.total === 1 ? "" : "es"} for “${found.q}”${found.total > hits.length ? `, the best ${hits.length}` : ""}:\n${lines.join("\n")}`,
          data: { query: found.q, total: found.total, hits },
          sources: [
            ...callIds.map((id) => ({ kind: "call", id, label: found.results.find((r) => r.call_id === id)?.title ?? id })),
            { kind: "view", id: "workspace.search", label: "Workspace search" }
          ],
          suggested_actions: []
        }
      })

    const getCall = (viewer: Viewer, callId: string) =>
      Schema.decodeUnknown(CallId)(callId).pipe(
        Effect.flatMap((id) => calls.analysis(viewer.clientId, id, viewer.sees)),
        Effect.map((a): ToolAnswer => {
          const overall = a.scorecard?.overall ?? null
          const dims = (a.scorecard?.dimensions ?? []).filter((d) => d.score !== null)
          const weakest = [...dims].sort((x, y) => x.score! - y.score!)[0]
          const parts = [
            `Call ${callLabel(a)}${a.closer_email === null ? "" : ` by ${a.closer_email}`} is ${a.status}.`,
            ...(a.status === "completed"
              ? [
                overall === null ? "It has no overall score." : `Overall score ${round1(overall)}${a.scorecard?.overall_basis?.partial === true ? ` (partial: ${a.scorecard.overall_basis.assessed} of 6 dimensions)` : ""}.`,
                ...(weakest === undefined ? [] : [`Weakest dimension: ${dimensionLabel(weakest.dimension)} (${round1(weakest.score!)}).`]),
                a.objections.length === 0 ? "No objection was raised." : `Objections: ${a.objections.map((o) => `${o.kind} (“${o.quote}”)`).join("; ")}.`,
                a.next_steps.length === 0 ? "No next step was agreed." : `Next steps: ${a.next_steps.map((s) => `“${s.quote}”${s.due === null ? "" : ` (due ${s.due})`}`).join("; ")}.`
              ]
              : a.status === "failed" ? [`It failed: ${a.error?.message ?? "unknown reason"}.`] : [])
          ]
          return {
            text: parts.join(" "),
            data: {
              call_id: a.call_id,
              external_call_id: a.external_call_id,
              closer_email: a.closer_email,
              status: a.status,
              created_at: a.created_at,
              overall_score: overall,
              dimensions: dims.map((d) => ({ dimension: d.dimension, score: d.score })),
              objections: a.objections.map((o) => ({ kind: o.kind, quote: o.quote, response: o.response })),
              next_steps: a.next_steps.map((s) => ({ quote: s.quote, owner: s.owner, due: s.due }))
            },
            sources: [callSource(a)],
            suggested_actions: a.status === "completed"
              ? [act.reviewCall(a.call_id, `Open the report of ${callLabel(a)}`)]
              : []
          }
        }),
        Effect.catchAll(() => Effect.succeed(nothing(`There is no call ${callId} in your account.`, { call_id: callId, found: false })))
      )

    /**
     * A call's summary (what the buyer needs, what was agreed, open risks, with the quotes): the call
     * named, else the latest analysed call the caller sees (a rep: their own), of `closer` when named.
     */
    const callSummary = (viewer: Viewer, callId: string | null, closer: string | null = null) =>
      Effect.gen(function* () {
        let id = callId
        if (id === null) {
          const query = { limit: 1, status: "completed", ...(closer === null ? {} : { closer_email: closer }) } as typeof ListCallsQuery.Type
          const latest = (yield* calls.list(viewer.clientId, query, viewer.sees)).calls[0]
          if (latest === undefined) {
            return nothing(`There is no analysed call${closer === null ? "" : ` of ${closer}`} you can see yet.`, { call_id: null, found: false })
          }
          id = latest.call_id
        }
        const a = yield* Effect.flatMap(Schema.decodeUnknown(CallId)(id), (cid) => calls.analysis(viewer.clientId, cid, viewer.sees))
        const title = `call ${callLabel(a)}${a.closer_email === null ? "" : ` by ${a.closer_email}`} (${a.created_at.slice(0, 10)})`
        const base = { sources: [callSource(a)], suggested_actions: a.status === "completed" ? [act.reviewCall(a.call_id, `Open the report of ${callLabel(a)}`)] : [] }
        if (a.summary === null) {
          const why = a.status !== "completed" ? `its analysis is ${a.status}`
            : a.transcript === null ? "it was analysed without a transcript"
            : `it was analysed before summaries (method ${a.method_version ?? "unknown"}); analyse it again to get one`
          return { ...base, text: `There is no summary of ${title}: ${why}.`, data: { call_id: a.call_id, summary: null } } satisfies ToolAnswer
        }
        return {
          ...base,
          text: [`Summary of ${title}:`, ...summaryLines(a.summary).map((l) => `- ${l}`)].join("\n"),
          data: { call_id: a.call_id, external_call_id: a.external_call_id, closer_email: a.closer_email, created_at: a.created_at, summary: a.summary }
        } satisfies ToolAnswer
      }).pipe(Effect.catchAll(() => Effect.succeed(nothing(`There is no call ${callId} in your account.`, { call_id: callId, found: false }))))

    const closerStats = (viewer: Viewer, who: string, period: Period, now: Date) =>
      Effect.gen(function* () {
        const clientId = viewer.clientId
        const all = yield* closers(clientId)
        const needle = who.trim().toLowerCase()
        const closer = all.find((c) => c.email.toLowerCase() === needle || c.fullName.toLowerCase() === needle)
          ?? (() => {
            const byFirst = all.filter((c) => c.fullName.toLowerCase().split(/\s+/)[0] === needle)
            return byFirst.length === 1 ? byFirst[0] : undefined
          })()
        if (closer === undefined) {
          return nothing(`No closer in your team is called “${who}”. Your closers: ${all.map((c) => c.fullName).join(", ") || "none yet"}.`, { closer: who, found: false })
        }
        // a rep sees their own figures only (the policy's "self")
        if (!sees(viewer.sees, closer.email)) {
          return nothing(`You see your own calls only: ask an owner or an admin of the account about ${closer.fullName}'s.`, { closer: closer.fullName, found: true, visible: false })
        }
        const zone = yield* zoneOf(clientId)
        const range = periodRange(period, now, zone)
        const prior = priorRange(period, now, zone)
        const [[figures, dimensions], [before], ranked] = yield* Effect.all([
          repo.closerFigures(clientId, closer.email, range.from, range.to),
          repo.closerFigures(clientId, closer.email, prior.from, prior.to),
          repo.rankedCalls(viewer, { ...range, best: false, limit: 50, closerEmail: closer.email })
        ])
        const label = PERIOD_LABEL[period]
        const source = { kind: "closer", id: closer.closerId, label: closer.fullName }
        if (figures.calls === 0) {
          return {
            text: `${closer.fullName} has no analysed call ${label}${before.calls > 0 ? ` (${before.calls} in the period before)` : ""}.`,
            data: { closer: closer.fullName, email: closer.email, period, calls: 0, calls_before: before.calls },
            sources: [source],
            suggested_actions: []
          } satisfies ToolAnswer
        }
        const average = figures.average === null ? null : round1(figures.average)
        const change = average !== null && before.average !== null ? round1(figures.average! - before.average) : null
        const strongest = dimensions.at(-1)
        const weakest = dimensions[0]
        const worst = ranked[0]
        const best = ranked.at(-1)
        const sentences = [
          `${closer.fullName}, ${label}: ${figures.calls} call${figures.calls === 1 ? "" : "s"} analysed` +
          (average === null ? ", none scored." : `, average score ${average}` +
            (change === null ? "." : ` (${change >= 0 ? "+" : ""}${change} on the period before, ${round1(before.average!)}).`)),
          ...(strongest !== undefined && weakest !== undefined && dimensions.length > 1
            ? [`Strongest: ${dimensionLabel(strongest.dimension)} (${round1(strongest.average)}); weakest: ${dimensionLabel(weakest.dimension)} (${round1(weakest.average)}).`]
            : []),
          ...(figures.talk_ratio === null ? [] : [`Talk ratio ${pct(figures.talk_ratio)}.`]),
          ...(best !== undefined && worst !== undefined && ranked.length > 1
            ? [`Best call ${callLabel(best)} (${round1(best.overall)}), lowest ${callLabel(worst)} (${round1(worst.overall)}).`]
            : [])
        ]
        const shown: ReadonlyArray<RankedCallRow> = ranked.length > 1 ? [best!, worst!] : ranked
        return {
          text: sentences.join(" "),
          data: {
            closer: closer.fullName,
            email: closer.email,
            period,
            from: range.from.toISOString(),
            to: range.to.toISOString(),
            calls: figures.calls,
            scored: figures.scored,
            average_score: average,
            average_score_before: before.average === null ? null : round1(before.average),
            talk_ratio: figures.talk_ratio === null ? null : round1(figures.talk_ratio * 100) / 100,
            dimensions: dimensions.map((d) => ({ dimension: d.dimension, average: round1(d.average), calls: d.calls })),
            calls_ranked: ranked.slice(0, 10).map((c) => ({ call_id: c.call_id, external_call_id: c.external_call_id, overall: c.overall }))
          },
          sources: [source, ...shown.map(callSource)],
          suggested_actions: worst === undefined
            ? []
            : [act.reviewCall(worst.call_id, `Review ${closer.fullName}'s lowest call`, closer.closerId)]
        } satisfies ToolAnswer
      })

    const rankCalls = (viewer: Viewer, order: "worst" | "best", period: Period, limit: number, now: Date) =>
      zoneOf(viewer.clientId).pipe(
        Effect.flatMap((zone) => repo.rankedCalls(viewer, { ...periodRange(period, now, zone), best: order === "best", limit, closerEmail: null })),
        Effect.map((rows): ToolAnswer => {
        const label = PERIOD_LABEL[period]
        if (rows.length === 0) return nothing(`No scored call ${label}.`, { order, period, calls: [] })
        const lines = rows.map((c) => `${callLabel(c)}${c.closer_email === null ? "" : ` by ${c.closer_email}`}: ${round1(c.overall)}`)
        return {
          text: rows.length === 1
            ? `The ${order === "best" ? "best" : "lowest-scored"} call ${label} is ${lines[0]}.`
            : `The ${rows.length} ${order === "best" ? "best" : "lowest-scored"} calls ${label}:\n${lines.map((l) => `- ${l}`).join("\n")}`,
          data: { order, period, calls: rows.map((c) => ({ call_id: c.call_id, external_call_id: c.external_call_id, closer_email: c.closer_email, overall: c.overall, created_at: c.created_at })) },
          sources: rows.map(callSource),
          suggested_actions: rows.slice(0, 3).map((c) => act.reviewCall(c.call_id, `Open the report of ${callLabel(c)}`))
        }
      }))

    const winRate = (viewer: Viewer, by: WinRateBy, period: Period | null, now: Date) =>
      zoneOf(viewer.clientId).pipe(
        Effect.flatMap((zone) => repo.winRates(viewer, by, period === null ? null : periodRange(period, now, zone))),
        Effect.map((rows): ToolAnswer => {
        const when = period === null ? "" : ` ${PERIOD_LABEL[period]}`
        const segments = rows.map((r) => ({ ...r, decided: r.won + r.lost, win_rate: r.won + r.lost === 0 ? null : r.won / (r.won + r.lost) }))
        const source = { kind: "view", id: "outcome_truth", label: "Outcome truth (won / (won + lost))" }
        if (segments.every((s) => s.decided === 0)) {
          return { ...nothing(`No deal was recorded won or lost${when}, so there is no win rate yet. Record outcomes on your calls (outcome truth) to see one.`, { by, period, segments }), sources: [source] }
        }
        const line = (s: typeof segments[number]) =>
          `${s.win_rate === null ? "no decided deal" : `${pct(s.win_rate)} (${s.won} won of ${s.decided} decided)`}${s.open + s.no_decision > 0 ? `, ${s.open} open, ${s.no_decision} no decision` : ""}`
        const text = by === "overall"
          ? `Win rate${when}: ${line(segments[0]!)}.`
          : `Win rate by ${by === "lead_source" ? "lead source" : "closer"}${when}:\n${segments.map((s) => `- ${s.segment}: ${line(s)}`).join("\n")}`
        return { text, data: { by, period, segments }, sources: [source], suggested_actions: [] }
      }))

    const dailyBrief = (viewer: Viewer) =>
      Effect.map(value.dailyBrief(viewer.clientId, viewer.sees), (brief): ToolAnswer => {
        const actions = brief.suggested_actions
        const risks = brief.deals_at_risk.filter((d) => d.risk !== "low")
        const text = [
          `Yesterday: ${brief.calls_analysed} call${brief.calls_analysed === 1 ? "" : "s"} analysed${brief.average_score === null ? "" : `, average score ${round1(brief.average_score)}`}.`,
          actions.length === 0 ? "Nothing needs you today." : `Today:\n${actions.map((a) => `- ${a.label}`).join("\n")}`,
          ...(risks.length === 0 ? [] : [`Deals at risk: ${risks.map((d) => `${d.call_id} (${d.risk}: ${d.reasons.join(", ")})`).join("; ")}.`])
        ].join("\n")
        return {
          text,
          data: { date: brief.date, calls_analysed: brief.calls_analysed, average_score: brief.average_score, suggested_actions: actions, deals_at_risk: brief.deals_at_risk },
          sources: [
            { kind: "view", id: "daily_brief", label: `Daily brief of ${brief.date}` },
            ...risks.map((d) => ({ kind: "call", id: d.call_id, label: d.call_id }))
          ],
          suggested_actions: actions
        }
      })

    /** Runs a recognised intent: the rule-based chat's one step. */
    const run = (viewer: Viewer, intent: Intent, now: Date): Effect.Effect<ToolAnswer> => {
      switch (intent.tool) {
        case "get_call":
          return getCall(viewer, intent.call_id)
        case "call_summary":
          return callSummary(viewer, intent.call_id, intent.closer)
        case "rank_calls":
          return rankCalls(viewer, intent.order, intent.period, intent.limit, now)
        case "win_rate":
          return winRate(viewer, intent.by, intent.period, now)
        case "daily_brief":
          return dailyBrief(viewer)
        case "closer_stats":
          return closerStats(viewer, intent.closer, intent.period, now)
        case "search_calls":
          return searchCalls(viewer, intent.query)
      }
    }

    return {
      closers: (clientId: ClientId): Effect.Effect<ReadonlyArray<NamedCloser>> => closers(clientId),
      zoneOf,
      run,
      searchCalls,
      getCall,
      callSummary,
      closerStats,
      rankCalls,
      winRate,
      dailyBrief
    } as const
  })
}) {}
