/**
 * The companion channels (docs/domain.md, "Companion channels"; issue 15): the daily brief and the latest
 * calls in two messengers, a chat linked to its tenant by a one-time code.
 *
 * - **Webhooks.** messenger-a (Telegram Bot API) proves itself with its secret-token header,
 *   messenger-b (WhatsApp Cloud API) with the HMAC signature of the raw body; both checked in
 *   constant time before the body is parsed (401 otherwise, nothing processed). A channel whose
 *   variables are not all set answers 503 naming them. Each update is handled once, by the
 *   platform's id (`companion_updates`), however often it is delivered; the reply goes out after
 *   the webhook is answered, on a fiber of this service (stopped with it).
 * - **Chats.** A chat belongs to at most one tenant (one active link). `/start CODE` links it to
 *   the tenant (and user) of a valid code; `/brief`, `/calls` answer the linked tenant's own brief
 *   and calls only; `/stop` unlinks; anything else is the help. An unlinked chat gets only the help
 *   text (and the answer to its code). A wrong code, whether unknown, used, expired, of the other
 *   channel or of a tenant with the companion turned off, gets one answer that does not say which.
 * - **Limits per chat.** `CODE_ATTEMPTS` codes per window (then the chat is told to wait, and no
 *   code is looked at), `CHAT_MESSAGES` messages per minute (beyond, messages are recorded and not
 *   answered), counted by @effect/experimental's `RateLimiter` on the database's store.
 * - **Codes.** 8 characters without 0/O/1/I, single use, stored as their SHA-256, 15 minutes by
 *   default: a code is worth 40 bits, lives minutes and is tried at most `CODE_ATTEMPTS` times per
 *   chat per window, so a hash (not a slow KDF) suffices to keep it out of a database dump.
 * - **Push** sends the daily brief (each tenant its own) or a text to the active links; **status**
 *   lists the links with their last activity. The tenant's `companion.enabled` runtime flag (default
 *   true) gates everything: codes are not issued (409), nor redeemed, pushes are refused (409) or
 *   skipped, and a linked chat is told the companion is off instead of being answered.
 *
 * Secrets (bot token, secret token, app secret, access token, connect codes) never reach a log
 * line, an answer or an audit row: codes are shown once to the staff who asked, rows keep hashes
 * and ids, and the messengers blank their tokens out of every failure message.
 */
import {
  type ClientId,
  type CompanionConnectCodeRequest,
  type CompanionDelivery,
  type CompanionPushRequest,
  Conflict,
  Forbidden,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  Unauthorized,
  type UserId,
  ValidationFailed
} from "@callsight/api-spec"
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { Duration, Effect, FiberSet, Option, Schedule } from "effect"
import { randomInt } from "node:crypto"
import { CallsRepo } from "../calls/CallsRepo.js"
import { AppConfig } from "../config.js"
import { isUniqueViolation } from "../db/SqlErrors.js"
import { Transactions } from "../db/Transactions.js"
import { EventsRepo } from "../events/EventsRepo.js"
import { newId, sha256Hex } from "../lib/Ids.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import { RuntimeFlags } from "../tenancy/RuntimeFlags.js"
import { TEAM } from "../tenancy/Sees.js"
import { ValueViews } from "../views/ValueViews.js"
import { CompanionRepo, type LinkRow } from "./CompanionRepo.js"
import { MessengerA } from "./MessengerA.js"
import { MessengerB } from "./MessengerB.js"
import { type Channel, type Inbound, type InboundMessage, type InboundStatus, MAX_UPDATE_BYTES, type Messenger } from "./Messengers.js"
import * as Replies from "./Replies.js"

/** A connect code lives this long unless the request says otherwise. */
export const DEFAULT_CODE_TTL_MINUTES = 15
/** Codes tried per chat per window. */
export const CODE_ATTEMPTS = { limit: 5, window: Duration.minutes(15) }
/** Messages answered per chat per window. */
export const CHAT_MESSAGES = { limit: 20, window: Duration.minutes(1) }
/** The latest calls `/calls` answers. */
export const LATEST_CALLS = 5
/** Chats pushed to at once. */
const PUSH_CONCURRENCY = 4

/** A fresh connect code: `CODE_LENGTH` characters drawn uniformly from the alphabet. */
export const newConnectCode = (): string =>
  Array.from({ length: Replies.CODE_LENGTH }, () => Replies.CODE_ALPHABET[randomInt(Replies.CODE_ALPHABET.length)]).join("")

