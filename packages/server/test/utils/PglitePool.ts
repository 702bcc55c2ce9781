/**
 * The embedded databases of a test worker, lent to one file after another (docs/architecture.md,
 * "Tests"). Loading the run's migrated dump into a new PGlite costs 1.2 s of CPU on a quiet 2-core
 * machine and 3 s of wall time in a busy run, and the suite opened 73 of them; putting a database
 * back as the dump left it costs about 0.15 s.
 *
 * A database handed back is reset before it is lent again: its transaction rolled back, its session
 * discarded (`DISCARD ALL`: settings, temporary tables, prepared statements, listeners), every table
 * emptied, the dump's own rows put back and its sequences set back. So each file still starts from
 * exactly the migrated database. One whose schema a test changed (a table, column, constraint,
 * trigger or function added or dropped) is closed instead, and the next file gets a fresh load.
 * Nothing here runs on PostgreSQL: there each file has a database of its own, made from a template.
 */
import { SqlError } from "@effect/sql"
import { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"

/** The database as the dump has it, read off the first instance this process loads from that dump. */
interface Template {
  /** What `schemaFingerprint` answers on it. */
  readonly fingerprint: string
  /** Every table, schema-qualified and quoted. */
  readonly tables: ReadonlyArray<string>
  /** The tables that hold rows in the dump (the migrations' own bookkeeping), with those rows. */
  readonly rows: ReadonlyArray<{ readonly table: string; readonly columns: string; readonly json: string }>
  /** Every sequence and the value to set it back to (`null`: never used). */
  readonly sequences: ReadonlyArray<{ readonly name: string; readonly last: string | null; readonly start: string }>
}

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
  AND n.nspname NOT LIKE 'pg_temp%'`

/** One digest of the user schemas' tables, columns, constraints, triggers, functions and types. */
export const schemaFingerprint = async (db: PGlite): Promise<string> => {
  const result = await db.query<{ fingerprint: string }>(`
    SELECT md5(string_agg(item, ',' ORDER BY item)) AS fingerprint FROM (
      SELECT concat_ws(' ', 'schema', n.nspname) AS item FROM pg_namespace n WHERE ${USER_SCHEMAS}
      UNION ALL
      SELECT concat_ws(' ', 'rel', n.nspname, c.relname, c.relkind)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_SCHEMAS}
      UNION ALL
      SELECT concat_ws(' ', 'col', n.nspname, c.relname, a.attname, a.atttypid, a.attnotnull, a.attisdropped,
                       pg_get_expr(d.adbin, d.adrelid))
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE ${USER_SCHEMAS} AND a.attnum > 0
      UNION ALL
      SELECT concat_ws(' ', 'con', n.nspname, co.conname, pg_get_constraintdef(co.oid))
        FROM pg_constraint co JOIN pg_namespace n ON n.oid = co.connamespace WHERE ${USER_SCHEMAS}
      UNION ALL
      SELECT concat_ws(' ', 'trg', t.tgname, t.tgrelid::regclass) FROM pg_trigger t WHERE NOT t.tgisinternal
      UNION ALL
      SELECT concat_ws(' ', 'fn', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), md5(p.prosrc))
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${USER_SCHEMAS}
      UNION ALL
      SELECT concat_ws(' ', 'type', n.nspname, t.typname) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE ${USER_SCHEMAS}
      UNION ALL
      SELECT concat_ws(' ', 'ext', e.extname, e.extversion) FROM pg_extension e
    ) items`)
  return result.rows[0]!.fingerprint
}

const capture = async (db: PGlite): Promise<Template> => {
  const tables = (await db.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE ${USER_SCHEMAS} AND c.relkind IN ('r', 'p') ORDER BY 1`
  )).rows.map((r) => r.name)
  const rows: Array<Template["rows"][number]> = []
  for (const table of tables) {
    const json = (await db.query<{ json: string | null }>(`SELECT json_agg(t)::text AS json FROM ${table} t`)).rows[0]!.json
    if (json === null) continue
    // the columns an INSERT may write: not generated, not dropped
    const columns = (await db.query<{ name: string }>(
      `SELECT quote_ident(attname) AS name FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [table]
    )).rows.map((r) => r.name).join(", ")
    rows.push({ table, columns, json })
  }
  const sequences = (await db.query<{ name: string; last: string | null; start: string }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text AS last, start_value::text AS start
       FROM pg_sequences`
  )).rows
  return { fingerprint: await schemaFingerprint(db), tables, rows, sequences }
}

/** Puts the database back as the dump left it; false if its schema is no longer the dump's. */
const reset = async (db: PGlite, template: Template): Promise<boolean> => {
  if (db.isInTransaction()) await db.exec("ROLLBACK")
  await db.exec("DISCARD ALL")
  if ((await schemaFingerprint(db)) !== template.fingerprint) return false
  await db.transaction(async (tx) => {
    if (template.tables.length > 0) await tx.exec(`TRUNCATE ${template.tables.join(", ")} RESTART IDENTITY CASCADE`)
    for (const { table, columns, json } of template.rows) {
      await tx.query(
        `INSERT INTO ${table} (${columns}) OVERRIDING SYSTEM VALUE
           SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $1::json)`,
        [json]
      )
    }
    for (const { name, last, start } of template.sequences) {
      await tx.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [name, last ?? start, last !== null])
    }
  })
  return true
}

/** The databases of one dump idle in this process, ready to lend, and what a reset goes back to. */
interface Pool {
  readonly idle: Array<PGlite>
  template: Template | undefined
}
/** More idle databases than this are closed when handed back. */
const MAX_IDLE = 2
const pools = new WeakMap<Blob, Pool>()

const poolOf = (dump: Blob): Pool => {
  let pool = pools.get(dump)
  if (pool === undefined) pools.set(dump, (pool = { idle: [], template: undefined }))
  return pool
}

const load = async (dump: Blob, pool: Pool): Promise<PGlite> => {
  const db = new PGlite({ loadDataDir: dump })
  await db.waitReady
  // the first instance of the dump is the dump as it was loaded: what every reset goes back to
  pool.template ??= await capture(db)
  return db
}

const giveBack = async (db: PGlite, pool: Pool): Promise<void> => {
  const { template } = pool
  const reusable = template !== undefined && pool.idle.length < MAX_IDLE && !db.closed &&
    (await reset(db, template).catch(() => false))
  if (reusable) pool.idle.push(db)
  else if (!db.closed) await db.close()
}

/**
 * A database as `dump` holds it, for the current scope: an idle one of this process, or the dump
 * loaded into a new one; handed back (reset) when the scope closes. What `PgliteOptions.open` takes.
 */
export const lendDatabase = (dump: Blob) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => {
        const pool = poolOf(dump)
        const db = pool.idle.pop()
        return db === undefined ? load(dump, pool) : Promise.resolve(db)
      },
      catch: (cause) => new SqlError.SqlError({ cause, message: "PglitePool: failed to load the database" })
    }),
    (db) => Effect.promise(() => giveBack(db, poolOf(dump)).catch(() => db.close().catch(() => undefined)))
  )
