/**
 * messenger-a speaks the Telegram Bot API (https://core.telegram.org/bots/api):
 * - the platform posts each `Update` to our webhook with the `secret_token` given to `setWebhook`
 *   in a header (declared as `X-Messenger-A-Bot-Api-Secret-Token`; the platform's own name,
 *   `X-Telegram-Bot-Api-Secret-Token`, is accepted too): `{update_id, message: {message_id, chat:
 *   {id}, text}}`; other kinds of update (edited messages, callback queries, …) are acknowledged;
 * - we answer with `POST {MESSENGER_A_API_URL}/bot{MESSENGER_A_BOT_TOKEN}/sendMessage` `{chat_id,
 *   text}` → `{ok: true, result: {message_id}}`; a 429 carries `parameters.retry_after` (seconds),
 *   which is waited before the next attempt.
 * The bot token is part of the URL: it is blanked out of every message made of a failure, and these
 * requests make no span (a span records the URL).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Either, Option, Redacted, Schema } from "effect"
import { AppConfig } from "../config.js"
import { requestJson } from "../lib/ProviderRequests.js"
import {
  DeliveryFailed,
  type Inbound,
  type Messenger,
  notAnUpdate,
  notJson,
  parseJson,
  secretsMatch,
  SEND_POLICY,
  splitText
} from "./Messengers.js"

/** A chat's id: an integer (negative for groups), within what a double holds exactly. */
const ChatIdNumber = Schema.Int.pipe(
  Schema.filter((n) => Number.isSafeInteger(n) || "must be a safe integer")
)

/** The part of an `Update` the companion reads; what it does not read is left alone. */
export const TelegramUpdate = Schema.Struct({
  update_id: Schema.Int.pipe(Schema.nonNegative()),
  message: Schema.optional(Schema.Struct({
    chat: Schema.Struct({ id: ChatIdNumber }),
    text: Schema.optional(Schema.String)
  }))
})

const SendMessageResult = Schema.Struct({
  ok: Schema.Literal(true),
  result: Schema.Struct({ message_id: Schema.Number })
})

/** `parameters.retry_after` of an error answer, in seconds. */
const retryAfterOf = (text: string): Duration.Duration | undefined => {
  const parsed = parseJson(text)
  if (!parsed.ok) return undefined
  const seconds = (parsed.value as { parameters?: { retry_after?: unknown } } | null)?.parameters?.retry_after
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? Duration.seconds(seconds) : undefined
}

/** What an update body says, or the 422 of one that is not an update. */
export const parseTelegramUpdate = (body: string) => {
  const json = parseJson(body)
  if (!json.ok) return Either.left(notJson)
  return Schema.decodeUnknownEither(TelegramUpdate)(json.value).pipe(
    Either.mapLeft(notAnUpdate),
    Either.map((update): Inbound => {
      const key = String(update.update_id)
      return update.message === undefined
        ? { messages: [], statuses: [], ignored: [key] }
        : { messages: [{ key, chatId: String(update.message.chat.id), text: update.message.text ?? null }], statuses: [], ignored: [] }
    })
  )
}

export class MessengerA extends Effect.Service<MessengerA>()("MessengerA", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    /** SEND_POLICY, its first back-off from MESSENGER_RETRY_BASE_MS. */
    const sendPolicy = { ...SEND_POLICY, retryBaseDelay: Duration.millis(config.messengerRetryBaseMs) }
    // no span for these requests: a span records the URL, and the token is in it
    const client = HttpClient.withTracerDisabledWhen(yield* HttpClient.HttpClient, () => true)
    const missing = [
      ...(Option.isNone(config.messengerABotToken) ? ["MESSENGER_A_BOT_TOKEN"] : []),
      ...(Option.isNone(config.messengerASecretToken) ? ["MESSENGER_A_SECRET_TOKEN"] : [])
    ]

    /** Whether one of the two headers carries the configured secret (both compared, in constant time). */
    const verifySecret = (headers: { readonly spec: string | undefined; readonly platform: string | undefined }): boolean =>
      Option.match(config.messengerASecretToken, {
        onNone: () => false,
        onSome: (secret) => {
          const expected = Redacted.value(secret)
          const a = secretsMatch(headers.spec, expected)
          const b = secretsMatch(headers.platform, expected)
          return a || b
        }
      })

    const sendOne = (token: Redacted.Redacted<string>, chatId: string, text: string) =>
      requestJson({
        client,
        name: "messenger-a",
        what: "sendMessage",
        policy: sendPolicy,
        apiKey: token,
        keyStatuses: false,
        retryAfterFromBody: retryAfterOf,
        annotations: { channel: "messenger-a" },
        build: Effect.succeed(
          HttpClientRequest.post(`${config.messengerAApiUrl}/bot${Redacted.value(token)}/sendMessage`).pipe(
            HttpClientRequest.acceptJson,
            HttpClientRequest.bodyUnsafeJson({
              // the id as the platform gave it: an integer
              chat_id: /^-?\d{1,16}$/.test(chatId) ? Number(chatId) : chatId,
              text
            })
          )
        ),
        schema: SendMessageResult
      })

    const send: Messenger["send"] = (chatId, text) =>
      Option.match(config.messengerABotToken, {
        onNone: () => Effect.fail(new DeliveryFailed({ message: "messenger-a is not configured: MESSENGER_A_BOT_TOKEN is not set" })),
        onSome: (token) =>
          Effect.forEach(splitText(text), (part) => sendOne(token, chatId, part)).pipe(
            Effect.map((answers) => ({ providerMessageId: answers.length === 0 ? null : String(answers[0]!.result.message_id) })),
            Effect.mapError((e) => new DeliveryFailed({ message: e.message }))
          )
      })

    return {
      channel: "messenger-a" as const,
      missing,
      send,
      verifySecret,
      parse: parseTelegramUpdate
    } as const
  }),
  dependencies: [NodeHttpClient.layerUndici]
}) {}
