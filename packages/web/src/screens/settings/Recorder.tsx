/**
 * The meeting recorder (a bot that joins the team's meetings and turns their recordings into
 * calls): whether it is on, how it joins, on which platforms, what it did lately, and the meetings
 * it was scheduled for. Owners and admins turn it on, change it and turn it off; a member reads its
 * status and the meetings of their own calls (the service narrows the list and pages it).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { Link } from "wouter"
import { Api, call, checked } from "../../api.js"
import { isManager, type Role } from "../../session.js"
import { Empty, Failure, Field, Loading, OtherIssues, Pager, Panel, When } from "../../ui/kit.js"
import { Badge, Choices, ConfirmButton, defined, text, type Tone, words } from "./parts.js"

type RecallStatus = typeof Api.RecallStatus.Type
type MeetingState = (typeof Api.RecallMeeting.Type)["state"]

const PLATFORMS = Object.entries(Api.RECALL_PLATFORMS).map(([name, what]) => [name, what.replace(/`/g, "")] as const)

const STATE_TONE: Readonly<Record<MeetingState, Tone>> = {
  pending: "plain",
  scheduled: "plain",
  joining: "warn",
  in_call: "warn",
  processing: "warn",
  recorded: "good",
  failed: "bad",
  cancelled: "plain"
}

export const RecorderSection = ({ role }: { readonly role: Role }) => {
  const status = useQuery({ queryKey: ["recall-status"], queryFn: () => call((c) => c.recorder.getRecallStatus()) })
  return (
    <>
      <Panel title="Meeting recorder">
        <p className="muted">A bot joins the team's video meetings, records them, and every recording becomes an analysed call.</p>
        {status.isPending ? <Loading what="the recorder" /> : status.isError ? <Failure error={status.error} /> : (
          <>
            <RecorderStatus status={status.data} />
            {isManager(role) ? <RecorderSetup status={status.data} /> : <p className="muted">Owners and admins turn the recorder on and choose how it joins.</p>}
          </>
        )}
      </Panel>
      <Meetings manager={isManager(role)} />
    </>
  )
}

const RecorderStatus = ({ status }: { readonly status: RecallStatus }) => (
  <>
    <p>
      <Badge tone={status.active ? "good" : "plain"}>{status.active ? "on" : "off"}</Badge>{" "}
      {status.active ? (
        <>
          Since <When at={status.since} />, {status.join_mode === "manual" ? "joining the meetings asked for" : "joining every meeting on the connected calendars"}
          {status.bot_name === null ? "" : ` as “${status.bot_name}”`}, on {status.platforms.map(words).join(", ")}.
        </>
      ) : "The recorder is off: no bot joins the team's meetings."}
    </p>
    <dl className="figures">
      <div><dt>Recorded, all time</dt><dd>{status.meetings_recorded}</dd></div>
      <div><dt>Upcoming</dt><dd>{status.meetings_upcoming}</dd></div>
      <div><dt>Scheduled, 7 days</dt><dd>{status.last_7_days.scheduled}</dd></div>
      <div><dt>Recorded, 7 days</dt><dd>{status.last_7_days.recorded}</dd></div>
      <div><dt>Failed, 7 days</dt><dd>{status.last_7_days.failed}</dd></div>
    </dl>
    <p className="muted">Last recording: <When at={status.last_recording_at} /></p>
    {status.last_error === null ? null : <p className="failure">Last failure (<When at={status.last_error.at} />): {status.last_error.message}</p>}
  </>
)

const SETUP_FIELDS = ["join_mode", "bot_name", "platforms"]

const RecorderSetup = ({ status }: { readonly status: RecallStatus }) => {
  const queries = useQueryClient()
  const [mode, setMode] = useState<string>(status.join_mode ?? "auto")
  const refresh = (next: RecallStatus) => {
    queries.setQueryData(["recall-status"], next)
    return queries.invalidateQueries({ queryKey: ["recall-meetings"] })
  }
  const activate = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.ActivateRecallRequest, values, (c, payload) => c.recorder.activateRecall({ payload })),
    onSuccess: refresh
  })
  const deactivate = useMutation({
    mutationFn: () => call((c) => c.recorder.deactivateRecall()),
    onSuccess: refresh
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    deactivate.reset()
    activate.mutate(defined({ join_mode: mode, bot_name: text(String(form.get("bot_name") ?? "")), platforms: form.getAll("platforms").map(String) }))
  }
  if (!status.provider_configured && !status.active) {
    return (
      <Empty>
        This Callsight service has no recording-bot provider yet (its RECORDER_API_KEY is not set), so the recorder cannot be turned on. Ask
        whoever runs Callsight to configure it; until then, upload recordings from Calls.
      </Empty>
    )
  }
  const chosen = status.platforms.length === 0 ? ["video"] : status.platforms
  return (
    <form onSubmit={submit} aria-label="Recorder settings" noValidate>
      <h3>{status.active ? "Change how it records" : "Turn the recorder on"}</h3>
      <Choices legend="Which meetings" name="join_mode" error={activate.error}>
        <label className="check">
          <input type="radio" name="join_mode" value="auto" checked={mode === "auto"} onChange={() => setMode("auto")} /> Every meeting with a link on the closers' connected calendars
        </label>
        <label className="check">
          <input type="radio" name="join_mode" value="manual" checked={mode === "manual"} onChange={() => setMode("manual")} /> Only the meetings asked for one by one
        </label>
      </Choices>
      <Choices legend="Platforms" name="platforms" error={activate.error}>
        {PLATFORMS.map(([name, what]) => (
          <label key={name} className="check">
            <input type="checkbox" name="platforms" value={name} defaultChecked={chosen.includes(name)} /> {what}
          </label>
        ))}
      </Choices>
      <Field label="Bot's name in the meeting (optional)" name="bot_name" error={activate.error} hint="Default: Callsight Recorder">
        {(p) => <input {...p} defaultValue={status.bot_name ?? ""} maxLength={100} />}
      </Field>
      <OtherIssues error={activate.error} fields={SETUP_FIELDS} />
      <Failure error={activate.error} />
      <Failure error={deactivate.error} />
      <div className="row-actions">
        <button type="submit" disabled={activate.isPending}>{status.active ? "Save the recorder's settings" : "Turn the recorder on"}</button>
        {status.active ? (
          <ConfirmButton question="Turn the recorder off? Its scheduled bots are cancelled." confirm="Turn it off" disabled={deactivate.isPending} onConfirm={() => { activate.reset(); deactivate.mutate() }}>
            Turn the recorder off
          </ConfirmButton>
        ) : null}
        {activate.isSuccess ? <span role="status" className="ok">Saved: the recorder is on.</span> : null}
        {deactivate.isSuccess ? <span role="status" className="ok">The recorder is off.</span> : null}
      </div>
    </form>
  )
}

/** Meetings per page; the service pages them (`offset`) and counts those the viewer sees (`total`). */
const MEETINGS_PAGE = 20

