/**
 * A tenant's members (issue 36; docs/portal.md "Members"), beyond the spec: the portal's users and
 * the invitations that make more of them. Owners and admins invite by e-mail with a role (a magic
 * link valid 7 days, once, that creates the user when it is used), resend and revoke invitations,
 * change roles and remove members; every user of the tenant reads the list. Only an owner makes,
 * demotes or removes an owner, and the last owner can be neither demoted nor removed (409). Staff
 * do the same for a named tenant with the admin key (`membersAdmin`), acting as an owner.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ClientId, EmailAddress, Role, Text, Timestamp, UserId, strictBody } from "./Common.js"
import { Conflict, Forbidden, NotFound } from "./Errors.js"
import { AdminAuth, ApiKeyHeaders, SessionAuth } from "./Security.js"

export const InvitationId = Text.pipe(Schema.brand("InvitationId")).annotations({ description: "An invitation's id (`inv_…`)" })
export type InvitationId = typeof InvitationId.Type

/** A user of the tenant. */
export const Member = Schema.Struct({
  user_id: UserId,
  email: Text,
  full_name: Schema.NullOr(Text),
  role: Role,
  created_at: Timestamp,
  last_login_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "Member" })

/** An invitation not yet used: its link works until `expires_at`, once. */
export const Invitation = Schema.Struct({
  invitation_id: InvitationId,
  email: Text,
  full_name: Schema.NullOr(Text),
  role: Role,
  invited_by: Text.annotations({ description: "Who invited: a user id, or `staff:admin`" }),
  created_at: Timestamp,
  expires_at: Timestamp,
  status: Schema.Literal("pending", "accepted", "revoked", "expired")
}).annotations({ identifier: "Invitation" })

export const MemberList = Schema.Struct({
  members: Schema.Array(Member),
  invitations: Schema.Array(Invitation).annotations({
    description: "The invitations still open (pending), newest first; empty for a member, who may not manage them"
  })
}).annotations({ identifier: "MemberList" })

export class InviteMemberRequest extends Schema.Class<InviteMemberRequest>("InviteMemberRequest")({
  email: EmailAddress,
  role: Role,
  full_name: Schema.optional(Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(200)))
}) {}

export class ChangeRoleRequest extends Schema.Class<ChangeRoleRequest>("ChangeRoleRequest")({
  role: Role
}) {}

const UserIdPath = Schema.Struct({ user_id: UserId })
const InvitationIdPath = Schema.Struct({ invitation_id: InvitationId })

export class MembersApi extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("listMembers", "/members")
      .addSuccess(MemberList)
      .addError(Forbidden)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "The tenant's users with their roles, and its open invitations (for owners and admins)")
  )
  .add(
    HttpApiEndpoint.post("inviteMember", "/members/invitations")
      .setPayload(strictBody(InviteMemberRequest))
      .addSuccess(Invitation, { status: 201 })
      .addError(Forbidden)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(
        OpenApi.Summary,
        "Invite a person by e-mail with a role: a sign-in link valid 7 days, once, creates the user; 409 if the e-mail has an account or an open invitation"
      )
  )
  .add(
    HttpApiEndpoint.post("resendInvitation", "/members/invitations/:invitation_id/resend")
      .setPath(InvitationIdPath)
      .addSuccess(Invitation)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "E-mail a new link for an open or expired invitation (7 days from now); the old link stops working")
  )
  .add(
    HttpApiEndpoint.del("revokeInvitation", "/members/invitations/:invitation_id")
      .setPath(InvitationIdPath)
      .addSuccess(Invitation)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Revoke an invitation: its link stops working; 409 once it was accepted")
  )
  .add(
    HttpApiEndpoint.patch("changeMemberRole", "/members/:user_id")
      .setPath(UserIdPath)
      .setPayload(strictBody(ChangeRoleRequest))
      .addSuccess(Member)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Change a member's role, at once for their open sessions; 409 for the last owner")
  )
  .add(
    HttpApiEndpoint.del("removeMember", "/members/:user_id")
      .setPath(UserIdPath)
      .addSuccess(Member)
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Remove a member: the user and their sessions end at once; 409 for the last owner")
  )
  .prefix("/v1/client-portal")
  .annotate(OpenApi.Title, "Members")
  .annotate(OpenApi.Description, "Beyond the spec: the portal's users and invitations, roles, removal (issue 36).")
{}

const TenantPath = Schema.Struct({ client_id: ClientId })
const TenantUserPath = Schema.Struct({ client_id: ClientId, user_id: UserId })
const TenantInvitationPath = Schema.Struct({ client_id: ClientId, invitation_id: InvitationId })
const ADMIN = "/v1/internal/admin/clients/:client_id/members"

/** The same operations for staff, on the tenant the path names (404 when there is none); staff act as an owner. */
export class MembersAdminApi extends HttpApiGroup.make("membersAdmin")
  .add(
    HttpApiEndpoint.get("adminListMembers", ADMIN)
      .setPath(TenantPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(MemberList)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "A tenant's users with their roles and its open invitations")
  )
  .add(
    HttpApiEndpoint.post("adminInviteMember", `${ADMIN}/invitations`)
      .setPath(TenantPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(strictBody(InviteMemberRequest))
      .addSuccess(Invitation, { status: 201 })
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Invite a person to a tenant by e-mail with a role (any role, owner included)")
  )
  .add(
    HttpApiEndpoint.post("adminResendInvitation", `${ADMIN}/invitations/:invitation_id/resend`)
      .setPath(TenantInvitationPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(Invitation)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "E-mail a new link for a tenant's invitation")
  )
  .add(
    HttpApiEndpoint.del("adminRevokeInvitation", `${ADMIN}/invitations/:invitation_id`)
      .setPath(TenantInvitationPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(Invitation)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Revoke a tenant's invitation")
  )
  .add(
    HttpApiEndpoint.patch("adminChangeMemberRole", `${ADMIN}/:user_id`)
      .setPath(TenantUserPath)
      .setHeaders(ApiKeyHeaders)
      .setPayload(strictBody(ChangeRoleRequest))
      .addSuccess(Member)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Change a tenant member's role; 409 for the last owner")
  )
  .add(
    HttpApiEndpoint.del("adminRemoveMember", `${ADMIN}/:user_id`)
      .setPath(TenantUserPath)
      .setHeaders(ApiKeyHeaders)
      .addSuccess(Member)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Remove a tenant's member, ending their sessions; 409 for the last owner")
  )
  .middleware(AdminAuth)
  .annotate(OpenApi.Title, "Members (staff)")
  .annotate(OpenApi.Description, "Beyond the spec: staff manage a named tenant's members with the admin key (issue 36).")
{}
