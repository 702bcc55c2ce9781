/**
 * Said near the scorecard of an analysis without a transcript: which dimensions it could not judge
 * (those whose reason says they need a transcript), what else needs one, and how to configure a
 * speech-to-text provider, in the server's words (`speech_to_text_setup`).
 */
import { e } from "./Format.js"
import { dimensionLabel } from "./Labels.js"
import type { ReportView } from "./View.js"

/** "a", "a and b", "a, b and c" */
const listed = (items: ReadonlyArray<string>) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`

/** The notice; empty with a transcript. */
export const missingTranscriptSection = (view: ReportView): string => {
  const { dims, hasTranscript, input } = view
  if (hasTranscript) return ""
  const unjudged = dims.filter((d) => !d.assessed && (d.reason ?? "").startsWith("needs a transcript"))
  const judged = dims.filter((d) => d.assessed && d.score !== null)
  const setup = (input.speech_to_text_setup ?? "").trim()
  return `<section class="card notice" id="no-transcript" role="note">
<h2>No speech-to-text provider</h2>
<p>This call was analysed from its audio alone: no speech-to-text provider transcribed it${
    unjudged.length === 0
      ? "."
      : `, so <b>${listed(unjudged.map((d) => e(dimensionLabel(d.dimension))))}</b> could not be judged (${
        unjudged.length === 1 ? "it needs" : "they need"
      } the words).`
  }${
    judged.length === 0 ? "" : ` The scores below rest on ${listed(judged.map((d) => e(dimensionLabel(d.dimension))))} alone.`
  } Objections, next steps and quoted evidence need a transcript too.</p>
<p><b>To add one:</b> ${
    setup === "" ? "configure a speech-to-text provider (Deepgram, AssemblyAI or OpenAI) for this tenant, then analyse the call again." : e(setup)
  }</p>
</section>`
}
