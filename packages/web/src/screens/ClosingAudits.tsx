/**
 * The Team Closing Audit (docs/closing-audit.md), the managers' (a member's session is refused it):
 * the audits made, newest first; a new one over the last N calls of each closer or over calls
 * chosen from the list (charged in credits once, when made; an idempotency key per submission, so
 * the client's retry cannot charge twice); and an audit's figures: the three changes that would
 * move the most, the team per dimension, its strengths and weaknesses with the words said, each
 * closer's strengths and gaps, the calls, and the executive report as HTML and PDF (the service's
 * own pages, opened on this origin with the session).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { Link, useLocation, useParams } from "wouter"
import { Api, ApiError, checked, call } from "../api.js"
import { Empty, Failure, Field, issuesAt, Loading, OtherIssues, Page, Panel, Score, When } from "../ui/kit.js"
import { num, pct, signed, Stats } from "./Coaching/parts.js"
import { CoachingTabs } from "./Coaching/tabs.js"
import { callHref, callName } from "./Workspace/links.js"

type Audit = typeof Api.ClosingAudit.Type
type Summary = typeof Api.ClosingAuditSummary.Type
type Finding = Audit["team"]["strengths"][number]
type Quote = Finding["quotes"][number]

const LIST_KEY = ["closing-audits"] as const
const auditKey = (id: string) => ["closing-audit", id] as const
const PICKABLE = 100
const PATH = "/coaching/closing-audits"

/**
 * The service's link as a path on this origin (its public address may not be this tab's, and the
 * session cookie is this origin's); as given when it is no path of the API; null when not the web's.
 */
const here = (url: string): string | null => {
  try {
    const u = new URL(url, window.location.origin)
    if (u.protocol !== "https:" && u.protocol !== "http:") return null
    return u.pathname.startsWith("/v1/") ? `${u.pathname}${u.search}` : u.href
  } catch {
    return null
  }
}

const selectionOf = (a: Summary) =>
  a.selection.mode === "last_per_closer" ? `the last ${a.selection.last_per_closer} of each closer` : "calls chosen"

const ReportLinks = ({ audit }: { readonly audit: Summary }) => {
  const html = here(audit.report_url)
  const pdf = here(audit.pdf_url)
  return (
    <span className="row">
      {html === null ? null : <a href={html} target="_blank" rel="noopener" aria-label={`Open the report of ${audit.title} (HTML, a new tab)`}>Report</a>}
      {pdf === null ? null : <a href={pdf} download={`${audit.audit_id}.pdf`} aria-label={`Download the report of ${audit.title} as PDF`}>PDF</a>}
    </span>
  )
}

// ---------------------------------------------------------------------------------------------
// The list, and a new audit

