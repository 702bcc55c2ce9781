/**
 * The workspace search's one statement: the tenant's matching rows of every searchable table (the
 * `tsvector` documents of migration 0012, each behind its GIN index; the transcripts' in the narrow
 * `call_transcript_search` of migration 0029), ranked together, one page
 * of them kept (`offset`, `limit`), and only for those the costly parts: `ts_headline` snippets and, for transcript
 * hits, the segment of the stored transcript that matches best (its `start` is the second the hit
 * is at). Every branch filters on the tenant; the query is `websearch_to_tsquery('english', q)`.
 *
 * Ranking a transcript reads its document, stored out of line: of a query matching more than
 * `RANKED` transcripts (a common word, in most calls), only the newest `RANKED` transcript hits are
 * ranked, the older ones follow every ranked hit, newest first (issue 39; see `RANKED`). The other
 * documents are small and in the row: every hit of them is ranked.
 *
 * Every branch filters on whose calls the viewer sees too (`Sees.ts`), before the ranking, so the
 * `total` counts only hits the viewer may see: calls and transcripts by their `closer_email`,
 * outcome and manual-audit notes by their call's, and closers by their own e-mail (see
 * `SearchRepo.search`).
 */
import { CallId, ClientId, type Sees } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { SeesSchema, seenBy } from "../tenancy/Sees.js"

export const SearchRow = Schema.Struct({
  kind: Schema.Literal("call", "transcript", "closer", "note"),
  id: Schema.String,
  call_id: Schema.NullOr(CallId),
  title: Schema.String,
  snippet: Schema.String,
  rank: Schema.Number,
  at: Schema.NullOr(IsoTimestamp),
  start: Schema.NullOr(Schema.Number),
  total: Schema.Number
})
export type SearchRow = typeof SearchRow.Type

const CountRequest = Schema.Struct({ tenantId: ClientId, sees: SeesSchema, q: Schema.String })
const SearchRequest = Schema.Struct({ ...CountRequest.fields, limit: Schema.Number, offset: Schema.Number })

/**
 * `ts_headline` options: the matches in `<b>`, one passage of at most 35 words around them (a
 * transcript segment or a note shorter than that whole, its punctuation kept: fragment mode would
 * trim it at the first and last word).
 */
const HEADLINE = "StartSel=<b>, StopSel=</b>, MaxWords=35, MinWords=15, ShortWord=2"

/**
 * How many transcript hits are ranked: the newest this many of the viewer's (issue 39). A call's
 * transcript document (a few kB) is stored out of line, and ranking it reads it: a common word is
 * in most transcripts (two thirds of 100,000 calls for "pricing"), and ranking them all took most
 * of a second. So of a query matching more transcripts than this, the newest this many (by
 * `created_at`, then `call_id`) are ranked as before; the older ones are still hits (in `total`,
 * on the later pages) but come after every ranked hit, newest first, each page showing their own
 * rank. A query matching this many transcripts or fewer (nearly every query of a rep, whose calls
 * are theirs only) is ranked exactly as before.
 */
export const RANKED = 500

