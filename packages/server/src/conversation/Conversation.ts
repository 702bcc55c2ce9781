/**
 * One chat engine behind two doors (issue 16): `POST /v1/workspace/chat` and
 * `POST /v1/client-portal/concierge/chat` run one `answer` (`workspace` and `concierge` below), for
 * the signed-in user's tenant.
 *
 * - **Conversations.** A reply carries its `conversation_id`; sent back, the next question is
 *   asked in that conversation (its last messages are the context: a follow-up such as "and last
 *   week?" repeats the previous question's intent for the new period, and the LLM reads them). A
 *   conversation belongs to its tenant, user and door: an id that is not the caller's own at this
 *   door (unknown, another user's or tenant's, or the other door's) starts a new conversation with
 *   a new id, so nothing of another conversation is read or revealed.
 * - **Without an LLM integration** the intent rules (Intents.ts) pick one tool (Tools.ts) and its
 *   answer is the reply; a question no rule recognises gets `intent: null` and the list of what
 *   the chat can answer.
 * - **With the tenant's LLM integration** (llm/ChatModels.ts) the model answers with the same
 *   tools (LlmChat.ts); the reply's sources are those of the tools it called, plus one `model`
 *   source naming the provider and model that wrote the reply, and its intent the first tool it
 *   called. Any failure of the model (unreachable, refused, malformed, a key that cannot be
 *   opened, over `LLM_TIMEOUT_SECONDS`) is recorded on the integration and the rules answer
 *   instead: the chat never fails because of the model.
 * - **A call in question** (the workspace's `call_id`): an unknown call, or another tenant's, is
 *   404; otherwise the rules answer with that call's analysis, and the model is told which call the
 *   question is about.
 */
import type { AnswerSource, ClientId, ConciergeRequest, Sees, SuggestedAction, UserId, WorkspaceChatRequest } from "@callsight/api-spec"
import { CallId, NotFound } from "@callsight/api-spec"
import { Duration, Effect, Option, Schema } from "effect"
import { CallViews } from "../calls/CallViews.js"
import { AppConfig } from "../config.js"
import { newId } from "../lib/Ids.js"
import { chatFailure, ChatModels } from "../llm/ChatModels.js"
import { ConversationRepo, type Door, type MessageRow } from "./ConversationRepo.js"
import { asksSummary, type Intent, recognise } from "./Intents.js"
import { llmAnswer } from "./LlmChat.js"
import { ConversationTools, type ToolAnswer } from "./Tools.js"

/** Who asks: the signed-in user of a tenant, and whose calls they see (a rep: their own; `Sees.ts`). */
export interface Caller {
  readonly clientId: ClientId
  readonly userId: UserId
  readonly sees: Sees
}

export interface ChatRequest {
  readonly message: string
  readonly conversation_id?: string | undefined
  readonly call_id?: CallId | undefined
}

export interface ChatReply {
  readonly conversation_id: string
  readonly reply: string
  readonly intent: string | null
  readonly sources: ReadonlyArray<typeof AnswerSource.Type>
  readonly suggested_actions: ReadonlyArray<typeof SuggestedAction.Type>
}

/** What the rule-based chat says when no rule matched. */
export const HELP = [
  "I can answer questions about your team's calls from your own data, for example:",
  "- how did Maria do this week? (a closer's calls, average score, strongest and weakest dimensions)",
  "- calls that mention pricing (full-text search over transcripts, closers and notes)",
  "- our win rate by lead source (or by closer, or overall; from recorded outcomes)",
  "- what should I do today? (the daily brief: suggested actions)",
  "- which deals are at risk? or: where do we stand with Acme? (deals followed across their calls)",
  "- what objections came up most this month? which competitors came up? what pains do buyers raise?",
  "- how is the team doing this week? who is the best closer? is Maria improving?",
  "- are we following through on next steps?",
  "- draft a follow-up e-mail for my last call (from its summary and next steps)",
  "- show the worst call yesterday (or the best calls this month)",
  "- tell me about call_… (one call's scores, objections and next steps)",
  "- summarize my last call, or summary of call_… (what the buyer needs, what was agreed, open risks, quoted)"
].join("\n")

