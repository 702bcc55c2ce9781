/**
 * What a tenant sees of its calls, one implementation for every door: the status an agent polls
 * (`GET /analysis/{call_id}`), the HTML report, the whole analysis as JSON (`GET
 * /v1/teams/calls/{call_id}`, and the workspace's and assistant's call views when they land) and
 * the list of calls. Another tenant's call is answered like a missing one (404).
 */
import {
  type AnalysisStage,
  type CallAnalysis,
  CallId,
  type ClientId,
  Conflict,
  type ListCallsQuery,
  NotFound,
  type Sees,
  ValidationFailed
} from "@callsight/api-spec"
import { Effect, Option, Schema } from "effect"
import { FULL_BASIS_MIN, overallBasis } from "@callsight/analysis/light"
import { analysisEngine } from "../lib/AnalysisEngine.js"
import { spanned } from "../lib/Spans.js"
import { howToConfigure } from "../lib/SpeechToTextSetup.js"
import { instantAfter } from "../lib/Time.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"
import { sees } from "../tenancy/Sees.js"
import { SpeechToText } from "../views/SpeechToText.js"
import { type CallFilter, type CallListRow, type CallRecord, CallsRepo, type PageAfter } from "./CallsRepo.js"

const notFound = (callId: CallId) => new NotFound({ message: `no call ${callId}` })

const errorOf = (call: { readonly error_code: string | null; readonly error_message: string | null }) =>
  call.error_code === null ? null : { code: call.error_code, message: call.error_message ?? "" }

/** The whole analysis of a call as JSON; fields of the analysis are empty until it completed. */
export const toAnalysis = (call: CallRecord): CallAnalysis => {
  const r = call.result
  return {
    call_id: call.call_id,
    external_call_id: call.external_call_id,
    closer_email: call.closer_email,
    status: call.status,
    created_at: call.created_at,
    meeting_at: call.occurred_at,
    deal_id: call.deal_id,
    account_id: call.account_id,
    completed_at: call.completed_at,
    duration_s: call.duration_s,
    method_version: call.method_version,
    channels: r?.channels ?? null,
    speakers: r?.speakers ?? [],
    speaker_turns: r?.speaker_turns ?? [],
    metrics: r?.metrics ?? null,
    // the name the status, the list and the webhooks give `scorecard.overall` (which stays)
    overall_score: r?.scorecard.overall ?? null,
    // results stored before method callsight-1.2 have no overall_basis: it is read off their dimensions
    scorecard: r == null ? null : { ...r.scorecard, overall_basis: r.scorecard.overall_basis ?? overallBasis(r.scorecard.dimensions) },
    evidence: r?.evidence ?? [],
    qualification: r?.qualification ?? null,
    objections: r?.objections ?? [],
    next_steps: r?.next_steps ?? [],
    transcript: r?.transcript ?? null,
    transcription: r?.transcription ?? null,
    llm: r?.llm ?? null,
    call_type: r?.call_type ?? null,
    rep_channel: r?.rep_channel ?? null,
    summary: r?.summary ?? null,
    requested_call_type: call.requested_call_type,
    requested_rep_channel: call.requested_rep_channel,
    error: errorOf(call)
  }
}

