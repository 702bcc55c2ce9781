/**
 * The tenants' CRM connections (`crm_connections`), one per provider: crm-a whether saved by
 * `PUT /integrations/crm-a` or `POST /crm/connect`, Salesforce, Pipedrive. The secret fields are
 * one sealed JSON object; their last four characters are kept beside it for reads.
 */
import { ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const Strings = Schema.Record({ key: Schema.String, value: Schema.String })

/** A connection as reads show it: no secret but last fours. */
export const ConnectionRow = Schema.Struct({
  provider: Schema.Literal("crm-a", "salesforce", "pipedrive"),
  status: Schema.Literal("connected", "error"),
  fields: Strings,
  secret_last4: Strings,
  sync_outcomes: Schema.Boolean,
  last_sync_at: NullableIsoTimestamp,
  last_error: Schema.NullOr(Schema.String),
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
})
export type ConnectionRow = typeof ConnectionRow.Type

const columns = "provider, status, fields, secret_last4, sync_outcomes, last_sync_at, last_error, created_at, updated_at"

export const SavedConnection = Schema.Struct({
  clientId: ClientId,
  provider: ConnectionRow.fields.provider,
  fields: Strings,
  sealedSecrets: Schema.String,
  secretLast4: Strings,
  /** null: keep the connection's setting (false for a new one). */
  syncOutcomes: Schema.NullOr(Schema.Boolean)
})

const TenantProvider = Schema.Struct({ tenantId: ClientId, provider: Schema.String })

export class CrmConnectionsRepo extends Effect.Service<CrmConnectionsRepo>()("CrmConnectionsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const list = Rows.findAll({
      Request: ClientId,
      Result: ConnectionRow,
      execute: (clientId) =>
        sql`SELECT ${sql.literal(columns)} FROM crm_connections WHERE client_id = ${clientId} ORDER BY provider`
    })

    const find = Rows.findOne({
      Request: TenantProvider,
      Result: ConnectionRow,
      execute: ({ provider, tenantId }) =>
        sql`SELECT ${sql.literal(columns)} FROM crm_connections WHERE client_id = ${tenantId} AND provider = ${provider}`
    })

    /**
     * Saves the provider's connection whole: new credentials replace the old ones, the state of a
     * failed sync is cleared; a crm-a saved again keeps how far its closed deals were read.
     */
    const save = Rows.single({
      Request: SavedConnection,
      Result: ConnectionRow,
      execute: (c) =>
        sql`INSERT INTO crm_connections (client_id, provider, fields, sealed_secrets, secret_last4, sync_outcomes)
            VALUES (${c.clientId}, ${c.provider}, ${JSON.stringify(c.fields)}::jsonb, ${c.sealedSecrets},
                    ${JSON.stringify(c.secretLast4)}::jsonb, ${c.syncOutcomes ?? false})
            ON CONFLICT (client_id, provider) DO UPDATE SET
              fields = EXCLUDED.fields, sealed_secrets = EXCLUDED.sealed_secrets, secret_last4 = EXCLUDED.secret_last4,
              sync_outcomes = COALESCE(${c.syncOutcomes}::boolean, crm_connections.sync_outcomes),
              status = 'connected', last_error = NULL, updated_at = now()
            RETURNING ${sql.literal(columns)}`
    })

    const remove = Rows.findOne({
      Request: TenantProvider,
      Result: Schema.Struct({ provider: Schema.String, removed_at: IsoTimestamp }),
      execute: ({ provider, tenantId }) =>
        sql`DELETE FROM crm_connections WHERE client_id = ${tenantId} AND provider = ${provider}
            RETURNING provider, now() AS removed_at`
    })

    return {
      list,
      save,
      find: (clientId: ClientId, provider: string) => find({ tenantId: clientId, provider }),
      remove: (clientId: ClientId, provider: string) => remove({ tenantId: clientId, provider })
    } as const
  })
}) {}
