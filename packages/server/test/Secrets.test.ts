/**
 * Integration secrets at rest: AES-256-GCM under SECRETS_KEY, the key id on each ciphertext so a
 * rotation keeps old secrets readable, a development key generated once (mode 0600), and no start
 * in production without a key.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig, type AppConfigShape } from "../src/config.js"
import { last4, Secrets } from "../src/tenancy/Secrets.js"

const newKey = () => Redacted.make(randomBytes(32).toString("base64"))

const secretsWith = (config: Partial<AppConfigShape>) =>
  Effect.provide(Secrets, Secrets.Default.pipe(Layer.provide(AppConfig.layerWith(config))))

describe("Secrets", () => {
  it.effect("seals and opens a secret; the sealed text holds neither the secret nor the key", () =>
    Effect.gen(function* () {
      const key = newKey()
      const secrets = yield* secretsWith({ secretsKey: Option.some(key) })
      const secret = "sk-live-0123456789abcdef"
      const sealed = secrets.encrypt(secret)
      expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/)
      expect(sealed).not.toContain(secret)
      expect(sealed).not.toContain(Redacted.value(key))
      expect(secrets.encrypt(secret)).not.toBe(sealed) // a fresh IV each time
      expect(yield* secrets.decrypt(sealed)).toBe(secret)
      expect(last4(secret)).toBe("cdef")
    }))

  it.effect("an altered secret, or one sealed by an unknown key, does not open", () =>
    Effect.gen(function* () {
      const secrets = yield* secretsWith({ secretsKey: Option.some(newKey()) })
      const sealed = secrets.encrypt("token")
      const parts = sealed.split(".")
      const altered = [...parts.slice(0, 4), `${parts[4]!.slice(0, -2)}AA`].join(".")
      expect((yield* Effect.flip(secrets.decrypt(altered)))._tag).toBe("SecretUnreadable")
      const other = yield* secretsWith({ secretsKey: Option.some(newKey()) })
      expect((yield* Effect.flip(other.decrypt(sealed))).message).toContain(`key ${parts[1]}`)
    }))

  it.effect("rotation: with the old key as SECRETS_KEY_PREVIOUS, old secrets open and new ones use the new key", () =>
    Effect.gen(function* () {
      const oldKey = newKey()
      const before = yield* secretsWith({ secretsKey: Option.some(oldKey) })
      const sealedBefore = before.encrypt("old secret")
      const after = yield* secretsWith({ secretsKey: Option.some(newKey()), secretsKeyPrevious: Option.some(oldKey) })
      expect(yield* after.decrypt(sealedBefore)).toBe("old secret")
      const sealedAfter = after.encrypt("new secret")
      expect(sealedAfter.split(".")[1]).toBe(after.keyId)
      expect(sealedAfter.split(".")[1]).not.toBe(before.keyId)
    }))

  it.scoped("development without SECRETS_KEY: a key is generated once into DATA_DIR, mode 0600, and reused", () =>
    Effect.gen(function* () {
      const dataDir = mkdtempSync(join(tmpdir(), "callsight-secrets-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const first = yield* secretsWith({ dataDir, secretsKey: Option.none(), production: false })
      const path = join(dataDir, "secrets.key")
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(Buffer.from(readFileSync(path, "utf8").trim(), "base64").length).toBe(32)
      const sealed = first.encrypt("kept across restarts")
      const second = yield* secretsWith({ dataDir, secretsKey: Option.none(), production: false })
      expect(second.keyId).toBe(first.keyId)
      expect(yield* second.decrypt(sealed)).toBe("kept across restarts")
    }))

  it.scoped("production without SECRETS_KEY does not start, and says which variable", () =>
    Effect.gen(function* () {
      const dataDir = mkdtempSync(join(tmpdir(), "callsight-secrets-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const exit = yield* Effect.exit(secretsWith({ dataDir, secretsKey: Option.none(), production: true }))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(JSON.stringify(exit)).toContain("SECRETS_KEY must be set when NODE_ENV=production")
    }))
})
