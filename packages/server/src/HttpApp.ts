/**
 * The HTTP application: the declared API with its handlers, the OpenAPI document and the
 * reference page, wrapped in the error, alias and metrics middleware. It needs an `HttpServer`
 * (Node's in production, the test server in tests) and the database.
 */
import { CallsightApi } from "@callsight/api-spec"
import { Headers, HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import { Effect, Layer } from "effect"
import { AccountHttpLive } from "./account/Http.js"
import { AdminHttpLive } from "./admin/Http.js"
import { AssistantHttpLive } from "./assistant/Http.js"
import { AudioHttpLive } from "./audio/Http.js"
import { HomePageLive } from "./HomePage.js"
import { ClientAuthHttpLive } from "./auth/Http.js"
import { AppConfig } from "./config.js"
import { RateLimiterLive } from "./auth/RateLimitStore.js"
import { CoachingHttpLive } from "./coaching/Http.js"
import { CompanionHttpLive } from "./companion/Http.js"
import { ExtensionsHttpLive } from "./extensions/Http.js"
import { ApiErrorsLive, serverMiddleware } from "./http/Middleware.js"
import { RequestGuardLive } from "./http/RequestGuard.js"
import { RequestMetrics } from "./http/RequestMetrics.js"
import { SecurityLive } from "./http/Security.js"
import { withSecurityHeaders } from "./http/SecurityHeaders.js"
import { IntegrationsHttpLive } from "./integrations/Http.js"
import { IntegrationPagesLive } from "./integrations/Pages.js"
import { Mailer } from "./mail/Mailer.js"
import { MarketIntelHttpLive } from "./marketIntel/Http.js"
import { McpHttpLive } from "./mcp/Http.js"
import { MembersAdminHttpLive, MembersHttpLive } from "./members/Http.js"
import { PaymentsHttpLive } from "./payments/Http.js"
import { tracingEnabled } from "./Observability.js"
import { PagesLive } from "./portal/Pages.js"
import { WebAppLive } from "./http/WebApp.js"
import { PortalHttpLive, PortalPublicHttpLive } from "./portal/Http.js"
import { ProbesHttpLive } from "./probes/Http.js"
import { RecorderHttpLive } from "./recorder/Http.js"
import { TrackersHttpLive } from "./trackers/Http.js"
import { ClosingAuditsHttpLive } from "./closingAudits/Http.js"
import { TrendsHttpLive } from "./trends/Http.js"
import { WebhooksHttpLive } from "./webhooks/Http.js"
import { WorkspaceHttpLive } from "./workspace/Http.js"

/** Every group of the declaration, each from its own folder. */
const GroupsLive = Layer.mergeAll(
  ProbesHttpLive,
  ClientAuthHttpLive,
  PortalHttpLive,
  PortalPublicHttpLive,
  RecorderHttpLive,
  IntegrationsHttpLive,
  CoachingHttpLive,
  CompanionHttpLive,
  AdminHttpLive,
  MarketIntelHttpLive,
  WorkspaceHttpLive,
  AssistantHttpLive,
  AudioHttpLive,
  ExtensionsHttpLive,
  MembersHttpLive,
  MembersAdminHttpLive,
  PaymentsHttpLive,
  AccountHttpLive,
  WebhooksHttpLive,
  TrackersHttpLive,
  ClosingAuditsHttpLive,
  TrendsHttpLive
)

/** What several groups share: outgoing e-mail and the rate limiter. */
const SharedLive = Layer.mergeAll(Mailer.layer, RateLimiterLive)

export const ApiLive = HttpApiBuilder.api(CallsightApi).pipe(
  Layer.provide(GroupsLive),
  Layer.provide(SharedLive),
  // The groups need the security middlewares as well as the API.
  Layer.provideMerge(SecurityLive),
  Layer.provide(RequestMetrics.Default)
)

/** Serving the API: the OpenAPI document, the reference page, the link pages, error mapping and the security headers. */
const ServeLive = HttpApiBuilder.serve(serverMiddleware).pipe(
  withSecurityHeaders,
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
  Layer.provide(PagesLive),
  Layer.provide(McpHttpLive),
  Layer.provide(WebAppLive),
  Layer.provide(IntegrationPagesLive),
  Layer.provide(HomePageLive),
  Layer.provide(ApiErrorsLive),
  Layer.provide(RequestGuardLive),
  Layer.provide(RequestMetrics.Default),
  // the router the pages and the API are added to (one, shared): the request log names their routes
  Layer.provide(HttpApiBuilder.Router.Live)
)

/** Headers carrying a messaging platform's secret or signature (companion/): never on a span. */
const SECRET_HEADERS = ["x-messenger-a-bot-api-secret-token", "x-telegram-bot-api-secret-token", "x-hub-signature-256"]

/**
 * A request span (URL, headers, status) only when spans go somewhere (Observability.ts); the
 * messaging platforms' secret headers redacted, and no span for messenger-b's subscription check,
 * whose URL carries the verify token.
 */
const ServeWithTracingLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    tracingEnabled(config)
      ? HttpMiddleware.withTracerDisabledWhen(ServeLive, (request) => request.url.includes("hub.verify_token=")).pipe(
        Layer.locallyWith(Headers.currentRedactedNames, (names) => [...names, ...SECRET_HEADERS])
      )
      : HttpMiddleware.withTracerDisabledWhen(ServeLive, () => true))
)

/**
 * The HTTP service on `server`. The API, every service and handler, is built before the server:
 * Node's server listens as its layer is built but answers only once `serve` registers the handler,
 * and a request that arrived in between would never be answered (a health check during start-up
 * hung forever). So only `serve` itself stands between listening and answering.
 */
export const makeHttpLayer = <S, E, R>(server: Layer.Layer<S, E, R>) =>
  ServeWithTracingLive.pipe(HttpServer.withLogAddress, Layer.provideMerge(server), Layer.provide(ApiLive))
