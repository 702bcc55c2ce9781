/**
 * Payments (issue 36): each event of the payment platform applied once (`payment_events`, its id
 * the key: a second delivery, even a concurrent one, waits for the first and then finds it), and
 * each paid checkout with what it gave (`payments`: the plan or the credits), so a refund can take
 * back exactly that.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE payment_events (
      event_id    text PRIMARY KEY,
      type        text NOT NULL,
      client_id   text REFERENCES tenants (client_id) ON DELETE SET NULL,
      effect      text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE payments (
      session_id     text PRIMARY KEY,
      client_id      text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      product        text NOT NULL CHECK (product IN ('starter', 'growth', 'scale', 'credit_pack')),
      payment_intent text,
      subscription   text,
      credits        integer NOT NULL,
      previous_plan  text NOT NULL,
      paid_at        timestamptz NOT NULL DEFAULT now(),
      refunded_at    timestamptz
    )`
  yield* sql`CREATE INDEX payments_payment_intent_idx ON payments (payment_intent)`
  yield* sql`CREATE INDEX payments_subscription_idx ON payments (subscription)`
})
