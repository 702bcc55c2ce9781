/**
 * The staff's side of the companion (`ports/CompanionChannels.ts`): the admin feature asks it,
 * `main.ts` provides it. It is the same `Companion` the webhooks use (one layer, built once).
 */
import { Effect, Layer } from "effect"
import { CompanionChannels } from "../ports/CompanionChannels.js"
import { Companion } from "./Companion.js"

export const CompanionChannelsLive = Layer.effect(
  CompanionChannels,
  Effect.map(Companion, (companion) =>
    CompanionChannels.of({ status: companion.status, connectCode: companion.connectCode, push: companion.push }))
).pipe(Layer.provide(Companion.Default))