export const ClosingAuditsScreen = () => {
  const audits = useQuery({ queryKey: LIST_KEY, queryFn: () => call((c) => c.closingAudits.listClosingAudits({ urlParams: { limit: 50 } })) })
  const list = audits.data?.audits ?? []
  return (
    <Page title="Closing audits">
      <CoachingTabs />
      <p className="muted">
        The team's pattern across calls: per dimension the team's mean and spread, each closer's strengths and gaps, and the
        three changes that would raise the team's scores the most, with the words said. An executive report as HTML and PDF.
      </p>
      <Panel title="The audits">
        {audits.isPending ? <Loading what="the audits" /> : audits.isError ? <Failure error={audits.error} /> : list.length === 0 ? (
          <Empty>No closing audit yet. Make the first one below: the last few calls of each closer is a good start.</Empty>
        ) : (
          <div className="table-wrap" tabIndex={0}>
            <table className="stack">
              <caption className="muted cap">{list.length} audit{list.length === 1 ? "" : "s"}, newest first</caption>
              <thead>
                <tr><th scope="col">Audit</th><th scope="col">Made</th><th scope="col">Calls</th><th scope="col">Credits</th><th scope="col">Report</th></tr>
              </thead>
              <tbody>
                {list.map((a) => (
                  <tr key={a.audit_id}>
                    <td data-label="Audit"><Link href={`${PATH}/${encodeURIComponent(a.audit_id)}`}>{a.title}</Link></td>
                    <td data-label="Made"><When at={a.created_at} /></td>
                    <td data-label="Calls">{a.calls} <span className="muted">({selectionOf(a)})</span></td>
                    <td data-label="Credits">{a.credits_charged}</td>
                    <td data-label="Report"><ReportLinks audit={a} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <Panel title="Make an audit">
        <NewAudit />
      </Panel>
    </Page>
  )
}

type Mode = "last_per_closer" | "call_ids"

const NewAudit = () => {
  const queries = useQueryClient()
  const [, navigate] = useLocation()
  const [mode, setMode] = useState<Mode>("last_per_closer")
  const [perCloser, setPerCloser] = useState("5")
  const [title, setTitle] = useState("")
  const [chosen, setChosen] = useState<ReadonlyArray<string>>([])
  const create = useMutation({
    mutationFn: (values: Record<string, unknown>) => {
      // one key per submission: the client's retry of the same request cannot make (and charge) a second audit
      const key = crypto.randomUUID()
      return checked(Api.CreateClosingAuditRequest, values, (c, payload) =>
        c.closingAudits.createClosingAudit({ payload, headers: { "idempotency-key": key } }))
    },
    onSuccess: (audit) => {
      queries.setQueryData(auditKey(audit.audit_id), audit)
      void queries.invalidateQueries({ queryKey: LIST_KEY })
      navigate(`${PATH}/${encodeURIComponent(audit.audit_id)}`)
    }
  })
  // the schema's own complaint about the number is its long description: said here in a form's words
  const [local, setLocal] = useState<ApiError | null>(null)
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const named = title.trim() === "" ? {} : { title: title.trim() }
    const n = Number(perCloser)
    if (mode === "last_per_closer" && !(perCloser.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= Api.CLOSING_AUDIT_PER_CLOSER_MAX)) {
      setLocal(new ApiError("ValidationFailed", "Some fields are not valid.", [{ loc: ["body", "last_per_closer"], msg: `must be a whole number between 1 and ${Api.CLOSING_AUDIT_PER_CLOSER_MAX}` }]))
      return
    }
    setLocal(null)
    create.mutate(mode === "last_per_closer" ? { last_per_closer: n, ...named } : { call_ids: chosen, ...named })
  }
  const error = local ?? create.error
  return (
    <form onSubmit={submit} aria-label="Make a closing audit" className="wide" noValidate>
      <fieldset className="choices">
        <legend>Which calls</legend>
        <label className="check">
          <input type="radio" name="mode" value="last_per_closer" checked={mode === "last_per_closer"} onChange={() => setMode("last_per_closer")} />
          <span>Each closer's most recent calls</span>
        </label>
        <label className="check">
          <input type="radio" name="mode" value="call_ids" checked={mode === "call_ids"} onChange={() => setMode("call_ids")} />
          <span>Calls I choose (up to {Api.CLOSING_AUDIT_CALLS_MAX})</span>
        </label>
      </fieldset>
      {mode === "last_per_closer" ? (
        <Field label="Calls of each closer" name="last_per_closer" error={error} hint={`Each closer's most recent completed calls, 1 to ${Api.CLOSING_AUDIT_PER_CLOSER_MAX}`}>
          {(p) => <input {...p} className="short" type="number" inputMode="numeric" min={1} max={Api.CLOSING_AUDIT_PER_CLOSER_MAX} value={perCloser} onChange={(e) => setPerCloser(e.target.value)} />}
        </Field>
      ) : (
        <PickCalls chosen={chosen} onChange={setChosen} error={error} />
      )}
      <Field label="Title (optional)" name="title" error={error} hint="The report's title; Team Closing Audit when left empty">
        {(p) => <input {...p} value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} />}
      </Field>
      <p className="muted">An audit is charged in credits once, when it is made (your balance is on the Value screen); opening it again is free.</p>
      <OtherIssues error={error} fields={["last_per_closer", "call_ids", "title"]} />
      <Failure error={error} />
      <div className="row">
        <button type="submit" disabled={create.isPending}>{create.isPending ? "Auditing…" : "Make the audit"}</button>
      </div>
    </form>
  )
}

/** The team's completed calls, newest first, to tick (asked only once this way of choosing is taken). */
const PickCalls = ({ chosen, error, onChange }: { readonly chosen: ReadonlyArray<string>; readonly onChange: (ids: ReadonlyArray<string>) => void; readonly error: unknown }) => {
  const calls = useQuery({
    queryKey: ["calls", "completed", PICKABLE],
    queryFn: () => call((c) => c.listCalls({ status: "completed", limit: PICKABLE }))
  })
  const full = chosen.length >= Api.CLOSING_AUDIT_CALLS_MAX
  const issues = issuesAt(error, "call_ids")
  return (
    <fieldset className={issues.length === 0 ? "choices" : "choices invalid"}>
      <legend>The calls ({chosen.length} of at most {Api.CLOSING_AUDIT_CALLS_MAX} chosen)</legend>
      {calls.isPending ? <Loading what="the calls" /> : calls.isError ? <Failure error={calls.error} /> : calls.data.calls.length === 0 ? (
        <p className="muted">No completed call yet.</p>
      ) : (
        <ul className="plain pick-list">
          {calls.data.calls.map((c) => {
            const on = chosen.includes(c.call_id)
            return (
              <li key={c.call_id}>
                <label className="check">
                  <input
                    type="checkbox"
                    name="call_ids"
                    value={c.call_id}
                    checked={on}
                    disabled={!on && full}
                    onChange={() => onChange(on ? chosen.filter((id) => id !== c.call_id) : [...chosen, c.call_id])}
                  />
                  <span>
                    {callName(c)} <span className="muted">· {c.closer_email ?? "no closer"} · {new Date(c.completed_at ?? c.created_at).toLocaleDateString()} · score</span> <Score value={c.overall_score} />
                  </span>
                </label>
              </li>
            )
          })}
        </ul>
      )}
      {issues.length === 0 ? null : <p className="field-error" role="alert">{issues.map((d) => d.msg).join("; ")}</p>}
      {calls.data !== undefined && calls.data.next_cursor !== null ? <p className="muted">The {PICKABLE} newest calls are listed.</p> : null}
    </fieldset>
  )
}

// ---------------------------------------------------------------------------------------------
// An audit

export const ClosingAuditScreen = () => {
  const { id } = useParams<{ id: string }>()
  const audit = useQuery({
    queryKey: auditKey(id),
    queryFn: () => call((c) => c.closingAudits.getClosingAudit({ path: { audit_id: id as Audit["audit_id"] } }))
  })
  if (audit.isPending) return <Loading what="the audit" />
  if (audit.isError) {
    return (
      <Page title="Closing audit">
        <CoachingTabs />
        <Failure error={audit.error} />
        <p><Link href={PATH}>Back to the closing audits</Link></p>
      </Page>
    )
  }
  const a = audit.data
  const names: Names = new Map(a.call_list.map((c) => [c.call_id, callName(c)]))
  const html = here(a.report_url)
  const pdf = here(a.pdf_url)
  return (
    <Page title={a.title}>
      <CoachingTabs />
      <p className="muted wrap">
        <Link href={PATH}>Closing audits</Link> › made <When at={a.created_at} /> over {a.calls} call{a.calls === 1 ? "" : "s"} ({selectionOf(a)}),{" "}
        {a.credits_charged} credit{a.credits_charged === 1 ? "" : "s"} charged
        {a.calls_removed === 0 ? null : <>; {a.calls_removed} of them deleted since, left out of every figure</>}.
      </p>
      <p className="row">
        {html === null ? null : <a className="button" href={html} target="_blank" rel="noopener">Open the report (HTML, a new tab)</a>}
        {pdf === null ? null : <a className="button secondary-link" href={pdf} download={`${a.audit_id}.pdf`}>Download the PDF</a>}
      </p>
      <Stats
        items={[
          ["Calls", a.call_list.length],
          ["Closers", a.team.closers],
          ["Average score", <Score key="o" value={a.team.overall.mean} />],
          ["Spread (sd)", num(a.team.overall.sd)],
          ["Rep talk share", pct(a.team.talk_ratio)],
          ["Objections", a.team.objections],
          ["Calls without a next step", a.team.calls_without_next_step.length]
        ]}
      />
      <Panel title="The three changes that would move the most">
        {a.changes.length === 0 ? <p className="muted">Every assessed dimension is at the target ({a.target}) on every call: nothing to change.</p> : (
          <ol className="changes-list">
            {a.changes.map((c) => (
              <li key={c.dimension}>
                <h3>{c.label}: <span className="score">+{num(c.points)}</span> <span className="muted">points on the team's average</span></h3>
                <p>{c.advice}</p>
                <p className="muted">
                  {c.calls_affected} call{c.calls_affected === 1 ? "" : "s"} under {a.target}, of {c.closers_affected} closer{c.closers_affected === 1 ? "" : "s"}:{" "}
                  <CallLinks ids={c.call_ids} names={names} />
                </p>
                <Quotes quotes={c.quotes} names={names} />
              </li>
            ))}
          </ol>
        )}
      </Panel>
      <Panel title="The team by dimension">
        <div className="table-wrap" tabIndex={0}>
          <table className="stack compact">
            <caption className="muted cap">Over the calls where each was assessed; the target is {a.target}</caption>
            <thead>
              <tr><th scope="col">Dimension</th><th scope="col">Calls</th><th scope="col">Mean</th><th scope="col">Spread (sd)</th><th scope="col">Range</th><th scope="col">Weight</th><th scope="col">Under the target</th></tr>
            </thead>
            <tbody>
              {a.team.dimensions.map((d) => (
                <tr key={d.dimension}>
                  <th scope="row">{d.label}</th>
                  <td data-label="Calls">{d.calls}</td>
                  <td data-label="Mean"><Score value={d.mean} /> <span className="muted">{d.mean === null ? "" : `(${num(d.mean)})`}</span></td>
                  <td data-label="Spread (sd)">{num(d.sd)}</td>
                  <td data-label="Range">{d.min === null ? "—" : `${num(d.min)}–${num(d.max)}`}</td>
                  <td data-label="Weight">{num(d.weight, 2)}</td>
                  <td data-label="Under the target" className="across">{d.below_target.length === 0 ? "0" : <details><summary>{d.below_target.length} call{d.below_target.length === 1 ? "" : "s"}</summary><CallLinks ids={d.below_target} names={names} /></details>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
      <div className="grid">
        <Panel title="What the team does well">
          <Findings findings={a.team.strengths} names={names} />
        </Panel>
        <Panel title="Where the team loses points">
          <Findings findings={a.team.weaknesses} names={names} />
        </Panel>
      </div>
      <Panel title="Each closer">
        <ul className="cards">
          {a.closers.map((c) => (
            <li key={c.closer_email ?? "none"} className="card">
              <h3>{c.full_name ?? c.closer_email ?? "Calls without a closer"}</h3>
              {c.full_name === null || c.closer_email === null ? null : <p className="muted wrap">{c.closer_email}</p>}
              <Stats items={[["Calls", c.calls], ["Average score", <Score key="s" value={c.overall.mean} />], ["Spread (sd)", num(c.overall.sd)]]} />
              <h4>Strengths</h4>
              <Findings findings={c.strengths} vsTeam={c.dimensions} names={names} />
              <h4>Gaps</h4>
              <Findings findings={c.gaps} vsTeam={c.dimensions} names={names} />
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="The calls">
        <div className="table-wrap" tabIndex={0}>
          <table className="stack">
            <caption className="muted cap">By closer, then newest first</caption>
            <thead><tr><th scope="col">Call</th><th scope="col">Closer</th><th scope="col">Completed</th><th scope="col">Type</th><th scope="col">Score</th></tr></thead>
            <tbody>
              {a.call_list.map((c) => (
                <tr key={c.call_id}>
                  <td data-label="Call"><Link href={callHref(c.call_id)}>{callName(c)}</Link></td>
                  <td data-label="Closer">{c.closer_email ?? <span className="muted">—</span>}</td>
                  <td data-label="Completed"><When at={c.completed_at} /></td>
                  <td data-label="Type">{c.call_type ?? <span className="muted">—</span>}</td>
                  <td data-label="Score"><Score value={c.overall_score} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
    </Page>
  )
}

/** The audit's calls by the name a person knows them by (the uploader's id when it gave one). */
type Names = ReadonlyMap<string, string>

const CallLinks = ({ ids, names }: { readonly ids: ReadonlyArray<string>; readonly names: Names }) => (
  <span className="call-links">
    {ids.map((id, i) => <span key={id}>{i === 0 ? null : ", "}<Link href={callHref(id)}>{names.get(id) ?? id}</Link></span>)}
  </span>
)

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`

const Quotes = ({ names, quotes }: { readonly quotes: ReadonlyArray<Quote>; readonly names: Names }) =>
  quotes.length === 0 ? null : (
    <ul className="plain quotes">
      {quotes.map((q, i) => (
        <li key={i}>
          <q>{q.quote}</q>{" "}
          <span className="muted">
            {signed(q.effect)} points · <Link href={callHref(q.call_id, q.start)}>{names.get(q.call_id) ?? q.call_id} at {clock(q.start)}</Link>
          </span>
        </li>
      ))}
    </ul>
  )

const Findings = ({ findings, names, vsTeam }: { readonly findings: ReadonlyArray<Finding>; readonly names: Names; readonly vsTeam?: Audit["closers"][number]["dimensions"] }) =>
  findings.length === 0 ? <p className="muted">None assessed.</p> : (
    <ul className="plain findings">
      {findings.map((f) => {
        const vs = vsTeam?.find((d) => d.dimension === f.dimension)?.vs_team
        return (
          <li key={f.dimension}>
            <strong>{f.label}</strong> <span className="score">{num(f.mean)}</span>
            {vs === undefined || vs === null ? null : <span className="muted"> ({signed(vs)} vs the team)</span>}
            {f.quotes.length === 0 ? <span className="muted"> · measured from who spoke when: no quote</span> : <Quotes quotes={f.quotes} names={names} />}
          </li>
        )
      })}
    </ul>
  )
