/**
 * The OAuth 2 providers of the closers' meeting tools, spoken with `oauth4webapi`: the calendar
 * (Google's protocol: offline access for a refresh token, the read-only events scope) and the
 * video-meeting tool (Zoom's: the scopes are the app's own). Authorization code with PKCE (S256),
 * the refresh grant and RFC 7009 revocation; every endpoint and the client from configuration
 * (`CALENDAR_*`, `VIDEO_*`). The client secret goes in the body for the calendar (Google accepts
 * both, documents the body) and as HTTP Basic for the video tool (as Zoom requires); without a
 * secret the client is public and PKCE alone protects the code.
 */
import type { MeetingIntegrationKind } from "@callsight/api-spec"
import { Data, Effect, Option, Redacted } from "effect"
import * as oauth from "oauth4webapi"
import { AppConfig, type OAuthProviderConfig } from "../config.js"
import { OAUTH_ERROR_CODES } from "../lib/ProviderRequests.js"
import { redactedExcerpt } from "../lib/Redact.js"

/** The provider refused: a code or refresh token it does not (or no longer) accept. */
export class OAuthRefused extends Data.TaggedError("OAuthRefused")<{ readonly message: string }> {}
/** The provider could not be reached, or answered something that is not OAuth. */
export class OAuthUnavailable extends Data.TaggedError("OAuthUnavailable")<{ readonly message: string }> {}

/** Tokens as the provider issued them (secrets: sealed before they are stored). */
export interface IssuedTokens {
  readonly accessToken: string
  readonly refreshToken: string | null
  readonly expiresIn: number | null
  readonly scope: string | null
}

const TIMEOUT_MS = 15_000

const SETTINGS: Record<MeetingIntegrationKind, {
  readonly prefix: string
  readonly scope: string | null
  readonly extraParams: Readonly<Record<string, string>>
  readonly secretIn: "body" | "basic"
}> = {
  calendar: {
    prefix: "CALENDAR",
    scope: "https://www.googleapis.com/auth/calendar.events.readonly",
    extraParams: { access_type: "offline", prompt: "consent" },
    secretIn: "body"
  },
  video: { prefix: "VIDEO", scope: null, extraParams: {}, secretIn: "basic" }
}

/** Removes the given secrets, in every encoding (lib/Redact.ts), from a message before it is shown or logged anywhere. */
const scrub = (text: string, secrets: ReadonlyArray<string>) => redactedExcerpt(text, secrets, 300)

