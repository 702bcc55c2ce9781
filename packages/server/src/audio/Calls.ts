/**
 * Audio analysis for agents (DOMAIN.md): accept an upload, answer its status, its report and its
 * whole analysis. Every read is scoped to the calling tenant; another tenant's call is a 404.
 */
import {
  type AnalysisStage,
  type CallAnalysis,
  Conflict,
  EmailAddress,
  NotFound,
  PayloadTooLarge,
  PaymentRequired,
  UnsupportedMediaType,
  ValidationFailed
} from "@callsight/api-spec"
import type { Multipart } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema, Stream } from "effect"
import { renderReport } from "../analysis/Report.js"
import { SNIFF_BYTES, sniffFormat } from "../analysis/Sniff.js"
import { RuntimeFlags } from "../admin/RuntimeFlags.js"
import { TenantsRepo } from "../admin/TenantsRepo.js"
import { LedgerRepo } from "../billing/LedgerRepo.js"
import { MONTHLY_INGESTS } from "../billing/Plans.js"
import { AppConfig } from "../config.js"
import { newId } from "../lib/Ids.js"
import { EventsRepo } from "../portal/EventsRepo.js"
import { BlobStore, type StagedBlob } from "./BlobStore.js"
import { type CallRow, CallsRepo } from "./CallsRepo.js"
import { JobQueue } from "./JobQueue.js"

const invalid = (field: string, msg: string, type = "value_error") =>
  new ValidationFailed({ detail: [{ loc: ["body", field], msg, type }] })

const notFound = (callId: string) => new NotFound({ message: `no call ${callId}` })

const isEmail = Schema.is(EmailAddress)

/** The form fields of an upload, the file staged on disk. */
interface UploadForm {
  readonly audio: StagedBlob | undefined
  readonly fields: ReadonlyMap<string, string>
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString())

