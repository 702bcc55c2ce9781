/**
 * Analysis calls: the uploads, their progress and their stored analysis. Every read that serves a
 * tenant takes its `ClientId` first. Each read selects what its view needs: the status poll reads
 * a few columns and the summary out of the stored result, never the whole analysis.
 *
 * The stored analysis (`calls.result`, JSON) is decoded here, once, by `StoredResult`: results
 * written before a field existed (the transcript and what is read from it, content metrics) read
 * with that field's empty value, so no caller patches old rows.
 */
import {
  AnalysisStatus,
  CallId,
  CallMetrics,
  CallSummary,
  CallTypeName,
  CallTypeResult,
  ClientId,
  Evidence,
  LlmAssistance,
  NextStep,
  Objection,
  Qualification,
  RepChannelResult,
  RepChannelSetting,
  Scorecard,
  Speaker,
  SpeakerTurn,
  Transcription,
  TranscriptSegment
} from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Record, Schema } from "effect"
import type { AnalysisResult } from "@callsight/analysis"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { prepared } from "../db/Prepared.js"
import { trendDueDays } from "../lib/DueDates.js"
import { speechToTextFactsColumns, SpeechToTextFacts } from "../views/SpeechToTextQueries.js"

const orEmpty = <A, I, R>(schema: Schema.Schema<A, I, R>, empty: () => A) =>
  Schema.optionalWith(schema, { default: empty })

/** Content metrics are null until a transcript is read; results from before they existed lack them. */
const StoredMetrics = Schema.Struct(
  Record.map(CallMetrics.fields, (field) => orEmpty(field as Schema.Schema<any, any>, () => null))
) as unknown as typeof CallMetrics

/** A completed analysis as stored, with the defaults of fields added since. */
export const StoredResult = Schema.Struct({
  method_version: Schema.String,
  duration_s: Schema.Number,
  channels: Schema.Number,
  diarization: Schema.Literal("channel", "clustering"),
  speakers: Schema.Array(Speaker),
  speaker_turns: Schema.Array(SpeakerTurn),
  metrics: StoredMetrics,
  scorecard: Scorecard,
  evidence: Schema.Array(Evidence),
  transcript: orEmpty(Schema.NullOr(Schema.Array(TranscriptSegment)), () => null),
  transcription: orEmpty(Schema.NullOr(Transcription), () => null),
  qualification: orEmpty(Schema.NullOr(Qualification), () => null),
  objections: orEmpty(Schema.Array(Objection), () => []),
  next_steps: orEmpty(Schema.Array(NextStep), () => []),
  llm: orEmpty(Schema.NullOr(LlmAssistance), () => null),
  call_type: orEmpty(Schema.NullOr(CallTypeResult), () => null),
  rep_channel: orEmpty(Schema.NullOr(RepChannelResult), () => null),
  // analyses before method callsight-1.26 have none: null (their pains were not stored to write one from)
  summary: orEmpty(Schema.NullOr(CallSummary), () => null)
})

const Format = Schema.Literal("mp3", "wav", "m4a")

/** Where a call came from: an upload through the API (it takes a credit) or the recorder (it does not). */
export const CallSource = Schema.Literal("api", "recorder")
export type CallSource = typeof CallSource.Type

/** What every view of a call shows about it, without its analysis. */
const CallFields = {
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  status: AnalysisStatus,
  stage: Schema.String,
  progress: Schema.Number,
  created_at: IsoTimestamp,
  started_at: NullableIsoTimestamp,
  completed_at: NullableIsoTimestamp,
  duration_s: Schema.NullOr(Schema.Number),
  method_version: Schema.NullOr(Schema.String),
  error_code: Schema.NullOr(Schema.String),
  error_message: Schema.NullOr(Schema.String),
  /** What the upload said of the call (null: nothing; the type is detected, the channel the tenant's default). */
  requested_call_type: Schema.NullOr(CallTypeName),
  requested_rep_channel: Schema.NullOr(RepChannelSetting),
  /** When the meeting took place (`meeting_at`, else `created_at`): the time the period views count it in. */
  occurred_at: IsoTimestamp,
  /** The call's deal and account (docs/deals.md); null: none. */
  deal_id: Schema.NullOr(Schema.String),
  account_id: Schema.NullOr(Schema.String)
}

