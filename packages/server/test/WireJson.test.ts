import { HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { jsonBytes, wireJson } from "../src/lib/WireJson.js"

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

describe("jsonBytes", () => {
  it("gives JSON.stringify's bytes, at every depth it walks, for what JSON.stringify leaves out or turns to null", () => {
    const big = Array.from({ length: 3_000 }, (_, i) => ({ id: `call_${i}`, n: i / 7, ok: i % 2 === 0, none: null, gone: undefined }))
    const values: ReadonlyArray<unknown> = [
      { a: 1, b: undefined, c: () => 1, d: Symbol("x"), e: [undefined, () => 1, Symbol("y"), null, 2], f: { g: { h: [1, { i: "é" }] } } },
      { when: new Date(Date.UTC(2026, 11, 5)), nested: { when: new Date(0) }, list: [new Date(1)] },
      { team: { periods: big }, closers: [{ periods: big.slice(0, 10) }, { periods: [] }], text: "Société — 東京 🚀\n\"quoted\"" },
      // parts longer than a buffer, of 2-, 3- and 4-byte characters, a lone surrogate, between short ones
      { a: "x", long: ["東".repeat(40_000), "é".repeat(70_000)], b: ["🚀".repeat(20_000), "\ud800", "y"], c: big.slice(0, 100) },
      [big, [], {}, "x", 0, -0, 1e21, NaN, Infinity],
      "plain",
      42,
      null,
      []
    ]
    for (const value of values) {
      for (const depth of [0, 1, 2, 5]) {
        expect(jsonBytes(value, depth).equals(Buffer.from(JSON.stringify(value), "utf8"))).toBe(true)
      }
    }
    expect(() => jsonBytes(undefined)).toThrow(TypeError)
  })
})
