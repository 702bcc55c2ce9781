/**
 * The e-mails the service sends, each as plain text and HTML. Links point at `PUBLIC_BASE_URL`
 * and carry the token in the fragment (`#token=…`), which browsers never send to a server, so it
 * stays out of access logs and `Referer` headers; the page there posts it to the API.
 */
import { escapeHtml } from "../lib/Html.js"
import type { MailMessage } from "./Mailer.js"

const layout = (title: string, paragraphs: ReadonlyArray<string>, link: { readonly href: string; readonly label: string }, after: ReadonlyArray<string>) =>
  `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<div style="max-width:520px;margin:32px auto;background:#ffffff;border-radius:12px;padding:32px">
<p style="margin:0 0 16px;font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#64748b">Callsight</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
<p style="margin:24px 0"><a href="${escapeHtml(link.href)}" style="background:#4f46e5;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(link.label)}</a></p>
${after.map((p) => `<p style="margin:0 0 12px;line-height:1.5;font-size:13px;color:#475569">${escapeHtml(p)}</p>`).join("\n")}
</div></body></html>`

/** The sign-in link of a portal user (login and signup). */
export const signInMessage = (o: {
  readonly to: string
  readonly baseUrl: string
  readonly token: string
  readonly companyName: string
  readonly validMinutes: number
}): MailMessage => {
  const link = `${o.baseUrl}/sign-in#token=${o.token}`
  const lines = [
    `Use this link to sign in to ${o.companyName} on Callsight. It works once, for ${o.validMinutes} minutes.`
  ]
  const after = [
    `From a terminal: callsight verify ${o.token}`,
    "If you did not ask to sign in, ignore this e-mail: nobody can sign in without the link."
  ]
  return {
    to: o.to,
    subject: "Your Callsight sign-in link",
    text: [...lines, "", link, "", ...after].join("\n"),
    html: layout("Sign in to Callsight", lines, { href: link, label: "Sign in" }, after),
    link
  }
}

/** An invitation to join a tenant (issue 36): its link signs the person in and creates their user, once. */
export const invitationMessage = (o: {
  readonly to: string
  readonly baseUrl: string
  readonly token: string
  readonly companyName: string
  readonly role: string
  readonly invitedBy: string
  readonly validDays: number
}): MailMessage => {
  const link = `${o.baseUrl}/sign-in#token=${o.token}`
  const lines = [
    `${o.invitedBy} invited you to join ${o.companyName} on Callsight as ${/^[aeiou]/.test(o.role) ? "an" : "a"} ${o.role}.`,
    `The link signs you in and works once, for ${o.validDays} days.`
  ]
  const after = [
    `From a terminal: callsight verify ${o.token}`,
    "If you do not know why you got this e-mail, ignore it: nothing happens without the link."
  ]
  return {
    to: o.to,
    subject: `You are invited to ${o.companyName} on Callsight`,
    text: [...lines, "", link, "", ...after].join("\n"),
    html: layout(`Join ${o.companyName} on Callsight`, lines, { href: link, label: "Accept the invitation" }, after),
    link
  }
}

/** The e-mail check of a closer added by the tenant. */
export const closerVerificationMessage = (o: {
  readonly to: string
  readonly baseUrl: string
  readonly token: string
  readonly fullName: string
  readonly companyName: string
  readonly validMinutes: number
}): MailMessage => {
  const link = `${o.baseUrl}/verify-email#token=${o.token}`
  const lines = [
    `Hello ${o.fullName},`,
    `${o.companyName} added you as a closer on Callsight, which analyses your sales calls and helps you coach them. ` +
      `Please confirm this e-mail address. The link works once, for ${o.validMinutes} minutes.`
  ]
  const after = ["If you do not know why you got this e-mail, ignore it: nothing happens without the link."]
  return {
    to: o.to,
    subject: `Confirm your e-mail for ${o.companyName} on Callsight`,
    text: [...lines, "", link, "", ...after].join("\n"),
    html: layout("Confirm your e-mail", lines, { href: link, label: "Confirm my e-mail" }, after),
    link
  }
}
