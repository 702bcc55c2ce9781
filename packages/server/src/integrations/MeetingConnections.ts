/**
 * The calendar and video-meeting connections of closers (docs/domain.md "Integrations"): OAuth 2
 * authorization code with PKCE. `start` issues a `state` (32 random bytes, kept as its SHA-256,
 * single use, 10 minutes, bound to the signed-in user and the closer) and the S256 challenge of a
 * verifier kept sealed; the callback refuses an unknown, used, expired or foreign state (a 400
 * page, nothing stored), exchanges the code, stores the tokens sealed and marks the closer
 * connected. Tokens are refreshed before they expire (by whoever needs them, and by a background
 * pass); a refresh the provider refuses marks the connection `error` and records an
 * `integration_error` event, which the account's alerts show. Disconnecting revokes the token at
 * the provider when it can and always forgets it.
 */
import {
  type CloserId,
  Conflict,
  type MeetingIntegrationKind,
  NotFound,
  SESSION_COOKIE
} from "@callsight/api-spec"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Duration, Effect, Layer, Option, Schedule } from "effect"
import { randomBytes } from "node:crypto"
import * as oauth from "oauth4webapi"
import { AppConfig } from "../config.js"
import { Transactions } from "../db/Transactions.js"
import { EventsRepo } from "../events/EventsRepo.js"
import { escapeHtml } from "../lib/Html.js"
import { sha256Hex } from "../lib/Ids.js"
import { AuditLog, changed } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { ClosersRepo, closerView } from "../tenancy/ClosersRepo.js"
import { RequestOrigin } from "../tenancy/RequestOrigin.js"
import { last4, Secrets } from "../tenancy/Secrets.js"
import { SessionsRepo } from "../tenancy/SessionsRepo.js"
import { type ConnectionRow, MeetingConnectionsRepo } from "./MeetingConnectionsRepo.js"
import { type IssuedTokens, OAuthProviders } from "./OAuthProviders.js"

/** How long a flow may take, from `start` to the callback. */
export const STATE_MINUTES = 10
/** A token is refreshed when it expires within this many seconds. */
export const REFRESH_AHEAD_SECONDS = 300

const TOOL: Record<MeetingIntegrationKind, string> = { calendar: "calendar", video: "video-meeting tool" }

