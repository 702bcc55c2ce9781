/**
 * The LLM service of the analysis (docs/method.md, "LLM assistance"): one interface, one adapter
 * per protocol (`OpenAI.ts` for OpenAI and OpenAI-compatible servers, `Anthropic.ts`). Each sends
 * one structured-output request (`StructuredRequest`, built by `analysis/Assist.ts`) and answers
 * the JSON the model produced, parsed but not yet checked: the analysis verifies it. Which LLM
 * assesses a tenant's calls is chosen in `Assessors.ts`.
 */
import type { Effect } from "effect"
import type { StructuredRequest } from "@callsight/analysis"
import type { LlmFailed, LlmProviderName } from "./ProviderHttp.js"

export interface AssessorService {
  readonly provider: LlmProviderName
  /** The model asked (`gpt-4.1-mini`, `claude-sonnet-4-5`, a self-hosted model's name ...). */
  readonly model: string
  readonly assess: (request: StructuredRequest) => Effect.Effect<unknown, LlmFailed>
}
