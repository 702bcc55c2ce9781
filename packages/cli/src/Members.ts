/**
 * `callsight admin members ...`: a tenant's members, with the staff admin key (issue 36); staff act
 * as an owner of the tenant. Each prints the member or invitation it changed (`--json`: the answer).
 * - `list CLIENT_ID`: the members and the open invitations
 * - `invite CLIENT_ID EMAIL --role R [--name N]`: e-mails a link valid 7 days, once
 * - `resend CLIENT_ID INVITATION_ID`, `revoke CLIENT_ID INVITATION_ID`
 * - `set-role CLIENT_ID USER_ID ROLE`, `remove CLIENT_ID USER_ID`
 */
import { ChangeRoleRequest, ClientId, InvitationId, InviteMemberRequest, Role, UserId } from "@callsight/api-spec"
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { MembersClientApi } from "./Apis.js"
import { body } from "./Body.js"
import { adminClient, adminKeyOption, jsonOption, urlOption } from "./Connection.js"
import { fromClientError } from "./Errors.js"
import { group } from "./Help.js"
import { printJson } from "./Output.js"

const connection = { json: jsonOption, url: urlOption, adminKey: adminKeyOption }
const clientIdArg = Args.text({ name: "CLIENT_ID" }).pipe(Args.withDescription("The tenant (cli_...)"))
const userIdArg = Args.text({ name: "USER_ID" }).pipe(Args.withDescription("The member (usr_...)"))
const invitationIdArg = Args.text({ name: "INVITATION_ID" }).pipe(Args.withDescription("The invitation (inv_...)"))

interface Person {
  readonly email: string
  readonly full_name: string | null
  readonly role: string
}
const describePerson = (id: string, p: Person, more: string) => `${id}  ${p.role.padEnd(6)}  ${p.email}${p.full_name === null ? "" : ` (${p.full_name})`}${more}`

const list = Command.make("list", { clientId: clientIdArg, ...connection }, (args) =>
  Effect.gen(function* () {
    const client = yield* adminClient(MembersClientApi, args.url, args.adminKey)
    const listed = yield* client.membersAdmin
      .adminListMembers({ path: { client_id: ClientId.make(args.clientId, true) } })
      .pipe(Effect.catchAll(fromClientError))
    if (args.json) return yield* printJson(listed)
    yield* Console.log(
      [
        ...listed.members.map((m) => describePerson(m.user_id, m, m.last_login_at === null ? "  never signed in" : `  last sign-in ${m.last_login_at}`)),
        ...listed.invitations.map((i) => describePerson(i.invitation_id, i, `  invited, until ${i.expires_at}`))
      ].join("\n")
    )
  })).pipe(Command.withDescription("A tenant's members and open invitations"))

const invite = Command.make(
  "invite",
  {
    clientId: clientIdArg,
    email: Args.text({ name: "EMAIL" }).pipe(Args.withDescription("Who to invite")),
    role: Options.choice("role", Role.literals).pipe(Options.withDescription("Their role in the tenant")),
    name: Options.text("name").pipe(Options.withPseudoName("NAME"), Options.optional, Options.withDescription("Their full name")),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const client = yield* adminClient(MembersClientApi, args.url, args.adminKey)
      const payload = yield* body(() => new InviteMemberRequest({ email: args.email, role: args.role, full_name: Option.getOrUndefined(args.name) }))
      const invitation = yield* client.membersAdmin
        .adminInviteMember({ path: { client_id: ClientId.make(args.clientId, true) }, payload })
        .pipe(Effect.catchAll(fromClientError))
      if (args.json) return yield* printJson(invitation)
      yield* Console.log(`Invited ${invitation.email} as ${invitation.role} (${invitation.invitation_id}); the link works once, until ${invitation.expires_at}.`)
    })
).pipe(Command.withDescription("Invite a person to a tenant by e-mail, with a role"))

const resend = Command.make("resend", { clientId: clientIdArg, invitationId: invitationIdArg, ...connection }, (args) =>
  Effect.gen(function* () {
    const client = yield* adminClient(MembersClientApi, args.url, args.adminKey)
    const invitation = yield* client.membersAdmin
      .adminResendInvitation({ path: { client_id: ClientId.make(args.clientId, true), invitation_id: InvitationId.make(args.invitationId, true) } })
      .pipe(Effect.catchAll(fromClientError))
    if (args.json) return yield* printJson(invitation)
    yield* Console.log(`Sent ${invitation.email} a new link, until ${invitation.expires_at}; the old one no longer works.`)
  })).pipe(Command.withDescription("E-mail a new link for an invitation"))

const revoke = Command.make("revoke", { clientId: clientIdArg, invitationId: invitationIdArg, ...connection }, (args) =>
  Effect.gen(function* () {
    const client = yield* adminClient(MembersClientApi, args.url, args.adminKey)
    const invitation = yield* client.membersAdmin
      .adminRevokeInvitation({ path: { client_id: ClientId.make(args.clientId, true), invitation_id: InvitationId.make(args.invitationId, true) } })
      .pipe(Effect.catchAll(fromClientError))
    if (args.json) return yield* printJson(invitation)
    yield* Console.log(`Revoked the invitation of ${invitation.email}.`)
  })).pipe(Command.withDescription("Revoke an invitation: its link stops working"))

const setRole = Command.make(
  "set-role",
  {
    clientId: clientIdArg,
    userId: userIdArg,
    role: Args.choice(Role.literals.map((r) => [r, r] as const), { name: "ROLE" }).pipe(Args.withDescription("The new role: owner, admin or member")),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const client = yield* adminClient(MembersClientApi, args.url, args.adminKey)
      const member = yield* client.membersAdmin
        .adminChangeMemberRole({
          path: { client_id: ClientId.make(args.clientId, true), user_id: UserId.make(args.userId, true) },
          payload: new ChangeRoleRequest({ role: args.role })
        })
        .pipe(Effect.catchAll(fromClientError))
      if (args.json) return yield* printJson(member)
      yield* Console.log(`${member.email} is now ${member.role}.`)
    })
).pipe(Command.withDescription("Change a member's role (the last owner stays one)"))

const remove = Command.make("remove", { clientId: clientIdArg, userId: userIdArg, ...connection }, (args) =>
  Effect.gen(function* () {
    const client = yield* adminClient(MembersClientApi, args.url, args.adminKey)
    const member = yield* client.membersAdmin
      .adminRemoveMember({ path: { client_id: ClientId.make(args.clientId, true), user_id: UserId.make(args.userId, true) } })
      .pipe(Effect.catchAll(fromClientError))
    if (args.json) return yield* printJson(member)
    yield* Console.log(`Removed ${member.email} (${member.role}); their sessions have ended.`)
  })).pipe(Command.withDescription("Remove a member: the user and their sessions end"))

export const members = group("members", "A tenant's members and invitations (staff act as an owner)", [list, invite, resend, revoke, setRole, remove])
