/**
 * The suggested actions the daily brief and the chat answer (`SuggestedAction`), made in one place so
 * that every one of them can be done: `url` is the web app's page where a person does it (a link: a
 * GET of it answers the app, which draws that page), `operation` the operation of this service that
 * does it, with the caller's session.
 *
 * - `review_call`, `follow_up`: the call's page; GET the call's report.
 * - `record_outcome`: the call's page (its outcome form); PUT the call's outcome truth (body `OutcomeTruthRequest`).
 * - `verify_closer`: the team's page (the closers, where the e-mail is sent again); POST send-verification (no body).
 */
import type { CallId, CloserId, SuggestedAction } from "@callsight/api-spec"
import { APP_PATH } from "../http/WebApp.js"

type Action = typeof SuggestedAction.Type

const id = (value: string) => encodeURIComponent(value)

/** The web app's page of a call, and of the team (closers and members), under `/app`. */
export const appCallPath = (callId: string) => `${APP_PATH}/calls/${id(callId)}`
export const APP_TEAM_PATH = `${APP_PATH}/team`

/** The actions, their links absolute under `baseUrl` (the service's public address). */
export const suggestedActions = (baseUrl: string) => {
  const call = (action: "review_call" | "follow_up", callId: CallId, label: string, closerId: CloserId | null = null): Action => ({
    action,
    label,
    call_id: callId,
    closer_id: closerId,
    url: `${baseUrl}${appCallPath(callId)}`,
    operation: { method: "GET", path: `/v1/client-portal/calls/${id(callId)}/report` }
  })
  return {
    reviewCall: (callId: CallId, label: string, closerId: CloserId | null = null) => call("review_call", callId, label, closerId),
    followUp: (callId: CallId, label: string) => call("follow_up", callId, label),
    recordOutcome: (callId: CallId, label: string): Action => ({
      action: "record_outcome",
      label,
      call_id: callId,
      closer_id: null,
      url: `${baseUrl}${appCallPath(callId)}`,
      operation: { method: "PUT", path: `/v1/client-portal/calls/${id(callId)}/outcome-truth` }
    }),
    verifyCloser: (closerId: CloserId, label: string): Action => ({
      action: "verify_closer",
      label,
      call_id: null,
      closer_id: closerId,
      url: `${baseUrl}${APP_TEAM_PATH}`,
      operation: { method: "POST", path: `/v1/client-portal/closers/${id(closerId)}/send-verification` }
    })
  } as const
}
