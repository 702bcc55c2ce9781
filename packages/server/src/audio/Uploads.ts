/**
 * Uploads of audio for analysis (docs/domain.md, "Audio analysis for agents"): the file is streamed to
 * the blob store while it is hashed, its format sniffed from the bytes, and the call and its job
 * are committed before the 202 answer, with a `no_transcriber` notice when the tenant has no
 * speech-to-text provider now (views/SpeechToText.ts). Status, report and analysis are read
 * through `CallViews`.
 *
 * Who uploads (`Sees`): a tenant key, an owner or an admin upload for the team (`closer_email` as
 * given). A rep (a member who is a verified closer) uploads their own calls: without
 * `closer_email` the call is theirs, with another closer's e-mail 403 (the field is valid; the
 * right to name another closer is missing); a member who is no closer cannot upload (403, before
 * the body is read). The Idempotency-Key is the tenant's, whichever door the upload came through.
 */
import {
  CallId,
  CallTypeName,
  type ClientId,
  Conflict,
  EmailAddress,
  Forbidden,
  isSafeText,
  PayloadTooLarge,
  PaymentRequired,
  RepChannelSetting,
  type Sees,
  UnsupportedMediaType,
  ValidationFailed
} from "@callsight/api-spec"
import type { Multipart } from "@effect/platform"
import { Effect, Option, Schema, Stream } from "effect"
import { SNIFF_BYTES, sniffFormat } from "@callsight/analysis/light"
import { BlobStore, type StagedBlob } from "../calls/BlobStore.js"
import { blobKeyOf, CallIntake } from "../calls/CallIntake.js"
import { CallsRepo } from "../calls/CallsRepo.js"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { WebhookOutbox } from "../events/WebhookOutbox.js"
import { newId } from "../lib/Ids.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { SpeechToText } from "../views/SpeechToText.js"

const invalid = (field: string, msg: string, type = "value_error") =>
  new ValidationFailed({ detail: [{ loc: ["body", field], msg, type }] })

const isEmail = Schema.is(EmailAddress)
const isCallType = Schema.is(CallTypeName)
const isRepChannel = Schema.is(RepChannelSetting)

/** The form fields of an upload, the file staged on disk; `attendees` every value of that field, in order. */
interface UploadForm {
  readonly audio: StagedBlob | undefined
  readonly fields: ReadonlyMap<string, string>
  readonly attendees: ReadonlyArray<string>
}

