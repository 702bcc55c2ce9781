/**
 * Who is calling: one middleware per kind of caller (docs/domain.md, "Who is calling").
 * The server provides their implementations; the declaration puts them in OpenAPI, each as a
 * security scheme (`adminKey`, `assistantKey`, `tenantKey`: the `X-API-Key` header; `session`: the
 * portal's cookie).
 *
 * Credentials are authentication, not validation: a request without its key or its session is
 * 401 `Unauthorized`, whose message says what to send, with a `WWW-Authenticate` challenge naming
 * the scheme (the server's http/Security.ts), never 422 (docs/decisions.md, "Keys").
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import type { ClientId, KeyId, Role, UserId } from "./Common.js"
import { Forbidden, Unauthorized } from "./Errors.js"

export const SESSION_COOKIE = "callsight_session"

/** The header every key travels in, as the documents spell it (HTTP header names are case-insensitive). */
export const API_KEY_HEADER_NAME = "X-API-Key"

/** The page where a person signs in to the portal (a magic link by e-mail). */
export const SIGN_IN_PATH = "/sign-in"

const apiKeyHeader = (description: string) =>
  HttpApiSecurity.apiKey({ in: "header", key: API_KEY_HEADER_NAME }).pipe(HttpApiSecurity.annotate(OpenApi.Description, description))

const WITHOUT_KEY = "Without it, or with an empty one: 401 with `WWW-Authenticate: ApiKey`; an unknown key: 401."

const adminKey = apiKeyHeader(`The admin key (\`ADMIN_API_KEY\`) in \`${API_KEY_HEADER_NAME}\`. ${WITHOUT_KEY}`)
const assistantKey = apiKeyHeader(
  `The assistant key (\`ASSISTANT_API_KEY\`; the admin key is accepted too) in \`${API_KEY_HEADER_NAME}\`. ${WITHOUT_KEY}`
)
const tenantKey = apiKeyHeader(`A tenant API key (\`csk_…\`) in \`${API_KEY_HEADER_NAME}\`. ${WITHOUT_KEY}`)
const sessionCookie = HttpApiSecurity.apiKey({ in: "cookie", key: SESSION_COOKIE }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    `The portal's session cookie, set by \`POST /v1/client-auth/verify\` (the e-mailed sign-in link opens \`${SIGN_IN_PATH}\`, ` +
      "which posts it). Without it, or with an unknown or expired one: 401 with `WWW-Authenticate: Cookie`."
  )
)

/**
 * Schema of the `X-API-Key` header, declared required on every keyed operation (the spec makes it a
 * required header). Missing, it is answered 401 by the operation's security middleware, which runs
 * before the parameters are decoded.
 */
export const ApiKeyHeaders = Schema.Struct({
  "x-api-key": Schema.String.annotations({ description: `The API key (see the operation's security). ${WITHOUT_KEY}` })
})

/**
 * The `X-API-Key` header of an operation that a signed-in browser may call with its session cookie
 * instead (`GET /reports/{call_id}/html`, the upload, the status, the list of calls, a call's
 * audio, deleting a call): optional on the wire (the document says so), and read as `""` when
 * absent, so the derived client still fills it in like the required header (a client made for a
 * browser, `session: true`, sends these without a key).
 */
export const ApiKeyOrSessionHeaders = Schema.Struct({
  "x-api-key": Schema.optionalWith(
    Schema.String.annotations({
      description: `A tenant API key; or none, from a browser signed in to the portal (the \`${SESSION_COOKIE}\` cookie)`
    }),
    { default: () => "" }
  )
})

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

/**
 * Whose calls the request sees (the server's policy table, `docs/policy.md`): the whole team's, or
 * one closer's only (a rep: a member whose e-mail is a verified closer of the tenant; `email` is
 * null for a member who is no closer, who then sees no call). Keys and staff see the team.
 */
export type Sees =
  | { readonly _tag: "Team" }
  | { readonly _tag: "Closer"; readonly email: string | null }

/** Who acts for the tenant: one of its API keys, one of its signed-in users, or staff through the assistant. */
export type ClientPrincipal =
  | { readonly _tag: "ApiKey"; readonly keyId: KeyId }
  | { readonly _tag: "User"; readonly user: UserIdentity; readonly sees: Sees }
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

const credentialFailures = Schema.Union(Unauthorized, Forbidden)

/** Staff key `ADMIN_API_KEY`; tenant keys are refused with 403. */
export class AdminAuth extends HttpApiMiddleware.Tag<AdminAuth>()("AdminAuth", {
  security: { adminKey },
  provides: Staff,
  failure: credentialFailures
}) {}

/** Staff key `ASSISTANT_API_KEY` (the admin key is accepted too). */
export class AssistantAuth extends HttpApiMiddleware.Tag<AssistantAuth>()("AssistantAuth", {
  security: { assistantKey },
  provides: Staff,
  failure: credentialFailures
}) {}

/** A tenant key (`csk_...`), looked up by its SHA-256 hash. */
export class TenantAuth extends HttpApiMiddleware.Tag<TenantAuth>()("TenantAuth", {
  security: { tenantKey },
  provides: CurrentClient,
  failure: credentialFailures
}) {}

/** The portal session cookie `callsight_session`. */
export class SessionAuth extends HttpApiMiddleware.Tag<SessionAuth>()("SessionAuth", {
  security: { session: sessionCookie },
  provides: CurrentClient,
  failure: credentialFailures
}) {}

/**
 * A tenant key, or else the portal session of one of the tenant's users: the two doors of the
 * operations both agents and people use (the evidence report, which agents fetch with their key and
 * people open from a link in a browser signed in to the portal; the upload, its status, the list of
 * calls and a call's audio, which the web app calls with the session). A presented key decides
 * alone (an unknown key is 401 even with a live session); either way the tenant is the caller's, so
 * another tenant's call is 404.
 */
export class TenantOrSessionAuth extends HttpApiMiddleware.Tag<TenantOrSessionAuth>()("TenantOrSessionAuth", {
  security: { tenantKey, session: sessionCookie },
  provides: CurrentClient,
  failure: credentialFailures
}) {}
