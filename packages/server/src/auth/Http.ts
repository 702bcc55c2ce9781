/** Handlers of the `clientAuth` group (spec 4.2): magic-link sign-in and the session. */
import { CallsightApi, CurrentUser, SESSION_COOKIE } from "@callsight/api-spec"
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RequestOrigin } from "./RequestOrigin.js"
import { SessionCookie } from "./SessionCookie.js"
import { SignIn } from "./SignIn.js"

export const ClientAuthHttpLive = HttpApiBuilder.group(CallsightApi, "clientAuth", (handlers) =>
  Effect.gen(function* () {
    const signIn = yield* SignIn
    const { current: origin } = yield* RequestOrigin
    const cookie = yield* SessionCookie
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
          yield* signIn.logout(yield* CurrentUser, request.cookies[SESSION_COOKIE], yield* origin)
          yield* cookie.clear
          return { logged_out: true }
        }))
      .handle("getCurrentUser", () => Effect.flatMap(CurrentUser, signIn.me))
  })
).pipe(Layer.provide([SignIn.Default, RequestOrigin.Default, SessionCookie.Default]))
