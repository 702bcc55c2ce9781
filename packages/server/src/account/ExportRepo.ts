/**
 * What the export reads (issue 36): each section of a tenant's data as JSON records, with the
 * columns named here and no other: nothing that is a secret or stands for one (key hashes,
 * sessions, links, integration tokens, webhook secrets) is ever selected.
 */
import { ClientId } from "@callsight/api-spec"
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"

const Line = Schema.Struct({ data: Schema.Unknown })
/** Calls a page of the export reads at once. */
export const EXPORT_PAGE = 200

export class ExportRepo extends Effect.Service<ExportRepo>()("ExportRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const section = (query: (clientId: string) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
      Rows.findAll({ Request: ClientId, Result: Line, execute: query })

    const sections = {
      tenant: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT client_id, company_name, industry, plan, is_test, created_at FROM tenants WHERE client_id = ${c}) x`),
      setting: section((c) => sql`
        SELECT jsonb_build_object('kind', 'market_profile', 'profile', profile, 'updated_at', updated_at) AS data FROM market_profiles WHERE client_id = ${c}
        UNION ALL SELECT jsonb_build_object('kind', 'lead_context_profile', 'profile', profile, 'updated_at', updated_at) FROM lead_context_profiles WHERE client_id = ${c}
        UNION ALL SELECT jsonb_build_object('kind', 'retention', 'audio_days', audio_days, 'analysis_days', analysis_days, 'updated_at', updated_at)
                  FROM retention_settings WHERE client_id = ${c}`),
      member: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT user_id, email, full_name, role, created_at, last_login_at FROM users
                                 WHERE client_id = ${c} ORDER BY created_at, user_id) x`),
      closer: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT closer_id, email, full_name, team, status, email_verified_at, created_at FROM closers
                                 WHERE client_id = ${c} ORDER BY created_at, closer_id) x`),
      account: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT account_id, name, domain, created_at FROM accounts
                                  WHERE client_id = ${c} ORDER BY created_at, account_id) x`),
      deal: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT deal_id, account_id, external_deal_id, name, created_at FROM deals
                               WHERE client_id = ${c} ORDER BY created_at, deal_id) x`),
      tracker: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT tracker_id, name, kind, terms, source, created_at, updated_at FROM trackers
                                  WHERE client_id = ${c} ORDER BY created_at, tracker_id) x`),
      closing_audit: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT audit_id, title, mode, last_per_closer, call_ids, credits, created_by, created_at
                                        FROM closing_audits WHERE client_id = ${c} ORDER BY created_at, audit_id) x`),
      outcome: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT call_id, outcome, deal_value, currency, closed_at, stage, reason, notes, is_test_data,
                                  recorded_by, created_at FROM outcome_truth WHERE client_id = ${c} ORDER BY created_at, call_id) x`),
      manual_audit: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT audit_id, call_id, closer_email, auditor_user_id, scores, automated,
                                       automated_overall, notes, created_at FROM manual_audits WHERE client_id = ${c} ORDER BY created_at, audit_id) x`),
      ledger: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT delta, reason, call_id, closing_audit_id, at FROM credit_ledger WHERE client_id = ${c} ORDER BY entry_id) x`),
      audit_log: section((c) => sql`SELECT to_jsonb(x) AS data FROM (SELECT log_id, at, actor, actor_type, action, target_type, target_id, ip, metadata
                                    FROM audit_logs WHERE client_id = ${c} ORDER BY at, log_id) x`)
    } as const

    /** A page of the tenant's calls with their analyses, in upload order, after the call `after` (its id), if any. */
    const calls = Rows.findAll({
      Request: Schema.Struct({ clientId: ClientId, after: Schema.NullOr(Schema.String) }),
      Result: Schema.Struct({ call_id: Schema.String, data: Schema.Unknown }),
      execute: ({ after, clientId }) =>
        sql`SELECT call_id, to_jsonb(x) AS data FROM (
              SELECT call_id, external_call_id, closer_email, status, source, created_at, started_at, completed_at, duration_s,
                     method_version, call_type, rep_channel, error_code, error_message, audio_removed_at,
                     meeting_at, attendees, account_id, deal_id, result AS analysis
              FROM calls WHERE client_id = ${clientId} AND call_id > ${after ?? ""} ORDER BY call_id LIMIT ${EXPORT_PAGE}) x`
    })

    return { sections, calls } as const
  })
}) {}
