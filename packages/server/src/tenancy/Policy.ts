/**
 * Who of the portal's users may call what (issue 36): one table, operation × role → allowed,
 * scoped to self, or forbidden (403), for every operation a session can call. It is enforced in one
 * place, the session's door (`http/Security.ts`): the operation is found from the route being
 * answered; a role the table forbids is 403 before the handler runs and before the body is read;
 * "self" puts `Sees.Closer` on the request's identity, and every read behind the operation filters
 * its calls with it (`Sees.ts`). The services' own role checks stay behind it as a second line. A
 * test walks the whole table with a session of each role (`Policy.test.ts`), and `docs/policy.md`
 * is this table written out (`npm run policy` writes it; a test keeps the two equal).
 *
 * The roles: owners and admins manage (API keys, closers, integrations, the recorder, members,
 * payment, retention, deleting calls, webhooks) and see the whole team; only owners export or close the
 * account. A member is a rep: where an operation reads calls, a member sees only the calls of the
 * verified closer whose e-mail is theirs ("self": their calls, reports, scorecards, coaching
 * dashboard, manual audits about them, search hits, chat answers, meetings, outcomes); a member
 * who is no closer sees no call there. What only sums up the team or the account (value and ROI
 * views, team health, health KPIs, events, the audit log) is for managers. Members still read and
 * save the team's profiles, the roster of closers and members, the plan, and their own coaching
 * and wiki progress. A rep uploads their own calls ("self" on the upload: the call's closer is the
 * rep; naming another closer is 403, and a member who is no closer cannot upload, 403), and
 * polls, lists and plays only their own. An API key, where an operation takes one too (the
 * upload, its status, the list of calls, the report, a call's audio, deleting a call), acts for the
 * whole tenant and is not a role.
 */
import type { Role } from "@callsight/api-spec"

export type Access = "allowed" | "self" | "forbidden"
export type RoleAccess = Readonly<Record<typeof Role.Type, Access>>

const everyone: RoleAccess = { owner: "allowed", admin: "allowed", member: "allowed" }
/** Managers see the team; a member only their own calls. */
const ownCalls: RoleAccess = { owner: "allowed", admin: "allowed", member: "self" }
const managers: RoleAccess = { owner: "allowed", admin: "allowed", member: "forbidden" }
const owners: RoleAccess = { owner: "allowed", admin: "forbidden", member: "forbidden" }

