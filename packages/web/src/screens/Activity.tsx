/**
 * Activity, for managers: the account's events (uploads, analyses, the recorder, integrations,
 * messengers, webhooks), filtered by status, platform and closer as the service filters them (it
 * answers the newest 100 that match; they are shown a page at a time), and the audit log, every
 * change made through the service, paged by the service (newest first), its actors named by e-mail
 * where they are members. The audit log's operation takes no filter: the filters here narrow the
 * page shown, and say so.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { Link } from "wouter"
import { call } from "../api.js"
import { Empty, Failure, Loading, Page, Pager, When } from "../ui/kit.js"
import { Tabs, words } from "./Coaching/parts.js"
import { callHref } from "./Workspace/links.js"

const TABS = [
  { href: "/activity", label: "Events", exact: true },
  { href: "/activity/audit-log", label: "Audit log" }
]

const ActivityTabs = () => <Tabs label="Activity" tabs={TABS} />

// ---------------------------------------------------------------------------------------------
// Events

/** The platforms that record events (packages/server EventsRepo). */
const PLATFORMS = ["api", "recorder", "calendar", "video", "crm-a", "messenger-a", "messenger-b", "webhooks"]

interface EventFilters {
  readonly status: string
  readonly platform: string
  readonly closer_email: string
}

const NO_EVENT_FILTERS: EventFilters = { status: "", platform: "", closer_email: "" }
const EVENTS_SHOWN = 25

