/**
 * Handlers of the `recorder` group: the recording bot's status (any signed-in user of the tenant),
 * its activation, deactivation and manual meetings (owners and admins), the meetings it was sent
 * to (a rep: only their own closer's, `viewer`'s `sees`), and the bot provider's signed webhook,
 * whose raw body is verified before it is read.
 */
import { CallsightApi, type ClientId, CurrentClient } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { viewer } from "../tenancy/Sees.js"
import { Recorder } from "./Recorder.js"

/** Runs `f` with the tenant of the request. */
const tenant = <A, E, R>(f: (clientId: ClientId) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CurrentClient, (client) => f(client.clientId))

export const RecorderHttpLive = HttpApiBuilder.group(CallsightApi, "recorder", (handlers) =>
  Effect.gen(function* () {
    const recorder = yield* Recorder
    const manager = (yield* Callers).manager("manage the call recorder")
    return handlers
      .handle("getRecallStatus", () => tenant(recorder.status))
      .handle("activateRecall", ({ payload }) => Effect.flatMap(manager, (c) => recorder.activate(c, payload)))
      .handle("deactivateRecall", () => Effect.flatMap(manager, (c) => recorder.deactivate(c)))
      .handle("listRecallMeetings", ({ urlParams }) => Effect.flatMap(viewer, (v) => recorder.meetings(v.clientId, v.sees, urlParams)))
      .handle("recordMeeting", ({ payload }) => Effect.flatMap(manager, (c) => recorder.recordMeeting(c, payload)))
      // Raw: the body is not parsed before its signature is checked.
      .handleRaw("receiveRecorderWebhook", ({ headers, request }) =>
        Effect.flatMap(Effect.orElseSucceed(request.text, () => ""), (body) => recorder.receiveWebhook(body, headers)))
  })
).pipe(Layer.provide([Recorder.Default, Callers.Default]))
