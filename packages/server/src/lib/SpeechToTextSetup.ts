/**
 * Whether a tenant's calls get a transcript, and what to say when they do not (pure). The order is
 * the one the analysis workers follow (`transcription/Transcribers.ts`): the tenant's own
 * speech-to-text integration, else its `transcriber` runtime flag (when it names a choice), else
 * the server's `TRANSCRIBER`; `none` means an acoustic-only analysis.
 *
 * The words (`AnalysisNotice` of the upload's 202 and of the status, the report's line, the
 * doctor's fix and the onboarding step) name the settings, never their values nor an internal URL:
 * the portal's integration operation, the runtime flag and the environment variables.
 */
import type { AnalysisNotice, ClientId } from "@callsight/api-spec"
import { DIMENSION_LABELS, TRANSCRIPT_DIMENSIONS } from "@callsight/analysis/light"

export const TRANSCRIBER_CHOICES = ["none", "deepgram", "assemblyai", "openai"] as const
export type TranscriberChoice = (typeof TRANSCRIBER_CHOICES)[number]

export const isTranscriberChoice = (value: unknown): value is TranscriberChoice =>
  TRANSCRIBER_CHOICES.some((choice) => choice === value)

/** What decides a tenant's speech-to-text provider. */
export type TranscriberSource =
  | { readonly by: "integration"; readonly provider: string }
  | { readonly by: "tenant_flag"; readonly choice: TranscriberChoice }
  | { readonly by: "server"; readonly choice: TranscriberChoice }

/** What is known of a tenant: its speech-capable integration (provider) if any, its flag as saved, the server's choice. */
export interface TranscriberFacts {
  readonly integration: string | null
  readonly flag: unknown
  readonly server: TranscriberChoice
}

export const transcriberSource = (facts: TranscriberFacts): TranscriberSource =>
  facts.integration !== null
    ? { by: "integration", provider: facts.integration }
    : isTranscriberChoice(facts.flag)
    ? { by: "tenant_flag", choice: facts.flag }
    : { by: "server", choice: facts.server }

/** Whether calls decided so get a transcript (a provider without its key fails them instead: `transcription_failed`). */
export const hasTranscriber = (source: TranscriberSource): boolean => source.by === "integration" || source.choice !== "none"

/** The source in words: "the tenant's Deepgram integration", "the service's TRANSCRIBER (deepgram)". */
export const describeSource = (source: TranscriberSource): string =>
  source.by === "integration"
    ? `the tenant's ${source.provider} speech-to-text integration`
    : source.by === "tenant_flag"
    ? `the tenant's transcriber runtime flag (${source.choice})`
    : `the service's TRANSCRIBER (${source.choice})`

const listed = (items: ReadonlyArray<string>) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`

/** The dimensions judged from the words, named: "Discovery, Objection handling, Value and Next steps". */
export const CONTENT = listed(TRANSCRIPT_DIMENSIONS.map((d) => DIMENSION_LABELS[d]))

/** A sentence's way said first: its first letter upper-cased. */
export const capitalized = (way: string) => `${way.charAt(0).toUpperCase()}${way.slice(1)}`

/** The tenant's own way: a key saved in the portal, which comes before the flag and the server's choice. */
export const PORTAL_WAY =
  "save a speech-to-text key in the portal's integrations (PUT /v1/client-portal/integrations/llm with provider " +
  "deepgram, assemblyai, openai or openai-compatible)"

/** The operator's way: the server-wide provider and its key, in the environment. */
export const SERVER_WAY =
  "set TRANSCRIBER (deepgram, assemblyai or openai) with its key (DEEPGRAM_API_KEY, ASSEMBLYAI_API_KEY or OPENAI_API_KEY) " +
  "in the service's environment and restart it"

/** The runtime flag's operation, for staff. */
export const FLAG_WAY = (clientId: ClientId | string) =>
  `PUT /v1/internal/admin/settings/runtime-flags/${clientId}`

/**
 * How to get a transcript for the tenant's calls, given what decides them now. When one is
 * configured now (a call analysed before it), how to get this call's.
 */
export const howToConfigure = (source: TranscriberSource, clientId: ClientId | string): string =>
  hasTranscriber(source)
    ? `A speech-to-text provider is configured now (${describeSource(source)}); this call was analysed before it: ` +
      "analyse it again (the workspace's reanalyze_call action) or upload the file again."
    : source.by === "tenant_flag"
    ? `This tenant's transcriber runtime flag is none, which wins over the service's TRANSCRIBER: ${PORTAL_WAY}, which ` +
      `comes before the flag, or ask the service's staff to remove the flag or name a provider in it (${FLAG_WAY(clientId)}).`
    : `${capitalized(PORTAL_WAY)}, or ask the service's operator to ${SERVER_WAY}.`

/** The notice of a call that will be (`configuration`) or was (`analysis`) analysed without a transcriber. */
export const noTranscriberNotice = (
  decidedFrom: "configuration" | "analysis",
  source: TranscriberSource,
  clientId: ClientId | string
): typeof AnalysisNotice.Type => ({
  code: "no_transcriber",
  message: decidedFrom === "configuration"
    ? `No speech-to-text provider is configured for this tenant: the call will be analysed from its audio alone. ${CONTENT} ` +
      "need a speech-to-text provider (a transcript) and will read not assessed; objections, next steps and quoted evidence " +
      "will be empty, and the overall score will rest on Listening and Conversation flow (partial)."
    : `This call was analysed without a speech-to-text provider: ${CONTENT} were not assessed (they need a transcript), ` +
      "its objections, next steps and quoted evidence are empty, and the overall score rests on Listening and Conversation flow.",
  how: howToConfigure(source, clientId),
  dimensions: [...TRANSCRIPT_DIMENSIONS],
  decided_from: decidedFrom
})