export const EventsScreen = () => {
  const [draft, setDraft] = useState<EventFilters>(NO_EVENT_FILTERS)
  const [filters, setFilters] = useState<EventFilters>(NO_EVENT_FILTERS)
  const [page, setPage] = useState(0)
  const events = useQuery({
    queryKey: ["activity", "events", filters],
    queryFn: () =>
      call((c) => c.clientPortal.listEvents({
        urlParams: Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== "").map(([k, v]) => [k, v.trim()]))
      })),
    placeholderData: keepPreviousData
  })
  const set = (name: keyof EventFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value })
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_EVENT_FILTERS)
  const all = events.data?.events ?? []
  const shown = all.slice(page * EVENTS_SHOWN, (page + 1) * EVENTS_SHOWN)
  return (
    <Page title="Activity">
      <ActivityTabs />
      <form className="inline spaced" aria-label="Filter the events" onSubmit={(e) => { e.preventDefault(); setFilters(draft); setPage(0) }}>
        <div className="field">
          <label htmlFor="ev-status">Status</label>
          <select id="ev-status" value={draft.status} onChange={set("status")}>
            <option value="">Any</option>
            <option value="ok">OK</option>
            <option value="error">Error</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="ev-platform">Platform</label>
          <select id="ev-platform" value={draft.platform} onChange={set("platform")}>
            <option value="">Any</option>
            {PLATFORMS.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="ev-closer">Closer e-mail</label>
          <input id="ev-closer" type="email" value={draft.closer_email} onChange={set("closer_email")} />
        </div>
        <button type="submit">Apply filters</button>
        {filtered ? <button type="button" className="secondary" onClick={() => { setDraft(NO_EVENT_FILTERS); setFilters(NO_EVENT_FILTERS); setPage(0) }}>Clear</button> : null}
      </form>
      {events.isPending ? <Loading what="the events" /> : events.isError ? <Failure error={events.error} /> : all.length === 0 ? (
        <Empty>
          {filtered
            ? "No event matches these filters. Clear them to see every event."
            : <>No event yet. Events are recorded as calls are uploaded and analysed and as integrations run: upload a recording from <Link href="/calls">Calls</Link> to see the first ones.</>}
        </Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="muted cap">{all.length === 100 ? "The newest 100 events" : `${all.length} event${all.length === 1 ? "" : "s"}`}{filtered ? " that match" : ""}, newest first</caption>
            <thead>
              <tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Platform</th><th scope="col">Status</th><th scope="col">Closer</th><th scope="col">Call</th></tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={e.event_id}>
                  <td><When at={e.received_at} /></td>
                  <td>{words(e.type)}{e.error === null ? null : <><br /><span className="failure">{e.error}</span></>}</td>
                  <td>{e.platform ?? <span className="muted">—</span>}</td>
                  <td><span className={e.status === "error" ? "badge level-high" : "badge"}>{e.status}</span></td>
                  <td>{e.closer_email ?? <span className="muted">—</span>}</td>
                  <td>{e.call_id === null ? <span className="muted">—</span> : <Link href={callHref(e.call_id)}>{e.call_id}</Link>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Events"
        hasPrevious={page > 0}
        hasNext={(page + 1) * EVENTS_SHOWN < all.length}
        onPrevious={() => setPage(page - 1)}
        onNext={() => setPage(page + 1)}
      />
    </Page>
  )
}

// ---------------------------------------------------------------------------------------------
// Audit log

const AUDIT_PAGE = 50

const ACTOR_TYPES = ["user", "api_key", "staff", "system"] as const

/** A metadata value as text: strings as they are, anything else as JSON. */
const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v))

export const AuditLogScreen = () => {
  const [offset, setOffset] = useState(0)
  const [action, setAction] = useState("")
  const [actorType, setActorType] = useState("")
  const log = useQuery({
    queryKey: ["activity", "audit", offset],
    queryFn: () => call((c) => c.clientPortal.listAuditLogs({ urlParams: { limit: AUDIT_PAGE, offset } })),
    placeholderData: keepPreviousData
  })
  const members = useQuery({ queryKey: ["members"], queryFn: () => call((c) => c.members.listMembers()), staleTime: 60_000 })
  const who = new Map((members.data?.members ?? []).map((m) => [m.user_id as string, m.email]))
  const entries = log.data?.entries ?? []
  const needle = action.trim().toLowerCase()
  const matching = entries.filter((e) => (needle === "" || e.action.toLowerCase().includes(needle)) && (actorType === "" || e.actor_type === actorType))
  const narrowed = needle !== "" || actorType !== ""
  return (
    <Page title="Audit log">
      <ActivityTabs />
      <form className="inline spaced" aria-label="Narrow this page of the audit log" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="al-action">Action contains</label>
          <input id="al-action" type="search" value={action} onChange={(e) => setAction(e.target.value)} placeholder="closer, api_key.created…" />
        </div>
        <div className="field">
          <label htmlFor="al-actor">Actor</label>
          <select id="al-actor" value={actorType} onChange={(e) => setActorType(e.target.value)}>
            <option value="">Anyone</option>
            {ACTOR_TYPES.map((t) => <option key={t} value={t}>{words(t)}</option>)}
          </select>
        </div>
        {narrowed ? <button type="button" className="secondary" onClick={() => { setAction(""); setActorType("") }}>Clear</button> : null}
      </form>
      {log.isPending ? <Loading what="the audit log" /> : log.isError ? <Failure error={log.error} /> : log.data.total === 0 ? (
        <Empty>No change recorded yet. Every change made through Callsight (sign-ins, keys, closers, profiles, outcomes) is listed here as it happens.</Empty>
      ) : (
        <>
          <p className="muted" role="status">
            Entries {offset + 1}–{offset + entries.length} of {log.data.total}, newest first
            {narrowed ? `; the filters narrow this page: ${matching.length} of its ${entries.length} entries match` : ""}.
          </p>
          {matching.length === 0 ? <Empty>No entry of this page matches. Clear the filters, or look at the next page.</Empty> : (
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th><th scope="col">Details</th></tr>
                </thead>
                <tbody>
                  {matching.map((e) => {
                    const meta = Object.entries(e.metadata)
                    return (
                      <tr key={e.log_id}>
                        <td><When at={e.at} /></td>
                        <td><code>{e.action}</code></td>
                        <td>{who.get(e.actor) ?? e.actor} <span className="muted">({words(e.actor_type)}{e.ip === null ? "" : `, ${e.ip}`})</span></td>
                        <td>
                          {words(e.target_type)}{" "}
                          {e.target_id === null ? null : e.target_type === "call" ? <Link href={callHref(e.target_id)}>{e.target_id}</Link> : <span className="muted">{e.target_id}</span>}
                        </td>
                        <td>
                          {meta.length === 0 ? <span className="muted">—</span> : (
                            <dl className="meta">
                              {meta.map(([k, v]) => <div key={k}><dt>{words(k)}</dt><dd>{asText(v)}</dd></div>)}
                            </dl>
                          )}
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      <Pager
        label="Audit log"
        hasPrevious={offset > 0}
        hasNext={log.data !== undefined && offset + AUDIT_PAGE < log.data.total}
        onPrevious={() => setOffset(Math.max(0, offset - AUDIT_PAGE))}
        onNext={() => setOffset(offset + AUDIT_PAGE)}
      />
    </Page>
  )
}