/** The page of a refused callback. */
const refusedPage = (kind: MeetingIntegrationKind, reason: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Connection refused · Callsight</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f1f5f9;color:#0f172a;font:16px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{background:#fff;border-radius:14px;padding:36px 40px;max-width:460px;box-shadow:0 10px 30px rgba(15,23,42,.08)}h1{margin:0 0 10px;font-size:22px}p{color:#334155}</style>
</head><body><main><h1>The ${escapeHtml(TOOL[kind])} was not connected</h1><p>${escapeHtml(reason)}</p>
<p>Nothing was saved. Start the connection again from the portal, signed in as the same user.</p></main></body></html>`

export class MeetingConnections extends Effect.Service<MeetingConnections>()("MeetingConnections", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* MeetingConnectionsRepo
    const closers = yield* ClosersRepo
    const providers = yield* OAuthProviders
    const secrets = yield* Secrets
    const sessions = yield* SessionsRepo
    const audit = yield* AuditLog
    const events = yield* EventsRepo
    const transactions = yield* Transactions
    const { current: origin } = yield* RequestOrigin

    const closerOf = (caller: Caller, closerId: CloserId) =>
      Effect.flatMap(Effect.orDie(closers.find(caller.clientId, closerId)), Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `no closer ${closerId}` })),
        onSome: Effect.succeed
      }))

    /** A new flow for the closer: the provider's consent URL with its state and challenge. */
    const start = Effect.fn("MeetingConnections.start")(function* (caller: Caller, kind: MeetingIntegrationKind, closerId: CloserId) {
      const closer = yield* closerOf(caller, closerId)
      if (closer.status === "removed") return yield* new Conflict({ message: `closer ${closerId} is removed: add them again first` })
      if (!providers.configured(kind)) {
        return yield* new Conflict({
          message: `the ${TOOL[kind]} integration is not configured on this server: set ${providers.missingVariables(kind).join(", ")}`
        })
      }
      const state = randomBytes(32).toString("base64url")
      const verifier = oauth.generateRandomCodeVerifier()
      yield* repo.insertState({
        stateHash: sha256Hex(state),
        kind,
        clientId: caller.clientId,
        userId: caller.user.userId,
        closerId,
        sealedVerifier: secrets.encrypt(verifier),
        minutes: STATE_MINUTES
      }).pipe(Effect.orDie)
      return {
        authorization_url: yield* providers.authorizationUrl(kind, state, verifier),
        closer_id: closerId,
        kind,
        expires_at: new Date(Date.now() + STATE_MINUTES * 60_000).toISOString()
      }
    })

    const sealed = (t: IssuedTokens) => ({
      sealedAccessToken: secrets.encrypt(t.accessToken),
      sealedRefreshToken: t.refreshToken === null ? null : secrets.encrypt(t.refreshToken),
      tokenLast4: last4(t.accessToken),
      expiresIn: t.expiresIn,
      scope: t.scope
    })

    /** The provider's redirect: checks the state, exchanges the code, stores the tokens; a 302 to the portal. */
    const complete = Effect.fn("MeetingConnections.complete")(function* (
      kind: MeetingIntegrationKind,
      params: { readonly code: string; readonly state: string }
    ) {
      const refuse = (reason: string) => Effect.fail(refusedPage(kind, reason))
      const request = yield* HttpServerRequest.HttpServerRequest
      const hash = sha256Hex(params.state)
      const found = yield* Effect.orDie(repo.findState(hash))
      if (Option.isNone(found) || found.value.kind !== kind) return yield* refuse("This connection link is unknown.")
      const flow = found.value
      if (flow.used) return yield* refuse("This connection link was already used.")
      if (flow.expired) return yield* refuse(`This connection link expired: it is valid for ${STATE_MINUTES} minutes.`)
      // bound to the user who started it: the browser coming back must be signed in as that user
      const cookie = request.cookies[SESSION_COOKIE] ?? ""
      const session = cookie === "" ? Option.none() : yield* Effect.orDie(sessions.use(cookie))
      if (Option.isNone(session) || session.value.user.userId !== flow.user_id) {
        return yield* refuse("This connection was started by another user, or you are not signed in to the portal.")
      }
      if (!(yield* Effect.orDie(repo.consumeState(hash)))) return yield* refuse("This connection link was already used.")
      const verifier = yield* Effect.orDie(secrets.decrypt(flow.sealed_verifier))
      const tokens = yield* providers.exchange(kind, params.code, params.state, verifier).pipe(
        Effect.catchAll((e) => refuse(`The provider did not complete the connection: ${e.message}`))
      )
      const { ip } = yield* origin
      const connected = yield* transactions.run(Effect.gen(function* () {
        const closer = yield* closers.lock(flow.client_id, flow.closer_id)
        if (Option.isNone(closer) || closer.value.status === "removed") return false
        yield* repo.save({ clientId: flow.client_id, closerId: flow.closer_id, kind, tokens: sealed(tokens) })
        yield* audit.record(flow.client_id, { id: flow.user_id, type: "user", ip }, {
          action: `${kind}.connected`,
          targetType: "closer",
          targetId: flow.closer_id,
          metadata: { kind, scope: tokens.scope, token_expires_in_s: tokens.expiresIn }
        })
        yield* events.record({
          clientId: flow.client_id,
          type: "integration_connected",
          platform: kind,
          status: "ok",
          closerEmail: closer.value.email,
          callId: null,
          error: null
        })
        return true
      })).pipe(Effect.orDie)
      if (!connected) return yield* refuse("The closer was removed while the connection was being made.")
      // back to the app's integrations (it says the calendar or the video tool is connected)
      const location = new URL(`${config.publicBaseUrl}/app/settings/integrations`)
      location.searchParams.set("closer_id", flow.closer_id)
      location.searchParams.set("integration", kind)
      location.searchParams.set("status", "connected")
      return HttpServerResponse.redirect(location.toString(), { status: 302 })
    })

    /** Forgets the closer's connection, revoking its token at the provider first when it can. */
    const disconnect = Effect.fn("MeetingConnections.disconnect")(function* (
      caller: Caller,
      kind: MeetingIntegrationKind,
      closerId: CloserId
    ) {
      yield* closerOf(caller, closerId)
      const connection = yield* Effect.orDie(repo.find(caller.clientId, closerId, kind))
      if (Option.isNone(connection)) return yield* new NotFound({ message: `closer ${closerId} has no ${TOOL[kind]} connected` })
      // revoked when the provider takes it: the refresh token ends the whole grant at Google and Zoom
      const revoked = yield* Effect.gen(function* () {
        const token = connection.value.sealed_refresh_token ?? connection.value.sealed_access_token
        yield* providers.revoke(kind, yield* secrets.decrypt(token))
        return true
      }).pipe(Effect.catchAll((e) => Effect.as(Effect.logWarning(`the ${kind} token was not revoked`, e.message), false)))
      const row = yield* audit.change({
        clientId: caller.clientId,
        actor: caller.actor,
        lock: repo.remove(caller.clientId, closerId, kind),
        notFound: () => new NotFound({ message: `closer ${closerId} has no ${TOOL[kind]} connected` }),
        apply: () =>
          Effect.map(Effect.orDie(closers.find(caller.clientId, closerId)), (closer) =>
            changed(Option.getOrThrow(closer), {
              action: `${kind}.disconnected`,
              targetType: "closer",
              targetId: closerId,
              metadata: { kind, revoked_at_provider: revoked }
            }))
      })
      yield* Effect.orDie(events.record({
        clientId: caller.clientId,
        type: "integration_disconnected",
        platform: kind,
        status: "ok",
        closerEmail: row.email,
        callId: null,
        error: null
      }))
      return closerView(row)
    })

    /** Refreshes a connection's tokens; a refusal marks it `error` with its event. */
    const refresh = (c: ConnectionRow) =>
      Effect.gen(function* () {
        const refreshToken = yield* Effect.orDie(secrets.decrypt(c.sealed_refresh_token!))
        const tokens = yield* providers.refresh(c.kind, refreshToken).pipe(
          Effect.tapErrorTag("OAuthRefused", (e) =>
            Effect.orDie(transactions.run(Effect.zipRight(
              repo.markError({ closerId: c.closer_id, kind: c.kind, error: e.message }),
              events.record({
                clientId: c.client_id,
                type: "integration_error",
                platform: c.kind,
                status: "error",
                closerEmail: c.closer_email,
                callId: null,
                error: `the token could not be refreshed: ${e.message}`
              })
            ))))
        )
        yield* Effect.orDie(repo.refreshed({ closerId: c.closer_id, kind: c.kind, tokens: sealed(tokens) }))
        return tokens.accessToken
      })

    /** A working access token of the connection: refreshed first when it expires soon. */
    const accessToken = (c: ConnectionRow) =>
      Effect.gen(function* () {
        const expiresSoon = c.token_expires_at !== null &&
          new Date(c.token_expires_at).getTime() - Date.now() < REFRESH_AHEAD_SECONDS * 1000
        if (expiresSoon && c.sealed_refresh_token !== null) return yield* refresh(c)
        return yield* Effect.orDie(secrets.decrypt(c.sealed_access_token))
      })

    /** One pass of the background refresher: every token expiring soon, refreshed; answers how many. */
    const refreshExpiring = Effect.gen(function* () {
      yield* Effect.orDie(repo.purgeStates)
      const due = yield* Effect.orDie(repo.expiring(REFRESH_AHEAD_SECONDS * 2))
      const results = yield* Effect.forEach(due, (c) => Effect.either(refresh(c)), { concurrency: 4 })
      return { refreshed: results.filter((r) => r._tag === "Right").length, failed: results.filter((r) => r._tag === "Left").length }
    }).pipe(Effect.withSpan("MeetingConnections.refreshExpiring"))

    return { start, complete, disconnect, accessToken, refreshExpiring } as const
  }),
  dependencies: [
    MeetingConnectionsRepo.Default,
    ClosersRepo.Default,
    OAuthProviders.Default,
    Secrets.Default,
    SessionsRepo.Default,
    AuditLog.Default,
    EventsRepo.Default,
    Transactions.Default,
    RequestOrigin.Default
  ]
}) {}

/** How often the background pass looks for tokens about to expire. */
const REFRESH_EVERY = Duration.minutes(2)

/** The background refresher of meeting-tool tokens, for the life of the layer (run beside the workers). */
export const MeetingTokensRefresherLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const connections = yield* MeetingConnections
    yield* Effect.forkScoped(
      connections.refreshExpiring.pipe(
        Effect.tap(({ failed, refreshed }) =>
          refreshed + failed > 0 ? Effect.logInfo("meeting-tool tokens refreshed", { refreshed, failed }) : Effect.void),
        Effect.catchAllCause((cause) => Effect.logError("the token refresh pass failed", cause)),
        Effect.repeat(Schedule.spaced(REFRESH_EVERY))
      )
    )
  })
).pipe(Layer.provide(MeetingConnections.Default))
