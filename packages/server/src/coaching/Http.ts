/**
 * Handlers of the `coaching` group (spec 4.5: onboarding steps, dashboard, manual audits, the wiki). None is built yet: every operation answers 501
 * `NotImplemented` (`Pending.coaching`). The issue that builds them adds the service and the
 * repository beside this file and takes the operations off the list.
 */
import { CallsightApi, Pending } from "@callsight/api-spec"
import { HttpApiBuilder } from "@effect/platform"
import { handlePending } from "../http/Pending.js"

export const CoachingHttpLive = HttpApiBuilder.group(CallsightApi, "coaching", (handlers) => handlePending(handlers, Pending.coaching))
