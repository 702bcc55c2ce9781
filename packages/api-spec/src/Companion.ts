/**
 * 4.6 Companion channels (prefix /v1/companion): the inbound webhooks of the two messaging
 * platforms. No session or key: messenger-a proves itself with a secret-token header,
 * messenger-b with `hub.verify_token` on subscription and an HMAC signature on every POST.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Payload, Text } from "./Common.js"
import { Forbidden, Unauthorized } from "./Errors.js"

/** What a webhook answers once the update is accepted (handled or ignored). */
export const WebhookAck = Schema.Struct({
  ok: Schema.Literal(true)
}).annotations({ identifier: "WebhookAck" })

export const MessengerAWebhookHeaders = Schema.Struct({
  "x-messenger-a-bot-api-secret-token": Schema.optional(Text)
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
      .annotate(OpenApi.Summary, "Inbound webhook of messenger-a")
      .annotate(
        OpenApi.Description,
        "The body is the platform's update (`{update_id, message: {chat: {id}, text}}`). " +
          "`X-Messenger-A-Bot-Api-Secret-Token` must equal the configured secret, else 401. " +
          "`/start CODE` links the chat to the tenant of a connect code; `/brief` answers the daily brief. " +
          "Idempotent by `update_id`."
      )
  )
  .add(
    HttpApiEndpoint.get("verifyMessengerBSubscription", "/messenger-b/webhook")
      .setUrlParams(MessengerBVerificationParams)
      .addSuccess(
        HttpApiSchema.Text({ contentType: "text/plain" }).annotations({ description: "The value of `hub.challenge`" })
      )
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Subscription verification of messenger-b")
      .annotate(
        OpenApi.Description,
        "Answers `hub.challenge` as text/plain when `hub.mode` is `subscribe` and `hub.verify_token` matches " +
          "the configured token, else 403."
      )
  )
  .add(
    HttpApiEndpoint.post("receiveMessengerBUpdate", "/messenger-b/webhook")
      .setHeaders(MessengerBWebhookHeaders)
      .setPayload(Payload)
      .addSuccess(WebhookAck)
      .addError(Unauthorized)
      .annotate(OpenApi.Summary, "Inbound webhook of messenger-b")
      .annotate(
        OpenApi.Description,
        "`X-Hub-Signature-256` must be `sha256=<hex HMAC-SHA256 of the raw body with the app secret>`, else 401. " +
          "Message entries are handled like messenger-a's updates; idempotent by message id."
      )
  )
  .prefix("/v1/companion")
  .annotate(OpenApi.Title, "Companion channels")
  .annotate(OpenApi.Description, "Inbound webhooks of the two messaging channels.")
{}
