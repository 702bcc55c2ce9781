/** Handlers of the `webhooks` group: the tenant's webhook endpoints and their deliveries (docs/webhooks.md). */
import { CallsightApi, CurrentClient } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { Webhooks } from "./Webhooks.js"
import { WebhookSender } from "./WebhookSender.js"

export const WebhooksHttpLive = HttpApiBuilder.group(CallsightApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    const sender = yield* WebhookSender
    const callers = yield* Callers
    const caller = Effect.zip(CurrentClient, callers.actor)
    return handlers
      .handle("listWebhooks", () => Effect.flatMap(CurrentClient, (c) => webhooks.list(c.clientId)))
      .handle("createWebhook", ({ payload }) => Effect.flatMap(caller, ([c, actor]) => webhooks.create(c.clientId, actor, payload)))
      .handle("deleteWebhook", ({ path }) => Effect.flatMap(caller, ([c, actor]) => webhooks.remove(c.clientId, actor, path.webhook_id)))
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        Effect.flatMap(CurrentClient, (c) => webhooks.deliveries(c.clientId, path.webhook_id, urlParams.limit)))
      .handle("redeliverWebhook", ({ path }) =>
        Effect.flatMap(CurrentClient, (c) => sender.redeliver(c.clientId, path.webhook_id, path.delivery_id)))
  })
).pipe(Layer.provide([Webhooks.Default, WebhookSender.Default, Callers.Default]))
