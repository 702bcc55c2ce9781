/**
 * What market intelligence keeps and changes: the staff's view of the tenants' market profiles
 * (the portal's `market_profiles` and `lead_context_profiles`, read and written here through SQL,
 * not through the portal), the calls' hygiene marks (`call_hygiene`), and the stored aggregates
 * (`market_intel_cells`, `market_intel_trend_cells`, `market_intel_hygiene_cells`,
 * `market_intel_builds`, `market_intel_changes`, one rebuild at a time by `market_intel_rebuild_lock`).
 */
import { CallId, ClientId, type PeriodType } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { GRAIN_KEYS, HYGIENE_CELL_MEASURES, MEASURES, MarketIntelQueries } from "./MarketIntelQueries.js"
import { SegmentTrendsQueries, TREND_CELL_MEASURES } from "./SegmentTrendsQueries.js"

const Json = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const ProfileRow = Schema.Struct({
  client_id: ClientId,
  company_name: Schema.String,
  is_test: Schema.Boolean,
  signup_industry: Schema.NullOr(Schema.String),
  industry_label: Schema.NullOr(Schema.String),
  market: Schema.NullOr(Json),
  lead: Schema.NullOr(Json),
  saved_by: Schema.NullOr(Schema.String),
  updated_at: NullableIsoTimestamp
})
export type ProfileRow = typeof ProfileRow.Type

export const HygieneRow = Schema.Struct({
  call_id: CallId,
  client_id: ClientId,
  marks: Json,
  excluded: Schema.Boolean,
  updated_at: IsoTimestamp
})

