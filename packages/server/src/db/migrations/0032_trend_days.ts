/**
 * The trends' numbers per tenant, closer and day (issue 39; views/TrendsQueries.ts, docs/trends.md).
 *
 * The trends summed every completed call of their window: at 100,000 calls in one tenant a year by
 * month read, ranked and summed ~90,000 calls three times (the numbers, the competitors' mentions,
 * the steps kept and slipped), each statement ~500 ms. Every one of those numbers is a sum over
 * calls, and a period is a run of whole UTC days (weeks from Monday, months; only a window's first
 * and last day can be cut by `since`, `until` or a time zone's midnight). So the database keeps them
 * per day:
 *
 * - `trend_day_rows(client, lo, hi)`: the tenant's completed calls that took place in [lo, hi)
 *   summed per closer (`ck`, the e-mail in lower case; null for none) and UTC day: for each number
 *   (`s_<metric>` its sum, `n_<metric>` its calls: the counts `calls` … `dated`, the scores
 *   `overall` … `conversation_flow`, the order of `COUNT_METRICS` and `SCORE_METRICS`, then `kept`
 *   and `slipped`), the spelling of the closer's e-mail on the newest call, the newest call's time,
 *   the call of the lowest overall score (the newest of equals), and the calls among the newest 10 of
 *   any number that day (`ids`, `times` in ms, `metrics`: bit k for the k-th number).
 * - Steps kept and slipped (the deal timeline's rule, views/Trends.ts `stepState`): a dated step of a
 *   deal's call is kept when the deal's next completed call took place before the end of the day
 *   after its due; that does not depend on when the trends are read, so `kept` is summed. A step not
 *   kept is slipped once its deadline has passed, which does: its deadline is kept with it. Those
 *   within 31 days of the call's day (`near`; nearly all) are summed as `slipped`, which a reader
 *   uses for a day 31 days past (every near deadline passed) and lists (`near_*`) for a newer day;
 *   the others (`far_*`: "next year") are listed, with whether their call has no near one (`far_new`).
 * - `trend_day_term_rows(client, lo, hi)`: the Competitors tracker's mentions (`tracker_mentions` of
 *   the tracker whose `source` is `market_profile`) per closer, day and term (null: all terms), with
 *   the calls and the newest 10 of them.
 * - `trend_days` and `trend_day_terms` hold those rows for every day of every tenant. The trends
 *   read the whole days of a window from them, and sum the cut ends with the functions: one
 *   definition of a day's numbers.
 *
 * Kept in step whoever writes, by statement triggers: a change to a completed call (inserted,
 * deleted, completed or no longer, its time, closer, deal, score, facts or due days changed) or to
 * a Competitors mention marks its day and closer stale (`trend_days_stale`), and those of the deal's
 * call before it, whose next call it may have been (the mark taken as a row lock: `DO UPDATE`). A
 * trends read first sums again the stale days of its range (`trend_days_refresh`, one day per
 * statement, a closer's day of ~10 calls at 100,000 a year: 1–2 ms; so a settling read holds one mark at a time and cannot deadlock with a writer), the
 * mark removed in the same transaction as the sums are written: a writer that marked the day and has
 * not committed holds the mark, and the removal waits for it; a writer that marks it after the
 * removal waits for the read to commit, then marks it again. Writes stay cheap (a re-match of every
 * call's mentions, 100,000 calls inserted at once: a mark per day), and a read sums again only the
 * days written since.
 * `TRUNCATE` fires no row trigger: nothing in the service truncates these tables; a tracker's
 * `source` is set when it is made and never changed.
 *
 * PostgreSQL and embedded PGlite alike. Filled here for the calls already there.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const FACT = { objections: 1, price: 2, budget: 3, timing: 4, authority: 5, need: 6, competitor: 7, pains: 8, said: 9, dated: 10 }
const DIMENSION_FACTS = { discovery: 11, listening: 13, objection_handling: 15, value: 17, next_steps: 19, conversation_flow: 21 }
/** The metrics in the trends' order (views/TrendsQueries.ts `COUNT_METRICS`, `SCORE_METRICS`, then the steps), as a call's `has` and `sum`. */
export const METRICS: ReadonlyArray<{ name: string; has: string; sum: string }> = [
  { name: "calls", has: "true", sum: "1" },
  ...Object.entries(FACT).map(([name, i]) => ({ name, has: `f${i} > 0`, sum: `f${i}` })),
  { name: "overall", has: "overall_score IS NOT NULL", sum: "overall_score" },
  ...Object.entries(DIMENSION_FACTS).map(([name, i]) => ({ name, has: `f${i + 1} > 0`, sum: `f${i}` })),
  { name: "kept", has: "kept > 0", sum: "kept" },
  { name: "slipped", has: "near > 0", sum: "near" }
]
/** The newest calls kept per number and day. */
export const MAX = 10
const FACTS = 22
/** A step's deadline is near when within this many days of its call's day. */
const NEAR_DAYS = 31