const codeHash = (code: string) => sha256Hex(`companion-connect-code:${code}`)

/** What a chat is answered: a text, or one of the views of its tenant. */
type Reply =
  | { readonly _tag: "Text"; readonly purpose: string; readonly text: string }
  | { readonly _tag: "Brief" }
  | { readonly _tag: "Calls" }

interface Outgoing {
  readonly channel: Channel
  readonly chatId: string
  /** The link the reply is for (whose tenant's views it shows; the delivery is recorded under it); null for an unlinked chat. */
  readonly link: LinkRow | null
  readonly reply: Reply
}

/** A webhook's body, read only once its caller is checked: 413 or 422 when it cannot be read. */
export type Body = Effect.Effect<string, PayloadTooLarge | ValidationFailed>

const text = (purpose: string, body: string): Reply => ({ _tag: "Text", purpose, text: body })

/** Who a chat's own change is made by, in the audit log: the chat itself. */
const chatActor = (channel: Channel, chatId: string): Actor => ({ id: `${channel}:${chatId}`, type: "system", ip: null })

export class Companion extends Effect.Service<Companion>()("Companion", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* CompanionRepo
    const messengerA = yield* MessengerA
    const messengerB = yield* MessengerB
    const transactions = yield* Transactions
    const audit = yield* AuditLog
    const events = yield* EventsRepo
    const runtimeFlags = yield* RuntimeFlags
    const values = yield* ValueViews
    const calls = yield* CallsRepo
    const limiter = yield* RateLimiter.RateLimiter
    /** Replies being sent, in the background of this process, stopped with it. */
    const background = yield* FiberSet.make<unknown, never>()
    const messengers: Record<Channel, Messenger> = { "messenger-a": messengerA, "messenger-b": messengerB }
    const reportUrl = (callId: string) => `${config.publicBaseUrl}/v1/client-portal/calls/${callId}/report`

    // Updates handled are remembered for as long as a platform may deliver one again (messenger-b
    // retries for up to 7 days), and not much longer: after a week without updates the Bot API may
    // start its update_ids anew, at random.
    yield* Effect.forkScoped(Effect.repeat(
      Effect.ignoreLogged(repo.pruneUpdates),
      Schedule.spaced(Duration.hours(1))
    ))

    const notConfigured = (channel: Channel) => {
      const missing = messengers[channel].missing
      return `${channel} is not configured: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set`
    }

    /** The tenant's `companion.enabled` (true unless set false). */
    const enabled = (clientId: ClientId) =>
      Effect.map(runtimeFlags.forTenant(clientId), (flags) => flags["companion.enabled"] !== false)

    /** Takes one token of the key's window: none when allowed, else how long until the window has room. */
    const limited = (key: string, rule: { readonly limit: number; readonly window: Duration.Duration }) =>
      limiter.consume({ key, limit: rule.limit, window: rule.window, algorithm: "fixed-window", onExceeded: "fail" }).pipe(
        Effect.as(Option.none<Duration.Duration>()),
        Effect.catchIf(
          (e): e is RateLimiter.RateLimitExceeded => e instanceof RateLimiter.RateLimitExceeded,
          (e) => Effect.succeed(Option.some(e.retryAfter))
        ),
        Effect.orDie
      )

    const tenantName = (clientId: ClientId) =>
      Effect.flatMap(Effect.orDie(repo.tenantName(clientId)), Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `no client ${clientId}` })),
        onSome: (row) => Effect.succeed(row.company_name)
      }))

    // -----------------------------------------------------------------------------------------
    // Links

    const unlinkChat = (link: LinkRow, reason: "stop" | "relinked") =>
      Effect.gen(function* () {
        yield* repo.unlink(link.link_id)
        yield* audit.record(link.client_id, chatActor(link.channel, link.chat_id), {
          action: "companion.chat_unlinked",
          targetType: "companion_link",
          targetId: link.link_id,
          metadata: { channel: link.channel, chat_id: link.chat_id, reason }
        })
        yield* events.record({
          clientId: link.client_id,
          type: "companion_unlinked",
          platform: link.channel,
          status: "ok",
          closerEmail: null,
          callId: null,
          error: null
        })
      })

    /**
     * `/start CODE` inside the update's transaction: the chat is linked to the code's tenant (a link
     * to another tenant ends) and the code is used up; or the one answer for every wrong code.
     */
    const redeem = (channel: Channel, chatId: string, typed: string, link: LinkRow | null) =>
      Effect.gen(function* () {
        const refused: Outgoing = { channel, chatId, link, reply: text("code_refused", Replies.codeRefused) }
        const code = Replies.normalizeCode(typed)
        if (code === null) return refused
        const found = yield* repo.lockUsableCode({ channel, codeHash: codeHash(code) })
        if (Option.isNone(found)) return refused
        const usable = found.value
        // a tenant that turned the companion off: its codes are answered like any wrong one, and kept
        if (!(yield* enabled(usable.client_id))) return refused
        const linkId = newId("cml")
        if (link !== null) yield* unlinkChat(link, "relinked")
        yield* repo.insertLink({ linkId, clientId: usable.client_id, userId: usable.user_id, channel, chatId, codeId: usable.code_id })
        yield* repo.markCodeUsed({ codeId: usable.code_id, linkId })
        yield* audit.record(usable.client_id, chatActor(channel, chatId), {
          action: "companion.chat_linked",
          targetType: "companion_link",
          targetId: linkId,
          metadata: { channel, chat_id: chatId, code_id: usable.code_id, user_id: usable.user_id }
        })
        yield* events.record({
          clientId: usable.client_id,
          type: "companion_linked",
          platform: channel,
          status: "ok",
          closerEmail: null,
          callId: null,
          error: null
        })
        const now: LinkRow = {
          link_id: linkId,
          client_id: usable.client_id,
          company_name: usable.company_name,
          user_id: usable.user_id,
          channel,
          chat_id: chatId
        }
        return { channel, chatId, link: now, reply: text("linked", Replies.linked(usable.company_name)) } satisfies Outgoing
      })

    // -----------------------------------------------------------------------------------------
    // Inbound updates

    /** One message of a chat: handled once, within the chat's limits; its answer, if any, sent after. */
    const handleMessage = (channel: Channel, m: InboundMessage) =>
      Effect.gen(function* () {
        if (yield* Effect.orDie(repo.updateSeen(channel, m.key))) return
        const overLimit = yield* limited(`companion:chat:${channel}:${m.chatId}`, CHAT_MESSAGES)
        if (Option.isSome(overLimit)) {
          yield* Effect.orDie(repo.recordUpdate({ channel, key: m.key, kind: "rate_limited", linkId: null }))
          yield* Effect.logWarning("companion: a chat sent more messages than its limit; not answered").pipe(
            Effect.annotateLogs({ channel })
          )
          return
        }
        const command = m.text === null ? null : Replies.parseCommand(m.text)
        const codeWait = command?._tag === "Start" && command.code !== null
          ? yield* limited(`companion:code:${channel}:${m.chatId}`, CODE_ATTEMPTS)
          : Option.none<Duration.Duration>()

        const outgoing = yield* transactions.run(Effect.gen(function* () {
          const link = Option.getOrNull(yield* repo.activeLink({ channel, chatId: m.chatId }))
          const fresh = yield* repo.recordUpdate({
            channel,
            key: m.key,
            kind: m.text === null ? "not_text" : "message",
            linkId: link?.link_id ?? null
          })
          // delivered twice at once: the other request handles it
          if (Option.isNone(fresh)) return null
          if (link !== null) yield* repo.touchLink(link.link_id)
          if (command === null) return null
          const answer = (reply: Reply): Outgoing => ({ channel, chatId: m.chatId, link, reply })
          const helpUnlinked = answer(text("help", Replies.helpUnlinked))
          const linkedAnswer = (reply: Reply) =>
            Effect.map(enabled(link!.client_id), (on) => answer(on ? reply : text("turned_off", Replies.turnedOff)))

          switch (command._tag) {
            case "Start": {
              if (command.code !== null) {
                if (Option.isSome(codeWait)) {
                  const minutes = Math.max(1, Math.ceil(Duration.toMinutes(codeWait.value)))
                  return answer(text("code_limited", Replies.tooManyCodes(minutes)))
                }
                return yield* redeem(channel, m.chatId, command.code, link)
              }
              return link === null ? helpUnlinked : yield* linkedAnswer(text("help", Replies.helpLinked(link.company_name)))
            }
            case "Stop": {
              if (link === null) return helpUnlinked
              yield* unlinkChat(link, "stop")
              return answer(text("stopped", Replies.stopped(link.company_name)))
            }
            case "Brief":
              return link === null ? helpUnlinked : yield* linkedAnswer({ _tag: "Brief" })
            case "Calls":
              return link === null ? helpUnlinked : yield* linkedAnswer({ _tag: "Calls" })
            case "Help":
              return link === null ? helpUnlinked : yield* linkedAnswer(text("help", Replies.helpLinked(link.company_name)))
          }
        })).pipe(Effect.orDie)

        if (outgoing !== null) yield* FiberSet.run(background, respond(outgoing))
      })

    /** The text of a reply: the tenant's brief and calls are read for the chat's own tenant only. */
    const render = (o: Outgoing) =>
      Effect.gen(function* () {
        if (o.reply._tag === "Text") return { purpose: o.reply.purpose, body: o.reply.text }
        const link = o.link!
        if (o.reply._tag === "Brief") {
          const brief = yield* values.dailyBrief(link.client_id, TEAM)
          return { purpose: "brief", body: Replies.briefText(link.company_name, brief, reportUrl) }
        }
        const latest = yield* Effect.orDie(calls.page(link.client_id, LATEST_CALLS, Option.none()))
        return { purpose: "calls", body: Replies.callsText(link.company_name, latest, reportUrl) }
      })

    /** Sends a reply and records its delivery (not its text). */
    const respond = (o: Outgoing) =>
      Effect.gen(function* () {
        const { body, purpose } = yield* render(o)
        const sent = yield* Effect.either(messengers[o.channel].send(o.chatId, body))
        yield* Effect.orDie(repo.insertDelivery({
          clientId: o.link?.client_id ?? null,
          linkId: o.link?.link_id ?? null,
          channel: o.channel,
          chatId: o.chatId,
          kind: "reply",
          purpose,
          status: sent._tag === "Right" ? "sent" : "failed",
          providerMessageId: sent._tag === "Right" ? sent.right.providerMessageId : null,
          error: sent._tag === "Left" ? sent.left.message : null
        }))
        if (sent._tag === "Left") {
          yield* Effect.logWarning(`companion: a reply was not delivered: ${sent.left.message}`).pipe(
            Effect.annotateLogs({ channel: o.channel, purpose })
          )
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("companion: a reply could not be sent", cause)))

    /** A delivery status of a message we sent: recorded once, never answered. */
    const recordStatus = (channel: Channel, s: InboundStatus) =>
      transactions.run(Effect.gen(function* () {
        const fresh = yield* repo.recordUpdate({ channel, key: s.key, kind: "status", linkId: null })
        if (Option.isSome(fresh)) {
          yield* repo.applyStatus({ channel, providerMessageId: s.providerMessageId, status: s.status, error: s.error })
        }
      })).pipe(Effect.orDie)

    const handle = (channel: Channel, inbound: Inbound) =>
      Effect.gen(function* () {
        for (const m of inbound.messages) yield* handleMessage(channel, m)
        for (const s of inbound.statuses) yield* recordStatus(channel, s)
        for (const key of inbound.ignored) {
          yield* Effect.orDie(repo.recordUpdate({ channel, key, kind: "ignored", linkId: null }))
        }
      })

    /** The body, at most `MAX_UPDATE_BYTES`. */
    const bounded = (body: Body) =>
      Effect.flatMap(body, (raw) =>
        Buffer.byteLength(raw, "utf8") > MAX_UPDATE_BYTES
          ? Effect.fail(new PayloadTooLarge({ message: `an update is at most ${MAX_UPDATE_BYTES} bytes` }))
          : Effect.succeed(raw))

    const ok = { ok: true as const }

    const receiveMessengerA = Effect.fn("Companion.receiveMessengerA")(function* (
      headers: { readonly spec: string | undefined; readonly platform: string | undefined },
      body: Body
    ) {
      if (messengerA.missing.length > 0) return yield* new ServiceUnavailable({ message: notConfigured("messenger-a") })
      if (!messengerA.verifySecret(headers)) {
        return yield* new Unauthorized({ message: "the secret token header is missing or wrong" })
      }
      const raw = yield* bounded(body)
      yield* handle("messenger-a", yield* messengerA.parse(raw))
      return ok
    })

    const verifyMessengerB = Effect.fn("Companion.verifyMessengerB")(function* (mode: string, token: string, challenge: string) {
      if (messengerB.missing.length > 0) return yield* new ServiceUnavailable({ message: notConfigured("messenger-b") })
      if (!messengerB.verifySubscription(mode, token)) {
        return yield* new Forbidden({ message: "hub.mode must be subscribe and hub.verify_token the configured token" })
      }
      return challenge
    })

    const receiveMessengerB = Effect.fn("Companion.receiveMessengerB")(function* (signature: string | undefined, body: Body) {
      if (messengerB.missing.length > 0) return yield* new ServiceUnavailable({ message: notConfigured("messenger-b") })
      const raw = yield* bounded(body)
      // the signature is checked on the bytes as they came, before anything reads them
      if (!messengerB.verifySignature(raw, signature)) {
        return yield* new Unauthorized({ message: "the X-Hub-Signature-256 signature is missing or wrong" })
      }
      yield* handle("messenger-b", yield* messengerB.parse(raw))
      return ok
    })

    // -----------------------------------------------------------------------------------------
    // The staff's operations

    const connectCode = Effect.fn("Companion.connectCode")(function* (
      clientId: ClientId | undefined,
      request: CompanionConnectCodeRequest,
      actor: Actor
    ) {
      if (clientId === undefined) {
        return yield* new ValidationFailed({
          detail: [{ loc: ["query", "client_id"], msg: "required to issue a connect code: a chat is linked to one tenant", type: "missing" }]
        })
      }
      yield* tenantName(clientId)
      let userId: UserId | null = null
      if (request.user_email !== undefined) {
        const user = yield* Effect.orDie(repo.userByEmail(clientId, request.user_email))
        if (Option.isNone(user)) return yield* new NotFound({ message: `no user ${request.user_email} in client ${clientId}` })
        userId = user.value.user_id
      }
      if (messengers[request.channel].missing.length > 0) {
        return yield* new Conflict({ message: `${notConfigured(request.channel)}: a code for it could not be used` })
      }
      if (!(yield* enabled(clientId))) {
        return yield* new Conflict({ message: `the companion is turned off for client ${clientId} (runtime flag companion.enabled)` })
      }
      const ttlMinutes = request.ttl_minutes ?? DEFAULT_CODE_TTL_MINUTES
      const issue = Effect.gen(function* () {
        const code = newConnectCode()
        const codeId = newId("ccd")
        const row = yield* transactions.run(Effect.gen(function* () {
          const inserted = yield* repo.insertCode({
            codeId,
            clientId,
            userId,
            channel: request.channel,
            codeHash: codeHash(code),
            createdBy: actor.id,
            ttlMinutes
          })
          yield* audit.record(clientId, actor, {
            action: "companion.connect_code_issued",
            targetType: "companion_connect_code",
            targetId: codeId,
            metadata: { channel: request.channel, user_id: userId, ttl_minutes: ttlMinutes, expires_at: inserted.expires_at }
          })
          return inserted
        }))
        return { code, ...row }
      })
      // two live codes with one hash are one code: draw again (40 bits: this practically never happens)
      const issued = yield* issue.pipe(
        Effect.retry({ times: 3, while: (e) => isUniqueViolation(e) }),
        Effect.orDie
      )
      return {
        code: issued.code,
        channel: request.channel,
        client_id: clientId,
        user_id: userId,
        start_command: `/start ${issued.code}`,
        created_at: issued.created_at,
        expires_at: issued.expires_at
      }
    })

    const push = Effect.fn("Companion.push")(function* (clientId: ClientId | undefined, request: CompanionPushRequest, actor: Actor) {
      if (clientId !== undefined) {
        yield* tenantName(clientId)
        if (!(yield* enabled(clientId))) {
          return yield* new Conflict({ message: `the companion is turned off for client ${clientId} (runtime flag companion.enabled)` })
        }
      }
      if (request.channel !== undefined && messengers[request.channel].missing.length > 0) {
        return yield* new Conflict({ message: notConfigured(request.channel) })
      }
      const links = yield* Effect.orDie(repo.activeLinks({ clientId: clientId ?? null, channel: request.channel ?? null }))
      const byTenant = new Map<ClientId, Array<LinkRow>>()
      for (const link of links) byTenant.set(link.client_id, [...(byTenant.get(link.client_id) ?? []), link])

      const deliveries: Array<typeof CompanionDelivery.Type> = []
      for (const [tenant, tenantLinks] of byTenant) {
        const on = yield* enabled(tenant)
        const message = !on
          ? null
          : request.kind === "text"
          ? request.text!
          : Replies.briefText(tenantLinks[0]!.company_name, yield* values.dailyBrief(tenant, TEAM), reportUrl)
        const results = yield* Effect.forEach(tenantLinks, (link) => deliver(link, message), { concurrency: PUSH_CONCURRENCY })
        deliveries.push(...results)
        const count = (status: string) => results.filter((d) => d.status === status).length
        yield* Effect.orDie(audit.record(tenant, actor, {
          action: "companion.pushed",
          targetType: "companion",
          targetId: tenant,
          metadata: {
            kind: request.kind,
            channel: request.channel ?? null,
            sent: count("sent"),
            failed: count("failed"),
            skipped: count("skipped")
          }
        }))
      }
      const count = (status: string) => deliveries.filter((d) => d.status === status).length
      return {
        kind: request.kind,
        channel: request.channel ?? null,
        client_id: clientId ?? null,
        sent: count("sent"),
        failed: count("failed"),
        skipped: count("skipped"),
        deliveries
      }
    })

    /** One chat of a push: skipped when its tenant turned the companion off or its channel is not configured. */
    const deliver = (link: LinkRow, message: string | null) =>
      Effect.gen(function* () {
        const base = { client_id: link.client_id, channel: link.channel, chat_id: link.chat_id }
        if (message === null) {
          return { ...base, status: "skipped" as const, error: "the companion is turned off for this tenant (companion.enabled)", sent_at: null }
        }
        const messenger = messengers[link.channel]
        if (messenger.missing.length > 0) {
          return { ...base, status: "skipped" as const, error: notConfigured(link.channel), sent_at: null }
        }
        const sent = yield* Effect.either(messenger.send(link.chat_id, message))
        yield* Effect.orDie(repo.insertDelivery({
          clientId: link.client_id,
          linkId: link.link_id,
          channel: link.channel,
          chatId: link.chat_id,
          kind: "push",
          purpose: "push",
          status: sent._tag === "Right" ? "sent" : "failed",
          providerMessageId: sent._tag === "Right" ? sent.right.providerMessageId : null,
          error: sent._tag === "Left" ? sent.left.message : null
        }))
        if (sent._tag === "Left") {
          yield* Effect.orDie(events.record({
            clientId: link.client_id,
            type: "companion_delivery_failed",
            platform: link.channel,
            status: "error",
            closerEmail: null,
            callId: null,
            error: sent.left.message
          }))
          yield* Effect.logWarning(`companion: a push was not delivered: ${sent.left.message}`).pipe(
            Effect.annotateLogs({ channel: link.channel, client_id: link.client_id })
          )
          return { ...base, status: "failed" as const, error: sent.left.message, sent_at: null }
        }
        yield* Effect.orDie(repo.markPushed(link.link_id))
        return { ...base, status: "sent" as const, error: null, sent_at: new Date().toISOString() }
      })

    const status = Effect.fn("Companion.status")(function* (clientId: ClientId | undefined) {
      if (clientId !== undefined) yield* tenantName(clientId)
      const [summary, links, pending] = yield* Effect.all([
        repo.channelSummary(clientId ?? null),
        repo.links(clientId ?? null),
        repo.pendingCodes(clientId ?? null)
      ]).pipe(Effect.orDie)
      return {
        client_id: clientId ?? null,
        enabled: clientId === undefined ? null : yield* enabled(clientId),
        channels: summary.map((s) => ({
          channel: s.channel,
          configured: messengers[s.channel].missing.length === 0,
          missing: messengers[s.channel].missing,
          linked_chats: s.linked_chats,
          last_update_at: s.last_update_at
        })),
        links,
        pending_codes: pending
      }
    })

    return { receiveMessengerA, verifyMessengerB, receiveMessengerB, connectCode, push, status } as const
  }),
  dependencies: [
    CompanionRepo.Default,
    MessengerA.Default,
    MessengerB.Default,
    Transactions.Default,
    AuditLog.Default,
    EventsRepo.Default,
    RuntimeFlags.Default,
    ValueViews.Default,
    CallsRepo.Default
  ]
}) {}
