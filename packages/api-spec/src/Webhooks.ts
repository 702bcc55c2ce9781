/**
 * Completion webhooks (Standard Webhooks): the tenant's endpoints, what was sent to them, and a
 * delivery sent again on demand. Tenant `X-API-Key`, or the portal session of an owner or an admin
 * (the web app's Settings → Webhooks; a member's session is 403). Every message is signed as the Standard
 * Webhooks specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`)
 * with the endpoint's secret (`whsec_…`, shown once, when the endpoint is created).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CallId, queryInt, Text, Timestamp, strictBody } from "./Common.js"
import { Conflict, NotFound } from "./Errors.js"
import { ApiKeyOrSessionHeaders, TenantOrSessionAuth } from "./Security.js"

/** What a webhook is sent for. */
export const WebhookEventType = Schema.Literal("analysis.completed", "analysis.failed")
export type WebhookEventType = typeof WebhookEventType.Type

export const WebhookId = Text.pipe(Schema.brand("WebhookId")).annotations({ description: "A webhook endpoint's id (`whk_…`)" })
export type WebhookId = typeof WebhookId.Type
export const DeliveryId = Text.pipe(Schema.brand("DeliveryId")).annotations({
  description: "A delivery's id (`msg_…`): the `webhook-id` header of every attempt of it, the same across retries"
})
export type DeliveryId = typeof DeliveryId.Type

export class CreateWebhookRequest extends Schema.Class<CreateWebhookRequest>("CreateWebhookRequest")({
  url: Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(2000)).annotations({
    description: "Where to POST: https, or http to localhost / 127.0.0.0/8 / [::1] outside production"
  }),
  events: Schema.optionalWith(
    Schema.Array(WebhookEventType).pipe(Schema.minItems(1), Schema.maxItems(2)),
    { default: () => ["analysis.completed", "analysis.failed"] as const }
  ).annotations({ description: "The events the endpoint wants (default: both)" }),
  description: Schema.optional(Text.pipe(Schema.maxLength(200)))
}) {}

export const WebhookEndpoint = Schema.Struct({
  webhook_id: WebhookId,
  url: Text,
  events: Schema.Array(WebhookEventType),
  description: Schema.NullOr(Text),
  status: Schema.Literal("active", "disabled"),
  created_at: Timestamp,
  failing_since: Schema.NullOr(Timestamp).annotations({
    description: "The first failed attempt since the last delivered one; after 3 days of failures the endpoint is disabled"
  }),
  disabled_at: Schema.NullOr(Timestamp),
  disabled_reason: Schema.NullOr(Text)
}).annotations({ identifier: "WebhookEndpoint" })

export const CreatedWebhookEndpoint = Schema.Struct({
  ...WebhookEndpoint.fields,
  secret: Text.annotations({ description: "The signing secret `whsec_<base64>`: shown once, stored sealed" })
}).annotations({ identifier: "CreatedWebhookEndpoint" })

export const WebhookList = Schema.Struct({
  webhooks: Schema.Array(WebhookEndpoint).annotations({ description: "Oldest first" }),
  callback_secret: Schema.NullOr(Text).annotations({
    description: "The tenant's signing secret of the uploads' `callback_url` deliveries (`whsec_…`): made on first use, " +
      "shown in the first list answered after it was made, null ever after"
  }),
  callback_secret_created_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "WebhookList" })

export const WebhookAttempt = Schema.Struct({
  attempted_at: Timestamp,
  status_code: Schema.NullOr(Schema.Number).annotations({ description: "The endpoint's HTTP status; null when none came" }),
  error: Schema.NullOr(Text).annotations({ description: "Why the attempt did not count as delivered" }),
  duration_ms: Schema.Number,
  manual: Schema.Boolean.annotations({ description: "Sent by `redeliver`" })
}).annotations({ identifier: "WebhookAttempt" })

