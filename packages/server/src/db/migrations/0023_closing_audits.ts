/**
 * The Team Closing Audit (issue 38, item 6; docs/closing-audit.md): `closing_audits` keeps what an
 * audit covers (the calls it was made with, in order) and what it cost, not its figures: they are
 * computed from those calls on each read, so a call deleted since drops out and nothing of it stays
 * here. `idempotency_key` (with the request it came with) answers a repeated request with the same
 * audit. The credit ledger's charge names the audit (`closing_audit_id`, at most one charge each).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE closing_audits (
      audit_id        text PRIMARY KEY,
      client_id       text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      title           text NOT NULL,
      mode            text NOT NULL CHECK (mode IN ('call_ids', 'last_per_closer')),
      last_per_closer integer,
      call_ids        jsonb NOT NULL,
      credits         integer NOT NULL,
      created_by      text,
      idempotency_key text,
      request         jsonb NOT NULL,
      created_at      timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX closing_audits_client_idx ON closing_audits (client_id, created_at DESC)`
  yield* sql`CREATE UNIQUE INDEX closing_audits_idempotency_idx ON closing_audits (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL`
  yield* sql`ALTER TABLE credit_ledger ADD COLUMN closing_audit_id text`
  yield* sql`CREATE UNIQUE INDEX credit_ledger_one_charge_per_audit ON credit_ledger (closing_audit_id) WHERE closing_audit_id IS NOT NULL`
})
