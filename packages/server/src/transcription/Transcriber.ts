/**
 * The speech-to-text service (docs/method.md step 4): one interface, one adapter per provider
 * (`Deepgram.ts`, `AssemblyAI.ts`, `OpenAI.ts`). Every adapter answers the same `Transcript`:
 * words with their times in seconds, their confidence and, when the provider diarizes, its own
 * speaker label. Which provider transcribes a tenant's calls is chosen in `Transcribers.ts`.
 */
import type { Effect } from "effect"
import type { AudioFormat, Transcript } from "@callsight/analysis"
import type { ProviderName, TranscriptionFailed } from "./ProviderHttp.js"

export interface TranscriberService {
  readonly provider: ProviderName
  /** The provider's model that transcribes (`nova-3`, `universal`, `gpt-4o-transcribe-diarize` ...). */
  readonly model: string
  /** Transcribes the audio file at `path`, streamed from disk; never reads it whole into memory. */
  readonly transcribe: (path: string, format: AudioFormat) => Effect.Effect<Transcript, TranscriptionFailed>
}