/** Every session operation, by `group.endpoint`. */
export const POLICY = {
  "clientAuth.logout": everyone,
  "clientAuth.getCurrentUser": everyone,
  "clientPortal.getMarketProfile": everyone,
  "clientPortal.saveMarketProfile": everyone,
  "clientPortal.getLeadContextProfile": everyone,
  "clientPortal.saveLeadContextProfile": everyone,
  "clientPortal.getAccountCockpit": ownCalls,
  "clientPortal.getPlanUsage": everyone,
  "clientPortal.getOnboardingActivation": everyone,
  "clientPortal.getOperationalTrust": managers,
  "clientPortal.getCustomerValue": managers,
  "clientPortal.getCustomerRoiDigest": managers,
  "clientPortal.getCustomerRoiReviewPack": managers,
  "clientPortal.getDailyBrief": ownCalls,
  "clientPortal.chatWithConcierge": ownCalls,
  "clientPortal.getOutcomeTruth": ownCalls,
  "clientPortal.recordOutcomeTruth": ownCalls,
  "clientPortal.listOutcomeTruthBacklog": ownCalls,
  "clientPortal.listClosers": everyone,
  "clientPortal.addCloser": managers,
  "clientPortal.updateCloserStatus": managers,
  "clientPortal.sendCloserVerification": managers,
  "clientPortal.listRecentEvents": managers,
  "clientPortal.listEvents": managers,
  "clientPortal.getHealthKpis": managers,
  "clientPortal.listAuditLogs": managers,
  "recorder.getRecallStatus": everyone,
  "recorder.activateRecall": managers,
  "recorder.deactivateRecall": managers,
  "recorder.listRecallMeetings": ownCalls,
  "recorder.recordMeeting": managers,
  "integrations.startCalendarConnection": managers,
  "integrations.disconnectCalendar": managers,
  "integrations.startVideoConnection": managers,
  "integrations.disconnectVideo": managers,
  "integrations.getCrmAIntegration": managers,
  "integrations.upsertCrmAIntegration": managers,
  "integrations.deleteCrmAIntegration": managers,
  "integrations.listLlmIntegrations": managers,
  "integrations.upsertLlmIntegration": managers,
  "integrations.deleteLlmIntegration": managers,
  "integrations.listCrmProviders": managers,
  "integrations.getCrmStatus": managers,
  "integrations.connectCrm": managers,
  "integrations.disconnectCrm": managers,
  "coaching.getCoachingStatus": everyone,
  "coaching.completeWelcome": everyone,
  "coaching.completeOath": everyone,
  "coaching.getCoachingDashboard": ownCalls,
  "coaching.listManualAudits": ownCalls,
  "coaching.createManualAudit": ownCalls,
  "coaching.getManualAudit": ownCalls,
  "coaching.listWikiSections": everyone,
  "coaching.getWikiArticle": everyone,
  "coaching.recordArticleProgress": everyone,
  "workspace.createSession": everyone,
  "workspace.getState": ownCalls,
  "workspace.search": ownCalls,
  "workspace.chat": ownCalls,
  "workspace.runAction": ownCalls,
  "workspace.sendToChannel": everyone,
  "workspace.getMeetingPrepBrief": ownCalls,
  "workspace.getDealIntelligence": ownCalls,
  "workspace.getTeamHealth": managers,
  "workspace.getCall": ownCalls,
  "audio.uploadAudio": ownCalls,
  "audio.getAnalysis": ownCalls,
  "audio.getReportHtml": ownCalls,
  "extensions.listApiKeys": managers,
  "extensions.createApiKey": managers,
  "extensions.revokeApiKey": managers,
  "extensions.listCalls": ownCalls,
  "extensions.deleteCall": managers,
  "extensions.getPortalReport": ownCalls,
  "extensions.getCallAudio": ownCalls,
  "members.listMembers": everyone,
  "members.inviteMember": managers,
  "members.resendInvitation": managers,
  "members.revokeInvitation": managers,
  "members.changeMemberRole": managers,
  "members.removeMember": managers,
  "payments.openCheckout": managers,
  "account.getRetention": everyone,
  "account.saveRetention": managers,
  "account.exportAccount": owners,
  "account.closeAccount": owners,
  "account.cancelClosing": owners,
  "webhooks.listWebhooks": managers,
  "webhooks.createWebhook": managers,
  "webhooks.deleteWebhook": managers,
  "webhooks.listWebhookDeliveries": managers,
  "webhooks.redeliverWebhook": managers,
  "trackers.listTrackers": everyone,
  "trackers.createTracker": managers,
  "trackers.updateTracker": managers,
  "trackers.deleteTracker": managers,
  "trackers.getTrackerReport": ownCalls,
  "closingAudits.createClosingAudit": managers,
  "closingAudits.listClosingAudits": managers,
  "closingAudits.getClosingAudit": managers,
  "closingAudits.getClosingAuditReport": managers,
  "closingAudits.getClosingAuditPdf": managers,
  "trends.getTrends": ownCalls
} as const satisfies Readonly<Record<string, RoleAccess>>

export type PolicyOperation = keyof typeof POLICY

/** What `role` may do with `operation`; an operation the table does not name is forbidden to everyone. */
export const accessOf = (operation: string, role: typeof Role.Type): Access =>
  (POLICY as Readonly<Record<string, RoleAccess | undefined>>)[operation]?.[role] ?? "forbidden"

/** The table as `docs/policy.md` shows it, one row an operation, grouped as the declaration groups them. */
export const policyMarkdown = (): string => {
  const word = (a: Access) => (a === "allowed" ? "yes" : a === "self" ? "own calls" : "403")
  const rows = Object.entries(POLICY).map(([op, r]) => `| \`${op}\` | ${word(r.owner)} | ${word(r.admin)} | ${word(r.member)} |`)
  return ["| operation | owner | admin | member |", "|---|---|---|---|", ...rows].join("\n")
}
