/** Payments (migration 0018): the events applied once, and the paid checkouts with what each gave. */
import { ClientId, Plan, Product } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"

const Paid = Schema.Struct({
  session_id: Schema.String,
  client_id: ClientId,
  product: Product,
  credits: Schema.Number,
  previous_plan: Plan,
  refunded_at: Schema.NullOr(Schema.DateFromSelf)
})

export class PaymentsRepo extends Effect.Service<PaymentsRepo>()("PaymentsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /**
     * Claims an event id: true the first time. A concurrent delivery of the same id waits on the
     * key until the first transaction ends, then finds it and answers false.
     */
    const claim = Rows.findOne({
      Request: Schema.Struct({ eventId: Schema.String, type: Schema.String }),
      Result: Schema.Struct({ event_id: Schema.String }),
      execute: ({ eventId, type }) =>
        sql`INSERT INTO payment_events (event_id, type, effect) VALUES (${eventId}, ${type}, 'pending')
            ON CONFLICT (event_id) DO NOTHING RETURNING event_id`
    })

    const settle = Rows.execute({
      Request: Schema.Struct({ eventId: Schema.String, clientId: Schema.NullOr(ClientId), effect: Schema.String }),
      execute: ({ clientId, effect, eventId }) =>
        sql`UPDATE payment_events SET client_id = ${clientId}, effect = ${effect} WHERE event_id = ${eventId}`
    })

    const insertPayment = Rows.execute({
      Request: Schema.Struct({
        sessionId: Schema.String,
        clientId: ClientId,
        product: Product,
        paymentIntent: Schema.NullOr(Schema.String),
        subscription: Schema.NullOr(Schema.String),
        credits: Schema.Number,
        previousPlan: Plan
      }),
      execute: (p) =>
        sql`INSERT INTO payments (session_id, client_id, product, payment_intent, subscription, credits, previous_plan)
            VALUES (${p.sessionId}, ${p.clientId}, ${p.product}, ${p.paymentIntent}, ${p.subscription}, ${p.credits}, ${p.previousPlan})
            ON CONFLICT (session_id) DO NOTHING`
    })

    const byPaymentIntent = Rows.findOne({
      Request: Schema.String,
      Result: Paid,
      execute: (paymentIntent) =>
        sql`SELECT session_id, client_id, product, credits, previous_plan, refunded_at FROM payments
            WHERE payment_intent = ${paymentIntent} FOR UPDATE`
    })

    const bySubscription = Rows.findOne({
      Request: Schema.String,
      Result: Paid,
      execute: (subscription) =>
        sql`SELECT session_id, client_id, product, credits, previous_plan, refunded_at FROM payments
            WHERE subscription = ${subscription} ORDER BY paid_at DESC LIMIT 1 FOR UPDATE`
    })

    const markRefunded = Rows.execute({
      Request: Schema.String,
      execute: (sessionId) => sql`UPDATE payments SET refunded_at = now() WHERE session_id = ${sessionId}`
    })

    const setPlan = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, plan: Plan }),
      execute: ({ clientId, plan }) => sql`UPDATE tenants SET plan = ${plan} WHERE client_id = ${clientId}`
    })

    return { claim, settle, insertPayment, byPaymentIntent, bySubscription, markRefunded, setPlan } as const
  })
}) {}
