/**
 * vitest's global setup: one migrated database for the whole run, which every test file's database
 * starts from (TestDatabase.ts) instead of creating a cluster and running every migration again.
 * On PostgreSQL (`TEST_DATABASE_URL`) a template database (`CREATE DATABASE … TEMPLATE`); on PGlite
 * a dump of a migrated in-memory database (`loadDataDir`), and a migrated data directory for the
 * end-to-end tests' `callsight serve` processes (test/utils/Server.ts copies it under their DATA_DIR).
 * A fresh embedded database costs its cluster's creation (initdb) and the migrations, several
 * seconds per file on a 2-core machine; loading the dump, a fraction of that.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { layerPglite, layerPostgres } from "../../src/db/Database.js"
import { runMigrations } from "../../src/db/Migrations.js"
import { PgliteClient } from "../../src/db/PgliteClient.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** PostgreSQL: the migrated template database's name. */
    readonly databaseTemplate: string | undefined
    /** PGlite: the file holding the dump of a migrated database. */
    readonly pgliteTemplateDump: string | undefined
    /** PGlite: a migrated data directory, for `callsight serve` processes. */
    readonly pgliteTemplateDir: string | undefined
  }
}

/** Runs one statement on the server's own database. */
const onServer = (serverUrl: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, statement).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(serverUrl), maxConnections: 1, applicationName: "callsight-test" }))
  )

const quiet = Logger.minimumLogLevel(LogLevel.Warning)

const migrate = <E>(layer: Layer.Layer<SqlClient.SqlClient, E>) =>
  runMigrations.pipe(Effect.provide(layer), Effect.scoped, Effect.provide(quiet))

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL || undefined
  if (serverUrl !== undefined) {
    const name = `callsight_template_${randomUUID().replaceAll("-", "").slice(0, 16)}`
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    await Effect.runPromise(onServer(serverUrl, (sql) => sql`CREATE DATABASE ${sql(name)}`))
    await Effect.runPromise(
      migrate(layerPostgres({ url: Redacted.make(url.toString()), maxConnections: 1, applicationName: "callsight-test" }))
    )
    project.provide("databaseTemplate", name)
    project.provide("pgliteTemplateDump", undefined)
    project.provide("pgliteTemplateDir", undefined)
    return async () => {
      await Effect.runPromise(onServer(serverUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`)).catch(
        () => undefined
      )
    }
  }

  const dir = mkdtempSync(join(tmpdir(), "callsight-test-template-"))
  const dumpFile = join(dir, "migrated.tar")
  const dataDir = join(dir, "db")
  const dump = await Effect.runPromise(
    Effect.gen(function* () {
      yield* runMigrations
      const client = yield* PgliteClient
      return yield* Effect.promise(() => client.pglite.dumpDataDir("none"))
    }).pipe(Effect.provide(layerPglite({ dataDir: undefined })), Effect.scoped, Effect.provide(quiet))
  )
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()))
  // the directory a server opens: the same database, loaded from the dump, then closed cleanly
  await Effect.runPromise(Effect.scoped(Layer.build(layerPglite({ dataDir, loadDataDir: dump }))))
  project.provide("databaseTemplate", undefined)
  project.provide("pgliteTemplateDump", dumpFile)
  project.provide("pgliteTemplateDir", dataDir)
  return () => rmSync(dir, { recursive: true, force: true })
}