const metricColumns = METRICS.map((m) => `s_${m.name}, n_${m.name}`).join(", ")
export const DAY_COLUMNS = `ck, day, closer_email, newest_ms, lowest_score, lowest_ms, lowest_call_id, ${metricColumns}, ids, times, metrics,
  near_ids, near_ms, near_deadlines, far_ids, far_ms, far_deadlines, far_new`
export const TERM_COLUMNS = "ck, day, term, mentions, calls, ids, times"

const DAY_ROWS = `
  CREATE FUNCTION trend_day_rows(p_client text, p_lo timestamptz, p_hi timestamptz, p_all boolean DEFAULT true, p_ck text DEFAULT NULL)
  RETURNS TABLE (ck text, day date, closer_email text, newest_ms float8, lowest_score float8, lowest_ms float8, lowest_call_id text,
                 ${METRICS.map((m) => `s_${m.name} float8, n_${m.name} int`).join(", ")},
                 ids text[], times float8[], metrics int[],
                 near_ids text[], near_ms float8[], near_deadlines float8[],
                 far_ids text[], far_ms float8[], far_deadlines float8[], far_new boolean[])
  LANGUAGE plpgsql STABLE AS $$
  #variable_conflict use_column
  BEGIN
    RETURN QUERY
    WITH calls_in AS (
      SELECT c.call_id, c.closer_email, lower(c.closer_email) AS ck, (c.occurred_at AT TIME ZONE 'UTC')::date AS day, c.occurred_at,
             extract(epoch FROM c.occurred_at)::float8 * 1000 AS ms, c.overall_score, c.deal_id, c.trend_due_days,
             ${Array.from({ length: FACTS }, (_, i) => `COALESCE(x.tf[${i + 1}], 0) AS f${i + 1}`).join(", ")}
      FROM calls c, LATERAL (SELECT c.trend_facts || '{}'::float8[] AS tf OFFSET 0) x
      WHERE c.client_id = p_client AND c.status = 'completed' AND c.occurred_at >= p_lo AND c.occurred_at < p_hi
        AND (p_all OR lower(c.closer_email) IS NOT DISTINCT FROM p_ck)),
    -- each dated step of a deal's call, its deadline (ms) and whether the deal's next completed call kept it
    steps AS (
      SELECT s.call_id, s.ck, s.day, s.ms, extract(epoch FROM s.deadline)::float8 * 1000 AS deadline, COALESCE(s.next_at < s.deadline, false) AS kept,
             s.deadline <= (s.day + ${NEAR_DAYS})::timestamp AT TIME ZONE 'UTC' AS near
      FROM (SELECT b.call_id, b.ck, b.day, b.ms, (d + 2)::timestamp AT TIME ZONE 'UTC' AS deadline,
                   (SELECT min(n.occurred_at) FROM calls n
                    WHERE n.deal_id = b.deal_id AND n.client_id = p_client AND n.status = 'completed' AND n.deal_id IS NOT NULL
                      AND n.occurred_at >= date_trunc('milliseconds', b.occurred_at) + interval '1 millisecond') AS next_at
            FROM calls_in b, unnest(b.trend_due_days) AS d
            WHERE b.deal_id IS NOT NULL AND d IS NOT NULL) s),
    per_call AS (
      SELECT call_id, count(*) FILTER (WHERE kept) AS kept, count(*) FILTER (WHERE NOT kept AND near) AS near FROM steps GROUP BY call_id),
    base AS (
      SELECT b.*, COALESCE(p.kept, 0) AS kept, COALESCE(p.near, 0) AS near FROM calls_in b LEFT JOIN per_call p USING (call_id)),
    ranked AS (
      SELECT base.*, ${METRICS.map((m, k) => `count(*) FILTER (WHERE ${m.has}) OVER win AS r${k}`).join(", ")}
      FROM base WINDOW win AS (PARTITION BY ck, day ORDER BY occurred_at DESC, call_id DESC)),
    marked AS (
      SELECT ranked.*, ${METRICS.map((m, k) => `CASE WHEN ${m.has} AND r${k} <= ${MAX} THEN ${2 ** k} ELSE 0 END`).join(" + ")} AS m
      FROM ranked OFFSET 0),
    sums AS (
      SELECT ck, day, max(closer_email) FILTER (WHERE r0 = 1) AS closer_email, max(ms) AS newest_ms, min(overall_score) AS lowest_score,
             (array_agg(ms ORDER BY overall_score, occurred_at DESC, call_id DESC) FILTER (WHERE overall_score IS NOT NULL))[1] AS lowest_ms,
             (array_agg(call_id ORDER BY overall_score, occurred_at DESC, call_id DESC) FILTER (WHERE overall_score IS NOT NULL))[1] AS lowest_call_id,
             ${METRICS.map((m) => `COALESCE(sum(${m.sum}) FILTER (WHERE ${m.has}), 0)::float8 AS s_${m.name}, (count(*) FILTER (WHERE ${m.has}))::int AS n_${m.name}`).join(",\n             ")},
             COALESCE(array_agg(call_id) FILTER (WHERE m <> 0), '{}'::text[]) AS ids,
             COALESCE(array_agg(ms) FILTER (WHERE m <> 0), '{}'::float8[]) AS times,
             COALESCE(array_agg(m) FILTER (WHERE m <> 0), '{}'::int[]) AS metrics
      FROM marked GROUP BY ck, day),
    -- the steps not kept, one entry each: near ones, and far ones with whether their call has no near one
    unkept AS (
      SELECT s.ck, s.day,
             array_agg(s.call_id) FILTER (WHERE s.near) AS near_ids, array_agg(s.ms) FILTER (WHERE s.near) AS near_ms,
             array_agg(s.deadline) FILTER (WHERE s.near) AS near_deadlines,
             array_agg(s.call_id) FILTER (WHERE NOT s.near) AS far_ids, array_agg(s.ms) FILTER (WHERE NOT s.near) AS far_ms,
             array_agg(s.deadline) FILTER (WHERE NOT s.near) AS far_deadlines, array_agg(p.near = 0) FILTER (WHERE NOT s.near) AS far_new
      FROM steps s JOIN per_call p USING (call_id) WHERE NOT s.kept GROUP BY s.ck, s.day)
    SELECT s.ck, s.day, s.closer_email, s.newest_ms, s.lowest_score, s.lowest_ms, s.lowest_call_id,
           ${METRICS.map((m) => `s.s_${m.name}, s.n_${m.name}`).join(", ")}, s.ids, s.times, s.metrics,
           COALESCE(u.near_ids, '{}'), COALESCE(u.near_ms, '{}'), COALESCE(u.near_deadlines, '{}'),
           COALESCE(u.far_ids, '{}'), COALESCE(u.far_ms, '{}'), COALESCE(u.far_deadlines, '{}'), COALESCE(u.far_new, '{}')
    FROM sums s LEFT JOIN unkept u ON u.ck IS NOT DISTINCT FROM s.ck AND u.day = s.day;
  END
  $$`

