/**
 * The database of a test file (docs/architecture.md, "Database"): a fresh PostgreSQL database on the
 * server `TEST_DATABASE_URL` names (CI sets it), dropped afterwards; otherwise an in-memory PGlite that
 * the worker's pool lends (PglitePool.ts: loaded once, reset to the template between files). Both
 * start from the run's migrated template (DatabaseTemplate.ts, vitest's global setup), so the
 * server's migrations find nothing to do; without the setup, from an empty database.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted, type Scope } from "effect"
import { cpSync, readFileSync } from "node:fs"
import { inject } from "vitest"
import { Database, layerPglite, layerPostgres } from "../../src/db/Database.js"
import { acquireFreshDatabaseUrl, freshDatabaseUrl, testServerUrl } from "./FreshDatabase.js"
import { lendDatabase } from "./PglitePool.js"

export { testServerUrl }

/**
 * A fresh database's URL for the current scope (dropped, WITH (FORCE), when it closes), or
 * `undefined` when `TEST_DATABASE_URL` is unset, meaning: use the embedded database.
 */
export const testDatabaseUrl = (): Effect.Effect<string | undefined, SqlError.SqlError, Scope.Scope> =>
  freshDatabaseUrl(inject("databaseTemplate"))

/** `testDatabaseUrl` for tests outside Effect (beforeAll/afterAll of the end-to-end tests). */
export const acquireTestDatabaseUrl = () => acquireFreshDatabaseUrl(inject("databaseTemplate"))

/**
 * The run's migrated PGlite database (DatabaseTemplate.ts), read once per test file: what a test
 * that opens PGlite itself passes as `loadDataDir` (undefined on PostgreSQL runs: an empty one).
 */
let dump: Blob | undefined
export const pgliteTemplate = (): Blob | undefined => {
  const file = inject("pgliteTemplateDump")
  if (file === undefined) return undefined
  return (dump ??= new Blob([readFileSync(file)]))
}

/** A migrated PGlite database lent by this process's pool (PglitePool.ts); an empty one without the template. */
const pooledDatabase = () => {
  const dump = pgliteTemplate()
  return dump === undefined ? undefined : lendDatabase(dump)
}

/** `Database`, `SqlClient` and `PgClient` on a database of this test file's own. */
export const layer: Layer.Layer<Database | SqlClient.SqlClient | PgClient.PgClient, SqlError.SqlError> =
  Layer.unwrapScoped(
    Effect.map(testDatabaseUrl(), (url) =>
      url === undefined
        ? layerPglite({ dataDir: undefined, open: pooledDatabase() })
        : layerPostgres({ url: Redacted.make(url), maxConnections: 4, applicationName: "callsight-test" })
    )
  )

/**
 * A migrated embedded database under `dataDir` (a copy of the run's data directory, DatabaseTemplate.ts),
 * for a test that opens a data directory itself; nothing without the template.
 */
export const copyPgliteTemplate = (dataDir: string): void => {
  const template = inject("pgliteTemplateDir")
  if (template !== undefined) cpSync(template, dataDir, { recursive: true })
}

export const TestDatabase = { layer, testDatabaseUrl, acquireTestDatabaseUrl, testServerUrl } as const
