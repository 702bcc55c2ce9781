/**
 * Trackers for the other features (issue 38, item 2; docs/trackers.md): matching a completed call
 * against its tenant's trackers, and the trackers' report. The trackers feature implements it
 * (`trackers/CallTrackersLive.ts`); the analysis worker matches each call once its analysis is
 * stored, and `POST /mcp`'s `tracker_report` tool reads the report for the key's tenant (`main.ts`
 * provides the implementation to both), so the features never import each other. `matchCall` never
 * fails: a failure is logged and the call stays completed. `syncCompetitors` brings the Competitors
 * tracker in step with the market profile when the portal saves it (made, or its terms changed and
 * the newest calls matched again), so the views that count its mentions (trends, the chat) see
 * them at once; it never fails the save either (the trackers' reads bring it in step again).
 */
import type { CallId, ClientId, Sees, TrackerReport, TrackerReportParams } from "@callsight/api-spec"
import { Context, type Effect } from "effect"

export class CallTrackers extends Context.Tag("@callsight/CallTrackers")<
  CallTrackers,
  {
    readonly matchCall: (clientId: ClientId, callId: CallId) => Effect.Effect<void>
    readonly syncCompetitors: (clientId: ClientId) => Effect.Effect<void>
    readonly report: (clientId: ClientId, sees: Sees, params: typeof TrackerReportParams.Type) => Effect.Effect<TrackerReport, unknown>
  }
>() {}
