/**
 * Value: the plan and this month's usage with the way to upgrade and to buy credits (plan-usage's
 * upgrade links and its credit pack open the payment platform's checkout: links the browser
 * follows, owners and admins only), and for managers the value delivered over 90 days with the ROI
 * and every assumption it rests on, the ROI digest, and the quarterly review pack (each closer's
 * progress and the calls worth reviewing).
 * A member sees the plan and its usage only (the policy: the value views are the managers').
 */
import { useQuery } from "@tanstack/react-query"
import { Link } from "wouter"
import { Api, call } from "../api.js"
import { isManager, useMe } from "../session.js"
import { Empty, Failure, Loading, Page, Panel, Score, When } from "../ui/kit.js"
import { num, pct, signed, Stats, Tabs, Trend, Words } from "./Coaching/parts.js"
import { callHref } from "./Workspace/links.js"

const TABS = [
  { href: "/value", label: "Plan and value", exact: true },
  { href: "/value/digest", label: "ROI digest" },
  { href: "/value/review", label: "Review pack" }
]

const ValueTabs = () => {
  const me = useMe()
  return isManager(me.data?.role) ? <Tabs label="Value" tabs={TABS} /> : null
}

const day = (at: string) => new Date(at).toLocaleDateString()

/** A link the browser may follow: the web only (never `javascript:` or the like). */
const webUrl = (url: string) => {
  try {
    const u = new URL(url, window.location.origin)
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null
  } catch {
    return null
  }
}

const PLAN_NAME: Record<string, string> = { trial: "Trial", starter: "Starter", growth: "Growth", scale: "Scale" }

export const ValueScreen = () => {
  const me = useMe()
  const manager = isManager(me.data?.role)
  return (
    <Page title={manager ? "Value" : "Plan and usage"}>
      <ValueTabs />
      <PlanUsagePanel manager={manager} />
      {manager ? <CustomerValuePanel /> : null}
    </Page>
  )
}

const PlanUsagePanel = ({ manager }: { readonly manager: boolean }) => {
  const usage = useQuery({ queryKey: ["value", "plan-usage"], queryFn: () => call((c) => c.clientPortal.getPlanUsage()) })
  if (usage.isPending) return <Panel title="Plan and usage"><Loading what="the plan's usage" /></Panel>
  if (usage.isError) return <Panel title="Plan and usage"><Failure error={usage.error} /></Panel>
  const u = usage.data
  const allowance = u.ingests_included + u.bonus_ingests
  const links = u.upgrade_links.flatMap((l) => {
    const href = webUrl(l.url)
    return href === null ? [] : [{ plan: l.plan, href }]
  })
  return (
    <Panel title={`${PLAN_NAME[u.plan] ?? u.plan} plan, ${u.month}`}>
      <p>
        <strong>{u.ingests_used}</strong> of {allowance} analyses used this month{u.bonus_ingests > 0 ? ` (${u.ingests_included} in the plan and ${u.bonus_ingests} granted)` : ""}
        {u.ingests_in_progress > 0 ? `, ${u.ingests_in_progress} in progress` : ""}.
      </p>
      <meter className="usage" min={0} max={100} low={70} high={90} optimum={0} value={Math.min(100, u.usage_pct)} aria-label="Share of the month's analyses used">{num(u.usage_pct)} %</meter>
      <Stats items={[["Remaining this month", u.remaining], ["Used", `${num(u.usage_pct)} %`], ["Credits", u.credits_balance], ["Month", `${day(u.period_start)} – ${day(new Date(Date.parse(u.period_end) - 1).toISOString())}`]]} />
      <h3>Upgrade</h3>
      {!manager ? (
        <p className="muted">An owner or admin of your account can upgrade the plan or buy credits.</p>
      ) : links.length === 0 ? (
        <p className="muted">{u.plan === "scale" ? "You are on the largest plan." : "Online upgrades are not set up for this service: contact Callsight to change your plan."}</p>
      ) : (
        <ul className="upgrades">
          {links.map((l) => (
            <li key={l.plan}>
              <a className="button" href={l.href}>Upgrade to {PLAN_NAME[l.plan] ?? l.plan}</a>
            </li>
          ))}
        </ul>
      )}
      {manager ? <BuyCredits pack={u.credit_pack} balance={u.credits_balance} /> : null}
      {manager && (links.length > 0 || u.credit_pack !== null) ? <p className="muted">The checkout opens at the payment platform; you come back here once paid.</p> : null}
    </Panel>
  )
}

