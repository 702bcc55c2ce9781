/**
 * Each tenant's default rep channel for stereo uploads that do not say (`left`, `right` or `auto`;
 * `auto` unless set). The portal keeps it in the tenant's lead-context profile, beside the
 * qualification framework, and implements this tag; the analysis worker reads it through the tag
 * (`main.ts` provides the portal's layer to the worker).
 */
import type { ClientId, RepChannelSetting } from "@callsight/api-spec"
import { Context, type Effect } from "effect"

export class RepChannels extends Context.Tag("@callsight/RepChannels")<
  RepChannels,
  { readonly forTenant: (clientId: ClientId) => Effect.Effect<typeof RepChannelSetting.Type> }
>() {}
