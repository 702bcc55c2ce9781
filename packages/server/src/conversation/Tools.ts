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
import type { AnswerSource, ClientId, DealIntelligence, ListCallsQuery, SuggestedAction } from "@callsight/api-spec"
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
import { DealViews } from "../ports/DealViews.js"
import { type TrendWindow, Trends, trendWindows } from "../views/Trends.js"
import { OPEN_DEAL_DAYS, ValueViews } from "../views/ValueViews.js"
import { ConversationRepo, type RankedCallRow } from "./ConversationRepo.js"
import { type Intent, type NamedCloser, type ObjectionKindAsked, type Period, PERIOD_LABEL, periodRange, priorRange, type WinRateBy } from "./Intents.js"

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
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** What the period before a period is called in an answer. */
const PRIOR_LABEL: Record<Period, string> = {
  today: "yesterday",
  yesterday: "the day before",
  this_week: "last week",
  last_week: "the week before",
  this_month: "last month",
  last_month: "the month before",
  last_7_days: "the 7 days before",
  last_30_days: "the 30 days before",
  last_90_days: "the 90 days before"
}

/** A day as the answers write it: 2026-11-26. */
const day = (iso: string) => iso.slice(0, 10)

/** Sources of the calls behind a number: the first few. */
const CALLS_NAMED = 10
const callIdSources = (ids: ReadonlyArray<string>) => ids.slice(0, CALLS_NAMED).map((id) => ({ kind: "call", id, label: id }))
/** A closer's week-by-week score moved this much from the first scored week to the last: improving or declining. */
const TREND_POINTS = 5
const DIMENSION_ORDER = Object.keys(DIMENSION_LABELS)
const dealsSource = { kind: "view", id: "deal_intelligence", label: "Deal intelligence (GET /v1/workspace/deal-intelligence)" }
const trendsSource = { kind: "view", id: "trends", label: "Trends (GET /v1/client-portal/trends)" }