/** Buying credits (owners and admins): plan-usage's credit pack, a checkout the browser follows, when the service sells one. */
const BuyCredits = ({ balance, pack }: { readonly pack: typeof Api.PlanUsage.Type["credit_pack"]; readonly balance: number }) => {
  const href = pack === null ? null : webUrl(pack.url)
  return (
    <>
      <h3>Buy credits</h3>
      <p className="muted">Each upload through the API or this app takes a credit once analysed; you have {balance} left.</p>
      {pack === null || href === null ? (
        <p className="muted">Buying credits online is not set up for this service: contact Callsight to add credits.</p>
      ) : (
        <p><a className="button" href={href}>Buy {pack.credits} credits</a></p>
      )}
    </>
  )
}

type Value = typeof Api.ValueDelivered.Type
type Roi = typeof Api.RoiEstimate.Type

const ValueFigures = ({ value }: { readonly value: Value }) => (
  <>
    <Stats
      items={[
        ["Calls analysed", value.calls_analysed],
        ["Hours analysed", num(value.hours_analysed)],
        ["Coaching moments", value.coaching_moments],
        ["Average score", <span key="s"><Score value={value.average_score} /> <span className="muted">({signed(value.score_change)})</span></span>],
        ["Win rate", <span key="w">{pct(value.win_rate)} <span className="muted">(of {value.win_rate_sample} decided)</span></span>],
        ["Deals won / lost", `${value.deals_won} / ${value.deals_lost}`],
        ["Outcomes recorded", value.outcomes_recorded]
      ]}
    />
    <Trend points={value.score_trend} />
  </>
)

const money = (n: number | null, currency: string) => {
  if (n === null) return "—"
  try {
    return n.toLocaleString(undefined, { style: "currency", currency, maximumFractionDigits: 0 })
  } catch {
    return `${num(n, 0)} ${currency}`
  }
}

/** The ROI's figures by their key, as the figures above name them. */
const FIGURE_WORDS: Record<string, string> = {
  manager_hours_saved: "Manager hours saved",
  manager_time_value: "Their time's value",
  win_rate_change: "Win-rate change",
  average_deal_size: "Average deal size",
  win_rate_value: "Value of the win rate",
  plan_cost: "Plan cost",
  net_value: "Net value",
  roi_multiple: "ROI multiple"
}

const SOURCE_WORDS: Record<string, string> = { default: "default", market_profile: "your market profile", outcome_truth: "your recorded outcomes", plan: "your plan" }

