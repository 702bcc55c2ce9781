/**
 * Sends the outbox's deliveries (events/WebhookOutbox.ts), signed as Standard Webhooks say with the
 * `standardwebhooks` package: `webhook-id` (the delivery's id, the same on every attempt),
 * `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256>` over `id.timestamp.body`.
 * A 2xx answer within 10 s is delivered; anything else is an attempt recorded (status code or
 * error, duration) and the delivery is tried again on the schedule below, more than 24 hours in all.
 * An endpoint that has failed every attempt for 3 days is disabled, its pending deliveries given
 * up, and the tenant told: an event in its feed and an audit row.
 *
 * The loop runs where the analysis workers run (`callsight serve`, `callsight worker`), in any
 * number of processes: a delivery is claimed with `FOR UPDATE SKIP LOCKED` and leased for longer
 * than one attempt takes, so two senders never send it at once and a dead sender's claim lapses.
 */
import { type ClientId, Conflict, type DeliveryId, NotFound, type WebhookId } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, Layer, Option } from "effect"
import { Webhook } from "standardwebhooks"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { EventsRepo } from "../events/EventsRepo.js"
import { type OutgoingRow, WebhooksRepo } from "../events/WebhooksRepo.js"
import { newId } from "../lib/Ids.js"
import { isOutboundRefusal, OutboundHttpClient } from "../lib/Outbound.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import { Secrets } from "../tenancy/Secrets.js"
import { VERSION } from "../version.js"

/**
 * Seconds to wait after the n-th failed attempt (n from 1): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h,
 * 2 h, 4 h, 8 h, 8 h, 8 h; about 40 hours from the first attempt to the twelfth and last.
 * `WEBHOOK_RETRY_BASE_MS` is the first wait and scales all of them (tests make them short).
 */
export const RETRY_SCHEDULE_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800, 28800] as const

/** The wait after the `attempt`-th failure, in ms; null when the schedule is spent. */
export const retryDelayMs = (attempt: number, baseMs: number): number | null => {
  const seconds = RETRY_SCHEDULE_SECONDS[attempt - 1]
  return seconds === undefined ? null : (seconds / RETRY_SCHEDULE_SECONDS[0]) * baseMs
}

/** How long one attempt may take, answer included. */
export const ATTEMPT_TIMEOUT = Duration.seconds(10)
/** How long a claimed delivery is not due again: longer than an attempt, so only a dead sender's claim lapses. */
const LEASE_SECONDS = 30
/** An endpoint failing every attempt for this long is disabled. */
export const DISABLE_AFTER_SECONDS = 3 * 24 * 3600
/** Deliveries claimed, and sent at once, per pass. */
const BATCH = 20

const SYSTEM_ACTOR = { id: "system:webhooks", type: "system", ip: null } as const

/** What one attempt came to. */
interface AttemptResult {
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
}

const delivered = (a: AttemptResult) => a.error === null

const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text)

