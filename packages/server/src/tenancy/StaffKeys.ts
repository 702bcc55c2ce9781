/**
 * The staff credentials: the admin key and the assistant key. `ADMIN_API_KEY` wins; without it,
 * the first start generates an admin key, stores its hash and prints the key once (development).
 */
import { Effect, Option, Redacted } from "effect"
import { AppConfig } from "../config.js"
import type { StaffKind } from "@callsight/api-spec"
import { digestsEqual, newSecret, secretPrefix, sha256Hex } from "../lib/Ids.js"
import { StaffKeysRepo } from "./StaffKeysRepo.js"

export class StaffKeys extends Effect.Service<StaffKeys>()("StaffKeys", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const repo = yield* StaffKeysRepo

    const storedAdminHash = Effect.gen(function* () {
      const stored = yield* repo.find("admin")
      if (Option.isSome(stored)) return stored.value
      const key = newSecret("csa")
      const hash = sha256Hex(key)
      if (!(yield* repo.insertIfAbsent({ kind: "admin", prefix: secretPrefix(key), hash }))) {
        return Option.getOrThrow(yield* repo.find("admin"))
      }
      yield* Effect.logWarning(
        `ADMIN_API_KEY is not set: generated an admin key, shown this once: ${key} ` +
          "(only its hash is stored; set ADMIN_API_KEY in production)"
      )
      return hash
    })

    const adminHash = yield* Option.match(config.adminApiKey, {
      onSome: (key) => Effect.succeed(sha256Hex(Redacted.value(key))),
      onNone: () => storedAdminHash
    })
    const assistantHash = Option.map(config.assistantApiKey, (key) => sha256Hex(Redacted.value(key)))

    /** Which staff kind a presented key is, if any. */
    const identify = (key: string): Option.Option<StaffKind> => {
      const hash = sha256Hex(key)
      if (digestsEqual(hash, adminHash)) return Option.some("admin")
      if (Option.isSome(assistantHash) && digestsEqual(hash, assistantHash.value)) return Option.some("assistant")
      return Option.none()
    }

    return { identify } as const
  }),
  dependencies: [StaffKeysRepo.Default]
}) {}
