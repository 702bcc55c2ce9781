/**
 * A fresh database for a test or a test server: on the PostgreSQL server `TEST_DATABASE_URL` names,
 * made from the run's migrated template (DatabaseTemplate.ts) and dropped afterwards; `undefined`
 * without that variable (the embedded database). Free of vitest's runtime, so that a global setup
 * (test/utils/SharedServer.ts) can use it too; test files use it through TestDatabase.ts.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import { randomUUID } from "node:crypto"

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
 * A fresh database's URL for the current scope, made from `template` when there is one (dropped,
 * WITH (FORCE), when it closes), or `undefined` when `TEST_DATABASE_URL` is unset, meaning: use the
 * embedded database.
 */
export const freshDatabaseUrl = (
  template: string | undefined
): Effect.Effect<string | undefined, SqlError.SqlError, Scope.Scope> =>
  Effect.suspend(() => {
    const serverUrl = testServerUrl()
    if (serverUrl === undefined) return Effect.succeed(undefined)
    const name = `callsight_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
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

/** `freshDatabaseUrl` outside Effect (beforeAll/afterAll of the end-to-end tests, a global setup). */
export const acquireFreshDatabaseUrl = (template: string | undefined): Promise<{
  readonly url: string | undefined
  readonly release: () => Promise<void>
}> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const url = yield* Scope.extend(freshDatabaseUrl(template), scope)
      return { url, release: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
    })
  )
