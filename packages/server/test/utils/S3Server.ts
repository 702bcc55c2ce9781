/**
 * A local S3 server for the tests (s3rver, on a random port of 127.0.0.1, its files in a temporary
 * directory): path-style, region us-east-1, the one account s3rver knows (S3RVER/S3RVER). Every
 * request it answers is kept in `requests`, to see how an upload was sent (multipart or not).
 */
import { type _Object, ListObjectsV2Command, GetObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { Effect, Option, Redacted } from "effect"
import { createHash } from "node:crypto"
import { mkdtempSync, rmSync, utimesSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import S3rver from "s3rver"
import type { S3Config } from "../../src/config.js"
import { clientConfig } from "../../src/calls/S3BlobStore.js"

export const S3_ACCESS_KEY = "S3RVER"
export const S3_SECRET_KEY = "S3RVER"

export interface S3Request {
  readonly method: string
  readonly url: string
}

export interface S3TestServer {
  readonly endpoint: string
  /** Where s3rver keeps its files. */
  readonly directory: string
  /** The buckets it was started with. */
  readonly buckets: ReadonlyArray<string>
  /** Every request answered, oldest first. */
  readonly requests: Array<S3Request>
  /** The server's configuration for `bucket` (the first one unless said), over `overrides`. */
  readonly config: (overrides?: Partial<S3Config>) => S3Config
  /** The objects of a bucket under a prefix. */
  readonly list: (prefix?: string, bucket?: string) => Effect.Effect<ReadonlyArray<_Object>>
  /** The SHA-256 and size of an object. */
  readonly digest: (key: string, bucket?: string) => Effect.Effect<{ sha256: string; size: number }>
  /** Makes an object look `ms` old (s3rver's Last-Modified is its file's mtime). */
  readonly age: (key: string, ms: number, bucket?: string) => void
}

/** Starts s3rver with `buckets` created; stopped (and its files removed) with the scope. */
export const startS3Server = (buckets: ReadonlyArray<string> = ["callsight-test"]) =>
  Effect.gen(function* () {
    const directory = mkdtempSync(join(tmpdir(), "callsight-s3-"))
    const s3rver = new S3rver({
      directory,
      silent: true,
      configureBuckets: buckets.map((name) => ({ name, configs: [] }))
    })
    yield* Effect.promise(() => s3rver.configureBuckets())
    const requests: Array<S3Request> = []
    const handle = s3rver.callback()
    const server = yield* Effect.acquireRelease(
      Effect.async<ReturnType<typeof createServer>>((resume) => {
        const server = createServer((req, res) => {
          requests.push({ method: req.method ?? "", url: req.url ?? "" })
          handle(req, res)
        })
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        }).pipe(Effect.ensuring(Effect.sync(() => rmSync(directory, { recursive: true, force: true }))))
    )
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    const config = (overrides: Partial<S3Config> = {}): S3Config => ({
      bucket: buckets[0],
      endpoint: Option.some(endpoint),
      region: "us-east-1",
      forcePathStyle: true,
      prefix: "",
      accessKeyId: Option.some(Redacted.make(S3_ACCESS_KEY)),
      secretAccessKey: Option.some(Redacted.make(S3_SECRET_KEY)),
      ...overrides
    })

    const client = yield* Effect.acquireRelease(
      Effect.sync(() => new S3Client(clientConfig(config()))),
      (client) => Effect.sync(() => client.destroy())
    )

    const list = (prefix = "", bucket = buckets[0]) =>
      Effect.promise(async () => {
        const objects: Array<_Object> = []
        let token: string | undefined
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }))
          objects.push(...(page.Contents ?? []))
          token = page.IsTruncated === true ? page.NextContinuationToken : undefined
        } while (token !== undefined)
        return objects
      })

    const digest = (key: string, bucket = buckets[0]) =>
      Effect.promise(async () => {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
        const hash = createHash("sha256")
        let size = 0
        for await (const chunk of object.Body as AsyncIterable<Uint8Array>) {
          hash.update(chunk)
          size += chunk.length
        }
        return { sha256: hash.digest("hex"), size }
      })

    const age = (key: string, ms: number, bucket = buckets[0]) => {
      const parts = key.split("/")
      const path = join(directory, bucket, ...parts.slice(0, -1), `${parts[parts.length - 1]}._S3rver_object`)
      const past = (Date.now() - ms) / 1000
      utimesSync(path, past, past)
    }

    const s3: S3TestServer = { endpoint, directory, buckets, requests, config, list, digest, age }
    return s3
  })
