/**
 * `GET /portal`: the page a signed-in user lands on (the sign-in link opens it). Server-rendered
 * HTML, no framework, no external assets, every value escaped: the daily brief, the account
 * cockpit, the latest calls with links to their reports, and each closer's coaching focus. It reads
 * the same views the API answers (one implementation each). Without a live session cookie it
 * sends the browser to `/sign-in`, which asks for a link by e-mail.
 */
import {
  type AccountCockpit,
  type ClientId,
  type CoachingDashboard as CoachingDashboardBody,
  type DailyBrief,
  type Sees,
  SESSION_COOKIE
} from "@callsight/api-spec"
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { DIMENSION_LABELS } from "@callsight/analysis/light"
import { CallViews } from "../calls/CallViews.js"
import { inlineScript, inlineStyle } from "../http/SecurityHeaders.js"
import { escapeHtml as e, FAVICON_LINK } from "../lib/Html.js"
import { accessOf } from "../tenancy/Policy.js"
import { seesWhere } from "../tenancy/Sees.js"
import { SessionsRepo } from "../tenancy/SessionsRepo.js"
import { CoachingDashboard } from "../views/CoachingDashboard.js"
import { ValueViews } from "../views/ValueViews.js"
import { AccountViews } from "../views/AccountViews.js"

type Cockpit = typeof AccountCockpit.Type
type Brief = typeof DailyBrief.Type
type Dashboard = typeof CoachingDashboardBody.Type
interface CallRow {
  readonly call_id: string
  readonly external_call_id: string | null
  readonly status: string
  readonly created_at: string
  readonly duration_s: number | null
  readonly overall_score: number | null
}

const MOMENTS: Record<string, string> = {
  best_score: "Best call",
  lowest_score: "Weakest call",
  objection_unexplored: "Objection not explored"
}

const score = (s: number | null) => (s === null ? "–" : String(Math.round(s)))
const minutes = (s: number | null) => (s === null ? "–" : `${Math.max(1, Math.round(s / 60))} min`)
const day = (iso: string) => iso.slice(0, 16).replace("T", " ")
const reportLink = (callId: string) => `/v1/client-portal/calls/${encodeURIComponent(callId)}/report`

const list = (items: ReadonlyArray<string>, empty: string) =>
  items.length === 0 ? `<p class="muted">${e(empty)}</p>` : `<ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul>`

const briefSection = (b: Brief) => `
<section><h2>Daily brief <span class="muted">· ${e(b.date)}</span></h2>
<p class="figures"><b>${b.calls.length}</b> ${b.calls.length === 1 ? "call" : "calls"} yesterday · <b>${b.calls_analysed}</b> analysed · average score <b>${score(b.average_score)}</b></p>
<h3>Today's suggested actions</h3>
${list(b.suggested_actions.map((a) => a.url === null || a.url.includes("/outcome-truth") || a.url.includes("/send-verification")
  ? e(a.label)
  : `<a href="${e(a.url.replace(/^https?:\/\/[^/]+/, ""))}">${e(a.label)}</a>`), "Nothing to do: no call needs you today.")}
<h3>Notable moments</h3>
${list(b.notable_moments.map((m) =>
  `${e(MOMENTS[m.kind] ?? m.kind.replace(/_/g, " "))}: ${e(m.quote ?? "")} <span class="muted">(${e(m.closer_email ?? "no closer")}, <a href="${reportLink(m.call_id)}">report</a>)</span>`),
  "No call yesterday.")}
<h3>Deals at risk</h3>
${list(b.deals_at_risk.map((d) =>
  `<span class="risk ${e(d.risk)}">${e(d.risk)}</span> ${e(d.reasons.join("; "))} <span class="muted">(${e(d.closer_email ?? "no closer")}, <a href="${reportLink(d.call_id)}">report</a>)</span>`),
  "No open deal looks at risk.")}
</section>`

const cockpitSection = (c: Cockpit) => `
<section><h2>Account</h2>
<table class="kv">
<tr><th>Plan</th><td>${e(c.plan)}</td><th>Credits</th><td>${c.credits_balance}</td></tr>
<tr><th>This month</th><td>${c.month.ingests_used} of ${c.month.ingests_included} calls</td><th>Average score</th><td>${score(c.average_score)}</td></tr>
<tr><th>Closers</th><td>${c.closers_by_status.active} active, ${c.closers_by_status.pending_verification} pending</td>
<th>Integrations</th><td>${c.integrations.calendar_connected} calendars, ${c.integrations.video_connected} video tools${c.integrations.recorder_active ? ", recorder on" : ""}</td></tr>
</table>
<h3>Open alerts</h3>
${list(c.open_alerts.map((a) => `<span class="risk ${a.severity === "critical" ? "high" : "medium"}">${e(a.severity)}</span> ${e(a.message)} <span class="muted">${e(a.fix_hint ?? "")}</span>`), "None.")}
</section>`

