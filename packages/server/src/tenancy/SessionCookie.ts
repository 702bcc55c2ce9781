/**
 * The session cookie `callsight_session`: HttpOnly, SameSite=Lax, Path=/, Max-Age 14 days, and
 * Secure unless the service's base URL is local http (`COOKIE_SECURE` overrides). Set on verify and
 * again whenever the session's expiry slides; expired on logout.
 */
import { SESSION_COOKIE, SessionAuth } from "@callsight/api-spec"
import { HttpApiBuilder, HttpApp, HttpServerResponse } from "@effect/platform"
import { Duration, Effect } from "effect"
import { AppConfig } from "../config.js"
import { SESSION_DAYS } from "./SessionsRepo.js"

export class SessionCookie extends Effect.Service<SessionCookie>()("SessionCookie", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const attributes = { secure: config.cookieSecure, httpOnly: true, sameSite: "lax", path: "/" } as const

    const set = (token: string) =>
      HttpApiBuilder.securitySetCookie(SessionAuth.security.session, token, { ...attributes, maxAge: Duration.days(SESSION_DAYS) })

    const clear = HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.expireCookie(response, SESSION_COOKIE, attributes))
    )

    return { set, clear } as const
  })
}) {}
