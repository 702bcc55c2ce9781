/**
 * Who of the portal's users may call what (issue 36): one table, operation × role → allowed or
 * forbidden (403), for every operation a session can call. It is enforced in one place, the
 * session's door (`http/Security.ts`): the operation is found from the route being answered, and a
 * role the table forbids is 403 before the handler runs and before the body is read. The services'
 * own role checks stay behind it as a second line. A test walks the whole table with a session of
 * each role (`Policy.test.ts`), and `docs/policy.md` is this table written out (a test keeps the two
 * equal: `npm run status` writes it).
 *
 * The roles: owners and admins manage (API keys, closers, integrations, the recorder, members,
 * payment, retention, deleting calls); members read, save profiles, record outcomes, coach and use
 * the workspace; only owners export or close the account. An API key, where an operation takes one
 * too (the report, deleting a call), acts for the whole tenant and is not a role.
 *
 * Not yet here (issue 36, item 2, left): a member who is a verified closer sees only their own calls
 * ("self"); today every allowed role sees the whole tenant.
 */
import type { Role } from "@callsight/api-spec"

export type Access = "allowed" | "forbidden"
export type RoleAccess = Readonly<Record<typeof Role.Type, Access>>

const everyone: RoleAccess = { owner: "allowed", admin: "allowed", member: "allowed" }
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
  "clientPortal.getAccountCockpit": everyone,
  "clientPortal.getPlanUsage": everyone,
  "clientPortal.getOnboardingActivation": everyone,
  "clientPortal.getOperationalTrust": everyone,
  "clientPortal.getCustomerValue": everyone,
  "clientPortal.getCustomerRoiDigest": everyone,
  "clientPortal.getCustomerRoiReviewPack": everyone,
  "clientPortal.getDailyBrief": everyone,
  "clientPortal.chatWithConcierge": everyone,
  "clientPortal.getOutcomeTruth": everyone,
  "clientPortal.recordOutcomeTruth": everyone,
  "clientPortal.listOutcomeTruthBacklog": everyone,
  "clientPortal.listClosers": everyone,
  "clientPortal.addCloser": managers,
  "clientPortal.updateCloserStatus": managers,
  "clientPortal.sendCloserVerification": managers,
  "clientPortal.listRecentEvents": everyone,
  "clientPortal.listEvents": everyone,
  "clientPortal.getHealthKpis": everyone,
  "clientPortal.listAuditLogs": everyone,
  "recorder.getRecallStatus": everyone,
  "recorder.activateRecall": managers,
  "recorder.deactivateRecall": managers,
  "recorder.listRecallMeetings": everyone,
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
  "coaching.getCoachingDashboard": everyone,
  "coaching.listManualAudits": everyone,
  "coaching.createManualAudit": everyone,
  "coaching.getManualAudit": everyone,
  "coaching.listWikiSections": everyone,
  "coaching.getWikiArticle": everyone,
  "coaching.recordArticleProgress": everyone,
  "workspace.createSession": everyone,
  "workspace.getState": everyone,
  "workspace.search": everyone,
  "workspace.chat": everyone,
  "workspace.runAction": everyone,
  "workspace.sendToChannel": everyone,
  "workspace.getMeetingPrepBrief": everyone,
  "workspace.getDealIntelligence": everyone,
  "workspace.getTeamHealth": everyone,
  "workspace.getCall": everyone,
  "audio.getReportHtml": everyone,
  "extensions.listApiKeys": managers,
  "extensions.createApiKey": managers,
  "extensions.revokeApiKey": managers,
  "extensions.deleteCall": managers,
  "extensions.getPortalReport": everyone,
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
  "account.cancelClosing": owners
} as const satisfies Readonly<Record<string, RoleAccess>>

export type PolicyOperation = keyof typeof POLICY

/** Whether `role` may call `operation`; an operation the table does not name is allowed to no one. */
export const allows = (operation: string, role: typeof Role.Type): boolean =>
  (POLICY as Readonly<Record<string, RoleAccess | undefined>>)[operation]?.[role] === "allowed"

/** The table as `docs/policy.md` shows it, one row an operation, grouped as the declaration groups them. */
export const policyMarkdown = (): string => {
  const word = (a: Access) => (a === "allowed" ? "yes" : "403")
  const rows = Object.entries(POLICY).map(([op, r]) => `| \`${op}\` | ${word(r.owner)} | ${word(r.admin)} | ${word(r.member)} |`)
  return ["| operation | owner | admin | member |", "|---|---|---|---|", ...rows].join("\n")
}
