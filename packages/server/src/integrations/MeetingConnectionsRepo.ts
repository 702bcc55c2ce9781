/**
 * The calendar and video connections of closers: the OAuth flows in progress (`oauth_states`, by
 * the SHA-256 of `state` only) and the connections (`closer_integrations`, tokens sealed).
 */
import { ClientId, CloserId, MeetingIntegrationKind, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

/** A flow in progress, as the callback finds it. */
export const StateRow = Schema.Struct({
  kind: MeetingIntegrationKind,
  client_id: ClientId,
  user_id: UserId,
  closer_id: CloserId,
  sealed_verifier: Schema.String,
  expired: Schema.Boolean,
  used: Schema.Boolean
})
export type StateRow = typeof StateRow.Type

/** A connection with its sealed tokens, for the code that calls the provider. */
export const ConnectionRow = Schema.Struct({
  closer_id: CloserId,
  kind: MeetingIntegrationKind,
  client_id: ClientId,
  closer_email: Schema.String,
  status: Schema.Literal("connected", "error"),
  sealed_access_token: Schema.String,
  sealed_refresh_token: Schema.NullOr(Schema.String),
  token_expires_at: NullableIsoTimestamp
})
export type ConnectionRow = typeof ConnectionRow.Type

/** Tokens as the provider issued them, sealed. */
export const SealedTokens = Schema.Struct({
  sealedAccessToken: Schema.String,
  sealedRefreshToken: Schema.NullOr(Schema.String),
  tokenLast4: Schema.String,
  /** Seconds from now; null when the provider did not say. */
  expiresIn: Schema.NullOr(Schema.Number),
  scope: Schema.NullOr(Schema.String)
})
export type SealedTokens = typeof SealedTokens.Type

const Connection = Schema.Struct({ closerId: CloserId, kind: MeetingIntegrationKind })

export class MeetingConnectionsRepo extends Effect.Service<MeetingConnectionsRepo>()("MeetingConnectionsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertState = Rows.execute({
      Request: Schema.Struct({
        stateHash: Schema.String,
        kind: MeetingIntegrationKind,
        clientId: ClientId,
        userId: UserId,
        closerId: CloserId,
        sealedVerifier: Schema.String,
        minutes: Schema.Number
      }),
      execute: (s) =>
        sql`INSERT INTO oauth_states (state_hash, kind, client_id, user_id, closer_id, sealed_verifier, expires_at)
            VALUES (${s.stateHash}, ${s.kind}, ${s.clientId}, ${s.userId}, ${s.closerId}, ${s.sealedVerifier},
                    now() + make_interval(mins => ${s.minutes}))`
    })

    /** The flow of a state, whatever its condition (the callback says why it refuses one). */
    const findState = Rows.findOne({
      Request: Schema.String,
      Result: StateRow,
      execute: (hash) =>
        sql`SELECT kind, client_id, user_id, closer_id, sealed_verifier, expires_at <= now() AS expired,
                   used_at IS NOT NULL AS used
            FROM oauth_states WHERE state_hash = ${hash}`
    })

    /** Marks the state used, once: true for the one caller that did. */
    const consumeState = Rows.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ state_hash: Schema.String }),
      execute: (hash) =>
        sql`UPDATE oauth_states SET used_at = now()
            WHERE state_hash = ${hash} AND used_at IS NULL AND expires_at > now() RETURNING state_hash`
    })

    /** Flows that ended a day ago or more are of no use to anyone. */
    const purgeStates = Rows.execute({
      Request: Schema.Void,
      execute: () => sql`DELETE FROM oauth_states WHERE expires_at < now() - interval '1 day'`
    })

    /** Saves the closer's connection whole: a second connection replaces the tokens. */
    const save = Rows.execute({
      Request: Schema.Struct({ clientId: ClientId, closerId: CloserId, kind: MeetingIntegrationKind, tokens: SealedTokens }),
      execute: ({ clientId, closerId, kind, tokens: t }) =>
        sql`INSERT INTO closer_integrations (closer_id, kind, client_id, status, sealed_access_token,
                                             sealed_refresh_token, token_last4, token_expires_at, scope)
            VALUES (${closerId}, ${kind}, ${clientId}, 'connected', ${t.sealedAccessToken}, ${t.sealedRefreshToken},
                    ${t.tokenLast4}, CASE WHEN ${t.expiresIn}::int IS NULL THEN NULL
                                          ELSE now() + make_interval(secs => ${t.expiresIn}) END, ${t.scope})
            ON CONFLICT (closer_id, kind) DO UPDATE SET
              status = 'connected', sealed_access_token = EXCLUDED.sealed_access_token,
              sealed_refresh_token = EXCLUDED.sealed_refresh_token, token_last4 = EXCLUDED.token_last4,
              token_expires_at = EXCLUDED.token_expires_at, scope = EXCLUDED.scope,
              connected_at = now(), updated_at = now(), last_error = NULL, last_error_at = NULL`
    })

    /** New tokens from a refresh; a provider that issues no new refresh token keeps the old one. */
    const refreshed = Rows.execute({
      Request: Schema.Struct({ closerId: CloserId, kind: MeetingIntegrationKind, tokens: SealedTokens }),
      execute: ({ closerId, kind, tokens: t }) =>
        sql`UPDATE closer_integrations SET status = 'connected', sealed_access_token = ${t.sealedAccessToken},
                   sealed_refresh_token = COALESCE(${t.sealedRefreshToken}, sealed_refresh_token),
                   token_last4 = ${t.tokenLast4},
                   token_expires_at = CASE WHEN ${t.expiresIn}::int IS NULL THEN NULL
                                           ELSE now() + make_interval(secs => ${t.expiresIn}) END,
                   updated_at = now(), last_error = NULL, last_error_at = NULL
            WHERE closer_id = ${closerId} AND kind = ${kind}`
    })

    const markError = Rows.execute({
      Request: Schema.Struct({ closerId: CloserId, kind: MeetingIntegrationKind, error: Schema.String }),
      execute: ({ closerId, error, kind }) =>
        sql`UPDATE closer_integrations SET status = 'error', last_error = ${error}, last_error_at = now(), updated_at = now()
            WHERE closer_id = ${closerId} AND kind = ${kind}`
    })

    const markSuccess = Rows.execute({
      Request: Connection,
      execute: ({ closerId, kind }) =>
        sql`UPDATE closer_integrations SET last_success_at = now() WHERE closer_id = ${closerId} AND kind = ${kind}`
    })

    const connectionColumns = sql`ci.closer_id, ci.kind, ci.client_id, c.email AS closer_email, ci.status,
      ci.sealed_access_token, ci.sealed_refresh_token, ci.token_expires_at`

    /** The closer's connection of this kind, in the tenant. */
    const find = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, closerId: CloserId, kind: MeetingIntegrationKind }),
      Result: ConnectionRow,
      execute: ({ closerId, kind, tenantId }) =>
        sql`SELECT ${connectionColumns} FROM closer_integrations ci JOIN closers c ON c.closer_id = ci.closer_id
            WHERE ci.client_id = ${tenantId} AND ci.closer_id = ${closerId} AND ci.kind = ${kind}`
    })

    /** Closers (not removed) with a working calendar or video connection (all tenants, or one). */
    const connectedClosers = Rows.findAll({
      Request: Schema.NullOr(ClientId),
      Result: Schema.Struct({ client_id: ClientId, closer_id: CloserId, closer_email: Schema.String }),
      execute: (tenantId) =>
        sql`SELECT DISTINCT c.client_id, c.closer_id, c.email AS closer_email
            FROM closer_integrations ci JOIN closers c ON c.closer_id = ci.closer_id
            WHERE ci.status = 'connected' AND c.status <> 'removed'
              AND (${tenantId}::text IS NULL OR ci.client_id = ${tenantId})
            ORDER BY c.client_id, c.closer_id`
    })

    /** Working connections whose token expires within `seconds` and that can be refreshed. */
    const expiring = Rows.findAll({
      Request: Schema.Number,
      Result: ConnectionRow,
      execute: (seconds) =>
        sql`SELECT ${connectionColumns} FROM closer_integrations ci JOIN closers c ON c.closer_id = ci.closer_id
            WHERE ci.status = 'connected' AND ci.sealed_refresh_token IS NOT NULL
              AND ci.token_expires_at < now() + make_interval(secs => ${seconds})`
    })

    const remove = Rows.findOne({
      Request: Schema.Struct({ tenantId: ClientId, closerId: CloserId, kind: MeetingIntegrationKind }),
      Result: Schema.Struct({ removed_at: IsoTimestamp }),
      execute: ({ closerId, kind, tenantId }) =>
        sql`DELETE FROM closer_integrations WHERE client_id = ${tenantId} AND closer_id = ${closerId} AND kind = ${kind}
            RETURNING now() AS removed_at`
    })

    return {
      insertState,
      findState,
      consumeState: (hash: string) => Effect.map(consumeState(hash), (row) => row._tag === "Some"),
      purgeStates: purgeStates(undefined),
      save,
      refreshed,
      markError,
      markSuccess,
      find: (clientId: ClientId, closerId: CloserId, kind: MeetingIntegrationKind) => find({ tenantId: clientId, closerId, kind }),
      connectedClosers,
      expiring,
      remove: (clientId: ClientId, closerId: CloserId, kind: MeetingIntegrationKind) => remove({ tenantId: clientId, closerId, kind })
    } as const
  })
}) {}
