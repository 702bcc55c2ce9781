/**
 * The executive report of a Team Closing Audit (docs/closing-audit.md): one self-contained HTML page
 * (inline CSS, no script, no image, no font or anything else fetched), printable on A4 with page
 * breaks between its parts, the same page the PDF is printed from. Every text from the calls
 * (quotes, e-mails, ids) is escaped. Each figure is in an element with `data-figure` naming it, so
 * a reader (the tests) can find it in the HTML and in the PDF's text.
 */
import type { ClosingAudit } from "@callsight/api-spec"
import { escapeHtml } from "../lib/Html.js"

const e = escapeHtml

/** A score or a mean with one decimal; a dash when none. */
export const fmt1 = (x: number | null): string => (x === null ? "–" : x.toFixed(1))
const pct = (x: number | null): string => (x === null ? "–" : `${Math.round(x * 100)}%`)
const clock = (s: number) => {
  const t = Math.max(0, Math.floor(s))
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`
}
const fig = (name: string, value: string) => `<span data-figure="${e(name)}">${e(value)}</span>`
const signed = (x: number | null) => (x === null ? "–" : `${x > 0 ? "+" : ""}${x.toFixed(1)}`)

const CSS = `
@page { size: A4; margin: 16mm 14mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1d2430; font-size: 10.5pt; line-height: 1.45; margin: 0; padding: 24px; }
@media print { body { padding: 0; } }
h1 { font-size: 20pt; margin: 0 0 4px; }
h2 { font-size: 14pt; margin: 22px 0 8px; border-bottom: 2px solid #2b5cab; padding-bottom: 3px; }
h3 { font-size: 11.5pt; margin: 14px 0 6px; }
.meta { color: #566; margin: 0 0 14px; }
.kpis { display: flex; flex-wrap: wrap; gap: 10px; margin: 10px 0; }
.kpi { border: 1px solid #cfd6e0; border-radius: 6px; padding: 8px 12px; min-width: 120px; }
.kpi b { display: block; font-size: 15pt; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e2e6ec; vertical-align: top; }
th { background: #f2f5f9; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.change, .closer, .finding { page-break-inside: avoid; break-inside: avoid; }
.change { border-left: 4px solid #2b5cab; padding: 4px 0 4px 10px; margin: 10px 0; }
blockquote { margin: 4px 0 4px 12px; padding: 2px 8px; border-left: 3px solid #cfd6e0; color: #333; }
blockquote.bad { border-left-color: #c0392b; }
blockquote.good { border-left-color: #2e8b57; }
.src { color: #667; font-size: 9pt; }
.page { page-break-before: always; break-before: page; }
.small { font-size: 9pt; color: #566; }
`

type Quote = ClosingAudit["changes"][number]["quotes"][number]

const quoteHtml = (q: Quote, tone: "good" | "bad") =>
  `<blockquote class="${tone}">“${e(q.quote)}”<br><span class="src">${e(q.call_id)} at ${clock(q.start)}` +
  `${q.speaker === null ? "" : `, ${e(q.speaker)}`} (${q.effect > 0 ? "+" : ""}${q.effect} points)</span></blockquote>`

/** Why a finding has no quote: listening and flow are measured from who spoke when, not from words. */
const noQuote = (dimension: string) =>
  dimension === "listening" || dimension === "conversation_flow"
    ? "Measured from who spoke when (talk share, turns, monologues, pauses), not from words: no quote."
    : "No quote in these calls."

const findingHtml = (
  f: ClosingAudit["team"]["strengths"][number],
  tone: "good" | "bad",
  name: string
) =>
  `<div class="finding"><h3>${e(f.label)}: ${fig(`${name}.mean`, fmt1(f.mean))}</h3>` +
  (f.quotes.length === 0 ? `<p class="small">${noQuote(f.dimension)}</p>` : f.quotes.map((q) => quoteHtml(q, tone)).join("")) +
  `</div>`

/** The report page. */
export const closingAuditHtml = (audit: ClosingAudit): string => {
  const t = audit.team
  const changes = audit.changes.length === 0
    ? `<p>Every dimension is at ${audit.target} or above in every call: no change ranked.</p>`
    : audit.changes.map((c) =>
      `<div class="change"><h3>${c.rank}. ${e(c.label)}: ${e(c.advice)}</h3>` +
      `<p>Worth ${fig(`changes.${c.rank}.points`, fmt1(c.points))} points of the team's mean overall score; ` +
      `${fig(`changes.${c.rank}.calls_affected`, String(c.calls_affected))} calls under ${audit.target}, ` +
      `${fig(`changes.${c.rank}.closers_affected`, String(c.closers_affected))} closers.</p>` +
      `<p class="small">Calls: ${c.call_ids.map(e).join(", ")}</p>` +
      (c.quotes.length === 0 ? `<p class="small">${noQuote(c.dimension)}</p>` : c.quotes.map((q) => quoteHtml(q, "bad")).join("")) +
      `</div>`).join("")

  const dimensionRows = t.dimensions.map((d) =>
    `<tr><td>${e(d.label)}</td><td class="n">${fig(`team.${d.dimension}.mean`, fmt1(d.mean))}</td>` +
    `<td class="n">${fig(`team.${d.dimension}.sd`, fmt1(d.sd))}</td>` +
    `<td class="n">${fig(`team.${d.dimension}.min`, String(d.min ?? "–"))}–${fig(`team.${d.dimension}.max`, String(d.max ?? "–"))}</td>` +
    `<td class="n">${fig(`team.${d.dimension}.calls`, String(d.calls))}</td>` +
    `<td class="n">${fig(`team.${d.dimension}.below`, String(d.below_target.length))}</td>` +
    `<td class="n">${d.weight === null ? "–" : d.weight.toFixed(2)}</td></tr>`).join("")

  const closers = audit.closers.map((c, i) => {
    const who = c.closer_email === null ? "No closer" : `${c.full_name === null ? "" : `${e(c.full_name)} · `}${e(c.closer_email)}`
    const rows = c.dimensions.map((d) =>
      `<tr><td>${e(d.label)}</td><td class="n">${fig(`closers.${i}.${d.dimension}.mean`, fmt1(d.mean))}</td>` +
      `<td class="n">${signed(d.vs_team)}</td><td class="n">${d.calls}</td></tr>`).join("")
    const list = (items: ClosingAudit["closers"][number]["strengths"], tone: "good" | "bad") =>
      items.length === 0 ? "<p class=\"small\">None.</p>" : items.map((f) =>
        `<p><b>${e(f.label)}</b> ${fmt1(f.mean)}</p>` +
        (f.quotes.length === 0 ? `<p class="small">${noQuote(f.dimension)}</p>` : f.quotes.map((q) => quoteHtml(q, tone)).join(""))).join("")
    return `<div class="closer"><h3>${who}</h3>` +
      `<p>${fig(`closers.${i}.calls`, String(c.calls))} calls; overall ${fig(`closers.${i}.overall`, fmt1(c.overall.mean))} ` +
      `(spread ${fmt1(c.overall.sd)})</p>` +
      `<table><thead><tr><th>Dimension</th><th class="n">Mean</th><th class="n">vs team</th><th class="n">Calls</th></tr></thead><tbody>${rows}</tbody></table>` +
      `<h3>Strengths</h3>${list(c.strengths, "good")}<h3>Gaps</h3>${list(c.gaps, "bad")}</div>`
  }).join("")

  const callRows = audit.call_list.map((c) =>
    `<tr><td>${e(c.call_id)}</td><td>${e(c.external_call_id ?? "")}</td><td>${e(c.closer_email ?? "–")}</td>` +
    `<td>${e(c.completed_at.slice(0, 10))}</td><td>${e(c.call_type ?? "–")}</td>` +
    `<td class="n">${c.overall_score ?? "–"}</td></tr>`).join("")

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${e(audit.title)}</title><style>${CSS}</style></head>
<body>
<h1>${e(audit.title)}</h1>
<p class="meta">Audit ${e(audit.audit_id)} · ${e(audit.created_at.slice(0, 10))} · ${
    audit.selection.mode === "last_per_closer" ? `the last ${audit.selection.last_per_closer} calls of each closer` : "calls chosen by hand"
  }${audit.calls_removed > 0 ? ` · ${audit.calls_removed} call(s) deleted since` : ""}</p>
<div class="kpis">
<div class="kpi">Calls<b>${fig("team.calls", String(audit.call_list.length))}</b></div>
<div class="kpi">Closers<b>${fig("team.closers", String(t.closers))}</b></div>
<div class="kpi">Mean overall score<b>${fig("team.overall.mean", fmt1(t.overall.mean))}</b></div>
<div class="kpi">Spread (SD)<b>${fig("team.overall.sd", fmt1(t.overall.sd))}</b></div>
<div class="kpi">Rep talk share<b>${fig("team.talk_ratio", pct(t.talk_ratio))}</b></div>
<div class="kpi">Objections<b>${fig("team.objections", String(t.objections))}</b></div>
<div class="kpi">Calls without a next step<b>${fig("team.calls_without_next_step", String(t.calls_without_next_step.length))}</b></div>
</div>
<h2>The three changes that would move the most deals</h2>
${changes}
<h2>The team's pattern</h2>
<table><thead><tr><th>Dimension</th><th class="n">Mean</th><th class="n">SD</th><th class="n">Range</th><th class="n">Calls</th><th class="n">Under ${audit.target}</th><th class="n">Weight</th></tr></thead>
<tbody>${dimensionRows}</tbody></table>
<h3>What the team does well</h3>
${t.strengths.map((f) => findingHtml(f, "good", `team.strengths.${f.dimension}`)).join("")}
<h3>What the team does badly</h3>
${t.weaknesses.map((f) => findingHtml(f, "bad", `team.weaknesses.${f.dimension}`)).join("")}
<h2 class="page">Closers</h2>
${closers}
<h2 class="page">The calls</h2>
<table><thead><tr><th>Call</th><th>External id</th><th>Closer</th><th>Completed</th><th>Type</th><th class="n">Overall</th></tr></thead><tbody>${callRows}</tbody></table>
<p class="small">Method ${e(audit.method)}: each figure is computed from the calls above (docs/closing-audit.md). Means and spreads are over the calls where a dimension was assessed; a change's points are what the team's mean overall score would gain if every call under ${audit.target} on it reached ${audit.target}.</p>
</body></html>`
}
