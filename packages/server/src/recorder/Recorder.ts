/**
 * The meeting-recording bot (docs/domain.md, "Recall"; issue 12): connect a calendar once, and the
 * closer's meetings are recorded, analysed and attributed to them without anyone uploading a file.
 *
 * - `activate` turns it on for the tenant (owners and admins), `deactivate` turns it off and
 *   cancels its bots still waiting for their meeting; `status` says how it went.
 * - In `auto` mode the scheduling pass reads every connected closer's calendar (`MeetingCalendars`,
 *   the next 24 hours) and sends a bot to each event with a meeting link on one of the tenant's
 *   platforms, once per event (a unique index); `manual` records the meetings asked for.
 * - The provider reports each bot's status by a signed webhook; the polling pass reads the bots
 *   whose meeting should be over, so a lost webhook only delays the outcome.
 * - A finished recording is fetched into the blob store and admitted as a call of the tenant
 *   (`CallIntake`, the same step as an upload), attributed to the calendar's closer and analysed
 *   by the same queue; it counts against the monthly ingests, not the credits. A bot that could not
 *   join, a meeting without a recording, or a recording over the month's ingests is an event and a
 *   recall alert instead.
 */
import {
  type ActivateRecallRequest,
  CallId,
  type ClientId,
  Conflict,
  NotFound,
  type RecallAlertKind,
  type RecallMeeting,
  type RecallStatus,
  type RecordMeetingRequest,
  type Sees,
  Unauthorized,
  ValidationFailed
} from "@callsight/api-spec"
import { Duration, Effect, Either, FiberSet, Option, Redacted } from "effect"
import { Webhook } from "standardwebhooks"
import { SNIFF_BYTES, sniffFormat } from "@callsight/analysis/light"
import { BlobStore } from "../calls/BlobStore.js"
import { blobKeyOf, CallIntake } from "../calls/CallIntake.js"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { EventsRepo, type NewEvent } from "../events/EventsRepo.js"
import { RecallAlertsRepo } from "../events/RecallAlertsRepo.js"
import { newId } from "../lib/Ids.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { MeetingCalendars } from "../ports/MeetingCalendars.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { platformOf, PLATFORM_NAMES, validPlatforms } from "./Platforms.js"
import { type ProviderBot, RecallClient, type StatusChange } from "./RecallClient.js"
import { type MeetingRow, RecorderRepo, type SettingsRow } from "./RecorderRepo.js"

export const DEFAULT_BOT_NAME = "Callsight Recorder"

/** How far ahead the calendars are read. */
export const LOOKAHEAD = Duration.hours(24)
/** Tries to create a bot at the provider, and to fetch a recording, before the meeting is given up. */
const MAX_CREATE_ATTEMPTS = 5
const MAX_FETCH_ATTEMPTS = 5
/** How long a process holds a meeting it creates a bot for, or whose recording it fetches. */
const HOLD_SECONDS = 120
const FETCH_LEASE_SECONDS = 15 * 60
/** A manual meeting may start this long ago: the bot joins at once. */
const PAST_JOIN_TOLERANCE_MS = 5 * 60 * 1000
/** Meetings handled per pass at most (the next pass takes the rest). */
const PASS_BATCH = 200

/** Status codes of a bot inside its meeting. */
const IN_CALL = new Set(["in_call_not_recording", "recording_permission_allowed", "recording_permission_denied", "in_call_recording", "recording_done"])
const JOINING = new Set(["joining_call", "in_waiting_room", "participant_in_waiting_room"])
/** The provider is through with the bot: its recording, if any, is ready. */
const FINAL = new Set(["done", "fatal"])

type OpenState = "scheduled" | "joining" | "in_call"

const openStateOf = (code: string | undefined, joined: boolean): OpenState =>
  code === undefined || code === "ready"
    ? "scheduled"
    : IN_CALL.has(code) || (joined && !JOINING.has(code))
    ? "in_call"
    : JOINING.has(code) || code === "call_ended"
    ? "joining"
    : "scheduled"

const EVENT_OF: Record<typeof RecallAlertKind.Type, NewEvent["type"]> = {
  bot_join_failed: "bot_join_failed",
  recording_missing: "recording_missing",
  ingest_limit_reached: "recording_refused"
}

