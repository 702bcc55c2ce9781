/**
 * The blob store in S3-compatible object storage (S3_BUCKET), against a local s3rver: the S3_*
 * configuration, staging by multipart upload, commit under the key prefix, reading back, removal,
 * the limit, what a crash left, and the words of its failures (no such bucket, bad credentials).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Either, Layer, Option, Redacted, Stream } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BlobStore, type BlobStoreShape, STALE_STAGED_MS } from "../src/calls/BlobStore.js"
import { PART_BYTES } from "../src/calls/S3BlobStore.js"
import { AppConfig, type S3Config } from "../src/config.js"
import { type S3TestServer, startS3Server } from "./utils/S3Server.js"

const load = (env: Record<string, string>) =>
  Effect.either(
    Effect.provide(
      AppConfig,
      AppConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
    )
  )

/** A BlobStore on `s3` (a fresh local directory for its temporary files, removed after it), built in the test's scope. */
const storeOn = (s3: S3Config) =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-s3blobs-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  ).pipe(
    Effect.flatMap((blobDir) => Layer.build(BlobStore.Default.pipe(Layer.provide(AppConfig.layerWith({ s3: Option.some(s3), blobDir }))))),
    Effect.map((context): BlobStoreShape => Context.get(context, BlobStore))
  )

const bytesOf = (size: number) => new Uint8Array(randomBytes(size))
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")
/** `bytes` as a request body arrives: in chunks of 64 KiB. */
const streamOf = (bytes: Uint8Array) =>
  Stream.fromIterable(Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536)))

const multipartRequests = (s3: S3TestServer, since: number) => {
  const requests = s3.requests.slice(since)
  return {
    created: requests.filter((r) => r.method === "POST" && /[?&]uploads(=|&|$)/.test(r.url)).length,
    parts: requests.filter((r) => r.method === "PUT" && /[?&]partNumber=/.test(r.url)).length,
    aborted: requests.filter((r) => r.method === "DELETE" && /[?&]uploadId=/.test(r.url)).length,
    puts: requests.filter((r) => r.method === "PUT" && /x-id=PutObject/.test(r.url)).length
  }
}

describe("S3 configuration", () => {
  it.effect("S3_BUCKET chooses object storage; region us-east-1 and virtual-hosted style by default; keys redacted", () =>
    Effect.gen(function* () {
      const local = yield* Effect.flatten(load({}))
      expect(Option.isNone(local.s3)).toBe(true)
      const blank = yield* Effect.flatten(load({ S3_BUCKET: " " }))
      expect(Option.isNone(blank.s3)).toBe(true)

      const config = yield* Effect.flatten(load({
        S3_BUCKET: "callsight-audio",
        S3_ENDPOINT: "http://127.0.0.1:9000/",
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: "/prod/blobs",
        S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
        S3_SECRET_ACCESS_KEY: "very-secret-key"
      }))
      const s3 = Option.getOrThrow(config.s3)
      expect(s3).toMatchObject({ bucket: "callsight-audio", region: "us-east-1", forcePathStyle: true, prefix: "prod/blobs/" })
      expect(s3.endpoint).toEqual(Option.some("http://127.0.0.1:9000"))
      expect(Redacted.value(Option.getOrThrow(s3.secretAccessKey))).toBe("very-secret-key")
      // Printed or logged, the configuration shows neither key.
      expect(JSON.stringify(config)).not.toMatch(/very-secret-key|AKIAEXAMPLE/)
      expect(String(Option.getOrThrow(s3.accessKeyId))).not.toMatch(/AKIAEXAMPLE/)

      const aws = Option.getOrThrow((yield* Effect.flatten(load({ S3_BUCKET: "b-1", S3_REGION: "eu-west-3" }))).s3)
      expect(aws).toMatchObject({ region: "eu-west-3", forcePathStyle: false, prefix: "" })
      expect(Option.isNone(aws.endpoint) && Option.isNone(aws.accessKeyId)).toBe(true)
    }))

  it.effect("bad values name the variable: bucket name, one key without the other, MAX_UPLOAD_MB over 5 GiB, endpoint", () =>
    Effect.gen(function* () {
      const badName = yield* load({ S3_BUCKET: "Not_A_Bucket" })
      expect(Either.isLeft(badName) && badName.left.message).toMatch(/S3_BUCKET: must be a bucket name/)
      const onlyId = yield* load({ S3_BUCKET: "b-1", S3_ACCESS_KEY_ID: "AKIA" })
      expect(Either.isLeft(onlyId) && onlyId.left.message).toMatch(/S3_SECRET_ACCESS_KEY: must be set with/)
      const onlySecret = yield* load({ S3_BUCKET: "b-1", S3_SECRET_ACCESS_KEY: "s" })
      expect(Either.isLeft(onlySecret) && onlySecret.left.message).toMatch(/S3_ACCESS_KEY_ID: must be set with/)
      const huge = yield* load({ S3_BUCKET: "b-1", MAX_UPLOAD_MB: "6000" })
      expect(Either.isLeft(huge) && huge.left.message).toMatch(/MAX_UPLOAD_MB must not be above 5120 when S3_BUCKET is set/)
      expect(Either.isRight(yield* load({ MAX_UPLOAD_MB: "6000" }))).toBe(true)
      const endpoint = yield* load({ S3_BUCKET: "b-1", S3_ENDPOINT: "not a url" })
      expect(Either.isLeft(endpoint) && endpoint.left.message).toMatch(/S3_ENDPOINT/)
      const pathStyle = yield* load({ S3_BUCKET: "b-1", S3_FORCE_PATH_STYLE: "maybe" })
      expect(Either.isLeft(pathStyle) && pathStyle.left.message).toMatch(/S3_FORCE_PATH_STYLE/)
    }))
})

