/**
 * Where the things the service names lead in the app: a call (and a moment of it) → the call page;
 * a suggested action → the app's page its `url` names (the service gives each action the web app's
 * page where it is done: `/app/calls/{id}`, `/app/team`), and where the action is one the app does
 * itself (`verify_closer`: the closer's link e-mailed again, the operation the action declares),
 * a button beside it; an answer's source → the call page or the view it rests on. And a search
 * snippet, whose text is HTML-escaped with the matches in `<b>…</b>`: shown with only those marks,
 * as text nodes (never as HTML).
 */
import { useMutation } from "@tanstack/react-query"
import type { ReactNode } from "react"
import { Link } from "wouter"
import { type Api, call } from "../../api.js"
import { Failure } from "../../ui/kit.js"

/** The call page, at a moment (seconds) when one is given. */
export const callHref = (callId: string, at?: number | null) =>
  `/calls/${encodeURIComponent(callId)}${at === null || at === undefined ? "" : `?t=${Math.max(0, Math.floor(at))}`}`

/** A call as a person knows it: the uploader's own id when it gave one, else ours. */
export const callName = (c: { readonly call_id: string; readonly external_call_id?: string | null }) => c.external_call_id ?? c.call_id

/** The app's base path, under which the service serves it. */
const APP_BASE = "/app"

/** The team screen (closers and members), where a closer's verification is sent again. */
export const TEAM_PATH = "/team"

/** An action as the service suggests it (`SuggestedAction`; a chat's answers kept in the browser from before may lack `operation`). */
export interface Action {
  readonly action: string
  readonly label: string
  readonly call_id: string | null
  readonly closer_id: string | null
  readonly url: string | null
  readonly operation?: { readonly method: string; readonly path: string } | null
}

/**
 * The app's route of a link of the service to one of the app's pages (`…/app/calls/call_1` →
 * `/calls/call_1`), whatever host the service named (its public address may not be this tab's);
 * null for any other link.
 */
export const appRoute = (url: string | null): string | null => {
  if (url === null) return null
  try {
    const u = new URL(url, window.location.origin)
    if (u.protocol !== "http:" && u.protocol !== "https:") return null
    return u.pathname.startsWith(`${APP_BASE}/`) ? `${u.pathname.slice(APP_BASE.length)}${u.search}${u.hash}` : null
  } catch {
    return null
  }
}

/** Where a suggested action is done in the app, or null when the app has no place for it. */
export const actionTarget = (action: Action): string | null => {
  const route = appRoute(action.url)
  if (route !== null) return route
  if (action.call_id !== null) return callHref(action.call_id)
  if (action.closer_id !== null) return TEAM_PATH
  return null
}

/** `verify_closer` done here: the operation it declares (POST send-verification), with what became of it. */
const SendVerification = ({ action, closerId }: { readonly action: Action; readonly closerId: string }) => {
  const send = useMutation({
    mutationFn: () => call((c) => c.clientPortal.sendCloserVerification({ path: { closer_id: closerId as typeof Api.CloserId.Type } }))
  })
  return (
    <>
      {" "}
      <button type="button" className="secondary" disabled={send.isPending || send.isSuccess} onClick={() => send.mutate()} aria-label={`Send the link again: ${action.label}`}>
        Send the link again
      </button>
      {send.isSuccess ? (
        <span role="status" className="ok">
          {" "}{send.data.verification_sent ? `Sent to ${send.data.email}; it works until ${new Date(send.data.expires_at).toLocaleString()}.` : `The mail server did not take the e-mail to ${send.data.email}: try again in a few minutes.`}
        </span>
      ) : null}
      <Failure error={send.error} />
    </>
  )
}

/** A suggested action: a link to where it is done (or its label alone), and a button where the app does it itself. */
export const ActionLink = ({ action }: { readonly action: Action }) => {
  const href = actionTarget(action)
  const link = href === null ? <span>{action.label}</span> : <Link href={href}>{action.label}</Link>
  const does = action.operation === undefined || action.operation === null ? null : action.operation
  return action.action === "verify_closer" && action.closer_id !== null && does !== null && does.method === "POST"
    ? <>{link}<SendVerification action={action} closerId={action.closer_id} /></>
    : link
}

/** The views a chat answer can rest on, by the id the service gives them. */
const VIEW_HREF: Record<string, string> = {
  daily_brief: "/workspace/briefs",
  "workspace.search": "/workspace"
}

/** An answer's source: a call → its page; a view → its screen; otherwise its label. */
export const SourceLink = ({ source }: { readonly source: { readonly kind: string; readonly id: string | null; readonly label: string } }) => {
  const href = source.kind === "call" && source.id !== null ? callHref(source.id) : source.kind === "view" && source.id !== null ? VIEW_HREF[source.id] : undefined
  const what = source.kind === "call" ? "Call" : source.kind === "closer" ? "Closer" : source.kind === "model" ? "Model" : source.kind === "view" ? "View" : source.kind
  return (
    <>
      <span className="muted">{what}: </span>
      {href === undefined ? <span>{source.label}</span> : <Link href={href}>{source.label}</Link>}
    </>
  )
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" }

/** HTML-escaped text back to its characters: `&amp;` → `&`, `&#39;` → `'`, `&#x27;` → `'`. */
export const unescapeHtml = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })

/** A search snippet: its `<b>…</b>` marks highlighted, everything else plain text. */
export const Snippet = ({ html }: { readonly html: string }) => {
  const parts: Array<ReactNode> = []
  const marks = /<b>([\s\S]*?)<\/b>/g
  let last = 0
  let k = 0
  for (const m of html.matchAll(marks)) {
    if (m.index > last) parts.push(unescapeHtml(html.slice(last, m.index)))
    parts.push(<mark key={k++}>{unescapeHtml(m[1]!)}</mark>)
    last = m.index + m[0].length
  }
  if (last < html.length) parts.push(unescapeHtml(html.slice(last)))
  return <span className="snippet">{parts}</span>
}
