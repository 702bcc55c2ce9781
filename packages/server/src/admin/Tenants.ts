/** Staff operations on tenants: create one with its owner and first key, grant credits. */
import { Conflict, CreateClientRequest, GrantCreditsRequest, NotFound } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { ApiKeysRepo } from "../auth/ApiKeysRepo.js"
import { newId, newSecret, secretPrefix, sha256Hex } from "../lib/Ids.js"
import { LedgerRepo } from "../billing/LedgerRepo.js"
import { TenantsRepo } from "./TenantsRepo.js"

export class Tenants extends Effect.Service<Tenants>()("Tenants", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* TenantsRepo
    const keys = yield* ApiKeysRepo
    const ledger = yield* LedgerRepo

    const create = Effect.fn("Tenants.create")(function* (req: CreateClientRequest) {
      const clientId = newId("cli")
      const apiKey = newSecret("csk")
      const keyId = newId("key")
      const ownerUserId = req.owner_email === undefined ? null : newId("usr")
      const createdAt = yield* sql.withTransaction(
        Effect.gen(function* () {
          if (req.owner_email !== undefined && (yield* repo.emailTaken(req.owner_email))) {
            return yield* new Conflict({ message: `an account with the e-mail ${req.owner_email} exists` })
          }
          const createdAt = yield* repo.insertTenant({
            clientId,
            companyName: req.company_name,
            industry: req.industry ?? null,
            plan: req.plan,
            isTest: req.is_test
          })
          if (ownerUserId !== null && req.owner_email !== undefined) {
            yield* repo.insertOwner({
              userId: ownerUserId,
              clientId,
              email: req.owner_email,
              fullName: req.owner_name ?? null
            })
          }
          yield* keys.insert({ keyId, clientId, name: "default", prefix: secretPrefix(apiKey), hash: sha256Hex(apiKey) })
          if (req.credits > 0) yield* ledger.add(clientId, req.credits, "initial_grant")
          return createdAt
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      yield* Effect.annotateCurrentSpan("client_id", clientId)
      return {
        client_id: clientId,
        company_name: req.company_name,
        plan: req.plan,
        owner_user_id: ownerUserId,
        key_id: keyId,
        api_key: apiKey,
        credits_balance: req.credits,
        created_at: createdAt.toISOString()
      }
    })

    const grantCredits = Effect.fn("Tenants.grantCredits")(function* (clientId: string, req: GrantCreditsRequest) {
      const balance = yield* sql.withTransaction(
        Effect.gen(function* () {
          if (!(yield* repo.lock(clientId))) return yield* new NotFound({ message: `no client ${clientId}` })
          const before = yield* ledger.balance(clientId)
          if (before + req.amount < 0) {
            return yield* new Conflict({ message: `the balance is ${before}; it cannot go below 0` })
          }
          yield* ledger.add(clientId, req.amount, req.reason)
          return before + req.amount
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return { client_id: clientId, balance }
    })

    return { create, grantCredits } as const
  }),
  dependencies: [TenantsRepo.Default, ApiKeysRepo.Default, LedgerRepo.Default]
}) {}
