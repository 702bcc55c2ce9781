/**
 * Activity, for managers: the account's events (uploads, analyses, the recorder, integrations,
 * messengers, webhooks), filtered by status, platform and closer, and the audit log, every change
 * made through the service, filtered by action, target type, actor (a member's e-mail, as the
 * table names them, or the stored actor), actor type and dates, its actors named by e-mail where
 * they are members. The service filters and pages both (newest first) and counts what matches;
 * the screen asks for one page at a time.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { Effect } from "effect"
import { type FormEvent, useState } from "react"
import { Link } from "wouter"
import { Api, call, decodeBody } from "../api.js"
import { Empty, Failure, Field, Loading, OtherIssues, Page, Pager, When } from "../ui/kit.js"
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
const EVENTS_PAGE = 25

/** Filters as the operation's query: the empty ones left out, the others trimmed. */
const given = <F extends object>(filters: F): Partial<F> =>
  Object.fromEntries(Object.entries(filters).filter(([, v]) => String(v).trim() !== "").map(([k, v]) => [k, String(v).trim()])) as Partial<F>

/** Which rows a page shows: "Events 26–50 of 130", or "3 events" when one page holds them all. */
const range = (offset: number, shown: number, total: number, one: string, many: string) =>
  offset === 0 && shown === total
    ? `${total} ${total === 1 ? one : many}`
    : `${many[0]!.toUpperCase()}${many.slice(1)} ${offset + 1}–${offset + shown} of ${total}`

export const EventsScreen = () => {
  const [draft, setDraft] = useState<EventFilters>(NO_EVENT_FILTERS)
  const [filters, setFilters] = useState<EventFilters>(NO_EVENT_FILTERS)
  const [offset, setOffset] = useState(0)
  const events = useQuery({
    queryKey: ["activity", "events", filters, offset],
    queryFn: () => call((c) => c.clientPortal.listEvents({ urlParams: { ...given(filters), limit: EVENTS_PAGE, offset } })),
    placeholderData: keepPreviousData
  })
  const set = (name: keyof EventFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value })
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_EVENT_FILTERS)
  const apply = (next: EventFilters) => {
    setDraft(next)
    setFilters(next)
    setOffset(0)
  }
  const list = events.data?.events ?? []
  const total = events.data?.total ?? 0
  return (
    <Page title="Activity">
      <ActivityTabs />
      <form className="inline spaced" aria-label="Filter the events" onSubmit={(e) => { e.preventDefault(); apply(draft) }}>
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
        {filtered ? <button type="button" className="secondary" onClick={() => apply(NO_EVENT_FILTERS)}>Clear</button> : null}
      </form>
      {events.isPending ? <Loading what="the events" /> : events.isError ? <Failure error={events.error} /> : list.length === 0 ? (
        <Empty>
          {filtered
            ? "No event matches these filters. Clear them to see every event."
            : offset > 0
            ? "No event on this page. Go back to the previous page."
            : <>No event yet. Events are recorded as calls are uploaded and analysed and as integrations run: upload a recording from <Link href="/calls">Calls</Link> to see the first ones.</>}
        </Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table className="stack">
            <caption className="muted cap">{range(offset, list.length, total, "event", "events")}{filtered ? " that match" : ""}, newest first</caption>
            <thead>
              <tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Platform</th><th scope="col">Status</th><th scope="col">Closer</th><th scope="col">Call</th></tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.event_id}>
                  <td><When at={e.received_at} /></td>
                  <td data-label="Event">{words(e.type)}{e.error === null ? null : <><br /><span className="failure">{e.error}</span></>}</td>
                  <td data-label="Platform">{e.platform ?? <span className="muted">—</span>}</td>
                  <td data-label="Status"><span className={e.status === "error" ? "badge level-high" : "badge"}>{e.status}</span></td>
                  <td data-label="Closer">{e.closer_email ?? <span className="muted">—</span>}</td>
                  <td data-label="Call">{e.call_id === null ? <span className="muted">—</span> : <Link href={callHref(e.call_id)}>{e.call_id}</Link>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Events"
        hasPrevious={offset > 0}
        hasNext={offset + EVENTS_PAGE < total}
        onPrevious={() => setOffset(Math.max(0, offset - EVENTS_PAGE))}
        onNext={() => setOffset(offset + EVENTS_PAGE)}
      />
    </Page>
  )
}

// ---------------------------------------------------------------------------------------------
// Audit log

const AUDIT_PAGE = 50

const ACTOR_TYPES = ["user", "api_key", "staff", "system"] as const

interface AuditFilters {
  readonly action: string
  readonly target_type: string
  readonly actor: string
  readonly actor_type: string
  readonly since: string
  readonly until: string
}

const NO_AUDIT_FILTERS: AuditFilters = { action: "", target_type: "", actor: "", actor_type: "", since: "", until: "" }
const AUDIT_FIELDS = Object.keys(NO_AUDIT_FILTERS)

type AuditQuery = typeof Api.AuditLogParams.Type

/** A metadata value as text: strings as they are, anything else as JSON. */
const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v))

