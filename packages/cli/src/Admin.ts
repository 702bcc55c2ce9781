/**
 * `callsight admin ...`: internal administration with the staff admin key.
 * - `create-tenant --name NAME [--owner-email E] [--owner-name N] [--industry I] [--credits N] [--plan P] [--test] [--json]`
 * - `grant-credits CLIENT_ID N [--reason R] [--json]`
 * - `members list|invite|resend|revoke|set-role|remove ...` (Members.ts)
 */
import { ClientId, CreateClientRequest, GrantCreditsRequest, Plan } from "@callsight/api-spec"
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { ExtensionsClientApi } from "./Apis.js"
import { adminClient, adminKeyOption, jsonOption, urlOption } from "./Connection.js"
import { body } from "./Body.js"
import { fromClientError } from "./Errors.js"
import { group } from "./Help.js"
import { members } from "./Members.js"
import { printJson } from "./Output.js"

const createTenant = Command.make(
  "create-tenant",
  {
    name: Options.text("name").pipe(Options.withPseudoName("NAME"), Options.withDescription("Company name of the tenant")),
    ownerEmail: Options.text("owner-email").pipe(
      Options.withPseudoName("EMAIL"),
      Options.optional,
      Options.withDescription("E-mail of the owner user to create (none: no user)")
    ),
    ownerName: Options.text("owner-name").pipe(
      Options.withPseudoName("NAME"),
      Options.optional,
      Options.withDescription("Name of the owner user")
    ),
    industry: Options.text("industry").pipe(
      Options.withPseudoName("INDUSTRY"),
      Options.optional,
      Options.withDescription("Industry label")
    ),
    credits: Options.integer("credits").pipe(
      Options.withPseudoName("N"),
      Options.optional,
      Options.withDescription("Prepaid analysis credits to start with (default 0)")
    ),
    plan: Options.choice("plan", Plan.literals).pipe(Options.optional, Options.withDescription("Plan (default trial)")),
    test: Options.boolean("test").pipe(Options.withDescription("Mark the tenant as test data")),
    json: jsonOption,
    url: urlOption,
    adminKey: adminKeyOption
  },
  (args) =>
    Effect.gen(function* () {
      const client = yield* adminClient(ExtensionsClientApi, args.url, args.adminKey)
      const payload = yield* body(() =>
        new CreateClientRequest({
          company_name: args.name,
          owner_email: Option.getOrUndefined(args.ownerEmail),
          owner_name: Option.getOrUndefined(args.ownerName),
          industry: Option.getOrUndefined(args.industry),
          plan: Option.getOrUndefined(args.plan),
          credits: Option.getOrUndefined(args.credits),
          is_test: args.test
        })
      )
      const created = yield* client.extensions.createClient({ payload }).pipe(Effect.catchAll(fromClientError))
      if (args.json) return yield* printJson(created)
      const owner = Option.match(args.ownerEmail, { onNone: () => "", onSome: (email) => ` (${email})` })
      yield* Console.log(
        [
          `Created tenant "${created.company_name}": plan ${created.plan}, ${created.credits_balance} credits.`,
          `  client id:  ${created.client_id}`,
          ...(created.owner_user_id === null ? [] : [`  owner user: ${created.owner_user_id}${owner}`]),
          `  API key:    ${created.api_key}`,
          "The API key is shown once: store it now (the service keeps only its hash)."
        ].join("\n")
      )
    })
).pipe(Command.withDescription("Create a tenant, its owner user (with --owner-email) and its first API key"))

const DEFAULT_REASON = "granted with the callsight CLI"

const grantCredits = Command.make(
  "grant-credits",
  {
    clientId: Args.text({ name: "CLIENT_ID" }).pipe(Args.withDescription("The tenant (cli_...)")),
    amount: Args.integer({ name: "N" }).pipe(
      Args.withDescription("Credits to add (negative: to withdraw; write `-- -5`)")
    ),
    reason: Options.text("reason").pipe(
      Options.withPseudoName("TEXT"),
      Options.withDefault(DEFAULT_REASON),
      Options.withDescription("Why, for the ledger")
    ),
    json: jsonOption,
    url: urlOption,
    adminKey: adminKeyOption
  },
  (args) =>
    Effect.gen(function* () {
      const client = yield* adminClient(ExtensionsClientApi, args.url, args.adminKey)
      const payload = yield* body(() => new GrantCreditsRequest({ amount: args.amount, reason: args.reason }))
      const balance = yield* client.extensions
        .grantCredits({ path: { client_id: ClientId.make(args.clientId, true) }, payload })
        .pipe(Effect.catchAll(fromClientError))
      if (args.json) return yield* printJson(balance)
      const verb = args.amount >= 0 ? `Granted ${args.amount} credits to` : `Withdrew ${-args.amount} credits from`
      yield* Console.log(`${verb} ${balance.client_id}: balance ${balance.balance}.`)
    })
).pipe(Command.withDescription("Add prepaid analysis credits to a tenant (or withdraw them)"))

export const admin = group("admin", "Internal administration (needs the admin key)", [createTenant, grantCredits, members])
