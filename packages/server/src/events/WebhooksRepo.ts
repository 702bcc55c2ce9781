/**
 * Completion webhooks (`0015_webhooks`): the tenant's endpoints, its callback signing secret, the
 * uploads' callback URLs, and the outbox of deliveries with their attempts. Reads that serve a
 * tenant take its `ClientId` first; the sender's reads (`claimDue`, `failingEndpoint`) act for
 * whichever tenant owns the row. Secrets come and go sealed (`tenancy/Secrets.ts`): this module
 * never sees one in clear.
 */
import { CallId, ClientId, DeliveryId, WebhookEventType, WebhookId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** An endpoint as the API shows it (no secret). */
export const EndpointRow = Schema.Struct({
  webhook_id: WebhookId,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  description: Schema.NullOr(Schema.String),
  status: Schema.Literal("active", "disabled"),
  created_at: IsoTimestamp,
  failing_since: NullableIsoTimestamp,
  disabled_at: NullableIsoTimestamp,
  disabled_reason: Schema.NullOr(Schema.String)
})
export type EndpointRow = typeof EndpointRow.Type

const endpointFields = "webhook_id, url, events, description, status, created_at, failing_since, disabled_at, disabled_reason"

/** A delivery as the API shows it, its attempts oldest first. */
export const DeliveryRow = Schema.Struct({
  delivery_id: DeliveryId,
  webhook_id: Schema.NullOr(WebhookId),
  event_type: WebhookEventType,
  call_id: Schema.NullOr(CallId),
  status: Schema.Literal("pending", "delivered", "failed"),
  created_at: IsoTimestamp,
  delivered_at: NullableIsoTimestamp,
  next_attempt_at: NullableIsoTimestamp,
  attempts: Schema.Array(Schema.Struct({
    attempted_at: Schema.String,
    status_code: Schema.NullOr(Schema.Number),
    error: Schema.NullOr(Schema.String),
    duration_ms: Schema.Number,
    manual: Schema.Boolean
  }))
})
export type DeliveryRow = typeof DeliveryRow.Type

/** What the sender needs of a delivery: where, what, and the sealed secret to sign it with. */
export const OutgoingRow = Schema.Struct({
  delivery_id: DeliveryId,
  client_id: ClientId,
  webhook_id: Schema.NullOr(WebhookId),
  url: Schema.String,
  payload: Schema.String,
  attempt_count: Schema.Number,
  secret_sealed: Schema.NullOr(Schema.String),
  endpoint_status: Schema.NullOr(Schema.Literal("active", "disabled"))
})
export type OutgoingRow = typeof OutgoingRow.Type

/** A call as its webhook tells it, read inside the transaction that changed its status. */
export const CallSnapshot = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  external_call_id: Schema.NullOr(Schema.String),
  status: Schema.String,
  method_version: Schema.NullOr(Schema.String),
  overall_score: Schema.NullOr(Schema.Number),
  callback_url: Schema.NullOr(Schema.String)
})
export type CallSnapshot = typeof CallSnapshot.Type

export const NewEndpoint = Schema.Struct({
  webhookId: WebhookId,
  clientId: ClientId,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  description: Schema.NullOr(Schema.String),
  secretSealed: Schema.String
})

export const NewDelivery = Schema.Struct({
  deliveryId: DeliveryId,
  clientId: ClientId,
  webhookId: Schema.NullOr(WebhookId),
  url: Schema.String,
  eventType: WebhookEventType,
  callId: Schema.NullOr(CallId),
  payload: Schema.String
})
export type NewDelivery = typeof NewDelivery.Type

export const NewAttempt = Schema.Struct({
  attemptId: Schema.String,
  deliveryId: DeliveryId,
  statusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Number,
  manual: Schema.Boolean
})
export type NewAttempt = typeof NewAttempt.Type

const TenantEndpoint = Schema.Struct({ tenantId: ClientId, webhookId: WebhookId })
const SigningSecretRow = Schema.Struct({ secret_sealed: Schema.String, created_at: IsoTimestamp, revealed_at: NullableIsoTimestamp })

/** An attempt's time as the API writes timestamps (`2026-11-21T10:00:00.000Z`). */
const isoOf = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

