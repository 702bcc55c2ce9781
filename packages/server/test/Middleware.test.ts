/**
 * The API middleware on a small API of its own: a defect is a 500 with a trace id and nothing
 * internal; an over-limit multipart upload is a 413; decode failures are 422.
 */
import { InternalError, PayloadTooLarge, ValidationFailed } from "@callsight/api-spec"
import {
  FileSystem,
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiSchema,
  HttpClient,
  HttpClientRequest,
  Multipart
} from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Option, Schema } from "effect"
import { ApiErrorsLive } from "../src/http/Middleware.js"

class ProbeApi extends HttpApiGroup.make("probe")
  .add(HttpApiEndpoint.get("boom", "/boom").addSuccess(Schema.String))
  .add(
    HttpApiEndpoint.post("upload", "/upload")
      .setPayload(
        HttpApiSchema.Multipart(Schema.Struct({ file: Multipart.SingleFileSchema }), {
          maxFileSize: Option.some(FileSystem.Size(1024))
        })
      )
      .addSuccess(Schema.Number)
  )
  .add(
    HttpApiEndpoint.get("count", "/count").setUrlParams(Schema.Struct({ n: Schema.NumberFromString })).addSuccess(Schema.Number)
  )
{}

class TestApi extends HttpApi.make("test")
  .add(ProbeApi)
  .addError(ValidationFailed)
  .addError(InternalError)
  .addError(PayloadTooLarge)
{}

const ProbeLive = HttpApiBuilder.group(TestApi, "probe", (handlers) =>
  handlers
    .handle("boom", () => Effect.die(new Error("secret internal detail: password=hunter2")))
    .handle("upload", ({ payload }) => Effect.succeed(payload.file.name.length))
    .handle("count", ({ urlParams }) => Effect.succeed(urlParams.n))
)

const ServerLive = HttpApiBuilder.serve().pipe(
  Layer.provide(ApiErrorsLive),
  Layer.provide(HttpApiBuilder.api(TestApi).pipe(Layer.provide(ProbeLive))),
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

it.layer(ServerLive)("the API middleware", (it) => {
  describe("defects", () => {
    it.effect("a defect is a 500 whose body holds a trace id and nothing internal", () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const response = yield* client.get("/boom")
        expect(response.status).toBe(500)
        const text = yield* response.text
        expect(text).not.toContain("hunter2")
        expect(text).not.toContain("secret")
        const body = JSON.parse(text)
        expect(body).toEqual({ _tag: "InternalError", message: "internal error", trace_id: expect.stringMatching(/^[0-9a-f]{16,}$/) })
      }))
  })

  describe("uploads over the limit", () => {
    it.effect("are 413 PayloadTooLarge", () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const form = new FormData()
        form.append("file", new Blob([new Uint8Array(64 * 1024)]), "big.bin")
        const response = yield* client.execute(HttpClientRequest.post("/upload").pipe(HttpClientRequest.bodyFormData(form)))
        expect(response.status).toBe(413)
        expect(yield* response.json).toMatchObject({ _tag: "PayloadTooLarge" })
        const small = new FormData()
        small.append("file", new Blob([new Uint8Array(10)]), "ok.bin")
        const ok = yield* client.execute(HttpClientRequest.post("/upload").pipe(HttpClientRequest.bodyFormData(small)))
        expect(ok.status).toBe(200)
      }))
  })

  describe("decode failures", () => {
    it.effect("are 422 with the validation detail", () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const response = yield* client.get("/count?n=abc")
        expect(response.status).toBe(422)
        const body: any = yield* response.json
        expect(body._tag).toBe("ValidationFailed")
        expect(body.detail[0].loc.at(-1)).toBe("n")
      }))
  })
})
