/**
 * The report's SVG pieces, drawn inline: the brand mark, the overall score's ring, the speaker
 * timeline with its evidence pins, and the talk-ratio chart with its reference lines.
 */
import { e, formatClock, grade, isNum, pct, signed } from "./Format.js"
import { dimensionLabel } from "./Labels.js"
import type { ReportInput } from "./Report.js"
import { type Lane, roleLabel } from "./Speakers.js"
import type { Marker } from "./View.js"

/** Callsight's mark, beside the name in the header. */
export const BRAND_MARK = `<svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true"><rect width="24" height="24" rx="6" fill="#4f46e5"/><rect x="5" y="10" width="2.4" height="4" rx="1.2" fill="#fff"/><rect x="9" y="7" width="2.4" height="10" rx="1.2" fill="#fff"/><rect x="13" y="5" width="2.4" height="14" rx="1.2" fill="#c7d2fe"/><rect x="17" y="9" width="2.4" height="6" rx="1.2" fill="#fff"/></svg>`

/** A tick step of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min or 1 h that gives ~6–10 ticks. */
const tickStep = (duration: number): number => {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
  for (const s of steps) if (duration / s <= 10) return s
  return 3600 * Math.ceil(duration / 36000)
}

/** The overall score as a ring, in its grade's colour (neutral when partial). */
export const scoreRing = (score: number | null, partial: { readonly assessed: number; readonly of: number } | null): string => {
  const r = 52
  const c = 2 * Math.PI * r
  const g = score === null ? null : partial !== null ? "partial" : grade(score)
  const arc = score === null
    ? ""
    : `<circle class="ring-value ring-${g}" cx="64" cy="64" r="${r}" stroke-dasharray="${((score / 100) * c).toFixed(2)} ${c.toFixed(2)}" transform="rotate(-90 64 64)"/>`
  const label = score === null
    ? "Overall score not assessed"
    : partial !== null
    ? `Overall score ${score} of 100, partial: from ${partial.assessed} of ${partial.of} dimensions`
    : `Overall score ${score} of 100`
  return `<svg class="ring" viewBox="0 0 128 128" role="img" aria-label="${label}">
<circle class="ring-track" cx="64" cy="64" r="${r}"/>${arc}
<text x="64" y="64" class="ring-number" text-anchor="middle" dominant-baseline="central">${score === null ? "—" : score}</text>
<text x="64" y="92" class="ring-of" text-anchor="middle">of 100</text>
</svg>`
}


/** The speaker timeline: one lane per speaker, the evidence as spans and numbered pins. */
export const timelineSvg = (input: ReportInput, lanes: ReadonlyArray<Lane>, markers: ReadonlyArray<Marker>): string => {
  const W = 1000
  const left = 150
  const right = 16
  const plotW = W - left - right
  const duration = isNum(input.duration_s) && input.duration_s > 0
    ? input.duration_s
    : Math.max(1, ...input.speaker_turns.map((t) => t.end))
  const x = (t: number) => left + (Math.min(Math.max(t, 0), duration) / duration) * plotW

  // evidence markers, stacked into rows so that they never overlap
  const pinW = 22
  const rows: Array<number> = [] // right edge of the last pin in each row
  const byTime = markers
    .map((m) => ({ m, cx: Math.min(Math.max(x(m.item.start), left + pinW / 2), W - right - pinW / 2) }))
    .sort((a, b) => a.cx - b.cx || a.m.n - b.m.n)
  const placed = byTime.map(({ cx, m }) => {
    let row = rows.findIndex((edge) => cx - pinW / 2 >= edge + 3)
    if (row === -1) {
      row = rows.length
      rows.push(-Infinity)
    }
    rows[row] = cx + pinW / 2
    return { ...m, cx, row }
  })
  const pinRowH = 24
  const evidenceH = placed.length > 0 ? rows.length * pinRowH + 10 : 0
  const laneH = 30
  const laneGap = 12
  const top = evidenceH + 8
  const lanesH = lanes.length * laneH + Math.max(0, lanes.length - 1) * laneGap
  const axisY = top + lanesH + 10
  const H = axisY + 26

  const out: Array<string> = []
  out.push(`<svg class="timeline" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="timeline-title">`)
  out.push(`<title id="timeline-title">Speaker timeline: who spoke when, with the evidence behind the scores</title>`)

  // grid and axis
  const step = tickStep(duration)
  out.push(`<g class="grid">`)
  for (let t = 0; t <= duration + 1e-9; t += step) {
    const tx = x(t).toFixed(1)
    out.push(`<line x1="${tx}" x2="${tx}" y1="${top - 4}" y2="${axisY}"/>`)
    out.push(`<text class="tick" x="${tx}" y="${axisY + 16}" text-anchor="middle">${formatClock(t)}</text>`)
  }
  out.push(`</g>`)
  out.push(`<line class="axis" x1="${left}" x2="${W - right}" y1="${axisY}" y2="${axisY}"/>`)

  // lane backgrounds and labels, then the evidence spans, then the turns on top
  const laneY = (i: number) => top + i * (laneH + laneGap)
  lanes.forEach((lane, i) => {
    const y = laneY(i)
    out.push(`<rect class="lane-bg" x="${left}" y="${y}" width="${plotW}" height="${laneH}" rx="4"/>`)
    out.push(`<circle cx="10" cy="${y + laneH / 2}" r="5" fill="${lane.colour}"/>`)
    const name = lane.speaker.length > 16 ? `${lane.speaker.slice(0, 15)}…` : lane.speaker
    out.push(`<text class="lane-name" x="22" y="${y + 13}">${e(name)}</text>`)
    out.push(`<text class="lane-role" x="22" y="${y + 27}">${e(roleLabel(lane.role))}</text>`)
  })
  for (const m of placed) {
    const x0 = x(m.item.start)
    const w = Math.max(2, x(m.item.end) - x0)
    out.push(
      `<rect class="span span-${m.item.effect < 0 ? "neg" : m.item.effect > 0 ? "pos" : "zero"}" x="${x0.toFixed(1)}" y="${top - 4}" width="${w.toFixed(1)}" height="${lanesH + 8}" rx="3"/>`
    )
  }
  lanes.forEach((lane, i) => {
    const y = laneY(i)
    out.push(`<g class="lane">`)
    for (const t of input.speaker_turns) {
      if (t.speaker !== lane.speaker || !(t.end > t.start)) continue
      const x0 = x(t.start)
      const w = Math.max(1, x(t.end) - x0)
      out.push(
        `<rect x="${x0.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${laneH - 8}" rx="2" fill="${lane.colour}"><title>${e(lane.speaker)} ${formatClock(t.start)}–${formatClock(t.end)}</title></rect>`
      )
    }
    out.push(`</g>`)
  })

  // evidence pins
  for (const m of placed) {
    const y = 4 + m.row * pinRowH
    const kind = m.item.effect < 0 ? "neg" : m.item.effect > 0 ? "pos" : "zero"
    out.push(
      `<a href="#ev-${m.n}" class="pin pin-${kind}"><title>#${m.n} ${e(dimensionLabel(m.item.dimension))} ${signed(m.item.effect)}: ${e(m.text)} (${formatClock(m.item.start)}–${formatClock(m.item.end)})</title>` +
        `<line x1="${m.cx.toFixed(1)}" x2="${m.cx.toFixed(1)}" y1="${y + 18}" y2="${top - 4}"/>` +
        `<rect x="${(m.cx - pinW / 2).toFixed(1)}" y="${y}" width="${pinW}" height="18" rx="9"/>` +
        `<text x="${m.cx.toFixed(1)}" y="${y + 13}" text-anchor="middle">${m.n}</text></a>`
    )
  }
  out.push(`</svg>`)
  return out.join("\n")
}

