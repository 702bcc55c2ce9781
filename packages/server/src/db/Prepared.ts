/**
 * Statements prepared once per connection, for the hot paths (issue 39: the status poll, an API
 * key's and a portal session's lookup).
 *
 * node-postgres, under `@effect/sql-pg`, sends every statement unnamed, so PostgreSQL parses and
 * plans it again at every execution. For a small statement that is nothing; the status poll's (the
 * call's row, its credits, account and deal, and the tenant's speech-to-text facts: ten relations)
 * took ~650 µs of the database's CPU to plan and ~150 µs to run (pgbench, 10 clients, this
 * machine), which made a poll cost PostgreSQL twice the stack floor's two simpler statements.
 *
 * A repository marks such a statement with `prepared(sql)` at its start (a comment). The pool's
 * connections (`prepareMarked`, Database.ts) send a marked statement as a named one, named by a
 * hash of its text: parsed once per connection, and planned once PostgreSQL's plan cache settles
 * on a generic plan (after five executions, when it is no dearer than the custom ones). Only
 * statements whose text never varies are marked (their values are parameters): each distinct text
 * is a prepared statement for the connection's life, so a connection names at most
 * MAX_NAMED_PER_CONNECTION and sends any other marked text unnamed. The embedded database (PGlite)
 * reads the mark as the comment it is.
 *
 * Not for a statement whose best plan depends on its values: tried on the trends' three large
 * statements (100,000 calls, one tenant), every trends read was slower (a year by month, p50
 * 94.5 -> 124.6 ms) once PostgreSQL settled on generic plans, which cannot see the window's dates.
 */
import type { SqlClient } from "@effect/sql"
import { createHash } from "node:crypto"

/** A node-postgres connection, as far as it is used here (`pg` ships no type declarations). */
export interface PgQueryClient {
  query: (...args: Array<any>) => unknown
}

const MARK = "/* prepared */ "

/** At most this many named statements a connection (a guard against a marked text that varies). */
export const MAX_NAMED_PER_CONNECTION = 64

/** Starts a statement of fixed text that is to be prepared once per connection. */
export const prepared = (sql: SqlClient.SqlClient) => sql.literal(MARK)

/** The statement name of a marked text, or undefined for a text that is not marked. */
export const preparedName = (text: unknown): string | undefined =>
  typeof text === "string" && text.startsWith(MARK)
    ? `cs_${createHash("sha256").update(text).digest("base64url").slice(0, 24)}`
    : undefined

/**
 * Makes `client` send the marked statements as named ones (`@effect/sql-pg` calls
 * `client.query(text, values, callback)`, or `client.query({ text, values, rowMode }, callback)`
 * for rows as arrays; a submittable, such as a cursor, is left as it is).
 */
export const prepareMarked = (client: PgQueryClient): void => {
  const query = client.query.bind(client)
  // the connection's named statements by text: a text is hashed once, not at every execution
  const named = new Map<string, string>()
  const nameFor = (text: unknown) => {
    if (typeof text !== "string" || !text.startsWith(MARK)) return undefined
    const known = named.get(text)
    if (known !== undefined || named.size >= MAX_NAMED_PER_CONNECTION) return known
    const name = preparedName(text)!
    named.set(text, name)
    return name
  }
  client.query = ((config: unknown, ...rest: Array<unknown>) => {
    if (typeof config === "string") {
      const name = nameFor(config)
      if (name !== undefined) {
        const [values, callback] = typeof rest[0] === "function" ? [undefined, rest[0]] : rest
        return query({ name, text: config, values }, ...(callback === undefined ? [] : [callback]))
      }
    } else if (typeof config === "object" && config !== null && !("submit" in config) && !("name" in config && config.name)) {
      const name = nameFor((config as { text?: unknown }).text)
      if (name !== undefined) return query({ ...config, name }, ...rest)
    }
    return query(config, ...rest)
  })
}
