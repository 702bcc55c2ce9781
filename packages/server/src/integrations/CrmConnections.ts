/**
 * The tenant's CRM connections (docs/domain.md, "Integrations"): `/integrations/crm-a` and `/crm/*`.
 * One connection per provider; crm-a is one record whichever door saved it (`PUT
 * /integrations/crm-a` sets `sync_outcomes`; `POST /crm/connect` keeps it, off for a new one).
 * Credentials are checked with the provider before they are stored (secret fields sealed by
 * Secrets, shown by their last four characters only); connecting again replaces them. Owners and
 * admins manage them; every change has its audit row, which names fields, never a secret.
 */
import {
  type ClientId,
  type ConnectCrmRequest,
  NotFound,
  type UpsertCrmARequest,
  ValidationFailed
} from "@callsight/api-spec"
import { Effect, Either, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { Outbound } from "../lib/Outbound.js"
import { AuditLog, changed } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { last4, Secrets } from "../tenancy/Secrets.js"
import { CrmChecks } from "./CrmChecks.js"
import { type ConnectionRow, CrmConnectionsRepo } from "./CrmConnectionsRepo.js"
import { CRM_PROVIDERS, type CrmProviderSpec, providerSpec, type SplitCredentials, splitCredentials } from "./CrmProviders.js"

const CRM_A = providerSpec("crm-a")!

const crmAView = (row: Option.Option<ConnectionRow>) =>
  Option.match(row, {
    onNone: () => ({
      provider: "crm-a" as const,
      configured: false,
      status: "not_configured" as const,
      account_id: null,
      sync_outcomes: false,
      token_last4: null,
      last_sync_at: null,
      last_error: null,
      created_at: null,
      updated_at: null
    }),
    onSome: (c) => ({
      provider: "crm-a" as const,
      configured: true,
      status: c.status,
      account_id: c.fields["account_id"] ?? null,
      sync_outcomes: c.sync_outcomes,
      token_last4: c.secret_last4["access_token"] ?? null,
      last_sync_at: c.last_sync_at,
      last_error: c.last_error,
      created_at: c.created_at,
      updated_at: c.updated_at
    })
  })

const connectionView = (c: ConnectionRow) => ({
  provider: c.provider,
  name: providerSpec(c.provider)?.name ?? c.provider,
  status: c.status,
  fields: { ...c.fields, ...c.secret_last4 },
  connected_at: c.created_at,
  updated_at: c.updated_at,
  last_sync_at: c.last_sync_at,
  last_error: c.last_error
})

const invalid = (loc: ReadonlyArray<string>, msg: string) =>
  new ValidationFailed({ detail: [{ loc: ["body", ...loc], msg, type: "value_error" }] })

export class CrmConnections extends Effect.Service<CrmConnections>()("CrmConnections", {
  effect: Effect.gen(function* () {
    const repo = yield* CrmConnectionsRepo
    const secrets = yield* Secrets
    const checks = yield* CrmChecks
    const audit = yield* AuditLog
    const transactions = yield* Transactions
    const outbound = yield* Outbound

    /**
     * Checks the credentials with the provider (a refusal or no answer is 422 on `loc`, nothing
     * stored), then saves the connection, sealed, with its audit row.
     */
    const save = (
      caller: Caller,
      spec: CrmProviderSpec,
      credentials: SplitCredentials,
      options: { readonly syncOutcomes: boolean | null; readonly loc: ReadonlyArray<string>; readonly via: string }
    ) =>
      Effect.gen(function* () {
        const checked = yield* checks.check(spec.provider, credentials)
        if (checked._tag === "Refused") {
          return yield* invalid(options.loc, `${spec.name} did not accept the credentials (HTTP ${checked.status}: ${checked.reason}); nothing was saved`)
        }
        // Not verified is not saved: the caller tries again when the provider answers.
        if (checked._tag === "Unreachable") {
          return yield* invalid(options.loc, `${spec.name} could not be reached to check the credentials (${checked.reason}); nothing was saved`)
        }
        const fields = { ...credentials.fields, ...checked.learned }
        const secretLast4 = Object.fromEntries(Object.entries(credentials.secrets).map(([name, value]) => [name, last4(value)]))
        return yield* transactions.run(
          Effect.gen(function* () {
            const saved = yield* repo.save({
              clientId: caller.clientId,
              provider: spec.provider,
              fields,
              sealedSecrets: secrets.encrypt(JSON.stringify(credentials.secrets)),
              secretLast4,
              syncOutcomes: options.syncOutcomes
            })
            yield* audit.record(caller.clientId, caller.actor, {
              action: "crm_integration.connected",
              targetType: "integration",
              targetId: spec.provider,
              metadata: {
                provider: spec.provider,
                via: options.via,
                fields,
                secret_fields: Object.keys(credentials.secrets),
                sync_outcomes: saved.sync_outcomes
              }
            })
            return saved
          })
        ).pipe(Effect.orDie)
      })

    const remove = (caller: Caller, provider: string, via: string) =>
      audit.change({
        clientId: caller.clientId,
        actor: caller.actor,
        // the row goes at once: the audit row is written in the same transaction
        lock: repo.remove(caller.clientId, provider),
        notFound: () => new NotFound({ message: `no ${provider} connection` }),
        apply: (removed) =>
          Effect.succeed(changed({ provider: removed.provider, removed: true as const, removed_at: removed.removed_at }, {
            action: "crm_integration.disconnected",
            targetType: "integration",
            targetId: removed.provider,
            metadata: { provider: removed.provider, via }
          }))
      })

    const getCrmA = Effect.fn("CrmConnections.getCrmA")(function* (clientId: ClientId) {
      return crmAView(yield* repo.find(clientId, "crm-a"))
    }, Effect.orDie)

    const upsertCrmA = Effect.fn("CrmConnections.upsertCrmA")(function* (caller: Caller, req: UpsertCrmARequest) {
      const credentials: SplitCredentials = {
        fields: req.account_id === undefined ? {} : { account_id: req.account_id },
        secrets: { access_token: req.access_token }
      }
      const saved = yield* save(caller, CRM_A, credentials, { syncOutcomes: req.sync_outcomes, loc: ["access_token"], via: "integrations/crm-a" })
      return crmAView(Option.some(saved))
    })

    const deleteCrmA = Effect.fn("CrmConnections.deleteCrmA")((caller: Caller) => remove(caller, "crm-a", "integrations/crm-a"))

    const providers = () => ({ providers: CRM_PROVIDERS })

    const status = Effect.fn("CrmConnections.status")(function* (clientId: ClientId) {
      const connections = (yield* repo.list(clientId)).map(connectionView)
      return { connected: connections.length > 0, connections }
    }, Effect.orDie)

    const connect = Effect.fn("CrmConnections.connect")(function* (caller: Caller, req: ConnectCrmRequest) {
      const spec = providerSpec(req.provider)
      if (spec === undefined) {
        return yield* new NotFound({ message: `no CRM provider ${req.provider}: GET /crm/providers lists ${CRM_PROVIDERS.map((p) => p.provider).join(", ")}` })
      }
      const credentials = splitCredentials(spec, req.credentials)
      if (Either.isLeft(credentials)) return yield* credentials.left
      // A URL field is requested at once (and by the sync later): no internal address (lib/Outbound.ts).
      for (const field of spec.fields.filter((f) => f.type === "url")) {
        const value = credentials.right.fields[field.name]
        if (value === undefined) continue
        yield* outbound.checkBaseUrl(value).pipe(Effect.mapError((refusal) => invalid(["credentials", field.name], refusal.reason)))
      }
      const saved = yield* save(caller, spec, credentials.right, { syncOutcomes: null, loc: ["credentials"], via: "crm/connect" })
      return connectionView(saved)
    })

    const disconnect = Effect.fn("CrmConnections.disconnect")((caller: Caller, provider: string) => remove(caller, provider, "crm/disconnect"))

    return { getCrmA, upsertCrmA, deleteCrmA, providers, status, connect, disconnect } as const
  }),
  dependencies: [CrmConnectionsRepo.Default, Secrets.Default, CrmChecks.Default, AuditLog.Default, Transactions.Default, Outbound.Default]
}) {}
