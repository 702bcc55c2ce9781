/**
 * 4.2 Client authentication: passwordless sign-in by an e-mailed magic link. Login, signup and
 * verify are public; logout and me take the session cookie.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ClientId, CloserId, EmailAddress, NonEmptyTrimmedText, Role, Text, Timestamp, UserId, strictBody } from "./Common.js"
import { Conflict, TooManyRequests, Unauthorized } from "./Errors.js"
import { SESSION_COOKIE, SessionAuth } from "./Security.js"


const MagicLinkToken = Text.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(512)).annotations({
  description: "The token of the magic link (single use, valid 15 minutes)"
})

export class LoginRequest extends Schema.Class<LoginRequest>("LoginRequest")({
  email: EmailAddress
}) {}

export const LoginResponse = Schema.Struct({
  magic_link_sent: Schema.Boolean.annotations({
    description: "Always true: the answer is the same whether or not the e-mail has an account"
  }),
  message: Text
}).annotations({ identifier: "LoginResponse" })

export class SignupRequest extends Schema.Class<SignupRequest>("SignupRequest")({
  email: EmailAddress,
  company_name: NonEmptyTrimmedText.pipe(Schema.maxLength(200)),
  full_name: Schema.optional(NonEmptyTrimmedText.pipe(Schema.maxLength(200))),
  industry: Schema.optional(NonEmptyTrimmedText.pipe(Schema.maxLength(200)))
}) {}

export const SignupResponse = Schema.Struct({
  client_id: ClientId,
  user_id: UserId,
  email: Text,
  magic_link_sent: Schema.Boolean
}).annotations({ identifier: "SignupResponse" })

export class VerifyRequest extends Schema.Class<VerifyRequest>("VerifyRequest")({
  token: MagicLinkToken
}) {}

/** The closer a user is: the one whose calls a rep sees as their own (docs/policy.md). */
export const UserCloser = Schema.Struct({
  closer_id: CloserId,
  email: Text,
  full_name: Text
}).annotations({
  identifier: "UserCloser",
  description:
    "The tenant's closer whose e-mail is the user's (any case), confirmed and not removed: the closer the user is. " +
    "A member who is one is a rep and sees that closer's calls where the policy says \"own calls\"."
})

/** A closing account: when its owner closed it, and when its data goes. */
export const AccountClosing = Schema.Struct({
  closing_at: Timestamp.annotations({ description: "When an owner closed the account (`POST /v1/client-portal/close`)" }),
  deleted_after: Timestamp.annotations({
    description: "When the retention pass deletes all the account's data (ACCOUNT_CLOSE_GRACE_DAYS after closing), unless an owner keeps it before"
  })
}).annotations({ identifier: "AccountClosing" })

/** The signed-in portal user (the spec's `ClientUser`, with the closer they are and the account's closing). */
export class ClientUser extends Schema.Class<ClientUser>("ClientUser")({
  user_id: UserId,
  client_id: ClientId,
  email: Text,
  full_name: Schema.NullOr(Text),
  role: Role,
  company_name: Text,
  created_at: Timestamp,
  last_login_at: Schema.NullOr(Timestamp),
  closer: Schema.NullOr(UserCloser).annotations({
    description:
      "The verified, not removed closer whose e-mail is the user's (the rule the session applies to \"own calls\"); " +
      "null when the user is no closer (e.g. an owner who does not sell, a member not yet verified)"
  }),
  account_closing: Schema.NullOr(AccountClosing).annotations({
    description: "Set while the account is closing (its users still sign in and may export until `deleted_after`); null otherwise"
  })
}) {}

export const VerifyResponse = Schema.Struct({
  user: ClientUser,
  session_expires_at: Timestamp.annotations({ description: "The session slides: each use extends it by 14 days" })
}).annotations({ identifier: "VerifyResponse" })

export const LogoutResponse = Schema.Struct({
  logged_out: Schema.Boolean
}).annotations({ identifier: "LogoutResponse" })

export class ClientAuthApi extends HttpApiGroup.make("clientAuth")
  .add(
    HttpApiEndpoint.post("login", "/login")
      .setPayload(strictBody(LoginRequest))
      .addSuccess(LoginResponse)
      .addError(TooManyRequests)
      .annotate(
        OpenApi.Summary,
        "Requests a magic link by e-mail; answers the same whether or not the e-mail has an account. " +
          "Rate limited per e-mail and per client address (429 with `Retry-After`)."
      )
  )
  .add(
    HttpApiEndpoint.post("signup", "/signup")
      .setPayload(strictBody(SignupRequest))
      // One annotation call: re-annotating a schema drops its identifier, so `{ status: 201 }` alone would inline it.
      .addSuccess(SignupResponse.annotations(HttpApiSchema.annotations({ identifier: "SignupResponse", status: 201 })))
      .addError(Conflict)
      .addError(TooManyRequests)
      .annotate(
        OpenApi.Summary,
        "Creates a tenant and an owner user, then sends a magic link. 409 when the e-mail already has an account; " +
          "rate limited per e-mail and per client address (429 with `Retry-After`)."
      )
  )
  .add(
    HttpApiEndpoint.post("verifyMagicLink", "/verify")
      .setPayload(strictBody(VerifyRequest))
      .addSuccess(VerifyResponse)
      .addError(Unauthorized)
      .addError(Conflict)
      .annotate(
        OpenApi.Summary,
        `Verifies the magic-link token (a sign-in link, or an invitation's, which makes its user); creates an HttpOnly session cookie \`${SESSION_COOKIE}\`. ` +
          "401 for an unknown, used or expired token; 409 when an invitation's e-mail got an account since."
      )
  )
  .add(
    HttpApiEndpoint.post("logout", "/logout")
      .addSuccess(LogoutResponse)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Destroys the session and clears the cookie")
  )
  .add(
    HttpApiEndpoint.get("getCurrentUser", "/me")
      .addSuccess(ClientUser)
      .middleware(SessionAuth)
      .annotate(OpenApi.Summary, "Profile of the user identified by the cookie, with the closer they are and whether the account is closing")
  )
  .prefix("/v1/client-auth")
  .annotate(OpenApi.Title, "Client authentication")
  .annotate(OpenApi.Description, "Passwordless sign-in to the portal: signup, a magic link by e-mail, the session cookie.")
{}
