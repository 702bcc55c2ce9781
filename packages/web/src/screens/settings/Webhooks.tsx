/**
 * Webhooks (owners and admins): the account's completion webhook endpoints, a new one (its signing
 * secret shown once, like an API key), removal, and for the endpoint chosen its deliveries, newest
 * first, each with every attempt (status code or error, duration) and "send again". The tenant's
 * callback secret (for the uploads' `callback_url`) is shown the one time the service answers it.
 * The service answers the newest deliveries up to `limit` (at most 200); they are paged here.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { Link } from "wouter"
import { Api, call, checked } from "../../api.js"
import { Empty, Failure, Field, Loading, OtherIssues, Panel, When } from "../../ui/kit.js"
import { callHref } from "../Workspace/links.js"
import { Badge, Choices, ConfirmButton, defined, ShownOnce, text, type Tone, usePaged } from "./parts.js"

type Endpoint = typeof Api.WebhookEndpoint.Type
type Created = typeof Api.CreatedWebhookEndpoint.Type
type Delivery = typeof Api.WebhookDelivery.Type

const EVENTS: ReadonlyArray<readonly [typeof Api.WebhookEventType.Type, string]> = [
  ["analysis.completed", "An analysis completed"],
  ["analysis.failed", "An analysis failed"]
]

/** How many deliveries the service is asked for (its maximum): they are paged in the browser. */
const DELIVERIES = 200

const DELIVERY_TONE: Readonly<Record<Delivery["status"], Tone>> = { delivered: "good", pending: "warn", failed: "bad" }