describe("S3 blob store", () => {
  it.scopedLive("stages by multipart upload, commits under the prefix, reads back, removes; a small file is one PutObject", () =>
    Effect.gen(function* () {
      const s3 = yield* startS3Server()
      const blobs = yield* storeOn(s3.config({ prefix: "callsight/" }))
      expect(blobs.backend).toBe("s3")
      yield* blobs.check

      const bytes = bytesOf(3 * PART_BYTES + 12_345)
      const since = s3.requests.length
      const staged = yield* blobs.stage(streamOf(bytes), { limitBytes: bytes.length, headBytes: 16 })
      expect(staged.size).toBe(bytes.length)
      expect(staged.sha256).toBe(sha256(bytes))
      expect(Array.from(staged.head)).toEqual(Array.from(bytes.subarray(0, 16)))
      expect(staged.tmpPath).toMatch(/^callsight\/tmp\//)
      // four parts: three whole and the rest
      expect(multipartRequests(s3, since)).toMatchObject({ created: 1, parts: 4, aborted: 0, puts: 0 })

      yield* blobs.commit(staged, "cli_a/call_a.wav")
      expect((yield* s3.list()).map((o) => o.Key)).toEqual(["callsight/cli_a/call_a.wav"])
      expect(yield* s3.digest("callsight/cli_a/call_a.wav")).toEqual({ sha256: sha256(bytes), size: bytes.length })
      expect(yield* blobs.exists("cli_a/call_a.wav")).toBe(true)
      expect(yield* blobs.exists("cli_a/other.wav")).toBe(false)

      const read = yield* Stream.runFold(blobs.read("cli_a/call_a.wav"), createHash("sha256"), (hash, chunk) => hash.update(chunk))
      expect(read.digest("hex")).toBe(sha256(bytes))
      const copied = yield* blobs.withLocalFile("cli_a/call_a.wav", (path) => Effect.sync(() => ({ path, sha: sha256(readFileSync(path)) })))
      expect(copied.sha).toBe(sha256(bytes))
      // the local copy is gone once used
      expect(() => readFileSync(copied.path)).toThrow()
      const missing = yield* Effect.flip(blobs.withLocalFile("cli_a/none.wav", () => Effect.void))
      expect(missing).toMatchObject({ _tag: "BlobReadFailed", message: `no object under "callsight/cli_a/none.wav" in the bucket "callsight-test"` })
      expect(() => blobs.pathOf("cli_a/call_a.wav")).toThrow(/in object storage \(s3:\/\/callsight-test\/callsight\/\).*withLocalFile/)

      yield* blobs.remove("cli_a/call_a.wav")
      expect(yield* blobs.exists("cli_a/call_a.wav")).toBe(false)
      yield* blobs.remove("cli_a/call_a.wav") // removing what is gone is no failure

      const small = new TextEncoder().encode("RIFF....WAVE")
      const before = s3.requests.length
      const one = yield* blobs.stage(Stream.make(small), { limitBytes: 100, headBytes: 4 })
      expect(multipartRequests(s3, before)).toMatchObject({ created: 0, parts: 0, puts: 1 })
      yield* blobs.discard(one)
      expect(yield* s3.list()).toEqual([])
    }))

  it.scopedLive("past the limit: BlobTooLarge, the multipart upload aborted and nothing left in the bucket", () =>
    Effect.gen(function* () {
      const s3 = yield* startS3Server()
      const blobs = yield* storeOn(s3.config())
      const bytes = bytesOf(3 * PART_BYTES + 100)
      const limitBytes = 2 * PART_BYTES + 100_000
      const since = s3.requests.length
      const error = yield* Effect.flip(blobs.stage(streamOf(bytes), { limitBytes, headBytes: 4 }))
      expect(error).toMatchObject({ _tag: "BlobTooLarge", limitBytes })
      // the abort is sent once the upload's parts in flight end
      yield* Effect.gen(function* () {
        while (multipartRequests(s3, since).aborted === 0) yield* Effect.sleep("50 millis")
      }).pipe(Effect.timeout("10 seconds"))
      expect(multipartRequests(s3, since)).toMatchObject({ created: 1, aborted: 1 })
      expect(yield* s3.list()).toEqual([])

      // a stream that fails midway is no object either
      const broken = Stream.concat(streamOf(bytesOf(1000)), Stream.fail("the client went away"))
      expect(yield* Effect.flip(blobs.stage(broken, { limitBytes: 10_000, headBytes: 4 }))).toBe("the client went away")
      expect(yield* s3.list()).toEqual([])
    }))

  it.scopedLive("at start-up, temporary objects a crash left over an hour ago are deleted, newer ones and blobs kept", () =>
    Effect.gen(function* () {
      const s3 = yield* startS3Server()
      const first = yield* storeOn(s3.config())
      const stage = (text: string) => first.stage(Stream.make(new TextEncoder().encode(text)), { limitBytes: 100, headBytes: 4 })
      const stale = yield* stage("left by a crash")
      const fresh = yield* stage("still uploading")
      yield* first.commit(yield* stage("a call"), "cli_a/call_a.wav")
      s3.age(stale.tmpPath, 6 * STALE_STAGED_MS + 60_000)
      s3.age("cli_a/call_a.wav", 24 * 60 * 60 * 1000)

      yield* storeOn(s3.config())
      yield* Effect.gen(function* () {
        while ((yield* s3.list()).some((o) => o.Key === stale.tmpPath)) yield* Effect.sleep("50 millis")
      }).pipe(Effect.timeout("10 seconds"))
      expect((yield* s3.list()).map((o) => o.Key).sort()).toEqual(["cli_a/call_a.wav", fresh.tmpPath].sort())
    }))

  it.scopedLive("a missing bucket and bad credentials fail in words that say so, without the secret", () =>
    Effect.gen(function* () {
      const s3 = yield* startS3Server()
      const missing = yield* storeOn(s3.config({ bucket: "no-such-bucket" }))
      const unavailable = yield* Effect.flip(missing.check)
      expect(unavailable.message).toBe(
        `object storage: the bucket "no-such-bucket" does not exist at ${s3.endpoint} (S3_BUCKET, S3_ENDPOINT)`
      )
      const write = yield* Effect.flip(missing.stage(streamOf(bytesOf(1000)), { limitBytes: 10_000, headBytes: 4 }))
      expect(write._tag).toBe("BlobWriteFailed")
      expect(String((write as any).cause?.message)).toMatch(/the bucket "no-such-bucket" does not exist|NoSuchBucket/)

      // (s3rver checks the access key of a V4 signature, not the signature)
      const secret = "a-secret-never-shown"
      const denied = yield* storeOn(s3.config({
        accessKeyId: Option.some(Redacted.make("AKIAUNKNOWN")),
        secretAccessKey: Option.some(Redacted.make(secret))
      }))
      const refused = yield* Effect.flip(denied.check)
      expect(refused.message).toMatch(/access to the bucket "callsight-test" at http:\/\/127\.0\.0\.1:\d+ was denied \(HTTP 403\): check the credentials/)
      expect(refused.message).not.toContain(secret)

      const nowhere = yield* storeOn(s3.config({ endpoint: Option.some("http://127.0.0.1:1") }))
      expect((yield* Effect.flip(nowhere.check)).message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1 for the bucket "callsight-test": ECONNREFUSED/)
    }))
})
