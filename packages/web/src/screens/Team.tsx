/**
 * Team: the closers (whose calls are analysed: add, send the verification e-mail again, pause,
 * reactivate, remove), the members who use the portal and their invitations, and the team's
 * health. Owners and admins manage all of it; a member reads the roster (the policy table,
 * docs/policy.md: closers and members are listed for everyone, team health is the managers').
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { Link } from "wouter"
import { Api, call, checked } from "../api.js"
import { isManager, type Role, useMe } from "../session.js"
import { Empty, Failure, Field, Loading, OtherIssues, Page, Panel, Score, When } from "../ui/kit.js"
import { Badge, ConfirmButton, defined, text, type Tone, usePaged, words } from "./settings/parts.js"

type Closer = typeof Api.Closer.Type
type CloserStatus = Closer["status"]
type Member = typeof Api.Member.Type
type Invitation = typeof Api.Invitation.Type

const CLOSER_TONE: Readonly<Record<CloserStatus, Tone>> = { active: "good", pending_verification: "warn", paused: "plain", removed: "bad" }
const HEALTH_TONE: Readonly<Record<"healthy" | "watch" | "at_risk", Tone>> = { healthy: "good", watch: "warn", at_risk: "bad" }

export const TeamScreen = () => {
  const me = useMe()
  if (me.isPending) return <Loading what="your account" />
  if (me.isError) return <Page title="Team"><Failure error={me.error} /></Page>
  const manager = isManager(me.data.role)
  return (
    <Page title="Team">
      {manager ? null : <p className="muted">You see who is on the team. Owners and admins add closers, invite members and change roles.</p>}
      <Closers manager={manager} />
      <Members manager={manager} myRole={me.data.role} myId={me.data.user_id} />
      {manager ? <TeamHealth /> : null}
    </Page>
  )
}

// ---------------------------------------------------------------------------------------------
// Closers

type CloserAction =
  | { readonly kind: "status"; readonly closer: Closer; readonly to: "active" | "paused" | "removed" }
  | { readonly kind: "verify"; readonly closer: Closer }
  | { readonly kind: "add_again"; readonly closer: Closer }

const Closers = ({ manager }: { readonly manager: boolean }) => {
  const queries = useQueryClient()
  const closers = useQuery({ queryKey: ["closers"], queryFn: () => call((c) => c.clientPortal.listClosers()) })
  const [showRemoved, setShowRemoved] = useState(false)
  const act = useMutation({
    mutationFn: (action: CloserAction): Promise<string> => {
      const { closer } = action
      switch (action.kind) {
        case "status":
          return call((c) => c.clientPortal.updateCloserStatus({
            path: { closer_id: closer.closer_id },
            payload: new Api.UpdateCloserStatusRequest({ status: action.to })
          })).then((row) => `${row.full_name} is ${words(row.status)}.`)
        case "verify":
          return call((c) => c.clientPortal.sendCloserVerification({ path: { closer_id: closer.closer_id } })).then((sent) =>
            sent.verification_sent
              ? `A verification e-mail went to ${sent.email}; its link works until ${new Date(sent.expires_at).toLocaleString()}.`
              : `The mail server did not take the e-mail to ${sent.email}: try again in a few minutes.`
          )
        case "add_again":
          return call((c) => c.clientPortal.addCloser({
            payload: new Api.AddCloserRequest(defined({ email: closer.email, full_name: closer.full_name, team: closer.team ?? undefined }) as { email: string; full_name: string })
          })).then((row) => `${row.full_name} is back, ${words(row.status)}: a verification e-mail went to ${row.email}.`)
      }
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ["closers"] })
  })
  const all = closers.data?.closers ?? []
  const removed = all.filter((c) => c.status === "removed").length
  const shown = showRemoved ? all : all.filter((c) => c.status !== "removed")
  const { pager, rows } = usePaged(shown, "Closers")
  return (
    <Panel title="Closers">
      <p className="muted">The sales people whose calls are analysed. A closer confirms their e-mail from the link we send, then their calls are theirs.</p>
      {manager ? <AddCloser startOpen={closers.isSuccess && all.length === 0} /> : null}
      {act.isSuccess ? <p role="status" className="ok">{act.data}</p> : null}
      <Failure error={act.error} />
      {closers.isPending ? <Loading what="the closers" /> : closers.isError ? <Failure error={closers.error} /> : shown.length === 0 ? (
        <Empty>
          {all.length > 0
            ? "Every closer was removed. Show the removed closers to add one back, or add a new one."
            : manager
              ? "No closer yet. Add your first closer above: they get an e-mail to confirm their address, then their calls are attributed to them."
              : "No closer yet. An owner or admin adds the closers of the team."}
        </Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table className="stack">
            <thead>
              <tr>
                <th scope="col">Closer</th>
                <th scope="col">Team</th>
                <th scope="col">Status</th>
                <th scope="col">Calendar, video</th>
                {manager ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.closer_id}>
                  <td><span className="strong">{c.full_name}</span><br /><span className="muted">{c.email}</span></td>
                  <td data-label="Team">{c.team ?? <span className="muted">—</span>}</td>
                  <td data-label="Status">
                    <Badge tone={CLOSER_TONE[c.status]}>{words(c.status)}</Badge>
                    {c.email_verified_at === null ? null : <><br /><small className="muted">confirmed <When at={c.email_verified_at} /></small></>}
                  </td>
                  <td data-label="Calendar, video">
                    <Badge tone={c.calendar.connected ? "good" : "plain"}>calendar {c.calendar.connected ? "on" : "off"}</Badge>{" "}
                    <Badge tone={c.video.connected ? "good" : "plain"}>video {c.video.connected ? "on" : "off"}</Badge>
                  </td>
                  {manager ? <td data-label="Actions"><CloserActions closer={c} busy={act.isPending} onAct={(a) => act.mutate(a)} /></td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager}
      {removed === 0 ? null : (
        <label className="check">
          <input type="checkbox" checked={showRemoved} onChange={(e) => setShowRemoved(e.target.checked)} /> Show the {removed} removed closer{removed === 1 ? "" : "s"}
        </label>
      )}
      {manager ? <p className="muted">Connect each closer's calendar and video tool in <Link href="/settings/integrations">Settings, Integrations</Link>.</p> : null}
    </Panel>
  )
}

const CloserActions = ({ busy, closer, onAct }: { readonly closer: Closer; readonly busy: boolean; readonly onAct: (a: CloserAction) => void }) => {
  const who = closer.full_name
  return (
    <div className="row-actions">
      {closer.status === "pending_verification" ? (
        <button type="button" className="secondary" disabled={busy} onClick={() => onAct({ kind: "verify", closer })} aria-label={`Send the e-mail again to ${who}`}>
          Send the e-mail again
        </button>
      ) : null}
      {closer.status === "active" ? (
        <button type="button" className="secondary" disabled={busy} onClick={() => onAct({ kind: "status", closer, to: "paused" })} aria-label={`Pause ${who}`}>Pause</button>
      ) : null}
      {closer.status === "paused" ? (
        closer.email_verified_at === null
          ? <button type="button" className="secondary" disabled={busy} onClick={() => onAct({ kind: "verify", closer })} aria-label={`Send the e-mail again to ${who}`}>Send the e-mail again</button>
          : <button type="button" className="secondary" disabled={busy} onClick={() => onAct({ kind: "status", closer, to: "active" })} aria-label={`Reactivate ${who}`}>Reactivate</button>
      ) : null}
      {closer.status === "removed" ? (
        <button type="button" className="secondary" disabled={busy} onClick={() => onAct({ kind: "add_again", closer })} aria-label={`Add again: ${who}`}>Add again</button>
      ) : (
        <ConfirmButton question={`Remove ${who}?`} confirm="Remove" disabled={busy} onConfirm={() => onAct({ kind: "status", closer, to: "removed" })}>
          Remove
        </ConfirmButton>
      )}
    </div>
  )
}

const CLOSER_FIELDS = ["email", "full_name", "team"]

const AddCloser = ({ startOpen }: { readonly startOpen: boolean }) => {
  const queries = useQueryClient()
  const [round, setRound] = useState(0)
  const add = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.AddCloserRequest, values, (c, payload) => c.clientPortal.addCloser({ payload })),
    onSuccess: () => {
      setRound((n) => n + 1)
      return queries.invalidateQueries({ queryKey: ["closers"] })
    }
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const value = (n: string) => text(String(form.get(n) ?? ""))
    add.mutate(defined({ email: value("email") ?? "", full_name: value("full_name") ?? "", team: value("team") }))
  }
  return (
    <details className="adder" open={startOpen || round > 0 ? true : undefined}>
      <summary>Add a closer</summary>
      <form key={round} onSubmit={submit} aria-label="Add a closer" noValidate>
        <div className="form-row">
          <Field label="E-mail" name="email" error={add.error}>{(p) => <input {...p} type="email" autoComplete="off" required />}</Field>
          <Field label="Full name" name="full_name" error={add.error}>{(p) => <input {...p} autoComplete="off" required />}</Field>
          <Field label="Team (optional)" name="team" error={add.error}>{(p) => <input {...p} autoComplete="off" />}</Field>
        </div>
        <OtherIssues error={add.error} fields={CLOSER_FIELDS} />
        <Failure error={add.error} />
        <div className="row-actions">
          <button type="submit" disabled={add.isPending}>Add the closer</button>
          {add.isSuccess ? <span role="status" className="ok">{add.data.full_name} was added; a verification e-mail went to {add.data.email}.</span> : null}
        </div>
      </form>
    </details>
  )
}

// ---------------------------------------------------------------------------------------------
// Members and invitations

type MemberAction =
  | { readonly kind: "role"; readonly member: Member; readonly role: Role }
  | { readonly kind: "remove"; readonly member: Member }
  | { readonly kind: "resend"; readonly invitation: Invitation }
  | { readonly kind: "revoke"; readonly invitation: Invitation }

const nameOf = (p: { readonly full_name: string | null; readonly email: string }) => p.full_name ?? p.email

const Members = ({ manager, myId, myRole }: { readonly manager: boolean; readonly myRole: Role; readonly myId: string }) => {
  const queries = useQueryClient()
  const list = useQuery({ queryKey: ["members"], queryFn: () => call((c) => c.members.listMembers()) })
  const act = useMutation({
    mutationFn: (action: MemberAction): Promise<string> => {
      switch (action.kind) {
        case "role":
          return call((c) => c.members.changeMemberRole({ path: { user_id: action.member.user_id }, payload: new Api.ChangeRoleRequest({ role: action.role }) }))
            .then((m) => `${nameOf(m)} is now ${m.role === "admin" ? "an" : "a"} ${m.role}.`)
        case "remove":
          return call((c) => c.members.removeMember({ path: { user_id: action.member.user_id } })).then((m) => `${nameOf(m)} was removed; their sessions ended.`)
        case "resend":
          return call((c) => c.members.resendInvitation({ path: { invitation_id: action.invitation.invitation_id } }))
            .then((i) => `A new link went to ${i.email}; it works until ${new Date(i.expires_at).toLocaleString()}.`)
        case "revoke":
          return call((c) => c.members.revokeInvitation({ path: { invitation_id: action.invitation.invitation_id } }))
            .then((i) => `The invitation of ${i.email} was revoked: its link no longer works.`)
      }
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ["members"] })
  })
  const members = usePaged(list.data?.members ?? [], "Members")
  const invitations = usePaged(list.data?.invitations ?? [], "Invitations")
  // only an owner makes, demotes or removes an owner
  const roles: ReadonlyArray<Role> = myRole === "owner" ? ["owner", "admin", "member"] : ["admin", "member"]
  const canManage = (m: Member) => manager && (myRole === "owner" || m.role !== "owner")
  return (
    <Panel title="Members and invitations">
      <p className="muted">
        The people who sign in to the portal. Owners and admins manage the account and see the whole team; a member sees their own calls
        (when their e-mail is a confirmed closer).
      </p>
      {manager ? <Invite roles={roles} /> : null}
      {act.isSuccess ? <p role="status" className="ok">{act.data}</p> : null}
      <Failure error={act.error} />
      {list.isPending ? <Loading what="the members" /> : list.isError ? <Failure error={list.error} /> : (
        <>
          <h3>Members</h3>
          <div className="table-wrap" tabIndex={0}>
            <table className="stack">
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">Last sign-in</th>
                  {manager ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {members.rows.map((m) => (
                  <tr key={m.user_id}>
                    <td>
                      <span className="strong">{nameOf(m)}</span>{m.user_id === myId ? <span className="muted"> (you)</span> : null}
                      {m.full_name === null ? null : <><br /><span className="muted">{m.email}</span></>}
                    </td>
                    <td data-label="Role"><Badge tone={m.role === "member" ? "plain" : "good"}>{m.role}</Badge></td>
                    <td data-label="Joined"><When at={m.created_at} /></td>
                    <td data-label="Last sign-in"><When at={m.last_login_at} /></td>
                    {manager ? (
                      <td data-label="Actions">
                        {canManage(m) ? (
                          <div className="row-actions">
                            <RoleChange key={`${m.role}:${act.isError ? act.submittedAt : 0}`} member={m} roles={roles} busy={act.isPending} onChange={(role) => act.mutate({ kind: "role", member: m, role })} />
                            <ConfirmButton
                              question={m.user_id === myId ? "Remove yourself from the account?" : `Remove ${nameOf(m)}?`}
                              confirm="Remove"
                              disabled={act.isPending}
                              onConfirm={() => act.mutate({ kind: "remove", member: m })}
                            >
                              Remove
                            </ConfirmButton>
                          </div>
                        ) : <span className="muted">Only an owner changes an owner.</span>}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {members.pager}
          {manager ? (
            <>
              <h3>Open invitations</h3>
              {list.data.invitations.length === 0 ? (
                <Empty>No invitation waiting. Invite a colleague above: they get a sign-in link, valid 7 days, that makes their account.</Empty>
              ) : (
                <div className="table-wrap" tabIndex={0}>
                  <table className="stack">
                    <thead>
                      <tr><th scope="col">Invited</th><th scope="col">Role</th><th scope="col">Sent</th><th scope="col">Link works until</th><th scope="col">Actions</th></tr>
                    </thead>
                    <tbody>
                      {invitations.rows.map((i) => (
                        <tr key={i.invitation_id}>
                          <td><span className="strong">{nameOf(i)}</span>{i.full_name === null ? null : <><br /><span className="muted">{i.email}</span></>}</td>
                          <td data-label="Role">{i.role}</td>
                          <td data-label="Sent"><When at={i.created_at} /></td>
                          <td data-label="Link works until">{i.status === "expired" ? <Badge tone="warn">expired</Badge> : <When at={i.expires_at} />}</td>
                          <td data-label="Actions">
                            <div className="row-actions">
                              <button type="button" className="secondary" disabled={act.isPending} onClick={() => act.mutate({ kind: "resend", invitation: i })} aria-label={`Send a new link to ${i.email}`}>
                                Send a new link
                              </button>
                              <ConfirmButton question={`Revoke the invitation of ${i.email}?`} confirm="Revoke" disabled={act.isPending} onConfirm={() => act.mutate({ kind: "revoke", invitation: i })}>
                                Revoke
                              </ConfirmButton>
                            </div>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {invitations.pager}
            </>
          ) : null}
        </>
      )}
    </Panel>
  )
}

const RoleChange = ({ busy, member, onChange, roles }: {
  readonly member: Member
  readonly roles: ReadonlyArray<Role>
  readonly busy: boolean
  readonly onChange: (role: Role) => void
}) => {
  const [role, setRole] = useState<Role>(member.role)
  return (
    <span className="role-change">
      {/* a label by aria-label: a visually hidden one is positioned, and would escape the table's scrolling box */}
      <select aria-label={`Role of ${nameOf(member)}`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
        {roles.map((r) => <option key={r} value={r}>{r}</option>)}
      </select>
      <button type="button" className="secondary" disabled={busy || role === member.role} onClick={() => onChange(role)}>Change role</button>
    </span>
  )
}

