/** `ports/DealViews.ts`: deal intelligence for the chat, the workspace's own computation. `main.ts` provides it. */
import { Effect, Layer } from "effect"
import { DealViews } from "../ports/DealViews.js"
import { Briefs } from "./Briefs.js"

export const DealViewsLive = Layer.effect(
  DealViews,
  Effect.map(Briefs, (briefs) => DealViews.of({ compute: briefs.computeDealIntelligence }))
).pipe(Layer.provide(Briefs.Default))