export class CallViews extends Effect.Service<CallViews>()("CallViews", {
  effect: Effect.gen(function* () {
    const repo = yield* CallsRepo
    const runtimeFlags = yield* RuntimeFlags
    const speechToText = yield* SpeechToText

    const found = <A>(callId: CallId, row: Option.Option<A>) =>
      Option.match(row, { onNone: () => Effect.fail(notFound(callId)), onSome: Effect.succeed })

    /** The status an agent or the web app polls; another closer's call is 404 to a rep (`seen`), as another tenant's is. */
    const status = spanned("CallViews.status", (clientId: ClientId, callId: CallId, seen: Sees) =>
      Effect.flatMap(Effect.orDie(repo.findStatus(clientId, callId)), (row) => {
        if (Option.isNone(row) || !sees(seen, row.value.closer_email)) return Effect.fail(notFound(callId))
        const call = row.value
        const completed = call.status === "completed"
        // without a speech-to-text provider: what the analysis will miss (the configuration now), or missed (its result)
        const notices = speechToText.noticesOf(clientId, call, call)
        return Effect.succeed({
          call_id: call.call_id,
          external_call_id: call.external_call_id,
          status: call.status,
          stage: completed ? ("done" as const) : (call.stage as typeof AnalysisStage.Type),
          progress: call.progress,
          created_at: call.created_at,
          started_at: call.started_at,
          completed_at: call.completed_at,
          duration_s: call.duration_s,
          credits_charged: call.credits_charged,
          requested_call_type: call.requested_call_type,
          requested_rep_channel: call.requested_rep_channel,
          meeting_at: call.occurred_at,
          account: call.account_id === null || call.account_name === null
            ? null
            : { account_id: call.account_id, name: call.account_name, domain: call.account_domain },
          deal_id: call.deal_id,
          external_deal_id: call.external_deal_id,
          attendees: call.attendees,
          error: errorOf(call),
          summary: completed && call.speakers !== null
            ? {
              overall_score: call.overall_score,
              ...(call.dimensions_total === null || call.dimensions_assessed === null
                ? {}
                : {
                  overall_basis: {
                    assessed: call.dimensions_assessed,
                    of: call.dimensions_total,
                    partial: call.dimensions_assessed < FULL_BASIS_MIN
                  }
                }),
              talk_ratio: call.talk_ratio,
              speakers: call.speakers,
              transcript_available: call.transcript_available
            }
            : null,
          ...(notices.length === 0 ? {} : { notices })
        })
      }))

    const findCall = (clientId: ClientId, callId: CallId) =>
      Effect.flatMap(Effect.orDie(repo.find(clientId, callId)), (row) => found(callId, row))

    /** The whole analysis; another closer's call is 404 to a rep (`seen`), as another tenant's is. */
    const analysis = Effect.fn("CallViews.analysis")(function* (clientId: ClientId, callId: CallId, seen: Sees) {
      const call = yield* findCall(clientId, callId)
      if (!sees(seen, call.closer_email)) return yield* notFound(callId)
      return toAnalysis(call)
    })

    /** The evidence report; another closer's call is 404 to a rep (`seen`: whose calls the caller sees), as another tenant's is. */
    const reportHtml = Effect.fn("CallViews.reportHtml")(function* (clientId: ClientId, callId: CallId, seen: Sees) {
      const call = yield* findCall(clientId, callId)
      if (!sees(seen, call.closer_email)) return yield* notFound(callId)
      if (call.status !== "completed" || call.result === null) {
        return yield* new Conflict({ message: `the analysis is ${call.status}; the report exists once it is completed` })
      }
      const flags = yield* runtimeFlags.forTenant(clientId)
      // an analysis without a transcript: the report says how to configure a provider, as things stand now
      const setup = call.result.transcript == null ? howToConfigure((yield* speechToText.forTenant(clientId)).source, clientId) : null
      // the renderer is the engine's: loaded by the first report (or analysis) of the process
      const { renderReport } = yield* analysisEngine
      return renderReport({
        ...call.result,
        call_id: call.call_id,
        external_call_id: call.external_call_id,
        created_at: call.created_at,
        closer_email: call.closer_email,
        include_transcript: flags["report.include_transcript"] !== false,
        speech_to_text_setup: setup
      })
    })

    /** A page of the calls; a rep's (`seen` a closer) are their own only: the closer filter is theirs, whatever was asked. */
    const list = Effect.fn("CallViews.list")(function* (clientId: ClientId, query: typeof ListCallsQuery.Type, seen: Sees) {
      const after = yield* decodeCursor(query.cursor)
      let filter = callFilter(query)
      if (seen._tag === "Closer") {
        const own = seen.email
        if (own === null || (filter.closerEmail !== null && filter.closerEmail.toLowerCase() !== own)) return { calls: [], next_cursor: null }
        filter = { ...filter, closerEmail: own }
      }
      const rows = yield* Effect.orDie(repo.page(clientId, query.limit + 1, after, filter))
      const page = rows.slice(0, query.limit)
      const last = page.at(-1)
      return {
        calls: page.map(({ position: _, ...call }) => call),
        next_cursor: rows.length > query.limit && last !== undefined ? encodeCursor(last) : null
      }
    })

    return { status, analysis, reportHtml, list } as const
  }),
  dependencies: [CallsRepo.Default, RuntimeFlags.Default, SpeechToText.Default]
}) {}

/**
 * The first instant after `created_to`: after the whole day of a plain date (UTC), after the
 * millisecond of a time, as the API writes times (a call's own `created_at` as the bound keeps it;
 * the database holds microseconds).
 */
const createdBefore = instantAfter

/** The list's filters as the repository takes them. */
const callFilter = (query: typeof ListCallsQuery.Type): CallFilter => ({
  status: query.status ?? null,
  closerEmail: query.closer_email ?? null,
  createdFrom: query.created_from ?? null,
  createdBefore: query.created_to === undefined ? null : createdBefore(query.created_to),
  minScore: query.min_score ?? null,
  maxScore: query.max_score ?? null,
  outcome: query.outcome ?? null,
  callType: query.call_type ?? null
})

/** Keyset cursor: the last row's position (its creation time to the microsecond) and id, opaque to callers. */
const encodeCursor = (row: CallListRow) => Buffer.from(`${row.position}|${row.call_id}`).toString("base64url")

// What `timestamptz::text` writes: 2026-11-23 19:06:46.480123+00
const POSITION = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/
const decodeCallId = Schema.decodeUnknownOption(CallId)

const decodeCursor = (cursor: string | undefined): Effect.Effect<Option.Option<PageAfter>, ValidationFailed> => {
  if (cursor === undefined) return Effect.succeed(Option.none())
  const [position = "", id] = Buffer.from(cursor, "base64url").toString("utf8").split("|")
  const callId = decodeCallId(id)
  return POSITION.test(position) && Option.isSome(callId)
    ? Effect.succeed(Option.some({ position, callId: callId.value }))
    : Effect.fail(new ValidationFailed({ detail: [{ loc: ["query", "cursor"], msg: "not a cursor of this list", type: "value_error" }] }))
}
