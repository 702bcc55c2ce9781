/**
 * Where the things the service names lead in the app: a call (and a moment of it) → the call page;
 * a suggested action → the call page when it is about a call (its `url` is the service's report or
 * outcome endpoint, `/v1/client-portal/calls/{id}/…` or `/v1/teams/calls/{id}/report`), the team
 * screen when it is about a closer; an answer's source → the call page or the view it rests on.
 * And a search snippet, whose text is HTML-escaped with the matches in `<b>…</b>`: shown with
 * only those marks, as text nodes (never as HTML).
 */
import type { ReactNode } from "react"
import { Link } from "wouter"

/** The call page, at a moment (seconds) when one is given. */
export const callHref = (callId: string, at?: number | null) =>
  `/calls/${encodeURIComponent(callId)}${at === null || at === undefined ? "" : `?t=${Math.max(0, Math.floor(at))}`}`

/** A call id in a URL of the service: `/v1/client-portal/calls/{id}/report`, `/v1/teams/calls/{id}/report`, … */
const CALL_IN_URL = /\/calls\/([A-Za-z0-9_-]+)(?:[/?#]|$)/

/** The team screen (closers and members), where a closer's verification is sent again. */
export const TEAM_PATH = "/team"

/** Where a suggested action is done in the app, or null when the app has no place for it. */
export const actionTarget = (action: { readonly action: string; readonly call_id: string | null; readonly closer_id: string | null; readonly url: string | null }): string | null => {
  if (action.call_id !== null) return callHref(action.call_id)
  const inUrl = action.url === null ? null : CALL_IN_URL.exec(action.url)
  if (inUrl !== null) return callHref(inUrl[1]!)
  if (action.closer_id !== null || (action.url !== null && action.url.includes("/closers/"))) return TEAM_PATH
  return null
}

/** A suggested action as a link (or its label alone when it leads nowhere in the app). */
export const ActionLink = ({ action }: { readonly action: { readonly action: string; readonly label: string; readonly call_id: string | null; readonly closer_id: string | null; readonly url: string | null } }) => {
  const href = actionTarget(action)
  return href === null ? <span>{action.label}</span> : <Link href={href}>{action.label}</Link>
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