const TERM_ROWS = `
  CREATE FUNCTION trend_day_term_rows(p_client text, p_lo timestamptz, p_hi timestamptz, p_all boolean DEFAULT true, p_ck text DEFAULT NULL)
  RETURNS TABLE (ck text, day date, term text, mentions int, calls int, ids text[], times float8[])
  LANGUAGE plpgsql STABLE AS $$
  #variable_conflict use_column
  BEGIN
    RETURN QUERY
    WITH per AS (
      SELECT c.call_id, lower(c.closer_email) AS ck, (c.occurred_at AT TIME ZONE 'UTC')::date AS day, c.occurred_at,
             extract(epoch FROM c.occurred_at)::float8 * 1000 AS ms, m.term, count(*)::int AS n
      FROM calls c
      JOIN tracker_mentions m ON m.call_id = c.call_id AND m.client_id = p_client
      JOIN trackers t ON t.tracker_id = m.tracker_id AND t.client_id = p_client AND t.source = 'market_profile'
      WHERE c.client_id = p_client AND c.status = 'completed' AND c.occurred_at >= p_lo AND c.occurred_at < p_hi
        AND (p_all OR lower(c.closer_email) IS NOT DISTINCT FROM p_ck)
      GROUP BY c.call_id, c.closer_email, c.occurred_at, m.term),
    every AS (
      SELECT call_id, ck, day, occurred_at, ms, term, n FROM per
      UNION ALL
      SELECT call_id, ck, day, occurred_at, ms, NULL, sum(n)::int FROM per GROUP BY call_id, ck, day, occurred_at, ms),
    ranked AS (SELECT every.*, row_number() OVER (PARTITION BY ck, day, term ORDER BY occurred_at DESC, call_id DESC) AS r FROM every)
    SELECT ck, day, term, sum(n)::int, count(*)::int, array_agg(call_id) FILTER (WHERE r <= ${MAX}), array_agg(ms) FILTER (WHERE r <= ${MAX})
    FROM ranked GROUP BY ck, day, term;
  END
  $$`

