/**
 * The method note: the method version, how speakers and the rep were found, the speech-to-text
 * provider and how far its diarization agrees with ours, the tenant's LLM when one assisted (and
 * read the rules' doubtful objections), the weights of the overall score and the scoring rules.
 */
import { DIMENSION_LABELS, DIMENSION_WEIGHTS, type DimensionName, SCORE_BASE } from "../scoring/Dimensions.js"
import { SCORING_RULES } from "../scoring/Rules.js"
import { DOUBTFUL } from "../models/ObjectionModel.js"
import { clip, e, isNum, pct } from "./Format.js"
import type { ReportView } from "./View.js"

/** The method note. */
export const methodSection = (view: ReportView): string => {
  const { dims, hasTranscript, input, lanes, llm, providerName, transcription } = view
  const agreement = transcription !== null && isNum(transcription.diarization_agreement)
    ? Math.min(1, Math.max(0, transcription.diarization_agreement))
    : null
  const diar = input.diarization === "channel"
    ? "one speaker per stereo channel"
    : input.diarization === "clustering"
    ? "clustering of voice features (mono)"
    : input.channels === 2
    ? "stereo channels"
    : "voice clustering"
  const rep = lanes.filter((l) => l.role === "rep")
  return `<section class="card method allow-break" id="method">
<h2>Method</h2>
<p>Method version <span class="version">${e(input.method_version)}</span>${
    !hasTranscript
      ? ` · <span class="flag">acoustic-only: no transcript</span>`
      : transcription !== null
      ? ` · transcript by <b>${e(providerName)}</b> <span class="version">${e(transcription.model)}</span>`
      : ""
  }</p>
<p>Speech activity from frame energy and spectral features; speakers by ${e(diar)}; the rep is ${
    rep.length === 0
      ? "not identified"
      : rep
        .map((l) => `<b>${e(l.speaker)}</b>${l.confidence !== null ? ` (confidence ${pct(l.confidence)})` : ""}`)
        .join(", ")
  }, the buyer side is everyone else. ${
    !hasTranscript
      ? "No speech-to-text provider was used, so nothing here depends on words: content dimensions are reported as not assessed."
      : `Words come from the ${transcription !== null ? "" : "configured "}speech-to-text provider, each attached to a speaker turn by time overlap${
        transcription === null
          ? ""
          : agreement !== null
          ? `; the provider's own speaker labels agree with ours on <b>${pct(agreement)}</b> of speech time`
          : "; the provider does not tell speakers apart, so there is no second opinion on ours"
      }.`
  } Scoring is rule-based and deterministic: the same call always gives the same scores.</p>${
    llm === null
      ? ""
      : `<p>LLM assistance: the transcript was sent to the tenant's LLM (<b>${e(llm.provider)}</b> <span class="version">${e(llm.model)}</span>), which named objections, next steps, pains, value claims and qualification evidence, each quoting the transcript. Items whose quote is not in the transcript are dropped (${llm.dropped_items} on this call); the others are merged with the rules' findings, marked LLM, and the dimensions they touch are scored by the same rules${
        llm.doubtful_items === undefined
          ? ""
          : `. It was also asked for a verdict on the objections the rules were unsure of (confidence under ${DOUBTFUL.toFixed(2)}; ${llm.doubtful_items} on this call): one it rejects leaves the objections and the scores, and is listed with its reason under the overall score`
      }${
        llm.error !== null ? `. On this call it gave nothing (${e(clip(llm.error, 200))}), so the rules' result stands.` : "."
      }</p>`
  }
<h3>Weights of the overall score</h3>
<table><thead><tr><th>Dimension</th><th class="num">Weight</th><th>In this call</th></tr></thead><tbody>${
    (Object.keys(DIMENSION_WEIGHTS) as Array<DimensionName>)
      .map((k) => {
        const d = dims.find((x) => x.dimension === k)
        const w = d?.weight ?? DIMENSION_WEIGHTS[k]
        return `<tr><td>${e(DIMENSION_LABELS[k])}</td><td class="num">${Math.round(w * 100)} %</td><td>${
          d && d.assessed && d.score !== null ? "assessed" : `<span class="na">not assessed, left out</span>`
        }</td></tr>`
      })
      .join("")
  }</tbody></table>
<h3>Scoring rules</h3>
<p>An assessed dimension starts at ${SCORE_BASE}; each rule adds or removes whole points within its range, so every dimension spans 0–100.</p>
<table><thead><tr><th>Dimension</th><th>Rule</th><th>Points</th><th>Evidence at</th><th>Reference</th></tr></thead><tbody>${
    SCORING_RULES.map((r) =>
      `<tr><td>${e(DIMENSION_LABELS[r.dimension])}</td><td>${e(r.label)}</td><td>${e(r.text)}</td><td>${e(r.moment)}</td><td>${
        r.reference ? e(r.reference) : `<span class="na">Callsight's own</span>`
      }</td></tr>`
    ).join("")
  }</tbody></table>
</section>`
}
