/**
 * The scores: the summary (the overall score with its grade or "partial", the dimensions at a
 * glance, the LLM's part, the talk ratio) and the scorecard (each dimension's score, weight,
 * basis, evidence links and quotes, and the overall row).
 */
import { SCORE_BASE } from "../scoring/Dimensions.js"
import { clip, e, formatClock, formatDuration, grade, GRADE_LABEL, isNum, pct, signed } from "./Format.js"
import { dimensionLabel, lookup, OBJECTION_LABELS } from "./Labels.js"
import { roleLabel } from "./Speakers.js"
import { scoreRing, talkRatioSvg } from "./Svg.js"
import { effectKind, llmMark, type ReportView } from "./View.js"

/**
 * The rule findings the tenant's LLM rejected as a second reader (their confidence under the
 * method's threshold), one line each with its reason; none, nothing.
 */
const rejectedList = (view: ReportView): string => {
  const verdicts = view.llm?.verdicts ?? []
  const rejected = verdicts.filter((v) => v.verdict === "rejected")
  if (rejected.length === 0) return ""
  const kept = verdicts.length - rejected.length
  return `<p class="llm-note">The LLM rejected ${rejected.length} rule finding${rejected.length === 1 ? "" : "s"} the method was unsure of${
    kept > 0 ? ` (and kept ${kept})` : ""
  }; ${rejected.length === 1 ? "it is" : "they are"} left out of the objections and the scores:</p><ul class="llm-rejected">${
    rejected
      .map((v) =>
        `<li>Rejected: <span class="quote">“${e(clip(v.quote, 160))}”</span> ${view.momentLink(v.at)} (${
          e(lookup(OBJECTION_LABELS, v.kind) ?? v.kind)
        }, confidence ${v.confidence.toFixed(2)}): ${e(clip(v.reason, 300))}</li>`
      )
      .join("")
  }</ul>`
}

/** The summary: overall + talk ratio. */
export const summarySection = (view: ReportView): string => {
  const { assessed, assistedBy, basis, dims, hasTranscript, input, lanes, llm, overall, overallGrade: g, partial } = view
  const totalTalk = lanes.reduce((s, l) => s + l.talk_s, 0)

  // rep share for the chart: the metric, else the speakers' shares
  const repShare = isNum(input.metrics.talk_ratio)
    ? input.metrics.talk_ratio
    : (() => {
      const rep = lanes.filter((l) => l.role === "rep").reduce((s, l) => s + l.talk_s, 0)
      const all = lanes.reduce((s, l) => s + l.talk_s, 0)
      return rep > 0 && all > 0 ? rep / all : null
    })()

  const llmLine = llm === null
    ? ""
    : llm.error !== null
    ? `<p class="llm-note">The tenant's LLM (${e(llm.provider)} · ${e(llm.model)}) gave no assessment: ${e(clip(llm.error, 200))}. The scores are the rules' alone.</p>`
    : `<p class="llm-note">${
      assistedBy.size === 0
        ? `The tenant's LLM (${e(llm.provider)} · ${e(llm.model)}) found nothing the rules had not.`
        : `LLM-assisted: <b>${[...assistedBy].map((d) => e(dimensionLabel(d))).join(", ")}</b> (${e(llm.provider)} · ${e(llm.model)}): ${llm.added_items} verified item${llm.added_items === 1 ? "" : "s"} added, marked LLM.`
    }${llm.dropped_items > 0 ? ` ${llm.dropped_items} item${llm.dropped_items === 1 ? "" : "s"} dropped: not found in the transcript.` : ""}</p>${
      llm.error === null ? rejectedList(view) : ""
    }`
  return `<section class="summary">
<div class="card" id="overall"><div class="overall">${scoreRing(overall, partial)}<div>
<h2>Overall score</h2>
<span class="grade grade-${g ?? "none"}">${g === null ? "Not assessed" : g === "partial" ? `Partial (${basis.assessed} of ${basis.of})` : GRADE_LABEL[g]}</span>
<p>Weighted mean of the <b>${assessed.length} of ${dims.length}</b> dimensions that could be assessed.${
    assessed.length < dims.length && !hasTranscript ? " The others need a transcript." : ""
  }${partial !== null ? " Fewer than 4 of 6 were assessed: a partial score, with no grade." : ""}</p>${llmLine}
</div></div>
<ul class="dimlist">${
    dims
      .map((d) => {
        const label = e(dimensionLabel(d.dimension))
        if (!d.assessed || d.score === null) {
          return `<li class="off"><a href="#dim-${e(d.dimension)}">${label}</a><span class="mini"></span><b>n/a</b></li>`
        }
        const s = Math.min(100, Math.max(0, Math.round(d.score)))
        return `<li><a href="#dim-${e(d.dimension)}">${label}</a><span class="mini mini-${grade(s)}"><i style="width:${s}%"></i></span><b>${s}</b></li>`
      })
      .join("")
  }</ul></div>