/**
 * A tenant's stale day summed again, its mark removed first: the removal holds the mark's row until
 * the sums are written and committed (one statement, one transaction), so a writer marking the day
 * meanwhile waits and marks it again, and another settling it waits and then finds no mark (nothing
 * to do). A writer that marked it first holds the mark until it commits, and this waits for it.
 */
export const REFRESH_DAY_DECLARE = `lo timestamptz := p_day::timestamp AT TIME ZONE 'UTC';
          hi timestamptz := (p_day + 1)::timestamp AT TIME ZONE 'UTC';`
/** The body of `trend_days_refresh` (migration 0033 adds to it). */
export const REFRESH_DAY_BODY = `
    DELETE FROM trend_days_stale WHERE client_id = p_client AND day = p_day AND ck IS NOT DISTINCT FROM p_ck;
    IF NOT FOUND THEN RETURN; END IF;
    DELETE FROM trend_days WHERE client_id = p_client AND day = p_day AND ck IS NOT DISTINCT FROM p_ck;
    INSERT INTO trend_days (client_id, ${DAY_COLUMNS}) SELECT p_client, r.* FROM trend_day_rows(p_client, lo, hi, false, p_ck) r;
    DELETE FROM trend_day_terms WHERE client_id = p_client AND day = p_day AND ck IS NOT DISTINCT FROM p_ck;
    INSERT INTO trend_day_terms (client_id, ${TERM_COLUMNS}) SELECT p_client, r.* FROM trend_day_term_rows(p_client, lo, hi, false, p_ck) r;`