export const WebhooksSection = () => {
  const queries = useQueryClient()
  const list = useQuery({ queryKey: ["webhooks"], queryFn: () => call((c) => c.webhooks.listWebhooks()) })
  const [fresh, setFresh] = useState<Created | null>(null)
  const [round, setRound] = useState(0)
  const [chosen, setChosen] = useState<Endpoint["webhook_id"] | null>(null)
  const create = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.CreateWebhookRequest, values, (c, payload) => c.webhooks.createWebhook({ payload })),
    onSuccess: (created) => {
      setFresh(created)
      setRound((n) => n + 1)
      return queries.invalidateQueries({ queryKey: ["webhooks"] })
    }
  })
  const remove = useMutation({
    mutationFn: (endpoint: Endpoint) => call((c) => c.webhooks.deleteWebhook({ path: { webhook_id: endpoint.webhook_id } })),
    onSuccess: (removed) => {
      if (chosen === removed.webhook_id) setChosen(null)
      return queries.invalidateQueries({ queryKey: ["webhooks"] })
    }
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setFresh(null)
    create.mutate(defined({
      url: String(form.get("url") ?? "").trim(),
      events: form.getAll("events").map(String),
      description: text(String(form.get("description") ?? ""))
    }))
  }
  const endpoints = list.data?.webhooks ?? []
  const { pager, rows } = usePaged(endpoints, "Webhook endpoints")
  const current = endpoints.find((w) => w.webhook_id === chosen) ?? null
  return (
    <>
      <Panel title="Webhook endpoints">
        <p className="muted">
          When an analysis completes or fails, Callsight POSTs it to each endpoint, signed as{" "}
          <a href="https://www.standardwebhooks.com/" rel="noreferrer">Standard Webhooks</a> say with the endpoint's secret, and retries with back-off for
          more than a day. An endpoint failing for three days is disabled.
        </p>
        <form key={round} className="spaced" onSubmit={submit} aria-label="Add a webhook endpoint" noValidate>
          <Field label="Endpoint URL" name="url" error={create.error} hint="https://your.app/hooks/callsight">
            {(p) => <input {...p} type="url" inputMode="url" autoComplete="off" maxLength={2000} />}
          </Field>
          <Choices legend="Send" name="events" error={create.error}>
            {EVENTS.map(([name, what]) => (
              <label key={name} className="check">
                <input type="checkbox" name="events" value={name} defaultChecked /> {what}: <code>{name}</code>
              </label>
            ))}
          </Choices>
          <Field label="Description (optional)" name="description" error={create.error}>{(p) => <input {...p} maxLength={200} />}</Field>
          <OtherIssues error={create.error} fields={["url", "events", "description"]} />
          <Failure error={create.error} />
          <div className="row-actions"><button type="submit" disabled={create.isPending}>Add the endpoint</button></div>
        </form>
        {fresh === null ? null : (
          <ShownOnce label="The new endpoint's signing secret" value={fresh.secret} copyLabel="Copy the secret" onHide={() => setFresh(null)}>
            <p className="strong">Copy the signing secret of {fresh.url} now: it is shown this once.</p>
            <p>Your endpoint checks each message's <code>webhook-signature</code> with it. If you lose it, remove the endpoint and add it again.</p>
          </ShownOnce>
        )}
        {remove.isSuccess ? <p role="status" className="ok">{remove.data.url} is removed: nothing more is sent to it.</p> : null}
        <Failure error={remove.error} />
        {list.isPending ? <Loading what="the endpoints" /> : list.isError ? <Failure error={list.error} /> : endpoints.length === 0 ? (
          <Empty>No endpoint yet. Add your app's URL above to be told when each analysis is ready.</Empty>
        ) : (
          <div className="table-wrap" tabIndex={0}>
            <table className="stack">
              <thead>
                <tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Added</th><th scope="col">Actions</th></tr>
              </thead>
              <tbody>
                {rows.map((w) => (
                  <tr key={w.webhook_id} aria-current={w.webhook_id === chosen ? "true" : undefined}>
                    <td className="wrap">{w.url}{w.description === null ? null : <><br /><small className="muted">{w.description}</small></>}</td>
                    <td data-label="Events">{w.events.join(", ")}</td>
                    <td data-label="State">
                      {w.status === "disabled"
                        ? <><Badge tone="bad">disabled</Badge> <small className="muted">{w.disabled_reason}</small></>
                        : w.failing_since !== null
                        ? <><Badge tone="warn">failing</Badge> <small className="muted">since <When at={w.failing_since} /></small></>
                        : <Badge tone="good">active</Badge>}
                    </td>
                    <td data-label="Added"><When at={w.created_at} /></td>
                    <td data-label="Actions">
                      <div className="row-actions">
                        <button type="button" className="secondary" onClick={() => setChosen(w.webhook_id)} aria-pressed={w.webhook_id === chosen}>
                          Deliveries
                        </button>
                        <ConfirmButton question={`Remove ${w.url}? Its deliveries go too.`} confirm="Remove" disabled={remove.isPending} onConfirm={() => remove.mutate(w)}>
                          Remove
                        </ConfirmButton>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pager}
      </Panel>
      {current === null ? null : <DeliveriesPanel key={current.webhook_id} endpoint={current} />}
      {list.data?.callback_secret == null ? null : (
        <Panel title="Callback secret">
          <ShownOnce label="The callback signing secret" value={list.data.callback_secret} copyLabel="Copy the callback secret">
            <p className="strong">The signing secret of your uploads' <code>callback_url</code> deliveries, shown this once:</p>
          </ShownOnce>
        </Panel>
      )}
    </>
  )
}

const DeliveriesPanel = ({ endpoint }: { readonly endpoint: Endpoint }) => {
  const queries = useQueryClient()
  const key = ["webhooks", endpoint.webhook_id, "deliveries"]
  const deliveries = useQuery({
    queryKey: key,
    queryFn: () => call((c) => c.webhooks.listWebhookDeliveries({ path: { webhook_id: endpoint.webhook_id }, urlParams: { limit: DELIVERIES } }))
  })
  const redeliver = useMutation({
    mutationFn: (delivery: Delivery) =>
      call((c) => c.webhooks.redeliverWebhook({ path: { webhook_id: endpoint.webhook_id, delivery_id: delivery.delivery_id } })),
    onSettled: () => queries.invalidateQueries({ queryKey: key })
  })
  const all = deliveries.data?.deliveries ?? []
  const { pager, rows } = usePaged(all, "Deliveries")
  const sentAgain = redeliver.data?.attempts.at(-1)
  return (
    <Panel title={`Deliveries to ${endpoint.url}`}>
      {redeliver.isSuccess && sentAgain !== undefined ? (
        <p role="status" className={redeliver.data.status === "delivered" ? "ok" : "failure"}>
          Sent again: {sentAgain.status_code === null ? "no answer" : `HTTP ${sentAgain.status_code}`}
          {sentAgain.error === null ? "" : ` (${sentAgain.error})`}, {redeliver.data.status}.
        </p>
      ) : null}
      <Failure error={redeliver.error} />
      {deliveries.isPending ? <Loading what="the deliveries" /> : deliveries.isError ? <Failure error={deliveries.error} /> : all.length === 0 ? (
        <Empty>Nothing sent to this endpoint yet. It gets a message when the next analysis completes; <Link href="/calls">upload a call</Link> to see one.</Empty>
      ) : (
        <ul className="meetings">
          {rows.map((d) => (
            <li key={d.delivery_id}>
              <p>
                <Badge tone={DELIVERY_TONE[d.status]}>{d.status}</Badge> <code>{d.event_type}</code>{" "}
                {d.call_id === null ? null : <Link href={callHref(d.call_id)}>the call</Link>} · <When at={d.created_at} />
                {d.next_attempt_at === null ? null : <> · next attempt <When at={d.next_attempt_at} /></>}
              </p>
              <details>
                <summary>{d.attempts.length} attempt{d.attempts.length === 1 ? "" : "s"} · <span className="mono">{d.delivery_id}</span></summary>
                <ol>
                  {d.attempts.map((a, i) => (
                    <li key={i}>
                      <When at={a.attempted_at} />: {a.status_code === null ? "no answer" : `HTTP ${a.status_code}`}
                      {a.error === null ? "" : `, ${a.error}`}, {Math.round(a.duration_ms)} ms{a.manual ? " (sent again by hand)" : ""}
                    </li>
                  ))}
                </ol>
              </details>
              <button type="button" className="secondary" disabled={redeliver.isPending || endpoint.status === "disabled"} onClick={() => redeliver.mutate(d)}>
                Send again
              </button>
            </li>
          ))}
        </ul>
      )}
      {pager}
      {endpoint.status === "disabled" ? <p className="muted">The endpoint is disabled: remove it and add it again to send to it.</p> : null}
    </Panel>
  )
}
