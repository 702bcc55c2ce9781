/**
 * What repositories share to read rows through schemas (`SqlSchema`). Repositories answer rows
 * already in the shapes the services need: ids branded, timestamps as the wire's ISO-8601 strings.
 * A failed statement or a row not matching its schema is a defect (answered 500 with a trace id)
 * unless a service has something to do about it (a unique violation is a 409), so repository
 * methods end in `Effect.orDie` except where their callers handle `SqlError`. The helpers below are
 * `SqlSchema`'s, with a row that does not decode as a defect.
 */
import { type SqlClient, SqlSchema } from "@effect/sql"
import { Effect, type Option, ParseResult, Schema } from "effect"

/** A `timestamptz` column (a `Date` from the driver) read as the ISO-8601 string the API sends. */
export const IsoTimestamp = Schema.transform(Schema.DateFromSelf, Schema.String, {
  strict: true,
  decode: (date) => date.toISOString(),
  encode: (iso) => new Date(iso)
})

export const NullableIsoTimestamp = Schema.NullOr(IsoTimestamp)

/** A row (or a request) that does not match its schema is a bug: a defect, not a typed failure. */
const dieOnParse = <A, E, R>(effect: Effect.Effect<A, E | ParseResult.ParseError, R>): Effect.Effect<A, E, R> =>
  Effect.catchIf(effect, ParseResult.isParseError, Effect.die) as Effect.Effect<A, E, R>

interface Query<IA, II, IR, A, AI, AR, R, E> {
  readonly Request: Schema.Schema<IA, II, IR>
  readonly Result: Schema.Schema<A, AI, AR>
  readonly execute: (request: II) => Effect.Effect<ReadonlyArray<unknown>, E, R>
}

/** `SqlSchema.findAll` with decode failures as defects. */
export const findAll = <IA, II, IR, A, AI, AR, R, E>(options: Query<IA, II, IR, A, AI, AR, R, E>) => {
  const run = SqlSchema.findAll(options)
  return (request: IA): Effect.Effect<ReadonlyArray<A>, E, R | IR | AR> => dieOnParse(run(request))
}

/** `SqlSchema.findOne` with decode failures as defects. */
export const findOne = <IA, II, IR, A, AI, AR, R, E>(options: Query<IA, II, IR, A, AI, AR, R, E>) => {
  const run = SqlSchema.findOne(options)
  return (request: IA): Effect.Effect<Option.Option<A>, E, R | IR | AR> => dieOnParse(run(request))
}

/** `SqlSchema.single` (exactly one row, else a defect) with decode failures as defects. */
export const single = <IA, II, IR, A, AI, AR, R, E>(options: Query<IA, II, IR, A, AI, AR, R, E>) => {
  const run = SqlSchema.single(options)
  return (request: IA): Effect.Effect<A, E, R | IR | AR> =>
    dieOnParse(Effect.catchTag(run(request), "NoSuchElementException", Effect.die))
}

/** `SqlSchema.void`: a statement whose rows are not read. */
export const execute = <IA, II, IR, R, E>(options: {
  readonly Request: Schema.Schema<IA, II, IR>
  readonly execute: (request: II) => Effect.Effect<unknown, E, R>
}) => {
  const run = SqlSchema.void(options)
  return (request: IA): Effect.Effect<void, E, R | IR> => dieOnParse(run(request))
}

/**
 * A JSON array of a call's stored analysis, `<alias>.result -> 'a' -> 'b'`, or `[]` when the result
 * has none there (an older or partial result): what a query unnests or returns. The path is the
 * code's own constant keys, never input.
 */
export const resultArray = (sql: SqlClient.SqlClient, alias: string | null, ...path: ReadonlyArray<string>) =>
  columnArray(sql, "result", alias, path)

/**
 * The same array read from the call's `digest` (migration 0024: the parts of `result` the period
 * views read, at the same paths, without fetching the whole analysis): `objections`,
 * `next_steps`, `scorecard` → `dimensions` (without their reasons), `summary` → `needs` (without quotes).
 */
export const digestArray = (sql: SqlClient.SqlClient, alias: string | null, ...path: ReadonlyArray<string>) =>
  columnArray(sql, "digest", alias, path)

const columnArray = (sql: SqlClient.SqlClient, column: string, alias: string | null, path: ReadonlyArray<string>) => {
  const at = sql.literal(`${alias === null ? "" : `${alias}.`}${column}${path.map((key) => ` -> '${key}'`).join("")}`)
  return sql`CASE WHEN jsonb_typeof(${at}) = 'array' THEN ${at} ELSE '[]'::jsonb END`
}