export class SearchRepo extends Effect.Service<SearchRepo>()("SearchRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Text made safe to show as HTML before the `<b>` marks are added around its matches. */
    const escaped = (text: string) => sql.literal(`replace(replace(replace(${text}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`)
    const callTitle = (c: string) =>
      sql.literal(
        `'Call ' || coalesce(${c}.external_call_id, ${c}.call_id) || coalesce(' · ' || ${c}.closer_email, '') || ' · ' || ` +
          `to_char(${c}.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
      )

    /**
     * That the call a note is about (`column`: its `call_id`) is one the viewer sees; for the team,
     * no condition (no lookup of the call).
     */
    const aboutSeenCall = (tenantId: string, sees: Sees, column: string) =>
      sees._tag === "Team"
        ? sql`true`
        : sql`EXISTS (SELECT 1 FROM calls sc WHERE sc.call_id = ${sql.literal(column)} AND sc.client_id = ${tenantId}
                                              AND ${seenBy(sql, sees, "sc.closer_email")})`

    /**
     * Whose hits: the team's for managers; for a rep, their own calls, the outcome and manual-audit
     * notes of those calls, and of the closers only their own row. A rep does not find the other
     * closers by name, team or e-mail: the roster has its own operation (`listClosers`), and a hit
     * on a colleague would say nothing about the rep's calls, so search keeps to the safe side. A
     * member who is no closer finds nothing. The statement's first part, `WITH q …, th …, others …`:
     * every hit the viewer may see, the transcript hits (`th`) unranked (see `RANKED`), the others
     * ranked, not against each other yet. `total` is the rows of both.
     */
    const hitsOf = ({ q, sees, tenantId }: typeof CountRequest.Encoded) =>
      sql`
          WITH q AS (SELECT websearch_to_tsquery('english', ${q}) AS query),
          -- the transcript hits: found by the index, their documents not read
          th AS MATERIALIZED (
            SELECT t.call_id, t.created_at FROM call_transcript_search t, q
            WHERE t.client_id = ${tenantId} AND t.doc @@ q.query AND ${seenBy(sql, sees, "t.closer_email")}
          ),
          others AS MATERIALIZED (
            SELECT 'call' AS kind, c.call_id AS id, c.call_id, ts_rank(c.search_meta, q.query) AS rank, c.created_at AS at
            FROM calls c, q WHERE c.client_id = ${tenantId} AND c.search_meta @@ q.query AND ${seenBy(sql, sees, "c.closer_email")}
            UNION ALL
            SELECT 'closer', cl.closer_id, NULL, ts_rank(cl.search_doc, q.query), cl.updated_at
            FROM closers cl, q WHERE cl.client_id = ${tenantId} AND cl.search_doc @@ q.query AND ${seenBy(sql, sees, "cl.email")}
            UNION ALL
            SELECT 'outcome', o.call_id, o.call_id, ts_rank(o.search_doc, q.query), o.updated_at
            FROM outcome_truth o, q WHERE o.client_id = ${tenantId} AND o.search_doc @@ q.query
              AND ${aboutSeenCall(tenantId, sees, "o.call_id")}
            UNION ALL
            SELECT 'audit', a.audit_id, a.call_id, ts_rank(a.search_doc, q.query), a.created_at
            FROM manual_audits a, q WHERE a.client_id = ${tenantId} AND a.search_doc @@ q.query
              AND ${aboutSeenCall(tenantId, sees, "a.call_id")}
          )`

    /**
     * One page of the hits (`offset`, `limit`) in their one order (rank, the newest, kind, id: a
     * total order, so pages neither overlap nor skip; the transcript hits past the newest `RANKED`
     * have no rank and follow every ranked hit), each row with `total`, the hits in all. Only the
     * first `offset + limit` of the ranked hits and of the unranked ones can be on the page.
     */
    const search = Rows.findAll({
      Request: SearchRequest,
      Result: SearchRow,
      execute: (request) =>
        sql`
          ${hitsOf(request)},
          -- the transcript hits newest first (the call id ascending among equals, the order of the
          -- page), numbered, as far as the page can reach: the first RANKED are ranked
          -- (numbered after the limit: the sort keeps only as many, in memory)
          th_ord AS MATERIALIZED (
            SELECT l.call_id, l.created_at, row_number() OVER (ORDER BY l.created_at DESC, l.call_id) AS n
            FROM (SELECT th.call_id, th.created_at FROM th
                  ORDER BY th.created_at DESC, th.call_id LIMIT ${RANKED + request.offset + request.limit}) l
          ),
          top AS (
            SELECT p.* FROM (
              (SELECT 'transcript' AS kind, n.call_id AS id, n.call_id, ts_rank(t.doc, q.query) AS rank, n.created_at AS at
               FROM th_ord n JOIN call_transcript_search t ON t.call_id = n.call_id CROSS JOIN q
               WHERE n.n <= ${RANKED}
               UNION ALL
               SELECT * FROM others
               ORDER BY rank DESC, at DESC, kind, id LIMIT ${request.offset + request.limit})
              UNION ALL
              SELECT 'transcript', n.call_id, n.call_id, NULL, n.created_at FROM th_ord n WHERE n.n > ${RANKED}
            ) p
            ORDER BY p.rank DESC NULLS LAST, p.at DESC, p.kind, p.id
            LIMIT ${request.limit} OFFSET ${request.offset}
          )
          -- titles, texts and snippets of the kept hits only
          SELECT CASE WHEN top.kind IN ('outcome', 'audit') THEN 'note' ELSE top.kind END AS kind,
                 top.id, top.call_id, coalesce(top.rank, ts_rank(t.doc, q.query))::float8 AS rank, top.at,
                 ((SELECT count(*) FROM th) + (SELECT count(*) FROM others))::int AS total, seg.start,
                 CASE top.kind
                   WHEN 'closer' THEN 'Closer ' || cl.full_name
                   WHEN 'outcome' THEN 'Outcome note · ' || ${callTitle("c")}
                   WHEN 'audit' THEN 'Manual audit · ' || ${callTitle("c")}
                   ELSE ${callTitle("c")}
                 END AS title,
                 ts_headline('english', ${escaped("coalesce(seg.text, body.text, '')")}, q.query, ${HEADLINE}) AS snippet
          FROM top CROSS JOIN q
          LEFT JOIN calls c ON c.call_id = top.call_id AND c.client_id = ${request.tenantId}
          LEFT JOIN call_transcript_search t ON top.kind = 'transcript' AND t.call_id = top.id
          LEFT JOIN closers cl ON top.kind = 'closer' AND cl.closer_id = top.id AND cl.client_id = ${request.tenantId}
          LEFT JOIN outcome_truth o ON top.kind = 'outcome' AND o.call_id = top.id AND o.client_id = ${request.tenantId}
          LEFT JOIN manual_audits a ON top.kind = 'audit' AND a.audit_id = top.id AND a.client_id = ${request.tenantId}
          CROSS JOIN LATERAL (
            SELECT CASE top.kind
              WHEN 'call' THEN coalesce(c.external_call_id, '') || ' · ' || coalesce(c.closer_email, '') || ' · ' ||
                               to_char(c.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')
              WHEN 'closer' THEN cl.full_name || ' · ' || cl.email || coalesce(' · ' || cl.team, '')
              WHEN 'outcome' THEN concat_ws(' · ', o.notes, o.reason)
              WHEN 'audit' THEN a.notes
            END AS text
          ) body
          LEFT JOIN LATERAL (
            -- the transcript segment that matches the whole query, else the one ranked best (the
            -- query's words can be spread over several), the earliest of equals
            SELECT s.start, s.text
            FROM (
              SELECT (e.seg ->> 'start')::float8 AS start, e.seg ->> 'text' AS text, e.n,
                     to_tsvector('english', e.seg ->> 'text') AS doc
              FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.result -> 'transcript') = 'array' THEN c.result -> 'transcript' END)
                   WITH ORDINALITY AS e (seg, n)
              WHERE top.kind = 'transcript'
              OFFSET 0 -- each segment's document made once (a flattened subquery would make it for each use)
            ) s
            ORDER BY s.doc @@ q.query DESC, ts_rank(s.doc, q.query) DESC, s.n
            LIMIT 1
          ) seg ON true
          ORDER BY top.rank DESC NULLS LAST, top.at DESC, top.kind, top.id`
    })

    /** How many hits there are (a page past the last has no row to carry its `total`). */
    const count = Rows.single({
      Request: CountRequest,
      Result: Schema.Struct({ total: Schema.Number }),
      execute: (request) => sql`${hitsOf(request)} SELECT ((SELECT count(*) FROM th) + (SELECT count(*) FROM others))::int AS total`
    })

    return {
      search: (tenantId: ClientId, sees: Sees, q: string, page: { readonly limit: number; readonly offset: number }) =>
        search({ tenantId, sees, q, ...page }).pipe(Effect.orDie),
      count: (tenantId: ClientId, sees: Sees, q: string) =>
        count({ tenantId, sees, q }).pipe(Effect.map((row) => row.total), Effect.orDie)
    } as const
  })
}) {}
