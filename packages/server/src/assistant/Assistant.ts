/**
 * The internal assistant interface (spec 4.9; docs/domain.md, "Internal administration ... and
 * assistant"): for the tenant named by `client_id`, the views the portal or the workspace
 * computes, by the same functions (one implementation, two doors), so both answer equal bodies:
 *
 * - `account-overview` is the portal's account cockpit (`AccountViews.cockpit`),
 *   `onboarding-status` its onboarding activation (`AccountViews.onboarding`),
 *   `operational-trust` its operational trust (`AccountViews.operationalTrust`);
 * - `review-pack` and `roi-digest` are the portal's `ValueViews.reviewPack` and `ValueViews.digest`;
 * - `calls/{call_id}` is `CallViews.analysis`, the function of `GET /v1/teams/calls/{call_id}` and
 *   `GET /v1/workspace/calls/{call_id}`: another tenant's call is 404, like a missing one;
 * - `team-health` is the workspace's `TeamHealthView.compute`. The workspace answers null when the
 *   tenant's `assistant.enabled` runtime flag is false; this door does not: the flag switches the
 *   assistant component off for the tenant's own users, while staff always see the view, and the
 *   operation's schema (`TeamHealth`) has no null.
 * - `trends` is the portal's `Trends.compute` (views/Trends.ts) over the whole team, with the same
 *   parameters (422 and 404 alike); like team health, not gated by `assistant.enabled` (staff see it).
 * - `client_id` must name a tenant: an unknown one is 404 `NotFound` ("no client …"), before any
 *   view is computed. The view runs as the staff acting for that tenant (`Callers.actingFor`:
 *   `CurrentClient` with the staff principal), as the tenant key and the session run theirs.
 *
 * `call-queue` is this door's own view. The issue asks for "the calls awaiting review or an
 * outcome"; the schema (`CallQueue`) asks for "waiting and running calls first (oldest first),
 * then the latest finished". Reconciled as:
 *
 * - awaiting review: the calls the analysis has not reviewed yet, `queued` and `processing`,
 *   oldest first (by creation);
 * - awaiting an outcome: the finished calls that wait for their outcome truth, that is the
 *   completed calls without an outcome record (the portal's outcome-truth backlog, test data
 *   included since staff name the tenant), the latest finished first;
 * - failed calls await neither (nothing to review and no deal to record): they are counted in
 *   `counts` and listed with their reasons by `operational-trust`, not queued here;
 * - at most `limit` calls (1–200, default 10; bounds checked by the schema, 422 outside);
 * - `counts` are all of the tenant's calls by status, all time; `oldest_queued_at` is when the
 *   oldest call still `queued` was made (null without one).
 */
import { AnalysisStatus, type CallId, type CallQueue, type ClientId, CurrentClient, type TrendsParams } from "@callsight/api-spec"
import { Effect } from "effect"
import { CallViews } from "../calls/CallViews.js"
import { byStatus } from "../lib/Counts.js"
import { Callers } from "../tenancy/Caller.js"
import { TEAM } from "../tenancy/Sees.js"
import { AccountViews } from "../views/AccountViews.js"
import { Trends } from "../views/Trends.js"
import { TeamHealthView } from "../views/TeamHealthView.js"
import { ValueViews } from "../views/ValueViews.js"
import { AssistantRepo } from "./AssistantRepo.js"

export class Assistant extends Effect.Service<Assistant>()("Assistant", {
  effect: Effect.gen(function* () {
    const callers = yield* Callers
    const account = yield* AccountViews
    const value = yield* ValueViews
    const calls = yield* CallViews
    const teamHealthView = yield* TeamHealthView
    const repo = yield* AssistantRepo
    const trendsView = yield* Trends

    /**
     * The tenant's view, computed as the staff request acting for the tenant (`CurrentClient`
     * provided with the staff principal, as the tenant key and the session provide it); 404 when
     * no tenant has that id.
     */
    const forTenant = <A, E, R>(clientId: ClientId, view: (clientId: ClientId) => Effect.Effect<A, E, R>) =>
      callers.actingFor(clientId, Effect.flatMap(CurrentClient, (client) => view(client.clientId)))

    const callQueue = Effect.fn("Assistant.callQueue")(function* (clientId: ClientId, limit: number) {
      const [counts, oldest, queue] = yield* Effect.all([repo.counts(clientId), repo.oldestQueuedAt(clientId), repo.queue(clientId, limit)])
      return {
        client_id: clientId,
        counts: byStatus(AnalysisStatus.literals, counts),
        oldest_queued_at: oldest,
        calls: queue,
        limit,
        generated_at: new Date().toISOString()
      } satisfies typeof CallQueue.Type
    })

    return {
      accountOverview: (clientId: ClientId) => forTenant(clientId, (id) => account.cockpit(id, TEAM)),
      onboardingStatus: (clientId: ClientId) => forTenant(clientId, account.onboarding),
      operationalTrust: (clientId: ClientId) => forTenant(clientId, account.operationalTrust),
      callQueue: (clientId: ClientId, limit: number) => forTenant(clientId, (id) => callQueue(id, limit)),
      call: (clientId: ClientId, callId: CallId) => forTenant(clientId, (id) => calls.analysis(id, callId, TEAM)),
      reviewPack: (clientId: ClientId) => forTenant(clientId, value.reviewPack),
      roiDigest: (clientId: ClientId) => forTenant(clientId, value.digest),
      teamHealth: (clientId: ClientId) => forTenant(clientId, teamHealthView.compute),
      trends: (clientId: ClientId, params: TrendsParams) => forTenant(clientId, (id) => trendsView.compute(id, TEAM, params))
    } as const
  }),
  dependencies: [
    Callers.Default,
    AccountViews.Default,
    ValueViews.Default,
    CallViews.Default,
    TeamHealthView.Default,
    AssistantRepo.Default,
    Trends.Default
  ]
}) {}
