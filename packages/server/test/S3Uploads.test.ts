/**
 * The service with its blobs in object storage (S3_BUCKET on a local s3rver): an upload through
 * the API lands in the bucket with its SHA-256, the analysis worker reads it back and completes
 * it; a 20 MB upload is streamed as a multipart upload; one over the limit leaves nothing; and a
 * missing bucket makes /ready answer 503 and uploads fail, in words that name it.
 */
import { HttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { PART_BYTES, QUEUE_SIZE } from "../src/calls/S3BlobStore.js"
import { balanceOf, createTenant, settle, upload } from "./utils/AudioRequests.js"
import { fixture, wavOf } from "../../../test/utils/Fixtures.js"
import { type S3TestServer, startS3Server } from "./utils/S3Server.js"
import { testServerLayer, type TestServerOptions } from "./utils/TestServer.js"

class S3 extends Context.Tag("test/S3")<S3, S3TestServer>() {}

/** The test server on a fresh s3rver; `bucket` overrides the bucket it is told to use. */
const serverOnS3 = (options: TestServerOptions & { readonly maxUploadMb?: number; readonly bucket?: string }) => {
  const s3Live = Layer.scoped(S3, startS3Server())
  return Layer.unwrapEffect(
    Effect.map(S3, (s3) =>
      testServerLayer(
        {
          s3: Option.some(s3.config({
            ...(options.bucket === undefined ? {} : { bucket: options.bucket }),
            // s3rver checks the access key of a signature, not the signature: any secret works
            secretAccessKey: Option.some(Redacted.make(SECRET))
          })),
          ...(options.maxUploadMb === undefined ? {} : { maxUploadMb: options.maxUploadMb })
        },
        options
      ))
  ).pipe(Layer.provideMerge(s3Live))
}

const SECRET = `s3-secret-${randomBytes(8).toString("hex")}`

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** A WAV of `bytes` bytes (noise): a valid upload of any size. */
const wavOfSize = (bytes: number) => wavOf(new Int16Array(new Uint8Array(randomBytes(bytes - 44)).buffer))

const stored = (callId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ blob_key: string; sha256: string; size_bytes: string | number }>`SELECT blob_key, sha256, size_bytes FROM calls WHERE call_id = ${callId}`
  ).pipe(Effect.map((rows) => rows[0]))