<div class="card" id="talk-ratio">
<h2>Talk ratio</h2>
<p class="lede">Share of speech time. Top performers talk about 43 % of the time; above 65 % goes with lower win rates (Gong Labs, 25,537 calls).</p>
${talkRatioSvg(repShare)}
<div class="shares">${
    lanes
      .map((l) => {
        const share = isNum(l.share) ? l.share : totalTalk > 0 ? l.talk_s / totalTalk : 0
        return `<div class="share"><span class="who"><i style="background:${l.colour}"></i>${e(l.speaker)} <small>${e(roleLabel(l.role).toLowerCase())}</small></span><span class="track"><i style="width:${(Math.min(1, Math.max(0, share)) * 100).toFixed(1)}%;background:${l.colour}"></i></span><span class="val">${l.talk_s < 60 ? formatDuration(l.talk_s) : formatClock(l.talk_s)} · ${pct(share)}</span></div>`
      })
      .join("")
  }</div>${isNum(input.metrics.silence_ratio) ? `<p class="note">Silence: ${pct(input.metrics.silence_ratio)} of the call.</p>` : ""}
</div>
</section>`
}

/** The scorecard. */
export const scorecardSection = (view: ReportView): string => {
  const { assessed, assistedBy, dims, evidence, momentLink, overall, overallGrade: g, partial } = view
  const weightSum = assessed.reduce((s, d) => s + d.weight, 0)
  const parts: Array<string> = []
  parts.push(`<section class="card" id="scorecard">
<h2>Scorecard</h2>
<p class="lede">Each assessed dimension starts at ${SCORE_BASE}; every point added or removed links to its evidence. Dimensions that could not be assessed are left out of the overall score, never guessed.</p>
<table>
<thead><tr><th>Dimension</th><th class="score-cell">Score</th><th class="num">Weight</th><th>Basis and evidence</th></tr></thead>
<tbody>`)
  for (const d of dims) {
    const label = dimensionLabel(d.dimension)
    const weightText = `${Math.round(d.weight * 100)} %${
      d.assessed && d.score !== null && weightSum > 0 && Math.abs(weightSum - 1) > 1e-9
        ? `<small>counts ${Math.round((d.weight / weightSum) * 100)} %</small>`
        : ""
    }`
    if (!d.assessed || d.score === null) {
      parts.push(
        `<tr class="dim-off" id="dim-${e(d.dimension)}"><th scope="row">${e(label)}</th><td class="score-cell"><span class="not-assessed">Not assessed</span></td><td class="num">${weightText}</td><td><span class="why muted">${e(d.reason ?? "not assessed")}</span></td></tr>`
      )
      continue
    }
    const gd = grade(d.score)
    const mine = evidence.filter((m) => m.item.dimension === d.dimension)
    const quoted = mine.filter((m) => m.item.quote !== null && m.item.quote.trim().length > 0)
    const quotes = quoted
      .map((m) =>
        `<li><a class="ev ev-${effectKind(m.item.effect)}" href="#ev-${m.n}" title="Evidence #${m.n}">#${m.n} ${signed(m.item.effect)}</a><span><span class="quote">“${
          e(clip(m.item.quote!, 220))
        }”</span> ${momentLink(m.item.start)}${llmMark(m.item.source)}</span></li>`
      )
      .join("")
    const links = mine
      .filter((m) => !quoted.includes(m))
      .map((m) =>
        `<a class="ev ev-${effectKind(m.item.effect)}" href="#ev-${m.n}" title="${e(m.text)}">#${m.n} ${signed(m.item.effect)}</a>`
      )
      .join("")
    parts.push(
      `<tr id="dim-${e(d.dimension)}"><th scope="row">${e(label)}${assistedBy.has(d.dimension) ? `<small>LLM-assisted</small>` : ""}</th><td class="score-cell"><div class="meter meter-${gd}"><b>${Math.round(d.score)}</b><div class="meter-bar"><span style="width:${Math.min(100, Math.max(0, d.score)).toFixed(0)}%"></span></div></div></td><td class="num">${weightText}</td><td><div class="why">${e(d.reason ?? "")}</div>${links ? `<div class="ev-links">${links}</div>` : ""}${
        quotes ? `<ul class="quotes">${quotes}</ul>` : ""
      }</td></tr>`
    )
  }
  parts.push(
    `<tr class="total-row"><th scope="row">Overall</th><td class="score-cell">${
      overall === null ? `<span class="not-assessed">Not assessed</span>` : `<div class="meter meter-${g}"><b>${overall}</b><div class="meter-bar"><span style="width:${Math.min(100, Math.max(0, overall))}%"></span></div></div>`
    }</td><td class="num">${Math.round(weightSum * 100)} %<small>assessed</small></td><td><span class="why">Weighted mean of the assessed dimensions${
      partial !== null ? `: partial (${partial.assessed} of ${partial.of}), no grade` : ""
    }</span></td></tr>`
  )
  parts.push(`</tbody></table></section>`)
  return parts.join("\n")
}
