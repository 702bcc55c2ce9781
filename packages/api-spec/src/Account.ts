/**
 * The account's data (issue 36; docs/portal.md "Retention", "Export"), beyond the spec: how long the
 * tenant's recordings and analyses are kept (every user reads the setting; owners and admins change
 * it), and the export of all the tenant's data (owners).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ClientId, Timestamp, strictBody } from "./Common.js"
import { Conflict, Forbidden } from "./Errors.js"
import { SessionAuth } from "./Security.js"

/** A number of days to keep something, or null: forever. */
const Days = Schema.NullOr(Schema.Int.pipe(Schema.between(1, 36_500))).annotations({
  description: "Days from a call's upload (1 to 36500), or null to keep it for ever"
})

export class RetentionSettings extends Schema.Class<RetentionSettings>("RetentionSettings")({
  audio_days: Days.annotations({ description: "How long a call's recording is kept, in days from its upload; null: for ever (the default)" }),
  analysis_days: Days.annotations({
    description: "How long a call is kept at all (its analysis, transcript, report, outcome record), in days from its upload; null: for ever"
  })
}) {}

export const Retention = Schema.Struct({
  ...RetentionSettings.fields,
  updated_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "Retention" })

export class CloseAccountRequest extends Schema.Class<CloseAccountRequest>("CloseAccountRequest")({
  company_name: Schema.String.annotations({ description: "The account's company name, as it is: the confirmation" })
}) {}

export const ClosingAccount = Schema.Struct({
  client_id: ClientId,
  closing_at: Timestamp,
  deleted_after: Timestamp.annotations({ description: "When the retention pass deletes all the account's data (ACCOUNT_CLOSE_GRACE_DAYS after closing)" }),
  api_keys_revoked: Schema.Number
}).annotations({ identifier: "ClosingAccount" })

export const ReopenedAccount = Schema.Struct({
  client_id: ClientId,
  closing: Schema.Literal(false)
}).annotations({ identifier: "ReopenedAccount" })

export class AccountApi extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.get("getRetention", "/retention")
      .addSuccess(Retention)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "How long the tenant's recordings and calls are kept (null: for ever)")
  )
  .add(
    HttpApiEndpoint.put("saveRetention", "/retention")
      .setPayload(strictBody(RetentionSettings))
      .addSuccess(Retention)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Set how long recordings and calls are kept (owners and admins); the retention pass removes what is older")
      .annotate(
        OpenApi.Description,
        "A background pass (every RETENTION_INTERVAL_SECONDS) removes the recordings of calls older than `audio_days` (the " +
          "analysis stays; re-analysis is then 409) and deletes calls older than `analysis_days` as `DELETE /v1/teams/calls/{call_id}` " +
          "does (the ledger keeps their charges). Calls still queued or processing are left until they end."
      )
  )
  .add(
    HttpApiEndpoint.get("exportAccount", "/export")
      .addSuccess(HttpApiSchema.Text({ contentType: "application/x-ndjson" }))
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "All the tenant's data as NDJSON, one record a line (owners): no secret, in any form")
      .annotate(
        OpenApi.Description,
        "Lines `{\"type\", \"data\"}` of types `tenant`, `setting` (market and lead-context profiles, retention), `member`, " +
          "`closer`, `call` (with its whole analysis), `outcome`, `manual_audit`, `tracker`, `ledger` and `audit_log`, streamed as read. " +
          "Never exported: API keys, sessions, sign-in links, integration tokens, webhook and callback secrets."
      )
  )
  .add(
    HttpApiEndpoint.post("closeAccount", "/close")
      .setPayload(strictBody(CloseAccountRequest))
      .addSuccess(ClosingAccount, { status: 202 })
      .addError(Forbidden)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Close the account (owners): its API keys stop at once; all its data is deleted after the grace period the answer states")
      .annotate(
        OpenApi.Description,
        "The body names the company, to confirm (409 otherwise, or when the account is closing already). Until `deleted_after` the " +
          "users still sign in and may export the data; then the retention pass deletes the recordings, the calls and the tenant."
      )
  )
  .add(
    HttpApiEndpoint.del("cancelClosing", "/close")
      .addSuccess(ReopenedAccount)
      .addError(Forbidden)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Keep the account after all (owners), while its grace period runs: nothing is deleted; API keys stay revoked")
      .annotate(OpenApi.Description, "409 when the account is not closing. The keys revoked at closing stay revoked: create new ones.")
  )
  .prefix("/v1/client-portal")
  .annotate(OpenApi.Title, "Account data")
  .annotate(OpenApi.Description, "Beyond the spec: how long the tenant's recordings and calls are kept, and the export of its data (issue 36).")
{}
