/**
 * What the crm-a outcome sync reads and writes: the connections that sync, the outcomes people
 * recorded that their deal has not had as a note yet (`crm_outcome_notes`, one per call, of the
 * version of the outcome it carried), and the outcome truth of calls filled from closed deals.
 *
 * The outcome truth is the portal's table; the sync writes it here, in SQL, rather than through
 * the portal's service (features do not import features). A record the sync fills has no
 * `recorded_by`; one with a `recorded_by` is a person's, and the sync never changes it.
 */
import { CallId, CallSummary, ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** A connection whose outcomes sync, across tenants, with its sealed secrets. */
const SyncingRow = Schema.Struct({
  client_id: ClientId,
  sealed_secrets: Schema.String,
  synced_through: NullableIsoTimestamp
})
export type SyncingRow = typeof SyncingRow.Type

/** A person's outcome of a call with an external id, to write to its deal. */
const OutcomeToWrite = Schema.Struct({
  call_id: CallId,
  external_call_id: Schema.String,
  outcome: Schema.String,
  deal_value: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  closed_at: NullableIsoTimestamp,
  stage: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  notes: Schema.NullOr(Schema.String),
  /** The call's summary (`result.summary`): null before the analysis had one. */
  summary: Schema.optionalWith(Schema.NullOr(CallSummary), { default: () => null }),
  /** `updated_at` as PostgreSQL writes it (microseconds kept): the version the note carries. */
  version: Schema.String
})
export type OutcomeToWrite = typeof OutcomeToWrite.Type

const Claim = Schema.Struct({ clientId: ClientId, callId: CallId, provider: Schema.String, version: Schema.String })

const NoteDone = Schema.Struct({
  callId: CallId,
  provider: Schema.String,
  state: Schema.Literal("written", "no_deal", "failed"),
  dealId: Schema.NullOr(Schema.String),
  noteId: Schema.NullOr(Schema.String)
})

/** The outcome a closed deal gives the calls that match it (by deal id, or a contact's e-mail). */
export const DealOutcome = Schema.Struct({
  clientId: ClientId,
  dealId: Schema.String,
  /** The deal's contacts' e-mail addresses, lower case, as a JSON array. */
  emails: Schema.Array(Schema.String),
  outcome: Schema.Literal("won", "lost"),
  dealValue: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  closedAt: Schema.NullOr(Schema.String),
  stage: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  notes: Schema.NullOr(Schema.String)
})
export type DealOutcome = typeof DealOutcome.Type

const SyncDone = Schema.Struct({
  clientId: ClientId,
  provider: Schema.String,
  /** The secrets the pass used: a connection saved again meanwhile is not marked by it. */
  sealedSecrets: Schema.String,
  status: Schema.Literal("connected", "error"),
  lastError: Schema.NullOr(Schema.String),
  syncedThrough: Schema.NullOr(Schema.String)
})

/** An outcome written to a deal again after this long without a deal, or after a failure. */
const RETRY = "1 hour"
/** A claim whose writer is gone (no answer, process ended) is taken again after this long. */
const ABANDONED = "10 minutes"
/** Outcomes recorded longer ago than this are not written to the CRM. */
const WINDOW = "30 days"

export class CrmSyncRepo extends Effect.Service<CrmSyncRepo>()("CrmSyncRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const syncing = Rows.findAll({
      Request: Schema.String,
      Result: SyncingRow,
      execute: (provider) =>
        sql`SELECT client_id, sealed_secrets, synced_through FROM crm_connections
            WHERE provider = ${provider} AND sync_outcomes ORDER BY client_id`
    })

    const toWrite = Rows.findAll({
      Request: Schema.Struct({ tenantId: ClientId, provider: Schema.String, limit: Schema.Number }),
      Result: OutcomeToWrite,
      execute: ({ limit, provider, tenantId }) =>
        sql`SELECT o.call_id, c.external_call_id, o.outcome, o.deal_value, o.currency, o.closed_at, o.stage, o.reason,
                   o.notes, c.result -> 'summary' AS summary, o.updated_at::text AS version
            FROM outcome_truth o
            JOIN calls c ON c.call_id = o.call_id AND c.client_id = o.client_id
            LEFT JOIN crm_outcome_notes n ON n.call_id = o.call_id AND n.provider = ${provider}
            WHERE o.client_id = ${tenantId} AND o.recorded_by IS NOT NULL AND c.external_call_id IS NOT NULL
              AND o.updated_at > now() - ${sql.literal(`interval '${WINDOW}'`)}
              AND (n.call_id IS NULL OR n.outcome_updated_at < o.updated_at
                   OR (n.state IN ('no_deal', 'failed') AND n.attempted_at < now() - ${sql.literal(`interval '${RETRY}'`)})
                   OR (n.state = 'writing' AND n.attempted_at < now() - ${sql.literal(`interval '${ABANDONED}'`)}))
            ORDER BY n.attempted_at NULLS FIRST, o.updated_at, o.call_id
            LIMIT ${limit}`
    })

    /** Takes the writing of this version of the call's outcome; none when another process has it, or had it. */
    const claim = Rows.findOne({
      Request: Claim,
      Result: Schema.Struct({ call_id: CallId }),
      execute: (c) =>
        sql`INSERT INTO crm_outcome_notes (call_id, provider, client_id, outcome_updated_at, state)
            SELECT o.call_id, ${c.provider}, o.client_id, o.updated_at, 'writing' FROM outcome_truth o
            WHERE o.call_id = ${c.callId} AND o.client_id = ${c.clientId} AND o.updated_at = ${c.version}::timestamptz
            ON CONFLICT (call_id, provider) DO UPDATE SET
              outcome_updated_at = EXCLUDED.outcome_updated_at, state = 'writing', deal_id = NULL, note_id = NULL,
              attempted_at = now()
            WHERE crm_outcome_notes.outcome_updated_at < EXCLUDED.outcome_updated_at
               OR (crm_outcome_notes.state IN ('no_deal', 'failed') AND crm_outcome_notes.attempted_at < now() - ${sql.literal(`interval '${RETRY}'`)})
               OR (crm_outcome_notes.state = 'writing' AND crm_outcome_notes.attempted_at < now() - ${sql.literal(`interval '${ABANDONED}'`)})
            RETURNING call_id`
    })

    const finish = Rows.execute({
      Request: NoteDone,
      execute: (n) =>
        sql`UPDATE crm_outcome_notes SET state = ${n.state}, deal_id = ${n.dealId}, note_id = ${n.noteId}, attempted_at = now()
            WHERE call_id = ${n.callId} AND provider = ${n.provider}`
    })

    /**
     * Fills the outcome truth of the tenant's calls the deal matches: a new record, or one the
     * sync filled before and the deal now changes; never a person's. Answers the calls changed.
     */
    const fill = Rows.findAll({
      Request: DealOutcome,
      Result: Schema.Struct({ call_id: CallId }),
      execute: (d) =>
        sql`INSERT INTO outcome_truth (call_id, client_id, outcome, deal_value, currency, closed_at, stage, reason, notes, is_test_data, recorded_by)
            SELECT c.call_id, c.client_id, ${d.outcome}::text, ${d.dealValue}::float8, ${d.currency}::text, ${d.closedAt}::timestamptz,
                   ${d.stage}::text, ${d.reason}::text, ${d.notes}::text, t.is_test, NULL
            FROM calls c JOIN tenants t ON t.client_id = c.client_id
            WHERE c.client_id = ${d.clientId} AND c.external_call_id IS NOT NULL
              AND (c.external_call_id = ${d.dealId}
                   OR lower(c.external_call_id) IN (SELECT jsonb_array_elements_text(${JSON.stringify(d.emails)}::jsonb)))
            ON CONFLICT (call_id) DO UPDATE SET
              outcome = EXCLUDED.outcome, deal_value = EXCLUDED.deal_value, currency = EXCLUDED.currency,
              closed_at = EXCLUDED.closed_at, stage = EXCLUDED.stage, reason = EXCLUDED.reason, notes = EXCLUDED.notes,
              updated_at = now()
            WHERE outcome_truth.recorded_by IS NULL AND outcome_truth.client_id = EXCLUDED.client_id
              AND (outcome_truth.outcome, outcome_truth.deal_value, outcome_truth.currency, outcome_truth.closed_at,
                   outcome_truth.stage, outcome_truth.reason, outcome_truth.notes)
                  IS DISTINCT FROM (EXCLUDED.outcome, EXCLUDED.deal_value, EXCLUDED.currency, EXCLUDED.closed_at,
                   EXCLUDED.stage, EXCLUDED.reason, EXCLUDED.notes)
            RETURNING call_id`
    })

    /** The pass over a connection is done: when, how far its closed deals were read, what went wrong. */
    const done = Rows.execute({
      Request: SyncDone,
      execute: (s) =>
        sql`UPDATE crm_connections SET last_sync_at = now(), status = ${s.status}, last_error = ${s.lastError},
              synced_through = COALESCE(${s.syncedThrough}::timestamptz, synced_through)
            WHERE client_id = ${s.clientId} AND provider = ${s.provider} AND sealed_secrets = ${s.sealedSecrets}`
    })

    return {
      syncing,
      toWrite: (clientId: ClientId, provider: string, limit: number) => toWrite({ tenantId: clientId, provider, limit }),
      claim,
      finish,
      fill,
      done
    } as const
  })
}) {}