describe("blobs in object storage", () => {
  layer(serverOnS3({ workers: true }), { excludeTestServices: true, timeout: 120_000 })("with the workers", (it) => {
    it.effect("an upload lands in the bucket with its SHA-256, and the worker analyses it from there", () =>
      Effect.gen(function* () {
        const s3 = yield* S3
        const tenant = yield* createTenant(3)
        const audio = fixture("demo-objection.mp3")
        const { status, body } = yield* upload(tenant.api_key, audio, { name: "call.mp3" })
        expect(status).toBe(202)
        const row = yield* stored(body.call_id)
        expect(row.blob_key).toBe(`${tenant.client_id}/${body.call_id}.mp3`)
        expect(row.sha256).toBe(sha256(audio))
        expect(yield* s3.digest(row.blob_key)).toEqual({ sha256: sha256(audio), size: audio.length })
        // nothing staged is left behind
        expect((yield* s3.list()).map((o) => o.Key)).toEqual([row.blob_key])

        const done = yield* settle(tenant.api_key, body.call_id)
        expect(done).toMatchObject({ status: "completed", error: null, credits_charged: 1 })
        expect(yield* balanceOf(tenant.client_id)).toBe(2)
        // the worker's local copy is gone; the blob stays
        expect((yield* s3.list()).map((o) => o.Key)).toEqual([row.blob_key])
      }))

    it.effect("/ready answers 200 while the bucket answers", () =>
      Effect.gen(function* () {
        const response = yield* Effect.flatMap(HttpClient.HttpClient, (client) => client.get("/ready"))
        expect(response.status).toBe(200)
      }))
  })

  layer(serverOnS3({ workers: false, maxUploadMb: 21 }), { excludeTestServices: true, timeout: 120_000 })("large uploads", (it) => {
    it.effect("a 20 MB upload is streamed as a multipart upload of 5 MiB parts, and its bytes arrive whole", () =>
      Effect.gen(function* () {
        const s3 = yield* S3
        const tenant = yield* createTenant(3)
        const audio = wavOfSize(20 * 1024 * 1024)
        const since = s3.requests.length
        const { status, body } = yield* upload(tenant.api_key, audio, { name: "long.wav" })
        expect(status).toBe(202)
        const requests = s3.requests.slice(since)
        // one multipart upload of four parts (no single PutObject of the whole), then moved under its key
        expect(requests.filter((r) => r.method === "POST" && /[?&]uploads=/.test(r.url))).toHaveLength(1)
        const parts = requests.filter((r) => r.method === "PUT" && /[?&]partNumber=/.test(r.url))
        expect(parts).toHaveLength(Math.ceil(audio.length / PART_BYTES))
        expect(requests.some((r) => /x-id=PutObject/.test(r.url))).toBe(false)
        expect(requests.some((r) => /x-id=CopyObject/.test(r.url))).toBe(true)
        // at most QUEUE_SIZE parts of PART_BYTES are held at once: far less than the file
        expect(QUEUE_SIZE * PART_BYTES).toBeLessThan(audio.length / 1.5)

        const row = yield* stored(body.call_id)
        expect(Number(row.size_bytes)).toBe(audio.length)
        expect(yield* s3.digest(row.blob_key)).toEqual({ sha256: sha256(audio), size: audio.length })
        expect((yield* s3.list()).map((o) => o.Key)).toEqual([row.blob_key])
      }))

    it.effect("an upload over MAX_UPLOAD_MB is 413, its multipart upload aborted, nothing left in the bucket", () =>
      Effect.gen(function* () {
        const s3 = yield* S3
        const before = (yield* s3.list()).map((o) => o.Key)
        const tenant = yield* createTenant(3)
        const since = s3.requests.length
        const { status, body } = yield* upload(tenant.api_key, wavOfSize(23 * 1024 * 1024), { name: "too-long.wav" })
        expect(status).toBe(413)
        expect(body._tag).toBe("PayloadTooLarge")
        yield* Effect.gen(function* () {
          while (!s3.requests.slice(since).some((r) => r.method === "DELETE" && /[?&]uploadId=/.test(r.url))) {
            yield* Effect.sleep("50 millis")
          }
        }).pipe(Effect.timeout("10 seconds"))
        expect((yield* s3.list()).map((o) => o.Key)).toEqual(before)
      }))
  })

  const logs: Array<string> = []
  layer(serverOnS3({ workers: false, bucket: "no-such-bucket", logs }), { excludeTestServices: true, timeout: 120_000 })("a missing bucket", (it) => {
    it.effect("/ready answers 503 naming the bucket; an upload fails and leaves no call; the logs say why, never the secret", () =>
      Effect.gen(function* () {
        const s3 = yield* S3
        const client = yield* HttpClient.HttpClient
        const ready = yield* client.get("/ready")
        expect(ready.status).toBe(503)
        expect(yield* ready.json).toMatchObject({
          _tag: "ServiceUnavailable",
          message: `object storage: the bucket "no-such-bucket" does not exist at ${s3.endpoint} (S3_BUCKET, S3_ENDPOINT)`
        })
        // liveness is the database's alone: the process needs no restart
        expect((yield* client.get("/health")).status).toBe(200)

        const tenant = yield* createTenant(3)
        const { status } = yield* upload(tenant.api_key, fixture("demo-objection.mp3"), { name: "call.mp3" })
        expect(status).toBe(500)
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT call_id FROM calls WHERE client_id = ${tenant.client_id}`).toEqual([])
        expect(yield* balanceOf(tenant.client_id)).toBe(3)

        const said = logs.join("\n")
        expect(said).toMatch(/level=ERROR .*the bucket \\"no-such-bucket\\" does not exist at http:\/\/127\.0\.0\.1:\d+ .*\/ready answers 503/)
        expect(said).toMatch(/NoSuchBucket|the bucket \\"no-such-bucket\\" does not exist/)
        expect(said).not.toContain(SECRET)
      }))
  })
})
