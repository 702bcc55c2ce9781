/**
 * messenger-b speaks the WhatsApp Cloud API (Meta's Graph API,
 * https://developers.facebook.com/docs/whatsapp/cloud-api):
 * - subscription: `GET` with `hub.mode=subscribe`, `hub.verify_token` (ours,
 *   `MESSENGER_B_VERIFY_TOKEN`) and `hub.challenge`, answered with the challenge as text/plain;
 * - notifications: `POST` `{object: "whatsapp_business_account", entry: [{id, changes: [{field:
 *   "messages", value: {metadata: {phone_number_id}, messages: [{from, id, type, text: {body}}],
 *   statuses: [{id, status, recipient_id, errors}]}}]}]}`, signed `X-Hub-Signature-256:
 *   sha256=<hex HMAC-SHA256 of the raw body with the app secret>`;
 * - replies: `POST {MESSENGER_B_API_URL}/{MESSENGER_B_PHONE_NUMBER_ID}/messages` with
 *   `Authorization: Bearer {MESSENGER_B_ACCESS_TOKEN}` and `{messaging_product: "whatsapp",
 *   recipient_type: "individual", to, type: "text", text: {preview_url: false, body}}` →
 *   `{messages: [{id}]}`.
 * Changes addressed to another phone number of the same business account are not ours: ignored.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Either, Option, Redacted, Schema } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { AppConfig } from "../config.js"
import { requestJson } from "../lib/ProviderRequests.js"
import {
  DeliveryFailed,
  type Inbound,
  type InboundMessage,
  type InboundStatus,
  type Messenger,
  notAnUpdate,
  notJson,
  parseJson,
  secretsMatch,
  SEND_POLICY,
  splitText
} from "./Messengers.js"

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(512))

const WhatsAppMessage = Schema.Struct({
  from: Id,
  id: Id,
  type: Schema.optional(Schema.String),
  text: Schema.optional(Schema.Struct({ body: Schema.String }))
})

const WhatsAppStatus = Schema.Struct({
  id: Id,
  status: Schema.String.pipe(Schema.maxLength(64)),
  errors: Schema.optional(Schema.Array(Schema.Struct({
    code: Schema.optional(Schema.Number),
    title: Schema.optional(Schema.String),
    message: Schema.optional(Schema.String)
  })))
})

/** The part of a notification the companion reads; what it does not read is left alone. */
export const WhatsAppNotification = Schema.Struct({
  object: Schema.String,
  entry: Schema.Array(Schema.Struct({
    changes: Schema.optionalWith(
      Schema.Array(Schema.Struct({
        field: Schema.optional(Schema.String),
        value: Schema.optional(Schema.Struct({
          metadata: Schema.optional(Schema.Struct({ phone_number_id: Schema.optional(Schema.String) })),
          messages: Schema.optional(Schema.Array(WhatsAppMessage)),
          statuses: Schema.optional(Schema.Array(WhatsAppStatus))
        }))
      })),
      { default: () => [] }
    )
  }))
})

const SendResult = Schema.Struct({ messages: Schema.NonEmptyArray(Schema.Struct({ id: Schema.String })) })

/**
 * What a notification body says, or the 422 of one that is not a notification. Only changes to
 * `phoneNumberId` are read (null: any).
 */
export const parseWhatsAppNotification = (body: string, phoneNumberId: string | null) => {
  const json = parseJson(body)
  if (!json.ok) return Either.left(notJson)
  return Schema.decodeUnknownEither(WhatsAppNotification)(json.value).pipe(
    Either.mapLeft(notAnUpdate),
    Either.map((notification): Inbound => {
      const messages: Array<InboundMessage> = []
      const statuses: Array<InboundStatus> = []
      if (notification.object !== "whatsapp_business_account") return { messages, statuses, ignored: [] }
      for (const entry of notification.entry) {
        for (const change of entry.changes) {
          const value = change.value
          if (value === undefined || (change.field !== undefined && change.field !== "messages")) continue
          const to = value.metadata?.phone_number_id
          if (phoneNumberId !== null && to !== undefined && to !== phoneNumberId) continue
          for (const m of value.messages ?? []) {
            messages.push({ key: m.id, chatId: m.from, text: (m.type === undefined || m.type === "text") ? m.text?.body ?? null : null })
          }
          for (const s of value.statuses ?? []) {
            const error = s.errors?.[0]
            statuses.push({
              key: `status:${s.id}:${s.status}`,
              providerMessageId: s.id,
              status: s.status,
              error: error === undefined ? null : [error.code, error.title ?? error.message].filter((x) => x !== undefined).join(" ")
            })
          }
        }
      }
      return { messages, statuses, ignored: [] }
    })
  )
}

