/**
 * One call: the audio with the transcript following it (the segment being heard is marked and kept
 * in view; a click on a segment or on an evidence item plays from its moment), the scores and the
 * evidence, objections and next steps (each jumping to its moment), the full evidence report (a
 * link: it is its own document), and what a person does with a call: record its outcome, audit it
 * against the machine's scores, pin it, analyse it again. The audio comes from the service's
 * range-request endpoint (the `<audio>` element asks for the byte ranges it needs).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Effect } from "effect"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { useParams, useSearch } from "wouter"
import { Api, call, decodeBody } from "../api.js"
import { isManager, useMe } from "../session.js"
import { Failure, Field, Loading, OtherIssues, Page, Panel, Score, When } from "../ui/kit.js"

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`
const words = (s: string) => s.replace(/_/g, " ")

const SUMMARY_PARTS = [["needs", "What the buyer needs"], ["agreed", "What was agreed"], ["risks", "Open risks"]] as const

/** The call's summary: each part's items, each quote a moment of the recording. */
const SummaryPanel = ({ onPlay, summary }: { readonly summary: typeof Api.CallSummary.Type; readonly onPlay: (at: number) => void }) => (
  <Panel title="Summary">
    {summary.source === "llm" ? <p className="muted">Written by your language model; every quote was found in the transcript.</p> : null}
    <div className="grid">
      {SUMMARY_PARTS.map(([part, title]) => (
        <section key={part} aria-label={title}>
          <h3>{title}</h3>
          {summary[part].length === 0 ? <p className="muted">Nothing found.</p> : (
            <ul className="moments summary">
              {summary[part].map((item, i) => (
                <li key={i}>
                  {item.text}
                  {item.quotes.map((q, j) => (
                    <span key={j} className="quote">
                      {" "}<button type="button" className="link" onClick={() => onPlay(q.start)} aria-label={`Play ${clock(q.start)}: ${q.quote}`}>{clock(q.start)}</button> “{q.quote}”
                    </span>
                  ))}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  </Panel>
)

export const CallPage = () => {
  const { id } = useParams<{ id: string }>()
  const analysis = useQuery({ queryKey: ["call", id], queryFn: () => call((c) => c.workspace.getCall({ path: { call_id: Api.CallId.make(id) } })) })
  const audio = useRef<HTMLAudioElement>(null)
  const [now, setNow] = useState(0)
  // `?t=123` (a search hit, a brief's moment): the recording starts there
  const startAt = Number(new URLSearchParams(useSearch()).get("t") ?? "")
  const play = (at: number) => {
    const el = audio.current
    if (el === null) return
    el.currentTime = at
    void el.play().catch(() => undefined)
  }
  if (analysis.isPending) return <Loading what="the call" />
  if (analysis.isError) return <Page title="Call"><Failure error={analysis.error} /></Page>
  const a = analysis.data
  const segments = a.transcript ?? []
  const current = segments.findIndex((s) => now >= s.start && now < s.end)
  return (
    <Page title={`Call ${a.external_call_id ?? a.call_id}`} actions={<CallActions callId={a.call_id} status={a.status} />}>
      <p className="muted">
        {a.closer_email ?? "No closer"} · <When at={a.created_at} /> · {a.status}
        {a.duration_s === null ? "" : ` · ${clock(a.duration_s)}`}
        {a.status === "completed" ? <> · <a href={`/v1/client-portal/calls/${a.call_id}/report`} target="_blank" rel="noreferrer">Open the evidence report</a></> : null}
      </p>
      <Panel title="Recording">
        <audio
          ref={audio}
          controls
          preload="metadata"
          src={`/v1/client-portal/calls/${a.call_id}/audio`}
          onLoadedMetadata={(e) => {
            if (Number.isFinite(startAt) && startAt > 0) e.currentTarget.currentTime = startAt
          }}
          onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)}
        >
          Your browser cannot play this recording.
        </audio>
        {segments.length === 0 ? <p className="muted">No transcript: the analysis had no speech-to-text provider.</p> : (
          <Transcript segments={segments} current={current} onPlay={play} />
        )}
      </Panel>
      {a.status !== "completed" ? (
        a.error === null ? <p role="status">The analysis is {a.status}.</p> : <p className="failure" role="alert">{a.error.message}</p>
      ) : (
        <>
        {a.summary === null ? null : <SummaryPanel summary={a.summary} onPlay={play} />}
        <div className="grid">
          <Panel title="Scores">
            <p>Overall <Score value={a.overall_score} /></p>
            <table>
              <thead><tr><th scope="col">Dimension</th><th scope="col">Score</th></tr></thead>
              <tbody>
                {(a.scorecard?.dimensions ?? []).map((d) => <tr key={d.dimension}><td>{words(d.dimension)}</td><td><Score value={d.score} /></td></tr>)}
              </tbody>
            </table>
          </Panel>
          <Panel title="Evidence">
            {a.evidence.length === 0 ? <p className="muted">No evidence item.</p> : (
              <ul className="moments">
                {a.evidence.map((e, i) => (
                  <li key={i}>
                    <button type="button" className="link" onClick={() => play(e.start)}>{clock(e.start)}</button>{" "}
                    {words(e.dimension)} ({e.effect > 0 ? "+" : ""}{Math.round(e.effect)}){e.quote === null ? "" : `: “${e.quote}”`}
                  </li>
                ))}
              </ul>
            )}
          </Panel>
          <Panel title="Objections and next steps">
            {a.objections.length === 0 && a.next_steps.length === 0 ? <p className="muted">None found.</p> : (
              <ul className="moments">
                {a.objections.map((o, i) => (
                  <li key={`o${i}`}><button type="button" className="link" onClick={() => play(o.at)}>{clock(o.at)}</button> {o.kind} objection: “{o.quote}” ({words(o.response)})</li>
                ))}
                {a.next_steps.map((s, i) => (
                  <li key={`s${i}`}><button type="button" className="link" onClick={() => play(s.at)}>{clock(s.at)}</button> next step: “{s.quote}”{s.due === null ? "" : ` (due ${s.due})`}</li>
                ))}
              </ul>
            )}
          </Panel>
        </div>
        </>
      )}
      <div className="grid">
        <OutcomeForm callId={a.call_id} />
        {a.status === "completed" ? <AuditForm callId={a.call_id} /> : null}
      </div>
    </Page>
  )
}

const Transcript = ({ current, onPlay, segments }: {
  readonly segments: ReadonlyArray<{ readonly speaker: string; readonly start: number; readonly text: string }>
  readonly current: number
  readonly onPlay: (at: number) => void
}) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current?.querySelector<HTMLElement>("[aria-current='true']")
    if (el !== null && el !== undefined && box.current !== null) box.current.scrollTop = el.offsetTop - box.current.offsetTop - 40
  }, [current])
  return (
    <div className="transcript" ref={box} role="region" aria-label="Transcript (select a line to play from it)">
      {segments.map((s, i) => (
        <button type="button" key={i} className="segment" aria-current={i === current ? "true" : undefined} onClick={() => onPlay(s.start)}>
          <span className="muted">{clock(s.start)} {s.speaker}</span> {s.text}
        </button>
      ))}
    </div>
  )
}

const CallActions = ({ callId, status }: { readonly callId: string; readonly status: string }) => {
  const queries = useQueryClient()
  const act = useMutation({
    mutationFn: (action: "pin_call" | "reanalyze_call") =>
      call((c) => c.workspace.runAction({ payload: new Api.WorkspaceActionRequest({ action, params: { call_id: callId } }) })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ["call", callId] })
  })
  return (
    <>
      <button type="button" className="secondary" onClick={() => act.mutate("pin_call")}>Pin</button>
      {status === "completed" || status === "failed"
        ? <button type="button" className="secondary" onClick={() => act.mutate("reanalyze_call")}>Analyse again</button>
        : null}
      {act.isSuccess ? <span role="status" className="ok">{act.data.message}</span> : null}
      <Failure error={act.error} />
    </>
  )
}

const OUTCOME_FIELDS = ["outcome", "deal_value", "currency", "stage", "reason", "notes"]

const OutcomeForm = ({ callId }: { readonly callId: string }) => {
  const queries = useQueryClient()
  const key = ["outcome", callId]
  const recorded = useQuery({ queryKey: key, queryFn: () => call((c) => c.clientPortal.getOutcomeTruth({ path: { call_id: Api.CallId.make(callId) } })) })
  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      call((c) => Effect.flatMap(decodeBody(Api.OutcomeTruthRequest, values), (payload) =>
        c.clientPortal.recordOutcomeTruth({ path: { call_id: Api.CallId.make(callId) }, payload }))),
    onSuccess: (row) => queries.setQueryData(key, row)
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const text = (name: string) => {
      const v = String(form.get(name) ?? "").trim()
      return v === "" ? undefined : v
    }
    const value = text("deal_value")
    save.mutate({
      outcome: text("outcome"),
      ...(value === undefined ? {} : { deal_value: Number(value) }),
      ...Object.fromEntries(["currency", "stage", "reason", "notes"].flatMap((n) => (text(n) === undefined ? [] : [[n, text(n)]])))
    })
  }
  const row = recorded.data
  return (
    <Panel title="Outcome">
      {recorded.isPending ? <Loading what="the outcome" /> : (
        <form onSubmit={submit} key={row?.updated_at ?? "new"} aria-label="Record the outcome">
          <Field label="Outcome" name="outcome" error={save.error}>
            {(p) => (
              <select {...p} defaultValue={row?.outcome ?? ""}>
                <option value="">Choose…</option>
                <option value="open">Open</option>
                <option value="won">Won</option>
                <option value="lost">Lost</option>
                <option value="no_decision">No decision</option>
              </select>
            )}
          </Field>
          <Field label="Deal value" name="deal_value" error={save.error}>{(p) => <input {...p} inputMode="decimal" defaultValue={row?.deal_value ?? ""} />}</Field>
          <Field label="Currency" name="currency" error={save.error} hint="Three letters, e.g. EUR">{(p) => <input {...p} defaultValue={row?.currency ?? ""} />}</Field>
          <Field label="Stage" name="stage" error={save.error}>{(p) => <input {...p} defaultValue={row?.stage ?? ""} />}</Field>
          <Field label="Reason" name="reason" error={save.error}>{(p) => <input {...p} defaultValue={row?.reason ?? ""} />}</Field>
          <Field label="Notes" name="notes" error={save.error}>{(p) => <textarea {...p} defaultValue={row?.notes ?? ""} />}</Field>
          <OtherIssues error={save.error} fields={OUTCOME_FIELDS} />
          <Failure error={save.error} />
          <button type="submit" disabled={save.isPending}>Save the outcome</button>
          {save.isSuccess ? <p role="status" className="ok">Saved.</p> : null}
        </form>
      )}
    </Panel>
  )
}

/** The scorecard's dimensions, as the declaration names them. */
const DIMENSIONS: ReadonlyArray<string> = Api.ScorecardDimensionName.literals

const AuditForm = ({ callId }: { readonly callId: string }) => {
  const me = useMe()
  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      call((c) => Effect.flatMap(decodeBody(Api.ManualAuditRequest, values), (payload) => c.coaching.createManualAudit({ payload })))
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const scores = Object.fromEntries(DIMENSIONS.flatMap((d) => {
      const v = String(form.get(d) ?? "").trim()
      return v === "" ? [] : [[d, Number(v)]]
    }))
    save.mutate({ call_id: callId, scores, notes: String(form.get("notes") ?? "") })
  }
  return (
    <Panel title={isManager(me.data?.role) ? "Manual audit" : "Review your call"}>
      <form onSubmit={submit} aria-label="Audit this call">
        <p className="muted">Score the dimensions you judged, 0 to 100; they are set against the machine's.</p>
        {DIMENSIONS.map((d) => (
          <Field key={d} label={words(d)} name={d} error={save.error}>{(p) => <input {...p} type="number" min={0} max={100} step={1} />}</Field>
        ))}
        <Field label="Notes" name="notes" error={save.error}>{(p) => <textarea {...p} />}</Field>
        <OtherIssues error={save.error} fields={[...DIMENSIONS, "notes", "scores"]} />
        <Failure error={save.error} />
        <button type="submit" disabled={save.isPending}>Save the audit</button>
        {save.isSuccess ? <p role="status" className="ok">Saved: mean gap {save.data.mean_absolute_gap === null ? "—" : Math.round(save.data.mean_absolute_gap)} points.</p> : null}
      </form>
    </Panel>
  )
}
