/**
 * Handlers of the `assistant` group (spec 4.9: the internal assistant's per-client views). None is built yet: every operation answers 501
 * `NotImplemented` (`Pending.assistant`). The issue that builds them adds the service and the
 * repository beside this file and takes the operations off the list.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { handlePending } from "../http/Pending.js"

export const AssistantHttpLive = HttpApiBuilder.group(CallsightApi, "assistant", (handlers) => handlePending(handlers, Pending.assistant))
