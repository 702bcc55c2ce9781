/**
 * What decides a tenant's speech-to-text provider, read without opening a key: its speech-capable
 * integration (the integrations feature's `llm_integrations`, read here, not imported; the same
 * choice as its repository's: Deepgram or AssemblyAI before OpenAI, then the latest saved) and when
 * it first saved one, and its `transcriber` runtime flag as saved with when the flags last changed.
 */
import { ClientId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

export const SpeechToTextFacts = Schema.Struct({
  integration: Schema.NullOr(Schema.String),
  integration_since: NullableIsoTimestamp,
  flag: Schema.Unknown,
  flags_updated_at: NullableIsoTimestamp
})
export type SpeechToTextFacts = typeof SpeechToTextFacts.Type

/**
 * The facts' columns for a tenant: the facts' own statement, and the status poll's beside its call
 * (calls/CallsRepo.ts `findStatus`), so that a poll is one statement.
 */
export const speechToTextFactsColumns = (sql: SqlClient.SqlClient, clientId: string) => {
  const speech = sql`provider IN ('deepgram', 'assemblyai', 'openai', 'openai-compatible')`
  return sql`(SELECT provider FROM llm_integrations WHERE client_id = ${clientId} AND ${speech}
              ORDER BY provider IN ('deepgram', 'assemblyai') DESC, updated_at DESC, provider LIMIT 1) AS integration,
             (SELECT min(created_at) FROM llm_integrations WHERE client_id = ${clientId} AND ${speech}) AS integration_since,
             (SELECT flags -> 'transcriber' FROM tenant_runtime_flags WHERE client_id = ${clientId}) AS flag,
             (SELECT updated_at FROM tenant_runtime_flags WHERE client_id = ${clientId}) AS flags_updated_at`
}

export class SpeechToTextQueries extends Effect.Service<SpeechToTextQueries>()("SpeechToTextQueries", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const facts = Rows.single({
      Request: ClientId,
      Result: SpeechToTextFacts,
      execute: (clientId) => sql`SELECT ${speechToTextFactsColumns(sql, clientId)}`
    })

    return { facts: (clientId: ClientId) => Effect.orDie(facts(clientId)) } as const
  })
}) {}
