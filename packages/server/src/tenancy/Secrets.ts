/**
 * Secrets of the tenants' integrations (OAuth tokens, CRM tokens, LLM and speech-to-text keys),
 * encrypted at rest with AES-256-GCM under `SECRETS_KEY` (32 bytes, base64). Each ciphertext names
 * the key it was sealed with (the first 8 hex digits of the key's SHA-256), so during a rotation
 * `SECRETS_KEY_PREVIOUS` still opens what the old key sealed while new secrets use the new key.
 *
 * Without `SECRETS_KEY`, development generates a key once into `DATA_DIR/secrets.key` (mode 0600)
 * and says so in the log; production (`NODE_ENV=production`) refuses to start. A secret never
 * leaves this module but to the integration that uses it: reads show its last four characters.
 */
import { Data, Effect, Option, Redacted } from "effect"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { AppConfig } from "../config.js"

const VERSION = "v1"
const KEY_BYTES = 32
const IV_BYTES = 12

/** A sealed secret that no configured key opens (unknown key id, altered, or not ours). */
export class SecretUnreadable extends Data.TaggedError("SecretUnreadable")<{ readonly message: string }> {}

/** The server cannot hold secrets: no usable key. */
export class SecretsKeyMissing extends Data.TaggedError("SecretsKeyMissing")<{ readonly message: string }> {}

interface Key {
  readonly id: string
  readonly bytes: Buffer
}

const keyOf = (bytes: Buffer): Key => ({ id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes })

/** A key from its base64 text; undefined when it is not 32 bytes. */
export const parseKey = (text: string): Buffer | undefined => {
  const bytes = Buffer.from(text.trim(), "base64")
  return bytes.length === KEY_BYTES ? bytes : undefined
}

/** The last four characters of a secret, what reads show of it. */
export const last4 = (secret: string): string => secret.slice(-4)

const b64 = (bytes: Buffer) => bytes.toString("base64url")

/** Seals `plaintext` under `key`: `v1.<key id>.<iv>.<tag>.<ciphertext>`. */
const seal = (key: Key, plaintext: string): string => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv)
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return [VERSION, key.id, b64(iv), b64(cipher.getAuthTag()), b64(body)].join(".")
}

const open = (keys: ReadonlyArray<Key>, sealed: string): Effect.Effect<string, SecretUnreadable> => {
  const [version, id, iv, tag, body] = sealed.split(".")
  const key = keys.find((k) => k.id === id)
  if (version !== VERSION || key === undefined || iv === undefined || tag === undefined || body === undefined) {
    return Effect.fail(new SecretUnreadable({ message: `no configured key opens this secret (key ${id ?? "?"})` }))
  }
  return Effect.try({
    try: () => {
      const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"))
      decipher.setAuthTag(Buffer.from(tag, "base64url"))
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
    },
    catch: () => new SecretUnreadable({ message: `the secret sealed with key ${id} does not open: altered or another key` })
  })
}

/** The development key: read from `DATA_DIR/secrets.key`, or made there once (mode 0600). */
const developmentKey = (dataDir: string) =>
  Effect.gen(function* () {
    const path = join(dataDir, "secrets.key")
    const existing = yield* Effect.promise(() => readFile(path, "utf8").catch(() => undefined))
    if (existing !== undefined) {
      const bytes = parseKey(existing)
      if (bytes !== undefined) return bytes
      return yield* new SecretsKeyMissing({ message: `${path} does not hold a 32-byte base64 key: fix or remove it` })
    }
    const bytes = randomBytes(KEY_BYTES)
    yield* Effect.promise(async () => {
      await mkdir(dataDir, { recursive: true })
      await writeFile(path, `${bytes.toString("base64")}\n`, { mode: 0o600, flag: "wx" })
      await chmod(path, 0o600)
    })
    yield* Effect.logWarning(
      `SECRETS_KEY is not set: generated a key for integration secrets into ${path} (mode 0600); ` +
        "set SECRETS_KEY in production, where the server does not start without it"
    )
    return bytes
  })

export class Secrets extends Effect.Service<Secrets>()("Secrets", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const current = yield* Option.match(config.secretsKey, {
      onSome: (key) => Effect.succeed(parseKey(Redacted.value(key))!),
      onNone: () =>
        config.production
          ? Effect.fail(new SecretsKeyMissing({ message: "SECRETS_KEY must be set when NODE_ENV=production (32 bytes, base64)" }))
          : developmentKey(config.dataDir)
    })
    const keys = [keyOf(current), ...Option.toArray(Option.map(config.secretsKeyPrevious, (k) => keyOf(parseKey(Redacted.value(k))!)))]

    /** Seals a secret under the current key. */
    const encrypt = (plaintext: string): string => seal(keys[0]!, plaintext)

    /** Opens a sealed secret with whichever configured key sealed it. */
    const decrypt = (sealed: string) => open(keys, sealed)

    return { encrypt, decrypt, keyId: keys[0]!.id } as const
  })
}) {}
