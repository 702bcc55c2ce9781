/** Handlers of the `clientAuth` group (spec 4.2): magic-link sign-in and the session. */
import { CallsightApi, SESSION_COOKIE } from "@callsight/api-spec"
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { RequestOrigin } from "../tenancy/RequestOrigin.js"
import { SessionCookie } from "../tenancy/SessionCookie.js"
import { SignIn } from "./SignIn.js"

export const ClientAuthHttpLive = HttpApiBuilder.group(CallsightApi, "clientAuth", (handlers) =>
  Effect.gen(function* () {
    const signIn = yield* SignIn
    const { current: origin } = yield* RequestOrigin
    const cookie = yield* SessionCookie
    const { user } = yield* Callers
    return handlers
      .handle("login", ({ payload }) => Effect.flatMap(origin, (o) => signIn.login(payload, o)))
      .handle("signup", ({ payload }) => Effect.flatMap(origin, (o) => signIn.signup(payload, o)))
      .handle("verifyMagicLink", ({ payload }) =>
        Effect.gen(function* () {
          const { session, user } = yield* signIn.verify(payload.token, yield* origin)
          yield* cookie.set(session.token)
          return { user, session_expires_at: session.expiresAt.toISOString() }
        }))
      .handle("logout", () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          yield* signIn.logout(yield* user, request.cookies[SESSION_COOKIE])
          yield* cookie.clear
          return { logged_out: true }
        }))
      .handle("getCurrentUser", () => Effect.flatMap(user, (caller) => signIn.me(caller.user)))
  })
).pipe(Layer.provide([SignIn.Default, RequestOrigin.Default, SessionCookie.Default, Callers.Default]))
