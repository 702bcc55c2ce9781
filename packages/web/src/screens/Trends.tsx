/**
 * Trends (docs/trends.md): per week or month, what buyers said and how the team did: calls,
 * objections (by kind), competitors (by term), pains, next steps said, dated, kept and slipped, and
 * the average score, each number a button that lists the calls behind it (links to the call page),
 * and the notable changes between the last two periods in the service's words. One request per
 * period type and count: the team and every closer come in the same answer, so the closer filter
 * picks among them without asking again. The choices are in the address (shared, kept on reload).
 * A member (a rep) sees their own calls: the service narrows them, and there is no closer filter.
 */
import { useQuery } from "@tanstack/react-query"
import { useEffect, useRef, useState } from "react"
import { Link, useSearchParams } from "wouter"
import { type Api, call } from "../api.js"
import { isManager, useMe } from "../session.js"
import { Empty, Failure, Loading, Page, Panel } from "../ui/kit.js"
import { num, words } from "./Coaching/parts.js"
import { CoachingTabs } from "./Coaching/tabs.js"
import { callHref } from "./Workspace/links.js"

type Trends = typeof Api.Trends.Type
type Period = Trends["team"]["periods"][number]
type Change = Trends["team"]["changes"][number]
type Count = { readonly count: number; readonly calls: number; readonly call_ids: ReadonlyArray<string> }

const PERIOD_COUNTS = [4, 6, 8, 12, 26]
const DEFAULT_PERIODS = 8
/** The closer filter's value for the team (every call the caller sees). */
const TEAM = ""
/** … and for the calls with no closer. */
const NO_CLOSER = "none"

/** The calls behind a number, as chosen to be listed. */
interface Behind {
  readonly what: string
  readonly count: number
  readonly calls: number
  readonly callIds: ReadonlyArray<string>
}

const periodName = (type: "week" | "month", start: string) =>
  type === "week" ? `Week of ${start}` : new Date(`${start}T00:00:00Z`).toLocaleDateString(undefined, { month: "long", year: "numeric", timeZone: "UTC" })

/** A number; when calls are behind it, a button that lists them. */
const Num = ({ count, onShow, what }: { readonly what: string; readonly count: Count; readonly onShow: (b: Behind) => void }) =>
  count.count === 0 || count.call_ids.length === 0 ? <span className="num">{count.count}</span> : (
    <button
      type="button"
      className="link num"
      aria-label={`${what}: ${count.count}, from ${count.calls} call${count.calls === 1 ? "" : "s"}; list them`}
      onClick={() => onShow({ what, count: count.count, calls: count.calls, callIds: count.call_ids })}
    >
      {count.count}
    </button>
  )