export const AuditLogScreen = () => {
  const [draft, setDraft] = useState<AuditFilters>(NO_AUDIT_FILTERS)
  // the filters applied, as the operation's query (checked by its schema before they are)
  const [query, setQuery] = useState<Partial<AuditQuery>>({})
  const [checked, setChecked] = useState<unknown>(null)
  const [offset, setOffset] = useState(0)
  const log = useQuery({
    queryKey: ["activity", "audit", query, offset],
    queryFn: () => call((c) => c.clientPortal.listAuditLogs({ urlParams: { ...query, limit: AUDIT_PAGE, offset } })),
    placeholderData: keepPreviousData
  })
  const members = useQuery({ queryKey: ["members"], queryFn: () => call((c) => c.members.listMembers()), staleTime: 60_000 })
  const who = new Map((members.data?.members ?? []).map((m) => [m.user_id as string, m.email]))
  const set = (name: keyof AuditFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value })
  const apply = (next: AuditFilters) => {
    const values = given(next)
    Effect.runPromise(Effect.either(decodeBody(Api.AuditLogParams, values))).then((decoded) => {
      if (decoded._tag === "Left") return setChecked(decoded.left)
      setChecked(null)
      setQuery(values as Partial<AuditQuery>)
      setOffset(0)
    })
  }
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    apply(draft)
  }
  const clear = () => {
    setDraft(NO_AUDIT_FILTERS)
    apply(NO_AUDIT_FILTERS)
  }
  const error = checked ?? log.error
  const filtered = Object.keys(query).length > 0
  const entries = log.data?.entries ?? []
  const total = log.data?.total ?? 0
  return (
    <Page title="Audit log">
      <ActivityTabs />
      <form className="inline spaced" aria-label="Filter the audit log" onSubmit={submit} noValidate>
        <Field label="Action" name="action" error={error} hint="Exactly, e.g. closer.added">
          {(p) => <input {...p} value={draft.action} onChange={set("action")} maxLength={200} />}
        </Field>
        <Field label="Target type" name="target_type" error={error} hint="Exactly, e.g. closer, call">
          {(p) => <input {...p} value={draft.target_type} onChange={set("target_type")} maxLength={200} />}
        </Field>
        <Field label="Actor" name="actor" error={error} hint="A member's e-mail, or an actor as listed">
          {(p) => <input {...p} list="al-members" value={draft.actor} onChange={set("actor")} maxLength={200} />}
        </Field>
        <datalist id="al-members">
          {(members.data?.members ?? []).map((m) => <option key={m.user_id} value={m.email} />)}
        </datalist>
        <Field label="Actor type" name="actor_type" error={error}>
          {(p) => (
            <select {...p} value={draft.actor_type} onChange={set("actor_type")}>
              <option value="">Any</option>
              {ACTOR_TYPES.map((t) => <option key={t} value={t}>{words(t)}</option>)}
            </select>
          )}
        </Field>
        <Field label="From" name="since" error={error}>
          {(p) => <input {...p} type="date" value={draft.since} onChange={set("since")} />}
        </Field>
        <Field label="To" name="until" error={error}>
          {(p) => <input {...p} type="date" value={draft.until} onChange={set("until")} />}
        </Field>
        <button type="submit">Apply filters</button>
        {filtered || JSON.stringify(draft) !== JSON.stringify(NO_AUDIT_FILTERS) ? <button type="button" className="secondary" onClick={clear}>Clear</button> : null}
      </form>
      <OtherIssues error={error} fields={AUDIT_FIELDS} />
      {log.isPending ? <Loading what="the audit log" /> : log.isError ? <Failure error={log.error} /> : entries.length === 0 ? (
        <Empty>
          {filtered
            ? "No entry matches these filters. Clear them to see every entry."
            : offset > 0
            ? "No entry on this page. Go back to the previous page."
            : "No change recorded yet. Every change made through Callsight (sign-ins, keys, closers, profiles, outcomes) is listed here as it happens."}
        </Empty>
      ) : (
        <>
          <p className="muted" role="status">{range(offset, entries.length, total, "entry", "entries")}{filtered ? " that match" : ""}, newest first.</p>
          <div className="table-wrap" tabIndex={0}>
            <table className="stack">
              <thead>
                <tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th><th scope="col">Details</th></tr>
              </thead>
              <tbody>
                {entries.map((e) => {
                  const meta = Object.entries(e.metadata)
                  return (
                    <tr key={e.log_id}>
                      <td><When at={e.at} /></td>
                      <td data-label="Action"><code>{e.action}</code></td>
                      <td data-label="Actor">{who.get(e.actor) ?? e.actor} <span className="muted">({words(e.actor_type)}{e.ip === null ? "" : `, ${e.ip}`})</span></td>
                      <td data-label="Target">
                        {words(e.target_type)}{" "}
                        {e.target_id === null ? null : e.target_type === "call" ? <Link href={callHref(e.target_id)}>{e.target_id}</Link> : <span className="muted">{e.target_id}</span>}
                      </td>
                      <td data-label="Details">
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
        </>
      )}
      <Pager
        label="Audit log"
        hasPrevious={offset > 0}
        hasNext={offset + AUDIT_PAGE < total}
        onPrevious={() => setOffset(Math.max(0, offset - AUDIT_PAGE))}
        onNext={() => setOffset(offset + AUDIT_PAGE)}
      />
    </Page>
  )
}
