/**
 * The HTTP application: the declared API with its handlers, the OpenAPI document and the
 * reference page, wrapped in the error, alias and metrics middleware. It needs an `HttpServer`
 * (Node's in production, the test server in tests) and the database.
 */
import { CallsightApi } from "@callsight/api-spec"
import { HttpApiBuilder, HttpApiScalar, HttpServer } from "@effect/platform"
import { Layer } from "effect"
import { AdminHttpLive } from "../admin/Http.js"
import { AudioHttpLive } from "../audio/Http.js"
import { ClientAuthHttpLive } from "../auth/Http.js"
import { SecurityLive } from "../auth/Middleware.js"
import { RateLimiterLive } from "../auth/RateLimitStore.js"
import { ExtensionsHttpLive } from "../extensions/Http.js"
import { Mailer } from "../mail/Mailer.js"
import { PortalHttpLive } from "../portal/Http.js"
import { PagesLive } from "../portal/Pages.js"
import { ProbesHttpLive } from "../probes/Http.js"
import { ApiErrorsLive, serverMiddleware } from "./Middleware.js"
import { unbuiltGroup } from "./NotImplemented.js"
import { RequestMetrics } from "./RequestMetrics.js"

/** Groups whose issue has not landed: every operation answers 501 (README, "Status"). */
const UnbuiltGroupsLive = Layer.mergeAll(
  unbuiltGroup("integrations"),
  unbuiltGroup("coaching"),
  unbuiltGroup("companion"),
  unbuiltGroup("workspace"),
  unbuiltGroup("assistant")
)

/** What the portal's groups share: outgoing e-mail and the rate limiter. */
const PortalSharedLive = Layer.mergeAll(Mailer.layer, RateLimiterLive)

export const ApiLive = HttpApiBuilder.api(CallsightApi).pipe(
  Layer.provide([ProbesHttpLive, ExtensionsHttpLive, AudioHttpLive, AdminHttpLive, ClientAuthHttpLive, PortalHttpLive, UnbuiltGroupsLive]),
  Layer.provide(PortalSharedLive),
  // The groups need the security middlewares as well as the API.
  Layer.provideMerge(SecurityLive),
  Layer.provide(RequestMetrics.Default)
)

/** Serving the API: the OpenAPI document, the reference page, the link pages and error mapping. */
const ServeLive = HttpApiBuilder.serve(serverMiddleware).pipe(
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
  Layer.provide(PagesLive),
  Layer.provide(ApiErrorsLive),
  Layer.provide(RequestMetrics.Default)
)

/**
 * The HTTP service on `server`. The API, every service and handler, is built before the server:
 * Node's server listens as its layer is built but answers only once `serve` registers the handler,
 * and a request that arrived in between would never be answered (a health check during start-up
 * hung forever). So only `serve` itself stands between listening and answering.
 */
export const makeHttpLayer = <S, E, R>(server: Layer.Layer<S, E, R>) =>
  ServeLive.pipe(HttpServer.withLogAddress, Layer.provideMerge(server), Layer.provide(ApiLive))