const REFRESH_DAY = `
  CREATE FUNCTION trend_days_refresh(p_client text, p_day date, p_ck text) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE ${REFRESH_DAY_DECLARE}
  BEGIN${REFRESH_DAY_BODY}
  END $$`

/** What a call's day is summed from: a change to any of these (or to the status, from or to completed) marks the day stale. */
const counted = (r: string) =>
  `(${r}.client_id, ${r}.occurred_at, ${r}.closer_email, ${r}.overall_score, ${r}.trend_facts, ${r}.trend_due_days, ${r}.deal_id)`

const CALLS_CHANGED = `
  CREATE FUNCTION trend_days_calls_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE cl text[];
          dl text[];
          oc timestamptz[];
          ce text[];
  BEGIN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(n.client_id), array_agg(n.deal_id), array_agg(n.occurred_at), array_agg(lower(n.closer_email)) INTO cl, dl, oc, ce
      FROM new_rows n WHERE n.status = 'completed';
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(o.client_id), array_agg(o.deal_id), array_agg(o.occurred_at), array_agg(lower(o.closer_email)) INTO cl, dl, oc, ce
      FROM old_rows o WHERE o.status = 'completed';
    ELSE
      SELECT array_agg(x.client_id), array_agg(x.deal_id), array_agg(x.occurred_at), array_agg(lower(x.closer_email)) INTO cl, dl, oc, ce FROM (
        SELECT o.client_id, o.deal_id, o.occurred_at, o.closer_email FROM old_rows o JOIN new_rows n ON n.call_id = o.call_id
        WHERE o.status = 'completed' AND (n.status <> 'completed' OR ${counted("o")} IS DISTINCT FROM ${counted("n")})
        UNION ALL
        SELECT n.client_id, n.deal_id, n.occurred_at, n.closer_email FROM new_rows n LEFT JOIN old_rows o ON o.call_id = n.call_id
        WHERE n.status = 'completed' AND (o.call_id IS NULL OR o.status <> 'completed' OR ${counted("o")} IS DISTINCT FROM ${counted("n")})) x;
    END IF;
    IF cl IS NULL THEN RETURN NULL; END IF;
    -- the calls' days, and the day of each deal's call before them (whose next call they may have been)
    INSERT INTO trend_days_stale (client_id, day, ck)
    SELECT DISTINCT k.client_id, k.day, k.ck FROM (
      SELECT x.c AS client_id, (x.o AT TIME ZONE 'UTC')::date AS day, x.k AS ck FROM unnest(cl, dl, oc, ce) AS x(c, d, o, k)
      UNION ALL
      SELECT p.client_id, (p.occurred_at AT TIME ZONE 'UTC')::date, lower(p.closer_email)
      FROM unnest(cl, dl, oc) AS x(c, d, o)
      CROSS JOIN LATERAL (
        SELECT q.client_id, q.occurred_at, q.closer_email FROM calls q
        WHERE q.deal_id = x.d AND q.status = 'completed' AND q.deal_id IS NOT NULL AND q.occurred_at < date_trunc('milliseconds', x.o)
        ORDER BY q.occurred_at DESC LIMIT 1) p
      WHERE x.d IS NOT NULL) k
    WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.client_id = k.client_id) -- (not a tenant being deleted)
    ORDER BY 1, 2, 3
    ON CONFLICT (client_id, day, ck) DO UPDATE SET marked_at = now();
    RETURN NULL;
  END $$`

