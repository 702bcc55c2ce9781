/**
 * Handlers of the `workspace` group (spec 4.8: session, state, search, chat, actions, briefs, call details). None is built yet: every operation answers 501
 * `NotImplemented` (`Pending.workspace`). The issue that builds them adds the service and the
 * repository beside this file and takes the operations off the list.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { handlePending } from "../http/Pending.js"

export const WorkspaceHttpLive = HttpApiBuilder.group(CallsightApi, "workspace", (handlers) => handlePending(handlers, Pending.workspace))
