/** Staff operations on tenants: create one with its owner and first key, grant credits. */
import {
  ClientId,
  Conflict,
  type CreateClientRequest,
  type GrantCreditsRequest,
  KeyId,
  NotFound,
  UserId
} from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { newId, newSecret, secretPrefix, sha256Hex } from "../lib/Ids.js"
import { ApiKeysRepo } from "../tenancy/ApiKeysRepo.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"

export class Tenants extends Effect.Service<Tenants>()("Tenants", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const repo = yield* TenantsRepo
    const keys = yield* ApiKeysRepo
    const ledger = yield* LedgerRepo

    const create = Effect.fn("Tenants.create")(function* (req: CreateClientRequest) {
      const clientId = ClientId.make(newId("cli"))
      const apiKey = newSecret("csk")
      const keyId = KeyId.make(newId("key"))
      const ownerUserId = req.owner_email === undefined ? null : UserId.make(newId("usr"))
      const createdAt = yield* transactions.run(
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
          if (req.credits > 0) yield* ledger.add({ clientId, delta: req.credits, reason: "initial_grant" })
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

    const grantCredits = Effect.fn("Tenants.grantCredits")(function* (clientId: ClientId, req: GrantCreditsRequest) {
      const balance = yield* transactions.run(
        Effect.gen(function* () {
          if (Option.isNone(yield* repo.lock(clientId))) return yield* new NotFound({ message: `no client ${clientId}` })
          const before = yield* ledger.balance(clientId)
          if (before + req.amount < 0) {
            return yield* new Conflict({ message: `the balance is ${before}; it cannot go below 0` })
          }
          yield* ledger.add({ clientId, delta: req.amount, reason: req.reason })
          return before + req.amount
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return { client_id: clientId, balance }
    })

    return { create, grantCredits } as const
  }),
  dependencies: [TenantsRepo.Default, ApiKeysRepo.Default, LedgerRepo.Default, Transactions.Default]
}) {}
