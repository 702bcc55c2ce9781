/**
 * Coaching: the person's onboarding steps (the welcome, the oath and its commitments, the wiki, and
 * for managers a first manual audit), the dashboard (the team's and each closer's score trend, this
 * week's focus with the article that teaches it, the calls worth reviewing, and how far the machine
 * is from the managers' own audits), the wiki (Markdown articles rendered as elements, the reading
 * progress recorded as the reader scrolls or marks the article read) and the manual audits, machine
 * against manual. A member (a rep) sees their own figures and audits: the service narrows them.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Effect } from "effect"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { Link, useParams } from "wouter"
import { Api, ApiError, call, decodeBody } from "../api.js"
import { isManager, useMe } from "../session.js"
import { Empty, Failure, Field, Loading, OtherIssues, Page, Pager, Panel, Score, When } from "../ui/kit.js"
import { Markdown } from "./Coaching/Markdown.js"
import { num, signed, Stats, Trend, Words } from "./Coaching/parts.js"
import { CoachingTabs } from "./Coaching/tabs.js"
import { callHref, callName } from "./Workspace/links.js"


const statusKey = ["coaching", "status"]

// ---------------------------------------------------------------------------------------------
// The dashboard, with the onboarding steps above it

export const CoachingScreen = () => {
  const me = useMe()
  const manager = isManager(me.data?.role)
  const dashboard = useQuery({ queryKey: ["coaching", "dashboard"], queryFn: () => call((c) => c.coaching.getCoachingDashboard()) })
  return (
    <Page title="Coaching">
      <CoachingTabs />
      <Steps />
      {dashboard.isPending ? <Loading what="the coaching dashboard" /> : dashboard.isError ? <Failure error={dashboard.error} /> : (
        <Dashboard data={dashboard.data} manager={manager} closer={me.data?.closer ?? null} />
      )}
    </Page>
  )
}

type StatusData = typeof Api.CoachingStatus.Type

const Steps = () => {
  const status = useQuery({ queryKey: statusKey, queryFn: () => call((c) => c.coaching.getCoachingStatus()) })
  if (status.isPending) return <Loading what="your coaching steps" />
  if (status.isError) return <Failure error={status.error} />
  const s = status.data
  const done = s.next_step === null
  return (
    <Panel title={done ? "Your coaching steps: all done" : `Your coaching steps: ${s.completion_pct} % done`}>
      <progress max={100} value={s.completion_pct} aria-label="Coaching steps done">{s.completion_pct} %</progress>
      <ol className="steps">
        {s.steps.map((step) => (
          <li key={step.step} className={step.done ? "done" : step.step === s.next_step ? "next" : undefined} aria-current={step.step === s.next_step ? "step" : undefined}>
            <span className="step-mark" aria-hidden="true">{step.done ? "✓" : "•"}</span>
            <span>
              {step.label}
              {step.done ? <> <span className="muted">(done <When at={step.done_at} />)</span></> : step.step === s.next_step ? <> <span className="badge">next</span></> : null}
            </span>
          </li>
        ))}
      </ol>
      {s.next_step === "welcome" ? <Welcome /> : null}
      {!s.oath_signed && s.next_step !== "welcome" ? <OathForm /> : null}
      {s.next_step === "wiki" ? (
        <p>Read every article of the wiki to the end ({s.articles_read} of {s.articles_total} read). <Link href="/coaching/wiki">Open the wiki</Link>.</p>
      ) : null}
      {s.next_step === "manual_audit" ? (
        <p>Audit a call: open one from <Link href="/calls">Calls</Link> and score it in "Manual audit"; your scores are set beside the machine's.</p>
      ) : null}
      {s.oath !== null ? <SignedOath oath={s.oath} /> : null}
    </Panel>
  )
}

const Welcome = () => {
  const queries = useQueryClient()
  const welcome = useMutation({
    mutationFn: () => call((c) => c.coaching.completeWelcome()),
    onSuccess: (status) => queries.setQueryData(statusKey, status)
  })
  return (
    <div className="coach-callout">
      <h3>Welcome to coaching</h3>
      <p>
        Every analysed call is scored on six dimensions. Each week the dashboard below names the weakest one of the last
        four weeks as your focus, with the article that teaches it and the calls worth listening to again. Next you sign
        the coaching oath: a few commitments you hold yourself to.
      </p>
      <Failure error={welcome.error} />
      <button type="button" onClick={() => welcome.mutate()} disabled={welcome.isPending}>I have read the welcome</button>
    </div>
  )
}

const SUGGESTED_COMMITMENTS = [
  "I review one of my calls every week.",
  "I ask open questions before I pitch.",
  "I end every call with a dated next step."
]

const OathForm = () => {
  const queries = useQueryClient()
  const [commitments, setCommitments] = useState<ReadonlyArray<string>>(SUGGESTED_COMMITMENTS)
  const sign = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      call((c) => Effect.flatMap(decodeBody(Api.OathCompleteRequest, values), (payload) => c.coaching.completeOath({ payload }))),
    onSuccess: (status) => queries.setQueryData(statusKey, status)
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    sign.mutate({
      signature_name: String(form.get("signature_name") ?? "").trim(),
      // rows left empty are not commitments
      commitments: commitments.map((c) => c.trim()).filter((c) => c !== "")
    })
  }
  const listIssues = sign.error instanceof ApiError ? sign.error.detail.filter((d) => d.loc.at(-1) === "commitments") : []
  return (
    <form onSubmit={submit} aria-label="Sign the coaching oath" className="coach-callout">
      <h3>The coaching oath</h3>
      <p className="muted">What you commit to, one sentence each (1 to 20). Edit the suggestions or write your own; it is signed once.</p>
      <fieldset className="commitments">
        <legend>Commitments</legend>
        {commitments.map((value, i) => (
          <div className="commitment" key={i}>
            <Field label={`Commitment ${i + 1}`} name={String(i)} error={sign.error}>
              {(p) => <input {...p} value={value} maxLength={500} onChange={(e) => setCommitments(commitments.map((c, j) => (j === i ? e.target.value : c)))} />}
            </Field>
            <button type="button" className="secondary" aria-label={`Remove commitment ${i + 1}`} onClick={() => setCommitments(commitments.filter((_, j) => j !== i))}>Remove</button>
          </div>
        ))}
        {listIssues.length === 0 ? null : <p className="field-error" role="alert">Commitments: {listIssues.map((d) => d.msg).join("; ")}</p>}
        {commitments.length < 20 ? <button type="button" className="secondary" onClick={() => setCommitments([...commitments, ""])}>Add a commitment</button> : null}
      </fieldset>
      <Field label="Your name, as your signature" name="signature_name" error={sign.error}>{(p) => <input {...p} autoComplete="name" maxLength={200} />}</Field>
      <OtherIssues error={sign.error} fields={["signature_name", "commitments"]} />
      <Failure error={sign.error} />
      <button type="submit" disabled={sign.isPending}>Sign the oath</button>
    </form>
  )
}

const SignedOath = ({ oath }: { readonly oath: NonNullable<StatusData["oath"]> }) => (
  <details className="oath">
    <summary>Your oath, signed by {oath.signature_name} on <When at={oath.signed_at} /></summary>
    <ul>{oath.commitments.map((c, i) => <li key={i}>{c}</li>)}</ul>
  </details>
)

type DashboardData = typeof Api.CoachingDashboard.Type

const Dashboard = ({ closer, data, manager }: { readonly data: DashboardData; readonly manager: boolean; readonly closer: typeof Api.ClientUser.Type["closer"] }) => (
  <>
    <Panel title={manager ? `The team, week of ${data.week_start}` : `Your week of ${data.week_start}`}>
      <Stats
        items={[
          ...(manager ? [["Closers", data.team.closers] as const] : []),
          ["Calls this week", data.team.calls_this_week],
          ["Average score, 8 weeks", <Score key="s" value={data.team.average_score} />]
        ]}
      />
      <Trend points={data.team.score_trend} />
    </Panel>
    {data.closers.length === 0 ? (
      <Empty>
        {manager
          ? "No closer yet. Add your reps as closers on the Team screen; their analysed calls then show here with their focus and the calls worth reviewing."
          : closer === null
            ? "You are not a closer of the team yet: your coaching shows here once an owner or admin adds you as a closer, you confirm your e-mail and your calls are analysed."
            : `No analysed call of yours yet, as ${closer.full_name} (${closer.email}): your coaching shows here once your calls are analysed.`}
      </Empty>
    ) : (
      <div className="grid">
        {data.closers.map((closer) => <CloserCard key={closer.closer_id} closer={closer} />)}
      </div>
    )}
    <Panel title="Where the machine and the managers differ">
      {data.audit_gaps.length === 0 ? (
        <Empty>No manual audit yet. Open a call from <Link href="/calls">Calls</Link> and score it under "Manual audit": the gap per dimension shows here.</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="muted cap">Manual minus machine, over every manual audit: above 0, the managers score the dimension higher</caption>
            <thead><tr><th scope="col">Dimension</th><th scope="col">Mean gap</th><th scope="col">Mean absolute gap</th><th scope="col">Audits</th></tr></thead>
            <tbody>
              {data.audit_gaps.map((g) => (
                <tr key={g.dimension}>
                  <td><Words of={g.dimension} /></td>
                  <td className={Math.abs(g.mean_gap) >= 10 ? "failure" : undefined}>{signed(g.mean_gap)}</td>
                  <td>{num(g.mean_absolute_gap)}</td>
                  <td>{g.audits}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  </>
)

const CloserCard = ({ closer }: { readonly closer: DashboardData["closers"][number] }) => (
  <Panel title={closer.full_name}>
    <p className="muted">{closer.email}</p>
    <Stats items={[["Calls this week", closer.calls_this_week], ["Average, 8 weeks", <Score key="s" value={closer.average_score} />]]} />
    <Trend points={closer.score_trend} />
    <h3>Focus this week</h3>
    {closer.focus === null ? <p className="muted">No assessed dimension in the last 4 weeks: the focus appears once a call is analysed.</p> : (
      <p>
        <strong><Words of={closer.focus.dimension} /></strong>: {num(closer.focus.average_score)} over {closer.focus.calls} call{closer.focus.calls === 1 ? "" : "s"}
        {closer.focus.team_average_score === null ? null : <> (team {num(closer.focus.team_average_score)})</>}.
        {closer.focus.article_slug === null ? null : <> Read <Link href={`/coaching/wiki/${encodeURIComponent(closer.focus.article_slug)}`}>{closer.focus.article_title ?? closer.focus.article_slug}</Link>.</>}
      </p>
    )}
    <h3>Calls worth reviewing</h3>
    {closer.calls_to_review.length === 0 ? <p className="muted">None in the last 4 weeks.</p> : (
      <ul className="moments">
        {closer.calls_to_review.map((r) => (
          <li key={r.call_id}>
            <Link href={callHref(r.call_id)}>{r.external_call_id ?? r.call_id}</Link> <Score value={r.overall_score} />{" "}
            <span className="muted">{r.reason}{r.outcome === null ? "" : ` · ${r.outcome}`}</span>
          </li>
        ))}
      </ul>
    )}
  </Panel>
)

// ---------------------------------------------------------------------------------------------
// The wiki

const wikiKey = ["coaching", "wiki"]

export const WikiScreen = () => {
  const sections = useQuery({ queryKey: wikiKey, queryFn: () => call((c) => c.coaching.listWikiSections()) })
  return (
    <Page title="Coaching wiki">
      <CoachingTabs />
      {sections.isPending ? <Loading what="the wiki" /> : sections.isError ? <Failure error={sections.error} /> : (
        <>
          <p>
            {sections.data.articles_read} of {sections.data.articles_total} articles read.{" "}
            <span className="muted">An article counts as read once you reach its end or mark it read.</span>
          </p>
          {sections.data.sections.length === 0 ? <Empty>The wiki has no article yet.</Empty> : sections.data.sections.map((section) => (
            <Panel key={section.section_id} title={section.title}>
              <p className="muted">{section.description}</p>
              <ul className="articles">
                {section.articles.map((a) => (
                  <li key={a.slug}>
                    <Link href={`/coaching/wiki/${encodeURIComponent(a.slug)}`}>{a.title}</Link>
                    {a.completed ? <span className="badge level-healthy">read</span> : a.progress_pct > 0 ? <span className="badge">{Math.round(a.progress_pct)} % read</span> : null}
                    <span className="muted"> · {a.reading_minutes} min</span>
                    <p>{a.summary}</p>
                  </li>
                ))}
              </ul>
            </Panel>
          ))}
        </>
      )}
    </Page>
  )
}

/** The share of the article the reader has scrolled past, 0–100 (100 once its end is in view). */
const readShare = (el: HTMLElement) => {
  const box = el.getBoundingClientRect()
  if (box.height <= 0) return 0
  const seen = window.innerHeight - box.top
  return Math.max(0, Math.min(100, Math.round((seen / box.height) * 100)))
}

