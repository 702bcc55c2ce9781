/**
 * `ports/CallTrackers.ts`: for the analysis worker, a completed call's mentions of every tracker of
 * its tenant, written again (a re-analysis replaces them); for `POST /mcp`, the report. `main.ts`
 * provides it. The worker matches inside the transaction that completes the call: the match runs
 * in a transaction of its own (a savepoint there), so a failure rolls back to it and the
 * completion still commits.
 */
import { Effect, Layer } from "effect"
import { Transactions } from "../db/Transactions.js"
import { CallTrackers } from "../ports/CallTrackers.js"
import { Trackers } from "./Trackers.js"

export const CallTrackersLive = Layer.effect(
  CallTrackers,
  Effect.map(Effect.all([Trackers, Transactions]), ([trackers, transactions]) =>
    CallTrackers.of({
      matchCall: (clientId, callId) =>
        transactions.run(trackers.matchCall(clientId, callId)).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning("tracker matching failed; the call stays completed", cause).pipe(
              Effect.annotateLogs({ call_id: callId, client_id: clientId })
            ))
        ),
      syncCompetitors: (clientId) =>
        trackers.syncCompetitors(clientId).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning("the Competitors tracker could not follow the market profile; its next read does", cause).pipe(
              Effect.annotateLogs({ client_id: clientId })
            ))
        ),
      report: trackers.report
    }))
).pipe(Layer.provide([Trackers.Default, Transactions.Default]))
