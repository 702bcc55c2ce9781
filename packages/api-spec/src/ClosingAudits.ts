/**
 * The Team Closing Audit, self-serve (issue 38, item 6; docs/closing-audit.md): a manager picks calls
 * (or "the last N of each closer") and gets the team's pattern across them (per scorecard dimension
 * the team's mean and spread, its strengths and weaknesses with the quotes), each closer's strengths
 * and gaps, the three changes that would move the most deals, and an executive report as HTML and
 * PDF. Every figure is computed from the calls the audit names, by the rules the docs page states.
 * Charged `CLOSING_AUDIT_CREDITS` credits once, when it is made. A tenant key, or the portal session
 * of an owner or an admin (a member's is 403).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { CallId, NonEmptyTrimmedText, queryInt, Text, Timestamp, strictBody } from "./Common.js"
import { Conflict, NotFound, PaymentRequired, ServiceUnavailable } from "./Errors.js"
import { ApiKeyOrSessionHeaders, TenantOrSessionAuth } from "./Security.js"

export const ClosingAuditId = Text.pipe(Schema.brand("ClosingAuditId")).annotations({ description: "A closing audit's id (`cla_…`)" })
export type ClosingAuditId = typeof ClosingAuditId.Type

/** At most this many calls named in `call_ids`, and at most this many of each closer in `last_per_closer`. */
export const CLOSING_AUDIT_CALLS_MAX = 30
export const CLOSING_AUDIT_PER_CLOSER_MAX = 30
/** At most this many calls in an audit made with `last_per_closer` (the most recent closers' first). */
export const CLOSING_AUDIT_TOTAL_MAX = 300

export class CreateClosingAuditRequest extends Schema.Class<CreateClosingAuditRequest>("CreateClosingAuditRequest")({
  call_ids: Schema.optional(
    Schema.Array(CallId).pipe(Schema.minItems(1), Schema.maxItems(CLOSING_AUDIT_CALLS_MAX)).annotations({
      description: `The calls to audit: 1 to ${CLOSING_AUDIT_CALLS_MAX} distinct completed calls of the tenant ` +
        "(another tenant's or an unknown call: 404; one not completed: 409). Give this or `last_per_closer`, not both"
    })
  ),
  last_per_closer: Schema.optional(
    Schema.Int.pipe(Schema.between(1, CLOSING_AUDIT_PER_CLOSER_MAX)).annotations({
      description: `The last N (1–${CLOSING_AUDIT_PER_CLOSER_MAX}) completed calls of each closer (every closer e-mail the ` +
        `tenant's completed calls carry, in any case), at most ${CLOSING_AUDIT_TOTAL_MAX} calls in all. Give this or \`call_ids\``
    })
  ),
  title: Schema.optional(NonEmptyTrimmedText.pipe(Schema.maxLength(120)).annotations({
    description: "The report's title (1–120 characters); default `Team Closing Audit`"
  }))
}) {}

export const ClosingAuditQuote = Schema.Struct({
  call_id: CallId,
  dimension: Text,
  speaker: Schema.NullOr(Text).annotations({ description: "The transcript's speaker label" }),
  start: Schema.Number.annotations({ description: "Seconds from the start of the call" }),
  quote: Text.annotations({ description: "Words of the call's transcript, exactly as said (a long sentence cut with `…`)" }),
  effect: Schema.Number.annotations({ description: "Points the words added to (positive) or took from (negative) the dimension's score" })
}).annotations({ identifier: "ClosingAuditQuote" })

export const ClosingAuditCall = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.NullOr(Text),
  closer_email: Schema.NullOr(Text),
  completed_at: Timestamp,
  duration_s: Schema.NullOr(Schema.Number),
  call_type: Schema.NullOr(Text),
  overall_score: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "ClosingAuditCall" })

/** Mean and spread of a score over the calls where it was assessed; all null when none was. */
const Spread = {
  calls: Schema.Number.annotations({ description: "Calls where it was assessed" }),
  mean: Schema.NullOr(Schema.Number).annotations({ description: "Mean score, one decimal" }),
  sd: Schema.NullOr(Schema.Number).annotations({ description: "Population standard deviation, one decimal" }),
  min: Schema.NullOr(Schema.Number),
  max: Schema.NullOr(Schema.Number)
}