const MENTIONS_CHANGED = `
  CREATE FUNCTION trend_days_mentions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
      INSERT INTO trend_days_stale (client_id, day, ck)
      SELECT DISTINCT c.client_id, (c.occurred_at AT TIME ZONE 'UTC')::date, lower(c.closer_email)
      FROM new_rows m JOIN calls c ON c.call_id = m.call_id JOIN trackers t ON t.tracker_id = m.tracker_id AND t.source = 'market_profile'
      WHERE c.status = 'completed' AND EXISTS (SELECT 1 FROM tenants x WHERE x.client_id = c.client_id) ORDER BY 1, 2, 3
      ON CONFLICT (client_id, day, ck) DO UPDATE SET marked_at = now();
    END IF;
    IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
      INSERT INTO trend_days_stale (client_id, day, ck)
      SELECT DISTINCT c.client_id, (c.occurred_at AT TIME ZONE 'UTC')::date, lower(c.closer_email)
      FROM old_rows m JOIN calls c ON c.call_id = m.call_id LEFT JOIN trackers t ON t.tracker_id = m.tracker_id
      WHERE c.status = 'completed' AND (t.tracker_id IS NULL OR t.source = 'market_profile') -- (a tracker deleted: its mentions with it)
        AND EXISTS (SELECT 1 FROM tenants x WHERE x.client_id = c.client_id) ORDER BY 1, 2, 3
      ON CONFLICT (client_id, day, ck) DO UPDATE SET marked_at = now();
    END IF;
    RETURN NULL;
  END $$`

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
    CREATE TABLE trend_days (
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      ck text,
      day date NOT NULL,
      closer_email text,
      newest_ms float8 NOT NULL,
      lowest_score float8,
      lowest_ms float8,
      lowest_call_id text,
      ${METRICS.map((m) => `s_${m.name} float8 NOT NULL, n_${m.name} int NOT NULL`).join(",\n      ")},
      ids text[] NOT NULL,
      times float8[] NOT NULL,
      metrics int[] NOT NULL,
      near_ids text[] NOT NULL,
      near_ms float8[] NOT NULL,
      near_deadlines float8[] NOT NULL,
      far_ids text[] NOT NULL,
      far_ms float8[] NOT NULL,
      far_deadlines float8[] NOT NULL,
      far_new boolean[] NOT NULL,
      UNIQUE NULLS NOT DISTINCT (client_id, day, ck)
    )`)
  yield* sql`
    CREATE TABLE trend_day_terms (
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      ck text,
      day date NOT NULL,
      term text,
      mentions int NOT NULL,
      calls int NOT NULL,
      ids text[] NOT NULL,
      times float8[] NOT NULL,
      UNIQUE NULLS NOT DISTINCT (client_id, day, ck, term)
    )`
  yield* sql`
    CREATE TABLE trend_days_stale (
      client_id text NOT NULL REFERENCES tenants (client_id) ON DELETE CASCADE,
      day date NOT NULL,
      ck text,
      marked_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE NULLS NOT DISTINCT (client_id, day, ck)
    )`
  for (const statement of [DAY_ROWS, TERM_ROWS, REFRESH_DAY, CALLS_CHANGED, MENTIONS_CHANGED]) yield* sql.unsafe(statement)
  for (const [event, tables] of [["INSERT", "NEW TABLE AS new_rows"], ["UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"], ["DELETE", "OLD TABLE AS old_rows"]]) {
    yield* sql.unsafe(`CREATE TRIGGER calls_trend_days_${event.toLowerCase()} AFTER ${event} ON calls REFERENCING ${tables}
                       FOR EACH STATEMENT EXECUTE FUNCTION trend_days_calls_changed()`)
    yield* sql.unsafe(`CREATE TRIGGER tracker_mentions_trend_days_${event.toLowerCase()} AFTER ${event} ON tracker_mentions REFERENCING ${tables}
                       FOR EACH STATEMENT EXECUTE FUNCTION trend_days_mentions_changed()`)
  }
  yield* sql.unsafe(`
    INSERT INTO trend_days (client_id, ${DAY_COLUMNS})
    SELECT t.client_id, r.* FROM tenants t, LATERAL trend_day_rows(t.client_id, '-infinity', 'infinity') r`)
  yield* sql.unsafe(`
    INSERT INTO trend_day_terms (client_id, ${TERM_COLUMNS})
    SELECT t.client_id, r.* FROM tenants t, LATERAL trend_day_term_rows(t.client_id, '-infinity', 'infinity') r`)
})