const callsSection = (calls: ReadonlyArray<CallRow>) => `
<section><h2>Latest calls</h2>
${calls.length === 0 ? `<p class="muted">No call yet: upload one with the API or the CLI.</p>` : `<table>
<thead><tr><th>Call</th><th>Created</th><th>Length</th><th>Status</th><th>Score</th><th></th></tr></thead><tbody>
${calls.map((c) => `<tr><td>${e(c.external_call_id ?? c.call_id)}</td><td>${e(day(c.created_at))}</td><td>${minutes(c.duration_s)}</td>
<td>${e(c.status)}</td><td>${score(c.overall_score)}</td><td>${c.status === "completed" ? `<a href="${reportLink(c.call_id)}">report</a>` : ""}</td></tr>`).join("")}
</tbody></table>`}
</section>`

const coachingSection = (d: Dashboard) => `
<section><h2>Coaching focus <span class="muted">· week of ${e(d.week_start)}</span></h2>
${d.closers.length === 0 ? `<p class="muted">No closer yet.</p>` : `<table>
<thead><tr><th>Closer</th><th>Calls this week</th><th>Average</th><th>This week's focus</th><th>To read</th></tr></thead><tbody>
${d.closers.map((c) => `<tr><td>${e(c.full_name)}</td><td>${c.calls_this_week}</td><td>${score(c.average_score)}</td>
<td>${c.focus === null ? `<span class="muted">no scored call yet</span>` : `${e(DIMENSION_LABELS[c.focus.dimension])} ${score(c.focus.average_score)} <span class="muted">(team ${score(c.focus.team_average_score)})</span>`}</td>
<td>${c.focus === null ? "" : e(c.focus.article_title ?? c.focus.article_slug ?? "")}</td></tr>`).join("")}
</tbody></table>`}
</section>`

// The page's style and script, fixed text allowed by their hashes (http/SecurityHeaders.ts).
const STYLE = inlineStyle(`
body{margin:0;background:#f1f5f9;color:#0f172a;font:15px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
header{background:#0f172a;color:#e2e8f0;padding:14px 28px;display:flex;justify-content:space-between;align-items:center}
header b{color:#fff}main{max-width:1080px;margin:0 auto;padding:20px 28px;display:grid;gap:18px}
section{background:#fff;border-radius:12px;padding:18px 22px;box-shadow:0 4px 14px rgba(15,23,42,.06)}
h2{margin:0 0 10px;font-size:18px}h3{margin:14px 0 6px;font-size:14px;color:#334155}
.muted{color:#64748b}.figures b{font-size:17px}ul{margin:0;padding-left:18px}li{margin:3px 0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e2e8f0;font-size:14px}
table.kv th{color:#64748b;font-weight:500;width:16%}a{color:#1d4ed8}
.risk{display:inline-block;border-radius:6px;padding:0 6px;font-size:12px;text-transform:uppercase}
.risk.high{background:#fee2e2;color:#991b1b}.risk.medium{background:#fef3c7;color:#92400e}.risk.low{background:#e0f2fe;color:#075985}
button{background:none;border:1px solid #475569;color:#e2e8f0;border-radius:6px;padding:4px 10px;cursor:pointer}
`)

const SIGN_OUT = inlineScript(`
document.getElementById("signout").addEventListener("click", function () {
  fetch("/v1/client-auth/logout", { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: "{}" })
    .then(function () { location.replace("/sign-in") })
})
`)

const page = (o: { readonly company: string; readonly email: string; readonly body: string }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${e(o.company)} · Callsight</title>
${FAVICON_LINK}
${STYLE}</head>
<body><header><span><b>Callsight</b> · ${e(o.company)}</span><span>${e(o.email)} <button id="signout">Sign out</button></span></header>
<main>${o.body}</main>
${SIGN_OUT}</body></html>`

export const PortalPageLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const sessions = yield* SessionsRepo
    const account = yield* AccountViews
    const value = yield* ValueViews
    const coaching = yield* CoachingDashboard
    const calls = yield* CallViews

    /** The page of `email`, a user who sees the calls `sees` sees (the policy of the views it shows: a rep, their own). */
    const render = (clientId: ClientId, email: string, sees: Sees) =>
      Effect.gen(function* () {
        const [cockpit, brief, dashboard, latest] = yield* Effect.all([
          account.cockpit(clientId, sees),
          value.dailyBrief(clientId, sees),
          coaching.compute(clientId, sees),
          calls.list(clientId, { limit: 10 }, sees).pipe(Effect.orDie)
        ], { concurrency: 4 })
        return page({
          company: cockpit.company_name,
          email,
          body: briefSection(brief) + cockpitSection(cockpit) + callsSection(latest.calls) + coachingSection(dashboard)
        })
      })

    yield* router.get(
      "/portal",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = request.cookies[SESSION_COOKIE] ?? ""
        const session = token === "" ? Option.none() : yield* Effect.orDie(sessions.use(token))
        if (Option.isNone(session)) return HttpServerResponse.redirect("/sign-in", { status: 302 })
        const { closerEmail, user } = session.value
        // the page shows the cockpit, the brief, the coaching dashboard and the calls: as the policy lets the role see them
        const access = accessOf("clientPortal.getAccountCockpit", user.role)
        const html = yield* render(user.clientId, user.email, seesWhere(access === "self" ? "self" : "allowed", closerEmail))
        return HttpServerResponse.html(html).pipe(HttpServerResponse.setHeader("cache-control", "no-store"))
      })
    )
  })
).pipe(Layer.provide([SessionsRepo.Default, AccountViews.Default, ValueViews.Default, CoachingDashboard.Default, CallViews.Default]))