export const ClosingAuditDimension = Schema.Struct({
  dimension: Text,
  label: Text,
  ...Spread,
  weight: Schema.NullOr(Schema.Number).annotations({ description: "The dimension's mean weight in the calls' scorecards (two decimals)" }),
  below_target: Schema.Array(CallId).annotations({ description: "The calls scoring under the target (70) on it, lowest first" })
}).annotations({ identifier: "ClosingAuditDimension" })

export const ClosingAuditFinding = Schema.Struct({
  dimension: Text,
  label: Text,
  mean: Schema.Number,
  quotes: Schema.Array(ClosingAuditQuote).annotations({ description: "Up to 3, from different calls where there are" })
}).annotations({ identifier: "ClosingAuditFinding" })

export const ClosingAuditCloserDimension = Schema.Struct({
  dimension: Text,
  label: Text,
  ...Spread,
  vs_team: Schema.NullOr(Schema.Number).annotations({ description: "The closer's mean less the team's, one decimal" })
}).annotations({ identifier: "ClosingAuditCloserDimension" })

export const ClosingAuditCloser = Schema.Struct({
  closer_email: Schema.NullOr(Text).annotations({ description: "null: the calls with no closer" }),
  full_name: Schema.NullOr(Text).annotations({ description: "From the tenant's closers, when the e-mail is one" }),
  calls: Schema.Number,
  call_ids: Schema.Array(CallId),
  overall: Schema.Struct(Spread),
  dimensions: Schema.Array(ClosingAuditCloserDimension),
  strengths: Schema.Array(ClosingAuditFinding).annotations({ description: "The closer's two highest-scoring dimensions, one quote each where there is" }),
  gaps: Schema.Array(ClosingAuditFinding).annotations({ description: "The closer's two lowest-scoring dimensions (not among the strengths)" })
}).annotations({ identifier: "ClosingAuditCloser" })

export const ClosingAuditChange = Schema.Struct({
  rank: Schema.Number,
  dimension: Text,
  label: Text,
  advice: Text.annotations({ description: "What to change, in a sentence" }),
  points: Schema.Number.annotations({
    description: "Overall-score points the team's mean would gain if every call scoring under the target on this dimension " +
      "reached it (one decimal): the rule that ranks the changes"
  }),
  calls_affected: Schema.Number,
  closers_affected: Schema.Number,
  call_ids: Schema.Array(CallId).annotations({ description: "The calls under the target on it, lowest first" }),
  quotes: Schema.Array(ClosingAuditQuote)
}).annotations({ identifier: "ClosingAuditChange" })

export const ClosingAuditSelection = Schema.Struct({
  mode: Schema.Literal("call_ids", "last_per_closer"),
  last_per_closer: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "ClosingAuditSelection" })

export const ClosingAuditSummary = Schema.Struct({
  audit_id: ClosingAuditId,
  title: Text,
  created_at: Timestamp,
  selection: ClosingAuditSelection,
  calls: Schema.Number.annotations({ description: "Calls the audit was made with (`call_list` holds those not deleted since)" }),
  credits_charged: Schema.Number,
  report_url: Text.annotations({ description: "The executive report (HTML)" }),
  pdf_url: Text.annotations({ description: "The executive report as PDF" })
}).annotations({ identifier: "ClosingAuditSummary" })

export const ClosingAudit = Schema.Struct({
  ...ClosingAuditSummary.fields,
  method: Text.annotations({ description: "The rules' version (docs/closing-audit.md)" }),
  target: Schema.Number.annotations({ description: "The score a dimension should reach (70)" }),
  calls_removed: Schema.Number.annotations({ description: "Calls the audit was made with that have been deleted since" }),
  call_list: Schema.Array(ClosingAuditCall).annotations({ description: "The calls, by closer, then newest first" }),
  team: Schema.Struct({
    closers: Schema.Number,
    overall: Schema.Struct(Spread),
    talk_ratio: Schema.NullOr(Schema.Number).annotations({ description: "The rep's mean share of talk time (0–1, three decimals)" }),
    objections: Schema.Number.annotations({ description: "Objections found in all the calls" }),
    calls_without_next_step: Schema.Array(CallId),
    dimensions: Schema.Array(ClosingAuditDimension),
    strengths: Schema.Array(ClosingAuditFinding).annotations({ description: "The team's two highest-scoring dimensions, with quotes that scored" }),
    weaknesses: Schema.Array(ClosingAuditFinding).annotations({ description: "The team's two lowest-scoring dimensions, with quotes that cost points" })
  }),
  closers: Schema.Array(ClosingAuditCloser),
  changes: Schema.Array(ClosingAuditChange).annotations({ description: "Up to three, most points first" })
}).annotations({ identifier: "ClosingAudit" })
export type ClosingAudit = typeof ClosingAudit.Type