export class OAuthProviders extends Effect.Service<OAuthProviders>()("OAuthProviders", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig

    const redirectUri = (kind: MeetingIntegrationKind) => `${config.publicBaseUrl}/v1/client-portal/integrations/${kind}/callback`

    /** The provider of a kind, or the variables missing to use it. */
    const provider = (kind: MeetingIntegrationKind) => {
      const c: OAuthProviderConfig = config[kind]
      const settings = SETTINGS[kind]
      if (Option.isNone(c.clientId)) return Option.none()
      const as: oauth.AuthorizationServer = {
        // the issuer an ID token, if any, must name: the authorization server's origin (Google's is)
        issuer: new URL(c.authorizeUrl).origin,
        authorization_endpoint: c.authorizeUrl,
        token_endpoint: c.tokenUrl,
        revocation_endpoint: c.revokeUrl
      }
      const client: oauth.Client = { client_id: c.clientId.value }
      const auth = Option.match(c.clientSecret, {
        onNone: () => oauth.None(),
        onSome: (secret) =>
          settings.secretIn === "basic" ? oauth.ClientSecretBasic(Redacted.value(secret)) : oauth.ClientSecretPost(Redacted.value(secret))
      })
      const options = (url: string) => ({
        signal: AbortSignal.timeout(TIMEOUT_MS),
        // plain http only for a provider the operator pointed at one (a local or test provider)
        [oauth.allowInsecureRequests]: url.startsWith("http:")
      })
      return Option.some({ as, client, auth, settings, options })
    }

    const missingVariables = (kind: MeetingIntegrationKind) => [`${SETTINGS[kind].prefix}_CLIENT_ID`]

    /** The client secrets of the configuration: blanked with the request's own. */
    const clientSecrets = [config.calendar.clientSecret, config.video.clientSecret].flatMap((c) =>
      Option.isSome(c) ? [Redacted.value(c.value)] : []
    )

    /**
     * Turns what oauth4webapi threw into our two errors: the status and the RFC's error code, never
     * the provider's description (that goes to a WARN log line), the secrets of the request scrubbed.
     */
    const failure = (given: ReadonlyArray<string>) => (error: unknown): OAuthRefused | OAuthUnavailable => {
      const secrets = [...given, ...clientSecrets]
      if (error instanceof oauth.ResponseBodyError) {
        const code = OAUTH_ERROR_CODES.has(error.error) ? `, ${error.error}` : ""
        return new OAuthRefused({ message: `the provider refused (HTTP ${error.status}${code})` })
      }
      const message = error instanceof Error ? error.message : String(error)
      return new OAuthUnavailable({ message: scrub(`the provider could not be used: ${message}`, secrets) })
    }

    /** The provider's own words about a failure, for operators: one WARN line, scrubbed. */
    const logged = (given: ReadonlyArray<string>) => (error: unknown) =>
      error instanceof oauth.ResponseBodyError
        ? Effect.logWarning("the OAuth provider refused").pipe(
          Effect.annotateLogs({
            status: error.status,
            error: scrub(error.error, [...given, ...clientSecrets]),
            detail: scrub(error.error_description ?? "", [...given, ...clientSecrets])
          })
        )
        : Effect.void

    /** A call to the provider, its failure logged and turned into our errors. */
    const attempt = <A>(secrets: ReadonlyArray<string>, run: () => Promise<A>) =>
      Effect.tryPromise({ try: run, catch: (error) => error }).pipe(
        Effect.tapError(logged(secrets)),
        Effect.mapError(failure(secrets))
      )

    const tokensOf = (t: oauth.TokenEndpointResponse): IssuedTokens => ({
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? null,
      expiresIn: typeof t.expires_in === "number" ? t.expires_in : null,
      scope: t.scope ?? null
    })

    /** The consent URL of a new flow: `state`, and the S256 challenge of `verifier`. */
    const authorizationUrl = (kind: MeetingIntegrationKind, state: string, verifier: string) =>
      Effect.gen(function* () {
        const p = Option.getOrThrow(provider(kind))
        const url = new URL(p.as.authorization_endpoint!)
        url.searchParams.set("response_type", "code")
        url.searchParams.set("client_id", p.client.client_id)
        url.searchParams.set("redirect_uri", redirectUri(kind))
        if (p.settings.scope !== null) url.searchParams.set("scope", p.settings.scope)
        url.searchParams.set("state", state)
        url.searchParams.set("code_challenge", yield* Effect.promise(() => oauth.calculatePKCECodeChallenge(verifier)))
        url.searchParams.set("code_challenge_method", "S256")
        for (const [name, value] of Object.entries(p.settings.extraParams)) url.searchParams.set(name, value)
        return url.toString()
      })

    /** Exchanges the callback's code (with the flow's verifier) at the token endpoint. */
    const exchange = (kind: MeetingIntegrationKind, code: string, state: string, verifier: string) =>
      attempt([code, verifier], async () => {
        const p = Option.getOrThrow(provider(kind))
        const params = oauth.validateAuthResponse(p.as, p.client, new URLSearchParams({ code, state }), state)
        const response = await oauth.authorizationCodeGrantRequest(
          p.as, p.client, p.auth, params, redirectUri(kind), verifier, p.options(p.as.token_endpoint!)
        )
        return tokensOf(await oauth.processAuthorizationCodeResponse(p.as, p.client, response))
      })

    const refresh = (kind: MeetingIntegrationKind, refreshToken: string) =>
      attempt([refreshToken], async () => {
        const p = Option.getOrThrow(provider(kind))
        const response = await oauth.refreshTokenGrantRequest(p.as, p.client, p.auth, refreshToken, p.options(p.as.token_endpoint!))
        return tokensOf(await oauth.processRefreshTokenResponse(p.as, p.client, response))
      })

    /** Revokes a token at the provider (RFC 7009). */
    const revoke = (kind: MeetingIntegrationKind, token: string) =>
      attempt([token], async () => {
        const p = Option.getOrThrow(provider(kind))
        await oauth.processRevocationResponse(
          await oauth.revocationRequest(p.as, p.client, p.auth, token, p.options(p.as.revocation_endpoint!))
        )
      })

    return {
      configured: (kind: MeetingIntegrationKind) => Option.isSome(provider(kind)),
      missingVariables,
      authorizationUrl,
      exchange,
      refresh,
      revoke,
      apiUrl: (kind: MeetingIntegrationKind) => config[kind].apiUrl
    } as const
  })
}) {}