const uniqueSources = (sources: ReadonlyArray<typeof AnswerSource.Type>) => {
  const seen = new Set<string>()
  return sources.filter((s) => {
    const key = `${s.kind}:${s.id ?? s.label}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The intent stored with an answer, read back for follow-ups. */
const previousIntent = (history: ReadonlyArray<MessageRow>): Intent | undefined => {
  const last = [...history].reverse().find((m) => m.role === "assistant" && m.intent !== null)
  return last?.intent as Intent | undefined
}

export class Conversation extends Effect.Service<Conversation>()("Conversation", {
  dependencies: [ConversationTools.Default, ConversationRepo.Default, ChatModels.Default, CallViews.Default],
  effect: Effect.gen(function* () {
    const repo = yield* ConversationRepo
    const tools = yield* ConversationTools
    const models = yield* ChatModels
    const calls = yield* CallViews
    const config = yield* AppConfig
    const timeout = Duration.seconds(config.llmTimeoutSeconds)

    /** The conversation to answer in: the caller's own at this door, else a new one. */
    const conversationOf = (clientId: ClientId, userId: UserId, door: Door, requested: string | undefined) =>
      Effect.gen(function* () {
        if (requested !== undefined && (yield* repo.owns(clientId, userId, requested, door))) {
          return { id: requested, history: yield* repo.recent(requested) }
        }
        const id = newId("conv")
        yield* repo.create(clientId, userId, id, door)
        return { id, history: [] as ReadonlyArray<MessageRow> }
      })

    /** The model's answer, or none when the tenant has no model or it failed (recorded). */
    const byModel = (args: Omit<Parameters<typeof llmAnswer>[0], "model" | "tools">) =>
      Effect.scoped(Effect.gen(function* () {
        const chosen = yield* Effect.either(models.forTenant(args.viewer.clientId))
        if (chosen._tag === "Left") {
          yield* models.recordUse(args.viewer.clientId, chosen.left.provider, `the chat could not use the model: ${chosen.left.message}`)
          return Option.none()
        }
        if (Option.isNone(chosen.right)) return Option.none()
        const model = chosen.right.value
        const answered = yield* llmAnswer({ ...args, model: model.languageModel, tools }).pipe(
          Effect.timeoutFail({ duration: timeout, onTimeout: () => new Error(`no answer within ${Duration.format(timeout)}`) }),
          Effect.either
        )
        if (answered._tag === "Left" || answered.right.reply === "") {
          // the provider's words (which @effect/ai's errors carry) go to the log, blanked; the integration keeps ours
          const failure = answered._tag === "Left"
            ? chatFailure(model, answered.left)
            : { stored: "the model gave an empty answer", detail: "the model gave an empty answer" }
          yield* Effect.logWarning("chat: the tenant's model failed; the intent rules answer").pipe(
            Effect.annotateLogs({ provider: model.provider, model: model.model, reason: failure.detail })
          )
          yield* models.recordUse(args.viewer.clientId, model.provider, `chat: ${failure.stored}`)
          return Option.none()
        }
        yield* models.recordUse(args.viewer.clientId, model.provider, null)
        return Option.some({ ...answered.right, provider: model.provider, model: model.model })
      }))

    const answer = Effect.fn("Conversation.answer")(function* (
      caller: Caller,
      door: Door,
      request: ChatRequest
    ) {
      const { clientId, userId } = caller
      const viewer = { clientId, sees: caller.sees }
      const now = new Date()
      const conversation = yield* conversationOf(clientId, userId, door, request.conversation_id)
      const closers = yield* tools.closers(clientId)
      const message = request.call_id === undefined ? request.message : `${request.message}\n(The question is about call ${request.call_id}.)`

      const zone = yield* tools.zoneOf(clientId)
      const modelled = yield* byModel({ viewer, door, now, zone, closers, history: conversation.history, message })
      let answer: { reply: string; intent: unknown; intentName: string | null; sources: ReadonlyArray<typeof AnswerSource.Type>; actions: ReadonlyArray<typeof SuggestedAction.Type> }
      if (Option.isSome(modelled)) {
        const m = modelled.value
        answer = {
          reply: m.reply,
          intent: null,
          intentName: m.used[0]?.tool ?? null,
          sources: [
            ...m.used.flatMap((u) => u.answer.sources),
            { kind: "model", id: `${m.provider}:${m.model}`, label: `Answer written by ${m.model} (${m.provider})` }
          ],
          actions: m.used.flatMap((u) => u.answer.suggested_actions)
        }
      } else {
        const intent: Intent | undefined = request.call_id !== undefined
          ? asksSummary(request.message) ? { tool: "call_summary", call_id: request.call_id, closer: null } : { tool: "get_call", call_id: request.call_id }
          : recognise(request.message, closers, previousIntent(conversation.history), yield* repo.accounts(clientId))
        const found: ToolAnswer | undefined = intent === undefined ? undefined : yield* tools.run(viewer, intent, now)
        answer = {
          reply: found?.text ?? HELP,
          intent: intent ?? null,
          intentName: intent?.tool ?? null,
          sources: found?.sources ?? [],
          actions: found?.suggested_actions ?? []
        }
      }
      const sources = uniqueSources(answer.sources)
      yield* repo.append({ conversationId: conversation.id, question: request.message, reply: answer.reply, intent: answer.intent, sources })
      return {
        conversation_id: conversation.id,
        reply: answer.reply,
        intent: answer.intentName,
        sources,
        suggested_actions: answer.actions
      } satisfies ChatReply
    })

    return {
      /** The portal concierge's answer. */
      concierge: (caller: Caller, request: ConciergeRequest) => answer(caller, "concierge", request),
      /** The workspace chat's answer; an unknown `call_id`, or another tenant's, is 404. */
      workspace: (caller: Caller, request: WorkspaceChatRequest) =>
        Effect.gen(function* () {
          const callId = request.call_id
          if (callId !== undefined) {
            if (!Schema.is(CallId)(callId)) return yield* new NotFound({ message: `no call ${callId}` })
            yield* calls.analysis(caller.clientId, callId, caller.sees)
          }
          return yield* answer(caller, "workspace", { ...request, call_id: callId as CallId | undefined })
        })
    } as const
  })
}) {}
