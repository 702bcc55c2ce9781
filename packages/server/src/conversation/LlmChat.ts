/**
 * The chat with the tenant's language model (`@effect/ai`): the same tools as the intent rules,
 * declared once as a toolkit, the model choosing which to call. The handlers are bound to the
 * caller's tenant here, so the model can name any call id it likes and still only read its own
 * tenant's (a foreign id is "no call … in your account").
 *
 * A turn: the system prompt (what the chat is for, today's date, the team's closers), the
 * conversation's earlier messages, the question; then up to `MAX_STEPS` rounds of tool calls, each
 * round's calls and results appended to the prompt, until the model answers in text (after the
 * last round it is asked once more with tools switched off). The answer's sources are those of the
 * tools it called; its intent the first tool called (null if none).
 */
import * as LanguageModel from "@effect/ai/LanguageModel"
import * as Prompt from "@effect/ai/Prompt"
import * as Tool from "@effect/ai/Tool"
import * as Toolkit from "@effect/ai/Toolkit"
import { Effect, Ref, Schema } from "effect"
import { dateIn } from "../lib/Time.js"
import type { MessageRow } from "./ConversationRepo.js"
import { type NamedCloser, OBJECTION_KINDS, PERIODS } from "./Intents.js"
import type { ToolAnswer } from "./Tools.js"
import type { ConversationTools } from "./Tools.js"

/** Rounds of tool calls in one answer. */
export const MAX_STEPS = 4

const Period = Schema.Literal(...PERIODS).annotations({
  description: "A period in the team's time zone (weeks start on Monday): today, yesterday, this_week, last_week, this_month, last_month, last_7_days, last_30_days, last_90_days"
})

/** What every tool gives the model: the answer in sentences and the same figures as data. */
const ToolResult = Schema.Struct({ answer: Schema.String, data: Schema.Unknown })

export const SearchCallsTool = Tool.make("search_calls", {
  description: "Full-text search over the team's call transcripts, call metadata, closers and notes (web-search syntax: quoted phrases, -word, or). Returns the best matches with snippets and call ids.",
  parameters: { query: Schema.String.annotations({ description: "What to look for, e.g. pricing or \"security review\"" }) },
  success: ToolResult
})

export const GetCallTool = Tool.make("get_call", {
  description: "One call's analysis: status, overall and dimension scores, objections raised and next steps agreed.",
  parameters: { call_id: Schema.String.annotations({ description: "The call id (call_…)" }) },
  success: ToolResult
})

export const CallSummaryTool = Tool.make("call_summary", {
  description: "One call's summary: what the buyer needs, what was agreed, the open risks, each with the words said (quotes with speaker and time).",
  parameters: {
    call_id: Schema.NullOr(Schema.String).annotations({ description: "The call id (call_…), or null for the latest analysed call the user sees" })
  },
  success: ToolResult
})

export const CloserStatsTool = Tool.make("closer_stats", {
  description: "How a closer did in a period: calls analysed, average score and the change on the period before, strongest and weakest dimensions, talk ratio, best and lowest call.",
  parameters: {
    closer: Schema.String.annotations({ description: "The closer's full name, first name or e-mail" }),
    period: Period
  },
  success: ToolResult
})

export const RankCallsTool = Tool.make("rank_calls", {
  description: "The team's lowest-scored (worst) or highest-scored (best) analysed calls of a period.",
  parameters: {
    order: Schema.Literal("worst", "best"),
    period: Period,
    limit: Schema.Number.annotations({ description: "How many calls, 1 to 10" })
  },
  success: ToolResult
})

export const WinRateTool = Tool.make("win_rate", {
  description: "The win rate from recorded deal outcomes (won / (won + lost)), overall, by lead source or by closer, for calls made in a period or all time.",
  parameters: {
    by: Schema.Literal("overall", "lead_source", "closer"),
    period: Schema.NullOr(Period).annotations({ description: "null for all time" })
  },
  success: ToolResult
})

