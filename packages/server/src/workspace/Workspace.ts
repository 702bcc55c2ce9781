/**
 * The workspace's session, state, actions and channel sends (spec 4.8; issue 16, "Actions,
 * channel, session and state"), for the signed-in user of the portal.
 *
 * Decisions where the issue is silent:
 * - A workspace session lasts `SESSION_HOURS`; `POST /session` always makes a new one (expired
 *   ones of the user are pruned) and `state` shows the newest live one, null before any.
 * - Pins and recent searches are the user's own (a bookmark, not the team's). Every search of the
 *   workspace is recorded for its user (`SEARCHES_KEPT` kept); `state` shows the latest
 *   `RECENT_SEARCHES` distinct texts. `alerts` are the account's open alerts (the cockpit's).
 * - `reanalyze_call` needs the call's audio still kept (409 otherwise) and no job of it queued or
 *   running (409). It reopens the call's one job; the worker records the current method version.
 *   A completed call was charged once and is never charged again (the ledger takes one charge per
 *   call, and the reopened call holds no credit while it waits); a failed call was never charged,
 *   so its re-analysis needs what a new upload needs (a free credit for an API call, an ingest
 *   left this month): 402 otherwise, and it takes its one credit when it completes. The previous
 *   analysis stays readable until the new one replaces it.
 * - `record_outcome` is the portal's outcome truth (`OutcomeRecords`): `params` are `call_id` and
 *   the fields of `OutcomeTruthRequest`, checked as strictly (422 with `detail`).
 * - `send_brief` sends the daily brief on `params.channel` (default `email`), like `channel/send`.
 * - Every action writes one audit row `workspace.<action>` (record_outcome also the portal's
 *   `outcome_truth.recorded`; a messenger send also the companion's `companion.pushed`).
 * - `channel/send`: the messengers send to the tenant's active linked chats through the companion
 *   (409 when the channel is not configured, the companion is off, or no chat is linked); e-mail
 *   needs SMTP (409 without: the outbox of the quick start reaches nobody) and goes to the user or
 *   to `to`, which must be a user or closer of the tenant (422 otherwise: the service is no relay).
 *   `message_ids` name each recipient reached (`<channel>:<chat id or address>`); recipients that
 *   failed are not counted in `delivered` (200 with `delivered: 0` when none was reached).
 */
import {
  type CallId,
  CallId as CallIdSchema,
  type ChannelDelivery,
  type ClientId,
  CompanionPushRequest,
  Conflict,
  NotFound,
  OutcomeTruthRequest,
  PaymentRequired,
  ValidationFailed,
  type ValidationIssue,
  WorkspaceChannel,
  type WorkspaceActionRequest,
  type WorkspaceActionResult,
  type WorkspaceChannelRequest,
  type WorkspaceSession,
  type WorkspaceState
} from "@callsight/api-spec"
import { Effect, Option, ParseResult, Schema } from "effect"
import { BlobStore } from "../calls/BlobStore.js"
import { CallIntake } from "../calls/CallIntake.js"
import { CallsRepo } from "../calls/CallsRepo.js"
import { JobsRepo } from "../calls/JobsRepo.js"
import { Transactions } from "../db/Transactions.js"
import { escapeHtml } from "../lib/Html.js"
import { newId } from "../lib/Ids.js"
import { Mailer } from "../mail/Mailer.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { CompanionChannels } from "../ports/CompanionChannels.js"
import { OutcomeRecords } from "../ports/OutcomeRecords.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { AccountViews } from "../views/AccountViews.js"
import { ValueViews } from "../views/ValueViews.js"
import { WorkspaceRepo } from "./WorkspaceRepo.js"

export const SESSION_HOURS = 12
export const RECENT_SEARCHES = 10

type ActionResult = typeof WorkspaceActionResult.Type
type Delivery = typeof ChannelDelivery.Type
type Channel = typeof WorkspaceChannel.Type

