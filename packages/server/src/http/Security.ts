/**
 * The implementations of the security middlewares declared in api-spec (docs/decisions.md, "Keys").
 *
 * Credentials are authentication: a request without them is 401, not a validation failure. A
 * missing or empty `X-API-Key` is 401 with a message saying which key to send; a key that is not
 * known is 401 ("invalid API key"); a known key of the wrong kind is 403. The portal's session
 * cookie: missing is 401 naming the sign-in page, unknown or expired 401 too. Every 401 of these
 * middlewares carries a `WWW-Authenticate` challenge naming the scheme (RFC 9110 §11.6.1):
 * `ApiKey` for the key (with the header's name), `Cookie` for the session (with the cookie's name
 * and the sign-in page, after draft-broyer-http-cookie-auth); the report, which takes either,
 * names both. The key is checked before the parameters are decoded (the platform runs the
 * security middleware first), so the key's 401 comes before any 422 of the parameters.
 */
import {
  AdminAuth,
  API_KEY_HEADER_NAME,
  CallsightApi,
  AssistantAuth,
  type ClientIdentity,
  Forbidden,
  type Role,
  SESSION_COOKIE,
  SessionAuth,
  SIGN_IN_PATH,
  TenantAuth,
  TenantOrSessionAuth,
  Unauthorized
} from "@callsight/api-spec"
import { HttpApi, HttpApp, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Option, Redacted } from "effect"
import { accessOf } from "../tenancy/Policy.js"
import { seesWhere, TEAM } from "../tenancy/Sees.js"
import { SessionCookie } from "../tenancy/SessionCookie.js"
import { SessionsRepo } from "../tenancy/SessionsRepo.js"
import { StaffKeys } from "../tenancy/StaffKeys.js"
import { TenantKeys } from "../tenancy/TenantKeys.js"

/** The challenge of the key's scheme: an API key in the `X-API-Key` header. */
export const KEY_CHALLENGE = `ApiKey realm="callsight", header="${API_KEY_HEADER_NAME}"`

/** The challenge of the portal's scheme: the session cookie, which the sign-in page sets. */
export const SESSION_CHALLENGE = `Cookie realm="callsight", cookie-name="${SESSION_COOKIE}", form-action="${SIGN_IN_PATH}"`

/**
 * This request's answer, when it is a 401, carries these challenges. A pre-response handler, so
 * the answer the platform encodes from the failure gets it; it never replaces a challenge the
 * answer already has (`POST /mcp` sets its own `Bearer`), and a 401 is the only answer it touches.
 */
const challenge = (...schemes: ReadonlyArray<string>) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(
      response.status === 401 && response.headers["www-authenticate"] === undefined
        ? HttpServerResponse.setHeader(response, "www-authenticate", schemes.join(", "))
        : response
    )
  )

/** Fails with the 401 `error`, its answer challenged with `schemes`. */
const unauthorized = (error: Unauthorized, ...schemes: ReadonlyArray<string>) =>
  Effect.zipRight(challenge(...schemes), Effect.fail(error))

/** What each kind of key is, in the message of a request that came without one. */
const missingKey = (what: string) =>
  new Unauthorized({ message: `missing credentials: send ${what} in the ${API_KEY_HEADER_NAME} header` })

const TENANT_KEY = "your API key"
const ADMIN_KEY = "the admin key (ADMIN_API_KEY)"
const ASSISTANT_KEY = "the assistant key (ASSISTANT_API_KEY) or the admin key"

const unknownKey = new Unauthorized({ message: "invalid API key" })

const missingSession = new Unauthorized({
  message: `missing credentials: sign in at ${SIGN_IN_PATH} (this operation needs the ${SESSION_COOKIE} cookie the sign-in sets)`
})
const staleSession = new Unauthorized({ message: `the session is unknown or expired: sign in again at ${SIGN_IN_PATH}` })
const missingEither = new Unauthorized({
  message: `missing credentials: send your API key in the ${API_KEY_HEADER_NAME} header, ` +
    `or open this link in a browser signed in to the portal (${SIGN_IN_PATH})`
})

