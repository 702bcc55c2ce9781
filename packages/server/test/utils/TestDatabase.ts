/**
 * The database of a test file (docs/architecture.md, "Database"): a fresh PostgreSQL database on the
 * server `TEST_DATABASE_URL` names (CI sets it), dropped afterwards; otherwise a fresh in-memory PGlite.
 * Both start from the run's migrated template (DatabaseTemplate.ts, vitest's global setup), so the
 * server's migrations find nothing to do; without the setup, from an empty database.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { inject } from "vitest"
import { Database, layerPglite, layerPostgres } from "../../src/db/Database.js"

/** The PostgreSQL server the suite may create databases on; `undefined`: embedded PGlite. */
export const testServerUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined

/** Runs one statement on the server's own database, over a connection opened for it. */
const onServer = (
  serverUrl: string,
  statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, SqlError.SqlError>
) =>
  Effect.flatMap(SqlClient.SqlClient, statement).pipe(
    Effect.provide(
      PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1, applicationName: "callsight-test" })
    )
  )

/**
 * A fresh database's URL for the current scope (dropped, WITH (FORCE), when it closes), or
 * `undefined` when `TEST_DATABASE_URL` is unset, meaning: use the embedded database.
 */
export const testDatabaseUrl = (): Effect.Effect<string | undefined, SqlError.SqlError, Scope.Scope> =>
  Effect.suspend(() => {
    const serverUrl = testServerUrl()
    if (serverUrl === undefined) return Effect.succeed(undefined)
    const name = `callsight_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    const template = inject("databaseTemplate")
    return Effect.acquireRelease(
      Effect.as(
        onServer(serverUrl, (sql) =>
          template === undefined
            ? sql`CREATE DATABASE ${sql(name)}`
            : sql`CREATE DATABASE ${sql(name)} TEMPLATE ${sql(template)}`),
        url.toString()
      ),
      () =>
        onServer(serverUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`).pipe(
          // A database left behind must not fail the test that used it.
          Effect.catchAllCause((cause) => Effect.logWarning(`could not drop test database ${name}`, cause))
        )
    )
  })

/** `testDatabaseUrl` for tests outside Effect (beforeAll/afterAll of the end-to-end tests). */
export const acquireTestDatabaseUrl = (): Promise<{
  readonly url: string | undefined
  readonly release: () => Promise<void>
}> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const url = yield* Scope.extend(testDatabaseUrl(), scope)
      return { url, release: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
    })
  )

/** The run's migrated PGlite database (DatabaseTemplate.ts), read once per test file. */
let dump: Blob | undefined
const pgliteTemplate = (): Blob | undefined => {
  const file = inject("pgliteTemplateDump")
  if (file === undefined) return undefined
  return (dump ??= new Blob([readFileSync(file)]))
}

/** `Database`, `SqlClient` and `PgClient` on a database of this test file's own. */
export const layer: Layer.Layer<Database | SqlClient.SqlClient | PgClient.PgClient, SqlError.SqlError> =
  Layer.unwrapScoped(
    Effect.map(testDatabaseUrl(), (url) =>
      url === undefined
        ? layerPglite({ dataDir: undefined, loadDataDir: pgliteTemplate() })
        : layerPostgres({ url: Redacted.make(url), maxConnections: 4, applicationName: "callsight-test" })
    )
  )

export const TestDatabase = { layer, testDatabaseUrl, acquireTestDatabaseUrl, testServerUrl } as const