/** A call with its whole analysis (null until completed). */
export const CallRecord = Schema.Struct({ ...CallFields, result: Schema.NullOr(StoredResult) })
export type CallRecord = typeof CallRecord.Type

/** A call for its status: the summary read out of the stored result. */
export const CallStatusRow = Schema.Struct({
  ...CallFields,
  overall_score: Schema.NullOr(Schema.Number),
  talk_ratio: Schema.NullOr(Schema.Number),
  speakers: Schema.NullOr(Schema.Number),
  transcript_available: Schema.Boolean,
  /** Dimensions of the stored scorecard, and how many of them were assessed (null before completion). */
  dimensions_total: Schema.NullOr(Schema.Number),
  dimensions_assessed: Schema.NullOr(Schema.Number),
  credits_charged: Schema.Number,
  /** The meeting's attendees, its account's name and domain, its deal's external id. */
  attendees: Schema.Array(Schema.String),
  account_name: Schema.NullOr(Schema.String),
  account_domain: Schema.NullOr(Schema.String),
  external_deal_id: Schema.NullOr(Schema.String),
  /** What decides the tenant's speech-to-text provider now (its notices), read in the same statement. */
  ...SpeechToTextFacts.fields
})
export type CallStatusRow = typeof CallStatusRow.Type

/** A call in a list. */
export const CallListRow = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Schema.String),
  closer_email: Schema.NullOr(Schema.String),
  status: AnalysisStatus,
  created_at: IsoTimestamp,
  /** `created_at` as the database writes it, to the microsecond (a `Date` keeps milliseconds). */
  position: Schema.String,
  completed_at: NullableIsoTimestamp,
  duration_s: Schema.NullOr(Schema.Number),
  overall_score: Schema.NullOr(Schema.Number),
  /** The outcome record's outcome (null: none recorded). */
  outcome: Schema.NullOr(Schema.Literal("won", "lost", "no_decision", "open")),
  /** The type the analysis took (`result.call_type.type`; null until analysed). */
  call_type: Schema.NullOr(CallTypeName)
})
export type CallListRow = typeof CallListRow.Type

/** Where a call's recording is, for the player: its format, its key, and whether retention removed it. */
export const CallAudioRow = Schema.Struct({
  call_id: CallId,
  closer_email: Schema.NullOr(Schema.String),
  format: Format,
  blob_key: Schema.String,
  audio_removed_at: NullableIsoTimestamp
})
export type CallAudioRow = typeof CallAudioRow.Type

/** What the worker needs of the call it analyses. */
export const JobCall = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  closer_email: Schema.NullOr(Schema.String),
  format: Format,
  blob_key: Schema.String,
  source: CallSource,
  call_type: Schema.NullOr(CallTypeName),
  rep_channel: Schema.NullOr(RepChannelSetting)
})
export type JobCall = typeof JobCall.Type

export const NewCall = Schema.Struct({
  callId: CallId,
  clientId: ClientId,
  externalCallId: Schema.NullOr(Schema.String),
  closerEmail: Schema.NullOr(Schema.String),
  format: Format,
  blobKey: Schema.String,
  size: Schema.Number,
  sha256: Schema.String,
  source: CallSource,
  callType: Schema.NullOr(CallTypeName),
  repChannel: Schema.NullOr(RepChannelSetting),
  meetingAt: Schema.NullOr(Schema.String),
  attendees: Schema.Array(Schema.String),
  accountId: Schema.NullOr(Schema.String),
  dealId: Schema.NullOr(Schema.String)
})

