/**
 * Small pieces the coaching, workspace, value and activity screens share: the tabs of a screen
 * (links, the current one marked), a row of figures, a score trend drawn as bars (SVG attributes,
 * no `style`: the CSP forbids inline styles) with its words for screen readers, and the wording
 * of the API's snake_case names.
 */
import type { ReactNode } from "react"
import { Link, useLocation } from "wouter"

/** `objection_handling` → "objection handling". */
export const words = (s: string) => s.replace(/_/g, " ")

/** "Objection handling". */
export const Words = ({ of }: { readonly of: string }) => <>{words(of).replace(/^./, (c) => c.toUpperCase())}</>

/** A number rounded to one decimal, or a dash. */
export const num = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined ? "—" : n.toLocaleString(undefined, { maximumFractionDigits: digits })

/** A change in points, signed: "+4.5", "−2", "0". */
export const signed = (n: number | null | undefined) =>
  n === null || n === undefined ? "—" : n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : "0"

/** A share of one as a percentage: 0.42 → "42 %". */
export const pct = (share: number | null | undefined) => (share === null || share === undefined ? "—" : `${num(share * 100, 0)} %`)

/** The tabs of a screen: links to its parts, the current one marked for assistive technology. */
export const Tabs = ({ label, tabs }: { readonly label: string; readonly tabs: ReadonlyArray<{ readonly href: string; readonly label: string; readonly exact?: boolean }> }) => {
  const [location] = useLocation()
  return (
    <nav className="tabs" aria-label={label}>
      <ul>
        {tabs.map((t) => {
          const current = t.exact === true ? location === t.href : location === t.href || location.startsWith(`${t.href}/`)
          return (
            <li key={t.href}>
              <Link href={t.href} aria-current={current ? "page" : undefined}>{t.label}</Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

/** Figures side by side: a label and its value each. */
export const Stats = ({ items }: { readonly items: ReadonlyArray<readonly [string, ReactNode]> }) => (
  <dl className="stats">
    {items.map(([label, value]) => (
      <div key={label}>
        <dt>{label}</dt>
        <dd>{value}</dd>
      </div>
    ))}
  </dl>
)

interface TrendPoint {
  readonly period_start: string
  readonly calls: number
  readonly average_score: number | null
}

/** Weekly average scores as bars (0–100); a week without a scored call is a short grey mark. */
export const Trend = ({ points }: { readonly points: ReadonlyArray<TrendPoint> }) => {
  if (points.length === 0) return null
  const H = 40
  const W = 14
  const said = points.map((p) => `week of ${p.period_start}: ${p.average_score === null ? "no scored call" : `${Math.round(p.average_score)} over ${p.calls} call${p.calls === 1 ? "" : "s"}`}`).join("; ")
  return (
    <figure className="trend">
      <svg viewBox={`0 0 ${points.length * W} ${H + 2}`} width={points.length * W} height={H + 2} role="img" aria-label={`Score by week, oldest first: ${said}`}>
        {points.map((p, i) => {
          const h = p.average_score === null ? 2 : Math.max(2, (p.average_score / 100) * H)
          return (
            <rect key={p.period_start} x={i * W + 2} y={H - h + 1} width={W - 4} height={h} rx={2} className={p.average_score === null ? "trend-none" : p.average_score < 50 ? "trend-low" : "trend-bar"}>
              <title>{`Week of ${p.period_start}: ${p.average_score === null ? "no scored call" : `${Math.round(p.average_score)} (${p.calls} calls)`}`}</title>
            </rect>
          )
        })}
      </svg>
      <figcaption className="muted" aria-hidden="true">{points.length} weeks, from {points[0]!.period_start}; red below 50</figcaption>
    </figure>
  )
}

/** A risk or health level as a coloured badge with its word. */
export const Level = ({ level }: { readonly level: string }) => <span className={`badge level-${level}`}>{words(level)}</span>
