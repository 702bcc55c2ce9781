/** What a failed statement says, in terms the services act on. */
import type { SqlError } from "@effect/sql"

/** A unique index refused the row (SQLSTATE 23505): another request created the same thing first. */
export const isUniqueViolation = (error: SqlError.SqlError): boolean =>
  (error.cause as { code?: unknown } | undefined)?.code === "23505"