export class WebhookSender extends Effect.Service<WebhookSender>()("WebhookSender", {
  effect: Effect.gen(function* () {
    const repo = yield* WebhooksRepo
    const secrets = yield* Secrets
    const transactions = yield* Transactions
    const events = yield* EventsRepo
    const audit = yield* AuditLog
    const config = yield* AppConfig
    const client = yield* HttpClient.HttpClient

    /** POSTs the delivery once, signed now; never fails: the outcome says what happened. */
    const attempt = (row: OutgoingRow): Effect.Effect<AttemptResult> =>
      Effect.gen(function* () {
        const started = Date.now()
        const took = () => Date.now() - started
        if (row.secret_sealed === null) return { statusCode: null, error: "no signing secret", durationMs: 0 }
        const secret = yield* Effect.either(secrets.decrypt(row.secret_sealed))
        if (secret._tag === "Left") return { statusCode: null, error: "the signing secret cannot be opened", durationMs: 0 }
        const now = new Date()
        const signature = new Webhook(secret.right).sign(row.delivery_id, now, row.payload)
        const request = HttpClientRequest.post(row.url).pipe(
          HttpClientRequest.setHeaders({
            "webhook-id": row.delivery_id,
            "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
            "webhook-signature": signature,
            "user-agent": `Callsight-Webhooks/${VERSION}`
          }),
          HttpClientRequest.bodyText(row.payload, "application/json")
        )
        const answer = yield* client.execute(request).pipe(
          // The answer's body is read (and dropped) so the connection is freed; it counts within the time limit.
          Effect.flatMap((response) => Effect.as(Effect.ignore(response.arrayBuffer), response.status)),
          Effect.timeoutFail({ duration: ATTEMPT_TIMEOUT, onTimeout: () => "timeout" as const }),
          Effect.either
        )
        if (answer._tag === "Left") {
          const error = answer.left === "timeout"
            ? `no answer within ${Duration.toSeconds(ATTEMPT_TIMEOUT)} s`
            : isOutboundRefusal(answer.left)
            ? "refused: the endpoint's address is internal, and deliveries reach public addresses only"
            : short(answer.left.message)
          return { statusCode: null, error, durationMs: took() }
        }
        const status = answer.right
        return {
          statusCode: status,
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
          durationMs: took()
        }
      }).pipe(Effect.withSpan("WebhookSender.attempt", { attributes: { delivery_id: row.delivery_id } }))

    const record = (row: OutgoingRow, result: AttemptResult, manual: boolean) =>
      repo.recordAttempt({
        attemptId: newId("att"),
        deliveryId: row.delivery_id,
        statusCode: result.statusCode,
        error: result.error,
        durationMs: Math.round(result.durationMs),
        manual
      })

    /** The endpoint failed for 3 days: disabled, its pending deliveries given up, the tenant told. */
    const disable = (clientId: ClientId, webhookId: WebhookId, failingSeconds: number) =>
      Effect.gen(function* () {
        const days = Math.floor(failingSeconds / 86400)
        const reason = `every attempt failed for ${days} days`
        const done = yield* repo.disableEndpoint(webhookId, reason)
        if (Option.isNone(done)) return
        yield* repo.abandonPending(webhookId)
        yield* events.record({
          clientId,
          type: "webhook_disabled",
          platform: "webhooks",
          status: "error",
          closerEmail: null,
          callId: null,
          error: `webhook ${webhookId} (${new URL(done.value.url).host}) disabled: ${reason}`
        })
        yield* audit.record(clientId, SYSTEM_ACTOR, {
          action: "webhook.disabled",
          targetType: "webhook",
          targetId: webhookId,
          metadata: { host: new URL(done.value.url).host, reason }
        })
        yield* Effect.logWarning("webhook endpoint disabled").pipe(Effect.annotateLogs({ webhook_id: webhookId, client_id: clientId }))
      })

    /** Records an automatic attempt and what follows from it, in one transaction. */
    const settle = (row: OutgoingRow, result: AttemptResult) =>
      transactions.run(
        Effect.gen(function* () {
          yield* record(row, result, false)
          if (delivered(result)) {
            yield* repo.markDelivered(row.delivery_id)
            if (row.webhook_id !== null) yield* repo.endpointHealthy(row.webhook_id)
            return
          }
          yield* repo.reschedule(row.delivery_id, retryDelayMs(row.attempt_count, config.webhookRetryBaseMs))
          if (row.webhook_id !== null) {
            const failingSeconds = yield* repo.endpointFailed(row.webhook_id)
            if (failingSeconds >= DISABLE_AFTER_SECONDS) yield* disable(row.client_id, row.webhook_id, failingSeconds)
          }
        })
      )

    /** One claimed delivery; its failure (say, its endpoint removed meanwhile) is logged and leaves the others be. */
    const deliver = (row: OutgoingRow) =>
      (row.endpoint_status === "disabled"
        ? repo.reschedule(row.delivery_id, null)
        : Effect.flatMap(attempt(row), (result) => settle(row, result))).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning("webhook delivery not settled; retried when its claim lapses", cause).pipe(
              Effect.annotateLogs({ delivery_id: row.delivery_id })
            ))
        )

    /** Claims the due deliveries and sends them; how many there were. */
    const pass = Effect.gen(function* () {
      const due = yield* repo.claimDue(BATCH, LEASE_SECONDS)
      yield* Effect.forEach(due, deliver, { concurrency: BATCH, discard: true })
      return due.length
    }).pipe(Effect.withSpan("WebhookSender.pass"))

    /** Sends again now, whatever the schedule (the `redeliver` operation): one more attempt, recorded as manual. */
    const redeliver = Effect.fn("WebhookSender.redeliver")(function* (clientId: ClientId, webhookId: WebhookId, deliveryId: DeliveryId) {
      const found = yield* repo.outgoing(clientId, webhookId, deliveryId)
      if (Option.isNone(found)) return yield* new NotFound({ message: `no delivery ${deliveryId} of webhook ${webhookId}` })
      const row = found.value
      if (row.endpoint_status === "disabled") {
        return yield* new Conflict({ message: `webhook ${webhookId} is disabled: add the endpoint again to receive deliveries` })
      }
      const result = yield* attempt(row)
      yield* transactions.run(
        Effect.gen(function* () {
          yield* record(row, result, true)
          if (delivered(result)) {
            yield* repo.markDelivered(row.delivery_id)
            yield* repo.endpointHealthy(webhookId)
          }
        })
      )
      return Option.getOrThrow(yield* repo.findDelivery(clientId, deliveryId))
    }, (effect) => Effect.catchTag(effect, "SqlError", Effect.die))

    return { attempt, pass, redeliver } as const
  }),
  dependencies: [WebhooksRepo.Default, Secrets.Default, Transactions.Default, EventsRepo.Default, AuditLog.Default, OutboundHttpClient]
}) {}

/**
 * The sending loop for the life of the layer, unless `WEBHOOK_DELIVERY=false`: a pass every
 * `WEBHOOK_POLL_MS`, at once again while there was work.
 */
export const WebhookSenderLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (!config.webhookDelivery) return yield* Effect.logInfo("webhook delivery is off in this process (WEBHOOK_DELIVERY=false)")
    const sender = yield* WebhookSender
    const loop = sender.pass.pipe(
      Effect.flatMap((sent) => (sent > 0 ? Effect.void : Effect.sleep(Duration.millis(config.webhookPollMs)))),
      Effect.catchAllCause((cause) =>
        Effect.zipRight(Effect.logError("webhook pass failed", cause), Effect.sleep(Duration.millis(config.webhookPollMs)))),
      Effect.forever
    )
    yield* Effect.forkScoped(loop)
  })
).pipe(Layer.provide(WebhookSender.Default))
