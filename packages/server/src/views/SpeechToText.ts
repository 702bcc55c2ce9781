/**
 * Whether a tenant's calls get a transcript, for the doors that say so (docs/domain.md, "Audio
 * analysis for agents"): the upload's 202 and the status carry a `no_transcriber` notice, the report
 * says how to configure a provider, and onboarding shows the step. The decision is the workers'
 * (`lib/SpeechToTextSetup.ts`), taken from the tenant's configuration now: a call queued now is
 * analysed with what is configured when its analysis starts.
 */
import type { AnalysisNotice, ClientId } from "@callsight/api-spec"
import { Effect } from "effect"
import { AppConfig } from "../config.js"
import { hasTranscriber, noTranscriberNotice, type TranscriberSource, transcriberSource } from "../lib/SpeechToTextSetup.js"
import { type SpeechToTextFacts, SpeechToTextQueries } from "./SpeechToTextQueries.js"

export interface TenantSpeechToText {
  readonly source: TranscriberSource
  readonly configured: boolean
  /** Since when the tenant's own setting gives it one (its integration, its flag); null from the server's TRANSCRIBER or without one. */
  readonly since: string | null
}

export class SpeechToText extends Effect.Service<SpeechToText>()("SpeechToText", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const queries = yield* SpeechToTextQueries

    /** What decides the tenant's provider, and whether it has one, from its facts. */
    const fromFacts = (f: SpeechToTextFacts): TenantSpeechToText => {
      const source = transcriberSource({ integration: f.integration, flag: f.flag, server: config.transcriber })
      const configured = hasTranscriber(source)
      const since = !configured ? null
        : source.by === "integration" ? f.integration_since
        : source.by === "tenant_flag" ? f.flags_updated_at
        : null
      return { source, configured, since }
    }

    /** What decides the tenant's provider now, and whether it has one. */
    const forTenant = Effect.fn("SpeechToText.forTenant")(function* (clientId: ClientId) {
      return fromFacts(yield* queries.facts(clientId))
    })

    /** The notices of a call not analysed yet: from the tenant's configuration now. */
    const beforeAnalysis = (clientId: ClientId): Effect.Effect<ReadonlyArray<typeof AnalysisNotice.Type>> =>
      Effect.map(forTenant(clientId), (t) => (t.configured ? [] : [noTranscriberNotice("configuration", t.source, clientId)]))

    /**
     * The notices of a call in its status, from the tenant's facts read with it (one statement): after
     * the analysis from what it ran with, before it from the configuration now, none for a failure.
     */
    const noticesOf = (
      clientId: ClientId,
      call: { readonly status: string; readonly transcript_available: boolean },
      facts: SpeechToTextFacts
    ): ReadonlyArray<typeof AnalysisNotice.Type> => {
      if (call.status === "failed" || (call.status === "completed" && call.transcript_available)) return []
      const t = fromFacts(facts)
      if (call.status === "completed") return [noTranscriberNotice("analysis", t.source, clientId)]
      return t.configured ? [] : [noTranscriberNotice("configuration", t.source, clientId)]
    }

    return { forTenant, beforeAnalysis, noticesOf } as const
  }),
  dependencies: [SpeechToTextQueries.Default]
}) {}
