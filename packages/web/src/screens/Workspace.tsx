/**
 * The workspace: search over the calls (the text in the address, so a search can be shared and
 * the back button works; results lead to the call at the moment that matched), the recent searches
 * and pinned calls of the workspace state; the chat (about the calls, optionally one call) and the
 * concierge, each a conversation that keeps its `conversation_id` (kept for the browser tab, so
 * leaving the screen does not lose it), with the answer's sources and suggested actions as links;
 * and the briefs: the daily brief, deal intelligence and meeting preparation (the last two answer
 * null when the assistant is switched off for the account: said so). Deal intelligence follows each
 * deal across its calls (docs/deals.md): the account, the calls in order with their scores, why the
 * risk is raised, objections open or resolved, next steps kept or slipped, the stakeholders. A rep
 * sees their own calls.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Effect } from "effect"
import { type FormEvent, useEffect, useState } from "react"
import { Link, useSearchParams } from "wouter"
import { Api, call, decodeBody } from "../api.js"
import { isManager, useMe } from "../session.js"
import { Empty, Failure, Field, Loading, OtherIssues, Page, Pager, Panel, Score, When } from "../ui/kit.js"
import { Level, num, signed, Stats, Tabs, words } from "./Coaching/parts.js"
import { type Action, ActionLink, callHref, callName, Snippet, SourceLink } from "./Workspace/links.js"

const TABS = [
  { href: "/workspace", label: "Search", exact: true },
  { href: "/workspace/chat", label: "Chat" },
  { href: "/workspace/briefs", label: "Briefs" }
]

const WorkspaceTabs = () => <Tabs label="Workspace" tabs={TABS} />

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`

// ---------------------------------------------------------------------------------------------
// Search

/** Hits per page; the service pages them (`offset`) and counts them all (`total`). */
const SHOWN = 20

const KIND_LABEL: Record<string, string> = { call: "Call", transcript: "Transcript", closer: "Closer", note: "Note" }

export const SearchScreen = () => {
  const [params, setParams] = useSearchParams()
  const q = params.get("q") ?? ""
  const [draft, setDraft] = useState(q)
  const [checked, setChecked] = useState<unknown>(null)
  // the page, of the search it was turned for: another search starts at its first page
  const [paged, setPaged] = useState({ q, offset: 0 })
  const offset = paged.q === q ? paged.offset : 0
  const queries = useQueryClient()
  useEffect(() => {
    setDraft(q)
  }, [q])
  const results = useQuery({
    queryKey: ["workspace", "search", q, offset],
    enabled: q.trim().length >= 2,
    queryFn: () => call((c) => c.workspace.search({ urlParams: { q, limit: SHOWN, offset } })).then((r) => {
      // the search is remembered in the recent searches (by its first page)
      if (offset === 0) void queries.invalidateQueries({ queryKey: ["workspace", "state"] })
      return r
    }),
    // the previous page stays while the next loads; another search's results do not
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === q ? previous : undefined)
  })
  const run = (text: string) => {
    const values = { q: text }
    Effect.runPromise(Effect.either(decodeBody(Api.SearchParams, values))).then((checkedValues) => {
      if (checkedValues._tag === "Left") return setChecked(checkedValues.left)
      setChecked(null)
      setParams({ q: text.trim() })
    })
  }
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    run(draft)
  }
  const error = checked ?? results.error
  const hits = results.data?.results ?? []
  const total = results.data?.total ?? 0
  const turn = (to: number) => setPaged({ q, offset: Math.max(0, to) })
  return (
    <Page title="Workspace">
      <WorkspaceTabs />
      <div className="split">
        <div>
          <form onSubmit={submit} role="search" aria-label="Search the calls" className="searchbar">
            <Field label="Search calls, transcripts, closers and notes" name="q" error={error} hint={'Words all match; "a phrase", -word to leave out, or between alternatives'}>
              {(p) => <input {...p} type="search" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={200} />}
            </Field>
            <button type="submit">Search</button>
          </form>
          <OtherIssues error={error} fields={["q"]} />
          {q === "" ? (
            <Empty>Search for a word said on a call ("pricing", "budget"), a phrase in quotes, a closer's name or a call's external id. Results open the call at the moment that matched.</Empty>
          ) : results.isPending && results.fetchStatus !== "idle" ? <Loading what="the results" /> : results.isError ? <Failure error={results.error} /> : results.data === undefined ? null : total === 0 ? (
            <Empty>Nothing matches “{q}”. Try fewer or other words, or a closer's name. Calls without a transcript (no speech-to-text provider) are found by their metadata only.</Empty>
          ) : hits.length === 0 ? (
            <Empty>No hit on this page: “{q}” has {total}. <button type="button" className="link" onClick={() => turn(0)}>Back to the first page</button></Empty>
          ) : (
            <>
              <p role="status" className="muted">
                {total} hit{total === 1 ? "" : "s"} for “{results.data.q}”
                {total > hits.length ? `; ${offset + 1}–${offset + hits.length} shown, best first` : ""}.
              </p>
              <ol className="hits" start={offset + 1}>
                {hits.map((h) => (
                  <li key={`${h.kind}:${h.id}`}>
                    <div className="hit-head">
                      <span className="badge">{KIND_LABEL[h.kind] ?? h.kind}</span>{" "}
                      {h.call_id === null ? <strong>{h.title}</strong> : <Link href={callHref(h.call_id, h.start)}>{h.title}</Link>}
                      {h.start === null ? null : <span className="muted"> at {clock(h.start)}</span>}
                      {h.at === null ? null : <span className="muted"> · <When at={h.at} /></span>}
                    </div>
                    <p className="snippet-line"><Snippet html={h.snippet} /></p>
                  </li>
                ))}
              </ol>
              <Pager
                label="Search results"
                hasPrevious={offset > 0}
                hasNext={offset + SHOWN < total}
                onPrevious={() => turn(offset - SHOWN)}
                onNext={() => turn(offset + SHOWN)}
              />
            </>
          )}
        </div>
        <WorkspaceSide onSearch={(text) => { setDraft(text); run(text) }} />
      </div>
    </Page>
  )
}