const Meetings = ({ manager }: { readonly manager: boolean }) => {
  const [offset, setOffset] = useState(0)
  const meetings = useQuery({
    // under ["recall-meetings"], which a change of the recorder invalidates
    queryKey: ["recall-meetings", offset],
    queryFn: () => call((c) => c.recorder.listRecallMeetings({ urlParams: { limit: MEETINGS_PAGE, offset } })),
    placeholderData: keepPreviousData
  })
  const rows = meetings.data?.meetings ?? []
  const total = meetings.data?.total ?? 0
  return (
    <Panel title="Meetings">
      {meetings.isPending ? <Loading what="the meetings" /> : meetings.isError ? <Failure error={meetings.error} /> : rows.length === 0 ? (
        <Empty>
          {total > 0
            ? "No meeting on this page. Go back to the previous page."
            : manager
            ? "No meeting yet. With the recorder on, its bot joins the meetings of the closers whose calendar is connected (Settings, Integrations); they are listed here with what became of them."
            : "No meeting of yours yet. Once an owner or admin turns the recorder on and connects your calendar, the bot joins your meetings and they are listed here."}
        </Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table className="stack">
            <caption className="muted">
              {offset === 0 && rows.length === total ? `${total} meeting${total === 1 ? "" : "s"}` : `Meetings ${offset + 1}–${offset + rows.length} of ${total}`}, latest first
            </caption>
            <thead>
              <tr><th scope="col">Meeting</th><th scope="col">Closer</th><th scope="col">Joins</th><th scope="col">State</th><th scope="col">Call</th></tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.meeting_id}>
                  <td>{m.title ?? <span className="muted">Untitled</span>}<br /><small className="muted">{words(m.platform)} · {m.source}</small></td>
                  <td data-label="Closer">{m.closer_email ?? <span className="muted">—</span>}</td>
                  <td data-label="Joins"><When at={m.join_at} /></td>
                  <td data-label="State">
                    <Badge tone={STATE_TONE[m.state]}>{words(m.state)}</Badge>
                    {m.error === null ? null : <><br /><small className="failure">{m.error}</small></>}
                  </td>
                  <td data-label="Call">{m.call_id === null ? <span className="muted">—</span> : <Link href={`/calls/${m.call_id}`}>Open the call</Link>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Recorded meetings"
        hasPrevious={offset > 0}
        hasNext={offset + MEETINGS_PAGE < total}
        onPrevious={() => setOffset(Math.max(0, offset - MEETINGS_PAGE))}
        onNext={() => setOffset(offset + MEETINGS_PAGE)}
      />
    </Panel>
  )
}
