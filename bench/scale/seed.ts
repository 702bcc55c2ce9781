/**
 * The scale benchmark's data, written by the database itself (INSERT … SELECT over generate_series)
 * into a database the service's own migrations made. `calls` calls in `tenants` tenants (spread
 * evenly: tenant `t` gets the calls `g` with `g % tenants = t`), each tenant with:
 *
 * - its market and lead-context profiles (industry, 1–3 ICPs, lead sources, competitors), an owner
 *   (user `usr_s<t>`), CLOSERS closers, and its two trackers (the market profile's Competitors and a
 *   Pricing tracker of its own);
 * - accounts (one per 12 calls) and deals (one per 5 calls: 5 deals interleaved in each run of 25
 *   consecutive calls), CRM ids on the deals;
 * - its calls over the last 365 days, newest first by index (the 2 newest still queued and
 *   processing, one in 40 failed, one in 50 without a closer, half of them with a meeting time and
 *   attendees), each completed one holding a real analysis (`templates`) with its overall score
 *   moved by up to ±15 points, the analysis job done, its credit charged, the tracker mentions the
 *   worker would store (a competitor named in one call in three, pricing in one in two);
 * - an outcome record on one completed call in three (won, lost, no decision or open; a deal value
 *   on most, the ICP and lead source named when the profile lists several, a note on one in four).
 *
 * Everything is deterministic but `created_at` jitter. Then VACUUM ANALYZE (as autovacuum would have
 * left a database that grew over months: statistics, and the visibility map index-only scans need).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { storeMissingDueDays } from "../../packages/server/src/db/migrations/0027_trend_due_days.js"
import type { Template } from "./templates.js"

const INDUSTRIES = ["SaaS", "Fintech", "Healthcare", "Retail", "Logistics", "Manufacturing", "Education", "Media"]
const ICPS = ["Mid-market", "Enterprise", "SMB", "Public sector", "Startups", "Agencies"]
const LEADS = [["Webinar", "inbound"], ["Referral", "referral"], ["Outbound", "outbound"], ["Partner", "partner"], ["Events", "event"]] as const
const COMPETITORS = ["Gong", "Chorus", "Clari"]

export const tenantId = (t: number) => `cli_s${String(t).padStart(4, "0")}`

export interface Seeded {
  readonly calls: number
  readonly completed: number
  readonly outcomes: number
  readonly mentions: number
  readonly bytes: number
}

export const seed = (options: {
  readonly calls: number
  readonly tenants: number
  readonly closers: number
  readonly templates: ReadonlyArray<Template>
  /** The measured tenant's owner's session token (its SHA-256 is stored). */
  readonly sessionToken: string
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { calls: N, closers: C, tenants: T } = options
    const K = options.templates.length
    const perTenant = Math.ceil(N / T)
    const accounts = Math.max(1, Math.floor(perTenant / 12))

    yield* sql`CREATE TABLE bench_templates (k int PRIMARY KEY, result jsonb NOT NULL)`
    yield* sql`INSERT INTO bench_templates (k, result)
               SELECT (x ->> 'k')::int, x -> 'result' FROM jsonb_array_elements(${JSON.stringify(options.templates.map((t, k) => ({ k, result: t.result })))}::jsonb) x`

    const tenants = Array.from({ length: T }, (_, i) => ({
      client_id: tenantId(i),
      company_name: `Scale ${i}`,
      market: {
        industry: INDUSTRIES[i % INDUSTRIES.length],
        sub_industry: null,
        icps: Array.from({ length: 1 + (i % 3) }, (_, k) => ({ label: ICPS[(i + k) % ICPS.length], description: null, company_size: null, region: null })),
        regions: [],
        average_deal_size: 10_000 + 1000 * (i % 40),
        currency: i % 5 === 4 ? "EUR" : "USD",
        sales_cycle_days: 30,
        competitors: COMPETITORS,
        time_zone: null
      },
      lead: {
        lead_sources: Array.from({ length: 1 + ((i >> 1) % 3) }, (_, k) => LEADS[(i + 2 * k) % LEADS.length]!).map(([label, channel]) => ({ label, channel })),
        qualification_framework: "MEDDPICC",
        ideal_customer_notes: null,
        disqualifiers: []
      }
    }))
    const json = JSON.stringify(tenants)
    yield* sql`INSERT INTO tenants (client_id, company_name, plan, created_at)
               SELECT x ->> 'client_id', x ->> 'company_name', 'scale', now() - interval '400 days' FROM jsonb_array_elements(${json}::jsonb) x`
    yield* sql`INSERT INTO market_profiles (client_id, profile) SELECT x ->> 'client_id', x -> 'market' FROM jsonb_array_elements(${json}::jsonb) x`
    yield* sql`INSERT INTO lead_context_profiles (client_id, profile) SELECT x ->> 'client_id', x -> 'lead' FROM jsonb_array_elements(${json}::jsonb) x`
    yield* sql`INSERT INTO users (user_id, client_id, email, full_name, role, created_at)
               SELECT 'usr_s' || t, 'cli_s' || lpad(t::text, 4, '0'), 'owner@t' || t || '.bench.test', 'Owner ' || t, 'owner', now() - interval '400 days'
               FROM generate_series(0, ${T - 1}) t`
    yield* sql`INSERT INTO sessions (session_hash, user_id, client_id, expires_at)
               VALUES (${createHash("sha256").update(options.sessionToken).digest("hex")}, 'usr_s0', ${tenantId(0)}, now() + interval '14 days')`
    yield* sql`INSERT INTO closers (closer_id, client_id, email, full_name, team, status, email_verified_at, created_at)
               SELECT 'clo_s' || t || '_' || k, 'cli_s' || lpad(t::text, 4, '0'), 'rep' || k || '@t' || t || '.bench.test',
                      (ARRAY['Ava','Ben','Cleo','Dev','Eli','Fay','Gus','Hana','Ivo','Jon'])[1 + k % 10] || ' ' ||
                      (ARRAY['Stone','Reyes','Okafor','Lind','Park','Moreau','Silva'])[1 + k % 7] || ' ' || k,
                      CASE WHEN k % 2 = 0 THEN 'East' ELSE 'West' END, 'active', now() - interval '390 days', now() - interval '390 days'
               FROM generate_series(0, ${T - 1}) t, generate_series(0, ${C - 1}) k`
    yield* sql`INSERT INTO trackers (tracker_id, client_id, name, kind, terms, source)
               SELECT 'trk_s' || t || '_c', 'cli_s' || lpad(t::text, 4, '0'), 'Competitors', 'competitor', ${JSON.stringify(COMPETITORS)}::jsonb, 'market_profile'
               FROM generate_series(0, ${T - 1}) t
               UNION ALL
               SELECT 'trk_s' || t || '_p', 'cli_s' || lpad(t::text, 4, '0'), 'Pricing', 'pricing', '["discount","price"]'::jsonb, 'tenant'
               FROM generate_series(0, ${T - 1}) t`
    yield* sql`INSERT INTO accounts (account_id, client_id, name, domain, created_at)
               SELECT 'acc_s' || t || '_' || a, 'cli_s' || lpad(t::text, 4, '0'), 'Account ' || t || '-' || a, 'a' || a || '.t' || t || '.example',
                      now() - interval '380 days'
               FROM generate_series(0, ${T - 1}) t, generate_series(0, ${accounts - 1}) a`

    yield* sql`INSERT INTO deals (deal_id, client_id, account_id, external_deal_id, name, created_at)
               SELECT 'deal_s' || t || '_' || d, 'cli_s' || lpad(t::text, 4, '0'), 'acc_s' || t || '_' || (d % ${accounts}),
                      'CRM-' || t || '-' || d, 'Deal ' || t || '-' || d, now() - interval '370 days'
               FROM generate_series(0, ${T - 1}) t, generate_series(0, ${Math.ceil(perTenant / 25) * 5 - 1}) d`

    // The calls: i is the call's index within its tenant (0 the newest), n the tenant's count.
    yield* sql`
      INSERT INTO calls (call_id, client_id, external_call_id, closer_email, status, stage, progress, format, blob_key, size_bytes, sha256,
                         created_at, started_at, completed_at, duration_s, method_version, error_code, error_message, result, source,
                         meeting_at, attendees, account_id, deal_id)
      SELECT 'call_s' || t || '_' || i, 'cli_s' || lpad(t::text, 4, '0'),
             CASE WHEN i % 10 < 7 THEN 'EXT-' || t || '-' || lpad(i::text, 7, '0') END,
             CASE WHEN i % 50 = 49 THEN NULL ELSE 'rep' || ((i * 7 + t) % ${C}) || '@t' || t || '.bench.test' END,
             st, CASE st WHEN 'completed' THEN 'done' WHEN 'queued' THEN 'queued' ELSE 'transcribe' END,
             CASE st WHEN 'completed' THEN 1 WHEN 'failed' THEN 0.4 WHEN 'processing' THEN 0.5 ELSE 0 END,
             'mp3', 'blobs/s' || t || '/' || i, 2000000 + (i * 7919) % 30000000, md5(t || '/' || i),
             at, CASE WHEN st <> 'queued' THEN at + interval '20 seconds' END,
             CASE WHEN st IN ('completed', 'failed') THEN at + interval '3 minutes' END,
             CASE WHEN st = 'completed' THEN (tpl.result ->> 'duration_s')::float8 END,
             CASE WHEN st = 'completed' THEN tpl.result ->> 'method_version' END,
             CASE WHEN st = 'failed' THEN 'decode_failed' END, CASE WHEN st = 'failed' THEN 'the audio could not be decoded' END,
             CASE WHEN st = 'completed' THEN
               CASE WHEN jsonb_typeof(tpl.result -> 'scorecard' -> 'overall') = 'number'
                    THEN jsonb_set(tpl.result, '{scorecard,overall}',
                                   to_jsonb(greatest(0, least(100, round((tpl.result -> 'scorecard' ->> 'overall')::numeric + ((i * 37 + t * 11) % 31) - 15)))))
                    ELSE tpl.result END END,
             CASE WHEN i % 2 = 0 THEN 'recorder' ELSE 'api' END,
             CASE WHEN i % 2 = 0 THEN at - interval '1 hour' END,
             CASE WHEN i % 2 = 0 THEN jsonb_build_array('rep' || ((i * 7 + t) % ${C}) || '@t' || t || '.bench.test',
                                                        'buyer' || (i % 4) || '@a' || (d % ${accounts}) || '.t' || t || '.example')
                  ELSE '[]'::jsonb END,
             CASE WHEN i % 5 < 4 THEN 'acc_s' || t || '_' || (d % ${accounts}) END,
             CASE WHEN i % 5 < 4 THEN 'deal_s' || t || '_' || d END
      FROM (SELECT g, g % ${T} AS t, g / ${T} AS i, (g / ${T}) / 25 * 5 + (g / ${T}) % 5 AS d,
                   CASE WHEN g / ${T} = 0 THEN 'queued' WHEN g / ${T} = 1 THEN 'processing' WHEN (g / ${T}) % 40 = 17 THEN 'failed' ELSE 'completed' END AS st,
                   now() - make_interval(secs => ((g / ${T}) + 0.3 + 0.4 * random()) * 365 * 86400.0 / ${perTenant}) AS at
            FROM generate_series(0, ${N - 1}) g) s
      JOIN bench_templates tpl ON tpl.k = (s.i * 31 + s.t * 7) % ${K}`
    yield* sql`INSERT INTO analysis_jobs (call_id, state, attempts, run_after, created_at, updated_at)
               SELECT call_id, CASE status WHEN 'completed' THEN 'done' WHEN 'failed' THEN 'failed' WHEN 'processing' THEN 'running' ELSE 'pending' END,
                      CASE WHEN status = 'queued' THEN 0 ELSE 1 END, created_at, created_at, COALESCE(completed_at, created_at)
               FROM calls`
    yield* sql`INSERT INTO credit_ledger (client_id, delta, reason, at)
               SELECT client_id, 1000000, 'grant', now() - interval '400 days' FROM tenants`
    yield* sql`INSERT INTO credit_ledger (client_id, delta, reason, call_id, at)
               SELECT client_id, -1, 'analysis', call_id, created_at FROM calls WHERE status IN ('completed', 'processing')`
    yield* sql`
      INSERT INTO outcome_truth (call_id, client_id, outcome, deal_value, currency, closed_at, stage, reason, notes, is_test_data,
                                 recorded_by, created_at, updated_at, lead_source, icp_label)
      SELECT c.call_id, c.client_id, o.outcome,
             CASE WHEN h % 5 < 4 THEN 2000 + (h * 7919) % 48000 END, NULL,
             CASE WHEN o.outcome IN ('won', 'lost', 'no_decision') THEN least(now(), c.created_at + interval '10 days') END,
             CASE WHEN o.outcome = 'open' THEN 'negotiation' END,
             CASE WHEN o.outcome = 'lost' THEN (ARRAY['price', 'timing', 'competitor', 'no budget'])[1 + h % 4] END,
             CASE WHEN h % 4 = 0 THEN 'Buyer asked about the discount for an annual contract; follow up with legal on the security review.' END,
             h % 50 = 0, 'usr_s' || substr(c.client_id, 6)::int,
             least(now(), c.created_at + interval '7 days'), least(now(), c.created_at + interval '7 days'),
             CASE WHEN jsonb_array_length(l.profile -> 'lead_sources') > 1
                  THEN l.profile -> 'lead_sources' -> (h % jsonb_array_length(l.profile -> 'lead_sources'))::int ->> 'label' END,
             CASE WHEN jsonb_array_length(m.profile -> 'icps') > 1
                  THEN m.profile -> 'icps' -> (h % jsonb_array_length(m.profile -> 'icps'))::int ->> 'label' END
      FROM calls c
      CROSS JOIN LATERAL (SELECT (hashtext(c.call_id)::bigint & 2147483647) AS h) hh
      CROSS JOIN LATERAL (SELECT (ARRAY['won', 'lost', 'lost', 'no_decision', 'open'])[1 + h % 5] AS outcome) o
      JOIN market_profiles m ON m.client_id = c.client_id JOIN lead_context_profiles l ON l.client_id = c.client_id
      WHERE c.status = 'completed' AND split_part(c.call_id, '_', 3)::int % 3 = 0`
    yield* sql`
      INSERT INTO tracker_mentions (tracker_id, call_id, client_id, ord, term, speaker, role, start_s, matched, quote)
      SELECT 'trk_' || split_part(call_id, '_', 2) || '_c', call_id, client_id, 0, term, 'S2', 'buyer', 61.5, term,
             'We are also looking at ' || term || ', they quoted us a lower price.'
      FROM (SELECT call_id, client_id, (ARRAY['Gong', 'Chorus', 'Clari'])[1 + split_part(call_id, '_', 3)::int % 3] AS term
            FROM calls WHERE status = 'completed' AND split_part(call_id, '_', 3)::int % 3 = 1) x
      UNION ALL
      SELECT 'trk_' || split_part(call_id, '_', 2) || '_p', call_id, client_id, 0, 'price', 'S1', 'rep', 95.2, 'price',
             'The price includes onboarding and the first year of support.'
      FROM calls WHERE status = 'completed' AND split_part(call_id, '_', 3)::int % 2 = 0`
    yield* sql`DROP TABLE bench_templates`
    // the days of the dated steps, as the worker's completion stores them (migration 0027)
    yield* storeMissingDueDays
    yield* sql`VACUUM ANALYZE`
    const [counts] = yield* sql<Seeded>`
      SELECT (SELECT count(*)::int FROM calls) AS calls, (SELECT count(*)::int FROM calls WHERE status = 'completed') AS completed,
             (SELECT count(*)::int FROM outcome_truth) AS outcomes, (SELECT count(*)::int FROM tracker_mentions) AS mentions,
             pg_database_size(current_database())::float8 AS bytes`
    return counts!
  })
