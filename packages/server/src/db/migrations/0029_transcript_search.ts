/**
 * The transcripts' search documents move out of `calls` into a narrow table of their own (issue 39).
 *
 * A word said in most calls ("pricing": two thirds of 100,000) is a hit in tens of thousands of
 * transcripts, and the search counts its hits and orders them by date. The GIN index finds them
 * without reading a document, but each hit's tenant, closer and date were read from its `calls`
 * row: about 1.5 kB each (the digest and the trend facts are in the row), five rows a page, so a
 * common word read most of the table (18,000 pages at 100,000 calls, more than PostgreSQL's
 * default 128 MB of shared buffers hold) for each search.
 *
 * `call_transcript_search` holds, per call with a transcript, what the search filters and orders
 * on and the document itself (stored out of line, read only to rank the hits of one page):
 * about 60 bytes a row in the table, a hundred rows a page. It is kept by a trigger on `calls`,
 * as the market-intelligence change log is (0011): PostgreSQL maintains it on every write of a
 * call's result, whichever code writes it (the worker, a re-analysis, a test or the benchmark's
 * seed writing SQL), as it maintained the generated column it replaces (0012), on PostgreSQL and
 * PGlite alike. A call without transcript text has no row; deleting a call deletes its row. A
 * call's tenant, closer and creation time are not changed by any repository after its insert;
 * the trigger follows a change of the closer all the same.
 *
 * The document is the same expression as 0012's `search_transcript` (the text of every transcript
 * segment, `english`), which is dropped with its index.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE call_transcript_search (
      call_id text PRIMARY KEY REFERENCES calls (call_id) ON DELETE CASCADE,
      client_id text NOT NULL,
      closer_email text,
      created_at timestamptz NOT NULL,
      doc tsvector NOT NULL
    )`
  yield* sql`
    CREATE FUNCTION call_transcript_document(result jsonb) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
      SELECT jsonb_to_tsvector('english'::regconfig,
        coalesce(jsonb_path_query_array(result, '$.transcript[*].text'), '[]'::jsonb), '["string"]'::jsonb)
    $$`
  yield* sql`
    CREATE FUNCTION call_transcript_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE document tsvector := call_transcript_document(NEW.result);
    BEGIN
      IF length(document) = 0 THEN
        DELETE FROM call_transcript_search WHERE call_id = NEW.call_id;
      ELSE
        INSERT INTO call_transcript_search (call_id, client_id, closer_email, created_at, doc)
        VALUES (NEW.call_id, NEW.client_id, NEW.closer_email, NEW.created_at, document)
        ON CONFLICT (call_id) DO UPDATE
          SET client_id = EXCLUDED.client_id, closer_email = EXCLUDED.closer_email,
              created_at = EXCLUDED.created_at, doc = EXCLUDED.doc;
      END IF;
      RETURN NULL;
    END
    $$`
  yield* sql`
    CREATE TRIGGER calls_transcript_search AFTER INSERT OR UPDATE OF result, client_id, closer_email, created_at ON calls
    FOR EACH ROW EXECUTE FUNCTION call_transcript_search_sync()`
  yield* sql`
    INSERT INTO call_transcript_search (call_id, client_id, closer_email, created_at, doc)
    SELECT call_id, client_id, closer_email, created_at, search_transcript FROM calls WHERE length(search_transcript) > 0`
  yield* sql`CREATE INDEX call_transcript_search_doc_idx ON call_transcript_search USING gin (doc)`
  yield* sql`ALTER TABLE calls DROP COLUMN search_transcript`
  yield* sql`ANALYZE call_transcript_search`
})
