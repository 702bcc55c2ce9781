/**
 * Coaching: each user's onboarding steps (`coaching_onboarding`: the welcome, the oath with its
 * signer, words and time), their reading of the wiki (`wiki_progress`, one row per article read;
 * the articles themselves are Markdown in the repository, not rows), and the manual audits of calls
 * (`manual_audits`), each kept with the machine's scores of that moment beside the manager's.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE coaching_onboarding (
      user_id              text PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
      client_id            text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      welcome_completed_at timestamptz,
      oath_signature_name  text,
      oath_commitments     jsonb,
      oath_signed_at       timestamptz,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      CHECK ((oath_signed_at IS NULL) = (oath_signature_name IS NULL)),
      CHECK ((oath_signed_at IS NULL) = (oath_commitments IS NULL))
    )`
  yield* sql`CREATE INDEX coaching_onboarding_client_idx ON coaching_onboarding (client_id)`

  yield* sql`
    CREATE TABLE wiki_progress (
      user_id      text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      client_id    text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      slug         text NOT NULL,
      progress_pct double precision NOT NULL CHECK (progress_pct BETWEEN 0 AND 100),
      completed_at timestamptz,
      created_at   timestamptz NOT NULL DEFAULT now(),
      updated_at   timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, slug),
      CHECK ((completed_at IS NOT NULL) = (progress_pct = 100))
    )`

  yield* sql`
    CREATE TABLE manual_audits (
      audit_id          text PRIMARY KEY,
      client_id         text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      call_id           text NOT NULL REFERENCES calls (call_id) ON DELETE CASCADE,
      -- the call's closer when audited
      closer_email      text,
      auditor_user_id   text NOT NULL,
      -- the manager's scores by dimension, and the machine's of the dimensions it assessed
      scores            jsonb NOT NULL,
      automated         jsonb NOT NULL,
      automated_overall double precision,
      notes             text NOT NULL,
      created_at        timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX manual_audits_client_idx ON manual_audits (client_id, created_at DESC, audit_id DESC)`
  yield* sql`CREATE INDEX manual_audits_call_idx ON manual_audits (call_id)`
  yield* sql`CREATE INDEX manual_audits_auditor_idx ON manual_audits (auditor_user_id)`
})
