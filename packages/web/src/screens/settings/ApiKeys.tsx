/**
 * API keys (owners and admins): the tenant's keys by prefix, a new key (shown once, with a copy
 * button and a warning: the service keeps only its hash), and revocation.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { Api, call, checked } from "../../api.js"
import { Empty, Failure, Field, Loading, OtherIssues, Panel, When } from "../../ui/kit.js"
import { Badge, ConfirmButton, ShownOnce, usePaged } from "./parts.js"

type CreatedKey = typeof Api.CreatedApiKey.Type

export const ApiKeysSection = () => {
  const queries = useQueryClient()
  const keys = useQuery({ queryKey: ["api-keys"], queryFn: () => call((c) => c.extensions.listApiKeys()) })
  const [fresh, setFresh] = useState<CreatedKey | null>(null)
  const [round, setRound] = useState(0)
  const [showRevoked, setShowRevoked] = useState(false)
  const create = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.CreateApiKeyRequest, values, (c, payload) => c.extensions.createApiKey({ payload })),
    onSuccess: (created) => {
      setFresh(created)
      setRound((n) => n + 1)
      return queries.invalidateQueries({ queryKey: ["api-keys"] })
    }
  })
  const revoke = useMutation({
    mutationFn: (key: { readonly key_id: typeof Api.KeyId.Type }) => call((c) => c.extensions.revokeApiKey({ path: { key_id: key.key_id } })),
    onSettled: () => queries.invalidateQueries({ queryKey: ["api-keys"] })
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setFresh(null)
    create.mutate({ name: String(new FormData(e.currentTarget).get("name") ?? "").trim() })
  }
  const all = keys.data?.keys ?? []
  const revokedCount = all.filter((k) => k.revoked_at !== null).length
  const shown = showRevoked ? all : all.filter((k) => k.revoked_at === null)
  const { pager, rows } = usePaged(shown, "API keys")
  return (
    <>
      <Panel title="API keys">
        <p className="muted">
          A key lets a program act for the whole account: upload calls, read their analyses and reports, manage webhooks. Give each program its own
          key, so you can revoke one without stopping the others.
        </p>
        <form key={round} className="spaced" onSubmit={submit} aria-label="Create an API key" noValidate>
          <Field label="Name of the new key" name="name" error={create.error} hint="Who uses it, e.g. “CRM sync”">{(p) => <input {...p} autoComplete="off" maxLength={100} />}</Field>
          <OtherIssues error={create.error} fields={["name"]} />
          <Failure error={create.error} />
          <div className="row-actions"><button type="submit" disabled={create.isPending}>Create a key</button></div>
        </form>
        {fresh === null ? null : (
          <ShownOnce label="The new API key" value={fresh.api_key} copyLabel="Copy the key" onHide={() => setFresh(null)}>
            <p className="strong">Copy the key “{fresh.name}” now: it is shown this once.</p>
            <p>Callsight keeps only a hash of it; if you lose it, revoke it and create another.</p>
          </ShownOnce>
        )}
        {revoke.isSuccess ? <p role="status" className="ok">The key {revoke.data.name} ({revoke.data.prefix}…) is revoked: it no longer works.</p> : null}
        <Failure error={revoke.error} />
        {keys.isPending ? <Loading what="the keys" /> : keys.isError ? <Failure error={keys.error} /> : shown.length === 0 ? (
          <Empty>{all.length === 0 ? "No API key yet. Name one above to create it, then give it to the program that uploads your calls." : "Every key is revoked. Create one above."}</Empty>
        ) : (
          <div className="table-wrap" tabIndex={0}>
            <table className="stack">
              <thead>
                <tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr>
              </thead>
              <tbody>
                {rows.map((k) => (
                  <tr key={k.key_id}>
                    <td>{k.name}</td>
                    <td data-label="Starts with" className="mono">{k.prefix}…</td>
                    <td data-label="Created"><When at={k.created_at} /></td>
                    <td data-label="Last used"><When at={k.last_used_at} /></td>
                    <td data-label="State">
                      {k.revoked_at === null ? (
                        <ConfirmButton question={`Revoke ${k.name}? Programs using it stop at once.`} confirm="Revoke" disabled={revoke.isPending} onConfirm={() => revoke.mutate(k)}>
                          Revoke
                        </ConfirmButton>
                      ) : <><Badge tone="bad">revoked</Badge> <small className="muted"><When at={k.revoked_at} /></small></>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pager}
        {revokedCount === 0 ? null : (
          <label className="check">
            <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} /> Show the {revokedCount} revoked key{revokedCount === 1 ? "" : "s"}
          </label>
        )}
      </Panel>
    </>
  )
}
