/** Handlers of the `trends` group (issue 38, item 3; docs/trends.md): the view is `views/Trends.ts`, shared with the other doors. */
import { CallsightApi, Trends as TrendsAnswer } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { wireJson } from "../lib/WireJson.js"
import { viewer } from "../tenancy/Sees.js"
import { Trends } from "../views/Trends.js"

export const TrendsHttpLive = HttpApiBuilder.group(CallsightApi, "trends", (handlers) =>
  Effect.gen(function* () {
    const trends = yield* Trends
    return handlers
      .handle("getTrends", ({ urlParams }) => Effect.flatMap(viewer, (v) => trends.compute(v.clientId, v.sees, urlParams)).pipe(
          // 1 MB at 100,000 calls, already to the type: written as it is (lib/WireJson.ts)
          Effect.map((answer) => wireJson(TrendsAnswer, answer))
        ))
  })
).pipe(Layer.provide(Trends.Default))