/** The presented key, trimmed; empty when none was sent (the platform reads a missing header as ""). */
const keyOf = (value: Redacted.Redacted<string>) => Redacted.value(value).trim()

/** Credentials of every kind: which caller a presented key belongs to. */
export class Credentials extends Effect.Service<Credentials>()("Credentials", {
  effect: Effect.gen(function* () {
    const staff = yield* StaffKeys
    const keys = yield* TenantKeys
    return { staff: staff.identify, tenantKey: keys.find } as const
  }),
  dependencies: [StaffKeys.Default, TenantKeys.Default]
}) {}

/** A presented (non-empty) tenant key: its tenant, 403 for a staff key, else 401. */
const tenantKeyDoor = (credentials: Credentials) => (key: string) =>
  Effect.gen(function* () {
    const row = yield* credentials.tenantKey(key)
    if (Option.isSome(row)) {
      return { clientId: row.value.client_id, principal: { _tag: "ApiKey", keyId: row.value.key_id } } as ClientIdentity
    }
    if (Option.isSome(credentials.staff(key))) {
      return yield* new Forbidden({ message: "staff keys cannot act as a tenant: use a tenant key" })
    }
    return yield* unknownKey
  })

export const AdminAuthLive = Layer.effect(
  AdminAuth,
  Effect.map(Credentials, (credentials) =>
    AdminAuth.of({
      adminKey: (value) =>
        Effect.gen(function* () {
          const key = keyOf(value)
          if (key === "") return yield* unauthorized(missingKey(ADMIN_KEY), KEY_CHALLENGE)
          const kind = credentials.staff(key)
          if (Option.isSome(kind) && kind.value === "admin") return { kind: "admin" as const }
          if (Option.isSome(kind) || Option.isSome(yield* credentials.tenantKey(key))) {
            return yield* new Forbidden({ message: "this operation needs the admin key" })
          }
          return yield* unauthorized(unknownKey, KEY_CHALLENGE)
        })
    })
  )
)

export const AssistantAuthLive = Layer.effect(
  AssistantAuth,
  Effect.map(Credentials, (credentials) =>
    AssistantAuth.of({
      assistantKey: (value) =>
        Effect.gen(function* () {
          const key = keyOf(value)
          if (key === "") return yield* unauthorized(missingKey(ASSISTANT_KEY), KEY_CHALLENGE)
          const kind = credentials.staff(key)
          if (Option.isSome(kind)) return { kind: kind.value }
          if (Option.isSome(yield* credentials.tenantKey(key))) {
            return yield* new Forbidden({ message: "this operation needs the assistant key" })
          }
          return yield* unauthorized(unknownKey, KEY_CHALLENGE)
        })
    })
  )
)

export const TenantAuthLive = Layer.effect(
  TenantAuth,
  Effect.map(Credentials, (credentials) => {
    const door = tenantKeyDoor(credentials)
    return TenantAuth.of({
      tenantKey: (value) => {
        const key = keyOf(value)
        if (key === "") return unauthorized(missingKey(TENANT_KEY), KEY_CHALLENGE)
        return door(key).pipe(Effect.tapErrorTag("Unauthorized", () => challenge(KEY_CHALLENGE)))
      }
    })
  })
)

/** Each operation of the declaration by its route (`GET /v1/client-portal/members`): the policy's key, `group.endpoint`. */
const OPERATIONS: ReadonlyMap<string, string> = (() => {
  const byRoute = new Map<string, string>()
  HttpApi.reflect(CallsightApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group }) => void byRoute.set(`${endpoint.method} ${endpoint.path}`, `${group.identifier}.${endpoint.name}`)
  })
  return byRoute
})()

/**
 * The policy (tenancy/Policy.ts) at the session's door: the operation of the route being answered;
 * 403 when the table does not let the user's role call it; for "self", the calls of the verified
 * closer the user is (`closerEmail`, none: no call), else the team's.
 */