export class ConversationTools extends Effect.Service<ConversationTools>()("ConversationTools", {
  dependencies: [ConversationRepo.Default, Search.Default, CallViews.Default, ValueViews.Default, ValueQueries.Default, ClosersRepo.Default, Trends.Default],
  effect: Effect.gen(function* () {
    const repo = yield* ConversationRepo
    const search = yield* Search
    const calls = yield* CallViews
    const value = yield* ValueViews
    const closersRepo = yield* ClosersRepo
    const valueQueries = yield* ValueQueries
    const trends = yield* Trends
    const dealViews = yield* DealViews
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

    /** The latest analysed call the caller sees (of `closer`, when named): its id, or null. */
    const latestCall = (viewer: Viewer, closer: string | null) =>
      Effect.map(
        calls.list(viewer.clientId, { limit: 1, status: "completed", ...(closer === null ? {} : { closer_email: closer }) } as typeof ListCallsQuery.Type, viewer.sees),
        (page): string | null => page.calls[0]?.call_id ?? null
      )

    /**
     * A call's summary (what the buyer needs, what was agreed, open risks, with the quotes): the call
     * named, else the latest analysed call the caller sees (a rep: their own), of `closer` when named.
     */
    const callSummary = (viewer: Viewer, callId: string | null, closer: string | null = null) =>
      Effect.gen(function* () {
        const id = callId ?? (yield* latestCall(viewer, closer))
        if (id === null) {
          return nothing(`There is no analysed call${closer === null ? "" : ` of ${closer}`} you can see yet.`, { call_id: null, found: false })
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

    /** A period and the one before it as the trends view's two windows (the team's days). */
    const windowsOf = (clientId: ClientId, period: Period, now: Date) =>
      Effect.map(zoneOf(clientId), (zone): Array<TrendWindow> =>
        [priorRange(period, now, zone), periodRange(period, now, zone)].map((r) => ({
          period_start: day(r.from.toISOString()),
          from: r.from.toISOString(),
          to: r.to.toISOString()
        })))

    /** The trends of the calls the caller sees (a rep: their own) in the period and the one before, for the team and per closer. */
    const compare = (viewer: Viewer, period: Period, now: Date) =>
      Effect.flatMap(windowsOf(viewer.clientId, period, now), (windows) =>
        Effect.map(Effect.orDie(trends.scopes(viewer.clientId, viewer.sees, windows, null, PERIOD_LABEL[period])), (s) => ({
          ...s,
          before: s.team.periods[0]!,
          current: s.team.periods[1]!
        })))

    const topObjections = (viewer: Viewer, period: Period, kind: ObjectionKindAsked | null, now: Date) =>
      Effect.map(compare(viewer, period, now), ({ before, current, team }): ToolAnswer => {
        const label = PERIOD_LABEL[period]
        const prior = PRIOR_LABEL[period]
        if (kind !== null) {
          const k = current.objections_by_kind.find((x) => x.kind === kind)!
          const b = before.objections_by_kind.find((x) => x.kind === kind)!
          const way = k.count > b.count ? "up" : k.count < b.count ? "down" : "level"
          return {
            text: `${kind[0]!.toUpperCase()}${kind.slice(1)} objections, ${label}: ${k.count} in ${plural(k.calls, "call")} (${b.count} in ${prior}: ${way}).`,
            data: { period, kind, count: k.count, calls: k.calls, before: b.count, call_ids: k.call_ids, before_call_ids: b.call_ids },
            sources: [...callIdSources(k.call_ids), trendsSource],
            suggested_actions: []
          }
        }
        const kinds = current.objections_by_kind.filter((x) => x.count > 0).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind))
        const changes = team.changes.filter((c) => c.notable && c.metric === "objection_kind").map((c) => c.sentence)
        if (kinds.length === 0) {
          return { ...nothing(`No objection was raised ${label} (${before.objections.count} in ${prior}).`, { period, kinds: [], before: before.objections.count }), sources: [trendsSource] }
        }
        return {
          text: `Objections, ${label}: ${kinds.map((x) => `${x.kind} ${x.count} (${plural(x.calls, "call")})`).join(", ")}; ` +
            `${current.objections.count} in all (${before.objections.count} in ${prior}).` + (changes.length === 0 ? "" : ` Notable: ${changes.join("; ")}.`),
          data: { period, kinds, total: current.objections.count, before: before.objections.count, changes },
          sources: [...callIdSources(current.objections.call_ids), trendsSource],
          suggested_actions: []
        }
      })

    const competitors = (viewer: Viewer, period: Period, now: Date) =>
      Effect.map(compare(viewer, period, now), ({ before, current }): ToolAnswer => {
        const label = PERIOD_LABEL[period]
        const terms = current.competitors_by_term
        if (terms.length === 0) {
          return {
            ...nothing(`No competitor of your market profile was mentioned ${label} (${before.competitors.count} mentions in ${PRIOR_LABEL[period]}). ` +
              "The market profile's competitors are what is tracked: add or change them in Settings → Market profile.", { period, competitors: [] }),
            sources: [trendsSource]
          }
        }
        return {
          text: `Competitors mentioned, ${label}: ${terms.map((t) => `${t.term} ${t.count} (${plural(t.calls, "call")})`).join(", ")}; ` +
            `${current.competitors.count} mentions in all (${before.competitors.count} in ${PRIOR_LABEL[period]}).`,
          data: { period, competitors: terms, total: current.competitors.count, before: before.competitors.count },
          sources: [...callIdSources(current.competitors.call_ids), trendsSource],
          suggested_actions: []
        }
      })

    const topPains = (viewer: Viewer, period: Period, now: Date) =>
      Effect.map(compare(viewer, period, now), ({ before, current }): ToolAnswer => ({
        text: `Pains buyers stated, ${PERIOD_LABEL[period]}: ${current.pains.count} in ${plural(current.pains.calls, "call")} ` +
          `(${before.pains.count} in ${PRIOR_LABEL[period]}). Each call's summary quotes them (“what the buyer needs”).`,
        data: { period, pains: current.pains, before: before.pains },
        sources: [...callIdSources(current.pains.call_ids), trendsSource],
        suggested_actions: current.pains.call_ids.slice(0, 3).map((id) => act.reviewCall(id as CallId, `Open the report of ${id}`))
      }))

    const followThrough = (viewer: Viewer, period: Period, now: Date) =>
      Effect.map(compare(viewer, period, now), ({ before, current }): ToolAnswer => {
        const steps = current.next_steps
        const kept = steps.kept === null || steps.slipped === null ? "" : `; ${steps.kept.count} kept, ${steps.slipped.count} slipped`
        return {
          text: `Next steps, ${PERIOD_LABEL[period]}: ${steps.said.count} said in ${plural(steps.said.calls, "call")} of ${current.calls.count}, ` +
            `${steps.dated.count} with a date${kept} (${before.next_steps.said.count} said in ${PRIOR_LABEL[period]}, ${before.next_steps.dated.count} with a date).`,
          data: { period, next_steps: steps, calls: current.calls.count, before: before.next_steps },
          sources: [...callIdSources(steps.said.call_ids), trendsSource],
          suggested_actions: []
        }
      })

    /** The tenant's closers' full names by lower-cased e-mail. */
    const namesOf = (clientId: ClientId) => Effect.map(closers(clientId), (all) => new Map(all.map((c) => [c.email.toLowerCase(), c.fullName])))

    const teamOverview = (viewer: Viewer, period: Period, now: Date) =>
      Effect.map(Effect.all([compare(viewer, period, now), namesOf(viewer.clientId)]), ([{ before, closers: perCloser, current }, names]): ToolAnswer => {
        const label = PERIOD_LABEL[period]
        const n = current.calls.count
        if (n === 0) {
          return { ...nothing(`The team, ${label}: no call analysed (${plural(before.calls.count, "call")} in ${PRIOR_LABEL[period]}).`, { period, calls: 0 }), sources: [trendsSource] }
        }
        const avg = current.overall_score.average
        const was = before.overall_score.average
        const change = avg !== null && was !== null ? Math.round((avg - was) * 10) / 10 : null
        const people = perCloser.flatMap(({ email, scope }) => {
          const p = scope.periods[1]!
          if (p.calls.count === 0) return []
          const name = email === null ? "no closer" : names.get(email.toLowerCase()) ?? email
          return [`${name} ${p.calls.count} (${p.overall_score.average ?? "no score"})`]
        })
        const dims = current.dimensions.filter((d) => d.average !== null).sort((a, b) => a.average! - b.average!)
        const top = current.objections_by_kind.filter((k) => k.count > 0).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind))[0]
        const sentences = [
          `The team, ${label}: ${plural(n, "call")} analysed` + (avg === null ? "." : `, average score ${avg}` +
            (change === null ? "." : ` (${change >= 0 ? "+" : ""}${change} on ${PRIOR_LABEL[period]}, ${was}).`)),
          ...(people.length === 0 ? [] : [`By closer: ${people.join(", ")}.`]),
          ...(dims.length < 2 ? [] : [`Dimensions, strongest: ${dimensionLabel(dims.at(-1)!.dimension)} (${dims.at(-1)!.average}); weakest: ${dimensionLabel(dims[0]!.dimension)} (${dims[0]!.average}).`]),
          ...(top === undefined ? [] : [`Most raised objection: ${top.kind} (${top.count}).`])
        ]
        return {
          text: sentences.join(" "),
          data: { period, calls: n, average_score: avg, average_score_before: was, dimensions: current.dimensions, objections_by_kind: current.objections_by_kind },
          sources: [...callIdSources(current.calls.call_ids), trendsSource],
          suggested_actions: []
        }
      })

    const rankClosers = (viewer: Viewer, order: "best" | "worst", period: Period, now: Date) =>
      Effect.map(Effect.all([compare(viewer, period, now), namesOf(viewer.clientId)]), ([{ closers: perCloser }, names]): ToolAnswer => {
        const label = PERIOD_LABEL[period]
        const ranked = perCloser
          .filter(({ email, scope }) => email !== null && scope.periods[1]!.overall_score.n > 0)
          .map(({ email: closerEmail, lowest: lowestIds, scope }) => {
            const email = closerEmail!
            const p = scope.periods[1]!
            // the call of the lowest score in the period (the newest of equals), counted with the trends
            const lowestId = lowestIds[1] ?? null
            const lowest = lowestId === null ? undefined : { call_id: lowestId }
            return { email, name: names.get(email.toLowerCase()) ?? email, average: p.overall_score.average!, scored: p.overall_score.n, lowest }
          })
          .sort((a, b) => (order === "best" ? b.average - a.average : a.average - b.average))
        if (ranked.length === 0) return { ...nothing(`No closer has a scored call ${label}.`, { period, closers: [] }), sources: [trendsSource] }
        const last = ranked[0]!
        return {
          text: `Closers by average score, ${label}${order === "worst" ? ", lowest first" : ""}:\n` +
            ranked.map((c) => `- ${c.name}: ${c.average} (${plural(c.scored, "call")} scored)`).join("\n"),
          data: { period, order, closers: ranked.map(({ lowest: _, ...c }) => c) },
          sources: [trendsSource, ...ranked.flatMap((c) => (c.lowest === undefined ? [] : [{ kind: "call", id: c.lowest.call_id, label: c.lowest.call_id }]))],
          suggested_actions: order === "worst" && last.lowest !== undefined
            ? [act.reviewCall(last.lowest.call_id as CallId, `Review ${last.name}'s lowest call ${label}`)]
            : []
        }
      })

    /** A closer's score week by week, the last six weeks (UTC, from Monday), with the calls behind each week. */
    const closerTrend = (viewer: Viewer, who: string, now: Date) =>
      Effect.gen(function* () {
        const all = yield* closers(viewer.clientId)
        const needle = who.trim().toLowerCase()
        const closer = all.find((c) => c.email.toLowerCase() === needle || c.fullName.toLowerCase() === needle)
        if (closer === undefined) return nothing(`No closer in your team is called “${who}”.`, { closer: who, found: false })
        if (!sees(viewer.sees, closer.email)) {
          return nothing(`You see your own calls only: ask an owner or an admin of the account about ${closer.fullName}'s.`, { closer: closer.fullName, visible: false })
        }
        const windows = yield* Effect.orDie(trendWindows({ period: "week", periods: 6 }, now))
        const { team } = yield* Effect.orDie(trends.scopes(viewer.clientId, viewer.sees, windows, closer.email, "this week"))
        const weeks = team.periods
        const scoredWeeks = weeks.filter((p) => p.overall_score.average !== null)
        const first = scoredWeeks[0]?.overall_score.average ?? null
        const last = scoredWeeks.at(-1)?.overall_score.average ?? null
        const delta = first !== null && last !== null ? Math.round((last - first) * 10) / 10 : null
        const verdict = delta === null || scoredWeeks.length < 2 ? "too few scored weeks to tell"
          : delta >= TREND_POINTS ? `improving (+${delta})` : delta <= -TREND_POINTS ? `declining (${delta})` : `steady (${delta >= 0 ? "+" : ""}${delta})`
        const dims = scoredWeeks.length < 2 ? [] : DIMENSION_ORDER.flatMap((d) => {
          const a = scoredWeeks[0]!.dimensions.find((x) => x.dimension === d)?.average ?? null
          const b = scoredWeeks.at(-1)!.dimensions.find((x) => x.dimension === d)?.average ?? null
          return a === null || b === null ? [] : [{ dimension: d, from: a, to: b, change: Math.round((b - a) * 10) / 10 }]
        }).sort((x, y) => x.change - y.change)
        return {
          text: `${closer.fullName}, week by week (average score): ` +
            weeks.map((p) => (p.overall_score.average === null ? `${p.period_start}: no scored call` : `${p.period_start}: ${p.overall_score.average} (${plural(p.calls.count, "call")})`)).join("; ") +
            `. Over the weeks: ${delta === null ? "" : `from ${first} to ${last}, `}${verdict}.` +
            (dims.length === 0 ? "" : ` Most down: ${dimensionLabel(dims[0]!.dimension)} (${dims[0]!.from} to ${dims[0]!.to}); most up: ${dimensionLabel(dims.at(-1)!.dimension)} (${dims.at(-1)!.from} to ${dims.at(-1)!.to}).`),
          data: { closer: closer.fullName, email: closer.email, weeks: weeks.map((p) => ({ week: p.period_start, calls: p.calls.count, average_score: p.overall_score.average, call_ids: p.calls.call_ids })), change: delta },
          sources: [{ kind: "closer", id: closer.closerId, label: closer.fullName }, ...callIdSources(weeks.flatMap((p) => p.calls.call_ids)), trendsSource],
          suggested_actions: []
        } satisfies ToolAnswer
      })

    /** A follow-up e-mail drafted from a call's summary and next steps: the call named, else the latest the caller sees (of `closer`). */
    const draftFollowUp = (viewer: Viewer, callId: string | null, closer: string | null) =>
      Effect.gen(function* () {
        const id = callId ?? (yield* latestCall(viewer, closer))
        if (id === null) return nothing(`There is no analysed call${closer === null ? "" : ` of ${closer}`} you can see yet.`, { call_id: null, found: false })
        const a = yield* Effect.flatMap(Schema.decodeUnknown(CallId)(id), (cid) => calls.analysis(viewer.clientId, cid, viewer.sees))
        const when = day(a.meeting_at)
        const name = (yield* closers(viewer.clientId)).find((c) => a.closer_email !== null && c.email.toLowerCase() === a.closer_email.toLowerCase())?.fullName
          ?? a.closer_email ?? "[your name]"
        const needs = a.summary?.needs.flatMap((n) => n.quotes.filter((q) => q.speaker !== "S1").map((q) => q.quote)) ?? []
        const risks = a.summary?.risks.flatMap((r) => r.quotes.map((q) => q.quote)) ?? []
        const base = { sources: [callSource(a)], suggested_actions: [act.reviewCall(a.call_id, `Open the report of ${callLabel(a)}`)] }
        if (a.next_steps.length === 0 && needs.length === 0) {
          return { ...base, text: `Call ${callLabel(a)} has no summary or next step to draft a follow-up from${a.summary === null ? " (it has no summary)" : ""}.`, data: { call_id: a.call_id, draft: null } } satisfies ToolAnswer
        }
        const email = [
          `Subject: Following up on our call of ${when}`,
          "",
          "Hi,",
          "",
          `Thank you for your time on ${when}. Here is what I took from our conversation, so we are on the same page.`,
          ...(needs.length === 0 ? [] : ["", "What you told us:", ...needs.map((q) => `- “${q}”`)]),
          ...(a.next_steps.length === 0 ? [] : ["", "What we agreed as next steps:", ...a.next_steps.map((s) => `- ${s.quote}${s.due === null || s.due.trim() === "" ? "" : ` (by ${s.due.trim()})`}`)]),
          ...(risks.length === 0 ? [] : ["", "What is still open, which I would like us to settle:", ...risks.map((q) => `- “${q}”`)]),
          "",
          "Best regards,",
          name
        ].join("\n")
        return {
          ...base,
          text: `A draft follow-up e-mail for call ${callLabel(a)} of ${when}, from its summary and next steps (the words as said on the call; edit before sending):\n\n${email}`,
          data: { call_id: a.call_id, meeting_at: a.meeting_at, draft: email }
        } satisfies ToolAnswer
      }).pipe(Effect.catchAll(() => Effect.succeed(nothing(`There is no call ${callId} in your account.`, { call_id: callId, found: false }))))

    type Deal = (typeof DealIntelligence.Type)["deals"][number]
    const dealName = (d: Deal) => `${d.account?.name ?? callLabel(d)} (deal ${d.external_deal_id ?? d.deal_id ?? d.call_id})`
    const dealReasons = (d: Deal) => [...new Set([...d.risk_reasons, ...d.signals])]

    const dealsAtRisk = (viewer: Viewer) =>
      Effect.map(dealViews.compute(viewer.clientId, viewer.sees), (intel): ToolAnswer => {
        const risky = intel.deals.filter((d) => d.risk !== "low")
        if (risky.length === 0) {
          return { ...nothing(`No open deal is at risk (${plural(intel.deals.length, "open deal")} in the last ${OPEN_DEAL_DAYS} days).`, { deals: [] }), sources: [dealsSource] }
        }
        return {
          text: `Deals at risk, highest first (${risky.length} of ${plural(intel.deals.length, "open deal")}):\n` +
            risky.map((d) => `- ${dealName(d)}, ${d.risk}: ${dealReasons(d).slice(0, 4).join("; ")}`).join("\n"),
          data: { deals: risky },
          sources: [dealsSource, ...risky.slice(0, CALLS_NAMED).map((d) => ({ kind: "call", id: d.call_id, label: dealName(d) }))],
          suggested_actions: risky.slice(0, 3).map((d) => act.followUp(d.call_id, `Follow up ${dealName(d)}`))
        }
      })

    const dealStatus = (viewer: Viewer, account: string) =>
      Effect.map(dealViews.compute(viewer.clientId, viewer.sees), (intel): ToolAnswer => {
        const needle = account.trim().toLowerCase()
        const deals = intel.deals.filter((d) => d.account !== null && (d.account.name.toLowerCase() === needle || d.account.domain === needle))
        if (deals.length === 0) {
          return { ...nothing(`No open deal of ${account} had a call in the last ${OPEN_DEAL_DAYS} days that you can see.`, { account, deals: [] }), sources: [dealsSource] }
        }
        const lines = deals.map((d) => {
          const first = d.calls[0]
          const last = d.calls.at(-1)
          const t = d.score_trend
          const steps = ["kept", "slipped", "open", "undated"].map((state) => [state, d.next_steps.filter((s) => s.state === state).length] as const).filter(([, n]) => n > 0)
          return [
            `${dealName(d)}: ${plural(d.calls.length, "call")}` + (first === undefined || last === undefined ? "" : ` from ${day(first.meeting_at)} to ${day(last.meeting_at)}`) + ";",
            t.scores.length === 0 ? "no scored call;" : `scores ${t.scores.map((x) => round1(x.score)).join(" → ")}` +
              (t.change === null ? ";" : ` (${t.direction}, ${t.change >= 0 ? "+" : ""}${round1(t.change)});`),
            d.objections.length === 0 ? "no objection raised;" : `objections: ${d.objections.map((o) => `${o.kind} ${o.state}`).join(", ")};`,
            steps.length === 0 ? "no next step;" : `next steps: ${steps.map(([state, n]) => `${n} ${state}`).join(", ")};`,
            d.stakeholders.length === 0 ? "" : `stakeholders met: ${d.stakeholders.join(", ")};`,
            `risk ${d.risk}${dealReasons(d).length === 0 ? "" : ` (${dealReasons(d).slice(0, 4).join("; ")})`}.`
          ].filter((x) => x !== "").join(" ")
        })
        return {
          text: lines.join("\n"),
          data: { account, deals },
          sources: [dealsSource, ...deals.flatMap((d) => d.calls.map((c) => ({ kind: "call", id: c.call_id, label: `${dealName(d)}, ${day(c.meeting_at)}` })))],
          suggested_actions: deals.map((d) => act.reviewCall(d.call_id, `Open the latest call of ${dealName(d)}`))
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
        case "draft_follow_up":
          return draftFollowUp(viewer, intent.call_id, intent.closer)
        case "top_objections":
          return topObjections(viewer, intent.period, intent.kind, now)
        case "competitors":
          return competitors(viewer, intent.period, now)
        case "top_pains":
          return topPains(viewer, intent.period, now)
        case "follow_through":
          return followThrough(viewer, intent.period, now)
        case "team_overview":
          return teamOverview(viewer, intent.period, now)
        case "rank_closers":
          return rankClosers(viewer, intent.order, intent.period, now)
        case "closer_trend":
          return closerTrend(viewer, intent.closer, now)
        case "deals_at_risk":
          return dealsAtRisk(viewer)
        case "deal_status":
          return dealStatus(viewer, intent.account)
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
      dailyBrief,
      draftFollowUp,
      topObjections,
      competitors,
      topPains,
      followThrough,
      teamOverview,
      rankClosers,
      closerTrend,
      dealsAtRisk,
      dealStatus
    } as const
  })
}) {}
