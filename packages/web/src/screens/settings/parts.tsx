/**
 * Small pieces the Team and Settings screens share: a list paged in the browser (for the
 * operations that answer a whole list at once), a button that asks before it does something that
 * cannot be undone, a status badge with its tone, the issues of one row of a repeated group of
 * fields, a copy button for what is shown once, and the text helpers of the forms. (A form is
 * sent with `checked`, in `api.ts`.)
 */
import { type ReactNode, useId, useState } from "react"
import { ApiError } from "../../api.js"
import { issuesAt, Pager } from "../../ui/kit.js"

/** Rows per page of the lists paged in the browser. */
export const PAGE_SIZE = 20

/** One page of `items` and the `Pager` that moves through them. */
export const usePaged = <A,>(items: ReadonlyArray<A>, label: string, size = PAGE_SIZE) => {
  const [page, setPage] = useState(0)
  const last = Math.max(0, Math.ceil(items.length / size) - 1)
  const at = Math.min(page, last)
  return {
    rows: items.slice(at * size, at * size + size),
    pager: (
      <Pager
        label={label}
        hasPrevious={at > 0}
        hasNext={at < last}
        onPrevious={() => setPage(at - 1)}
        onNext={() => setPage(at + 1)}
      />
    )
  }
}

/** A button that asks "are you sure" in place (no dialog) before it acts. */
export const ConfirmButton = ({ children, confirm, disabled, onConfirm, question }: {
  readonly children: ReactNode
  readonly question: string
  readonly confirm: string
  readonly onConfirm: () => void
  readonly disabled?: boolean
}) => {
  const [asking, setAsking] = useState(false)
  return asking ? (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button type="button" className="danger" onClick={() => { setAsking(false); onConfirm() }}>{confirm}</button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  ) : (
    <button type="button" className="secondary" disabled={disabled} onClick={() => setAsking(true)}>{children}</button>
  )
}

export type Tone = "good" | "warn" | "bad" | "plain"

/** A status as a badge, coloured by its tone (and always said in words). */
export const Badge = ({ children, tone = "plain" }: { readonly children: ReactNode; readonly tone?: Tone }) => (
  <span className={tone === "plain" ? "badge" : `badge ${tone}`}>{children}</span>
)

/**
 * The issues of one row of a repeated group (`["icps", 2]`), as an error whose `loc`s start after
 * it: the row's `<Field name="label">` then shows its own issue, not another row's.
 */
export const scoped = (error: unknown, path: ReadonlyArray<string | number>): unknown => {
  if (!(error instanceof ApiError)) return null
  const detail = error.detail.flatMap((d) => {
    const start = d.loc.findIndex((p, i) => path.every((q, j) => String(d.loc[i + j]) === String(q)))
    return start < 0 ? [] : [{ loc: d.loc.slice(start + path.length), msg: d.msg }]
  })
  return detail.length === 0 ? null : new ApiError(error.tag, error.message, detail)
}

/** A group of checkboxes or radios with its legend and, from a failed request, its issues. */
export const Choices = ({ children, error, hint, legend, name }: {
  readonly legend: string
  readonly name: string
  readonly error: unknown
  readonly hint?: string
  readonly children: ReactNode
}) => {
  const id = useId()
  const issues = issuesAt(error, name)
  return (
    <fieldset className={issues.length === 0 ? "choices" : "choices invalid"} aria-describedby={issues.length === 0 ? undefined : `${id}-error`}>
      <legend>{legend}</legend>
      {children}
      {hint === undefined ? null : <small className="muted">{hint}</small>}
      {issues.length === 0 ? null : <small id={`${id}-error`} className="field-error" role="alert">{issues.map((i) => i.msg).join("; ")}</small>}
    </fieldset>
  )
}

/** The issues about a whole group (`icps` too many), not about one of its rows. */
export const GroupIssues = ({ error, name }: { readonly error: unknown; readonly name: string }) => {
  const issues = error instanceof ApiError ? error.detail.filter((d) => String(d.loc.at(-1)) === name) : []
  return issues.length === 0 ? null : <p className="field-error" role="alert">{issues.map((i) => i.msg).join("; ")}</p>
}

/** Copies `text` to the clipboard, and says so. */
export const CopyButton = ({ label, text }: { readonly text: string; readonly label: string }) => {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no")
  return (
    <>
      <button
        type="button"
        onClick={() => {
          navigator.clipboard.writeText(text).then(() => setCopied("yes"), () => setCopied("failed"))
        }}
      >
        {label}
      </button>
      <span role="status" className={copied === "failed" ? "failure" : "ok"}>
        {copied === "yes" ? "Copied." : copied === "failed" ? "The browser would not copy: select the text and copy it." : ""}
      </span>
    </>
  )
}

/**
 * A secret shown this once (a new API key, a signing secret): what to do with it, the value
 * selected on focus, a copy button and, when `onHide` is given, the button that hides it.
 */
export const ShownOnce = ({ children, copyLabel, label, onHide, value }: {
  readonly children: ReactNode
  readonly label: string
  readonly value: string
  readonly copyLabel: string
  readonly onHide?: () => void
}) => {
  const id = useId()
  return (
    <div className="callout" role="alert">
      {children}
      <label htmlFor={id} className="visually-hidden">{label}</label>
      <input id={id} className="secret" readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
      <div className="row-actions">
        <CopyButton text={value} label={copyLabel} />
        {onHide === undefined ? null : <button type="button" className="secondary" onClick={onHide}>I have stored it: hide it</button>}
      </div>
    </div>
  )
}

/** A form's text: trimmed, `undefined` when blank (left out of the body). */
export const text = (value: string): string | undefined => {
  const v = value.trim()
  return v === "" ? undefined : v
}

/** A number typed in a text box: `undefined` when blank, the text itself when it is no number (the schema then says so at the field). */
export const numberOf = (value: string): number | string | undefined => {
  const v = value.trim()
  if (v === "") return undefined
  const n = Number(v.replace(/[\s,_]/g, ""))
  return Number.isFinite(n) ? n : v
}

/** One entry a line (blank lines left out). */
export const lines = (value: string): ReadonlyArray<string> => value.split("\n").map((l) => l.trim()).filter((l) => l !== "")

/** Words of an identifier: `pending_verification` → "pending verification". */
export const words = (s: string) => s.replace(/[_-]/g, " ")

/** The fields of `values` that are not undefined. */
export const defined = (values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined))