export const ArticleScreen = () => {
  const { slug } = useParams<{ slug: string }>()
  const queries = useQueryClient()
  const key = ["coaching", "article", slug]
  const article = useQuery({ queryKey: key, queryFn: () => call((c) => c.coaching.getWikiArticle({ path: { slug } })) })
  const body = useRef<HTMLDivElement>(null)
  const reported = useRef(0)
  const progress = useMutation({
    mutationFn: (values: { slug: string; progress_pct: number }) =>
      call((c) => Effect.flatMap(decodeBody(Api.ArticleProgressRequest, values), (payload) => c.coaching.recordArticleProgress({ payload }))),
    onSuccess: (p) => {
      queries.setQueryData(key, (old: typeof article.data) => (old === undefined ? old : { ...old, progress_pct: p.progress_pct, completed_at: p.completed_at }))
      void queries.invalidateQueries({ queryKey: wikiKey })
      void queries.invalidateQueries({ queryKey: statusKey })
    }
  })
  const loaded = article.data
  // the next or previous article opens at its top
  useEffect(() => window.scrollTo(0, 0), [slug])
  // as the reader scrolls, the progress is recorded at each quarter reached (the service keeps the highest)
  useEffect(() => {
    if (loaded === undefined) return
    reported.current = loaded.progress_pct
    let frame = 0
    const onScroll = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        if (body.current === null) return
        const share = readShare(body.current)
        const step = share >= 98 ? 100 : Math.floor(share / 25) * 25
        if (step > reported.current) {
          reported.current = step
          progress.mutate({ slug: loaded.slug, progress_pct: step })
        }
      })
    }
    window.addEventListener("scroll", onScroll, { passive: true })
    return () => {
      window.removeEventListener("scroll", onScroll)
      cancelAnimationFrame(frame)
    }
  }, [loaded?.slug])
  if (article.isPending) return <Loading what="the article" />
  if (article.isError) {
    return (
      <Page title="Coaching wiki">
        <CoachingTabs />
        <Failure error={article.error} />
        <p><Link href="/coaching/wiki">Back to the wiki</Link></p>
      </Page>
    )
  }
  const a = article.data
  const read = a.completed_at !== null
  return (
    <Page title={a.title}>
      <CoachingTabs />
      <p className="muted">
        <Link href="/coaching/wiki">Wiki</Link> › {a.section_title} · {a.reading_minutes} min read · updated <When at={a.updated_at} />
        {a.dimensions.length === 0 ? null : <> · teaches {a.dimensions.map((d, i) => <span key={d}>{i === 0 ? "" : ", "}<Words of={d} /></span>)}</>}
      </p>
      <p className="lead">{a.summary}</p>
      <article className="wiki-article" ref={body}>
        <Markdown source={a.body_markdown} />
      </article>
      <div className="article-end">
        {read ? <p className="ok" role="status">Read on <When at={a.completed_at} />.</p> : (
          <p role="status">{Math.round(a.progress_pct)} % read.</p>
        )}
        {read ? null : (
          <button type="button" onClick={() => progress.mutate({ slug: a.slug, progress_pct: 100 })} disabled={progress.isPending}>Mark as read</button>
        )}
        <Failure error={progress.error} />
      </div>
      <nav className="pager article-nav" aria-label="Reading order">
        {a.previous_slug === null ? null : <Link href={`/coaching/wiki/${encodeURIComponent(a.previous_slug)}`}>← Previous article</Link>}
        {a.next_slug === null ? null : <Link href={`/coaching/wiki/${encodeURIComponent(a.next_slug)}`}>Next article →</Link>}
      </nav>
    </Page>
  )
}