export const WebhookDelivery = Schema.Struct({
  delivery_id: DeliveryId,
  webhook_id: Schema.NullOr(WebhookId).annotations({ description: "null for a delivery to an upload's `callback_url`" }),
  event_type: WebhookEventType,
  call_id: Schema.NullOr(CallId),
  status: Schema.Literal("pending", "delivered", "failed"),
  created_at: Timestamp,
  delivered_at: Schema.NullOr(Timestamp),
  next_attempt_at: Schema.NullOr(Timestamp).annotations({ description: "When the next automatic attempt is due (pending only)" }),
  attempts: Schema.Array(WebhookAttempt).annotations({ description: "Oldest first" })
}).annotations({ identifier: "WebhookDelivery" })

/** The body of every message (Standard Webhooks: `type`, `timestamp`, `data`). */
export const WebhookPayload = Schema.Struct({
  type: WebhookEventType,
  timestamp: Timestamp.annotations({ description: "When the event happened" }),
  data: Schema.Struct({
    call_id: CallId,
    external_call_id: Schema.NullOr(Text),
    status: Schema.Literal("completed", "failed"),
    report_url: Text,
    overall_score: Schema.optional(Schema.NullOr(Schema.Number)),
    method_version: Schema.NullOr(Text),
    error: Schema.optional(Schema.Struct({ code: Text, message: Text }))
  })
}).annotations({ identifier: "WebhookPayload" })
export type WebhookPayload = typeof WebhookPayload.Type

const WebhookPath = Schema.Struct({ webhook_id: WebhookId })

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("listWebhooks", "/v1/teams/webhooks")
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(WebhookList)
      .annotate(OpenApi.Summary, "The tenant's webhook endpoints (never their secrets), and the callback secret once")
  )
  .add(
    HttpApiEndpoint.post("createWebhook", "/v1/teams/webhooks")
      .setHeaders(ApiKeyOrSessionHeaders)
      .setPayload(strictBody(CreateWebhookRequest))
      .addSuccess(CreatedWebhookEndpoint, { status: 201 })
      .annotate(OpenApi.Summary, "Add a webhook endpoint; its signing secret is in this answer and never again")
  )
  .add(
    HttpApiEndpoint.del("deleteWebhook", "/v1/teams/webhooks/:webhook_id")
      .setPath(WebhookPath)
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(WebhookEndpoint)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Remove a webhook endpoint and its deliveries; nothing more is sent to it")
  )
  .add(
    HttpApiEndpoint.get("listWebhookDeliveries", "/v1/teams/webhooks/:webhook_id/deliveries")
      .setPath(WebhookPath)
      .setHeaders(ApiKeyOrSessionHeaders)
      .setUrlParams(Schema.Struct({ limit: queryInt({ min: 1, max: 200, default: 50 }) }))
      .addSuccess(Schema.Struct({ deliveries: Schema.Array(WebhookDelivery).annotations({ description: "Newest first" }) }))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "What was sent to an endpoint, newest first, with every attempt (status code or error, duration)")
  )
  .add(
    HttpApiEndpoint.post("redeliverWebhook", "/v1/teams/webhooks/:webhook_id/deliveries/:delivery_id/redeliver")
      .setPath(Schema.Struct({ webhook_id: WebhookId, delivery_id: DeliveryId }))
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(WebhookDelivery)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Summary,
        "Send a delivery again now (same `webhook-id`, a fresh timestamp and signature); answers it with the new attempt. 409 when the endpoint is disabled"
      )
  )
  .middleware(TenantOrSessionAuth)
  .annotate(OpenApi.Title, "Webhooks")
  .annotate(
    OpenApi.Description,
    "Completion webhooks signed as Standard Webhooks say: `analysis.completed` and `analysis.failed`, written with the call's " +
      "status change (an outbox) and retried with back-off for more than 24 hours. A tenant key, or the portal session of an " +
      "owner or an admin (a member's is 403)."
  )
{}
