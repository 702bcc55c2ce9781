/**
 * Whose calls a request sees (issue 36, "reps who sign in"). The policy table (`Policy.ts`) says,
 * for each operation and role, allowed, scoped to self, or forbidden; the session's door
 * (`http/Security.ts`) turns "self" into `Sees.Closer` on the request's identity, with the e-mail of
 * the verified closer the user is (none: the member sees no call). Every repository read behind a
 * "self" operation filters its calls with `seenBy`, so a rep's lists, views, reports, search hits
 * and chat answers hold only their own calls, and another rep's call is 404 like another tenant's.
 *
 * A call is a closer's when its `closer_email` is the closer's e-mail, compared case-insensitively
 * (the e-mail the upload or the recorder named; the closers table is unique on `lower(email)`).
 */
import { type ClientId, type ClientIdentity, CurrentClient, type Sees } from "@callsight/api-spec"
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"

export const TEAM: Sees = { _tag: "Team" }

/** `Sees` as a schema, for a repository's request (`Rows.findAll({ Request: Schema.Struct({ ..., sees: SeesSchema }) })`). */
export const SeesSchema: Schema.Schema<Sees> = Schema.Union(
  Schema.TaggedStruct("Team", {}),
  Schema.TaggedStruct("Closer", { email: Schema.NullOr(Schema.String) })
)

/** Whose calls a user sees where the policy says `access`: a rep's own ("self", by the verified closer they are), else the team's. */
export const seesWhere = (access: "allowed" | "self", closerEmail: string | null): Sees =>
  access === "self" ? { _tag: "Closer", email: closerEmail } : TEAM

/** Whose calls this identity sees: a session's as its door decided, the team for keys and staff. */
export const seesOf = (identity: ClientIdentity): Sees => (identity.principal._tag === "User" ? identity.principal.sees : TEAM)

/** A tenant's caller and whose calls it sees. */
export interface Viewer {
  readonly clientId: ClientId
  readonly sees: Sees
}

/** The tenant and whose calls the current request sees. */
export const viewer = Effect.map(CurrentClient, (identity): Viewer => ({ clientId: identity.clientId, sees: seesOf(identity) }))

/**
 * The SQL condition that a call's `closer_email` column (`column`, e.g. `c.closer_email`) is one
 * this viewer sees: true for the team, the closer's own e-mail for a rep, false for a member who is
 * no closer.
 */
export const seenBy = (sql: SqlClient.SqlClient, sees: Sees, column: string) => {
  if (sees._tag === "Team") return sql`true`
  if (sees.email === null) return sql`false`
  return sql`lower(${sql.literal(column)}) = ${sees.email.toLowerCase()}`
}

/**
 * The SQL condition that a closer row (alias `closer`, e.g. `k`) is the closer a user row (alias
 * `user`, e.g. `u`) is: the same tenant, the same e-mail in any case, confirmed and not removed. One
 * rule for the session's door (`SessionsRepo.use`: whose calls a rep sees) and for `me` (the
 * closer the user is). At most one closer matches: closers are unique on the tenant and `lower(email)`.
 */
export const isUsersCloser = (sql: SqlClient.SqlClient, closer: string, user: string) => {
  const k = sql.literal(closer)
  const u = sql.literal(user)
  return sql`${k}.client_id = ${u}.client_id AND lower(${k}.email) = lower(${u}.email)
             AND ${k}.email_verified_at IS NOT NULL AND ${k}.status <> 'removed'`
}

/** Whether a call of this closer e-mail is seen (for what is filtered after reading, e.g. a chat answer's citations). */
export const sees = (viewer: Sees, closerEmail: string | null): boolean =>
  viewer._tag === "Team" || (viewer.email !== null && closerEmail !== null && closerEmail.toLowerCase() === viewer.email.toLowerCase())
