/**
 * Which tenant a presented API key belongs to, on every request of an agent (a status poll is
 * one). A key found live is remembered by its SHA-256 for `API_KEY_CACHE_SECONDS` (5 s by
 * default, 0 turns it off), so a polling agent costs one statement per poll, not two; an unknown
 * key is never remembered, so a key just created works at once. Revoking a key forgets every
 * remembered key in this process at once; another process stops accepting it within the TTL.
 * Its last use is written at most once a minute per key and process (the statement itself also
 * writes at most once a minute, across processes).
 */
import type { KeyId } from "@callsight/api-spec"
import { Cache, Duration, Effect, Exit, Option } from "effect"
import { AppConfig } from "../config.js"
import { sha256Hex } from "../lib/Ids.js"
import { spanned } from "../lib/Spans.js"
import { ApiKeysRepo } from "./ApiKeysRepo.js"

const TOUCH_EVERY_MS = 60_000

export class TenantKeys extends Effect.Service<TenantKeys>()("TenantKeys", {
  scoped: Effect.gen(function* () {
    const repo = yield* ApiKeysRepo
    const { apiKeyCacheSeconds } = yield* AppConfig
    const remembered = Duration.seconds(apiKeyCacheSeconds)
    const cache = yield* Cache.makeWith({
      capacity: 10_000,
      lookup: (hash: string) => Effect.orDie(repo.findActiveByHash(hash)),
      timeToLive: (exit) => (Exit.isSuccess(exit) && Option.isSome(exit.value) ? remembered : Duration.zero)
    })
    const touched = new Map<KeyId, number>()

    /** The live key of this value, with its tenant; none for an unknown or revoked key. */
    const find = spanned("TenantKeys.find", (key: string) =>
      Effect.tap(cache.get(sha256Hex(key)), (found) => {
        if (Option.isNone(found)) return Effect.void
        const now = Date.now()
        if (now - (touched.get(found.value.key_id) ?? 0) <= TOUCH_EVERY_MS) return Effect.void
        touched.set(found.value.key_id, now)
        return Effect.orDie(repo.touch(found.value.key_id))
      }))

    /** Forgets every remembered key: a revoked one is refused from the next request on. */
    const forget = cache.invalidateAll

    return { find, forget } as const
  }),
  dependencies: [ApiKeysRepo.Default]
}) {}