const TenantCall = Schema.Struct({ tenantId: ClientId, callId: CallId })

/**
 * What the list of calls is filtered by (null: not filtered). Times are ISO-8601: `createdFrom` the
 * first instant a call may have, `createdBefore` the first it may not.
 */
export const CallFilter = Schema.Struct({
  status: Schema.NullOr(AnalysisStatus),
  closerEmail: Schema.NullOr(Schema.String),
  createdFrom: Schema.NullOr(Schema.String),
  createdBefore: Schema.NullOr(Schema.String),
  minScore: Schema.NullOr(Schema.Number),
  maxScore: Schema.NullOr(Schema.Number),
  /** The outcome record's outcome, or `none`: calls without one. */
  outcome: Schema.NullOr(Schema.Literal("won", "lost", "no_decision", "open", "none")),
  /** The type the analysis took. */
  callType: Schema.NullOr(CallTypeName)
})
export type CallFilter = typeof CallFilter.Type

/** Every call. */
export const everyCall: CallFilter = {
  status: null,
  closerEmail: null,
  createdFrom: null,
  createdBefore: null,
  minScore: null,
  maxScore: null,
  outcome: null,
  callType: null
}

/** The keyset position after which a page starts: the last row's `position` and id. */
export interface PageAfter {
  readonly position: string
  readonly callId: CallId
}