/** The provider's words for a status change: its sub-code and message, when it gave them. */
const reasonOf = (change: StatusChange | undefined) =>
  change === undefined ? "" : [change.sub_code, change.message].filter((s): s is string => s !== null && s !== "").join(": ")

const invalid = (field: string, msg: string) => new ValidationFailed({ detail: [{ loc: ["body", field], msg, type: "value_error" }] })

/** The bot and status code a webhook is about, from Recall's current shape or its older one. */
export const webhookSubject = (body: unknown): { readonly botId: string; readonly code: string } | undefined => {
  if (typeof body !== "object" || body === null) return undefined
  const record = body as { event?: unknown; data?: unknown }
  const data = (typeof record.data === "object" && record.data !== null ? record.data : {}) as Record<string, any>
  const event = typeof record.event === "string" ? record.event : ""
  const botId = typeof data["bot"]?.["id"] === "string" ? data["bot"]["id"] : typeof data["bot_id"] === "string" ? data["bot_id"] : undefined
  const code = typeof data["data"]?.["code"] === "string"
    ? data["data"]["code"]
    : typeof data["status"]?.["code"] === "string"
    ? data["status"]["code"]
    : event.startsWith("bot.") && event !== "bot.status_change"
    ? event.slice(4)
    : undefined
  return botId === undefined || code === undefined ? undefined : { botId, code }
}

const meetingView = (row: MeetingRow): typeof RecallMeeting.Type => ({
  meeting_id: row.meeting_id,
  closer_id: row.closer_id,
  closer_email: row.closer_email,
  source: row.source,
  title: row.title,
  meeting_url: row.meeting_url,
  platform: row.platform,
  join_at: row.join_at,
  ends_at: row.ends_at,
  state: row.state,
  bot_status: row.bot_status,
  call_id: row.call_id,
  error: row.error,
  created_at: row.created_at,
  updated_at: row.updated_at
})

/** What a pass did, for the log and the tests. */
export interface SchedulePassReport {
  readonly tenants: number
  readonly calendars: number
  readonly events: number
  readonly scheduled: number
  readonly retried: number
  readonly cancelled: number
  readonly calendarErrors: number
}