export class WebhooksRepo extends Effect.Service<WebhooksRepo>()("WebhooksRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const fields = sql.literal(endpointFields)

    const insertEndpoint = Rows.single({
      Request: NewEndpoint,
      Result: EndpointRow,
      execute: (e) =>
        sql`INSERT INTO webhook_endpoints (webhook_id, client_id, url, events, description, secret_sealed)
            VALUES (${e.webhookId}, ${e.clientId}, ${e.url}, ${JSON.stringify(e.events)}::jsonb, ${e.description}, ${e.secretSealed})
            RETURNING ${fields}`
    })

    const listEndpoints = Rows.findAll({
      Request: ClientId,
      Result: EndpointRow,
      execute: (clientId) =>
        sql`SELECT ${fields} FROM webhook_endpoints WHERE client_id = ${clientId} ORDER BY created_at, webhook_id`
    })

    const findEndpoint = Rows.findOne({
      Request: TenantEndpoint,
      Result: EndpointRow,
      execute: ({ tenantId, webhookId }) =>
        sql`SELECT ${fields} FROM webhook_endpoints WHERE client_id = ${tenantId} AND webhook_id = ${webhookId}`
    })

    const deleteEndpoint = Rows.findOne({
      Request: TenantEndpoint,
      Result: EndpointRow,
      execute: ({ tenantId, webhookId }) =>
        sql`DELETE FROM webhook_endpoints WHERE client_id = ${tenantId} AND webhook_id = ${webhookId} RETURNING ${fields}`
    })

    /** The call as its webhook tells it, with its callback URL if its upload gave one. */
    const callSnapshot = Rows.findOne({
      Request: CallId,
      Result: CallSnapshot,
      execute: (callId) =>
        sql`SELECT c.call_id, c.client_id, c.external_call_id, c.status, c.method_version,
                   (c.result -> 'scorecard' ->> 'overall')::float8 AS overall_score, cb.url AS callback_url
            FROM calls c LEFT JOIN webhook_callbacks cb ON cb.call_id = c.call_id
            WHERE c.call_id = ${callId}`
    })

    /** The tenant's active endpoints that want `type`. */
    const subscribed = Rows.findAll({
      Request: Schema.Struct({ tenantId: ClientId, type: WebhookEventType }),
      Result: Schema.Struct({ webhook_id: WebhookId, url: Schema.String }),
      execute: ({ tenantId, type }) =>
        sql`SELECT webhook_id, url FROM webhook_endpoints
            WHERE client_id = ${tenantId} AND status = 'active' AND events @> ${JSON.stringify([type])}::jsonb
            ORDER BY created_at, webhook_id`
    })

    const insertDelivery = Rows.execute({
      Request: NewDelivery,
      execute: (d) =>
        sql`INSERT INTO webhook_deliveries (delivery_id, client_id, webhook_id, url, event_type, call_id, payload)
            VALUES (${d.deliveryId}, ${d.clientId}, ${d.webhookId}, ${d.url}, ${d.eventType}, ${d.callId}, ${d.payload})`
    })

    const saveCallback = Rows.execute({
      Request: Schema.Struct({ callId: CallId, clientId: ClientId, url: Schema.String }),
      execute: ({ callId, clientId, url }) =>
        sql`INSERT INTO webhook_callbacks (call_id, client_id, url) VALUES (${callId}, ${clientId}, ${url})
            ON CONFLICT (call_id) DO UPDATE SET url = EXCLUDED.url`
    })

    const signingSecret = Rows.findOne({
      Request: ClientId,
      Result: SigningSecretRow,
      execute: (clientId) =>
        sql`SELECT secret_sealed, created_at, revealed_at FROM webhook_signing_secrets WHERE client_id = ${clientId}`
    })

    /** Stores the tenant's callback secret unless it has one (the first writer wins). */
    const insertSigningSecret = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, sealed: Schema.String }),
      execute: ({ clientId, sealed }) =>
        sql`INSERT INTO webhook_signing_secrets (client_id, secret_sealed) VALUES (${clientId}, ${sealed})
            ON CONFLICT (client_id) DO NOTHING`
    })

    /** The callback secret if it was never shown, marking it shown: one caller ever gets it. */
    const revealSigningSecret = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({ secret_sealed: Schema.String }),
      execute: (clientId) =>
        sql`UPDATE webhook_signing_secrets SET revealed_at = now()
            WHERE client_id = ${clientId} AND revealed_at IS NULL RETURNING secret_sealed`
    })

    const deliveryColumns = sql.literal(
      `d.delivery_id, d.webhook_id, d.event_type, d.call_id, d.state AS status, d.created_at, d.delivered_at,
       CASE WHEN d.state = 'pending' THEN d.next_attempt_at END AS next_attempt_at,
       COALESCE((SELECT json_agg(json_build_object(
                   'attempted_at', ${isoOf("a.attempted_at")}, 'status_code', a.status_code, 'error', a.error,
                   'duration_ms', a.duration_ms, 'manual', a.manual) ORDER BY a.attempted_at, a.attempt_id)
                 FROM webhook_attempts a WHERE a.delivery_id = d.delivery_id), '[]'::json) AS attempts`
    )

    const listDeliveries = Rows.findAll({
      Request: Schema.Struct({ tenantId: ClientId, webhookId: WebhookId, limit: Schema.Number }),
      Result: DeliveryRow,
      execute: ({ limit, tenantId, webhookId }) =>
        sql`SELECT ${deliveryColumns} FROM webhook_deliveries d
            WHERE d.client_id = ${tenantId} AND d.webhook_id = ${webhookId}
            ORDER BY d.created_at DESC, d.delivery_id DESC LIMIT ${limit}`
    })

    const findDelivery = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, deliveryId: DeliveryId }),
      Result: DeliveryRow,
      execute: ({ deliveryId, tenantId }) =>
        sql`SELECT ${deliveryColumns} FROM webhook_deliveries d WHERE d.client_id = ${tenantId} AND d.delivery_id = ${deliveryId}`
    })

    const outgoingColumns = sql.literal(
      `o.delivery_id, o.client_id, o.webhook_id, o.url, o.payload, o.attempt_count,
       COALESCE(e.secret_sealed, s.secret_sealed) AS secret_sealed, e.status AS endpoint_status`
    )
    const secretsJoin = sql.literal(
      `LEFT JOIN webhook_endpoints e ON e.webhook_id = o.webhook_id
       LEFT JOIN webhook_signing_secrets s ON o.webhook_id IS NULL AND s.client_id = o.client_id`
    )

    /**
     * Claims up to `limit` due deliveries (`FOR UPDATE SKIP LOCKED`: senders in other processes
     * take others): each counts an attempt and is not due again for `leaseSeconds`, so a sender
     * that dies mid-attempt leaves it to be claimed again then.
     */
    const claimDue = Rows.findAll({
      Request: Schema.Struct({ limit: Schema.Number, leaseSeconds: Schema.Number }),
      Result: OutgoingRow,
      execute: ({ leaseSeconds, limit }) =>
        sql`WITH due AS (
              SELECT delivery_id FROM webhook_deliveries
              WHERE state = 'pending' AND next_attempt_at <= now()
              ORDER BY next_attempt_at, delivery_id
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED
            ), o AS (
              UPDATE webhook_deliveries d
              SET next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), attempt_count = d.attempt_count + 1
              FROM due WHERE d.delivery_id = due.delivery_id
              RETURNING d.delivery_id, d.client_id, d.webhook_id, d.url, d.payload, d.attempt_count
            )
            SELECT ${outgoingColumns} FROM o ${secretsJoin}`
    })

    /** A delivery of the tenant's endpoint, to send again now. */
    const outgoing = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, webhookId: WebhookId, deliveryId: DeliveryId }),
      Result: OutgoingRow,
      execute: ({ deliveryId, tenantId, webhookId }) =>
        sql`SELECT ${outgoingColumns} FROM webhook_deliveries o ${secretsJoin}
            WHERE o.client_id = ${tenantId} AND o.webhook_id = ${webhookId} AND o.delivery_id = ${deliveryId}`
    })

    const recordAttempt = Rows.execute({
      Request: NewAttempt,
      execute: (a) =>
        sql`INSERT INTO webhook_attempts (attempt_id, delivery_id, status_code, error, duration_ms, manual)
            VALUES (${a.attemptId}, ${a.deliveryId}, ${a.statusCode}, ${a.error}, ${a.durationMs}, ${a.manual})`
    })

    const markDelivered = Rows.execute({
      Request: DeliveryId,
      execute: (deliveryId) =>
        sql`UPDATE webhook_deliveries SET state = 'delivered', delivered_at = COALESCE(delivered_at, now())
            WHERE delivery_id = ${deliveryId}`
    })

    /** The next automatic attempt after `delayMs`; `null`: the schedule is spent, the delivery failed. */
    const reschedule = Rows.execute({
      Request: Schema.Struct({ deliveryId: DeliveryId, delayMs: Schema.NullOr(Schema.Number) }),
      execute: ({ delayMs, deliveryId }) =>
        delayMs === null
          ? sql`UPDATE webhook_deliveries SET state = 'failed' WHERE delivery_id = ${deliveryId} AND state = 'pending'`
          : sql`UPDATE webhook_deliveries SET next_attempt_at = now() + make_interval(secs => ${delayMs / 1000})
                WHERE delivery_id = ${deliveryId} AND state = 'pending'`
    })

    /** The endpoint answered: it is no longer failing. */
    const endpointHealthy = Rows.execute({
      Request: WebhookId,
      execute: (webhookId) => sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE webhook_id = ${webhookId}`
    })

    /** The endpoint failed an attempt: since when it has been failing without a success. */
    const endpointFailed = Rows.findOne({
      Request: WebhookId,
      Result: Schema.Struct({ failing_seconds: Schema.Number }),
      execute: (webhookId) =>
        sql`UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, now())
            WHERE webhook_id = ${webhookId}
            RETURNING EXTRACT(EPOCH FROM now() - failing_since)::float8 AS failing_seconds`
    })

    /** Disables an active endpoint and gives up its pending deliveries; none when it was not active. */
    const disableEndpoint = Rows.findOne({
      Request: Schema.Struct({ webhookId: WebhookId, reason: Schema.String }),
      Result: Schema.Struct({ client_id: ClientId, url: Schema.String }),
      execute: ({ reason, webhookId }) =>
        sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_at = now(), disabled_reason = ${reason}
            WHERE webhook_id = ${webhookId} AND status = 'active' RETURNING client_id, url`
    })

    /** A deleted call's deliveries, sent or not: nothing of it is redelivered or listed again. */
    const forgetCall = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, callId: Schema.String }),
      execute: ({ callId, clientId }) => sql`DELETE FROM webhook_deliveries WHERE client_id = ${clientId} AND call_id = ${callId}`
    })

    const abandonPending = Rows.execute({
      Request: WebhookId,
      execute: (webhookId) =>
        sql`UPDATE webhook_deliveries SET state = 'failed' WHERE webhook_id = ${webhookId} AND state = 'pending'`
    })

    return {
      forgetCall,
      insertEndpoint,
      listEndpoints,
      findEndpoint: (clientId: ClientId, webhookId: WebhookId) => findEndpoint({ tenantId: clientId, webhookId }),
      deleteEndpoint: (clientId: ClientId, webhookId: WebhookId) => deleteEndpoint({ tenantId: clientId, webhookId }),
      callSnapshot,
      subscribed: (clientId: ClientId, type: WebhookEventType) => subscribed({ tenantId: clientId, type }),
      insertDelivery,
      saveCallback,
      signingSecret,
      insertSigningSecret: (clientId: ClientId, sealed: string) => insertSigningSecret({ clientId, sealed }),
      revealSigningSecret: (clientId: ClientId) => Effect.map(revealSigningSecret(clientId), Option.map((r) => r.secret_sealed)),
      listDeliveries: (clientId: ClientId, webhookId: WebhookId, limit: number) => listDeliveries({ tenantId: clientId, webhookId, limit }),
      findDelivery: (clientId: ClientId, deliveryId: DeliveryId) => findDelivery({ tenantId: clientId, deliveryId }),
      claimDue: (limit: number, leaseSeconds: number) => claimDue({ limit, leaseSeconds }),
      outgoing: (clientId: ClientId, webhookId: WebhookId, deliveryId: DeliveryId) => outgoing({ tenantId: clientId, webhookId, deliveryId }),
      recordAttempt,
      markDelivered,
      reschedule: (deliveryId: DeliveryId, delayMs: number | null) => reschedule({ deliveryId, delayMs }),
      endpointHealthy,
      endpointFailed: (webhookId: WebhookId) =>
        Effect.map(endpointFailed(webhookId), Option.match({ onNone: () => 0, onSome: (r) => r.failing_seconds })),
      disableEndpoint: (webhookId: WebhookId, reason: string) => disableEndpoint({ webhookId, reason }),
      abandonPending
    } as const
  })
}) {}
