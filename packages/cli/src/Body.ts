/** Request bodies built on the command line, checked by the declaration before any request. */
import { Effect, ParseResult } from "effect"
import { UsageError } from "./Errors.js"

/** Builds a request body; a value the declaration rejects is a usage error (exit 2) before any request. */
export const body = <A>(make: () => A): Effect.Effect<A, UsageError> =>
  Effect.try({
    try: make,
    catch: (e) =>
      new UsageError({
        message: ParseResult.isParseError(e)
          ? firstIssuePerField(ParseResult.ArrayFormatter.formatErrorSync(e)).join("; ")
          : String(e)
      })
  })

/** One message per field (an optional field's union also reports "Expected undefined"). */
const firstIssuePerField = (issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>): Array<string> => {
  const byField = new Map<string, string>()
  for (const issue of issues) {
    const field = issue.path.join(".")
    if (!byField.has(field)) byField.set(field, `${field === "" ? "" : `${field}: `}${issue.message}`)
  }
  return [...byField.values()]
}