export class CallsRepo extends Effect.Service<CallsRepo>()("CallsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const fields = sql`call_id, external_call_id, closer_email, status, stage, progress, created_at, started_at,
                       completed_at, duration_s, method_version, error_code, error_message,
                       call_type AS requested_call_type, rep_channel AS requested_rep_channel, occurred_at, deal_id, account_id`

    const insert = Rows.single({
      Request: NewCall,
      Result: Schema.Struct({ created_at: IsoTimestamp }),
      execute: (c) =>
        sql`INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, format, blob_key, size_bytes, sha256,
                               source, call_type, rep_channel, meeting_at, attendees, account_id, deal_id)
            VALUES (${c.callId}, ${c.clientId}, ${c.externalCallId}, ${c.closerEmail}, 'queued', ${c.format}, ${c.blobKey},
                    ${c.size}, ${c.sha256}, ${c.source}, ${c.callType}, ${c.repChannel}, ${c.meetingAt}::timestamptz,
                    ${JSON.stringify(c.attendees)}::jsonb, ${c.accountId}, ${c.dealId})
            RETURNING created_at`
    })

    /**
     * Deletes the call, locked first (a worker completing it waits, then finds none); what hangs off
     * it in other tables goes with it (ON DELETE CASCADE: the job, outcome record, manual audits,
     * pins, CRM sync, market-intelligence hygiene, its callback). Answers its blob's key.
     */
    const remove = Rows.findOne({
      Request: TenantCall,
      Result: Schema.Struct({ blob_key: Schema.String, status: Schema.String }),
      execute: ({ callId, tenantId }) =>
        sql`DELETE FROM calls WHERE client_id = ${tenantId} AND call_id = ${callId} RETURNING blob_key, status`
    })

    const exists = Rows.single({
      Request: TenantCall,
      Result: Schema.Struct({ exists: Schema.Boolean }),
      execute: ({ callId, tenantId }) =>
        sql`SELECT EXISTS (SELECT 1 FROM calls WHERE client_id = ${tenantId} AND call_id = ${callId}) AS exists`
    })

    const find = Rows.findOne({
      Request: TenantCall,
      Result: CallRecord,
      execute: ({ callId, tenantId }) =>
        sql`SELECT ${fields}, result FROM calls WHERE client_id = ${tenantId} AND call_id = ${callId}`
    })

    const findStatus = Rows.findOne({
      Request: TenantCall,
      Result: CallStatusRow,
      // polled by agents in loops: prepared once per connection (db/Prepared.ts)
      execute: ({ callId, tenantId }) =>
        sql`${prepared(sql)}SELECT ${fields},
                   (result -> 'scorecard' ->> 'overall')::float8 AS overall_score,
                   (result -> 'metrics' ->> 'talk_ratio')::float8 AS talk_ratio,
                   jsonb_array_length(result -> 'speakers') AS speakers,
                   COALESCE(jsonb_typeof(result -> 'transcript') = 'array', false) AS transcript_available,
                   (SELECT count(*)::int FROM jsonb_array_elements(result -> 'scorecard' -> 'dimensions') d
                    WHERE COALESCE((d ->> 'weight')::float8, 1) > 0) AS dimensions_total,
                   (SELECT count(*)::int FROM jsonb_array_elements(result -> 'scorecard' -> 'dimensions') d
                    WHERE (d ->> 'assessed')::boolean AND jsonb_typeof(d -> 'score') = 'number') AS dimensions_assessed,
                   (SELECT COALESCE(-SUM(delta), 0)::int FROM credit_ledger l
                    WHERE l.call_id = calls.call_id AND l.reason = 'analysis') AS credits_charged,
                   attendees,
                   (SELECT a.name FROM accounts a WHERE a.account_id = calls.account_id) AS account_name,
                   (SELECT a.domain FROM accounts a WHERE a.account_id = calls.account_id) AS account_domain,
                   (SELECT d.external_deal_id FROM deals d WHERE d.deal_id = calls.deal_id) AS external_deal_id,
                   ${speechToTextFactsColumns(sql, tenantId)}
            FROM calls WHERE client_id = ${tenantId} AND call_id = ${callId}`
    })

    /** Where the tenant's call's recording is (the player's `GET /v1/client-portal/calls/{call_id}/audio`). */
    const findAudio = Rows.findOne({
      Request: TenantCall,
      Result: CallAudioRow,
      execute: ({ callId, tenantId }) =>
        sql`SELECT call_id, closer_email, format, blob_key, audio_removed_at FROM calls WHERE client_id = ${tenantId} AND call_id = ${callId}`
    })

    /** For the worker, which acts for whichever tenant owns the job. */
    const findForJob = Rows.findOne({
      Request: CallId,
      Result: JobCall,
      execute: (callId) =>
        sql`SELECT call_id, client_id, closer_email, format, blob_key, source, call_type, rep_channel FROM calls WHERE call_id = ${callId}`
    })

    const pageQuery = Rows.findAll({
      Request: Schema.Struct({
        tenantId: ClientId,
        limit: Schema.Number,
        afterPosition: Schema.NullOr(Schema.String),
        afterCallId: Schema.NullOr(CallId),
        ...CallFilter.fields
      }),
      Result: CallListRow,
      execute: (p) =>
        sql`SELECT c.call_id, c.external_call_id, c.closer_email, c.status, c.created_at, c.created_at::text AS position,
                   c.completed_at, c.duration_s, c.overall_score,
                   o.outcome, c.digest -> 'call_type' ->> 'type' AS call_type
            FROM calls c LEFT JOIN outcome_truth o ON o.call_id = c.call_id
            WHERE ${sql.and([
              sql`c.client_id = ${p.tenantId}`,
              ...(p.afterPosition === null ? [] : [sql`(c.created_at, c.call_id) < (${p.afterPosition}::timestamptz, ${p.afterCallId})`]),
              ...(p.status === null ? [] : [sql`c.status = ${p.status}`]),
              ...(p.closerEmail === null ? [] : [sql`lower(c.closer_email) = lower(${p.closerEmail})`]),
              ...(p.createdFrom === null ? [] : [sql`c.created_at >= ${p.createdFrom}::timestamptz`]),
              ...(p.createdBefore === null ? [] : [sql`c.created_at < ${p.createdBefore}::timestamptz`]),
              ...(p.minScore === null ? [] : [sql`c.overall_score >= ${p.minScore}`]),
              ...(p.maxScore === null ? [] : [sql`c.overall_score <= ${p.maxScore}`]),
              ...(p.outcome === null ? [] : [p.outcome === "none" ? sql`o.call_id IS NULL` : sql`o.outcome = ${p.outcome}`]),
              ...(p.callType === null ? [] : [sql`c.digest -> 'call_type' ->> 'type' = ${p.callType}`])
            ])}
            ORDER BY c.created_at DESC, c.call_id DESC LIMIT ${p.limit}`
    })

    /** A page of the tenant's calls, newest first, after the keyset position, that pass the filter. */
    const page = (clientId: ClientId, limit: number, after: Option.Option<PageAfter>, filter: CallFilter = everyCall) =>
      pageQuery({
        tenantId: clientId,
        limit,
        afterPosition: Option.match(after, { onNone: () => null, onSome: (a) => a.position }),
        afterCallId: Option.match(after, { onNone: () => null, onSome: (a) => a.callId }),
        ...filter
      })

    const findIdempotent = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, key: Schema.String }),
      Result: Schema.Struct({
        sha256: Schema.String,
        call_id: CallId,
        external_call_id: Schema.NullOr(Schema.String),
        closer_email: Schema.NullOr(Schema.String),
        call_type: Schema.NullOr(CallTypeName),
        rep_channel: Schema.NullOr(RepChannelSetting),
        meeting_at: NullableIsoTimestamp,
        attendees: Schema.Array(Schema.String),
        external_deal_id: Schema.NullOr(Schema.String)
      }),
      execute: ({ key, tenantId }) =>
        sql`SELECT u.sha256, u.call_id, c.external_call_id, c.closer_email, c.call_type, c.rep_channel, c.meeting_at, c.attendees,
                   (SELECT d.external_deal_id FROM deals d WHERE d.deal_id = c.deal_id) AS external_deal_id
            FROM upload_idempotency u JOIN calls c ON c.call_id = u.call_id
            WHERE u.client_id = ${tenantId} AND u.key = ${key} AND u.created_at > now() - interval '24 hours'`
    })

    /** Remembers a key for 24 h; a key older than that is taken over by the new upload. */
    const saveIdempotent = Rows.execute({
      Request: Schema.Struct({ tenantId: ClientId, key: Schema.String, sha256: Schema.String, callId: CallId }),
      execute: (k) =>
        sql`INSERT INTO upload_idempotency (client_id, key, sha256, call_id) VALUES (${k.tenantId}, ${k.key}, ${k.sha256}, ${k.callId})
            ON CONFLICT (client_id, key) DO UPDATE
              SET sha256 = EXCLUDED.sha256, call_id = EXCLUDED.call_id, created_at = now()`
    })

    const markProcessing = Rows.execute({
      Request: CallId,
      execute: (callId) =>
        sql`UPDATE calls SET status = 'processing', stage = 'decode', progress = 0,
                             started_at = COALESCE(started_at, now()), error_code = NULL, error_message = NULL
            WHERE call_id = ${callId} AND status IN ('queued', 'processing')`
    })

    const setProgress = Rows.execute({
      Request: Schema.Struct({ callId: CallId, stage: Schema.String, progress: Schema.Number }),
      execute: ({ callId, progress, stage }) =>
        sql`UPDATE calls SET stage = ${stage}, progress = ${progress} WHERE call_id = ${callId} AND status = 'processing'`
    })

    /** Back in the queue after a failed attempt that will be retried. */
    const requeue = Rows.execute({
      Request: CallId,
      execute: (callId) => sql`UPDATE calls SET status = 'queued', stage = 'queued', progress = 0 WHERE call_id = ${callId}`
    })

    /**
     * The analysis stored, with the day each of its dated steps' dues names (`trend_due_days`,
     * migration 0027: read by chrono from the call's meeting, lib/DueDates.ts), in the order of the
     * dues the database reads out of the same result (`calls_trend_dues`, the column `trend_dues`):
     * the trends count kept and slipped steps from these days.
     */
    const complete = (callId: CallId, result: AnalysisResult) =>
      Effect.gen(function* () {
        const json = JSON.stringify(result)
        const [call] = yield* sql<{ occurred_at: Date | string; dues: ReadonlyArray<string> | null }>`
          SELECT occurred_at, calls_trend_dues(${json}::jsonb) AS dues FROM calls WHERE call_id = ${callId}`
        const days = call === undefined ? null : trendDueDays(call.dues, new Date(call.occurred_at).toISOString())
        yield* sql`UPDATE calls SET status = 'completed', stage = 'done', progress = 1, completed_at = now(),
                             duration_s = ${result.duration_s}, method_version = ${result.method_version},
                             result = ${json}::jsonb,
                             trend_due_days = (SELECT array_agg(e.d::date ORDER BY e.i)
                                               FROM jsonb_array_elements_text(${days === null ? null : JSON.stringify(days)}::jsonb) WITH ORDINALITY AS e(d, i))
            WHERE call_id = ${callId}`
      })

    /**
     * The analysis failed for good. A call that still holds an earlier analysis (a re-analysis of
     * a completed call) goes back to `completed` with it, as it was: its `completed_at` (kept by
     * `reopen`), no error; only `started_at` is cleared, since the time it took is not known again.
     * The failure itself is the worker's `analysis_failed` event.
     */
    const fail = Rows.execute({
      Request: Schema.Struct({ callId: CallId, code: Schema.String, message: Schema.String }),
      execute: ({ callId, code, message }) =>
        sql`UPDATE calls SET
              status = CASE WHEN result IS NULL THEN 'failed' ELSE 'completed' END,
              stage = CASE WHEN result IS NULL THEN stage ELSE 'done' END,
              progress = CASE WHEN result IS NULL THEN progress ELSE 1 END,
              started_at = CASE WHEN result IS NULL THEN started_at END,
              completed_at = CASE WHEN result IS NULL THEN now() ELSE completed_at END,
              error_code = CASE WHEN result IS NULL THEN ${code} END,
              error_message = CASE WHEN result IS NULL THEN ${message} END
            WHERE call_id = ${callId}`
    })

    /**
     * Back in the queue for a re-analysis: the status and progress start again, the previous
     * analysis (`result`, `method_version`, and when it was completed) stays readable until the new
     * one replaces it, or comes back if the new one fails.
     */
    const reopen = Rows.execute({
      Request: CallId,
      execute: (callId) =>
        sql`UPDATE calls SET status = 'queued', stage = 'queued', progress = 0, started_at = NULL,
                             error_code = NULL, error_message = NULL
            WHERE call_id = ${callId}`
    })

    return {
      reopen,
      remove: (clientId: ClientId, callId: CallId) => remove({ tenantId: clientId, callId }),
      insert: (c: typeof NewCall.Type) => Effect.map(insert(c), (row) => row.created_at),
      exists: (clientId: ClientId, callId: CallId) => Effect.map(exists({ tenantId: clientId, callId }), (row) => row.exists),
      find: (clientId: ClientId, callId: CallId) => find({ tenantId: clientId, callId }),
      findStatus: (clientId: ClientId, callId: CallId) => findStatus({ tenantId: clientId, callId }),
      findAudio: (clientId: ClientId, callId: CallId) => findAudio({ tenantId: clientId, callId }),
      findForJob,
      page,
      findIdempotent: (clientId: ClientId, key: string) => findIdempotent({ tenantId: clientId, key }),
      saveIdempotent: (clientId: ClientId, key: string, sha256: string, callId: CallId) =>
        saveIdempotent({ tenantId: clientId, key, sha256, callId }),
      markProcessing,
      setProgress: (callId: CallId, stage: string, progress: number) => setProgress({ callId, stage, progress }),
      requeue,
      complete,
      fail: (callId: CallId, code: string, message: string) => fail({ callId, code, message })
    } as const
  })
}) {}
