/**
 * The few pieces every screen is made of, so that every form shows a field's error next to it,
 * every list pages, every empty list says what to do next, and every failure is said the same way.
 * Accessible by construction: labels bound to inputs, errors tied by `aria-describedby` and
 * announced (`role="alert"`), headings in order, buttons that say what they do.
 */
import { type ReactNode, useId } from "react"
import { ApiError, type FieldIssue } from "../api.js"

/** The page's heading and its body. */
export const Page = ({ actions, children, title }: { readonly title: string; readonly actions?: ReactNode; readonly children: ReactNode }) => (
  <section className="page" aria-labelledby="page-title">
    <header className="page-head">
      <h1 id="page-title">{title}</h1>
      {actions === undefined ? null : <div className="page-actions">{actions}</div>}
    </header>
    {children}
  </section>
)

/** A titled block of a page. */
export const Panel = ({ children, title }: { readonly title: string; readonly children: ReactNode }) => {
  const id = useId()
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  )
}

export const Loading = ({ what }: { readonly what: string }) => <p className="muted" role="status">Loading {what}…</p>

/** A failure that is not a field's: its message (a field's issues are shown at the fields). */
export const Failure = ({ error }: { readonly error: unknown }) => {
  if (error === null || error === undefined) return null
  const message = error instanceof ApiError
    ? error.tag === "ValidationFailed" ? error.detail.length === 0 ? error.message : null : error.message
    : String(error)
  return message === null ? null : <p className="failure" role="alert">{message}</p>
}

/** Nothing to show yet, and what to do about it. */
export const Empty = ({ children }: { readonly children: ReactNode }) => <div className="empty">{children}</div>

/** The issues of `error` about the field named `name` (the last part of its `loc`). */
export const issuesAt = (error: unknown, name: string): ReadonlyArray<FieldIssue> =>
  error instanceof ApiError ? error.detail.filter((d) => String(d.loc.at(-1)) === name || d.loc.includes(name)) : []

type InputProps = {
  readonly label: string
  readonly name: string
  readonly error: unknown
  readonly hint?: string
  readonly children: (props: { id: string; name: string; "aria-invalid": boolean; "aria-describedby": string | undefined }) => ReactNode
}

/** A labelled control with its hint and, from a failed request, its own issues. */
export const Field = ({ children, error, hint, label, name }: InputProps) => {
  const id = useId()
  const issues = issuesAt(error, name)
  const described = [hint === undefined ? null : `${id}-hint`, issues.length === 0 ? null : `${id}-error`].filter((x) => x !== null).join(" ")
  return (
    <div className={issues.length === 0 ? "field" : "field invalid"}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, "aria-invalid": issues.length > 0, "aria-describedby": described === "" ? undefined : described })}
      {hint === undefined ? null : <small id={`${id}-hint`} className="muted">{hint}</small>}
      {issues.length === 0 ? null : (
        <small id={`${id}-error`} className="field-error" role="alert">
          {issues.map((i) => i.msg).join("; ")}
        </small>
      )}
    </div>
  )
}

/** Issues the form's fields do not show (a field the form has no input for). */
export const OtherIssues = ({ error, fields }: { readonly error: unknown; readonly fields: ReadonlyArray<string> }) => {
  if (!(error instanceof ApiError)) return null
  const rest = error.detail.filter((d) => !fields.some((f) => String(d.loc.at(-1)) === f || d.loc.includes(f)))
  return rest.length === 0 ? null : (
    <ul className="failure" role="alert">
      {rest.map((d, i) => <li key={i}>{d.loc.filter((p) => p !== "body" && p !== "query").join(".")}: {d.msg}</li>)}
    </ul>
  )
}

/** Previous and next page of a list paged by offset or cursor. */
export const Pager = ({ hasNext, hasPrevious, label, onNext, onPrevious }: {
  readonly label: string
  readonly hasPrevious: boolean
  readonly hasNext: boolean
  readonly onPrevious: () => void
  readonly onNext: () => void
}) => hasPrevious || hasNext ? (
  <nav className="pager" aria-label={`${label}: pages`}>
    <button type="button" onClick={onPrevious} disabled={!hasPrevious}>Previous page</button>
    <button type="button" onClick={onNext} disabled={!hasNext}>Next page</button>
  </nav>
) : null

/** A date and time in the reader's locale. */
export const When = ({ at }: { readonly at: string | null | undefined }) =>
  at === null || at === undefined ? <span className="muted">—</span> : <time dateTime={at}>{new Date(at).toLocaleString()}</time>

/** A score out of 100, or a dash. */
export const Score = ({ value }: { readonly value: number | null | undefined }) =>
  value === null || value === undefined ? <span className="muted">—</span> : <span className="score">{Math.round(value)}</span>