// ---------------------------------------------------------------------------------------------
// Manual audits

const AUDITS_PAGE = 20

export const AuditsScreen = () => {
  const me = useMe()
  const [offset, setOffset] = useState(0)
  const [callId, setCallId] = useState("")
  const [draft, setDraft] = useState("")
  const audits = useQuery({
    queryKey: ["coaching", "audits", offset, callId],
    queryFn: () => call((c) => c.coaching.listManualAudits({ urlParams: { limit: AUDITS_PAGE, offset, ...(callId === "" ? {} : { call_id: callId }) } })),
    placeholderData: keepPreviousData
  })
  return (
    <Page title="Manual audits">
      <CoachingTabs />
      <form className="inline spaced" aria-label="Filter the audits" onSubmit={(e) => { e.preventDefault(); setCallId(draft.trim()); setOffset(0) }}>
        <div className="field">
          <label htmlFor="audit-call">Call id</label>
          <input id="audit-call" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="call_…" />
        </div>
        <button type="submit">Show</button>
        {callId === "" ? null : <button type="button" className="secondary" onClick={() => { setDraft(""); setCallId(""); setOffset(0) }}>Every call</button>}
      </form>
      {audits.isPending ? <Loading what="the audits" /> : audits.isError ? <Failure error={audits.error} /> : audits.data.audits.length === 0 ? (
        <Empty>
          {callId !== "" ? "No audit of this call. Check the id, or show every call's audits." : isManager(me.data?.role)
            ? <>No manual audit yet. Open a call from <Link href="/calls">Calls</Link> and score it under "Manual audit": your scores are kept beside the machine's.</>
            : <>No audit of your calls yet. Open one of your calls from <Link href="/calls">Calls</Link> and review it: your scores are set against the machine's.</>}
        </Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="muted cap">{audits.data.total} audit{audits.data.total === 1 ? "" : "s"}, newest first</caption>
            <thead>
              <tr><th scope="col">Call</th><th scope="col">Closer</th><th scope="col">Auditor</th><th scope="col">Manual</th><th scope="col">Machine</th><th scope="col">Mean absolute gap</th><th scope="col">Made</th><th scope="col">Audit</th></tr>
            </thead>
            <tbody>
              {audits.data.audits.map((a) => (
                <tr key={a.audit_id}>
                  <td><Link href={callHref(a.call_id)}>{callName(a)}</Link></td>
                  <td>{a.closer_email ?? <span className="muted">—</span>}</td>
                  <td>{a.auditor_name ?? <span className="muted">—</span>}</td>
                  <td><Score value={a.manual_overall} /></td>
                  <td><Score value={a.automated_overall} /></td>
                  <td>{num(a.mean_absolute_gap)}</td>
                  <td><When at={a.created_at} /></td>
                  <td><Link href={`/coaching/audits/${encodeURIComponent(a.audit_id)}`} aria-label={`Details of the audit of ${callName(a)}`}>Details</Link></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Manual audits"
        hasPrevious={offset > 0}
        hasNext={audits.data !== undefined && offset + AUDITS_PAGE < audits.data.total}
        onPrevious={() => setOffset(Math.max(0, offset - AUDITS_PAGE))}
        onNext={() => setOffset(offset + AUDITS_PAGE)}
      />
    </Page>
  )
}

export const AuditScreen = () => {
  const { id } = useParams<{ id: string }>()
  const audit = useQuery({ queryKey: ["coaching", "audit", id], queryFn: () => call((c) => c.coaching.getManualAudit({ path: { audit_id: id } })) })
  if (audit.isPending) return <Loading what="the audit" />
  if (audit.isError) {
    return (
      <Page title="Manual audit">
        <CoachingTabs />
        <Failure error={audit.error} />
        <p><Link href="/coaching/audits">Back to the audits</Link></p>
      </Page>
    )
  }
  const a = audit.data
  return (
    <Page title="Manual audit">
      <CoachingTabs />
      <p className="muted wrap">
        <Link href="/coaching/audits">Manual audits</Link> › the call <Link href={callHref(a.call_id)}>{callName(a)}</Link>
        {a.external_call_id === null ? null : <> ({a.call_id})</>}
        {a.closer_email === null ? null : <> of {a.closer_email}</>}, audited by {a.auditor_name ?? "a manager"} on <When at={a.created_at} />
      </p>
      <Stats items={[["Manual", <Score key="m" value={a.manual_overall} />], ["Machine", <Score key="a" value={a.automated_overall} />], ["Mean absolute gap", num(a.mean_absolute_gap)]]} />
      <Panel title="By dimension">
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="muted cap">The machine's scores as they were when the audit was made; gap = manual − machine</caption>
            <thead><tr><th scope="col">Dimension</th><th scope="col">Manual</th><th scope="col">Machine</th><th scope="col">Gap</th></tr></thead>
            <tbody>
              {a.dimensions.map((d) => (
                <tr key={d.dimension}>
                  <td><Words of={d.dimension} /></td>
                  <td><Score value={d.manual_score} /></td>
                  <td>{d.automated_score === null ? <span className="muted">not assessed</span> : <Score value={d.automated_score} />}</td>
                  <td>{signed(d.gap)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
      <Panel title="Notes">
        {a.notes.trim() === "" ? <p className="muted">No notes.</p> : <p className="prewrap">{a.notes}</p>}
      </Panel>
    </Page>
  )
}
