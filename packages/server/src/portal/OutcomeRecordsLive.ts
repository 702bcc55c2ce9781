/** The portal's outcome truth as other features ask for it (`ports/OutcomeRecords.ts`); `main.ts` provides it. */
import { Effect, Layer } from "effect"
import { OutcomeRecords } from "../ports/OutcomeRecords.js"
import { OutcomeTruth } from "./OutcomeTruth.js"

export const OutcomeRecordsLive = Layer.effect(
  OutcomeRecords,
  Effect.map(OutcomeTruth, (outcomes) => OutcomeRecords.of({ record: outcomes.record }))
).pipe(Layer.provide(OutcomeTruth.Default))