const INVITE_FIELDS = ["email", "role", "full_name"]

const Invite = ({ roles }: { readonly roles: ReadonlyArray<Role> }) => {
  const queries = useQueryClient()
  const [round, setRound] = useState(0)
  const invite = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      checked(Api.InviteMemberRequest, values, (c, payload) => c.members.inviteMember({ payload })),
    onSuccess: () => {
      setRound((n) => n + 1)
      return queries.invalidateQueries({ queryKey: ["members"] })
    }
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const value = (n: string) => text(String(form.get(n) ?? ""))
    invite.mutate(defined({ email: value("email") ?? "", role: value("role") ?? "", full_name: value("full_name") }))
  }
  return (
    <details className="adder" open={round > 0 ? true : undefined}>
      <summary>Invite a member</summary>
      <form key={round} onSubmit={submit} aria-label="Invite a member" noValidate>
        <div className="form-row">
          <Field label="E-mail" name="email" error={invite.error}>{(p) => <input {...p} type="email" autoComplete="off" />}</Field>
          <Field label="Role" name="role" error={invite.error} hint="Admins manage the account; members see their own calls.">
            {(p) => (
              <select {...p} defaultValue="member">
                {roles.map((r) => <option key={r} value={r}>{r}</option>)}
              </select>
            )}
          </Field>
          <Field label="Name (optional)" name="full_name" error={invite.error}>{(p) => <input {...p} autoComplete="off" />}</Field>
        </div>
        <OtherIssues error={invite.error} fields={INVITE_FIELDS} />
        <Failure error={invite.error} />
        <div className="row-actions">
          <button type="submit" disabled={invite.isPending}>Send the invitation</button>
          {invite.isSuccess ? <span role="status" className="ok">A sign-in link went to {invite.data.email}; it works until {new Date(invite.data.expires_at).toLocaleString()}.</span> : null}
        </div>
      </form>
    </details>
  )
}

