/**
 * A call's recording for the web app's player with the blobs in object storage (S3_BUCKET on a local
 * s3rver): the size from a HeadObject, a range from a ranged GetObject (`Range: bytes=a-b`), byte for
 * byte, on a file uploaded in parts; 416 past the end; an object gone from the bucket is 404, a
 * recording the retention policy removed 410. The store's own `size` and `readRange` too.
 */
import { DeleteObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { SESSION_COOKIE } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Chunk, Context, Effect, Layer, Option, Redacted, Stream } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fixture, wavOf } from "../../../test/utils/Fixtures.js"
import { clientConfig, makeS3BlobStore, PART_BYTES, sliceBytes } from "../src/calls/S3BlobStore.js"
import { upload } from "./utils/AudioRequests.js"
import { freshEmail, repSession, tenantWithOwner } from "./utils/PortalRequests.js"
import { type S3TestServer, startS3Server } from "./utils/S3Server.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

class S3 extends Context.Tag("test/S3")<S3, S3TestServer>() {}

const SECRET = `s3-secret-${randomBytes(8).toString("hex")}`

const onS3 = Layer.unwrapEffect(
  Effect.map(S3, (s3) => serverWithSmtp({ s3: Option.some(s3.config({ secretAccessKey: Option.some(Redacted.make(SECRET)) })) }))
).pipe(Layer.provideMerge(Layer.scoped(S3, startS3Server())))

const digest = (bytes: Uint8Array) => ({ length: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") })

/** A WAV of `bytes` bytes (noise). */
const wavOfSize = (bytes: number) => wavOf(new Int16Array(new Uint8Array(randomBytes(bytes - 44)).buffer))

const audioOf = (session: string, callId: string, range?: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.get(`/v1/client-portal/calls/${callId}/audio`).pipe(
        HttpClientRequest.setHeaders({ cookie: `${SESSION_COOKIE}=${session}`, ...(range === undefined ? {} : { range }) })
      )
    )
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(yield* response.arrayBuffer) }
  }).pipe(Effect.orDie)

const blobKeyOf = (callId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ blob_key: string }>`SELECT blob_key FROM calls WHERE call_id = ${callId}`).pipe(
    Effect.map((rows) => rows[0]!.blob_key),
    Effect.orDie
  )

