/**
 * The implementations of the security middlewares declared in api-spec. A missing `X-API-Key`
 * is a 422 (the spec makes it a required header); a key that is not known is 401; a known key
 * of the wrong kind is 403. The portal's session cookie: a missing, unknown or expired session
 * is 401.
 */
import {
  AdminAuth,
  AssistantAuth,
  Forbidden,
  SessionAuth,
  TenantAuth,
  Unauthorized,
  ValidationFailed
} from "@callsight/api-spec"
import { Effect, Layer, Option, Redacted } from "effect"
import { SessionCookie } from "../tenancy/SessionCookie.js"
import { SessionsRepo } from "../tenancy/SessionsRepo.js"
import { StaffKeys } from "../tenancy/StaffKeys.js"
import { TenantKeys } from "../tenancy/TenantKeys.js"

const missingKey = new ValidationFailed({
  detail: [{ loc: ["header", "x-api-key"], msg: "Field required", type: "missing" }]
})
const unknownKey = new Unauthorized({ message: "invalid API key" })

const presentedKey = (value: Redacted.Redacted<string>) => {
  const key = Redacted.value(value).trim()
  return key === "" ? Effect.fail(missingKey) : Effect.succeed(key)
}

/** Credentials of every kind: which caller a presented key belongs to. */
export class Credentials extends Effect.Service<Credentials>()("Credentials", {
  effect: Effect.gen(function* () {
    const staff = yield* StaffKeys
    const keys = yield* TenantKeys
    return { staff: staff.identify, tenantKey: keys.find } as const
  }),
  dependencies: [StaffKeys.Default, TenantKeys.Default]
}) {}

export const AdminAuthLive = Layer.effect(
  AdminAuth,
  Effect.map(Credentials, (credentials) =>
    AdminAuth.of({
      adminKey: (value) =>
        Effect.gen(function* () {
          const key = yield* presentedKey(value)
          const kind = credentials.staff(key)
          if (Option.isSome(kind) && kind.value === "admin") return { kind: "admin" as const }
          if (Option.isSome(kind) || Option.isSome(yield* credentials.tenantKey(key))) {
            return yield* new Forbidden({ message: "this operation needs the admin key" })
          }
          return yield* unknownKey
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
          const key = yield* presentedKey(value)
          const kind = credentials.staff(key)
          if (Option.isSome(kind)) return { kind: kind.value }
          if (Option.isSome(yield* credentials.tenantKey(key))) {
            return yield* new Forbidden({ message: "this operation needs the assistant key" })
          }
          return yield* unknownKey
        })
    })
  )
)

export const TenantAuthLive = Layer.effect(
  TenantAuth,
  Effect.map(Credentials, (credentials) =>
    TenantAuth.of({
      tenantKey: (value) =>
        Effect.gen(function* () {
          const key = yield* presentedKey(value)
          const row = yield* credentials.tenantKey(key)
          if (Option.isSome(row)) {
            return { clientId: row.value.client_id, principal: { _tag: "ApiKey", keyId: row.value.key_id } } as const
          }
          if (Option.isSome(credentials.staff(key))) {
            return yield* new Forbidden({ message: "staff keys cannot act as a tenant: use a tenant key" })
          }
          return yield* unknownKey
        })
    })
  )
)

/** The portal session cookie: a live session yields its user; the cookie slides with it. */
export const SessionAuthLive = Layer.effect(
  SessionAuth,
  Effect.gen(function* () {
    const sessions = yield* SessionsRepo
    const cookie = yield* SessionCookie
    return SessionAuth.of({
      session: (value) =>
        Effect.gen(function* () {
          const token = Redacted.value(value).trim()
          if (token === "") return yield* new Unauthorized({ message: "sign in first: this operation needs the session cookie" })
          const found = yield* Effect.orDie(sessions.use(token))
          if (Option.isNone(found)) {
            return yield* new Unauthorized({ message: "the session is unknown or expired: sign in again" })
          }
          const { user, extended } = found.value
          if (extended) yield* cookie.set(token)
          return { clientId: user.clientId, principal: { _tag: "User", user } } as const
        })
    })
  })
)

export const SecurityLive = Layer.mergeAll(AdminAuthLive, AssistantAuthLive, TenantAuthLive, SessionAuthLive).pipe(
  Layer.provide([Credentials.Default, SessionsRepo.Default, SessionCookie.Default])
)
