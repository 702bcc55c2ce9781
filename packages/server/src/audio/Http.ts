/** Handlers of the `audio` group (spec 4.10). */
import { CallsightApi, CurrentTenant } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Calls } from "./Calls.js"

export const AudioHttpLive = HttpApiBuilder.group(CallsightApi, "audio", (handlers) =>
  Effect.gen(function* () {
    const calls = yield* Calls
    return handlers
      .handle("uploadAudio", ({ headers, payload }) =>
        Effect.flatMap(CurrentTenant, (tenant) => calls.upload(tenant.clientId, payload, headers["idempotency-key"])))
      .handle("getAnalysis", ({ path }) => Effect.flatMap(CurrentTenant, (t) => calls.status(t.clientId, path.call_id)))
      .handle("getReportHtml", ({ path }) => Effect.flatMap(CurrentTenant, (t) => calls.reportHtml(t.clientId, path.call_id)))
  })
).pipe(Layer.provide(Calls.Default))