describe("a call's audio from object storage", () => {
  layer(onS3, { excludeTestServices: true, timeout: 120_000 })("the player's ranges", (it) => {
    it.effect("whole and by ranges, byte for byte, from a file uploaded in parts; 416 past the end; 404 once the object is gone, 410 once retention removed it", () =>
      Effect.gen(function* () {
        const s3 = yield* S3
        const t = yield* tenantWithOwner
        const email = freshEmail("rep")
        const rep = yield* repSession(yield* Smtp, t.clientId, email)
        // over one part: the stored object was a multipart upload
        const big = wavOfSize(PART_BYTES + 700_000)
        const accepted = yield* upload(t.apiKey, big, { name: "big.wav", closerEmail: email })
        expect(accepted.status).toBe(202)
        const callId = accepted.body.call_id as string
        const size = big.length

        const whole = yield* audioOf(rep, callId)
        expect([whole.status, whole.headers["content-type"], whole.headers["content-length"]]).toEqual([200, "audio/wav", String(size)])
        expect(digest(whole.bytes)).toEqual(digest(big))

        const before = s3.requests.length
        // across the parts' boundary
        const across = yield* audioOf(rep, callId, `bytes=${PART_BYTES - 1000}-${PART_BYTES + 999}`)
        expect(across.status).toBe(206)
        expect(across.headers["content-range"]).toBe(`bytes ${PART_BYTES - 1000}-${PART_BYTES + 999}/${size}`)
        expect(digest(across.bytes)).toEqual(digest(big.slice(PART_BYTES - 1000, PART_BYTES + 1000)))
        // one HeadObject for the size, one GetObject for the range
        expect(s3.requests.slice(before).map((r) => r.method)).toEqual(["HEAD", "GET"])
        const tail = yield* audioOf(rep, callId, "bytes=-4096")
        expect([tail.status, tail.headers["content-range"]]).toEqual([206, `bytes ${size - 4096}-${size - 1}/${size}`])
        expect(digest(tail.bytes)).toEqual(digest(big.slice(size - 4096)))
        const head = yield* audioOf(rep, callId, "bytes=0-43")
        expect(head.bytes).toEqual(big.slice(0, 44))

        const past = yield* audioOf(rep, callId, `bytes=${size + 10}-`)
        expect([past.status, past.headers["content-range"]]).toEqual([416, `bytes */${size}`])

        // the object gone from the bucket (not by retention): 404
        const mp3 = fixture("discovery-short.mp3")
        const other = (yield* upload(t.apiKey, mp3, { name: "call.mp3", closerEmail: email })).body.call_id as string
        expect((yield* audioOf(rep, other, "bytes=0-9")).bytes).toEqual(mp3.slice(0, 10))
        const key = yield* blobKeyOf(other)
        const client = new S3Client(clientConfig(s3.config({ secretAccessKey: Option.some(Redacted.make(SECRET)) })))
        yield* Effect.promise(() => client.send(new DeleteObjectCommand({ Bucket: s3.buckets[0], Key: key }))).pipe(
          Effect.ensuring(Effect.sync(() => client.destroy()))
        )
        expect((yield* audioOf(rep, other)).status).toBe(404)
        // retention removed the recording: 410
        yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE calls SET audio_removed_at = now() WHERE call_id = ${callId}`).pipe(Effect.orDie)
        expect((yield* audioOf(rep, callId, "bytes=0-9")).status).toBe(410)
      }))
  })

  layer(Layer.scoped(S3, startS3Server()), { timeout: 60_000 })("the S3 store's size and readRange", (it) => {
    it.scoped("answer the object's size (none when absent) and exactly the bytes asked", () =>
      Effect.gen(function* () {
        const s3 = yield* S3
        const dir = yield* Effect.acquireRelease(
          Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-s3-range-"))),
          (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
        )
        const store = yield* makeS3BlobStore(s3.config({ prefix: "ranges/" }), dir)
        const bytes = new Uint8Array(randomBytes(100_000))
        const staged = yield* store.stage(Stream.make(bytes.slice(0, 60_000), bytes.slice(60_000)), { limitBytes: 1_000_000, headBytes: 16 })
        yield* store.commit(staged, "t/one.bin")
        expect(yield* store.size("t/one.bin")).toEqual(Option.some(100_000))
        expect(yield* store.size("t/none.bin")).toEqual(Option.none())
        const read = (start: number, end: number) =>
          Effect.map(Stream.runCollect(store.readRange("t/one.bin", { start, end })), (chunks) => Buffer.concat(Chunk.toArray(chunks)))
        expect(new Uint8Array(yield* read(0, 0))).toEqual(bytes.slice(0, 1))
        expect(digest(new Uint8Array(yield* read(59_990, 60_009)))).toEqual(digest(bytes.slice(59_990, 60_010)))
        expect(digest(new Uint8Array(yield* read(99_000, 99_999)))).toEqual(digest(bytes.slice(99_000)))

        // what a store answers beyond the span is cut off (s3rver answers `bytes=0-0` with the whole object)
        const chunks = [bytes.slice(0, 7), bytes.slice(7, 8), bytes.slice(8, 30), bytes.slice(30, 100)]
        const sliced = (skip: number, length: number) =>
          Effect.map(Stream.runCollect(sliceBytes(Stream.fromIterable(chunks), skip, length)), (c) => new Uint8Array(Buffer.concat(Chunk.toArray(c))))
        expect(yield* sliced(0, 100)).toEqual(bytes.slice(0, 100))
        expect(yield* sliced(5, 10)).toEqual(bytes.slice(5, 15))
        expect(yield* sliced(7, 1)).toEqual(bytes.slice(7, 8))
        expect(yield* sliced(95, 50)).toEqual(bytes.slice(95, 100))
      }))
  })
})
