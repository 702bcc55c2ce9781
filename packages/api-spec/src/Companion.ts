/**
 * 4.6 Companion channels (prefix /v1/companion): the inbound webhooks of the two messaging
 * platforms. No session or key: messenger-a (the Telegram Bot API) proves itself with a
 * secret-token header, messenger-b (the WhatsApp Cloud API) with `hub.verify_token` on
 * subscription and an HMAC signature of the raw body on every POST. A channel whose secrets are
 * not configured answers 503 naming the missing variables; a body over 1 MiB is 413.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Payload, Text } from "./Common.js"
import { Forbidden, PayloadTooLarge, ServiceUnavailable, Unauthorized } from "./Errors.js"

/** What a webhook answers once the update is accepted (handled or ignored). */
export const WebhookAck = Schema.Struct({
  ok: Schema.Literal(true)
}).annotations({ identifier: "WebhookAck" })

export const MessengerAWebhookHeaders = Schema.Struct({
  "x-messenger-a-bot-api-secret-token": Schema.optional(Text),
  "x-telegram-bot-api-secret-token": Schema.optional(Text).annotations({
    description: "The same secret under the name the platform itself sends it (either header is accepted)"
  })
})

export const MessengerBVerificationParams = Schema.Struct({
  "hub.mode": Schema.optionalWith(Text.annotations({ default: "" }), { default: () => "" }),
  "hub.verify_token": Schema.optionalWith(Text.annotations({ default: "" }), { default: () => "" }),
  "hub.challenge": Schema.optionalWith(Text.annotations({ default: "" }), { default: () => "" })
})

export const MessengerBWebhookHeaders = Schema.Struct({
  "x-hub-signature-256": Schema.optional(Text)
})

export class CompanionApi extends HttpApiGroup.make("companion")
  .add(
    HttpApiEndpoint.post("receiveMessengerAUpdate", "/messenger-a/webhook")
      .setHeaders(MessengerAWebhookHeaders)
      .setPayload(Payload)
      .addSuccess(WebhookAck)
      .addError(Unauthorized)
      .addError(PayloadTooLarge)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "Inbound webhook of messenger-a")
      .annotate(
        OpenApi.Description,
        "The body is the platform's update (`{update_id, message: {chat: {id}, text}}`). " +
          "`X-Messenger-A-Bot-Api-Secret-Token` must equal `MESSENGER_A_SECRET_TOKEN` (compared in constant time), " +
          "else 401 and nothing is processed; 503 naming the missing variables while the channel is not configured. " +
          "`/start CODE` links the chat to the tenant of a connect code; `/brief` answers the daily brief; " +
          "`/calls` the latest calls with their scores and report links; `/stop` unlinks the chat; anything else " +
          "a short help (an unlinked chat gets nothing else). Replies go out through `sendMessage`. " +
          "Idempotent by `update_id`; a body that is not an update is 422."
      )
  )
  .add(
    HttpApiEndpoint.get("verifyMessengerBSubscription", "/messenger-b/webhook")
      .setUrlParams(MessengerBVerificationParams)
      .addSuccess(
        HttpApiSchema.Text({ contentType: "text/plain" }).annotations({ description: "The value of `hub.challenge`" })
      )
      .addError(Forbidden)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "Subscription verification of messenger-b")
      .annotate(
        OpenApi.Description,
        "Answers `hub.challenge` as text/plain when `hub.mode` is `subscribe` and `hub.verify_token` matches " +
          "`MESSENGER_B_VERIFY_TOKEN` (constant time), else 403; 503 naming the missing variables while the channel " +
          "is not configured."
      )
  )
  .add(
    HttpApiEndpoint.post("receiveMessengerBUpdate", "/messenger-b/webhook")
      .setHeaders(MessengerBWebhookHeaders)
      .setPayload(Payload)
      .addSuccess(WebhookAck)
      .addError(Unauthorized)
      .addError(PayloadTooLarge)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "Inbound webhook of messenger-b")
      .annotate(
        OpenApi.Description,
        "`X-Hub-Signature-256` must be `sha256=<hex HMAC-SHA256 of the raw body with MESSENGER_B_APP_SECRET>` " +
          "(checked in constant time before the body is parsed), else 401 and nothing is processed; 503 naming the " +
          "missing variables while the channel is not configured. `entry[].changes[].value.messages[]` are handled " +
          "like messenger-a's updates, once each by message id, and answered through the Graph API messages endpoint; " +
          "`statuses[]` are recorded, not answered. A body that is not a notification is 422."
      )
  )
  .prefix("/v1/companion")
  .annotate(OpenApi.Title, "Companion channels")
  .annotate(OpenApi.Description, "Inbound webhooks of the two messaging channels.")
{}
