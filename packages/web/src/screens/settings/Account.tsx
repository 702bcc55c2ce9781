/**
 * The account's data: how long recordings and calls are kept (everyone reads it, owners and admins
 * change it), the export of everything (owners: a link the browser downloads, NDJSON), and closing
 * the account (owners: confirmed by typing the company's name; its keys stop at once and its data
 * is deleted after the grace period the answer states, unless the closing is cancelled before).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Effect } from "effect"
import { type FormEvent, useState } from "react"
import { Api, ApiError, call, checked, decodeBody } from "../../api.js"
import { isManager, ME_KEY, type Role, useMe } from "../../session.js"
import { Failure, Field, Loading, OtherIssues, Panel, When } from "../../ui/kit.js"
import { numberOf } from "./parts.js"

export const AccountSection = ({ role }: { readonly role: Role }) => (
  <>
    <RetentionPanel manager={isManager(role)} />
    {role === "owner" ? <ExportPanel /> : null}
    {role === "owner" ? <ClosePanel /> : null}
  </>
)

const days = (n: number | null) => (n === null ? "for ever" : `${n} day${n === 1 ? "" : "s"} after upload`)

const RetentionPanel = ({ manager }: { readonly manager: boolean }) => {
  const queries = useQueryClient()
  const retention = useQuery({ queryKey: ["retention"], queryFn: () => call((c) => c.account.getRetention()) })
  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.RetentionSettings, values, (c, payload) => c.account.saveRetention({ payload })),
    onSuccess: (saved) => queries.setQueryData(["retention"], saved)
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const value = (n: string) => numberOf(String(form.get(n) ?? "")) ?? null
    save.mutate({ audio_days: value("audio_days"), analysis_days: value("analysis_days") })
  }
  return (
    <Panel title="Retention">
      {retention.isPending ? <Loading what="the retention" /> : retention.isError ? <Failure error={retention.error} /> : (
        <>
          <dl className="pairs">
            <div><dt>Recordings are kept</dt><dd>{days(retention.data.audio_days)}</dd></div>
            <div><dt>Calls (analysis, transcript, report, outcome) are kept</dt><dd>{days(retention.data.analysis_days)}</dd></div>
            {retention.data.updated_at === null ? null : <div><dt>Changed</dt><dd><When at={retention.data.updated_at} /></dd></div>}
          </dl>
          {manager ? (
            <form key={retention.data.updated_at ?? "default"} onSubmit={submit} aria-label="Retention" noValidate>
              <p className="muted">A pass runs regularly and removes what is older. Without its recording a call keeps its analysis but cannot be analysed again.</p>
              <div className="form-row">
                <Field label="Keep recordings (days)" name="audio_days" error={save.error} hint="Blank: for ever">
                  {(p) => <input {...p} inputMode="numeric" defaultValue={retention.data.audio_days ?? ""} />}
                </Field>
                <Field label="Keep calls (days)" name="analysis_days" error={save.error} hint="Blank: for ever">
                  {(p) => <input {...p} inputMode="numeric" defaultValue={retention.data.analysis_days ?? ""} />}
                </Field>
              </div>
              <OtherIssues error={save.error} fields={["audio_days", "analysis_days"]} />
              <Failure error={save.error} />
              <div className="row-actions">
                <button type="submit" disabled={save.isPending}>Save the retention</button>
                {save.isSuccess ? <span role="status" className="ok">Saved.</span> : null}
              </div>
            </form>
          ) : <p className="muted">Owners and admins change how long the data is kept.</p>}
        </>
      )}
    </Panel>
  )
}

const ExportPanel = () => (
  <Panel title="Export">
    <p>
      Everything the account holds, one record a line (NDJSON): the profiles and settings, members, closers, every call with its analysis,
      outcomes, audits, the credit ledger and the audit log. No secret is in it (no key, token or webhook secret).
    </p>
    <a className="button" href="/v1/client-portal/export" download>Download the account's data</a>
  </Panel>
)

const ClosePanel = () => {
  const me = useMe()
  const queries = useQueryClient()
  const company = me.data?.company_name ?? ""
  // the closing as `me` says it (so it shows on every visit), with the keys revoked when it was just done here
  const [closed, setClosed] = useState<typeof Api.ClosingAccount.Type | null>(null)
  const known = me.data?.account_closing ?? null
  const closing = closed ?? (known === null ? null : { deleted_after: known.deleted_after, api_keys_revoked: null })
  const close = useMutation({
    mutationFn: (typed: string) =>
      call((c) => Effect.flatMap(
        // the same words as the service's 409, but at the field and before anything is sent
        Effect.flatMap(decodeBody(Api.CloseAccountRequest, { company_name: typed }), (body) =>
          body.company_name === company
            ? Effect.succeed(body)
            : Effect.fail(new ApiError("ValidationFailed", "Some fields are not valid.", [{ loc: ["body", "company_name"], msg: `type the company's name exactly: ${company}` }]))),
        (payload) => c.account.closeAccount({ payload })
      )),
    onSuccess: (done) => {
      setClosed(done)
      keep.reset()
      return queries.invalidateQueries({ queryKey: ME_KEY })
    }
  })
  const keep = useMutation({
    mutationFn: () => call((c) => c.account.cancelClosing()),
    onSuccess: () => {
      setClosed(null)
      close.reset()
      return queries.invalidateQueries({ queryKey: ME_KEY })
    }
  })
  return (
    <Panel title="Close the account">
      {closing === null ? (
        <>
          <p>
            Closing stops every API key at once. The team can still sign in and export the data during a grace period; then all the account's
            data, recordings and calls are deleted for good.
          </p>
          {keep.isSuccess ? <p role="status" className="ok">The account is kept: nothing will be deleted.</p> : null}
          <form onSubmit={(e) => { e.preventDefault(); close.mutate(String(new FormData(e.currentTarget).get("company_name") ?? "")) }} aria-label="Close the account" noValidate>
            <Field label={`Type the company's name, ${company}, to confirm`} name="company_name" error={close.error}>
              {(p) => <input {...p} autoComplete="off" spellCheck={false} />}
            </Field>
            <OtherIssues error={close.error} fields={["company_name"]} />
            <Failure error={close.error} />
            <div className="row-actions">
              <button type="submit" className="danger" disabled={close.isPending}>Close the account</button>
            </div>
          </form>
        </>
      ) : (
        <>
          <div className="callout" role="alert">
            <p className="strong">The account is closing.</p>
            <p>
              {closing.api_keys_revoked === null ? "Its API keys were revoked." : `${closing.api_keys_revoked} API key${closing.api_keys_revoked === 1 ? " was" : "s were"} revoked.`}{" "}
              All the data will be deleted after <When at={closing.deleted_after} />; until then you can still sign in and export it, or keep the account.
            </p>
          </div>
          <h3>Keep the account</h3>
          <p className="muted">
            While the account is closing, an owner can keep it: nothing is deleted. The API keys revoked at closing stay revoked: create new ones.
          </p>
          <Failure error={keep.error} />
          <button type="button" className="secondary" disabled={keep.isPending} onClick={() => keep.mutate()}>Keep the account (cancel the closing)</button>
        </>
      )}
    </Panel>
  )
}