// ---------------------------------------------------------------------------------------------
// Team health

const signed = (n: number | null, unit = "") =>
  n === null ? <span className="muted">—</span> : <span className={n < 0 ? "failure" : n > 0 ? "ok" : undefined}>{n > 0 ? "+" : ""}{Math.round(n * 10) / 10}{unit}</span>
const percent = (share: number | null) => (share === null ? <span className="muted">—</span> : `${Math.round(share * 100)} %`)

const TeamHealth = () => {
  const health = useQuery({ queryKey: ["team-health"], queryFn: () => call((c) => c.workspace.getTeamHealth()) })
  const closers = usePaged(health.data?.closers ?? [], "Closer health")
  return (
    <Panel title="Team health">
      {health.isPending ? <Loading what="the team's health" /> : health.isError ? <Failure error={health.error} /> : health.data === null ? (
        <Empty>Team health comes from the assistant, which is switched off for this account. Ask Callsight's staff to switch it on.</Empty>
      ) : (
        <>
          <p className="muted">From <When at={health.data.period_start} /> to <When at={health.data.period_end} />.</p>
          <dl className="figures">
            <div><dt>Closers</dt><dd>{health.data.team.closers}</dd></div>
            <div><dt>Calls analysed</dt><dd>{health.data.team.calls_analysed}</dd></div>
            <div><dt>Average score</dt><dd><Score value={health.data.team.average_score} /></dd></div>
            <div><dt>Change</dt><dd>{signed(health.data.team.score_change, " pts")}</dd></div>
            <div><dt>Talk ratio</dt><dd>{percent(health.data.team.talk_ratio)}</dd></div>
          </dl>
          {health.data.closers.length === 0 ? (
            <Empty>No closer has an analysed call in this period. Add closers and upload their calls (or connect the recorder) to see each one's health.</Empty>
          ) : (
            <div className="table-wrap" tabIndex={0}>
              <table className="stack">
                <thead>
                  <tr><th scope="col">Closer</th><th scope="col">Health</th><th scope="col">Calls</th><th scope="col">Score</th><th scope="col">Change</th><th scope="col">Talk ratio</th><th scope="col">Weakest</th></tr>
                </thead>
                <tbody>
                  {closers.rows.map((c) => (
                    <tr key={c.email}>
                      <td><span className="strong">{c.full_name ?? c.email}</span>{c.full_name === null ? null : <><br /><span className="muted">{c.email}</span></>}</td>
                      <td data-label="Health"><Badge tone={HEALTH_TONE[c.health]}>{words(c.health)}</Badge></td>
                      <td data-label="Calls">{c.calls_analysed}</td>
                      <td data-label="Score"><Score value={c.average_score} /></td>
                      <td data-label="Change">{signed(c.score_change)}</td>
                      <td data-label="Talk ratio">{percent(c.talk_ratio)}</td>
                      <td data-label="Weakest">{c.weakest_dimension === null ? <span className="muted">—</span> : words(c.weakest_dimension)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {closers.pager}
        </>
      )}
    </Panel>
  )
}