const permitted = (role: typeof Role.Type, closerEmail: string | null) =>
  Effect.gen(function* () {
    const context = yield* Effect.serviceOption(HttpRouter.RouteContext)
    if (Option.isNone(context)) return TEAM
    const operation = OPERATIONS.get(`${context.value.route.method} ${context.value.route.path}`)
    if (operation === undefined) return TEAM
    const access = accessOf(operation, role)
    if (access !== "forbidden") return seesWhere(access, closerEmail)
    return yield* new Forbidden({
      message: role === "member"
        ? "members cannot do this: ask an owner or an admin of the account"
        : "only an owner of the account can do this"
    })
  })

/** A presented (non-empty) session token: its user's tenant, the cookie slid when the session was; else 401; 403 where the policy says. */
const sessionDoor = Effect.gen(function* () {
  const sessions = yield* SessionsRepo
  const cookie = yield* SessionCookie
  return (token: string) =>
    Effect.gen(function* () {
      const found = yield* Effect.orDie(sessions.use(token))
      if (Option.isNone(found)) return yield* staleSession
      const { user, closerEmail, extended } = found.value
      if (extended) yield* cookie.set(token)
      const sees = yield* permitted(user.role, closerEmail)
      return { clientId: user.clientId, principal: { _tag: "User", user, sees } } as ClientIdentity
    })
})

/** The portal session cookie: a live session yields its user; the cookie slides with it. */
export const SessionAuthLive = Layer.effect(
  SessionAuth,
  Effect.map(sessionDoor, (door) =>
    SessionAuth.of({
      session: (value) => {
        const token = keyOf(value)
        if (token === "") return unauthorized(missingSession, SESSION_CHALLENGE)
        return door(token).pipe(Effect.tapErrorTag("Unauthorized", () => challenge(SESSION_CHALLENGE)))
      }
    })
  )
)

/** The `X-API-Key` of the request being answered, trimmed ("" when none). */
const requestKey = Effect.map(
  Effect.serviceOption(HttpServerRequest.HttpServerRequest),
  Option.match({ onNone: () => "", onSome: (request) => (request.headers["x-api-key"] ?? "").trim() })
)

/**
 * The report's two doors. The platform tries the key first and, when it fails, the session: so the
 * session's side decides everything but a key that passed. A presented key decides alone (its 401 or
 * 403 stands, a session beside it changes nothing); without a key, the session cookie decides; with
 * neither, 401 naming both.
 */
export const TenantOrSessionAuthLive = Layer.effect(
  TenantOrSessionAuth,
  Effect.gen(function* () {
    const keyDoor = tenantKeyDoor(yield* Credentials)
    const session = yield* sessionDoor
    return TenantOrSessionAuth.of({
      // without a key, this fails for the session's side to answer (its error is never seen)
      tenantKey: (value) => {
        const key = keyOf(value)
        return key === "" ? Effect.fail(missingEither) : keyDoor(key)
      },
      session: (value) =>
        Effect.gen(function* () {
          const key = yield* requestKey
          // the key's own answer (the key's side failed: it fails again, the same way)
          if (key !== "") return yield* keyDoor(key).pipe(Effect.tapErrorTag("Unauthorized", () => challenge(KEY_CHALLENGE)))
          const token = keyOf(value)
          if (token === "") return yield* unauthorized(missingEither, KEY_CHALLENGE, SESSION_CHALLENGE)
          return yield* session(token).pipe(Effect.tapErrorTag("Unauthorized", () => challenge(SESSION_CHALLENGE)))
        })
    })
  })
)

export const SecurityLive = Layer.mergeAll(
  AdminAuthLive,
  AssistantAuthLive,
  TenantAuthLive,
  SessionAuthLive,
  TenantOrSessionAuthLive
).pipe(Layer.provide([Credentials.Default, SessionsRepo.Default, SessionCookie.Default]))