const RoiFigures = ({ roi }: { readonly roi: Roi }) => (
  <>
    <Stats
      items={[
        ["Manager hours saved", num(roi.manager_hours_saved)],
        ["Their time's value", money(roi.manager_time_value, roi.currency)],
        ["Win-rate change", roi.win_rate_change === null ? "—" : `${signed(roi.win_rate_change * 100)} points`],
        ["Value of the win rate", money(roi.win_rate_value, roi.currency)],
        ["Plan cost", money(roi.plan_cost, "USD")],
        ["Net value", money(roi.net_value, roi.currency)],
        ["ROI multiple", roi.roi_multiple === null ? "—" : `${num(roi.roi_multiple)}×`]
      ]}
    />
    <h3>Assumptions</h3>
    <div className="table-wrap" tabIndex={0}>
      <table>
        <thead><tr><th scope="col">Assumption</th><th scope="col">Value</th><th scope="col">From</th></tr></thead>
        <tbody>
          {roi.assumptions.map((a) => (
            <tr key={a.key}>
              <td>{a.label}</td>
              <td>{num(a.value, 2)} {a.unit}</td>
              <td>{SOURCE_WORDS[a.source] ?? a.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    {roi.unavailable.length === 0 ? null : (
      <>
        <h3>Not computed</h3>
        <ul className="plain">
          {roi.unavailable.map((u) => <li key={u.figure}><strong>{FIGURE_WORDS[u.figure] ?? <Words of={u.figure} />}</strong>: {u.reason}</li>)}
        </ul>
      </>
    )}
  </>
)

const CustomerValuePanel = () => {
  const value = useQuery({ queryKey: ["value", "customer"], queryFn: () => call((c) => c.clientPortal.getCustomerValue()) })
  if (value.isPending) return <Panel title="Value delivered"><Loading what="the value delivered" /></Panel>
  if (value.isError) return <Panel title="Value delivered"><Failure error={value.error} /></Panel>
  const v = value.data
  return (
    <>
      <Panel title={`Value delivered, ${day(v.period_start)} – ${day(v.period_end)}`}>
        {v.value.calls_analysed === 0 ? <Empty>No call analysed in the last 90 days. Upload recordings from <Link href="/calls">Calls</Link> to see what they are worth here.</Empty> : <ValueFigures value={v.value} />}
      </Panel>
      <Panel title="Return on investment">
        <RoiFigures roi={v.roi} />
      </Panel>
    </>
  )
}

/** The ROI views are the managers' (the policy); a member who follows a link here is told so. */
const ManagersOnly = ({ title }: { readonly title: string }) => (
  <Page title={title}>
    <p>This view is for the account's owners and admins. <Link href="/value">See the plan and its usage</Link>.</p>
  </Page>
)

export const DigestScreen = () => {
  const me = useMe()
  return me.data !== undefined && !isManager(me.data.role) ? <ManagersOnly title="ROI digest" /> : <Digest />
}

const Digest = () => {
  const digest = useQuery({ queryKey: ["value", "digest"], queryFn: () => call((c) => c.clientPortal.getCustomerRoiDigest()) })
  return (
    <Page title="ROI digest">
      <ValueTabs />
      {digest.isPending ? <Loading what="the digest" /> : digest.isError ? <Failure error={digest.error} /> : (
        <>
          <Panel title={digest.data.headline}>
            <p className="muted">{day(digest.data.period_start)} – {day(digest.data.period_end)}, made <When at={digest.data.generated_at} /></p>
            {digest.data.highlights.length === 0 ? <p className="muted">No highlight yet.</p> : <ul>{digest.data.highlights.map((h, i) => <li key={i}>{h}</li>)}</ul>}
          </Panel>
          <Panel title="The figures">
            <ValueFigures value={digest.data.value} />
          </Panel>
          <Panel title="Return on investment">
            <RoiFigures roi={digest.data.roi} />
          </Panel>
        </>
      )}
    </Page>
  )
}

export const ReviewPackScreen = () => {
  const me = useMe()
  return me.data !== undefined && !isManager(me.data.role) ? <ManagersOnly title="Quarterly review pack" /> : <ReviewPack />
}

const ReviewPack = () => {
  const pack = useQuery({ queryKey: ["value", "review-pack"], queryFn: () => call((c) => c.clientPortal.getCustomerRoiReviewPack()) })
  return (
    <Page title="Quarterly review pack">
      <ValueTabs />
      {pack.isPending ? <Loading what="the review pack" /> : pack.isError ? <Failure error={pack.error} /> : (
        <>
          <Panel title={pack.data.headline}>
            <p className="muted">{day(pack.data.period_start)} – {day(pack.data.period_end)}</p>
            {pack.data.highlights.length === 0 ? null : <ul>{pack.data.highlights.map((h, i) => <li key={i}>{h}</li>)}</ul>}
          </Panel>
          <Panel title="Each closer's progress">
            {pack.data.closers.length === 0 ? <Empty>No closer has an analysed call in the period. Add your reps as closers and upload their calls.</Empty> : (
              <div className="table-wrap" tabIndex={0}>
                <table>
                  <thead><tr><th scope="col">Closer</th><th scope="col">Calls</th><th scope="col">Average</th><th scope="col">Change</th><th scope="col">Weakest</th><th scope="col">Win rate</th></tr></thead>
                  <tbody>
                    {pack.data.closers.map((c) => (
                      <tr key={c.email}>
                        <td>{c.full_name ?? c.email}{c.full_name === null ? null : <><br /><span className="muted">{c.email}</span></>}</td>
                        <td>{c.calls_analysed}</td>
                        <td><Score value={c.average_score} /></td>
                        <td>{signed(c.score_change)}</td>
                        <td>{c.weakest_dimension === null ? <span className="muted">—</span> : <Words of={c.weakest_dimension} />}</td>
                        <td>{pct(c.win_rate)} <span className="muted">(n = {c.win_rate_sample})</span></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Panel>
          <Panel title="Calls worth reviewing">
            {pack.data.calls_to_review.length === 0 ? <p className="muted">None in the period.</p> : (
              <ul className="plain">
                {pack.data.calls_to_review.map((r) => (
                  <li key={r.call_id}>
                    <Link href={callHref(r.call_id)}>{r.external_call_id ?? r.call_id}</Link> <Score value={r.overall_score} />{" "}
                    <span className="muted">{r.closer_email ?? "no closer"} · {r.reason}{r.outcome === null ? "" : ` · ${r.outcome}`}</span>
                  </li>
                ))}
              </ul>
            )}
          </Panel>
          <Panel title="Return on investment">
            <RoiFigures roi={pack.data.roi} />
          </Panel>
        </>
      )}
    </Page>
  )
}
