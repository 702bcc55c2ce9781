/**
 * Handlers of the `workspace` group (spec 4.8: session, state, search, chat, actions, briefs, call
 * details), every operation behind the portal session. Built: `search` (Search.ts). The others
 * answer 501 `NotImplemented` (`Pending.workspace`) until their issue takes them off the list.
 */
import { CallsightApi, CurrentClient, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { handlePending } from "../http/Pending.js"
import { Search } from "./Search.js"

export const WorkspaceHttpLive = HttpApiBuilder.group(CallsightApi, "workspace", (handlers) =>
  Effect.gen(function* () {
    const search = yield* Search

    return handlePending(handlers, Pending.workspace)
      .handle("search", ({ urlParams }) => Effect.flatMap(CurrentClient, (c) => search.search(c.clientId, urlParams)))
  })
).pipe(Layer.provide(Search.Default))