const WorkspaceSide = ({ onSearch }: { readonly onSearch: (q: string) => void }) => {
  const state = useQuery({ queryKey: ["workspace", "state"], queryFn: () => call((c) => c.workspace.getState()) })
  if (state.isPending) return <aside><Loading what="your workspace" /></aside>
  if (state.isError) return <aside><Failure error={state.error} /></aside>
  const s = state.data
  return (
    <aside className="side" aria-label="Your workspace">
      <Panel title="Recent searches">
        {s.recent_searches.length === 0 ? <p className="muted">Your searches are remembered here.</p> : (
          <ul className="plain">
            {s.recent_searches.map((r) => (
              <li key={r.q}>
                <button type="button" className="link" onClick={() => onSearch(r.q)}>{r.q}</button>{" "}
                <span className="muted">{r.results} hit{r.results === 1 ? "" : "s"}</span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <Panel title="Pinned calls">
        {s.pinned_calls.length === 0 ? <p className="muted">Pin a call from its page to keep it at hand here.</p> : (
          <ul className="plain">
            {s.pinned_calls.map((p) => <li key={p.call_id}><Link href={callHref(p.call_id)}>{p.title ?? p.call_id}</Link></li>)}
          </ul>
        )}
      </Panel>
      {s.alerts.length === 0 ? null : (
        <Panel title="Alerts">
          <ul className="plain">
            {s.alerts.map((a) => (
              <li key={a.code} className={`alert-${a.severity}`}>
                <strong>{a.message}</strong>{a.fix_hint === null ? null : <> <span className="muted">{a.fix_hint}</span></>}
              </li>
            ))}
          </ul>
        </Panel>
      )}
    </aside>
  )
}

// ---------------------------------------------------------------------------------------------
// Chat and concierge

type Door = "workspace" | "concierge"

interface Said {
  readonly who: "you" | "callsight"
  readonly text: string
  readonly about?: string | undefined
  readonly intent?: string | null
  readonly sources?: ReadonlyArray<{ readonly kind: string; readonly id: string | null; readonly label: string }>
  readonly actions?: ReadonlyArray<Action>
}

interface Conversation {
  readonly conversation_id: string | null
  readonly said: ReadonlyArray<Said>
}

const EMPTY: Conversation = { conversation_id: null, said: [] }

/** The conversation of a door, kept for the browser tab (sessionStorage). */
const useConversation = (door: Door) => {
  const storageKey = `callsight.chat.${door}`
  const [conversation, setConversation] = useState<Conversation>(() => {
    try {
      const kept = sessionStorage.getItem(storageKey)
      return kept === null ? EMPTY : (JSON.parse(kept) as Conversation)
    } catch {
      return EMPTY
    }
  })
  useEffect(() => {
    try {
      sessionStorage.setItem(storageKey, JSON.stringify(conversation))
    } catch {
      // storage full or refused: the conversation lives as long as the screen
    }
  }, [conversation, storageKey])
  return [conversation, setConversation] as const
}

const PROMPTS = [
  "What should I do today?",
  "Calls that mention pricing",
  "How did the team do this week?",
  "Our win rate by lead source",
  "Show the worst call yesterday"
]

export const ChatScreen = () => {
  const [door, setDoor] = useState<Door>("workspace")
  return (
    <Page title="Workspace chat">
      <WorkspaceTabs />
      <fieldset className="segmented">
        <legend className="visually-hidden">Whom to ask</legend>
        <label className={door === "workspace" ? "on" : undefined}>
          <input type="radio" name="door" value="workspace" checked={door === "workspace"} onChange={() => setDoor("workspace")} /> Ask about the calls
        </label>
        <label className={door === "concierge" ? "on" : undefined}>
          <input type="radio" name="door" value="concierge" checked={door === "concierge"} onChange={() => setDoor("concierge")} /> The concierge
        </label>
      </fieldset>
      <p className="muted">
        {door === "workspace"
          ? "Answers from your calls and deals, with the calls it rests on and what to do next; give a call id to ask about that call."
          : "The portal's concierge: the same answers from your account's data, without suggested actions."}
      </p>
      <Chat key={door} door={door} />
    </Page>
  )
}

const Chat = ({ door }: { readonly door: Door }) => {
  const [conversation, setConversation] = useConversation(door)
  const [message, setMessage] = useState("")
  const [about, setAbout] = useState("")
  const send = useMutation({
    mutationFn: (values: { message: string; call_id?: string }) => {
      const base = { message: values.message, ...(conversation.conversation_id === null ? {} : { conversation_id: conversation.conversation_id }) }
      return door === "workspace"
        ? call((c) => Effect.flatMap(decodeBody(Api.WorkspaceChatRequest, { ...base, ...(values.call_id === undefined ? {} : { call_id: values.call_id }) }), (payload) => c.workspace.chat({ payload })))
        : call((c) => Effect.flatMap(decodeBody(Api.ConciergeRequest, base), (payload) => c.clientPortal.chatWithConcierge({ payload }))).then((r) => ({ ...r, suggested_actions: [] }))
    },
    onSuccess: (reply, values) => {
      setConversation((c) => ({
        conversation_id: reply.conversation_id,
        said: [
          ...c.said,
          { who: "you", text: values.message, about: values.call_id },
          { who: "callsight", text: reply.reply, intent: reply.intent, sources: reply.sources, actions: reply.suggested_actions }
        ]
      }))
      setMessage("")
    }
  })
  const ask = (text: string) => {
    const callId = about.trim()
    send.mutate({ message: text.trim(), ...(door === "workspace" && callId !== "" ? { call_id: callId } : {}) })
  }
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    ask(message)
  }
  return (
    <div className="chat-box">
      <div className="chat" role="log" aria-live="polite" aria-label="The conversation">
        {conversation.said.length === 0 ? (
          <Empty>
            Ask a question in your own words, or start with one of these:
            <ul className="prompts">
              {PROMPTS.map((p) => <li key={p}><button type="button" className="secondary" onClick={() => ask(p)} disabled={send.isPending}>{p}</button></li>)}
            </ul>
          </Empty>
        ) : conversation.said.map((s, i) => <Bubble key={i} said={s} />)}
        {send.isPending ? <p className="muted" role="status">Thinking…</p> : null}
      </div>
      <form onSubmit={submit} aria-label="Ask" className="chat-form">
        <Field label="Your question" name="message" error={send.error} hint="Enter sends; Shift+Enter starts a new line">
          {(p) => (
            <textarea
              {...p}
              value={message}
              maxLength={4000}
              onChange={(e) => setMessage(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault()
                  e.currentTarget.form?.requestSubmit()
                }
              }}
            />
          )}
        </Field>
        {door === "workspace" ? (
          <Field label="About a call (optional)" name="call_id" error={send.error} hint="A call id, call_…">
            {(p) => <input {...p} value={about} onChange={(e) => setAbout(e.target.value)} maxLength={100} />}
          </Field>
        ) : null}
        <OtherIssues error={send.error} fields={["message", "call_id", "conversation_id"]} />
        <Failure error={send.error} />
        <div className="row">
          <button type="submit" disabled={send.isPending}>Send</button>
          {conversation.said.length === 0 ? null : (
            <button type="button" className="secondary" onClick={() => { setConversation(EMPTY); send.reset() }}>New conversation</button>
          )}
        </div>
      </form>
    </div>
  )
}

const Bubble = ({ said }: { readonly said: Said }) => (
  <div className={said.who === "you" ? "bubble mine" : "bubble"}>
    <span className="visually-hidden">{said.who === "you" ? "You:" : "Callsight:"}</span>
    {said.about === undefined ? null : <p className="muted">About <Link href={callHref(said.about)}>{said.about}</Link></p>}
    <p className="said">{said.text}</p>
    {said.sources === undefined || said.sources.length === 0 ? null : (
      <div className="sources">
        <h3>Sources</h3>
        <ul className="plain">{said.sources.map((s, i) => <li key={i}><SourceLink source={s} /></li>)}</ul>
      </div>
    )}
    {said.actions === undefined || said.actions.length === 0 ? null : (
      <div className="sources">
        <h3>What to do</h3>
        <ul className="plain">{said.actions.map((a, i) => <li key={i}><ActionLink action={a} /></li>)}</ul>
      </div>
    )}
  </div>
)

// ---------------------------------------------------------------------------------------------
// Briefs

const ASSISTANT_OFF = "The assistant is switched off for your account, so there is no brief here. Callsight's staff can switch it on."

export const BriefsScreen = () => {
  const me = useMe()
  return (
    <Page title="Briefs">
      <WorkspaceTabs />
      {me.data !== undefined && !isManager(me.data.role) ? <YourCalls closer={me.data.closer} /> : null}
      <DailyBriefPanel manager={isManager(me.data?.role)} />
      <DealsPanel />
      <MeetingPrepPanel />
    </Page>
  )
}

/** Whose calls a rep's briefs are made of: the closer `me` says they are, or none yet. */
const YourCalls = ({ closer }: { readonly closer: typeof Api.ClientUser.Type["closer"] }) =>
  closer === null
    ? <p className="muted">You are not a closer of the team yet, so your briefs hold no call: an owner or admin adds you as a closer, then you confirm your e-mail.</p>
    : <p className="muted">Your briefs are made of your own calls, as {closer.full_name} ({closer.email}).</p>

const DailyBriefPanel = ({ manager }: { readonly manager: boolean }) => {
  const brief = useQuery({ queryKey: ["brief", "daily"], queryFn: () => call((c) => c.clientPortal.getDailyBrief()) })
  if (brief.isPending) return <Panel title="Daily brief"><Loading what="the daily brief" /></Panel>
  if (brief.isError) return <Panel title="Daily brief"><Failure error={brief.error} /></Panel>
  const b = brief.data
  return (
    <Panel title={`Daily brief for ${b.date}`}>
      <Stats items={[["Calls yesterday", b.calls_analysed], ["Average score", <Score key="s" value={b.average_score} />], ["Deals at risk", b.deals_at_risk.length]]} />
      <div className="grid">
        <section aria-labelledby="brief-actions">
          <h3 id="brief-actions">Today's actions</h3>
          {b.suggested_actions.length === 0 ? <p className="muted">Nothing to do from yesterday's calls.</p> : (
            <ul className="plain">{b.suggested_actions.map((a, i) => <li key={i}><ActionLink action={a} /></li>)}</ul>
          )}
        </section>
        <section aria-labelledby="brief-moments">
          <h3 id="brief-moments">Notable moments</h3>
          {b.notable_moments.length === 0 ? <p className="muted">None yesterday.</p> : (
            <ul className="plain">
              {b.notable_moments.map((m, i) => (
                <li key={i}>
                  <Link href={callHref(m.call_id, m.at)}>{words(m.kind)} at {clock(m.at)}</Link>
                  <span className="muted"> · {callName(m)}</span>
                  {m.closer_email === null || !manager ? null : <span className="muted"> · {m.closer_email}</span>}
                  {m.quote === null ? null : <q>{m.quote}</q>}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <h3>Yesterday's calls</h3>
      {b.calls.length === 0 ? <p className="muted">No call yesterday. Calls made today show in tomorrow's brief.</p> : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <thead><tr><th scope="col">Call</th><th scope="col">Closer</th><th scope="col">Status</th><th scope="col">Score</th></tr></thead>
            <tbody>
              {b.calls.map((c) => (
                <tr key={c.call_id}>
                  <td><Link href={callHref(c.call_id)}>{callName(c)}</Link></td>
                  <td>{c.closer_email ?? <span className="muted">—</span>}</td>
                  <td><span className="badge">{c.status}</span></td>
                  <td><Score value={c.overall_score} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {b.deals_at_risk.length === 0 ? null : (
        <>
          <h3>Deals at risk</h3>
          <ul className="plain">
            {b.deals_at_risk.map((d) => (
              <li key={d.call_id}>
                <Level level={d.risk} /> <Link href={callHref(d.call_id)}>{callName(d)}</Link>
                {d.closer_email === null ? null : <span className="muted"> · {d.closer_email}</span>}: {d.reasons.join("; ")}
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  )
}

const money = (value: number | null, currency: string | null) =>
  value === null ? "—" : currency === null ? num(value, 0) : (() => {
    try {
      return value.toLocaleString(undefined, { style: "currency", currency, maximumFractionDigits: 0 })
    } catch {
      return `${num(value, 0)} ${currency}`
    }
  })()

const DealsPanel = () => {
  const deals = useQuery({ queryKey: ["brief", "deals"], queryFn: () => call((c) => c.workspace.getDealIntelligence()) })
  return (
    <Panel title="Deal intelligence">
      {deals.isPending ? <Loading what="the deals" /> : deals.isError ? <Failure error={deals.error} /> : deals.data === null ? <p className="muted">{ASSISTANT_OFF}</p> : deals.data.deals.length === 0 ? (
        <Empty>No open deal in the last 30 days. A deal is an analysed call with a transcript whose outcome is not decided; record outcomes on the call page to keep this list true.</Empty>
      ) : (
        <>
          <p className="muted">Highest risk first.</p>
          <ul className="deal-cards">
            {deals.data.deals.map((d) => <DealCard key={d.deal_id ?? d.call_id} deal={d} />)}
          </ul>
        </>
      )}
    </Panel>
  )
}

type Deal = NonNullable<typeof Api.DealIntelligence.Type>["deals"][number]

const day = (at: string) => new Date(at).toLocaleDateString(undefined, { day: "numeric", month: "short" })

const TREND_WORDS: Record<Deal["score_trend"]["direction"], string> = { up: "rising", down: "falling", flat: "flat", none: "" }

/** How many of each state, in the order given, the zeros left out: "2 kept, 1 slipped". */
const tally = <S extends string>(items: ReadonlyArray<{ readonly state: S }>, order: ReadonlyArray<S>) =>
  order.map((state) => [state, items.filter((i) => i.state === state).length] as const).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${state}`).join(", ")

const STEP_LEVEL: Record<string, string> = { kept: "low", slipped: "high", open: "medium", undated: "none" }

/** A deal across its calls: the account, the calls in order with their scores, objections, next steps, stakeholders and why the risk is what it is. */
const DealCard = ({ deal: d }: { readonly deal: Deal }) => {
  const t = d.score_trend
  const reasons = new Set(d.risk_reasons)
  const signals = d.signals.filter((s) => !reasons.has(s))
  return (
    <li>
      <h3 className="deal-head">
        <Level level={d.risk} /> {d.account === null ? null : <><span className="deal-account">{d.account.name}</span> · </>}
        <span className="muted">latest call</span> <Link href={callHref(d.call_id)}>{callName(d)}</Link>
      </h3>
      <p className="muted">
        {d.external_deal_id === null ? d.deal_id === null ? "A call of no deal" : "Deal" : `Deal ${d.external_deal_id}`}
        {" · "}{d.closer_email ?? "No closer"}
        {d.stage === null ? "" : ` · ${d.stage}`}
        {d.deal_value === null ? "" : ` · ${money(d.deal_value, d.currency)}`}
        {d.outcome === null ? "" : ` · ${d.outcome}`}
      </p>
      {d.risk_reasons.length === 0 ? null : (
        <div className="risk-reasons">
          <h4>Why the risk is raised</h4>
          <ul>{d.risk_reasons.map((r, i) => <li key={i}>{r}</li>)}</ul>
        </div>
      )}
      <h4>
        {d.calls.length} call{d.calls.length === 1 ? "" : "s"}, oldest first
        {t.direction === "none" ? null : <span className="muted"> · score {num(t.first, 0)} → {num(t.last, 0)} ({signed(t.change)}, {TREND_WORDS[t.direction]})</span>}
      </h4>
      <ol className="deal-calls">
        {d.calls.map((c) => (
          <li key={c.call_id}>
            <Link href={callHref(c.call_id)}>{day(c.meeting_at)}</Link>{" "}
            {c.overall_score === null ? <span className="muted">not scored</span> : <Score value={c.overall_score} />}
          </li>
        ))}
      </ol>
      <details className="deal-more">
        <summary>Objections: {d.objections.length === 0 ? "none raised" : tally(d.objections, ["open", "resolved"] as const)}</summary>
        <ul className="plain">
          {d.objections.map((o) => (
            <li key={o.kind}>
              <span className={`badge level-${o.state === "open" ? "medium" : "low"}`}>{o.state}</span> {words(o.kind)}{" "}
              <span className="muted">raised in {o.raised_in.length} call{o.raised_in.length === 1 ? "" : "s"}</span>
              {o.last_quote === "" ? null : <q>{o.last_quote}</q>}
            </li>
          ))}
        </ul>
      </details>
      <details className="deal-more">
        <summary>Next steps: {d.next_steps.length === 0 ? "none said" : tally(d.next_steps, ["kept", "slipped", "open", "undated"] as const)}</summary>
        <ul className="plain">
          {d.next_steps.map((s, i) => (
            <li key={i}>
              <span className={`badge level-${STEP_LEVEL[s.state]}`}>{s.state}</span> <q className="inline">{s.quote}</q>
              <span className="muted">
                {s.due_text === null ? "" : ` · due “${s.due_text}”`}{s.due_date === null ? "" : ` (${s.due_date})`} · <Link href={callHref(s.call_id)}>its call</Link>
              </span>
            </li>
          ))}
        </ul>
      </details>
      <p><span className="muted">Stakeholders:</span> {d.stakeholders.length === 0 ? "none known (the calls' attendees name them)" : d.stakeholders.join(", ")}</p>
      {signals.length === 0 ? null : <ul>{signals.map((s, i) => <li key={i}>{s}</li>)}</ul>}
      <p><span className="muted">Next step:</span> {d.next_step ?? "none agreed"}</p>
    </li>
  )
}

const MeetingPrepPanel = () => {
  const prep = useQuery({ queryKey: ["brief", "meetings"], queryFn: () => call((c) => c.workspace.getMeetingPrepBrief()) })
  return (
    <Panel title="Meeting preparation">
      {prep.isPending ? <Loading what="your meetings" /> : prep.isError ? <Failure error={prep.error} /> : prep.data === null ? <p className="muted">{ASSISTANT_OFF}</p> : prep.data.meetings.length === 0 ? (
        <Empty>No meeting in the next 7 days. Meetings come from the closers' connected calendars: connect a calendar in Settings to prepare them here.</Empty>
      ) : (
        <ul className="meetings">
          {prep.data.meetings.map((m, i) => (
            <li key={i}>
              <h3>{m.title}</h3>
              <p className="muted">
                <When at={m.starts_at} />{m.closer_email === null ? null : <> · {m.closer_email}</>}
                {m.attendees.length === 0 ? null : <> · with {m.attendees.join(", ")}</>}
                {m.previous_call_id === null ? <> · no previous call</> : <> · <Link href={callHref(m.previous_call_id)}>the previous call</Link></>}
              </p>
              <div className="grid">
                <PrepList title="Talking points" items={m.talking_points} />
                <PrepList title="Open questions" items={m.open_questions} />
                <PrepList title="Risks" items={m.risks} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

const PrepList = ({ items, title }: { readonly title: string; readonly items: ReadonlyArray<string> }) => (
  <div>
    <h4>{title}</h4>
    {items.length === 0 ? <p className="muted">None.</p> : <ul>{items.map((t, i) => <li key={i}>{t}</li>)}</ul>}
  </div>
)
