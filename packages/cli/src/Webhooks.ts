/**
 * `callsight webhooks ...`: the tenant's completion webhooks, with a tenant key (`--api-key` or
 * `CALLSIGHT_API_KEY`):
 * - `add URL [--event E]... [--description D] [--json]`: the signing secret is printed once
 * - `list [--json]`: the endpoints, and the callback secret of the uploads' `--callback-url` the first time
 * - `remove WEBHOOK_ID [--json]`
 * - `deliveries WEBHOOK_ID [--limit N] [--json]`: what was sent, with every attempt
 * - `redeliver WEBHOOK_ID DELIVERY_ID [--json]`: send one again now
 */
import { DeliveryId, WebhookEventType, WebhookId } from "@callsight/api-spec"
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { WebhooksClientApi } from "./Apis.js"
import { apiKeyOption, jsonOption, urlOption, withTenantApi } from "./Connection.js"
import { group } from "./Help.js"
import { printJson } from "./Output.js"

const connection = { url: urlOption, apiKey: apiKeyOption, json: jsonOption }


const webhookIdArg = Args.text({ name: "WEBHOOK_ID" }).pipe(Args.withDescription("The endpoint (whk_...)"))

interface Endpoint {
  readonly webhook_id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly status: string
  readonly description: string | null
  readonly failing_since: string | null
  readonly disabled_reason: string | null
}

const describeEndpoint = (w: Endpoint) =>
  [
    `${w.webhook_id}  ${w.status}  ${w.url}`,
    `  events: ${w.events.join(", ")}`,
    ...(w.description === null ? [] : [`  description: ${w.description}`]),
    ...(w.failing_since === null ? [] : [`  failing since ${w.failing_since}`]),
    ...(w.disabled_reason === null ? [] : [`  disabled: ${w.disabled_reason}`])
  ].join("\n")

const add = Command.make(
  "add",
  {
    endpoint: Args.text({ name: "URL" }).pipe(Args.withDescription("Where to POST: https (http only to localhost outside production)")),
    events: Options.choice("event", WebhookEventType.literals).pipe(
      Options.repeated,
      Options.withDescription("An event to send (repeat for several; default: analysis.completed and analysis.failed)")
    ),
    description: Options.text("description").pipe(
      Options.withPseudoName("TEXT"),
      Options.optional,
      Options.withDescription("A note for the endpoint")
    ),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const created = yield* withTenantApi(WebhooksClientApi, args, (c) =>
        c.webhooks.createWebhook({
          payload: {
            url: args.endpoint,
            events: args.events.length === 0 ? ["analysis.completed", "analysis.failed"] : [...new Set(args.events)],
            description: Option.getOrUndefined(args.description)
          }
        }))
      if (args.json) return yield* printJson(created)
      yield* Console.log(
        [
          describeEndpoint(created),
          `  secret: ${created.secret}`,
          "",
          "The secret is shown this once: keep it where your receiver reads it (verifyWebhook in @callsight/client)."
        ].join("\n")
      )
    })
).pipe(Command.withDescription("Add a webhook endpoint; prints its signing secret (whsec_...) once"))

const list = Command.make("list", connection, (args) =>
  Effect.gen(function* () {
    const answer = yield* withTenantApi(WebhooksClientApi, args, (c) => c.webhooks.listWebhooks())
    if (args.json) return yield* printJson(answer)
    const lines = answer.webhooks.length === 0 ? ["No webhook endpoints."] : answer.webhooks.map(describeEndpoint)
    if (answer.callback_secret !== null) {
      lines.push("", `Callback secret (signs the uploads' --callback-url webhooks; shown this once): ${answer.callback_secret}`)
    }
    yield* Console.log(lines.join("\n"))
  })).pipe(Command.withDescription("The tenant's webhook endpoints (and, the first time, the callback secret)"))

const remove = Command.make("remove", { webhookId: webhookIdArg, ...connection }, (args) =>
  Effect.gen(function* () {
    const removed = yield* withTenantApi(WebhooksClientApi, args, (c) => c.webhooks.deleteWebhook({ path: { webhook_id: WebhookId.make(args.webhookId, true) } }))
    if (args.json) return yield* printJson(removed)
    yield* Console.log(`Removed ${removed.webhook_id} (${removed.url}).`)
  })).pipe(Command.withDescription("Remove a webhook endpoint; nothing more is sent to it"))

interface Delivery {
  readonly delivery_id: string
  readonly event_type: string
  readonly call_id: string | null
  readonly status: string
  readonly created_at: string
  readonly next_attempt_at: string | null
  readonly attempts: ReadonlyArray<{
    readonly attempted_at: string
    readonly status_code: number | null
    readonly error: string | null
    readonly duration_ms: number
    readonly manual: boolean
  }>
}

const describeDelivery = (d: Delivery) =>
  [
    `${d.delivery_id}  ${d.event_type}  ${d.call_id ?? "-"}  ${d.status}  ${d.created_at}`,
    ...d.attempts.map((a) =>
      `  ${a.attempted_at}  ${a.status_code ?? "---"}  ${a.duration_ms} ms${a.manual ? "  (redeliver)" : ""}${a.error === null ? "" : `  ${a.error}`}`
    ),
    ...(d.next_attempt_at === null ? [] : [`  next attempt ${d.next_attempt_at}`])
  ].join("\n")

const deliveries = Command.make(
  "deliveries",
  {
    webhookId: webhookIdArg,
    limit: Options.integer("limit").pipe(
      Options.withPseudoName("N"),
      Options.withDefault(20),
      Options.withDescription("How many, newest first (1-200; default 20)")
    ),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const answer = yield* withTenantApi(WebhooksClientApi, args, (c) =>
        c.webhooks.listWebhookDeliveries({
          path: { webhook_id: WebhookId.make(args.webhookId, true) },
          urlParams: { limit: args.limit }
        }))
      if (args.json) return yield* printJson(answer)
      yield* Console.log(answer.deliveries.length === 0 ? "No deliveries yet." : answer.deliveries.map(describeDelivery).join("\n"))
    })
).pipe(Command.withDescription("What was sent to an endpoint, newest first, with each attempt's status code or error"))

const redeliver = Command.make(
  "redeliver",
  {
    webhookId: webhookIdArg,
    deliveryId: Args.text({ name: "DELIVERY_ID" }).pipe(Args.withDescription("The delivery (msg_...)")),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const delivery = yield* withTenantApi(WebhooksClientApi, args, (c) =>
        c.webhooks.redeliverWebhook({
          path: { webhook_id: WebhookId.make(args.webhookId, true), delivery_id: DeliveryId.make(args.deliveryId, true) }
        }))
      if (args.json) return yield* printJson(delivery)
      yield* Console.log(describeDelivery(delivery))
    })
).pipe(Command.withDescription("Send a delivery again now (same webhook-id, fresh signature)"))

export const webhooks = group("webhooks", "Completion webhooks of the tenant (needs a tenant API key)", [
  add,
  list,
  remove,
  deliveries,
  redeliver
])
