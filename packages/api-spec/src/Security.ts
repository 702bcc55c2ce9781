/**
 * Who is calling: one middleware per kind of caller (docs/domain.md, "Who is calling").
 * The server provides their implementations; the declaration puts them in OpenAPI.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Schema } from "effect"
import type { ClientId, KeyId, Role, UserId } from "./Common.js"
import { Forbidden, Unauthorized, ValidationFailed } from "./Errors.js"

export const SESSION_COOKIE = "callsight_session"

const apiKeyHeader = HttpApiSecurity.apiKey({ in: "header", key: "X-API-Key" })

/** Schema of the required `X-API-Key` header, declared on every keyed operation. */
export const ApiKeyHeaders = Schema.Struct({ "x-api-key": Schema.String })

export type StaffKind = "admin" | "assistant"

export interface StaffIdentity {
  readonly kind: StaffKind
}
export class Staff extends Context.Tag("@callsight/Staff")<Staff, StaffIdentity>() {}

/** A portal user signed in with a session. */
export interface UserIdentity {
  readonly userId: UserId
  readonly clientId: ClientId
  readonly email: string
  readonly role: typeof Role.Type
}

/** Who acts for the tenant: one of its API keys, one of its signed-in users, or staff through the assistant. */
export type ClientPrincipal =
  | { readonly _tag: "ApiKey"; readonly keyId: KeyId }
  | { readonly _tag: "User"; readonly user: UserIdentity }
  | { readonly _tag: "Staff"; readonly kind: StaffKind }

export interface ClientIdentity {
  readonly clientId: ClientId
  readonly principal: ClientPrincipal
}

/**
 * The tenant a request acts for, however the caller proved it: the tenant key (`TenantAuth`), the
 * portal session (`SessionAuth`), or the assistant's `client_id` under the assistant key. Every
 * tenant-scoped read takes its `clientId`.
 */
export class CurrentClient extends Context.Tag("@callsight/CurrentClient")<CurrentClient, ClientIdentity>() {}

const keyFailures = Schema.Union(Unauthorized, Forbidden, ValidationFailed)

/** Staff key `ADMIN_API_KEY`; tenant keys are refused with 403. */
export class AdminAuth extends HttpApiMiddleware.Tag<AdminAuth>()("AdminAuth", {
  security: { adminKey: apiKeyHeader },
  provides: Staff,
  failure: keyFailures
}) {}

/** Staff key `ASSISTANT_API_KEY` (the admin key is accepted too). */
export class AssistantAuth extends HttpApiMiddleware.Tag<AssistantAuth>()("AssistantAuth", {
  security: { assistantKey: apiKeyHeader },
  provides: Staff,
  failure: keyFailures
}) {}

/** A tenant key (`csk_...`), looked up by its SHA-256 hash. */
export class TenantAuth extends HttpApiMiddleware.Tag<TenantAuth>()("TenantAuth", {
  security: { tenantKey: apiKeyHeader },
  provides: CurrentClient,
  failure: keyFailures
}) {}

/** The portal session cookie `callsight_session`. */
export class SessionAuth extends HttpApiMiddleware.Tag<SessionAuth>()("SessionAuth", {
  security: { session: HttpApiSecurity.apiKey({ in: "cookie", key: SESSION_COOKIE }) },
  provides: CurrentClient,
  failure: Schema.Union(Unauthorized, Forbidden)
}) {}