export class Calls extends Effect.Service<Calls>()("Calls", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const repo = yield* CallsRepo
    const jobs = yield* JobQueue
    const ledger = yield* LedgerRepo
    const tenants = yield* TenantsRepo
    const events = yield* EventsRepo
    const blobs = yield* BlobStore
    const runtimeFlags = yield* RuntimeFlags
    const limitBytes = config.maxUploadMb * 1024 * 1024

    const accepted = (row: Pick<CallRow, "call_id" | "external_call_id" | "created_at">) => ({
      call_id: row.call_id,
      status: "queued" as const,
      external_call_id: row.external_call_id,
      created_at: row.created_at.toISOString(),
      status_url: `${config.publicBaseUrl}/analysis/${row.call_id}`,
      report_url: `${config.publicBaseUrl}/reports/${row.call_id}/html`
    })

    /** Reads the form, streaming the `audio` part to a staged file; other files are drained. */
    const readForm = (parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>) =>
      Effect.gen(function* () {
        let audio: StagedBlob | undefined
        const fields = new Map<string, string>()
        yield* Stream.runForEach(parts, (part) => {
          if (part._tag === "Field") return Effect.sync(() => fields.set(part.key, part.value))
          if (part.key !== "audio" || audio !== undefined) return Stream.runDrain(part.content)
          return Effect.map(blobs.stage(part.content, { limitBytes, headBytes: SNIFF_BYTES }), (staged) => {
            audio = staged
          })
        }).pipe(
          // A part may fail after the file was staged: the staged file must not stay behind.
          Effect.onError(() => (audio === undefined ? Effect.void : blobs.discard(audio)))
        )
        return { audio, fields } satisfies UploadForm
      }).pipe(
        Effect.catchTags({
          BlobTooLarge: () => new PayloadTooLarge({ message: `the file is over the limit of ${config.maxUploadMb} MB` }),
          MultipartError: (e) =>
            e.reason === "FileTooLarge" || e.reason === "BodyTooLarge" || e.reason === "FieldTooLarge"
              ? new PayloadTooLarge({ message: `the upload is over the limit (${e.reason})` })
              : invalid("audio", `the multipart body could not be read (${e.reason})`),
          BlobWriteFailed: (e) => Effect.die(e.cause)
        })
      )

    const validate = (form: UploadForm) =>
      Effect.gen(function* () {
        const audio = form.audio
        if (audio === undefined) return yield* invalid("audio", "Field required", "missing")
        if (audio.size === 0) return yield* invalid("audio", "the file is empty")
        const externalCallId = form.fields.get("external_call_id")
        if (externalCallId !== undefined && externalCallId.length > 200) {
          return yield* invalid("external_call_id", "at most 200 characters")
        }
        const closerEmail = form.fields.get("closer_email")?.trim()
        if (closerEmail !== undefined && closerEmail !== "" && !isEmail(closerEmail)) {
          return yield* invalid("closer_email", "must be an e-mail address")
        }
        const format = sniffFormat(audio.head)
        if (format === undefined) {
          return yield* new UnsupportedMediaType({ message: "the file is not MP3, WAV or M4A audio" })
        }
        return {
          audio,
          format,
          externalCallId: externalCallId === "" ? null : externalCallId ?? null,
          closerEmail: closerEmail === "" ? null : closerEmail ?? null
        }
      })

    /** 402 unless a credit is free (balance minus calls in flight) and the month has an ingest left. */
    const ensureAllowance = (clientId: string, plan: keyof typeof MONTHLY_INGESTS) =>
      Effect.gen(function* () {
        const free = (yield* ledger.balance(clientId)) - (yield* ledger.reserved(clientId))
        if (free < 1) {
          return yield* new PaymentRequired({ message: "no credit left: every credit is used or held by a call in progress" })
        }
        const included = MONTHLY_INGESTS[plan] + (yield* ledger.bonusThisMonth(clientId))
        if ((yield* ledger.ingestsThisMonth(clientId)) >= included) {
          return yield* new PaymentRequired({ message: `the plan's ${included} calls of this month are used up` })
        }
      })

    const upload = Effect.fn("Calls.upload")(function* (
      clientId: string,
      parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>,
      idempotencyKey: string | undefined
    ) {
      const form = yield* readForm(parts)
      const input = yield* validate(form).pipe(
        Effect.onError(() => (form.audio === undefined ? Effect.void : blobs.discard(form.audio)))
      )
      const callId = newId("call")
      const blobKey = `${clientId}/${callId}.${input.format}`
      const outcome = yield* sql.withTransaction(
        Effect.gen(function* () {
          const plan = yield* tenants.lockWithPlan(clientId)
          if (Option.isNone(plan)) return yield* Effect.dieMessage(`tenant ${clientId} of a valid key is missing`)
          if (idempotencyKey !== undefined) {
            const earlier = yield* repo.findIdempotent(clientId, idempotencyKey)
            if (Option.isSome(earlier)) {
              if (earlier.value.sha256 !== input.audio.sha256) {
                return yield* new Conflict({ message: "this Idempotency-Key was used with another file in the last 24 h" })
              }
              return { _tag: "replay" as const, callId: earlier.value.call_id }
            }
          }
          yield* ensureAllowance(clientId, plan.value)
          const createdAt = yield* repo.insert({
            callId,
            clientId,
            externalCallId: input.externalCallId,
            closerEmail: input.closerEmail,
            format: input.format,
            blobKey,
            size: input.audio.size,
            sha256: input.audio.sha256
          })
          yield* jobs.enqueue(callId)
          if (idempotencyKey !== undefined) {
            yield* repo.saveIdempotent(clientId, idempotencyKey, input.audio.sha256, callId)
          }
          yield* events.record({
            clientId,
            type: "upload_accepted",
            platform: "api",
            status: "ok",
            closerEmail: input.closerEmail,
            callId,
            error: null
          })
          // The blob is in place before the row commits, so a committed call always has its file.
          yield* blobs.commit(input.audio, blobKey).pipe(Effect.orDie)
          return {
            _tag: "created" as const,
            body: accepted({ call_id: callId, external_call_id: input.externalCallId, created_at: createdAt })
          }
        })
      ).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.onError(() => Effect.zipRight(blobs.discard(input.audio), blobs.remove(blobKey)))
      )
      if (outcome._tag === "created") return outcome.body
      yield* blobs.discard(input.audio)
      const original = yield* repo.find(clientId, outcome.callId).pipe(Effect.orDie)
      return accepted(Option.getOrThrow(original))
    })

    const findCall = (clientId: string, callId: string) =>
      repo.find(clientId, callId).pipe(
        Effect.orDie,
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(callId)), onSome: Effect.succeed }))
      )

    const status = Effect.fn("Calls.status")(function* (clientId: string, callId: string) {
      const call = yield* findCall(clientId, callId)
      const charged = yield* Effect.orDie(ledger.chargedFor(callId))
      const result = call.result
      return {
        call_id: call.call_id,
        external_call_id: call.external_call_id,
        status: call.status,
        stage: call.status === "completed" ? ("done" as const) : (call.stage as typeof AnalysisStage.Type),
        progress: call.progress,
        created_at: call.created_at.toISOString(),
        started_at: iso(call.started_at),
        completed_at: iso(call.completed_at),
        duration_s: call.duration_s,
        credits_charged: charged,
        error: call.error_code === null ? null : { code: call.error_code, message: call.error_message ?? "" },
        summary:
          call.status === "completed" && result !== null
            ? {
              overall_score: result.scorecard.overall,
              talk_ratio: result.metrics.talk_ratio,
              speakers: result.speakers.length,
              transcript_available: result.transcript !== null
            }
            : null
      }
    })

    /** The whole analysis as JSON (`GET /v1/teams/calls/{call_id}`, the workspace and assistant views). */
    const toAnalysis = (call: CallRow): CallAnalysis => {
      const r = call.result
      return {
        call_id: call.call_id,
        external_call_id: call.external_call_id,
        closer_email: call.closer_email,
        status: call.status,
        created_at: call.created_at.toISOString(),
        completed_at: iso(call.completed_at),
        duration_s: call.duration_s,
        method_version: call.method_version,
        channels: r?.channels ?? null,
        speakers: r?.speakers ?? [],
        speaker_turns: r?.speaker_turns ?? [],
        metrics: r?.metrics ?? null,
        scorecard: r?.scorecard ?? null,
        evidence: r?.evidence ?? [],
        qualification: r?.qualification ?? null,
        objections: r?.objections ?? [],
        next_steps: r?.next_steps ?? [],
        transcript: r?.transcript ?? null,
        transcription: r?.transcription ?? null,
        error: call.error_code === null ? null : { code: call.error_code, message: call.error_message ?? "" }
      }
    }

    const analysis = Effect.fn("Calls.analysis")(function* (clientId: string, callId: string) {
      return toAnalysis(yield* findCall(clientId, callId))
    })

    const reportHtml = Effect.fn("Calls.reportHtml")(function* (clientId: string, callId: string) {
      const call = yield* findCall(clientId, callId)
      if (call.status !== "completed" || call.result === null) {
        return yield* new Conflict({ message: `the analysis is ${call.status}; the report exists once it is completed` })
      }
      const r = call.result
      const flags = yield* runtimeFlags.forTenant(clientId)
      return renderReport({
        call_id: call.call_id,
        external_call_id: call.external_call_id,
        created_at: call.created_at.toISOString(),
        duration_s: r.duration_s,
        channels: r.channels,
        method_version: r.method_version,
        speakers: r.speakers,
        speaker_turns: r.speaker_turns,
        metrics: r.metrics,
        scorecard: r.scorecard,
        evidence: r.evidence,
        transcript: r.transcript,
        closer_email: call.closer_email,
        diarization: r.diarization,
        // results stored before transcripts landed have none of these
        qualification: r.qualification ?? null,
        objections: r.objections ?? [],
        next_steps: r.next_steps ?? [],
        transcription: r.transcription ?? null,
        include_transcript: flags["report.include_transcript"] !== false
      })
    })

    const list = Effect.fn("Calls.list")(function* (clientId: string, limit: number, cursor: string | undefined) {
      const after = yield* decodeCursor(cursor)
      const rows = yield* Effect.orDie(repo.page(clientId, limit + 1, after))
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return {
        calls: page.map((c) => ({
          call_id: c.call_id,
          external_call_id: c.external_call_id,
          status: c.status,
          created_at: c.created_at.toISOString(),
          completed_at: iso(c.completed_at),
          duration_s: c.duration_s,
          overall_score: c.result?.scorecard.overall ?? null
        })),
        next_cursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null
      }
    })

    return { upload, status, analysis, reportHtml, list, toAnalysis } as const
  }),
  dependencies: [
    CallsRepo.Default,
    JobQueue.Default,
    LedgerRepo.Default,
    TenantsRepo.Default,
    EventsRepo.Default,
    BlobStore.Default,
    RuntimeFlags.Default
  ]
}) {}

/** Keyset cursor: the last row's creation time and id, opaque to callers. */
const encodeCursor = (row: CallRow) =>
  Buffer.from(`${row.created_at.toISOString()}|${row.call_id}`).toString("base64url")

const decodeCursor = (cursor: string | undefined) => {
  if (cursor === undefined) return Effect.succeed(Option.none())
  const [at, callId] = Buffer.from(cursor, "base64url").toString("utf8").split("|")
  const createdAt = new Date(at ?? "")
  return callId === undefined || Number.isNaN(createdAt.getTime())
    ? Effect.fail(new ValidationFailed({ detail: [{ loc: ["query", "cursor"], msg: "not a cursor of this list", type: "value_error" }] }))
    : Effect.succeed(Option.some({ createdAt, callId }))
}
