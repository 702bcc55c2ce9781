/**
 * The blobs in S3-compatible object storage (`S3_BUCKET`; `S3_ENDPOINT` for MinIO and others):
 * the same store as the local directory's (calls/Blob.ts), object by object.
 *
 * - `stage` streams the bytes into a temporary object (`<prefix>tmp/<uuid>`) with a multipart
 *   upload (parts of `PART_BYTES`, `QUEUE_SIZE` in flight: at most that many parts in memory,
 *   whatever the file's size; a file under one part is one PutObject) while its size, SHA-256 and
 *   first bytes are taken. Past the limit, or when the request fails, the upload is aborted.
 * - `commit` copies the temporary object under its key (one CopyObject: S3 caps it at 5 GiB, and
 *   config.ts caps MAX_UPLOAD_MB at that when S3_BUCKET is set) and deletes the temporary one.
 * - Readers that need a file (the analysis decodes with random access) get a temporary local copy
 *   in `BLOB_DIR/tmp` (`withLocalFile`), removed afterwards. The player's ranges are ranged
 *   GetObjects (`readRange`), after a HeadObject for the size (`size`).
 * - Start-up never waits for the bucket: the first check runs in the background and logs what is
 *   wrong (no such bucket, access denied, unreachable); `/ready` answers 503 with the same words
 *   until the bucket answers. Temporary objects older than an hour (a crash between upload and
 *   commit) are then deleted, and multipart uploads started over a day ago aborted where the
 *   storage lists them (a bucket lifecycle rule does it too; docs/operations.md, "Object storage").
 */
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig
} from "@aws-sdk/client-s3"
import { Upload } from "@aws-sdk/lib-storage"
import { Duration, Effect, Fiber, Option, Redacted, Stream } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { createWriteStream } from "node:fs"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import { PassThrough, type Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { S3Config } from "../config.js"
import {
  BlobReadFailed,
  type BlobStoreShape,
  BlobStoreUnavailable,
  BlobTooLarge,
  BlobWriteFailed,
  type ByteSpan,
  S3RequestFailed,
  localTmpDir,
  STALE_STAGED_MS,
  type StagedBlob
} from "./Blob.js"

/** The size of one part of a multipart upload (S3's minimum but for the last part). */
export const PART_BYTES = 5 * 1024 * 1024
/** Parts of one upload in flight at once, so in memory at once. */
export const QUEUE_SIZE = 2
/** A temporary object this old was left by a process that died between upload and commit. */
const STALE_TMP_OBJECT_MS = 6 * STALE_STAGED_MS
/** A multipart upload started this long ago was left by a process that died while uploading. */
const STALE_MULTIPART_MS = 24 * 60 * 60 * 1000
/** How long the bucket's check may take, and how long its answer is kept for `/ready`. */
const CHECK_TIMEOUT = Duration.seconds(5)
const CHECK_TTL = Duration.seconds(2)

interface SdkError {
  readonly name?: string
  readonly message?: string
  readonly code?: string
  readonly $metadata?: { readonly httpStatusCode?: number }
}

const statusOf = (error: unknown): number | undefined => (error as SdkError | undefined)?.$metadata?.httpStatusCode

const isNotFound = (error: unknown) => {
  const name = (error as SdkError | undefined)?.name
  return statusOf(error) === 404 || name === "NotFound" || name === "NoSuchKey"
}

/** The first byte a GetObject's answer holds: its `Content-Range`'s (`bytes 100-199/1000`), 0 for the whole object. */
const firstByteOf = (contentRange: string | undefined) => {
  const first = /^bytes (\d+)-/.exec(contentRange ?? "")
  return first === null ? 0 : Number(first[1])
}

/** The `length` bytes after the first `skip` of a stream of bytes; the stream is left once they are read. */
export const sliceBytes = <E>(stream: Stream.Stream<Uint8Array, E>, skip: number, length: number): Stream.Stream<Uint8Array, E> => {
  const end = skip + length
  return stream.pipe(
    Stream.mapAccum(0, (position, chunk) => [position + chunk.length, { position, chunk }] as const),
    Stream.takeWhile(({ position }) => position < end),
    Stream.map(({ chunk, position }) => chunk.subarray(Math.max(0, skip - position), Math.min(chunk.length, end - position))),
    Stream.filter((chunk) => chunk.length > 0)
  )
}

/** The S3 client's settings from the configuration (credentials only when both are given). */
export const clientConfig = (config: S3Config): S3ClientConfig => ({
  region: config.region,
  forcePathStyle: config.forcePathStyle,
  ...Option.match(config.endpoint, {
    onNone: () => ({}),
    // Storage other than AWS's: checksums only where S3 requires them, as not every server
    // speaks the newer checksum headers (MinIO before 2025, s3rver, ...).
    onSome: (endpoint) => ({
      endpoint,
      requestChecksumCalculation: "WHEN_REQUIRED" as const,
      responseChecksumValidation: "WHEN_REQUIRED" as const
    })
  }),
  ...(Option.isSome(config.accessKeyId) && Option.isSome(config.secretAccessKey)
    ? {
      credentials: {
        accessKeyId: Redacted.value(config.accessKeyId.value),
        secretAccessKey: Redacted.value(config.secretAccessKey.value)
      }
    }
    : {})
})

export const makeS3BlobStore = (config: S3Config, blobDir: string) =>
  Effect.gen(function* () {
    const tmpDir = yield* localTmpDir(blobDir)
    const Bucket = config.bucket
    const where = Option.match(config.endpoint, {
      onNone: () => `AWS S3 (${config.region})`,
      onSome: (endpoint) => endpoint
    })
    const location = `s3://${Bucket}/${config.prefix}`
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => new S3Client(clientConfig(config))),
      (client) => Effect.sync(() => client.destroy())
    )

    /** What went wrong, in words that name the bucket and where it was looked for. */
    const describe = (operation: string, error: unknown): string => {
      const e = (error ?? {}) as SdkError
      const status = statusOf(error)
      const name = e.name ?? "Error"
      if (name === "NoSuchBucket" || (operation === "HeadBucket" && status === 404)) {
        return `the bucket "${Bucket}" does not exist at ${where} (S3_BUCKET, S3_ENDPOINT)`
      }
      // A HEAD request's error has no body, so no name: its status says it.
      const label = name.startsWith("Unknown") ? `HTTP ${status}` : name
      if (status === 403 || name === "AccessDenied" || name === "InvalidAccessKeyId" || name === "SignatureDoesNotMatch") {
        return `access to the bucket "${Bucket}" at ${where} was denied (${label}): check the credentials (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY or the AWS credential chain) and the bucket's policy`
      }
      if (status === 301 || name === "PermanentRedirect") {
        return `the bucket "${Bucket}" is not in ${config.region} (S3_REGION), or needs S3_FORCE_PATH_STYLE`
      }
      if (status === undefined) {
        const code = e.code ?? name
        return `cannot reach ${where} for the bucket "${Bucket}": ${code}${e.message !== undefined && e.message !== code ? ` (${e.message})` : ""}`
      }
      return `${operation} on the bucket "${Bucket}" at ${where} failed: ${label}${label === name ? ` (HTTP ${status})` : ""}${e.message !== undefined && !e.message.startsWith("Unknown") ? `: ${e.message}` : ""}`
    }

    const s3 = <A>(operation: string, run: (signal: AbortSignal) => Promise<A>) =>
      Effect.tryPromise({ try: run, catch: (error) => error }).pipe(
        Effect.withSpan(`S3.${operation}`, { attributes: { bucket: Bucket } })
      )

    const failed = (operation: string) => (error: unknown) => new S3RequestFailed({ message: describe(operation, error) })

    const objectKey = (key: string) => `${config.prefix}${key}`
    /** A key as CopyObject's `CopySource` takes it: `bucket/key`, URL-encoded but for the slashes. */
    const copySource = (key: string) => `${Bucket}/${key.split("/").map(encodeURIComponent).join("/")}`

    const deleteObject = (key: string) =>
      s3("DeleteObject", (abortSignal) => client.send(new DeleteObjectCommand({ Bucket, Key: key }), { abortSignal }))

    /** Deletes an object, logging (never failing) when it cannot: an orphan costs storage, not correctness. */
    const deleteQuietly = (key: string) =>
      deleteObject(key).pipe(
        Effect.catchAll((error) =>
          Effect.logWarning(`could not delete an object: ${describe("DeleteObject", error)}`).pipe(
            Effect.annotateLogs({ key })
          )
        ),
        Effect.asVoid
      )

    const stage = <E>(content: Stream.Stream<Uint8Array, E>, options: { limitBytes: number; headBytes: number }) =>
      Effect.acquireUseRelease(
        Effect.sync(() => {
          const tmpKey = `${config.prefix}tmp/${randomUUID()}`
          const body = new PassThrough()
          const upload = new Upload({
            client,
            params: { Bucket, Key: tmpKey, Body: body },
            partSize: PART_BYTES,
            queueSize: QUEUE_SIZE,
            leavePartsOnError: false
          })
          return { tmpKey, body, upload }
        }),
        ({ body, tmpKey, upload }) =>
          Effect.gen(function* () {
            const hash = createHash("sha256")
            const { headBytes, limitBytes } = options
            const head = new Uint8Array(headBytes)
            let size = 0
            // The upload reads the body as it is written, part by part.
            const uploading = yield* Effect.fork(
              s3("Upload", () => upload.done()).pipe(Effect.mapError((error) => new BlobWriteFailed({ cause: failed("Upload")(error) })))
            )
            const write = (chunk: Uint8Array) =>
              Effect.async<void>((resume) => {
                // Back-pressure: wait for the upload when its parts in flight are full.
                if (body.write(chunk)) return resume(Effect.void)
                const drained = () => resume(Effect.void)
                body.once("drain", drained)
                return Effect.sync(() => body.off("drain", drained))
              })
            const feed = Stream.runForEach(content, (chunk) => {
              if (size < headBytes) head.set(chunk.subarray(0, headBytes - size), size)
              size += chunk.length
              if (size > limitBytes) return Effect.fail(new BlobTooLarge({ limitBytes }))
              hash.update(chunk)
              return write(chunk)
            }).pipe(Effect.zipRight(Effect.sync(() => body.end())))
            // The upload failing while the request still sends (the bucket gone, say) ends both.
            yield* Effect.raceFirst(feed, Effect.zipRight(Fiber.join(uploading), Effect.never))
            yield* Fiber.join(uploading)
            const staged: StagedBlob = {
              tmpPath: tmpKey,
              size,
              sha256: hash.digest("hex"),
              head: head.slice(0, Math.min(size, headBytes))
            }
            return staged
          }),
        // On failure the upload is aborted (its parts deleted) and any object it made removed; on
        // success `commit` or `discard` takes the object over.
        ({ body, tmpKey, upload }, exit) =>
          exit._tag === "Success"
            ? Effect.void
            : Effect.zipRight(
              Effect.promise(() => upload.abort()).pipe(
                Effect.zipRight(Effect.sync(() => body.destroy(new Error("the upload was abandoned"))))
              ),
              Effect.ignore(deleteObject(tmpKey))
            )
      )

    const commit = (staged: StagedBlob, key: string) =>
      s3("CopyObject", (abortSignal) =>
        client.send(
          new CopyObjectCommand({ Bucket, Key: objectKey(key), CopySource: copySource(staged.tmpPath) }),
          { abortSignal }
        )).pipe(
          Effect.mapError((error) => new BlobWriteFailed({ cause: failed("CopyObject")(error) })),
          Effect.zipRight(deleteQuietly(staged.tmpPath))
        )

    const discard = (staged: StagedBlob) => deleteQuietly(staged.tmpPath)

    const remove = (key: string) => deleteQuietly(objectKey(key))

    const exists = (key: string) =>
      s3("HeadObject", (abortSignal) => client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }), { abortSignal })).pipe(
        Effect.as(true),
        Effect.catchIf(isNotFound, () => Effect.succeed(false)),
        // Unreachable storage is not a missing file: the caller's request fails instead.
        Effect.orDieWith((error) => new BlobReadFailed({ key, message: describe("HeadObject", error) }))
      )

    const readFailed = (key: string) => (error: unknown) =>
      new BlobReadFailed({
        key,
        message: isNotFound(error)
          ? `no object under "${objectKey(key)}" in the bucket "${Bucket}"`
          : describe("GetObject", error)
      })

    const getObjectResponse = (key: string, range?: ByteSpan) =>
      s3("GetObject", (abortSignal) =>
        client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` })
          }),
          { abortSignal }
        )).pipe(Effect.mapError(readFailed(key)))

    const getObject = (key: string) => Effect.map(getObjectResponse(key), (response) => response.Body as Readable)

    const read = (key: string) =>
      Stream.unwrap(
        Effect.map(getObject(key), (body) => Stream.fromAsyncIterable(body as AsyncIterable<Uint8Array>, readFailed(key)))
      )

    const size = (key: string) =>
      s3("HeadObject", (abortSignal) => client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }), { abortSignal })).pipe(
        Effect.map((head) => Option.some(head.ContentLength ?? 0)),
        Effect.catchIf(isNotFound, () => Effect.succeed(Option.none<number>())),
        Effect.mapError((error) => new BlobReadFailed({ key, message: describe("HeadObject", error) }))
      )

    // What the storage answered is cut to the span asked: a store that answers more (the whole
    // object, or past the end asked) must not make the answer longer than its Content-Length.
    const readRange = (key: string, range: ByteSpan) =>
      Stream.unwrap(
        Effect.map(getObjectResponse(key, range), (response) =>
          sliceBytes(
            Stream.fromAsyncIterable(response.Body as AsyncIterable<Uint8Array>, readFailed(key)),
            range.start - firstByteOf(response.ContentRange),
            range.end - range.start + 1
          ))
      )

    const withLocalFile = <A, E, R>(key: string, use: (path: string) => Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(
        Effect.sync(() => join(tmpDir, randomUUID())),
        (path) =>
          Effect.zipRight(
            Effect.flatMap(getObject(key), (body) =>
              Effect.tryPromise({
                try: (signal) => pipeline(body, createWriteStream(path), { signal }),
                catch: readFailed(key)
              })),
            Effect.suspend(() => use(path))
          ),
        (path) => Effect.promise(() => rm(path, { force: true }))
      )

    const headBucket = s3("HeadBucket", (abortSignal) => client.send(new HeadBucketCommand({ Bucket }), { abortSignal })).pipe(
      Effect.timeoutFail({
        duration: CHECK_TIMEOUT,
        onTimeout: () => ({ name: "TimeoutError", message: `no answer in ${Duration.format(CHECK_TIMEOUT)}` })
      }),
      Effect.mapError((error) => new BlobStoreUnavailable({ message: `object storage: ${describe("HeadBucket", error)}` })),
      Effect.asVoid
    )
    const check = yield* Effect.cachedWithTTL(headBucket, CHECK_TTL)

    /** Deletes temporary objects and aborts multipart uploads that a process which died left. */
    const sweep = Effect.gen(function* () {
      const now = Date.now()
      let removed = 0
      let token: string | undefined
      do {
        const page = yield* s3("ListObjectsV2", (abortSignal) =>
          client.send(
            new ListObjectsV2Command({ Bucket, Prefix: `${config.prefix}tmp/`, ContinuationToken: token }),
            { abortSignal }
          ))
        for (const object of page.Contents ?? []) {
          const modified = object.LastModified?.getTime() ?? now
          if (object.Key !== undefined && now - modified > STALE_TMP_OBJECT_MS) {
            yield* deleteQuietly(object.Key)
            removed += 1
          }
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined
      } while (token !== undefined)
      if (removed > 0) yield* Effect.logInfo(`removed ${removed} temporary object(s) left in ${location}tmp/`)
      // Not every S3-compatible storage lists multipart uploads: a lifecycle rule covers those.
      const uploads = yield* s3("ListMultipartUploads", (abortSignal) =>
        client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: `${config.prefix}tmp/` }), { abortSignal })).pipe(
          Effect.map((page) => page.Uploads ?? []),
          Effect.orElseSucceed(() => [])
        )
      for (const upload of uploads) {
        const started = upload.Initiated?.getTime() ?? now
        if (upload.Key !== undefined && upload.UploadId !== undefined && now - started > STALE_MULTIPART_MS) {
          const { Key, UploadId } = upload
          yield* s3("AbortMultipartUpload", (abortSignal) =>
            client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }), { abortSignal })).pipe(Effect.ignore)
        }
      }
    })

    // In the background: a server starts (and answers 503 on /ready) while the bucket is away.
    yield* Effect.gen(function* () {
      const first = yield* Effect.either(headBucket)
      if (first._tag === "Left") {
        return yield* Effect.logError(`${first.left.message}; /ready answers 503 until the bucket answers`)
      }
      yield* Effect.logInfo(`blobs in ${location} at ${where}`)
      yield* sweep.pipe(
        Effect.catchAll((error) => Effect.logWarning(`could not sweep ${location}tmp/: ${describe("ListObjectsV2", error)}`))
      )
    }).pipe(Effect.forkScoped)

    const pathOf = (key: string): string => {
      throw new Error(
        `the blob "${key}" is in object storage (${location}), not in a local file: read it with withLocalFile or read`
      )
    }

    const store: BlobStoreShape = {
      backend: "s3",
      location,
      stage,
      commit,
      discard,
      remove,
      exists,
      pathOf,
      read,
      size,
      readRange,
      withLocalFile,
      check
    }
    return store
  })