export class Recorder extends Effect.Service<Recorder>()("Recorder", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* RecorderRepo
    const provider = yield* RecallClient
    const transactions = yield* Transactions
    const audit = yield* AuditLog
    const tenants = yield* TenantsRepo
    const intake = yield* CallIntake
    const blobs = yield* BlobStore
    const events = yield* EventsRepo
    const alerts = yield* RecallAlertsRepo
    /** Recordings fetched after a webhook, in the background of this process, stopped with it. */
    const background = yield* FiberSet.make<unknown, never>()
    const verifier = Option.map(config.recorderWebhookSecret, (secret) => new Webhook(Redacted.value(secret)))
    const limitBytes = config.maxUploadMb * 1024 * 1024

    // -----------------------------------------------------------------------------------------
    // Status, activation

    const status = Effect.fn("Recorder.status")(function* (clientId: ClientId) {
      const settings = Option.getOrNull(yield* repo.settings(clientId))
      const s = yield* repo.summary(clientId)
      const active = settings?.active ?? false
      return {
        active,
        join_mode: settings?.join_mode ?? null,
        bot_name: settings === null ? null : settings.bot_name ?? DEFAULT_BOT_NAME,
        platforms: settings?.platforms ?? [],
        since: active ? settings?.activated_at ?? null : null,
        meetings_recorded: s.recorded_total,
        last_recording_at: s.last_recording_at,
        meetings_upcoming: s.upcoming,
        last_7_days: { scheduled: s.scheduled_7d, recorded: s.recorded_7d, failed: s.failed_7d },
        last_error: s.last_error === null || s.last_error_at === null ? null : { message: s.last_error, at: s.last_error_at },
        provider_configured: provider.configured
      } satisfies typeof RecallStatus.Type
    }, Effect.orDie)

    const activate = Effect.fn("Recorder.activate")(function* (caller: Caller, request: ActivateRecallRequest) {
      const valid = validPlatforms(request.platforms)
      if (valid._tag === "Left") return yield* valid.error
      if (!provider.configured) {
        return yield* new Conflict({
          message: "the recording bot cannot be activated: RECORDER_API_KEY is not set on the server (ask your Callsight operator)"
        })
      }
      const botName = request.bot_name ?? null
      yield* transactions.run(Effect.gen(function* () {
        yield* repo.activate({ clientId: caller.clientId, joinMode: request.join_mode, botName, platforms: valid.platforms })
        yield* audit.record(caller.clientId, caller.actor, {
          action: "recorder.activated",
          targetType: "recorder",
          targetId: caller.clientId,
          metadata: { join_mode: request.join_mode, bot_name: botName, platforms: valid.platforms }
        })
      })).pipe(Effect.orDie)
      return yield* status(caller.clientId)
    })

    const deactivate = Effect.fn("Recorder.deactivate")(function* (caller: Caller) {
      const waiting = yield* Effect.orDie(repo.waiting(caller.clientId))
      yield* transactions.run(Effect.gen(function* () {
        const changed = yield* repo.deactivate(caller.clientId)
        if (Option.isSome(changed)) {
          yield* audit.record(caller.clientId, caller.actor, {
            action: "recorder.deactivated",
            targetType: "recorder",
            targetId: caller.clientId,
            metadata: { bots_to_cancel: waiting.length }
          })
        }
      })).pipe(Effect.orDie)
      yield* cancel(waiting)
      return yield* status(caller.clientId)
    })

    // -----------------------------------------------------------------------------------------
    // Bots: create, cancel, fail

    /** The meeting's outcome is a failure: the meeting is `failed`, with an event and a recall alert. */
    const fail = (row: MeetingRow, kind: typeof RecallAlertKind.Type, message: string, botStatus: string | null = null) =>
      transactions.run(Effect.gen(function* () {
        yield* repo.markFailed({ meetingId: row.meeting_id, error: message, botStatus })
        yield* alerts.insert({
          clientId: row.client_id,
          meetingId: row.meeting_id,
          kind,
          closerId: row.closer_id,
          closerEmail: row.closer_email,
          platform: row.platform,
          meetingUrl: row.meeting_url,
          scheduledAt: row.join_at,
          message
        })
        yield* events.record({
          clientId: row.client_id,
          type: EVENT_OF[kind],
          platform: "recorder",
          status: "error",
          closerEmail: row.closer_email,
          callId: null,
          error: message
        })
      })).pipe(
        Effect.tap(() => Effect.logWarning(`recorder: ${kind}: ${message}`).pipe(Effect.annotateLogs({ meeting_id: row.meeting_id }))),
        Effect.orDie
      )

    /** Asks the provider for the meeting's bot; a meeting it cannot take is retried, then given up. */
    const createBot = (row: MeetingRow, botName: string | null) =>
      provider.createBot({
        meetingUrl: row.meeting_url,
        joinAt: row.join_at,
        botName: botName ?? DEFAULT_BOT_NAME,
        metadata: { callsight_meeting_id: row.meeting_id, client_id: row.client_id, closer_id: row.closer_id ?? "" }
      }).pipe(
        Effect.either,
        Effect.flatMap(Either.match({
          onRight: (bot) =>
            Effect.gen(function* () {
              const scheduled = yield* transactions.run(Effect.gen(function* () {
                const updated = yield* repo.markScheduled({
                  meetingId: row.meeting_id,
                  providerBotId: bot.id,
                  botStatus: bot.latest?.code ?? null
                })
                if (Option.isSome(updated)) {
                  yield* events.record({
                    clientId: row.client_id,
                    type: "bot_scheduled",
                    platform: "recorder",
                    status: "ok",
                    closerEmail: row.closer_email,
                    callId: null,
                    error: null
                  })
                }
                return Option.isSome(updated)
              })).pipe(Effect.orDie)
              // cancelled while the provider was asked: the bot must not join
              if (!scheduled) yield* Effect.ignore(provider.deleteBot(bot.id))
            }),
          onLeft: (error) => {
            const message = error._tag === "ProviderRefused"
              ? `the bot provider refused the bot (HTTP ${error.status}): ${error.message}`
              : `the bot provider could not be reached: ${error.message}`
            const tooLate = new Date(row.join_at).getTime() < Date.now() - PAST_JOIN_TOLERANCE_MS
            return error._tag === "ProviderRefused" || row.attempts >= MAX_CREATE_ATTEMPTS || tooLate
              ? fail(row, "bot_join_failed", message)
              : Effect.orDie(repo.postpone({ meetingId: row.meeting_id, error: message, delaySeconds: 60 * row.attempts }))
          }
        }))
      )

    /** Cancels bots still waiting for their meeting; a bot already in its meeting finishes. */
    const cancel = (rows: ReadonlyArray<MeetingRow>) =>
      Effect.reduce(rows, 0, (n, row) =>
        Effect.gen(function* () {
          if (row.provider_bot_id !== null) {
            const deleted = yield* Effect.either(provider.deleteBot(row.provider_bot_id))
            if (Either.isLeft(deleted) && deleted.left._tag === "ProviderRefused") {
              // on its way into the meeting already: read its status, so it is not asked again
              yield* Effect.logInfo(`recorder: bot not cancelled: ${deleted.left.message}`).pipe(
                Effect.annotateLogs({ meeting_id: row.meeting_id })
              )
              yield* settle(row.meeting_id)
              return n
            }
            if (Either.isLeft(deleted) && deleted.left._tag !== "BotNotFound") {
              yield* Effect.logWarning(`recorder: bot not cancelled, tried again next pass: ${deleted.left.message}`).pipe(
                Effect.annotateLogs({ meeting_id: row.meeting_id })
              )
              return n
            }
          }
          yield* Effect.orDie(repo.markCancelled(row.meeting_id))
          return n + 1
        }))

    // -----------------------------------------------------------------------------------------
    // Outcome: the recording becomes a call, or the failure an alert

    /** Fetching failed for a passing reason: retried by the polling pass, then given up. */
    const retryFetch = (row: MeetingRow, message: string) =>
      Effect.gen(function* () {
        const attempts = yield* Effect.orDie(repo.retryFetch({ meetingId: row.meeting_id, error: message, delaySeconds: 60 * (row.fetch_attempts + 1) }))
        if (Option.isSome(attempts) && attempts.value.fetch_attempts >= MAX_FETCH_ATTEMPTS) {
          yield* fail(row, row.joined ? "recording_missing" : "bot_join_failed", `gave up after ${attempts.value.fetch_attempts} tries: ${message}`)
          return "final" as const
        }
        return "open" as const
      })

    /** Downloads the recording and admits it as a call of the tenant, attributed to the closer. */
    const admitRecording = (row: MeetingRow, bot: ProviderBot, url: string) =>
      Effect.gen(function* () {
        const staged = yield* blobs.stage(provider.download(url), { limitBytes, headBytes: SNIFF_BYTES }).pipe(
          Effect.map((file) => ({ _tag: "Staged" as const, file })),
          Effect.catchTags({
            BlobTooLarge: () => Effect.succeed({ _tag: "TooLarge" as const }),
            ProviderUnavailable: (e) => Effect.succeed({ _tag: "Unavailable" as const, message: e.message }),
            BlobWriteFailed: (e) => Effect.die(e.cause)
          })
        )
        if (staged._tag === "TooLarge") {
          yield* fail(row, "recording_missing", `the recording is over the limit of ${config.maxUploadMb} MB`, bot.latest?.code)
          return "final" as const
        }
        if (staged._tag === "Unavailable") return yield* retryFetch(row, staged.message)
        const file = staged.file
        const format = sniffFormat(file.head)
        if (format === undefined || file.size === 0) {
          yield* blobs.discard(file)
          yield* fail(row, "recording_missing", "the recording is not audio the analysis reads (MP3, WAV or MP4/M4A)", bot.latest?.code)
          return "final" as const
        }
        const callId = CallId.make(newId("call"))
        const admitted = yield* transactions.run(Effect.gen(function* () {
          const tenant = yield* tenants.lock(row.client_id)
          if (Option.isNone(tenant)) return yield* Effect.dieMessage(`tenant ${row.client_id} of a meeting is missing`)
          yield* intake.admit({
            callId,
            clientId: row.client_id,
            plan: tenant.value.plan,
            staged: file,
            format,
            externalCallId: `recorder:${row.meeting_id}`,
            closerEmail: row.closer_email,
            callType: null,
            repChannel: null,
            // the meeting's start and its calendar event's invitees: its account and deal come from them
            meetingAt: row.join_at,
            attendees: row.attendees,
            account: null,
            externalDealId: null,
            source: "recorder",
            event: { type: "recording_received", platform: "recorder" }
          })
          yield* repo.markRecorded({ meetingId: row.meeting_id, callId, botStatus: bot.latest?.code ?? null })
        })).pipe(
          Effect.catchTag("SqlError", Effect.die),
          Effect.onError(() => Effect.zipRight(blobs.discard(file), blobs.remove(blobKeyOf(row.client_id, callId, format)))),
          Effect.either
        )
        if (Either.isLeft(admitted)) {
          yield* fail(row, "ingest_limit_reached", `the recording was not analysed: ${admitted.left.message}`, bot.latest?.code)
          return "final" as const
        }
        yield* Effect.logInfo("recorder: recording admitted").pipe(Effect.annotateLogs({ meeting_id: row.meeting_id, call_id: callId }))
        return "final" as const
      })

    /**
     * Reads the meeting's bot at the provider and, when the provider is through with it, makes its
     * outcome: a call, or a failure. Answers `busy` when the meeting was not taken (final already,
     * or another process holds it), `open` when the bot is not through yet or will be tried
     * again, `final` when the meeting got its outcome.
     */
    const settle = (meetingId: string): Effect.Effect<"busy" | "open" | "final"> =>
      Effect.gen(function* () {
        const claimed = yield* Effect.orDie(repo.claimSettle(meetingId, FETCH_LEASE_SECONDS))
        if (Option.isNone(claimed)) return "busy" as const
        const row = claimed.value
        const read = yield* Effect.either(provider.getBot(row.provider_bot_id!))
        if (Either.isLeft(read)) {
          const error = read.left
          if (error._tag === "BotNotFound") {
            yield* fail(row, row.joined ? "recording_missing" : "bot_join_failed", "the bot provider no longer knows the bot")
            return "final" as const
          }
          return yield* retryFetch(row, `the bot could not be read: ${error.message}`)
        }
        const bot = read.right
        const code = bot.latest?.code
        const joined = row.joined || bot.statusChanges.some((c) => IN_CALL.has(c.code))
        if (code === undefined || !FINAL.has(code)) {
          yield* Effect.orDie(repo.release({ meetingId, botStatus: code ?? null, state: openStateOf(code, joined), joined }))
          return "open" as const
        }
        const joinedRow = { ...row, joined }
        if (code === "fatal") {
          const reason = reasonOf(bot.latest)
          yield* fail(
            joinedRow,
            joined ? "recording_missing" : "bot_join_failed",
            joined ? `the bot failed during the meeting${reason === "" ? "" : ` (${reason})`}` : `the bot could not join the meeting${reason === "" ? "" : ` (${reason})`}`,
            code
          )
          return "final" as const
        }
        if (bot.recordingUrl === null) {
          const reason = reasonOf([...bot.statusChanges].reverse().find((c) => c.sub_code !== null || c.message !== null))
          yield* fail(
            joinedRow,
            joined ? "recording_missing" : "bot_join_failed",
            joined ? "the meeting ended without a recording to fetch" : `the bot never got into the meeting${reason === "" ? "" : ` (${reason})`}`,
            code
          )
          return "final" as const
        }
        return yield* admitRecording(joinedRow, bot, bot.recordingUrl)
      }).pipe(Effect.withSpan("Recorder.settle", { attributes: { meeting_id: meetingId } }))

    // -----------------------------------------------------------------------------------------
    // Manual meetings, the list

    const recordMeeting = Effect.fn("Recorder.recordMeeting")(function* (caller: Caller, request: RecordMeetingRequest) {
      const settings = Option.getOrNull(yield* Effect.orDie(repo.settings(caller.clientId)))
      if (settings === null || !settings.active) {
        return yield* new Conflict({ message: "the recording bot is not active: activate it first (POST /v1/client-portal/recall/activate)" })
      }
      const closer = yield* Effect.orDie(repo.closer(caller.clientId, request.closer_id))
      if (Option.isNone(closer)) return yield* new NotFound({ message: `no closer ${request.closer_id}` })
      if (closer.value.status === "removed") return yield* new Conflict({ message: "this closer was removed" })
      const platform = platformOf(request.meeting_url)
      if (platform === undefined) {
        return yield* invalid("meeting_url", `not a meeting link the bot joins: an https link of ${PLATFORM_NAMES.join(", ")}`)
      }
      if (!settings.platforms.includes(platform)) {
        return yield* invalid("meeting_url", `a ${platform} link, and the recorder joins ${settings.platforms.join(", ")} only (activate with it)`)
      }
      const now = Date.now()
      const joinAt = request.join_at === undefined ? new Date(now) : new Date(request.join_at)
      if (Number.isNaN(joinAt.getTime())) return yield* invalid("join_at", "not a valid date-time")
      if (joinAt.getTime() < now - PAST_JOIN_TOLERANCE_MS) return yield* invalid("join_at", "is in the past: the bot cannot join a meeting that is over")
      const endsAt = request.ends_at === undefined ? null : new Date(request.ends_at)
      if (endsAt !== null && !(endsAt.getTime() > joinAt.getTime())) return yield* invalid("ends_at", "must be after join_at")
      const meetingId = newId("mtg")
      const inserted = yield* transactions.run(Effect.gen(function* () {
        const row = yield* repo.insert({
          meetingId,
          clientId: caller.clientId,
          closerId: closer.value.closer_id,
          closerEmail: closer.value.email,
          source: "manual",
          calendarEventId: null,
          title: request.title ?? null,
          meetingUrl: request.meeting_url,
          platform,
          joinAt: joinAt.toISOString(),
          endsAt: endsAt?.toISOString() ?? null,
          attendees: [],
          holdSeconds: HOLD_SECONDS
        })
        yield* audit.record(caller.clientId, caller.actor, {
          action: "recorder.meeting_requested",
          targetType: "recorder_meeting",
          targetId: meetingId,
          metadata: { closer_id: closer.value.closer_id, platform, join_at: joinAt.toISOString() }
        })
        return row
      })).pipe(Effect.orDie)
      yield* createBot(Option.getOrThrow(inserted), settings.bot_name)
      const row = yield* Effect.orDie(repo.find(caller.clientId, meetingId))
      return meetingView(Option.getOrThrow(row))
    })

    /**
     * A page of the meetings the bot was sent to, latest first, and how many there are: a rep's own
     * closer's only (`sees`), the team's for managers.
     */
    const meetings = Effect.fn("Recorder.meetings")(function* (clientId: ClientId, sees: Sees, page: { readonly limit: number; readonly offset: number }) {
      const [rows, total] = yield* Effect.all([repo.list(clientId, sees, page), repo.count(clientId, sees)])
      return { meetings: rows.map(meetingView), total }
    }, Effect.orDie)

    // -----------------------------------------------------------------------------------------
    // The provider's webhook

    /**
     * A status change the provider posted. The signature is checked on the raw body before anything
     * is read from it (constant time, within 5 minutes): 401 and nothing changes otherwise. The
     * outcome of a finished bot is made in the background; the provider gets its answer at once.
     */
    const receiveWebhook = Effect.fn("Recorder.receiveWebhook")(function* (
      body: string,
      headers: Readonly<Record<string, string | undefined>>
    ) {
      if (Option.isNone(verifier)) {
        return yield* new Unauthorized({ message: "webhooks are not accepted: RECORDER_WEBHOOK_SECRET is not set" })
      }
      const signed = {
        "webhook-id": headers["webhook-id"] ?? headers["svix-id"] ?? "",
        "webhook-timestamp": headers["webhook-timestamp"] ?? headers["svix-timestamp"] ?? "",
        "webhook-signature": headers["webhook-signature"] ?? headers["svix-signature"] ?? ""
      }
      const verified = Either.try(() => verifier.value.verify(body, signed, { jsonParse: false }))
      if (Either.isLeft(verified)) return yield* new Unauthorized({ message: "the webhook signature is missing, stale or wrong" })
      const parsed = Either.try(() => JSON.parse(body) as unknown)
      const subject = Either.isRight(parsed) ? webhookSubject(parsed.right) : undefined
      if (subject === undefined) return { ok: true as const }
      const found = yield* Effect.orDie(repo.findByProviderId(subject.botId))
      if (Option.isNone(found)) return { ok: true as const }
      const row = found.value
      const joined = row.joined || IN_CALL.has(subject.code)
      yield* Effect.orDie(repo.applyStatus({
        meetingId: row.meeting_id,
        botStatus: subject.code,
        state: openStateOf(subject.code, joined),
        joined: IN_CALL.has(subject.code)
      }))
      if (FINAL.has(subject.code)) {
        yield* FiberSet.run(background, settle(row.meeting_id).pipe(
          Effect.catchAllCause((cause) => Effect.logError("recorder: a finished bot could not be settled", cause))
        ))
      }
      return { ok: true as const }
    })

    // -----------------------------------------------------------------------------------------
    // The passes

    /** Sends a bot to each new calendar event of the active `auto` tenants' closers. */
    const scheduleTenant = (settings: SettingsRow, at: Date) =>
      Effect.gen(function* () {
        const calendars = yield* MeetingCalendars
        const connected = yield* calendars.connected(settings.client_id)
        let events = 0, scheduled = 0, calendarErrors = 0
        for (const calendar of connected) {
          const upcoming = yield* Effect.either(calendars.upcoming(calendar, {
            from: at,
            to: new Date(at.getTime() + Duration.toMillis(LOOKAHEAD))
          }))
          if (Either.isLeft(upcoming)) {
            calendarErrors++
            yield* Effect.logWarning(`recorder: calendar not read: ${upcoming.left.message}`).pipe(
              Effect.annotateLogs({ closer_id: calendar.closerId })
            )
            continue
          }
          for (const event of upcoming.right) {
            events++
            if (event.meetingUrl === null) continue
            const platform = platformOf(event.meetingUrl)
            if (platform === undefined || !settings.platforms.includes(platform)) continue
            const inserted = yield* Effect.orDie(repo.insert({
              meetingId: newId("mtg"),
              clientId: settings.client_id,
              closerId: calendar.closerId,
              closerEmail: calendar.closerEmail,
              source: "calendar",
              calendarEventId: event.eventId,
              title: event.title,
              meetingUrl: event.meetingUrl,
              platform,
              joinAt: event.startsAt,
              endsAt: event.endsAt,
              attendees: event.attendees,
              holdSeconds: HOLD_SECONDS
            }))
            if (Option.isNone(inserted)) continue
            scheduled++
            yield* createBot(inserted.value, settings.bot_name)
          }
        }
        return { calendars: connected.length, events, scheduled, calendarErrors }
      })

    /**
     * One scheduling pass at `at` (default now): the calendars of the `auto` tenants for the next 24
     * hours, the bots to create again, and the bots of tenants whose recorder is off cancelled.
     */
    const schedulePass = (at: Date = new Date()) =>
      Effect.gen(function* () {
        const report = { tenants: 0, calendars: 0, events: 0, scheduled: 0, retried: 0, cancelled: 0, calendarErrors: 0 }
        if (!provider.configured) return report as SchedulePassReport
        const active = yield* Effect.orDie(repo.activeSettings)
        for (const settings of active.filter((s) => s.join_mode === "auto")) {
          report.tenants++
          const done = yield* scheduleTenant(settings, at)
          report.calendars += done.calendars
          report.events += done.events
          report.scheduled += done.scheduled
          report.calendarErrors += done.calendarErrors
        }
        const byTenant = new Map(active.map((s) => [s.client_id, s]))
        for (const row of yield* Effect.orDie(repo.claimPending(HOLD_SECONDS, PASS_BATCH))) {
          const settings = byTenant.get(row.client_id)
          if (settings === undefined) continue // its recorder is off: cancelled below
          report.retried++
          yield* createBot(row, settings.bot_name)
        }
        report.cancelled = yield* cancel(yield* Effect.orDie(repo.waiting(null)))
        return report as SchedulePassReport
      }).pipe(Effect.withSpan("Recorder.schedulePass"))

    /**
     * One polling pass at `at` (default now): every bot whose meeting should be over, read, and its
     * outcome made when the provider is through with it; `settled` counts those.
     */
    const pollPass = (at: Date = new Date()) =>
      Effect.gen(function* () {
        const due = yield* Effect.orDie(repo.dueForPoll(at, PASS_BATCH))
        let settled = 0
        for (const row of due) if ((yield* settle(row.meeting_id)) === "final") settled++
        return { due: due.length, settled }
      }).pipe(Effect.withSpan("Recorder.pollPass"))

    /** Waits for the recordings being fetched in the background (tests, shutdown). */
    const idle = FiberSet.awaitEmpty(background)

    return { status, activate, deactivate, recordMeeting, meetings, receiveWebhook, schedulePass, pollPass, settle, idle } as const
  }),
  dependencies: [
    RecorderRepo.Default,
    RecallClient.Default,
    Transactions.Default,
    AuditLog.Default,
    TenantsRepo.Default,
    CallIntake.Default,
    BlobStore.Default,
    EventsRepo.Default,
    RecallAlertsRepo.Default
  ]
}) {}