/** Whether `header` is `sha256=` and the hex HMAC-SHA256 of `body` under `secret` (constant time). */
export const signatureMatches = (body: string, header: string | undefined, secret: string): boolean => {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? "")
  if (match === null) return false
  const expected = createHmac("sha256", secret).update(Buffer.from(body, "utf8")).digest()
  return timingSafeEqual(Buffer.from(match[1]!, "hex"), expected)
}

export class MessengerB extends Effect.Service<MessengerB>()("MessengerB", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    /** SEND_POLICY, its first back-off from MESSENGER_RETRY_BASE_MS. */
    const sendPolicy = { ...SEND_POLICY, retryBaseDelay: Duration.millis(config.messengerRetryBaseMs) }
    const client = yield* HttpClient.HttpClient
    const missing = [
      ...(Option.isNone(config.messengerBVerifyToken) ? ["MESSENGER_B_VERIFY_TOKEN"] : []),
      ...(Option.isNone(config.messengerBAppSecret) ? ["MESSENGER_B_APP_SECRET"] : []),
      ...(Option.isNone(config.messengerBAccessToken) ? ["MESSENGER_B_ACCESS_TOKEN"] : []),
      ...(Option.isNone(config.messengerBPhoneNumberId) ? ["MESSENGER_B_PHONE_NUMBER_ID"] : [])
    ]

    /** The subscription request is ours: `subscribe` with our verify token. */
    const verifySubscription = (mode: string, token: string): boolean =>
      Option.match(config.messengerBVerifyToken, {
        onNone: () => false,
        onSome: (expected) => secretsMatch(token, Redacted.value(expected)) && mode === "subscribe"
      })

    const verifySignature = (body: string, header: string | undefined): boolean =>
      Option.match(config.messengerBAppSecret, {
        onNone: () => false,
        onSome: (secret) => signatureMatches(body, header, Redacted.value(secret))
      })

    const sendOne = (token: Redacted.Redacted<string>, phoneNumberId: string, to: string, body: string) =>
      requestJson({
        client,
        name: "messenger-b",
        what: "message",
        policy: sendPolicy,
        apiKey: token,
        keyStatuses: false,
        annotations: { channel: "messenger-b" },
        build: Effect.succeed(
          HttpClientRequest.post(`${config.messengerBApiUrl}/${encodeURIComponent(phoneNumberId)}/messages`).pipe(
            HttpClientRequest.bearerToken(Redacted.value(token)),
            HttpClientRequest.acceptJson,
            HttpClientRequest.bodyUnsafeJson({
              messaging_product: "whatsapp",
              recipient_type: "individual",
              to,
              type: "text",
              text: { preview_url: false, body }
            })
          )
        ),
        schema: SendResult
      })

    const send: Messenger["send"] = (chatId, text) => {
      if (Option.isNone(config.messengerBAccessToken) || Option.isNone(config.messengerBPhoneNumberId)) {
        return Effect.fail(new DeliveryFailed({ message: "messenger-b is not configured" }))
      }
      const token = config.messengerBAccessToken.value
      const phoneNumberId = config.messengerBPhoneNumberId.value
      return Effect.forEach(splitText(text), (part) => sendOne(token, phoneNumberId, chatId, part)).pipe(
        Effect.map((answers) => ({ providerMessageId: answers[0]?.messages[0].id ?? null })),
        Effect.mapError((e) => new DeliveryFailed({ message: e.message }))
      )
    }

    return {
      channel: "messenger-b" as const,
      missing,
      send,
      verifySubscription,
      verifySignature,
      parse: (body: string) => parseWhatsAppNotification(body, Option.getOrNull(config.messengerBPhoneNumberId))
    } as const
  }),
  dependencies: [NodeHttpClient.layerUndici]
}) {}
