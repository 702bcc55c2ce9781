/**
 * Handlers of the `workspace` group (spec 4.8: session, state, search, chat, actions, briefs, call
 * details), every operation behind the portal session. Built: `search` (Search.ts; each search is
 * remembered for the user's state, by its first page), `createSession`, `getState`, `runAction`
 * and `sendToChannel` (Workspace.ts), `getTeamHealth`, `getDealIntelligence` and `getCall` (Briefs.ts),
 * `getMeetingPrepBrief` (MeetingPrep.ts; the closers' calendars come from the floor's
 * `MeetingCalendars` port, which `main.ts` provides), and the rest. An operation listed in
 * `Pending.workspace` (none today) would answer 501 `NotImplemented`.
 */
import { CallsightApi, CurrentClient, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { handlePending } from "../http/Pending.js"
import { Conversation } from "../conversation/Conversation.js"
import { Callers } from "../tenancy/Caller.js"
import { seesOf } from "../tenancy/Sees.js"
import { Briefs } from "./Briefs.js"
import { MeetingPrep } from "./MeetingPrep.js"
import { Search } from "../views/Search.js"
import { Workspace } from "./Workspace.js"

export const WorkspaceHttpLive = HttpApiBuilder.group(CallsightApi, "workspace", (handlers) =>
  Effect.gen(function* () {
    const search = yield* Search
    const workspace = yield* Workspace
    const briefs = yield* Briefs
    const conversation = yield* Conversation
    const meetingPrep = yield* MeetingPrep
    const { user } = yield* Callers

    return handlePending(handlers, Pending.workspace)
      .handle("search", ({ urlParams }) =>
        Effect.flatMap(user, (caller) =>
          search.search(caller.clientId, caller.sees, urlParams).pipe(
            // a search is remembered once, by its first page: the next pages are the same search
            Effect.tap((found) => urlParams.offset === 0 ? workspace.recordSearch(caller, found.q, found.total) : Effect.void)
          )))
      .handle("createSession", () => Effect.flatMap(user, workspace.createSession))
      .handle("getState", () => Effect.flatMap(user, workspace.state))
      .handle("chat", ({ payload }) =>
        Effect.flatMap(user, (c) => conversation.workspace({ clientId: c.clientId, userId: c.user.userId, sees: c.sees }, payload)))
      .handle("runAction", ({ payload }) => Effect.flatMap(user, (c) => workspace.runAction(c, payload)))
      .handle("sendToChannel", ({ payload }) => Effect.flatMap(user, (c) => workspace.sendToChannel(c, payload)))
      .handle("getTeamHealth", () => Effect.flatMap(CurrentClient, (c) => briefs.teamHealth(c.clientId)))
      .handle("getMeetingPrepBrief", () => Effect.flatMap(CurrentClient, (c) => meetingPrep.brief(c.clientId, seesOf(c))))
      .handle("getDealIntelligence", () => Effect.flatMap(CurrentClient, (c) => briefs.dealIntelligence(c.clientId, seesOf(c))))
      .handle("getCall", ({ path }) => Effect.flatMap(CurrentClient, (c) => briefs.call(c.clientId, path.call_id, seesOf(c))))
  })
).pipe(Layer.provide([Search.Default, Workspace.Default, Briefs.Default, MeetingPrep.Default, Callers.Default, Conversation.Default]))