/** The talk-ratio bar, with the 43 % reference and the zone above 65 %. */
export const talkRatioSvg = (repShare: number | null): string => {
  const W = 420
  const left = 8
  const plotW = W - 2 * left
  const barY = 40
  const barH = 30
  const x = (f: number) => left + f * plotW
  const out: Array<string> = []
  out.push(`<svg class="talk" viewBox="0 0 ${W} 112" role="img" aria-label="Rep talk ratio ${repShare === null ? "not measured" : pct(repShare)}, reference 43 %">`)
  // the zone above 65 %
  out.push(`<rect class="zone-high" x="${x(0.65).toFixed(1)}" y="${barY - 6}" width="${(x(1) - x(0.65)).toFixed(1)}" height="${barH + 12}" rx="3"/>`)
  if (repShare === null) {
    out.push(`<rect class="bar-empty" x="${left}" y="${barY}" width="${plotW}" height="${barH}" rx="6"/>`)
  } else {
    const r = Math.min(Math.max(repShare, 0), 1)
    out.push(`<clipPath id="talk-clip"><rect x="${left}" y="${barY}" width="${plotW}" height="${barH}" rx="6"/></clipPath>`)
    out.push(`<g clip-path="url(#talk-clip)">`)
    out.push(`<rect class="bar-rep" x="${left}" y="${barY}" width="${(r * plotW).toFixed(1)}" height="${barH}"/>`)
    out.push(`<rect class="bar-buyer" x="${x(r).toFixed(1)}" y="${barY}" width="${((1 - r) * plotW).toFixed(1)}" height="${barH}"/>`)
    out.push(`</g>`)
    if (r >= 0.12) out.push(`<text class="bar-label" x="${left + 10}" y="${barY + 20}">Rep ${pct(r)}</text>`)
    if (1 - r >= 0.16) out.push(`<text class="bar-label" x="${W - left - 10}" y="${barY + 20}" text-anchor="end">Buyer ${pct(1 - r)}</text>`)
  }
  // reference lines
  out.push(`<line class="ref-line" x1="${x(0.43).toFixed(1)}" x2="${x(0.43).toFixed(1)}" y1="${barY - 12}" y2="${barY + barH + 8}"/>`)
  out.push(`<text class="ref-text" x="${x(0.43).toFixed(1)}" y="${barY - 17}" text-anchor="middle">43 % top performers</text>`)
  out.push(`<line class="ref-line ref-high" x1="${x(0.65).toFixed(1)}" x2="${x(0.65).toFixed(1)}" y1="${barY - 6}" y2="${barY + barH + 6}"/>`)
  out.push(`<text class="ref-text ref-high-text" x="${x(0.65).toFixed(1)}" y="${barY + barH + 22}" text-anchor="middle">65 %: lower win rates above</text>`)
  for (const f of [0, 0.5, 1]) {
    out.push(`<text class="tick" x="${x(f).toFixed(1)}" y="${barY + barH + 22}" text-anchor="${f === 0 ? "start" : f === 1 ? "end" : "middle"}">${f === 0.5 ? "" : pct(f)}</text>`)
  }
  out.push(`</svg>`)
  return out.join("\n")
}
