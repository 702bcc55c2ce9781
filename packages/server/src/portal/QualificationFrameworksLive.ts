/**
 * The framework the tenant's calls are scored against (`ports/QualificationFrameworks.ts`), for
 * the analysis worker: its lead-context profile's, MEDDPICC by default. `main.ts` provides it.
 */
import { Effect, Layer } from "effect"
import { QualificationFrameworks } from "../ports/QualificationFrameworks.js"
import { Profiles } from "./Profiles.js"

export const QualificationFrameworksLive = Layer.effect(
  QualificationFrameworks,
  Effect.map(Profiles, (profiles) =>
    QualificationFrameworks.of({
      forTenant: (clientId) => Effect.map(profiles.lead(clientId), (profile) => profile.qualification_framework)
    }))
).pipe(Layer.provide(Profiles.Default))
