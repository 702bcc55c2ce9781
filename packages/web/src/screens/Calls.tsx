/**
 * Calls: the list with its filters (closer, dates, score, outcome, call type, status), uploads from
 * the browser with their live status, and the call page (CallPage.tsx). A rep sees their own calls
 * (the service narrows the list): the screen names the closer they are (`me`), without a closer
 * filter; a member who is no closer is told why there is no call, and has no upload (it would be 403).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { Link } from "wouter"
import { call } from "../api.js"
import { isManager, type Me, useMe } from "../session.js"
import { Empty, Failure, Loading, Page, Pager, Score, When } from "../ui/kit.js"
import { Uploads } from "./Uploads.js"

const PAGE = 25

interface Filters {
  readonly status: string
  readonly closer_email: string
  readonly created_from: string
  readonly created_to: string
  readonly min_score: string
  readonly max_score: string
  readonly outcome: string
  readonly call_type: string
}

const NO_FILTERS: Filters = { status: "", closer_email: "", created_from: "", created_to: "", min_score: "", max_score: "", outcome: "", call_type: "" }

/** The filters as the operation's query: empty ones left out. */
const queryOf = (f: Filters) =>
  Object.fromEntries(
    Object.entries(f)
      .filter(([, v]) => v.trim() !== "")
      .map(([k, v]) => [k, k === "min_score" || k === "max_score" ? Number(v) : v.trim()])
  )

/** Whose calls a member sees: the closer they are, or none yet. */
const YourCalls = ({ closer }: { readonly closer: Me["closer"] }) =>
  closer === null
    ? <p className="callout">You are not a closer of the team yet, so no call is yours to see or upload. An owner or admin adds you as a closer; you then confirm your e-mail from the link you get.</p>
    : <p className="muted">Your calls, as the closer {closer.full_name} ({closer.email}). Uploads you make are yours.</p>

export const CallsScreen = () => {
  const me = useMe()
  const rep = me.data !== undefined && !isManager(me.data.role)
  const [draft, setDraft] = useState<Filters>(NO_FILTERS)
  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const cursor = cursors.at(-1)
  const calls = useQuery({
    queryKey: ["calls", filters, cursor],
    queryFn: () => call((c) => c.listCalls({ ...queryOf(filters), limit: PAGE, ...(cursor === undefined ? {} : { cursor }) })),
    placeholderData: keepPreviousData,
    // uploads in flight change their status: the list follows them while any is not finished
    refetchInterval: (q) => (q.state.data?.calls.some((c) => c.status === "queued" || c.status === "processing") ? 3000 : false)
  })
  const set = (name: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value })
  return (
    <Page title="Calls">
      {rep ? <YourCalls closer={me.data!.closer} /> : null}
      {rep && me.data!.closer === null ? null : <Uploads />}
      <form
        className="inline"
        aria-label="Filter the calls"
        onSubmit={(e) => {
          e.preventDefault()
          setFilters(draft)
          setCursors([undefined])
        }}
      >
        <div className="field">
          <label htmlFor="f-status">Status</label>
          <select id="f-status" value={draft.status} onChange={set("status")}>
            <option value="">Any</option>
            <option value="queued">Queued</option>
            <option value="processing">Processing</option>
            <option value="completed">Completed</option>
            <option value="failed">Failed</option>
          </select>
        </div>
        {rep ? null : (
          <div className="field">
            <label htmlFor="f-closer">Closer e-mail</label>
            <input id="f-closer" type="email" value={draft.closer_email} onChange={set("closer_email")} />
          </div>
        )}
        <div className="field">
          <label htmlFor="f-from">From</label>
          <input id="f-from" type="date" value={draft.created_from} onChange={set("created_from")} />
        </div>
        <div className="field">
          <label htmlFor="f-to">To</label>
          <input id="f-to" type="date" value={draft.created_to} onChange={set("created_to")} />
        </div>
        <div className="field">
          <label htmlFor="f-min">Min score</label>
          <input id="f-min" type="number" min={0} max={100} value={draft.min_score} onChange={set("min_score")} />
        </div>
        <div className="field">
          <label htmlFor="f-max">Max score</label>
          <input id="f-max" type="number" min={0} max={100} value={draft.max_score} onChange={set("max_score")} />
        </div>
        <div className="field">
          <label htmlFor="f-outcome">Outcome</label>
          <select id="f-outcome" value={draft.outcome} onChange={set("outcome")}>
            <option value="">Any</option>
            <option value="none">Not recorded</option>
            <option value="open">Open</option>
            <option value="won">Won</option>
            <option value="lost">Lost</option>
            <option value="no_decision">No decision</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-type">Call type</label>
          <select id="f-type" value={draft.call_type} onChange={set("call_type")}>
            <option value="">Any</option>
            <option value="discovery">Discovery</option>
            <option value="demo">Demo</option>
            <option value="negotiation">Negotiation</option>
            <option value="renewal">Renewal</option>
            <option value="support_upsell">Support / upsell</option>
          </select>
        </div>
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={() => { setDraft(NO_FILTERS); setFilters(NO_FILTERS); setCursors([undefined]) }}>Clear</button>
      </form>
      {calls.isPending ? <Loading what="the calls" /> : calls.isError ? <Failure error={calls.error} /> : calls.data.calls.length === 0 ? (
        <Empty>
          {JSON.stringify(filters) === JSON.stringify(NO_FILTERS)
            ? "No call yet. Drop a recording above (MP3, WAV or M4A), connect the meeting recorder in Settings, or upload through the API."
            : "No call matches these filters. Clear them to see every call."}
        </Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="muted">Newest first</caption>
            <thead>
              <tr><th scope="col">Call</th><th scope="col">Closer</th><th scope="col">Status</th><th scope="col">Score</th><th scope="col">Outcome</th><th scope="col">Made</th></tr>
            </thead>
            <tbody>
              {calls.data.calls.map((c) => (
                <tr key={c.call_id}>
                  <td><Link href={`/calls/${c.call_id}`}>{c.external_call_id ?? c.call_id}</Link></td>
                  <td>{c.closer_email ?? <span className="muted">—</span>}</td>
                  <td><span className="badge">{c.status}</span></td>
                  <td><Score value={c.overall_score} /></td>
                  <td>{"outcome" in c && typeof c.outcome === "string" ? c.outcome : <span className="muted">—</span>}</td>
                  <td><When at={c.created_at} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Calls"
        hasPrevious={cursors.length > 1}
        hasNext={calls.data?.next_cursor != null}
        onPrevious={() => setCursors(cursors.slice(0, -1))}
        onNext={() => calls.data?.next_cursor != null && setCursors([...cursors, calls.data.next_cursor])}
      />
    </Page>
  )
}