export const ClosingAuditList = Schema.Struct({
  audits: Schema.Array(ClosingAuditSummary).annotations({ description: "Newest first" })
}).annotations({ identifier: "ClosingAuditList" })

export const CreateClosingAuditHeaders = Schema.Struct({
  ...ApiKeyOrSessionHeaders.fields,
  "idempotency-key": Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(255)).annotations({
    description: "The same key with the same body answers the audit made the first time, charged once; with another body, 409"
  }))
})

const AuditPath = Schema.Struct({ audit_id: ClosingAuditId })

export class ClosingAuditsApi extends HttpApiGroup.make("closingAudits")
  .add(
    HttpApiEndpoint.post("createClosingAudit", "/v1/client-portal/closing-audits")
      .setHeaders(CreateClosingAuditHeaders)
      .setPayload(strictBody(CreateClosingAuditRequest))
      .addSuccess(ClosingAudit, { status: 201 })
      .addError(NotFound)
      .addError(Conflict)
      .addError(PaymentRequired)
      .annotate(OpenApi.Summary, "Audit calls (the ones named, or the last N of each closer) and charge CLOSING_AUDIT_CREDITS credits once")
      .annotate(
        OpenApi.Description,
        "Exactly one of `call_ids` and `last_per_closer` (422 `detail` otherwise, and for a call named twice). A call of another " +
          "tenant, or unknown, is 404; one not completed 409, as is `last_per_closer` when no completed call has a closer. 402 " +
          "when fewer credits are free (the balance less the calls in flight) than the audit's price; nothing is charged then, " +
          "nor on any other failure."
      )
  )
  .add(
    HttpApiEndpoint.get("listClosingAudits", "/v1/client-portal/closing-audits")
      .setHeaders(ApiKeyOrSessionHeaders)
      .setUrlParams(Schema.Struct({ limit: queryInt({ min: 1, max: 200, default: 50, description: "Audits (1–200, default 50)" }) }))
      .addSuccess(ClosingAuditList)
      .annotate(OpenApi.Summary, "The tenant's closing audits, newest first")
  )
  .add(
    HttpApiEndpoint.get("getClosingAudit", "/v1/client-portal/closing-audits/:audit_id")
      .setPath(AuditPath)
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(ClosingAudit)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "A closing audit's figures, computed from the calls it names as they are now")
  )
  .add(
    HttpApiEndpoint.get("getClosingAuditReport", "/v1/client-portal/closing-audits/:audit_id/report")
      .setPath(AuditPath)
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/html" }))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "The audit's executive report: one self-contained, printable HTML page (A4)")
  )
  .add(
    HttpApiEndpoint.get("getClosingAuditPdf", "/v1/client-portal/closing-audits/:audit_id/report.pdf")
      .setPath(AuditPath)
      .setHeaders(ApiKeyOrSessionHeaders)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }).annotations({ description: "The report as PDF (A4)" }))
      .addError(NotFound)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "The audit's executive report as PDF, the HTML report printed by Chromium")
      .annotate(
        OpenApi.Description,
        "503 when the server has no PDF engine (Chromium at CHROMIUM_PATH) or it did not print in time; the HTML report still works."
      )
  )
  .middleware(TenantOrSessionAuth)
  .annotate(OpenApi.Title, "Closing audits")
  .annotate(
    OpenApi.Description,
    "Beyond the spec (issue 38): the Team Closing Audit, self-serve: the team's pattern across chosen calls, each closer's " +
      "strengths and gaps, the three changes that would move the most deals, and an executive report (HTML and PDF). A tenant " +
      "key, or the portal session of an owner or an admin (a member's is 403). docs/closing-audit.md."
  )
{}