export const TrendsScreen = () => {
  const me = useMe()
  const manager = isManager(me.data?.role)
  const [params, setParams] = useSearchParams()
  const type = params.get("period") === "month" ? "month" : "week"
  const asked = Number(params.get("periods"))
  const periods = PERIOD_COUNTS.includes(asked) ? asked : DEFAULT_PERIODS
  const closer = params.get("closer") ?? TEAM
  const [behind, setBehind] = useState<Behind | null>(null)
  const trends = useQuery({
    queryKey: ["trends", type, periods],
    queryFn: () => call((c) => c.trends.getTrends({ urlParams: { period: type, periods } }))
  })
  const choose = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params)
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") next.delete(k)
      else next.set(k, v)
    }
    setBehind(null)
    setParams(next)
  }
  const data = trends.data
  const scopes = data === undefined ? [] : data.closers
  const scope = data === undefined ? undefined : closer === TEAM ? data.team : scopes.find((c) => (c.closer_email ?? NO_CLOSER) === closer)
  const scopeName = closer === TEAM ? (manager ? "the team" : "your calls") : (() => {
    const c = scopes.find((s) => (s.closer_email ?? NO_CLOSER) === closer)
    return c === undefined ? closer : c.full_name ?? c.closer_email ?? "calls without a closer"
  })()
  return (
    <Page title={manager ? "Trends" : "Your trends"}>
      <CoachingTabs />
      <p className="muted">
        {manager
          ? "What buyers said and how the team did, per period: every number lists the calls behind it."
          : "What your buyers said and how you did, per period, over your own calls: every number lists the calls behind it."}
      </p>
      <form className="inline trend-controls" aria-label="Choose the periods" onSubmit={(e) => e.preventDefault()}>
        <fieldset className="segmented">
          <legend className="visually-hidden">Period</legend>
          {(["week", "month"] as const).map((t) => (
            <label key={t} className={type === t ? "on" : undefined}>
              <input type="radio" name="period" value={t} checked={type === t} onChange={() => choose({ period: t === "week" ? null : t })} /> By {t}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="t-periods">Periods</label>
          <select id="t-periods" value={periods} onChange={(e) => choose({ periods: Number(e.target.value) === DEFAULT_PERIODS ? null : e.target.value })}>
            {PERIOD_COUNTS.map((n) => <option key={n} value={n}>The last {n} {type}s</option>)}
          </select>
        </div>
        {manager ? (
          <div className="field">
            <label htmlFor="t-closer">Closer</label>
            <select id="t-closer" value={closer} onChange={(e) => choose({ closer: e.target.value })}>
              <option value={TEAM}>The whole team</option>
              {scopes.map((c) => (
                <option key={c.closer_email ?? NO_CLOSER} value={c.closer_email ?? NO_CLOSER}>
                  {c.closer_email === null ? "Calls without a closer" : c.full_name === null ? c.closer_email : `${c.full_name} (${c.closer_email})`}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </form>
      {trends.isPending ? <Loading what="the trends" /> : trends.isError ? <Failure error={trends.error} /> : scope === undefined ? (
        <Empty>{scopeName} had no call in these {type}s. <button type="button" className="link" onClick={() => choose({ closer: null })}>Show the whole team</button></Empty>
      ) : (
        <TrendsView type={type} scopeName={scopeName} periods={scope.periods} changes={scope.changes} behind={behind} onShow={setBehind} />
      )}
    </Page>
  )
}

const TrendsView = ({ behind, changes, onShow, periods, scopeName, type }: {
  readonly type: "week" | "month"
  readonly scopeName: string
  readonly periods: ReadonlyArray<Period>
  readonly changes: ReadonlyArray<Change>
  readonly behind: Behind | null
  readonly onShow: (b: Behind | null) => void
}) => {
  const calls = periods.reduce((n, p) => n + p.calls.count, 0)
  const notable = changes.filter((c) => c.notable)
  const others = changes.filter((c) => !c.notable)
  const last = periods.at(-1)
  const sides = { before: periods.at(-2), last }
  return (
    <>
      <Panel title={`Notable changes, ${scopeName}`}>
        {last === undefined || periods.length < 2 ? <p className="muted">Changes compare the last two {type}s: choose more than one.</p> : notable.length === 0 ? (
          <p className="muted">No notable change between the last two {type}s (a count that moved by 3 and by half, or an average score by 10 points).</p>
        ) : (
          <ul className="plain changes notable">
            {notable.map((c) => <ChangeItem key={`${c.metric}:${c.key ?? ""}`} change={c} type={type} sides={sides} onShow={onShow} />)}
          </ul>
        )}
        {others.length === 0 ? null : (
          <details className="more">
            <summary>The other changes ({others.length})</summary>
            <ul className="plain changes">
              {others.map((c) => <ChangeItem key={`${c.metric}:${c.key ?? ""}`} change={c} type={type} sides={sides} onShow={onShow} />)}
            </ul>
          </details>
        )}
      </Panel>
      <Panel title={`By ${type}, ${scopeName}`}>
        {calls === 0 ? (
          <Empty>No analysed call in these {type}s. Calls count in the {type} their meeting took place, once analysed.</Empty>
        ) : (
          <div className="table-wrap" tabIndex={0}>
            <table className="stack compact trends">
              <caption className="muted cap">Oldest first; objections and competitors broken down under their totals. Choose a number to list its calls.</caption>
              <thead>
                <tr>
                  <th scope="col">{type === "week" ? "Week" : "Month"}</th>
                  <th scope="col">Calls</th>
                  <th scope="col">Objections</th>
                  <th scope="col">Competitors</th>
                  <th scope="col">Pains</th>
                  <th scope="col">Next steps said</th>
                  <th scope="col">Dated</th>
                  <th scope="col">Kept</th>
                  <th scope="col">Slipped</th>
                  <th scope="col">Average score</th>
                </tr>
              </thead>
              <tbody>
                {periods.map((p) => <PeriodRow key={p.period_start} period={p} type={type} onShow={onShow} />)}
              </tbody>
            </table>
          </div>
        )}
        <CallsBehind behind={behind} onClose={() => onShow(null)} />
      </Panel>
    </>
  )
}

const PeriodRow = ({ onShow, period: p, type }: { readonly period: Period; readonly type: "week" | "month"; readonly onShow: (b: Behind) => void }) => {
  const name = periodName(type, p.period_start)
  const kinds = p.objections_by_kind.filter((k) => k.count > 0)
  return (
    <tr>
      <th scope="row" className="period">{name}</th>
      <td data-label="Calls"><Num what={`Calls, ${name}`} count={p.calls} onShow={onShow} /></td>
      <td data-label="Objections" className="across">
        <Num what={`Objections, ${name}`} count={p.objections} onShow={onShow} />
        {kinds.length === 0 ? null : (
          <ul className="breakdown">
            {kinds.map((k) => <li key={k.kind}>{words(k.kind)} <Num what={`Objections about ${words(k.kind)}, ${name}`} count={k} onShow={onShow} /></li>)}
          </ul>
        )}
      </td>
      <td data-label="Competitors" className="across">
        <Num what={`Competitor mentions, ${name}`} count={p.competitors} onShow={onShow} />
        {p.competitors_by_term.length === 0 ? null : (
          <ul className="breakdown">
            {p.competitors_by_term.map((t) => <li key={t.term}>{t.term} <Num what={`Mentions of ${t.term}, ${name}`} count={t} onShow={onShow} /></li>)}
          </ul>
        )}
      </td>
      <td data-label="Pains"><Num what={`Pains, ${name}`} count={p.pains} onShow={onShow} /></td>
      <td data-label="Next steps said"><Num what={`Next steps said, ${name}`} count={p.next_steps.said} onShow={onShow} /></td>
      <td data-label="Dated"><Num what={`Next steps dated, ${name}`} count={p.next_steps.dated} onShow={onShow} /></td>
      <td data-label="Kept">{p.next_steps.kept === null ? <span className="muted">—</span> : <Num what={`Next steps kept, ${name}`} count={p.next_steps.kept} onShow={onShow} />}</td>
      <td data-label="Slipped">{p.next_steps.slipped === null ? <span className="muted">—</span> : <Num what={`Next steps slipped, ${name}`} count={p.next_steps.slipped} onShow={onShow} />}</td>
      <td data-label="Average score">
        {p.overall_score.average === null ? <span className="muted">—</span> : (
          <button
            type="button"
            className="link"
            aria-label={`Average score, ${name}: ${num(p.overall_score.average)} over ${p.overall_score.n} scored call${p.overall_score.n === 1 ? "" : "s"}; list them`}
            onClick={() => onShow({ what: `Average score, ${name}`, count: p.overall_score.average ?? 0, calls: p.overall_score.n, callIds: p.overall_score.call_ids })}
          >
            <span className="score">{num(p.overall_score.average)}</span>
          </button>
        )}
        {p.overall_score.n === 0 ? null : <span className="muted"> ({p.overall_score.n} scored)</span>}
      </td>
    </tr>
  )
}

/**
 * How many calls a change's side counts: the period's number (a change lists the newest of them,
 * at most 10 like every number; docs/trends.md), so the list can say how many it leaves out.
 */
const callsOf = (p: Period | undefined, c: Change): number | undefined => {
  if (p === undefined) return undefined
  switch (c.metric) {
    case "calls":
      return p.calls.calls
    case "objections":
      return p.objections.calls
    case "objection_kind":
      return p.objections_by_kind.find((k) => k.kind === c.key)?.calls
    case "competitors":
      return p.competitors.calls
    case "competitor":
      return p.competitors_by_term.find((t) => t.term === c.key)?.calls
    case "pains":
      return p.pains.calls
    case "next_steps_said":
      return p.next_steps.said.calls
    case "next_steps_dated":
      return p.next_steps.dated.calls
    case "next_steps_kept":
      return p.next_steps.kept?.calls
    case "next_steps_slipped":
      return p.next_steps.slipped?.calls
    case "overall_score":
      return p.overall_score.n
    case "dimension":
      return p.dimensions.find((d) => d.dimension === c.key)?.n
  }
}

const ChangeItem = ({ change: c, onShow, sides, type }: {
  readonly change: Change
  readonly type: "week" | "month"
  readonly sides: { readonly before: Period | undefined; readonly last: Period | undefined }
  readonly onShow: (b: Behind) => void
}) => (
  <li>
    <span className={`badge dir-${c.direction}`} aria-hidden="true">{c.direction === "up" ? "▲" : c.direction === "down" ? "▼" : "="}</span>{" "}
    <span className="sentence">{c.sentence.replace(/^./, (l) => l.toUpperCase())}</span>{" "}
    <span className="muted">
      {c.to_call_ids.length === 0 ? null : (
        <button type="button" className="link" aria-label={`the last ${type}'s calls: ${c.label}`} onClick={() => onShow({ what: `${c.label}, the last ${type}`, count: c.to ?? 0, calls: Math.max(callsOf(sides.last, c) ?? 0, c.to_call_ids.length), callIds: c.to_call_ids })}>
          the last {type}'s calls
        </button>
      )}
      {c.to_call_ids.length === 0 || c.from_call_ids.length === 0 ? null : " · "}
      {c.from_call_ids.length === 0 ? null : (
        <button type="button" className="link" aria-label={`the ${type} before's calls: ${c.label}`} onClick={() => onShow({ what: `${c.label}, the ${type} before`, count: c.from ?? 0, calls: Math.max(callsOf(sides.before, c) ?? 0, c.from_call_ids.length), callIds: c.from_call_ids })}>
          the {type} before's
        </button>
      )}
    </span>
  </li>
)

/** The calls behind the number chosen, each a link to its page; focused when chosen, so it is read out where it is. */
const CallsBehind = ({ behind, onClose }: { readonly behind: Behind | null; readonly onClose: () => void }) => {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (behind !== null) heading.current?.focus()
  }, [behind])
  if (behind === null) return null
  return (
    <section className="behind" aria-labelledby="behind-title">
      <h3 id="behind-title" tabIndex={-1} ref={heading}>
        {behind.what}: the {behind.calls} call{behind.calls === 1 ? "" : "s"} behind it
      </h3>
      {behind.callIds.length < behind.calls ? <p className="muted">The {behind.callIds.length} newest shown.</p> : null}
      <ul className="call-ids">
        {behind.callIds.map((id) => <li key={id}><Link href={callHref(id)}>{id}</Link></li>)}
      </ul>
      <button type="button" className="secondary" onClick={onClose}>Close the list</button>
    </section>
  )
}
