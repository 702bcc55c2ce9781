import { HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { wireJson } from "../src/lib/WireJson.js"

describe("wireJson", () => {
  it("writes the value as UTF-8 JSON bytes, typed application/json: characters past ASCII and Latin-1 intact", () => {
    const Answer = Schema.Struct({ term: Schema.String, ids: Schema.Array(Schema.String), n: Schema.Number })
    const value = { term: "Société Générale — 東京 🚀", ids: ["call_1", "call_\u00e9"], n: 1.5 }
    const response = wireJson(Answer, value)
    expect(response.body._tag).toBe("Uint8Array")
    const body = response.body as HttpServerResponse.HttpServerResponse["body"] & { readonly body: Uint8Array; readonly contentType: string }
    expect(body.contentType).toBe("application/json")
    expect(body.body.byteLength).toBe(Buffer.byteLength(JSON.stringify(value), "utf8"))
    expect(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body.body))).toEqual(value)
  })
})
