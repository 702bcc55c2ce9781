/**
 * Who is calling: one middleware per kind of caller (DOMAIN.md, "Who is calling").
 * The server provides their implementations; the declaration puts them in OpenAPI.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Schema } from "effect"
import { Forbidden, Unauthorized, ValidationFailed } from "./Errors.js"

export const SESSION_COOKIE = "callsight_session"

const apiKeyHeader = HttpApiSecurity.apiKey({ in: "header", key: "X-API-Key" })

/** Schema of the required `X-API-Key` header, declared on every keyed operation. */
export const ApiKeyHeaders = Schema.Struct({ "x-api-key": Schema.String })

export interface StaffIdentity {
  readonly kind: "admin" | "assistant"
}
export class Staff extends Context.Tag("@callsight/Staff")<Staff, StaffIdentity>() {}

export interface TenantIdentity {
  readonly clientId: string
  readonly keyId: string
}
export class CurrentTenant extends Context.Tag("@callsight/CurrentTenant")<CurrentTenant, TenantIdentity>() {}

export interface UserIdentity {
  readonly userId: string
  readonly clientId: string
  readonly email: string
  readonly role: "owner" | "admin" | "member"
}
export class CurrentUser extends Context.Tag("@callsight/CurrentUser")<CurrentUser, UserIdentity>() {}

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
  provides: CurrentTenant,
  failure: keyFailures
}) {}

/** The portal session cookie `callsight_session`. */
export class SessionAuth extends HttpApiMiddleware.Tag<SessionAuth>()("SessionAuth", {
  security: { session: HttpApiSecurity.apiKey({ in: "cookie", key: SESSION_COOKIE }) },
  provides: CurrentUser,
  failure: Schema.Union(Unauthorized, Forbidden)
}) {}
