/**
 * Recording a call's outcome truth as other features than the portal need it (the workspace's
 * `record_outcome` action): the portal implements this tag with its own `OutcomeTruth` service
 * (one implementation: the same checks, row and audit entry as `PUT .../outcome-truth`), and
 * `main.ts` provides it, so no feature imports the portal.
 */
import type { CallId, NotFound, OutcomeTruth, OutcomeTruthRequest } from "@callsight/api-spec"
import { Context, type Effect } from "effect"
import type { Caller } from "../tenancy/Caller.js"

export class OutcomeRecords extends Context.Tag("@callsight/OutcomeRecords")<
  OutcomeRecords,
  {
    /** Records (replaces) the outcome of the caller's tenant's call; 404 for a call it does not have. */
    readonly record: (caller: Caller, callId: CallId, request: OutcomeTruthRequest) => Effect.Effect<typeof OutcomeTruth.Type, NotFound>
  }
>() {}