export const DailyBriefTool = Tool.make("daily_brief", {
  description: "Today's suggested actions, yesterday's calls and the deals at risk (the daily brief).",
  success: ToolResult
})

export const DraftFollowUpTool = Tool.make("draft_follow_up", {
  description: "A follow-up e-mail drafted from one call's summary and next steps (the words said on the call), to edit before sending.",
  parameters: {
    call_id: Schema.NullOr(Schema.String).annotations({ description: "The call id (call_…), or null for the latest analysed call the user sees" })
  },
  success: ToolResult
})

export const TopObjectionsTool = Tool.make("top_objections", {
  description: "Objections raised in a period by kind, most frequent first, with the period before; or one kind's count and its change.",
  parameters: {
    period: Period,
    kind: Schema.NullOr(Schema.Literal(...OBJECTION_KINDS)).annotations({ description: "One kind, or null for every kind" })
  },
  success: ToolResult
})

export const CompetitorsTool = Tool.make("competitors", {
  description: "Mentions of the market profile's competitors in a period's calls, per competitor, with the period before.",
  parameters: { period: Period },
  success: ToolResult
})

export const TopPainsTool = Tool.make("top_pains", {
  description: "How many pains buyers stated in a period's calls, and in which calls (each call's summary quotes them).",
  parameters: { period: Period },
  success: ToolResult
})

export const FollowThroughTool = Tool.make("follow_through", {
  description: "Next steps said in a period's calls, how many with a date, and (over each deal's calls) how many were kept or slipped.",
  parameters: { period: Period },
  success: ToolResult
})

export const TeamOverviewTool = Tool.make("team_overview", {
  description: "The team in a period: calls analysed, average score and its change, per closer, strongest and weakest dimensions, most raised objection.",
  parameters: { period: Period },
  success: ToolResult
})

export const RankClosersTool = Tool.make("rank_closers", {
  description: "The closers ranked by average score in a period, best or lowest first.",
  parameters: { order: Schema.Literal("best", "worst"), period: Period },
  success: ToolResult
})

export const CloserTrendTool = Tool.make("closer_trend", {
  description: "A closer's average score week by week over the last six weeks, whether it improves, and the dimensions that moved most.",
  parameters: { closer: Schema.String.annotations({ description: "The closer's full name, first name or e-mail" }) },
  success: ToolResult
})

export const DealsAtRiskTool = Tool.make("deals_at_risk", {
  description: "The open deals at risk, followed across their calls, each with its reasons.",
  success: ToolResult
})

export const DealStatusTool = Tool.make("deal_status", {
  description: "One account's deal followed across its calls: the calls, score trend, objections raised and resolved, next steps kept or slipped, stakeholders, risk.",
  parameters: { account: Schema.String.annotations({ description: "The account's (buyer company's) name or e-mail domain" }) },
  success: ToolResult
})

export const ChatToolkit = Toolkit.make(
  SearchCallsTool,
  GetCallTool,
  CallSummaryTool,
  CloserStatsTool,
  RankCallsTool,
  WinRateTool,
  DailyBriefTool,
  DraftFollowUpTool,
  TopObjectionsTool,
  CompetitorsTool,
  TopPainsTool,
  FollowThroughTool,
  TeamOverviewTool,
  RankClosersTool,
  CloserTrendTool,
  DealsAtRiskTool,
  DealStatusTool
)

export interface UsedTool {
  readonly tool: string
  readonly answer: ToolAnswer
}

const systemPrompt = (door: "workspace" | "concierge", now: Date, zone: string, closers: ReadonlyArray<NamedCloser>) =>
  [
    door === "workspace"
      ? "You are the assistant of a sales team's workspace in Callsight, a sales-call analysis service."
      : "You are the concierge of Callsight, a sales-call analysis service, answering a customer's sales team.",
    "Answer only from the team's own data, which you read with the tools; never invent a figure, a call or a name.",
    "Say when the data does not answer the question. Name the calls you rely on by their id. Be brief.",
    `Today is ${dateIn(now, zone)} (the team's time zone, ${zone}).`,
    `The team's closers: ${closers.length === 0 ? "none yet" : closers.map((c) => `${c.fullName} <${c.email}>`).join(", ")}.`
  ].join("\n")

