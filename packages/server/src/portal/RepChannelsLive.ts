/**
 * The default rep channel of each tenant's stereo calls (`ports/RepChannels.ts`), for the analysis
 * worker: its lead-context profile's `rep_channel`, `auto` until set. `main.ts` provides it.
 */
import { Effect, Layer } from "effect"
import { RepChannels } from "../ports/RepChannels.js"
import { Profiles } from "./Profiles.js"

export const RepChannelsLive = Layer.effect(
  RepChannels,
  Effect.map(Profiles, (profiles) =>
    RepChannels.of({
      forTenant: (clientId) => Effect.map(profiles.lead(clientId), (profile) => profile.rep_channel)
    }))
).pipe(Layer.provide(Profiles.Default))
