/**
 * Integrations (owners and admins): each closer's calendar and video-meeting tool (OAuth: the
 * service answers the provider's consent URL and the browser goes there; the provider sends it
 * back to the service, which stores the tokens and redirects to its `/portal/integrations` page),
 * the CRM connections, and the LLM and speech-to-text keys. Every secret is write-only: the service
 * checks a key with the provider before it stores it (a refusal is a 422 at the key's field) and
 * shows only its last four characters afterwards.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { Link, useSearch } from "wouter"
import { Api, call, checked } from "../../api.js"
import { Empty, Failure, Field, Loading, OtherIssues, Panel, When } from "../../ui/kit.js"
import { Badge, ConfirmButton, defined, text, usePaged, words } from "./parts.js"

export const IntegrationsSection = () => (
  <>
    <MeetingTools />
    <Crm />
    <AiProviders />
  </>
)

// ---------------------------------------------------------------------------------------------
// Calendar and video, per closer

type Closer = typeof Api.Closer.Type
type Kind = "calendar" | "video"
const TOOL: Readonly<Record<Kind, string>> = { calendar: "calendar", video: "video-meeting tool" }

const MeetingTools = () => {
  const queries = useQueryClient()
  const search = new URLSearchParams(useSearch())
  const closers = useQuery({ queryKey: ["closers"], queryFn: () => call((c) => c.clientPortal.listClosers()) })
  const start = useMutation({
    mutationFn: ({ closer, kind }: { readonly closer: Closer; readonly kind: Kind }) =>
      call((c) =>
        kind === "calendar"
          ? c.integrations.startCalendarConnection({ path: { closer_id: closer.closer_id } })
          : c.integrations.startVideoConnection({ path: { closer_id: closer.closer_id } })
      ),
    // to the provider's consent screen; it comes back to the service, which says the tool is connected
    onSuccess: (started) => window.location.assign(started.authorization_url)
  })
  const disconnect = useMutation({
    mutationFn: ({ closer, kind }: { readonly closer: Closer; readonly kind: Kind }) =>
      call((c) =>
        kind === "calendar"
          ? c.integrations.disconnectCalendar({ path: { closer_id: closer.closer_id } })
          : c.integrations.disconnectVideo({ path: { closer_id: closer.closer_id } })
      ).then((row) => `${row.full_name}'s ${TOOL[kind]} is disconnected.`),
    onSettled: () => queries.invalidateQueries({ queryKey: ["closers"] })
  })
  const live = (closers.data?.closers ?? []).filter((c) => c.status !== "removed")
  const { pager, rows } = usePaged(live, "Closers' tools")
  const busy = start.isPending || disconnect.isPending
  const returned = search.get("status") === "connected" ? search.get("integration") : null
  const cell = (closer: Closer, kind: Kind) => {
    const state = closer[kind]
    return (
      <div className="tool">
        <Badge tone={state.connected ? "good" : "plain"}>{state.connected ? "connected" : "not connected"}</Badge>
        {state.connected ? (
          <small className="muted">
            since <When at={state.connected_at} />
            {state.token_expires_at === null ? null : <>; token until <When at={state.token_expires_at} /></>}
          </small>
        ) : null}
        <div className="row-actions">
          {state.connected ? (
            <ConfirmButton question={`Disconnect ${closer.full_name}'s ${TOOL[kind]}?`} confirm="Disconnect" disabled={busy} onConfirm={() => disconnect.mutate({ closer, kind })}>
              Disconnect
            </ConfirmButton>
          ) : (
            <button type="button" className="secondary" disabled={busy} onClick={() => start.mutate({ closer, kind })} aria-label={`Connect ${closer.full_name}'s ${TOOL[kind]}`}>
              Connect
            </button>
          )}
        </div>
      </div>
    )
  }
  return (
    <Panel title="Calendars and video meetings">
      <p className="muted">
        Each closer connects their own calendar (to know their meetings) and video-meeting tool (to fetch recordings). Connect opens the
        provider's consent page; the closer signs in there with their own account.
      </p>
      {returned === null ? null : (
        <p role="status" className="ok">
          {closers.data?.closers.find((c) => c.closer_id === search.get("closer_id"))?.full_name.concat("'s ") ?? "The "}
          {TOOL[returned as Kind] ?? returned} is connected.
        </p>
      )}
      {start.isPending || start.isSuccess ? <p role="status" className="muted">Opening the provider's consent page…</p> : null}
      <Failure error={start.error} />
      {disconnect.isSuccess ? <p role="status" className="ok">{disconnect.data}</p> : null}
      <Failure error={disconnect.error} />
      {closers.isPending ? <Loading what="the closers" /> : closers.isError ? <Failure error={closers.error} /> : live.length === 0 ? (
        <Empty>No closer yet. <Link href="/team">Add the closers in Team</Link> first, then connect their calendar and video tool here.</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table className="stack">
            <thead><tr><th scope="col">Closer</th><th scope="col">Calendar</th><th scope="col">Video meetings</th></tr></thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.closer_id}>
                  <td><span className="strong">{c.full_name}</span><br /><span className="muted">{c.email}</span></td>
                  <td data-label="Calendar">{cell(c, "calendar")}</td>
                  <td data-label="Video meetings">{cell(c, "video")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager}
    </Panel>
  )
}

// ---------------------------------------------------------------------------------------------
// CRM

type CrmProvider = typeof Api.CrmProvider.Type
type CrmConnection = typeof Api.CrmConnection.Type

const Crm = () => {
  const queries = useQueryClient()
  const providers = useQuery({ queryKey: ["crm-providers"], queryFn: () => call((c) => c.integrations.listCrmProviders()), staleTime: 10 * 60_000 })
  const status = useQuery({ queryKey: ["crm-status"], queryFn: () => call((c) => c.integrations.getCrmStatus()) })
  const crmA = useQuery({
    queryKey: ["crm-a"],
    queryFn: () => call((c) => c.integrations.getCrmAIntegration()),
    enabled: status.data?.connections.some((c) => c.provider === "crm-a") === true
  })
  const disconnect = useMutation({
    mutationFn: (provider: string) => call((c) => c.integrations.disconnectCrm({ path: { provider } })),
    onSettled: () => Promise.all([queries.invalidateQueries({ queryKey: ["crm-status"] }), queries.invalidateQueries({ queryKey: ["crm-a"] })])
  })
  const specOf = (provider: string) => providers.data?.providers.find((p) => p.provider === provider)
  return (
    <Panel title="CRM">
      <p className="muted">A connected CRM links calls to deals; crm-a can also write recorded outcomes to its deals and read closed deals back.</p>
      {disconnect.isSuccess ? <p role="status" className="ok">{disconnect.data.provider} is disconnected; its credentials are deleted.</p> : null}
      <Failure error={disconnect.error} />
      {status.isPending ? <Loading what="the CRM connections" /> : status.isError ? <Failure error={status.error} /> : status.data.connections.length === 0 ? (
        <Empty>No CRM connected. Choose yours below and paste the credentials it asks for; they are checked with the CRM before they are kept.</Empty>
      ) : (
        <ul className="cards">
          {status.data.connections.map((conn) => (
            <CrmCard
              key={conn.provider}
              connection={conn}
              spec={specOf(conn.provider)}
              syncOutcomes={conn.provider === "crm-a" ? crmA.data?.sync_outcomes : undefined}
              busy={disconnect.isPending}
              onDisconnect={() => disconnect.mutate(conn.provider)}
            />
          ))}
        </ul>
      )}
      {providers.isPending ? <Loading what="the CRMs you can connect" /> : providers.isError ? <Failure error={providers.error} /> : (
        <ConnectCrm providers={providers.data.providers} connected={status.data?.connections.map((c) => c.provider) ?? []} />
      )}
    </Panel>
  )
}

const CrmCard = ({ busy, connection, onDisconnect, spec, syncOutcomes }: {
  readonly connection: CrmConnection
  readonly spec: CrmProvider | undefined
  readonly syncOutcomes: boolean | undefined
  readonly busy: boolean
  readonly onDisconnect: () => void
}) => (
  <li className="card">
    <div className="card-head">
      <span className="strong">{connection.name}</span>
      <Badge tone={connection.status === "connected" ? "good" : "bad"}>{connection.status}</Badge>
    </div>
    <dl className="pairs">
      {Object.entries(connection.fields).map(([name, value]) => {
        const field = spec?.fields.find((f) => f.name === name)
        return (
          <div key={name}>
            <dt>{field?.label ?? words(name)}</dt>
            <dd>{field?.type === "secret" ? <span className="mono">•••• {value}</span> : value}</dd>
          </div>
        )
      })}
      <div><dt>Connected</dt><dd><When at={connection.connected_at} /></dd></div>
      <div><dt>Last sync</dt><dd><When at={connection.last_sync_at} /></dd></div>
      {syncOutcomes === undefined ? null : <div><dt>Outcome sync</dt><dd>{syncOutcomes ? "on" : "off"}</dd></div>}
    </dl>
    {connection.last_error === null ? null : <p className="failure">Last error: {connection.last_error}</p>}
    <ConfirmButton question={`Disconnect ${connection.name}?`} confirm="Disconnect" disabled={busy} onConfirm={onDisconnect}>Disconnect</ConfirmButton>
  </li>
)

const ConnectCrm = ({ connected, providers }: { readonly providers: ReadonlyArray<CrmProvider>; readonly connected: ReadonlyArray<string> }) => {
  const queries = useQueryClient()
  const [chosen, setChosen] = useState(providers[0]?.provider ?? "")
  const [round, setRound] = useState(0)
  const spec = providers.find((p) => p.provider === chosen)
  const connect = useMutation({
    mutationFn: ({ provider, values }: { readonly provider: CrmProvider; readonly values: Record<string, string> }) =>
      provider.supports_outcome_sync && provider.provider === "crm-a"
        // crm-a's own operation also takes whether outcomes are written back
        ? checked(
          Api.UpsertCrmARequest,
          defined({ access_token: values["access_token"] ?? "", account_id: text(values["account_id"] ?? ""), sync_outcomes: values["sync_outcomes"] === "on" }),
          (c, payload) => c.integrations.upsertCrmAIntegration({ payload })
        ).then(() => provider.name)
        : checked(
          Api.ConnectCrmRequest,
          {
            provider: provider.provider,
            credentials: Object.fromEntries(provider.fields.flatMap((f) => (text(values[f.name] ?? "") === undefined ? [] : [[f.name, (values[f.name] ?? "").trim()]])))
          },
          (c, payload) => c.integrations.connectCrm({ payload })
        ).then((conn) => conn.name),
    onSuccess: () => {
      setRound((n) => n + 1)
      return Promise.all([queries.invalidateQueries({ queryKey: ["crm-status"] }), queries.invalidateQueries({ queryKey: ["crm-a"] })])
    }
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    if (spec === undefined) return
    const form = new FormData(e.currentTarget)
    connect.mutate({ provider: spec, values: Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)])) })
  }
  if (providers.length === 0) return null
  return (
    <form key={round} onSubmit={submit} aria-label="Connect a CRM" noValidate autoComplete="off">
      <h3>{connected.length === 0 ? "Connect a CRM" : "Connect another CRM, or replace the credentials of one"}</h3>
      <div className="field">
        <label htmlFor="crm-provider">CRM</label>
        <select id="crm-provider" value={chosen} onChange={(e) => { setChosen(e.target.value); connect.reset() }}>
          {providers.map((p) => <option key={p.provider} value={p.provider}>{p.name}{connected.includes(p.provider) ? " (connected)" : ""}</option>)}
        </select>
      </div>
      {spec === undefined ? null : (
        <>
          <p className="muted">
            {spec.description}
            {spec.docs_url === null ? null : <> <a href={spec.docs_url} target="_blank" rel="noreferrer">Where to find the credentials</a>.</>}
          </p>
          {spec.fields.map((f) => (
            <Field key={`${spec.provider}-${f.name}`} label={f.required ? f.label : `${f.label} (optional)`} name={f.name} error={connect.error} {...(f.description === null ? {} : { hint: f.description })}>
              {(p) => <input {...p} type={f.type === "secret" ? "password" : f.type === "url" ? "url" : "text"} autoComplete={f.type === "secret" ? "new-password" : "off"} spellCheck={false} />}
            </Field>
          ))}
          {spec.provider === "crm-a" ? (
            <label className="check">
              <input type="checkbox" name="sync_outcomes" /> Write recorded outcomes to the matching deals, and read closed deals back
            </label>
          ) : null}
          <OtherIssues error={connect.error} fields={[...spec.fields.map((f) => f.name), "sync_outcomes"]} />
          <Failure error={connect.error} />
          <div className="row-actions">
            <button type="submit" disabled={connect.isPending}>{connect.isPending ? "Checking with the CRM…" : `Connect ${spec.name}`}</button>
          </div>
        </>
      )}
      {connect.isSuccess ? <p role="status" className="ok">{connect.data} is connected.</p> : null}
    </form>
  )
}

// ---------------------------------------------------------------------------------------------
// LLM and speech-to-text keys

type LlmProvider = typeof Api.LlmProvider.Type

const AI_PROVIDERS: ReadonlyArray<{ readonly provider: LlmProvider; readonly label: string }> = [
  { provider: "openai", label: "OpenAI (language model and speech-to-text)" },
  { provider: "anthropic", label: "Anthropic (language model)" },
  { provider: "deepgram", label: "Deepgram (speech-to-text)" },
  { provider: "assemblyai", label: "AssemblyAI (speech-to-text)" },
  { provider: "openai-compatible", label: "OpenAI-compatible server (needs its base URL)" }
]

const CAPABILITY: Readonly<Record<string, string>> = { llm: "language model", speech_to_text: "speech-to-text" }

const AI_FIELDS = ["provider", "api_key", "model", "base_url"]

const AiProviders = () => {
  const queries = useQueryClient()
  const list = useQuery({ queryKey: ["llm-integrations"], queryFn: () => call((c) => c.integrations.listLlmIntegrations()) })
  const remove = useMutation({
    mutationFn: (provider: string) => call((c) => c.integrations.deleteLlmIntegration({ path: { provider } })),
    onSettled: () => queries.invalidateQueries({ queryKey: ["llm-integrations"] })
  })
  const [round, setRound] = useState(0)
  const [provider, setProvider] = useState<LlmProvider>("openai")
  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.UpsertLlmRequest, values, (c, payload) => c.integrations.upsertLlmIntegration({ payload })),
    onSuccess: () => {
      setRound((n) => n + 1)
      return queries.invalidateQueries({ queryKey: ["llm-integrations"] })
    }
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const value = (n: string) => text(String(form.get(n) ?? ""))
    save.mutate(defined({ provider, api_key: value("api_key") ?? "", model: value("model"), base_url: value("base_url") }))
  }
  const saved = list.data?.integrations ?? []
  return (
    <Panel title="Language models and speech-to-text">
      <p className="muted">
        Your own keys: a speech-to-text provider gives every call a transcript (without one, four of the six scorecard dimensions are not
        assessed); a language model powers the chat and the briefs. Each key is checked with its provider before it is kept, and is never shown again.
      </p>
      {remove.isSuccess ? <p role="status" className="ok">The {remove.data.provider} key is deleted.</p> : null}
      <Failure error={remove.error} />
      {list.isPending ? <Loading what="the providers" /> : list.isError ? <Failure error={list.error} /> : saved.length === 0 ? (
        <Empty>No key saved: the service's own provider is used, if it has one. Add a speech-to-text key below so every call gets a transcript.</Empty>
      ) : (
        <ul className="cards">
          {saved.map((i) => (
            <li key={i.provider} className="card">
              <div className="card-head">
                <span className="strong">{i.provider}</span>
                {i.capabilities.map((c) => <Badge key={c}>{CAPABILITY[c] ?? c}</Badge>)}
                <Badge tone={i.last_error === null ? "good" : "bad"}>{i.last_error === null ? "working" : "failing"}</Badge>
              </div>
              <dl className="pairs">
                <div><dt>Key</dt><dd><span className="mono">•••• {i.key_last4 ?? ""}</span></dd></div>
                <div><dt>Model</dt><dd>{i.model ?? <span className="muted">the provider's default</span>}</dd></div>
                {i.base_url === null ? null : <div><dt>Base URL</dt><dd className="mono">{i.base_url}</dd></div>}
                <div><dt>Last used</dt><dd><When at={i.last_used_at} /></dd></div>
                <div><dt>Saved</dt><dd><When at={i.updated_at} /></dd></div>
              </dl>
              {i.last_error === null ? null : <p className="failure">Last error: {i.last_error}</p>}
              <ConfirmButton question={`Delete the ${i.provider} key?`} confirm="Delete" disabled={remove.isPending} onConfirm={() => remove.mutate(i.provider)}>
                Delete the key
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <form key={round} onSubmit={submit} aria-label="Save a provider key" noValidate autoComplete="off">
        <h3>Add a key, or replace one</h3>
        <Field label="Provider" name="provider" error={save.error}>
          {(p) => (
            <select {...p} value={provider} onChange={(e) => { setProvider(e.target.value as LlmProvider); save.reset() }}>
              {AI_PROVIDERS.map((a) => <option key={a.provider} value={a.provider}>{a.label}{saved.some((s) => s.provider === a.provider) ? " (saved: replaces it)" : ""}</option>)}
            </select>
          )}
        </Field>
        <Field label="API key" name="api_key" error={save.error}>{(p) => <input {...p} type="password" autoComplete="new-password" spellCheck={false} />}</Field>
        <div className="form-row">
          <Field label="Model (optional)" name="model" error={save.error} hint="Blank: the provider's default">{(p) => <input {...p} spellCheck={false} />}</Field>
          <Field
            label={provider === "openai-compatible" ? "Base URL" : "Base URL (optional)"}
            name="base_url"
            error={save.error}
            hint={provider === "openai-compatible" ? "Where the server answers, e.g. https://llm.example.com/v1" : "Blank: the provider's own API"}
          >
            {(p) => <input {...p} type="url" spellCheck={false} />}
          </Field>
        </div>
        <OtherIssues error={save.error} fields={AI_FIELDS} />
        <Failure error={save.error} />
        <div className="row-actions">
          <button type="submit" disabled={save.isPending}>{save.isPending ? "Checking the key…" : "Check and save the key"}</button>
          {save.isSuccess ? <span role="status" className="ok">The {save.data.provider} key works and is saved.</span> : null}
        </div>
      </form>
    </Panel>
  )
}