/**
 * One answer of the model. Fails with the model's error (the engine then answers by the rules).
 */
export const llmAnswer = (options: {
  readonly model: LanguageModel.Service
  readonly tools: ConversationTools
  readonly viewer: Parameters<ConversationTools["run"]>[0]
  readonly door: "workspace" | "concierge"
  readonly now: Date
  /** The team's time zone, in which the tools count days. */
  readonly zone: string
  readonly closers: ReadonlyArray<NamedCloser>
  readonly history: ReadonlyArray<MessageRow>
  readonly message: string
}) =>
  Effect.gen(function* () {
    const { now, tools, viewer } = options
    const used = yield* Ref.make<ReadonlyArray<UsedTool>>([])
    const record = (tool: string, answer: Effect.Effect<ToolAnswer>) =>
      answer.pipe(
        Effect.tap((a) => Ref.update(used, (xs) => [...xs, { tool, answer: a }])),
        Effect.map((a) => ({ answer: a.text, data: a.data }))
      )
    const handlers = yield* ChatToolkit.toContext(ChatToolkit.of({
      search_calls: ({ query }) => record("search_calls", tools.searchCalls(viewer, query)),
      get_call: ({ call_id }) => record("get_call", tools.getCall(viewer, call_id)),
      call_summary: ({ call_id }) => record("call_summary", tools.callSummary(viewer, call_id)),
      closer_stats: ({ closer, period }) => record("closer_stats", tools.closerStats(viewer, closer, period, now)),
      rank_calls: ({ limit, order, period }) =>
        record("rank_calls", tools.rankCalls(viewer, order, period, Math.min(Math.max(Math.round(limit) || 1, 1), 10), now)),
      win_rate: ({ by, period }) => record("win_rate", tools.winRate(viewer, by, period, now)),
      daily_brief: () => record("daily_brief", tools.dailyBrief(viewer)),
      draft_follow_up: ({ call_id }) => record("draft_follow_up", tools.draftFollowUp(viewer, call_id, null)),
      top_objections: ({ kind, period }) => record("top_objections", tools.topObjections(viewer, period, kind, now)),
      competitors: ({ period }) => record("competitors", tools.competitors(viewer, period, now)),
      top_pains: ({ period }) => record("top_pains", tools.topPains(viewer, period, now)),
      follow_through: ({ period }) => record("follow_through", tools.followThrough(viewer, period, now)),
      team_overview: ({ period }) => record("team_overview", tools.teamOverview(viewer, period, now)),
      rank_closers: ({ order, period }) => record("rank_closers", tools.rankClosers(viewer, order, period, now)),
      closer_trend: ({ closer }) => record("closer_trend", tools.closerTrend(viewer, closer, now)),
      deals_at_risk: () => record("deals_at_risk", tools.dealsAtRisk(viewer)),
      deal_status: ({ account }) => record("deal_status", tools.dealStatus(viewer, account))
    }))

    let prompt = Prompt.make([
      { role: "system", content: systemPrompt(options.door, now, options.zone, options.closers) },
      ...options.history.map((m) => ({ role: m.role, content: m.text })),
      { role: "user", content: options.message }
    ])
    const generate = (toolChoice: "auto" | "none") =>
      LanguageModel.generateText({ prompt, toolkit: ChatToolkit, toolChoice }).pipe(
        Effect.provide(handlers),
        Effect.provideService(LanguageModel.LanguageModel, options.model)
      )

    let reply = ""
    for (let step = 0; step <= MAX_STEPS; step++) {
      const response = yield* generate(step < MAX_STEPS ? "auto" : "none")
      prompt = Prompt.merge(prompt, Prompt.fromResponseParts(response.content))
      if (response.toolCalls.length === 0) {
        reply = response.text.trim()
        break
      }
    }
    const calls = yield* Ref.get(used)
    return { reply, used: calls }
  })
