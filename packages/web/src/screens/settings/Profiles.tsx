/**
 * The team's two profiles, read and saved whole (a save replaces the profile: what the form leaves
 * blank is cleared). The market profile: industry, ideal customer profiles, regions, deal size and
 * currency, sales cycle, competitors, time zone (the daily brief's days). The lead-context
 * profile: lead sources, the qualification framework the calls are scored against, notes,
 * disqualifiers, and which channel of a stereo upload carries the rep. Every role may save them.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useMemo, useState } from "react"
import { Api, call, checked } from "../../api.js"
import { Failure, Field, Loading, OtherIssues, Panel, When } from "../../ui/kit.js"
import { defined, GroupIssues, lines, numberOf, scoped, text } from "./parts.js"

export const ProfilesSection = () => (
  <>
    <MarketProfilePanel />
    <LeadContextPanel />
  </>
)

// ---------------------------------------------------------------------------------------------
// Market profile

type MarketProfile = typeof Api.MarketProfile.Type

interface IcpDraft {
  readonly label: string
  readonly description: string
  readonly company_size: string
  readonly region: string
}

interface MarketDraft {
  readonly industry: string
  readonly sub_industry: string
  readonly icps: ReadonlyArray<IcpDraft>
  readonly regions: string
  readonly average_deal_size: string
  readonly currency: string
  readonly sales_cycle_days: string
  readonly competitors: string
  readonly time_zone: string
}

const NO_ICP: IcpDraft = { label: "", description: "", company_size: "", region: "" }

const marketDraft = (p: MarketProfile): MarketDraft => ({
  industry: p.industry ?? "",
  sub_industry: p.sub_industry ?? "",
  icps: p.icps.map((i) => ({ label: i.label, description: i.description ?? "", company_size: i.company_size ?? "", region: i.region ?? "" })),
  regions: p.regions.join("\n"),
  average_deal_size: p.average_deal_size === null ? "" : String(p.average_deal_size),
  currency: p.currency,
  sales_cycle_days: p.sales_cycle_days === null ? "" : String(p.sales_cycle_days),
  competitors: p.competitors.join("\n"),
  time_zone: p.time_zone ?? ""
})

const MARKET_FIELDS = ["industry", "sub_industry", "icps", "regions", "average_deal_size", "currency", "sales_cycle_days", "competitors", "time_zone"]

const MarketProfilePanel = () => {
  const profile = useQuery({ queryKey: ["market-profile"], queryFn: () => call((c) => c.clientPortal.getMarketProfile()) })
  return (
    <Panel title="Market profile">
      <p className="muted">What the team sells and to whom: the analysis, the value views and the daily brief read it.</p>
      {profile.isPending ? <Loading what="the market profile" /> : profile.isError ? <Failure error={profile.error} /> : (
        <MarketForm profile={profile.data} />
      )}
    </Panel>
  )
}

const MarketForm = ({ profile }: { readonly profile: MarketProfile }) => {
  const queries = useQueryClient()
  const [draft, setDraft] = useState<MarketDraft>(() => marketDraft(profile))
  const zones = useMemo(() => Intl.supportedValuesOf("timeZone"), [])
  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.MarketProfileRequest, values, (c, payload) => c.clientPortal.saveMarketProfile({ payload })),
    onSuccess: (saved) => {
      queries.setQueryData(["market-profile"], saved)
      setDraft(marketDraft(saved))
    }
  })
  const set = (name: Exclude<keyof MarketDraft, "icps">) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value })
  const setIcp = (at: number, name: keyof IcpDraft, value: string) =>
    setDraft({ ...draft, icps: draft.icps.map((row, i) => (i === at ? { ...row, [name]: value } : row)) })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    // rows left blank are dropped first, so the rows sent are the rows shown (and their issues land on them)
    const icps = draft.icps.filter((r) => Object.values(r).some((v) => v.trim() !== ""))
    setDraft({ ...draft, icps })
    save.mutate(defined({
      industry: text(draft.industry),
      sub_industry: text(draft.sub_industry),
      icps: icps.map((r) => defined({ label: r.label.trim(), description: text(r.description), company_size: text(r.company_size), region: text(r.region) })),
      regions: lines(draft.regions),
      average_deal_size: numberOf(draft.average_deal_size),
      currency: text(draft.currency)?.toUpperCase(),
      sales_cycle_days: numberOf(draft.sales_cycle_days),
      competitors: lines(draft.competitors),
      time_zone: text(draft.time_zone)
    }))
  }
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone
  return (
    <form className="wide" onSubmit={submit} aria-label="Market profile" noValidate>
      <div className="form-row">
        <Field label="Industry" name="industry" error={save.error}>{(p) => <input {...p} value={draft.industry} onChange={set("industry")} />}</Field>
        <Field label="Sub-industry" name="sub_industry" error={save.error}>{(p) => <input {...p} value={draft.sub_industry} onChange={set("sub_industry")} />}</Field>
      </div>
      <fieldset className="group">
        <legend>Ideal customer profiles</legend>
        {draft.icps.length === 0 ? <p className="muted">None yet: add the kinds of buyer the team sells to best.</p> : null}
        {draft.icps.map((row, i) => {
          const error = scoped(save.error, ["icps", i])
          return (
            <div className="group-row" key={i} role="group" aria-label={`Ideal customer profile ${i + 1}`}>
              <div className="form-row">
                <Field label="Label" name="label" error={error}>{(p) => <input {...p} value={row.label} onChange={(e) => setIcp(i, "label", e.target.value)} />}</Field>
                <Field label="Company size" name="company_size" error={error}>{(p) => <input {...p} value={row.company_size} placeholder="e.g. 50–200 people" onChange={(e) => setIcp(i, "company_size", e.target.value)} />}</Field>
                <Field label="Region" name="region" error={error}>{(p) => <input {...p} value={row.region} onChange={(e) => setIcp(i, "region", e.target.value)} />}</Field>
              </div>
              <Field label="Description" name="description" error={error}>{(p) => <textarea {...p} value={row.description} onChange={(e) => setIcp(i, "description", e.target.value)} />}</Field>
              <button type="button" className="secondary" onClick={() => setDraft({ ...draft, icps: draft.icps.filter((_, j) => j !== i) })}>
                Remove profile {i + 1}
              </button>
            </div>
          )
        })}
        <GroupIssues error={save.error} name="icps" />
        {draft.icps.length < 50 ? (
          <button type="button" className="secondary" onClick={() => setDraft({ ...draft, icps: [...draft.icps, NO_ICP] })}>Add an ideal customer profile</button>
        ) : null}
      </fieldset>
      <div className="form-row">
        <Field label="Average deal size" name="average_deal_size" error={save.error}>
          {(p) => <input {...p} inputMode="decimal" value={draft.average_deal_size} onChange={set("average_deal_size")} />}
        </Field>
        <Field label="Currency" name="currency" error={save.error} hint="Three letters, e.g. EUR">
          {(p) => <input {...p} maxLength={3} autoCapitalize="characters" value={draft.currency} onChange={set("currency")} />}
        </Field>
        <Field label="Sales cycle (days)" name="sales_cycle_days" error={save.error}>
          {(p) => <input {...p} inputMode="numeric" value={draft.sales_cycle_days} onChange={set("sales_cycle_days")} />}
        </Field>
      </div>
      <div className="form-row">
        <Field label="Regions" name="regions" error={save.error} hint="One a line">{(p) => <textarea {...p} value={draft.regions} onChange={set("regions")} />}</Field>
        <Field label="Competitors" name="competitors" error={save.error} hint="One a line">{(p) => <textarea {...p} value={draft.competitors} onChange={set("competitors")} />}</Field>
      </div>
      <Field label="Time zone" name="time_zone" error={save.error} hint={`The daily brief's days are this zone's (UTC when blank). Yours: ${here}.`}>
        {(p) => (
          <>
            <input {...p} list="time-zones" value={draft.time_zone} placeholder={here} onChange={set("time_zone")} />
            <datalist id="time-zones">{zones.map((z) => <option key={z} value={z} />)}</datalist>
          </>
        )}
      </Field>
      <OtherIssues error={save.error} fields={MARKET_FIELDS} />
      <Failure error={save.error} />
      <div className="row-actions">
        <button type="submit" disabled={save.isPending}>Save the market profile</button>
        {save.isSuccess ? <span role="status" className="ok">Saved.</span> : null}
        {profile.updated_at === null ? <span className="muted">Not saved yet.</span> : <span className="muted">Last saved <When at={profile.updated_at} />.</span>}
      </div>
    </form>
  )
}

// ---------------------------------------------------------------------------------------------
// Lead-context profile

type LeadContext = typeof Api.LeadContextProfile.Type

interface SourceDraft {
  readonly label: string
  readonly channel: string
}

interface LeadDraft {
  readonly lead_sources: ReadonlyArray<SourceDraft>
  readonly qualification_framework: string
  readonly ideal_customer_notes: string
  readonly disqualifiers: string
  readonly rep_channel: string
}

const leadDraft = (p: LeadContext): LeadDraft => ({
  lead_sources: p.lead_sources.map((s) => ({ label: s.label, channel: s.channel })),
  qualification_framework: p.qualification_framework,
  ideal_customer_notes: p.ideal_customer_notes ?? "",
  disqualifiers: p.disqualifiers.join("\n"),
  rep_channel: p.rep_channel
})

const LEAD_FIELDS = ["lead_sources", "qualification_framework", "ideal_customer_notes", "disqualifiers", "rep_channel"]

const LeadContextPanel = () => {
  const profile = useQuery({ queryKey: ["lead-context-profile"], queryFn: () => call((c) => c.clientPortal.getLeadContextProfile()) })
  return (
    <Panel title="Lead-context profile">
      <p className="muted">Where leads come from and how the team qualifies them: the calls are scored against this framework.</p>
      {profile.isPending ? <Loading what="the lead-context profile" /> : profile.isError ? <Failure error={profile.error} /> : (
        <LeadForm profile={profile.data} />
      )}
    </Panel>
  )
}

const LeadForm = ({ profile }: { readonly profile: LeadContext }) => {
  const queries = useQueryClient()
  const [draft, setDraft] = useState<LeadDraft>(() => leadDraft(profile))
  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.LeadContextProfileRequest, values, (c, payload) => c.clientPortal.saveLeadContextProfile({ payload })),
    onSuccess: (saved) => {
      queries.setQueryData(["lead-context-profile"], saved)
      setDraft(leadDraft(saved))
    }
  })
  const set = (name: Exclude<keyof LeadDraft, "lead_sources">) => (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value })
  const setSource = (at: number, name: keyof SourceDraft, value: string) =>
    setDraft({ ...draft, lead_sources: draft.lead_sources.map((row, i) => (i === at ? { ...row, [name]: value } : row)) })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const sources = draft.lead_sources.filter((r) => r.label.trim() !== "" || r.channel.trim() !== "")
    setDraft({ ...draft, lead_sources: sources })
    save.mutate(defined({
      lead_sources: sources.map((r) => ({ label: r.label.trim(), channel: r.channel.trim() })),
      qualification_framework: draft.qualification_framework,
      ideal_customer_notes: text(draft.ideal_customer_notes),
      disqualifiers: lines(draft.disqualifiers),
      rep_channel: draft.rep_channel
    }))
  }
  return (
    <form className="wide" onSubmit={submit} aria-label="Lead-context profile" noValidate>
      <fieldset className="group">
        <legend>Lead sources</legend>
        {draft.lead_sources.length === 0 ? <p className="muted">None yet: add where the team's leads come from; an outcome can then name its source.</p> : null}
        {draft.lead_sources.map((row, i) => {
          const error = scoped(save.error, ["lead_sources", i])
          return (
            <div className="group-row inline-row" key={i} role="group" aria-label={`Lead source ${i + 1}`}>
              <Field label="Label" name="label" error={error}>{(p) => <input {...p} value={row.label} onChange={(e) => setSource(i, "label", e.target.value)} />}</Field>
              <Field label="Channel" name="channel" error={error}>
                {(p) => <input {...p} list="lead-channels" value={row.channel} placeholder="inbound" onChange={(e) => setSource(i, "channel", e.target.value)} />}
              </Field>
              <button type="button" className="secondary" onClick={() => setDraft({ ...draft, lead_sources: draft.lead_sources.filter((_, j) => j !== i) })}>
                Remove source {i + 1}
              </button>
            </div>
          )
        })}
        <datalist id="lead-channels">{["inbound", "outbound", "referral", "partner", "event"].map((c) => <option key={c} value={c} />)}</datalist>
        <GroupIssues error={save.error} name="lead_sources" />
        {draft.lead_sources.length < 50 ? (
          <button type="button" className="secondary" onClick={() => setDraft({ ...draft, lead_sources: [...draft.lead_sources, { label: "", channel: "" }] })}>
            Add a lead source
          </button>
        ) : null}
      </fieldset>
      <div className="form-row">
        <Field label="Qualification framework" name="qualification_framework" error={save.error} hint="The analysis scores discovery against it">
          {(p) => (
            <select {...p} value={draft.qualification_framework} onChange={set("qualification_framework")}>
              <option value="MEDDPICC">MEDDPICC</option>
              <option value="BANT">BANT</option>
              <option value="SPIN">SPIN</option>
            </select>
          )}
        </Field>
        <Field label="Rep's channel in stereo uploads" name="rep_channel" error={save.error} hint="When an upload does not say">
          {(p) => (
            <select {...p} value={draft.rep_channel} onChange={set("rep_channel")}>
              <option value="auto">Decide from the call (auto)</option>
              <option value="left">Left</option>
              <option value="right">Right</option>
            </select>
          )}
        </Field>
      </div>
      <Field label="Ideal customer notes" name="ideal_customer_notes" error={save.error}>
        {(p) => <textarea {...p} value={draft.ideal_customer_notes} onChange={set("ideal_customer_notes")} />}
      </Field>
      <Field label="Disqualifiers" name="disqualifiers" error={save.error} hint="One a line, e.g. “no budget this year”">
        {(p) => <textarea {...p} value={draft.disqualifiers} onChange={set("disqualifiers")} />}
      </Field>
      <OtherIssues error={save.error} fields={LEAD_FIELDS} />
      <Failure error={save.error} />
      <div className="row-actions">
        <button type="submit" disabled={save.isPending}>Save the lead-context profile</button>
        {save.isSuccess ? <span role="status" className="ok">Saved.</span> : null}
        {profile.updated_at === null ? <span className="muted">Not saved yet.</span> : <span className="muted">Last saved <When at={profile.updated_at} />.</span>}
      </div>
    </form>
  )
}