/** The most attendees an upload names. */
export const MAX_ATTENDEES = 50
/** How far in the future a `meeting_at` may be (clocks differ): 5 minutes. */
export const MEETING_AT_SKEW_MS = 5 * 60 * 1000
/** An ISO-8601 date-time with its offset (`2026-03-04T15:00:00Z`, `…+01:00`), or a date alone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i

export class Uploads extends Effect.Service<Uploads>()("Uploads", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const config = yield* AppConfig
    const repo = yield* CallsRepo
    const intake = yield* CallIntake
    const tenants = yield* TenantsRepo
    const blobs = yield* BlobStore
    const outbox = yield* WebhookOutbox
    const speechToText = yield* SpeechToText
    const limitBytes = config.maxUploadMb * 1024 * 1024

    const accepted = (row: { readonly call_id: CallId; readonly external_call_id: string | null; readonly created_at: string }) => ({
      call_id: row.call_id,
      status: "queued" as const,
      external_call_id: row.external_call_id,
      created_at: row.created_at,
      status_url: `${config.publicBaseUrl}/analysis/${row.call_id}`,
      report_url: `${config.publicBaseUrl}/reports/${row.call_id}/html`
    })

    /** Reads the form, streaming the `audio` part to a staged file; other files are drained. */
    const readForm = (parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>) =>
      Effect.gen(function* () {
        let audio: StagedBlob | undefined
        const fields = new Map<string, string>()
        const attendees: Array<string> = []
        yield* Stream.runForEach(parts, (part) => {
          if (part._tag === "Field") {
            return Effect.sync(() => {
              fields.set(part.key, part.value)
              if (part.key === "attendees" || part.key === "attendees[]") attendees.push(part.value)
            })
          }
          if (part.key !== "audio" || audio !== undefined) return Stream.runDrain(part.content)
          return Effect.map(blobs.stage(part.content, { limitBytes, headBytes: SNIFF_BYTES }), (staged) => {
            audio = staged
          })
        }).pipe(
          // A part may fail after the file was staged: the staged file must not stay behind.
          Effect.onError(() => (audio === undefined ? Effect.void : blobs.discard(audio)))
        )
        return { audio, fields, attendees } satisfies UploadForm
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
        for (const [field, value] of form.fields) {
          if (!isSafeText(value)) return yield* invalid(field, "must not contain a NUL character or an unpaired surrogate")
        }
        const externalCallId = form.fields.get("external_call_id")
        if (externalCallId !== undefined && externalCallId.length > 200) {
          return yield* invalid("external_call_id", "at most 200 characters")
        }
        const closerEmail = form.fields.get("closer_email")?.trim()
        if (closerEmail !== undefined && closerEmail !== "" && !isEmail(closerEmail)) {
          return yield* invalid("closer_email", "must be an e-mail address")
        }
        // The lighter door to the webhooks: this call's webhook goes to this URL too (docs/webhooks.md).
        const callbackUrl = form.fields.get("callback_url")?.trim()
        if (callbackUrl !== undefined && callbackUrl !== "") {
          const problem = callbackUrl.length > 2000 ? "at most 2000 characters" : yield* outbox.urlProblem(callbackUrl)
          if (problem !== undefined) return yield* invalid("callback_url", problem)
        }
        // what the upload says of the call: its type, the rep's stereo channel (empty: not said)
        const callType = form.fields.get("call_type")?.trim() || undefined
        if (callType !== undefined && !isCallType(callType)) {
          return yield* invalid("call_type", `must be one of ${CallTypeName.literals.join(", ")}`, "literal_error")
        }
        const repChannel = form.fields.get("rep_channel")?.trim() || undefined
        if (repChannel !== undefined && !isRepChannel(repChannel)) {
          return yield* invalid("rep_channel", `must be one of ${RepChannelSetting.literals.join(", ")}`, "literal_error")
        }
        // the meeting: its company, its deal, when it took place, who attended (docs/deals.md)
        const account = form.fields.get("account")?.trim() || undefined
        if (account !== undefined && account.length > 200) return yield* invalid("account", "at most 200 characters")
        const dealId = form.fields.get("deal_id")?.trim() || undefined
        if (dealId !== undefined && dealId.length > 200) return yield* invalid("deal_id", "at most 200 characters")
        const meetingAtText = form.fields.get("meeting_at")?.trim() || undefined
        let meetingAt: string | null = null
        if (meetingAtText !== undefined) {
          const at = ISO_INSTANT.test(meetingAtText) ? Date.parse(meetingAtText) : Number.NaN
          if (Number.isNaN(at)) return yield* invalid("meeting_at", "must be an ISO-8601 date-time with its offset, e.g. 2026-03-04T15:00:00Z")
          if (at > Date.now() + MEETING_AT_SKEW_MS) return yield* invalid("meeting_at", "is in the future: the meeting must have taken place")
          if (at < Date.UTC(2000, 0, 1)) return yield* invalid("meeting_at", "is before the year 2000")
          meetingAt = new Date(at).toISOString()
        }
        const attendees: Array<string> = []
        for (const value of form.attendees) {
          for (const piece of value.split(/[,;]/)) {
            const address = piece.trim()
            if (address === "") continue
            if (!isEmail(address)) return yield* invalid("attendees", `${JSON.stringify(piece.trim().slice(0, 100))} is not an e-mail address`)
            if (!attendees.some((a) => a.toLowerCase() === address.toLowerCase())) attendees.push(address)
          }
        }
        if (attendees.length > MAX_ATTENDEES) return yield* invalid("attendees", `at most ${MAX_ATTENDEES} addresses`)
        const format = sniffFormat(audio.head)
        if (format === undefined) {
          return yield* new UnsupportedMediaType({ message: "the file is not MP3, WAV or M4A audio" })
        }
        return {
          audio,
          format,
          externalCallId: externalCallId === "" ? null : externalCallId ?? null,
          closerEmail: closerEmail === "" ? null : closerEmail ?? null,
          callbackUrl: callbackUrl === "" ? null : callbackUrl ?? null,
          callType: callType ?? null,
          repChannel: repChannel ?? null,
          account: account ?? null,
          dealId: dealId ?? null,
          meetingAt,
          attendees
        }
      })

    const noCloser = new Forbidden({
      message: "only closers upload calls: ask an owner or an admin of the account to add and verify you as a closer"
    })
    /** The closer of the call: as given, or for a rep (`uploader` a closer) their own, another closer's being 403. */
    const closerOf = (uploader: Sees, given: string | null) => {
      if (uploader._tag === "Team") return Effect.succeed(given)
      const own = uploader.email
      if (own === null) return Effect.fail(noCloser)
      if (given !== null && given.toLowerCase() !== own.toLowerCase()) {
        return Effect.fail(new Forbidden({ message: "a rep uploads their own calls: leave closer_email out, or give your own e-mail" }))
      }
      return Effect.succeed(own)
    }

    const upload = Effect.fn("Uploads.upload")(function* (
      clientId: ClientId,
      uploader: Sees,
      parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>,
      idempotencyKey: string | undefined
    ) {
      // a member who is no closer: refused before the file is read
      if (uploader._tag === "Closer" && uploader.email === null) return yield* noCloser
      const form = yield* readForm(parts)
      const input = yield* validate(form).pipe(
        Effect.flatMap((valid) => Effect.map(closerOf(uploader, valid.closerEmail), (closerEmail) => ({ ...valid, closerEmail }))),
        Effect.onError(() => (form.audio === undefined ? Effect.void : blobs.discard(form.audio)))
      )
      const callId = CallId.make(newId("call"))
      const blobKey = blobKeyOf(clientId, callId, input.format)
      const outcome = yield* transactions.run(
        Effect.gen(function* () {
          const tenant = yield* tenants.lock(clientId)
          if (Option.isNone(tenant)) return yield* Effect.dieMessage(`tenant ${clientId} of a valid key is missing`)
          if (idempotencyKey !== undefined) {
            const earlier = yield* repo.findIdempotent(clientId, idempotencyKey)
            if (Option.isSome(earlier)) {
              // the same request again, or a conflict: the file and the fields the call keeps must match
              const e = earlier.value
              const differs = e.sha256 !== input.audio.sha256 ? "another file"
                : e.external_call_id !== input.externalCallId ? "another external_call_id"
                : e.closer_email !== input.closerEmail ? "another closer_email"
                : e.call_type !== input.callType ? "another call_type"
                : e.rep_channel !== input.repChannel ? "another rep_channel"
                : e.meeting_at !== input.meetingAt ? "another meeting_at"
                // the deal id as given is not kept, only the deal's: a given one must be that deal's
                : input.dealId !== null && e.external_deal_id !== input.dealId ? "another deal_id"
                : e.attendees.join(",").toLowerCase() !== input.attendees.join(",").toLowerCase() ? "another attendees"
                : null
              if (differs !== null) {
                return yield* new Conflict({ message: `this Idempotency-Key was used with ${differs} in the last 24 h` })
              }
              return { _tag: "replay" as const, callId: earlier.value.call_id }
            }
          }
          // 402 unless a credit is free (balance minus calls in flight) and the month has an ingest left.
          const { createdAt } = yield* intake.admit({
            callId,
            clientId,
            plan: tenant.value.plan,
            staged: input.audio,
            format: input.format,
            externalCallId: input.externalCallId,
            closerEmail: input.closerEmail,
            callType: input.callType,
            repChannel: input.repChannel,
            meetingAt: input.meetingAt,
            attendees: input.attendees,
            account: input.account,
            externalDealId: input.dealId,
            source: "api",
            event: { type: "upload_accepted", platform: "api" }
          }).pipe(Effect.catchTag("IntakeRefused", (refused) => new PaymentRequired({ message: refused.message })))
          if (input.callbackUrl !== null) yield* outbox.registerCallback(clientId, callId, input.callbackUrl)
          if (idempotencyKey !== undefined) {
            yield* repo.saveIdempotent(clientId, idempotencyKey, input.audio.sha256, callId)
          }
          return {
            _tag: "created" as const,
            body: accepted({ call_id: callId, external_call_id: input.externalCallId, created_at: createdAt })
          }
        })
      ).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.onError(() => Effect.zipRight(blobs.discard(input.audio), blobs.remove(blobKey)))
      )
      // what the analysis will miss, from the tenant's configuration now (a replay too: it is read again)
      const notices = yield* speechToText.beforeAnalysis(clientId)
      const withNotices = <A>(body: A) => (notices.length === 0 ? body : { ...body, notices })
      if (outcome._tag === "created") return withNotices(outcome.body)
      yield* blobs.discard(input.audio)
      const original = yield* repo.find(clientId, outcome.callId).pipe(Effect.orDie)
      return withNotices(accepted(Option.getOrThrow(original)))
    })

    return { upload } as const
  }),
  dependencies: [
    CallsRepo.Default,
    CallIntake.Default,
    TenantsRepo.Default,
    BlobStore.Default,
    WebhookOutbox.Default,
    Transactions.Default,
    SpeechToText.Default
  ]
}) {}
