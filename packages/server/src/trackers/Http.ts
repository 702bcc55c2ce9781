/** Handlers of the `trackers` group (issue 38, item 2; docs/trackers.md): the tenant's trackers and their report. */
import { CallsightApi, CurrentClient } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Callers } from "../tenancy/Caller.js"
import { viewer } from "../tenancy/Sees.js"
import { Trackers } from "./Trackers.js"

export const TrackersHttpLive = HttpApiBuilder.group(CallsightApi, "trackers", (handlers) =>
  Effect.gen(function* () {
    const trackers = yield* Trackers
    const callers = yield* Callers
    const manager = callers.manager("manage the trackers")
    return handlers
      .handle("listTrackers", () => Effect.flatMap(CurrentClient, (c) => trackers.list(c.clientId)))
      .handle("createTracker", ({ payload }) => Effect.flatMap(manager, (c) => trackers.create(c.clientId, c.actor, payload)))
      .handle("updateTracker", ({ path, payload }) =>
        Effect.flatMap(manager, (c) => trackers.update(c.clientId, c.actor, path.tracker_id, payload)))
      .handle("deleteTracker", ({ path }) => Effect.flatMap(manager, (c) => trackers.remove(c.clientId, c.actor, path.tracker_id)))
      .handle("getTrackerReport", ({ urlParams }) => Effect.flatMap(viewer, (v) => trackers.report(v.clientId, v.sees, urlParams)))
  })
).pipe(Layer.provide([Trackers.Default, Callers.Default]))