export class MarketIntelRepo extends Effect.Service<MarketIntelRepo>()("MarketIntelRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const queries = yield* MarketIntelQueries
    const trendQueries = yield* SegmentTrendsQueries

    // The actor type of the latest change of the tenant's market profile: staff (`admin`) or the portal.
    const profileSelect = sql`
      SELECT t.client_id, t.company_name, t.is_test, t.industry AS signup_industry,
             COALESCE(mi_label(m.profile ->> 'industry'), mi_label(t.industry)) AS industry_label,
             m.profile AS market, l.profile AS lead, m.updated_at,
             CASE WHEN m.client_id IS NULL THEN NULL
                  ELSE (SELECT a.actor_type FROM audit_logs a
                        WHERE a.client_id = t.client_id AND a.action IN ('market_profile.saved', 'market_profile.deleted')
                        ORDER BY a.at DESC, a.log_id DESC LIMIT 1) END AS saved_by
      FROM tenants t
      LEFT JOIN market_profiles m ON m.client_id = t.client_id
      LEFT JOIN lead_context_profiles l ON l.client_id = t.client_id`

    const profiles = Rows.findAll({
      Request: Schema.Void,
      Result: ProfileRow,
      execute: () => sql`${profileSelect} ORDER BY lower(t.company_name), t.client_id`
    })

    const profile = Rows.findOne({
      Request: ClientId,
      Result: ProfileRow,
      execute: (clientId) => sql`${profileSelect} WHERE t.client_id = ${clientId}`
    })

    /** The tenant's row, locked (the profile changes of one tenant apply one at a time); none for an unknown tenant. */
    const lockTenant = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({ client_id: ClientId }),
      execute: (clientId) => sql`SELECT client_id FROM tenants WHERE client_id = ${clientId} FOR UPDATE`
    })

    const saveMarket = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, profile: Schema.String }),
      execute: ({ clientId, profile }) =>
        sql`INSERT INTO market_profiles (client_id, profile, updated_at) VALUES (${clientId}, ${profile}::jsonb, now())
            ON CONFLICT (client_id) DO UPDATE SET profile = EXCLUDED.profile, updated_at = EXCLUDED.updated_at`
    })

    /** Replaces the lead sources of the tenant's lead-context profile, keeping its other fields. */
    const saveLeadSources = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, leadSources: Schema.String }),
      execute: ({ clientId, leadSources }) =>
        sql`INSERT INTO lead_context_profiles (client_id, profile, updated_at)
            VALUES (${clientId}, jsonb_build_object('lead_sources', ${leadSources}::jsonb), now())
            ON CONFLICT (client_id) DO UPDATE
              SET profile = lead_context_profiles.profile || jsonb_build_object('lead_sources', ${leadSources}::jsonb), updated_at = now()`
    })

    const deleteMarket = Rows.findAll({
      Request: ClientId,
      Result: Schema.Struct({ client_id: ClientId }),
      execute: (clientId) => sql`DELETE FROM market_profiles WHERE client_id = ${clientId} RETURNING client_id`
    })

    /** The call's tenant; none for an unknown call. */
    const callTenant = Rows.findOne({
      Request: CallId,
      Result: Schema.Struct({ client_id: ClientId }),
      execute: (callId) => sql`SELECT client_id FROM calls WHERE call_id = ${callId} FOR UPDATE`
    })

    const setHygiene = Rows.single({
      Request: Schema.Struct({ callId: CallId, clientId: ClientId, marks: Schema.String, excluded: Schema.Boolean, by: Schema.String }),
      Result: HygieneRow,
      execute: (h) =>
        sql`INSERT INTO call_hygiene (call_id, client_id, marks, excluded, updated_by, updated_at)
            VALUES (${h.callId}, ${h.clientId}, ${h.marks}::jsonb, ${h.excluded}, ${h.by}, now())
            ON CONFLICT (call_id) DO UPDATE SET marks = EXCLUDED.marks, excluded = EXCLUDED.excluded,
                                                updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at
            RETURNING call_id, client_id, marks, excluded, updated_at`
    })

    // --- the stored aggregates ---------------------------------------------------------------

    /** Takes the rebuild lock (a holder older than an hour is taken over); none while another holds it. */
    const takeLock = Rows.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ holder: Schema.String }),
      execute: (holder) =>
        sql`UPDATE market_intel_rebuild_lock SET holder = ${holder}, running_since = now()
            WHERE id AND (running_since IS NULL OR running_since < now() - interval '1 hour')
            RETURNING holder`
    })

    const lockHolder = Rows.single({
      Request: Schema.Void,
      Result: Schema.Struct({ running_since: NullableIsoTimestamp }),
      execute: () => sql`SELECT running_since FROM market_intel_rebuild_lock WHERE id`
    })

    const releaseLock = Rows.execute({
      Request: Schema.String,
      execute: (holder) => sql`UPDATE market_intel_rebuild_lock SET holder = NULL, running_since = NULL WHERE id AND holder = ${holder}`
    })

    /**
     * Forgets the stored periods that went stale (a change their build did not see): reads compute
     * them anyway, and a stale period would only gather change rows until rebuilt. Their cells and
     * change rows go with them, and change rows left without a build (a transaction that committed
     * after its period was forgotten).
     */
    const pruneStale = Rows.execute({
      Request: Schema.Void,
      execute: () =>
        sql`WITH stale AS (
              DELETE FROM market_intel_builds b
              WHERE b.snapshot IS NULL
                 OR EXISTS (SELECT 1 FROM market_intel_changes ch
                            WHERE ch.period_type = b.period_type AND ch.period_start = b.period_start
                              AND NOT pg_visible_in_snapshot(ch.txid, b.snapshot))
              RETURNING b.period_type, b.period_start),
            cells AS (
              DELETE FROM market_intel_cells c USING stale s WHERE c.period_type = s.period_type AND c.period_start = s.period_start),
            trend_cells AS (
              DELETE FROM market_intel_trend_cells c USING stale s WHERE c.period_type = s.period_type AND c.period_start = s.period_start),
            hygiene_cells AS (
              DELETE FROM market_intel_hygiene_cells c USING stale s WHERE c.period_type = s.period_type AND c.period_start = s.period_start)
            DELETE FROM market_intel_changes ch
            WHERE NOT EXISTS (SELECT 1 FROM market_intel_builds b
                              WHERE b.period_type = ch.period_type AND b.period_start = ch.period_start)
               OR EXISTS (SELECT 1 FROM stale s WHERE s.period_type = ch.period_type AND s.period_start = ch.period_start)`
    })

    /**
     * Registers the periods about to be built, so that changes to their data are logged from now on
     * (the triggers log changes of built periods only); answers those registered for the first time.
     */
    const registerBuilds = Rows.findAll({
      Request: Schema.Struct({ type: Schema.String, starts: Schema.Array(Schema.String) }),
      Result: Schema.Struct({ period_start: Schema.String }),
      execute: ({ starts, type }) =>
        sql`INSERT INTO market_intel_builds (period_type, period_start)
            SELECT ${type}, s FROM unnest(${starts}::date[]) AS s
            ON CONFLICT DO NOTHING
            RETURNING to_char(period_start, 'YYYY-MM-DD') AS period_start`
    })

    /**
     * A transaction in progress when new periods were registered may have changed their data without
     * logging it (its trigger ran before they were): log a change of those periods for each such
     * transaction of this database, so a build that does not see it stays stale. (The snapshot's
     * transactions are the whole server's: another database's would keep the periods stale for
     * nothing. Transaction ids compare by their 32 low bits, `backend_xid` has no epoch.)
     */
    const logInFlight = Rows.execute({
      Request: Schema.Struct({ type: Schema.String, starts: Schema.Array(Schema.String) }),
      execute: ({ starts, type }) =>
        sql`INSERT INTO market_intel_changes (period_type, period_start, txid)
            SELECT ${type}, s, x FROM unnest(${starts}::date[]) AS s, pg_snapshot_xip(pg_current_snapshot()) AS x
            WHERE x::text::bigint % 4294967296 IN (
              SELECT backend_xid::text::bigint FROM pg_stat_activity
              WHERE datname = current_database() AND backend_xid IS NOT NULL)`
    })

    const snapshot = Rows.single({
      Request: Schema.Void,
      Result: Schema.Struct({ snapshot: Schema.String }),
      execute: () => sql`SELECT pg_current_snapshot()::text AS snapshot`
    })

    /** The stored aggregates of the periods, every kind. */
    const deleteCells = Rows.execute({
      Request: Schema.Struct({ type: Schema.String, starts: Schema.Array(Schema.String) }),
      execute: ({ starts, type }) =>
        sql`WITH trend_cells AS (
              DELETE FROM market_intel_trend_cells WHERE period_type = ${type} AND period_start = ANY(${starts}::date[])),
            hygiene_cells AS (
              DELETE FROM market_intel_hygiene_cells WHERE period_type = ${type} AND period_start = ANY(${starts}::date[]))
            DELETE FROM market_intel_cells WHERE period_type = ${type} AND period_start = ANY(${starts}::date[])`
    })

    const columns = sql.join(", ", false)(["period_type", ...GRAIN_KEYS, ...MEASURES.map(([name]) => name)].map((c) => sql.literal(c)))

    /** Computes the grain of [from, to) and stores it; answers the rows written per period. */
    const writeCells = Rows.findAll({
      Request: Schema.Struct({ type: Schema.String, from: Schema.String, to: Schema.String }),
      Result: Schema.Struct({ period_start: Schema.String, rows: Schema.Number }),
      execute: ({ from, to, type }) =>
        sql`WITH written AS (
              INSERT INTO market_intel_cells (${columns})
              SELECT ${type}, g.* FROM (${queries.grain(type as PeriodType, from, to)}) g
              RETURNING period_start)
            SELECT to_char(period_start, 'YYYY-MM-DD') AS period_start, count(*)::int AS rows FROM written GROUP BY 1`
    })

    const trendColumns = sql.literal(["period_type", "period_start", "industry", "icp", "client_id", "term", ...TREND_CELL_MEASURES].join(", "))

    /** Computes the per-segment trends' grain of [from, to) (by when the calls took place) and stores it. */
    const writeTrendCells = Rows.execute({
      Request: Schema.Struct({ type: Schema.String, from: Schema.String, to: Schema.String }),
      execute: ({ from, to, type }) =>
        sql`INSERT INTO market_intel_trend_cells (${trendColumns})
            SELECT ${type}, g.* FROM (${trendQueries.periodGrain(type as PeriodType, from, to)}) g`
    })

    const hygieneColumns = sql.literal(["period_type", "period_start", "client_id", ...HYGIENE_CELL_MEASURES].join(", "))

    /** Computes the data-hygiene counts of [from, to) per period and tenant (by when the calls were made) and stores them. */
    const writeHygieneCells = Rows.execute({
      Request: Schema.Struct({ type: Schema.String, from: Schema.String, to: Schema.String }),
      execute: ({ from, to, type }) =>
        sql`INSERT INTO market_intel_hygiene_cells (${hygieneColumns})
            SELECT ${type}, g.* FROM (${queries.hygieneGrain(type as PeriodType, from, to)}) g`
    })

    const markBuilt = Rows.execute({
      Request: Schema.Struct({ type: Schema.String, snapshot: Schema.String, rows: Schema.String }),
      execute: ({ rows, snapshot, type }) =>
        sql`UPDATE market_intel_builds b SET snapshot = ${snapshot}::pg_snapshot, built_at = now(), rows_written = r.rows
            FROM jsonb_to_recordset(${rows}::jsonb) AS r(period_start date, rows int)
            WHERE b.period_type = ${type} AND b.period_start = r.period_start`
    })

    /** Forgets the changes of the periods that their new build saw. */
    const dropSeenChanges = Rows.execute({
      Request: Schema.Struct({ type: Schema.String, starts: Schema.Array(Schema.String), snapshot: Schema.String }),
      execute: ({ snapshot, starts, type }) =>
        sql`DELETE FROM market_intel_changes
            WHERE period_type = ${type} AND period_start = ANY(${starts}::date[])
              AND pg_visible_in_snapshot(txid, ${snapshot}::pg_snapshot)`
    })

    return {
      profiles: profiles(undefined),
      profile,
      lockTenant,
      saveMarket,
      saveLeadSources,
      deleteMarket: (clientId: ClientId) => Effect.map(deleteMarket(clientId), (rows) => rows.length > 0),
      callTenant,
      setHygiene,
      takeLock,
      lockHolder: Effect.map(lockHolder(undefined), (r) => r.running_since),
      releaseLock,
      pruneStale: pruneStale(undefined),
      registerBuilds: (type: PeriodType, starts: ReadonlyArray<string>) =>
        Effect.map(registerBuilds({ type, starts }), (rows) => rows.map((r) => r.period_start)),
      logInFlight: (type: PeriodType, starts: ReadonlyArray<string>) => logInFlight({ type, starts }),
      snapshot: Effect.map(snapshot(undefined), (r) => r.snapshot),
      deleteCells: (type: PeriodType, starts: ReadonlyArray<string>) => deleteCells({ type, starts }),
      writeCells: (type: PeriodType, from: string, to: string) => writeCells({ type, from, to }),
      writeTrendCells: (type: PeriodType, from: string, to: string) => writeTrendCells({ type, from, to }),
      writeHygieneCells: (type: PeriodType, from: string, to: string) => writeHygieneCells({ type, from, to }),
      markBuilt: (type: PeriodType, snapshot: string, rows: ReadonlyArray<{ period_start: string; rows: number }>) =>
        markBuilt({ type, snapshot, rows: JSON.stringify(rows) }),
      dropSeenChanges: (type: PeriodType, starts: ReadonlyArray<string>, snapshot: string) => dropSeenChanges({ type, starts, snapshot })
    } as const
  }),
  dependencies: [MarketIntelQueries.Default, SegmentTrendsQueries.Default]
}) {}
