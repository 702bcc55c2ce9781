/**
 * The tenant's webhook endpoints (the `webhooks` group): listed without their secrets, created with
 * the secret shown once (sealed at rest, `tenancy/Secrets.ts`; never logged, never audited),
 * removed with their deliveries, and their deliveries read. Each change has its audit row, naming
 * the endpoint by id and host. The list also answers the tenant's callback secret (the uploads'
 * `callback_url` door), once: made here when the tenant has none.
 */
import { type ClientId, type CreateWebhookRequest, NotFound, ValidationFailed, WebhookId } from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { newSigningSecret, WebhookOutbox } from "../events/WebhookOutbox.js"
import { WebhooksRepo } from "../events/WebhooksRepo.js"
import { newId } from "../lib/Ids.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import { Secrets } from "../tenancy/Secrets.js"

const hostOf = (url: string) => new URL(url).host

export class Webhooks extends Effect.Service<Webhooks>()("Webhooks", {
  effect: Effect.gen(function* () {
    const repo = yield* WebhooksRepo
    const outbox = yield* WebhookOutbox
    const secrets = yield* Secrets
    const audit = yield* AuditLog
    const transactions = yield* Transactions
    const config = yield* AppConfig

    const list = Effect.fn("Webhooks.list")(function* (clientId: ClientId) {
      const webhooks = yield* repo.listEndpoints(clientId)
      const callback = yield* transactions.run(
        Effect.gen(function* () {
          yield* outbox.ensureCallbackSecret(clientId)
          const revealed = yield* repo.revealSigningSecret(clientId)
          const stored = yield* repo.signingSecret(clientId)
          return { revealed, createdAt: Option.map(stored, (s) => s.created_at) }
        })
      )
      const secret = Option.isSome(callback.revealed) ? yield* secrets.decrypt(callback.revealed.value) : null
      return {
        webhooks,
        callback_secret: secret,
        callback_secret_created_at: Option.getOrNull(callback.createdAt)
      }
    }, Effect.orDie)

    const create = Effect.fn("Webhooks.create")(function* (clientId: ClientId, actor: Actor, req: CreateWebhookRequest) {
      const problem = yield* outbox.urlProblem(req.url)
      if (problem !== undefined) {
        return yield* new ValidationFailed({ detail: [{ loc: ["body", "url"], msg: problem, type: "value_error" }] })
      }
      const secret = newSigningSecret()
      const webhookId = WebhookId.make(newId("whk"))
      const events = [...new Set(req.events)]
      const endpoint = yield* transactions.run(
        Effect.gen(function* () {
          const row = yield* repo.insertEndpoint({
            webhookId,
            clientId,
            url: req.url,
            events,
            description: req.description ?? null,
            secretSealed: secrets.encrypt(secret)
          })
          yield* audit.record(clientId, actor, {
            action: "webhook.created",
            targetType: "webhook",
            targetId: webhookId,
            metadata: { host: hostOf(req.url), events }
          })
          return row
        })
      ).pipe(Effect.orDie)
      return { ...endpoint, secret }
    })

    const remove = Effect.fn("Webhooks.remove")(function* (clientId: ClientId, actor: Actor, webhookId: WebhookId) {
      const removed = yield* transactions.run(
        Effect.gen(function* () {
          const row = yield* repo.deleteEndpoint(clientId, webhookId)
          if (Option.isSome(row)) {
            yield* audit.record(clientId, actor, {
              action: "webhook.deleted",
              targetType: "webhook",
              targetId: webhookId,
              metadata: { host: hostOf(row.value.url) }
            })
          }
          return row
        })
      ).pipe(Effect.orDie)
      if (Option.isNone(removed)) return yield* new NotFound({ message: `no webhook ${webhookId}` })
      return removed.value
    })

    const deliveries = Effect.fn("Webhooks.deliveries")(function* (clientId: ClientId, webhookId: WebhookId, limit: number) {
      if (Option.isNone(yield* Effect.orDie(repo.findEndpoint(clientId, webhookId)))) {
        return yield* new NotFound({ message: `no webhook ${webhookId}` })
      }
      return { deliveries: yield* Effect.orDie(repo.listDeliveries(clientId, webhookId, limit)) }
    })

    return { list, create, remove, deliveries } as const
  }),
  dependencies: [WebhooksRepo.Default, WebhookOutbox.Default, Secrets.Default, AuditLog.Default, Transactions.Default]
}) {}
