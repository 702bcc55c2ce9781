/** The tenants' LLM and speech-to-text providers (`llm_integrations`), one per provider. */
import { ClientId, LlmIntegration, LlmProvider } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** An integration as the portal shows it (its capabilities are the provider's, added by the service). */
const IntegrationRow = Schema.Struct({
  ...Schema.Struct(LlmIntegration.fields).omit("capabilities").fields,
  last_used_at: NullableIsoTimestamp,
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
})
export type IntegrationRow = typeof IntegrationRow.Type

const columns = "provider, model, base_url, key_last4, last_used_at, last_error, created_at, updated_at"

export const SavedIntegration = Schema.Struct({
  clientId: ClientId,
  provider: LlmProvider,
  sealedKey: Schema.String,
  keyLast4: Schema.String,
  model: Schema.NullOr(Schema.String),
  baseUrl: Schema.NullOr(Schema.String)
})

const TenantProvider = Schema.Struct({ tenantId: ClientId, provider: Schema.String })

export class LlmIntegrationsRepo extends Effect.Service<LlmIntegrationsRepo>()("LlmIntegrationsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const list = Rows.findAll({
      Request: ClientId,
      Result: IntegrationRow,
      execute: (clientId) =>
        sql`SELECT ${sql.literal(columns)} FROM llm_integrations WHERE client_id = ${clientId} ORDER BY provider`
    })

    /** Saves the provider's integration whole (a second save replaces key, model and base URL). */
    const save = Rows.single({
      Request: SavedIntegration,
      Result: IntegrationRow,
      execute: (i) =>
        sql`INSERT INTO llm_integrations (client_id, provider, sealed_key, key_last4, model, base_url)
            VALUES (${i.clientId}, ${i.provider}, ${i.sealedKey}, ${i.keyLast4}, ${i.model}, ${i.baseUrl})
            ON CONFLICT (client_id, provider) DO UPDATE SET
              sealed_key = EXCLUDED.sealed_key, key_last4 = EXCLUDED.key_last4, model = EXCLUDED.model,
              base_url = EXCLUDED.base_url, last_error = NULL, updated_at = now()
            RETURNING ${sql.literal(columns)}`
    })

    const remove = Rows.findOne({
      Request: TenantProvider,
      Result: Schema.Struct({ provider: Schema.String, removed_at: IsoTimestamp }),
      execute: ({ provider, tenantId }) =>
        sql`DELETE FROM llm_integrations WHERE client_id = ${tenantId} AND provider = ${provider}
            RETURNING provider, now() AS removed_at`
    })

    /** The sealed key and settings of one provider, for the integration that calls it. */
    const sealed = Rows.findOne({
      Request: TenantProvider,
      Result: Schema.Struct({ sealed_key: Schema.String, model: Schema.NullOr(Schema.String), base_url: Schema.NullOr(Schema.String) }),
      execute: ({ provider, tenantId }) =>
        sql`SELECT sealed_key, model, base_url FROM llm_integrations WHERE client_id = ${tenantId} AND provider = ${provider}`
    })

    /**
     * The tenant's speech-to-text integration: a dedicated speech provider (Deepgram, AssemblyAI)
     * before an OpenAI or OpenAI-compatible one, then the most recently saved.
     */
    const speech = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({
        provider: Schema.Literal("deepgram", "assemblyai", "openai", "openai-compatible"),
        sealed_key: Schema.String,
        model: Schema.NullOr(Schema.String),
        base_url: Schema.NullOr(Schema.String)
      }),
      execute: (clientId) =>
        sql`SELECT provider, sealed_key, model, base_url FROM llm_integrations
            WHERE client_id = ${clientId} AND provider IN ('deepgram', 'assemblyai', 'openai', 'openai-compatible')
            ORDER BY provider IN ('deepgram', 'assemblyai') DESC, updated_at DESC, provider
            LIMIT 1`
    })

    /** The tenant's LLM integration (the providers with the `llm` capability): the most recently saved. */
    const llm = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({
        provider: Schema.Literal("openai", "anthropic", "openai-compatible"),
        sealed_key: Schema.String,
        model: Schema.NullOr(Schema.String),
        base_url: Schema.NullOr(Schema.String)
      }),
      execute: (clientId) =>
        sql`SELECT provider, sealed_key, model, base_url FROM llm_integrations
            WHERE client_id = ${clientId} AND provider IN ('openai', 'anthropic', 'openai-compatible')
            ORDER BY updated_at DESC, provider
            LIMIT 1`
    })

    /** The integration was used: when, and the error it ended in (null: none). */
    const recordUse = Rows.execute({
      Request: Schema.Struct({ tenantId: ClientId, provider: Schema.String, error: Schema.NullOr(Schema.String) }),
      execute: ({ error, provider, tenantId }) =>
        sql`UPDATE llm_integrations SET last_used_at = now(), last_error = ${error}
            WHERE client_id = ${tenantId} AND provider = ${provider}`
    })

    return {
      speech,
      llm,
      recordUse,
      list,
      save,
      remove: (clientId: ClientId, provider: string) => remove({ tenantId: clientId, provider }),
      sealed: (clientId: ClientId, provider: string) => sealed({ tenantId: clientId, provider })
    } as const
  })
}) {}
