/**
 * The test suite's pool of embedded databases (utils/PglitePool.ts): a database handed back is lent
 * again as the dump had it (rows, sequences, session), and one whose schema a test changed is not
 * lent again. On a small dump of its own (an identity column, a generated column, a sequence the
 * dump already used, rows in the dump), so it runs on PostgreSQL runs too.
 */
import { PGlite } from "@electric-sql/pglite"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { lendDatabase, schemaFingerprint } from "./utils/PglitePool.js"

let made: Promise<Blob> | undefined
/** One dump for the file: making it runs initdb (seconds). */
const makeDump = () => (made ??= dumpOfOwnSchema())

const dumpOfOwnSchema = async () => {
  const db = new PGlite()
  await db.exec(`
    CREATE TABLE kinds (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL UNIQUE,
                        upper_name text GENERATED ALWAYS AS (upper(name)) STORED);
    CREATE TABLE items (id serial PRIMARY KEY, kind_id int NOT NULL REFERENCES kinds (id), label text);
    CREATE SEQUENCE tickets START 100;
    INSERT INTO kinds (name) VALUES ('alpha'), ('beta');
    SELECT nextval('tickets'), nextval('tickets');
  `)
  const dump = await db.dumpDataDir("none")
  await db.close()
  return dump
}

/** Lends a database for the length of `use`, and hands it back. */
const borrow = <A>(dump: Blob, use: (db: PGlite) => Promise<A>) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const db = yield* Scope.extend(lendDatabase(dump), scope)
    const result = yield* Effect.promise(() => use(db))
    yield* Scope.close(scope, Exit.void)
    return { db, result }
  })

const state = async (db: PGlite) => ({
  kinds: (await db.query("SELECT id, name, upper_name FROM kinds ORDER BY id")).rows,
  items: (await db.query("SELECT count(*)::int AS n FROM items")).rows,
  next: (await db.query<{ ticket: number; item: number }>("SELECT nextval('tickets')::int AS ticket, nextval('items_id_seq')::int AS item")).rows,
  timezone: (await db.query<{ tz: string }>("SELECT current_setting('TimeZone') AS tz")).rows[0]!.tz,
  temp: (await db.query("SELECT count(*)::int AS n FROM pg_class WHERE relname = 'scratch'")).rows
})

describe("the pool of embedded test databases", () => {
  it.effect("lends the same database again, as the dump had it: rows, sequences and session", () =>
    Effect.gen(function* () {
      const dump = yield* Effect.promise(makeDump)
      const fresh = yield* borrow(dump, state)
      expect(fresh.result.kinds).toEqual([{ id: 1, name: "alpha", upper_name: "ALPHA" }, { id: 2, name: "beta", upper_name: "BETA" }])
      // (a dump taken from a running database loads as after a crash: a used sequence may skip ahead)
      expect(fresh.result.next).toEqual([{ ticket: expect.any(Number), item: 1 }])
      expect(fresh.result.next[0]!.ticket).toBeGreaterThanOrEqual(102)

      const used = yield* borrow(dump, async (db) => {
        await db.exec(`
          INSERT INTO kinds (name) VALUES ('gamma');
          INSERT INTO items (kind_id, label) SELECT id, 'x' FROM kinds;
          SELECT nextval('tickets');
          SET TimeZone = 'Asia/Tokyo';
          CREATE TEMP TABLE scratch (x int);
          BEGIN; INSERT INTO kinds (name) VALUES ('left open');
        `)
        return db.isInTransaction()
      })
      expect(used.db).toBe(fresh.db)
      expect(used.result).toBe(true)

      const again = yield* borrow(dump, state)
      expect(again.db).toBe(fresh.db)
      expect(again.result).toEqual(fresh.result)
    }))

  it.effect("does not lend again a database whose schema a test changed", () =>
    Effect.gen(function* () {
      const dump = yield* Effect.promise(makeDump)
      const changed = yield* borrow(dump, async (db) => {
        // each change of the schema changes its digest
        const seen = [await schemaFingerprint(db)]
        for (const change of [
          "CREATE TABLE extra (x int)",
          "ALTER TABLE items ADD COLUMN note text",
          "ALTER TABLE items ALTER COLUMN label SET DEFAULT 'none'",
          "ALTER TABLE items ALTER COLUMN label SET NOT NULL",
          "CREATE INDEX items_label ON items (label)",
          "ALTER TABLE items ADD CONSTRAINT short_label CHECK (length(label) < 10)",
          "CREATE FUNCTION one() RETURNS int LANGUAGE sql AS 'SELECT 1'",
          "CREATE OR REPLACE FUNCTION one() RETURNS int LANGUAGE sql AS 'SELECT 2'",
          "CREATE TYPE mood AS ENUM ('ok')",
          "CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'",
          "CREATE TRIGGER touch BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION touch()",
          "CREATE SCHEMA side",
          "DROP TABLE extra"
        ]) {
          await db.exec(change)
          const fingerprint = await schemaFingerprint(db)
          expect(seen, change).not.toContain(fingerprint)
          seen.push(fingerprint)
        }
      })
      expect(changed.db.closed).toBe(true)
      const next = yield* borrow(dump, state)
      expect(next.db).not.toBe(changed.db)
      expect(next.result.kinds).toHaveLength(2)
    }), 120_000)
})
