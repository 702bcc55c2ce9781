/** Handlers of the `probes` group. */
import { CallsightApi } from "@callsight/api-spec"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RequestMetrics, toPrometheus } from "../http/RequestMetrics.js"
import { Probes } from "./Probes.js"

const wantsText = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const accept = request.headers["accept"] ?? ""
  return accept.includes("text/plain") && !accept.includes("application/json")
})

export const ProbesHttpLive = HttpApiBuilder.group(CallsightApi, "probes", (handlers) =>
  Effect.gen(function* () {
    const probes = yield* Probes
    const metrics = yield* RequestMetrics
    return handlers
      .handle("health", () => probes.health())
      .handle("ready", () => probes.ready())
      .handle("metrics", () =>
        Effect.gen(function* () {
          // The JSON schema drops `sum_ms`; the Prometheus summary needs it.
          const snapshot = yield* metrics.snapshot
          if (yield* wantsText) {
            return HttpServerResponse.text(toPrometheus(snapshot), {
              contentType: "text/plain; version=0.0.4; charset=utf-8"
            })
          }
          return snapshot
        }))
      .handle("dbHealth", () => probes.dbHealth())
  })
).pipe(Layer.provide(Probes.Default))