/** A decode failure of `params` as the 422 body names it: `["body", "params", ...path]`. */
const invalidParams = (error: ParseResult.ParseError) =>
  new ValidationFailed({
    detail: ParseResult.ArrayFormatter.formatErrorSync(error).map((issue): ValidationIssue => ({
      loc: ["body", "params", ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
      msg: issue._tag === "Missing" ? "Field required" : issue.message,
      type: issue._tag === "Unexpected" ? "extra_forbidden" : issue._tag === "Missing" ? "missing" : "value_error"
    }))
  })

const decodeParams = <A, I>(schema: Schema.Schema<A, I>, params: unknown) =>
  Schema.decodeUnknown(schema, { onExcessProperty: "error", errors: "all" })(params).pipe(Effect.mapError(invalidParams))

const CallParams = Schema.Struct({ call_id: CallIdSchema.pipe(Schema.minLength(1), Schema.maxLength(100)) })
const OutcomeParams = Schema.Struct({ ...CallParams.fields, ...OutcomeTruthRequest.fields })
const BriefParams = Schema.Struct({ channel: Schema.optionalWith(WorkspaceChannel, { default: () => "email" as const }) })

const score = (s: number | null) => (s === null ? "not scored" : `score ${s}`)

export class Workspace extends Effect.Service<Workspace>()("Workspace", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* WorkspaceRepo
    const calls = yield* CallsRepo
    const jobs = yield* JobsRepo
    const blobs = yield* BlobStore
    const intake = yield* CallIntake
    const tenants = yield* TenantsRepo
    const audit = yield* AuditLog
    const accounts = yield* AccountViews
    const values = yield* ValueViews

    const createSession = Effect.fn("Workspace.createSession")(function* (caller: Caller) {
      const { clientId, user } = caller
      return yield* transactions.run(
        Effect.gen(function* () {
          yield* repo.pruneSessions(clientId, user.userId)
          const row = yield* repo.insertSession(clientId, user.userId, newId("wss"), SESSION_HOURS)
          yield* audit.record(clientId, caller.actor, {
            action: "workspace.session_created",
            targetType: "workspace_session",
            targetId: row.session_id
          })
          return row satisfies typeof WorkspaceSession.Type
        })
      )
    }, Effect.orDie)

    const state = Effect.fn("Workspace.state")(function* (caller: Caller) {
      const { clientId, user } = caller
      const [session, pins, searches, alerts] = yield* Effect.all([
        repo.currentSession(clientId, user.userId),
        repo.pins(clientId, user.userId),
        repo.recentSearches(clientId, user.userId, RECENT_SEARCHES),
        accounts.alerts(clientId, caller.sees)
      ])
      const times = [
        ...Option.toArray(Option.map(session, (s) => s.created_at)),
        ...pins.map((p) => p.pinned_at),
        ...searches.map((s) => s.at)
      ].sort()
      return {
        session: Option.getOrNull(session),
        pinned_calls: pins,
        recent_searches: searches,
        alerts,
        updated_at: times.at(-1) ?? null
      } satisfies typeof WorkspaceState.Type
    }, Effect.orDie)

    /** Remembers a search of the user for the state's recent searches. */
    const recordSearch = (caller: Caller, q: string, results: number) =>
      Effect.orDie(repo.recordSearch(caller.clientId, caller.user.userId, newId("wsq"), q, results))

    /** The call, when the caller sees it (a rep: their own); else 404, as another tenant's. */
    const ensureCall = (caller: Caller, callId: CallId) =>
      Effect.flatMap(repo.callExists(caller.clientId, caller.sees, callId), (exists) =>
        exists ? Effect.void : Effect.fail(new NotFound({ message: `no call ${callId}` })))

    const record = (caller: Caller, action: string, targetId: string | null, metadata: Record<string, unknown>) =>
      audit.record(caller.clientId, caller.actor, {
        action: `workspace.${action}`,
        targetType: targetId === null ? "workspace" : "call",
        targetId,
        metadata
      })

    const reanalyze = (caller: Caller, callId: CallId) =>
      transactions.run(
        Effect.gen(function* () {
          const clientId = caller.clientId
          const tenant = yield* tenants.lock(clientId)
          const found = yield* repo.lockCall(clientId, caller.sees, callId)
          if (Option.isNone(found) || Option.isNone(tenant)) return yield* new NotFound({ message: `no call ${callId}` })
          const call = found.value
          if (call.status === "queued" || call.status === "processing") {
            return yield* new Conflict({ message: `call ${callId} is already being analysed (${call.status})` })
          }
          if (!(yield* blobs.exists(call.blob_key))) {
            return yield* new Conflict({ message: `the audio of call ${callId} is no longer kept: it cannot be analysed again` })
          }
          // A failed call was never charged: its analysis again is what a new upload would be.
          if (call.status === "failed") {
            yield* intake.ensureAllowance(clientId, tenant.value.plan, call.source).pipe(
              Effect.catchTag("IntakeRefused", (e) => Effect.fail(new PaymentRequired({ message: e.message })))
            )
          }
          if (!(yield* jobs.reopen(callId))) {
            return yield* new Conflict({ message: `call ${callId} is already being analysed` })
          }
          yield* calls.reopen(callId)
          const credit = call.charged || call.source === "recorder" ? "none" : "one_on_completion"
          const result = {
            call_id: callId,
            previous_status: call.status,
            previous_method_version: call.method_version,
            credit
          }
          yield* record(caller, "reanalyze_call", callId, result)
          return {
            action: "reanalyze_call",
            status: "queued",
            message: credit === "none"
              ? `Call ${callId} is queued for a new analysis; it takes no further credit.`
              : `Call ${callId} is queued for a new analysis; it takes one credit when it completes.`,
            result
          } satisfies ActionResult
        })
      )

    const pinCall = (caller: Caller, callId: CallId, pinned: boolean) =>
      transactions.run(
        Effect.gen(function* () {
          yield* ensureCall(caller, callId)
          const userId = caller.user.userId
          if (pinned) {
            const pin = yield* repo.pin(caller.clientId, userId, callId)
            const result = { call_id: callId, pinned: true, pinned_at: pin.pinned_at, changed: pin.created }
            yield* record(caller, "pin_call", callId, { changed: pin.created })
            return {
              action: "pin_call",
              status: "done",
              message: pin.created ? `Call ${callId} is pinned.` : `Call ${callId} was already pinned.`,
              result
            } satisfies ActionResult
          }
          const removed = yield* repo.unpin(caller.clientId, userId, callId)
          yield* record(caller, "unpin_call", callId, { changed: removed })
          return {
            action: "unpin_call",
            status: "done",
            message: removed ? `Call ${callId} is no longer pinned.` : `Call ${callId} was not pinned.`,
            result: { call_id: callId, pinned: false, changed: removed }
          } satisfies ActionResult
        })
      )

    const recordOutcome = (caller: Caller, params: typeof OutcomeParams.Type) =>
      Effect.gen(function* () {
        const outcomes = yield* OutcomeRecords
        const { call_id, ...fields } = params
        return yield* transactions.run(
          Effect.gen(function* () {
            const row = yield* outcomes.record(caller, call_id, OutcomeTruthRequest.make(fields))
            yield* record(caller, "record_outcome", call_id, { outcome: row.outcome })
            return {
              action: "record_outcome",
              status: "done",
              message: `The outcome of call ${call_id} is recorded: ${row.outcome}.`,
              result: { ...row }
            } satisfies ActionResult
          })
        )
      })

    // -----------------------------------------------------------------------------------------
    // Channels

    const briefText = (company: string, brief: Effect.Effect.Success<ReturnType<typeof values.dailyBrief>>) => {
      const lines = [`Daily brief for ${company}, ${brief.date}`]
      lines.push(
        brief.calls.length === 0
          ? "No calls yesterday."
          : `Yesterday: ${brief.calls.length} call${brief.calls.length === 1 ? "" : "s"}, ${brief.calls_analysed} analysed` +
            (brief.average_score === null ? "." : `, average score ${brief.average_score}.`)
      )
      for (const c of brief.calls.slice(0, 10)) {
        lines.push(`- ${c.closer_email ?? "unknown closer"}: ${c.status === "completed" ? score(c.overall_score) : c.status}`)
      }
      if (brief.changes.length > 0) lines.push("", "This week:", ...brief.changes.slice(0, 5).map((c) => `- ${c.sentence}`))
      if (brief.deals_at_risk.length > 0) lines.push("", `Deals at risk: ${brief.deals_at_risk.length}`)
      for (const a of brief.suggested_actions.slice(0, 5)) lines.push(`- ${a.label}`)
      return lines.join("\n")
    }

    /** One send on a channel; `kind` says whether `text` or the daily brief goes. */
    const send = (caller: Caller, channel: Channel, message: { readonly kind: "text"; readonly text: string } | { readonly kind: "daily_brief" }, to: string | undefined) =>
      Effect.gen(function* () {
        const clientId = caller.clientId
        if (channel === "email") {
          const mailer = yield* Mailer
          if (mailer.transport !== "smtp") {
            return yield* new Conflict({ message: "e-mail is not configured on this service (SMTP_URL): nothing can be sent by e-mail" })
          }
          const address = to ?? caller.user.email
          if (to !== undefined && !(yield* Effect.orDie(repo.knownAddress(clientId, to)))) {
            return yield* new ValidationFailed({
              detail: [{ loc: ["body", "to"], msg: "must be the e-mail of a user or a closer of the account", type: "value_error" }]
            })
          }
          const { company_name } = yield* tenants.get(clientId)
          const text = message.kind === "text" ? message.text : briefText(company_name, yield* Effect.orDie(values.dailyBrief(clientId, caller.sees)))
          const subject = message.kind === "text" ? `A message from ${company_name} on Callsight` : text.split("\n")[0]!
          const sent = yield* Effect.either(mailer.send({
            to: address,
            subject,
            text,
            html: `<!doctype html><html><body><pre style="font-family:inherit;white-space:pre-wrap">${escapeHtml(text)}</pre></body></html>`
          }))
          if (sent._tag === "Left") yield* Effect.logWarning(`workspace: an e-mail was not delivered: ${sent.left.message}`)
          return {
            channel,
            delivered: sent._tag === "Right" ? 1 : 0,
            message_ids: sent._tag === "Right" ? [`email:${address}`] : [],
            sent_at: new Date().toISOString()
          } satisfies Delivery
        }
        // the messaging channels' chats are the account's, and their brief is the team's: a rep sends theirs by e-mail
        if (message.kind === "daily_brief" && caller.sees._tag === "Closer") {
          return yield* new Conflict({ message: `the daily brief on ${channel} is the team's: an owner or an admin sends it; yours goes by e-mail` })
        }
        const companion = yield* CompanionChannels
        const status = yield* Effect.orDie(companion.status(clientId))
        const summary = status.channels.find((c) => c.channel === channel)
        if (summary === undefined || !summary.configured) {
          return yield* new Conflict({ message: `${channel} is not configured on this service` })
        }
        if (!status.links.some((l) => l.channel === channel && l.active)) {
          return yield* new Conflict({ message: `no ${channel} chat is linked to this account: link one with a connect code first` })
        }
        const pushed = yield* companion.push(
          clientId,
          new CompanionPushRequest(message.kind === "text" ? { channel, kind: "text", text: message.text } : { channel, kind: "daily_brief" }),
          caller.actor
        ).pipe(Effect.catchTag("NotFound", Effect.die))
        const sent = pushed.deliveries.filter((d) => d.status === "sent")
        return {
          channel,
          delivered: sent.length,
          message_ids: sent.map((d) => `${channel}:${d.chat_id}`),
          sent_at: new Date().toISOString()
        } satisfies Delivery
      })

    const sendToChannel = Effect.fn("Workspace.sendToChannel")(function* (caller: Caller, request: WorkspaceChannelRequest) {
      const delivery = yield* send(caller, request.channel, { kind: "text", text: request.text }, request.to)
      yield* Effect.orDie(record(caller, "channel_sent", null, { channel: request.channel, delivered: delivery.delivered }))
      return delivery
    })

    const sendBrief = (caller: Caller, channel: Channel) =>
      Effect.gen(function* () {
        const delivery = yield* send(caller, channel, { kind: "daily_brief" }, undefined)
        yield* Effect.orDie(record(caller, "send_brief", null, { channel, delivered: delivery.delivered }))
        return {
          action: "send_brief",
          status: "done",
          message: delivery.delivered > 0
            ? `The daily brief went out on ${channel} (${delivery.delivered}).`
            : `The daily brief could not be delivered on ${channel}.`,
          result: { ...delivery }
        } satisfies ActionResult
      })

    const runAction = Effect.fn("Workspace.runAction")(function* (caller: Caller, request: WorkspaceActionRequest) {
      switch (request.action) {
        case "reanalyze_call": {
          const { call_id } = yield* decodeParams(CallParams, request.params)
          return yield* reanalyze(caller, call_id)
        }
        case "pin_call":
        case "unpin_call": {
          const { call_id } = yield* decodeParams(CallParams, request.params)
          return yield* pinCall(caller, call_id, request.action === "pin_call")
        }
        case "record_outcome":
          return yield* recordOutcome(caller, yield* decodeParams(OutcomeParams, request.params))
        case "send_brief":
          return yield* sendBrief(caller, (yield* decodeParams(BriefParams, request.params)).channel)
      }
    }, Effect.catchTag("SqlError", Effect.die))

    return { createSession, state, recordSearch, runAction, sendToChannel } as const
  }),
  dependencies: [
    WorkspaceRepo.Default,
    CallsRepo.Default,
    JobsRepo.Default,
    BlobStore.Default,
    CallIntake.Default,
    TenantsRepo.Default,
    AuditLog.Default,
    AccountViews.Default,
    ValueViews.Default,
    Transactions.Default
  ]
}) {}
