/** Handlers of the `audio` group (spec 4.10): upload, status, report. */
import { CallsightApi, CurrentClient } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { CallViews } from "../calls/CallViews.js"
import { partsEndingWithBody } from "../http/RequestGuard.js"
import { seesOf } from "../tenancy/Sees.js"
import { Uploads } from "./Uploads.js"

export const AudioHttpLive = HttpApiBuilder.group(CallsightApi, "audio", (handlers) =>
  Effect.gen(function* () {
    const uploads = yield* Uploads
    const calls = yield* CallViews
    return handlers
      .handle("uploadAudio", ({ headers, payload, request }) =>
        Effect.flatMap(CurrentClient, (c) =>
          uploads.upload(c.clientId, seesOf(c), payload.pipe(partsEndingWithBody(request)), headers["idempotency-key"])))
      .handle("getAnalysis", ({ path }) => Effect.flatMap(CurrentClient, (c) => calls.status(c.clientId, path.call_id, seesOf(c))))
      .handle("getReportHtml", ({ path }) => Effect.flatMap(CurrentClient, (c) => calls.reportHtml(c.clientId, path.call_id, seesOf(c))))
  })
).pipe(Layer.provide([Uploads.Default, CallViews.Default]))
