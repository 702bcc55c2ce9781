/**
 * Local stand-ins for the three speech-to-text providers: `node:http` servers on 127.0.0.1 (a
 * random port) that speak each provider's documented protocol and answer with the words of the
 * ground truth (`truthWords`) of the fixture whose audio they received (recognised by its SHA-256
 * among the files of test/fixtures), as a real provider transcribes what it is sent. Each records every request it got, and can be told to
 * fail: the first requests with given statuses (500, 429 with Retry-After), always with one (401),
 * never answer at all, or answer 200 with something that is not the provider's JSON.
 *
 * `startDeepgram`, `startAssemblyAI`, `startOpenAI` are scoped: the server closes with the scope.
 */
import { Effect, type Scope } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { FIXTURES, fixturePath, type Truth, truth as fixtureTruth, type TruthTurn } from "../../../../test/utils/Fixtures.js"
import { bareWord, type TruthWord, truthWords } from "../../../../test/utils/TruthWords.js"

/** Small retry delays and timeouts, so that failure tests take milliseconds. */
export const FAST_POLICY = {
  retryBaseDelay: "10 millis",
  maxRetryDelay: "2 seconds",
  maxRetries: 3,
  timeout: "20 seconds"
} as const

/** A request as the server received it. */
export interface ReceivedRequest {
  readonly method: string
  /** Without the query. */
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  /** Bytes of the body as received. */
  readonly bodySize: number
  /** SHA-256 of the body (hex), to compare with the audio file's. */
  readonly bodySha256: string
  /** When the whole request had arrived (Date.now()). */
  readonly receivedAt: number
  /** The body, when it was JSON. */
  readonly json?: unknown
  /** The body's fields, when it was multipart/form-data: text fields (all values) and files. */
  readonly form?: {
    readonly fields: Readonly<Record<string, ReadonlyArray<string>>>
    readonly files: Readonly<
      Record<string, { readonly name: string; readonly type: string; readonly size: number; readonly sha256: string }>
    >
  }
}

export interface Faults {
  /** Only requests whose path starts with this are affected (default: all). */
  readonly path?: string
  /** The first affected requests get these answers, one each, before the server answers normally. */
  readonly failFirst?: ReadonlyArray<{ readonly status: number; readonly retryAfter?: string; readonly body?: string }>
  /** Every affected request gets this status (e.g. 401, a refused key). */
  readonly failAlways?: number
  /** Affected requests are never answered (until the server closes). */
  readonly hang?: boolean
  /** Affected requests get 200 with a body that is not JSON, or JSON of another shape. */
  readonly badAnswer?: "not-json" | "wrong-shape"
}

export interface ProviderServerOptions extends Faults {
  /** The fixture call whose truth the words come from, whatever audio is sent (default: the one sent). */
  readonly call?: string
  /** When set, a request without this key (in the provider's header form) gets 401. */
  readonly apiKey?: string
  /**
   * A recorded answer in the provider's JSON (Deepgram: the `/v1/listen` body; AssemblyAI: the
   * completed transcript, its `id` and `audio_url` those of the request), sent instead of one
   * made from the fixture's truth.
   */
  readonly recording?: unknown
}

export interface SpeechProviderServer {
  /** `http://127.0.0.1:PORT`, the base URL to give the adapter. */
  readonly url: string
  /** Every request received, in order (including the failed ones). */
  readonly requests: Array<ReceivedRequest>
  readonly close: () => Promise<void>
}

type Answer = { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> } | "hang"
type Handler = (request: ReceivedRequest) => Answer
/** The truth of the audio with this SHA-256, undefined for audio that is no fixture. */
type TruthOf = (audioSha256: string) => Truth | undefined

let fixtureAudio: Map<string, string> | undefined
/** The fixture call whose audio file (any format) has this SHA-256. */
const fixtureCallOf = (audioSha256: string): string | undefined => {
  fixtureAudio ??= new Map(
    readdirSync(FIXTURES)
      .filter((name) => /\.(wav|mp3|m4a)$/.test(name))
      .map((name) => [sha256(readFileSync(fixturePath(name))), name.replace(/\.[^.]+$/, "")])
  )
  return fixtureAudio.get(audioSha256)
}

/** The truth speakers numbered in order of first appearance (as Deepgram and AssemblyAI label them). */
export const speakerOrder = (t: Truth): Array<string> => [...new Set(t.turns.map((turn) => turn.speaker))]

/** The letter AssemblyAI / OpenAI diarize would give the truth speaker: "A", "B" ... */
export const speakerLetter = (t: Truth, speaker: string) => String.fromCharCode(65 + speakerOrder(t).indexOf(speaker))

/** The words of each truth turn (the words of `truthWords`, grouped by turn). */
const wordsByTurn = (t: Truth): Array<{ readonly turn: TruthTurn; readonly words: Array<TruthWord> }> => {
  const words = truthWords(t)
  let at = 0
  return t.turns.map((turn) => {
    const n = turn.text.split(/\s+/).filter((w) => w.length > 0).length
    const group = words.slice(at, at + n)
    at += n
    return { turn, words: group }
  })
}

/** The word without surrounding punctuation, its case kept (whisper's word timestamps). */
const unpunctuated = (text: string) => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")

/** SHA-256 in hex, to compare what a server received with the file sent. */
export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

const receive = async (req: IncomingMessage, base: string): Promise<ReceivedRequest> => {
  const url = new URL(req.url ?? "/", base)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
  }
  const body = await readBody(req)
  const contentType = headers["content-type"] ?? ""
  let json: unknown = undefined
  let form: ReceivedRequest["form"] = undefined
  if (contentType.startsWith("application/json")) {
    try {
      json = JSON.parse(body.toString("utf8"))
    } catch {
      json = undefined
    }
  } else if (contentType.startsWith("multipart/form-data")) {
    // the platform's own parser (undici), not a hand-made one
    const data = await new Request(url, { method: req.method ?? "POST", headers, body, duplex: "half" } as RequestInit).formData()
    const fields: Record<string, Array<string>> = {}
    const files: Record<string, { name: string; type: string; size: number; sha256: string }> = {}
    for (const [name, value] of data.entries()) {
      if (typeof value === "string") (fields[name] ??= []).push(value)
      else files[name] = { name: value.name, type: value.type, size: value.size, sha256: sha256(Buffer.from(await value.arrayBuffer())) }
    }
    form = { fields, files }
  }
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    bodySize: body.length,
    bodySha256: sha256(body),
    receivedAt: Date.now(),
    ...(json !== undefined ? { json } : {}),
    ...(form !== undefined ? { form } : {})
  }
}

/** A server answering with `handler`, the faults applied first. */
const startServer = (
  options: ProviderServerOptions,
  authorization: (key: string) => string,
  handler: (truthOf: TruthOf, url: () => string) => Handler
): Effect.Effect<SpeechProviderServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const truthOf: TruthOf = (audioSha256) => {
        const call = options.call ?? fixtureCallOf(audioSha256)
        return call === undefined ? undefined : fixtureTruth(call)
      }
      const requests: Array<ReceivedRequest> = []
      let base = ""
      const handle = handler(truthOf, () => base)
      let failed = 0

      const answer = (request: ReceivedRequest): Answer => {
        const affected = options.path === undefined || request.path.startsWith(options.path)
        if (affected) {
          if (options.hang) return "hang"
          const first = options.failFirst?.[failed]
          if (first !== undefined) {
            failed++
            return {
              status: first.status,
              body: first.body ?? { error: `failure ${failed} of ${options.failFirst!.length}` },
              ...(first.retryAfter !== undefined ? { headers: { "retry-after": first.retryAfter } } : {})
            }
          }
          if (options.failAlways !== undefined) return { status: options.failAlways, body: { error: "Invalid API key" } }
        }
        if (options.apiKey !== undefined && request.headers["authorization"] !== authorization(options.apiKey)) {
          return { status: 401, body: { error: "Invalid API key" } }
        }
        if (affected && options.badAnswer === "not-json") return { status: 200, body: "<html>Bad gateway</html>" }
        if (affected && options.badAnswer === "wrong-shape") return { status: 200, body: { ok: true, data: [] } }
        return handle(request)
      }

      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        receive(req, base).then(
          (request) => {
            requests.push(request)
            const a = answer(request)
            if (a === "hang") return
            const text = typeof a.body === "string" ? a.body : JSON.stringify(a.body)
            res.writeHead(a.status, {
              "content-type": typeof a.body === "string" ? "text/html" : "application/json",
              ...a.headers
            })
            res.end(text)
          },
          (error) => {
            res.writeHead(400, { "content-type": "application/json" })
            res.end(JSON.stringify({ error: String(error) }))
          }
        )
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const close = () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
      return { url: base, requests, close }
    }),
    (server) => Effect.promise(server.close)
  )

const notFound = (request: ReceivedRequest): Answer => ({
  status: 404,
  body: { error: `no route ${request.method} ${request.path}` }
})

/**
 * Deepgram `GET /v1/projects` (the key's projects) and `POST /v1/listen`: the raw audio body, `Authorization: Token KEY`; answers `metadata`
 * and `results` with `channels[0].alternatives[0].words` (`word` bare, `punctuated_word` as
 * written, `speaker` a number in order of first appearance) and `utterances` (one per truth turn).
 */
export const startDeepgram = (options: ProviderServerOptions = {}) =>
  startServer(options, (key) => `Token ${key}`, (truthOf) => (request) => {
    // the projects of the key: what a client calls to check a key
    if (request.method === "GET" && request.path === "/v1/projects") {
      return { status: 200, body: { projects: [{ project_id: "test-project", name: "Test project" }] } }
    }
    if (request.method !== "POST" || request.path !== "/v1/listen") return notFound(request)
    if (request.bodySize === 0) return { status: 400, body: { err_code: "Bad Request", err_msg: "empty body" } }
    if (options.recording !== undefined) return { status: 200, body: options.recording }
    const t = truthOf(request.bodySha256)
    if (t === undefined) return { status: 400, body: { err_code: "Bad Request", err_msg: "this test server knows only the fixtures' audio" } }
    const order = speakerOrder(t)
    const model = request.query["model"] ?? "nova-3"
    const modelId = randomUUID()
    const word = (w: TruthWord) => ({
      word: bareWord(w.text),
      start: w.start,
      end: w.end,
      confidence: w.confidence,
      speaker: order.indexOf(w.speaker),
      speaker_confidence: 0.9,
      punctuated_word: w.text
    })
    const groups = wordsByTurn(t)
    const words = groups.flatMap((g) => g.words.map(word))
    return {
      status: 200,
      body: {
        metadata: {
          transaction_key: "deprecated",
          request_id: randomUUID(),
          sha256: "0".repeat(64),
          created: new Date().toISOString(),
          duration: t.duration,
          channels: 1,
          models: [modelId],
          model_info: { [modelId]: { name: `general-${model}`, version: "2025-01-01.0", arch: model } }
        },
        results: {
          channels: [{
            alternatives: [{
              transcript: t.turns.map((turn) => turn.text).join(" "),
              confidence: 0.97,
              words
            }],
            ...(request.query["detect_language"] === "true" ? { detected_language: "en", language_confidence: 0.99 } : {})
          }],
          utterances: groups.map((g) => ({
            start: g.turn.start,
            end: g.turn.end,
            confidence: 0.95,
            channel: 0,
            transcript: g.turn.text,
            words: g.words.map(word),
            speaker: order.indexOf(g.turn.speaker),
            id: randomUUID()
          }))
        }
      }
    }
  })

export interface AssemblyAIServerOptions extends ProviderServerOptions {
  /** Status requests answered `queued`, then `processing`, before the last one (default 2). */
  readonly pendingPolls?: number
  /** The transcript ends `error` with this message instead of `completed`. */
  readonly transcriptError?: string
}

/**
 * AssemblyAI v2: `GET /v2/transcript?limit=N` (a page of the key's transcripts), `POST /v2/upload` (raw body) → `upload_url`; `POST /v2/transcript` (JSON with
 * that `audio_url`) → `{id, status: "queued"}`; `GET /v2/transcript/{id}` → `queued`, then
 * `processing`, then `completed` with `words` (times in ms, speakers "A", "B") or `error`.
 * The key goes bare in `Authorization`.
 */
export const startAssemblyAI = (options: AssemblyAIServerOptions = {}) =>
  startServer(options, (key) => key, (truthOf, url) => {
    const uploads = new Map<string, Truth>()
    const transcripts = new Map<string, { polls: number; config: Record<string, unknown>; truth: Truth }>()
    const pending = options.pendingPolls ?? 2
    return (request) => {
      if (request.method === "POST" && request.path === "/v2/upload") {
        if (request.bodySize === 0) return { status: 400, body: { error: "Upload is empty" } }
        const t = truthOf(request.bodySha256)
        if (t === undefined) return { status: 400, body: { error: "this test server knows only the fixtures' audio" } }
        const uploadUrl = `${url()}/files/${randomUUID()}`
        uploads.set(uploadUrl, t)
        return { status: 200, body: { upload_url: uploadUrl } }
      }
      // the key's transcripts, a page of them: what a client calls to check a key
      if (request.method === "GET" && request.path === "/v2/transcript") {
        const limit = Number(request.query["limit"] ?? "10")
        return { status: 200, body: { page_details: { limit, result_count: 0 }, transcripts: [] } }
      }
      if (request.method === "POST" && request.path === "/v2/transcript") {
        const config = (request.json ?? {}) as Record<string, unknown>
        if (typeof config["audio_url"] !== "string" || !uploads.has(config["audio_url"])) {
          return { status: 400, body: { error: "audio_url is not an uploaded file" } }
        }
        const id = randomUUID()
        transcripts.set(id, { polls: 0, config, truth: uploads.get(config["audio_url"])! })
        return { status: 200, body: { id, status: "queued", audio_url: config["audio_url"], ...config } }
      }
      const polled = request.method === "GET" ? /^\/v2\/transcript\/([^/]+)$/.exec(request.path) : null
      if (polled !== null) {
        const id = decodeURIComponent(polled[1]!)
        const transcript = transcripts.get(id)
        if (transcript === undefined) return { status: 404, body: { error: "Transcript not found" } }
        const t = transcript.truth
        const n = transcript.polls++
        const common = { id, audio_url: transcript.config["audio_url"], speaker_labels: transcript.config["speaker_labels"] ?? false }
        if (n < pending) return { status: 200, body: { ...common, status: n === 0 ? "queued" : "processing" } }
        if (options.transcriptError !== undefined) {
          return { status: 200, body: { ...common, status: "error", error: options.transcriptError } }
        }
        if (options.recording !== undefined) {
          return { status: 200, body: { ...(options.recording as Record<string, unknown>), id, audio_url: common.audio_url, status: "completed" } }
        }
        const word = (w: TruthWord) => ({
          text: w.text,
          start: Math.round(w.start * 1000),
          end: Math.round(w.end * 1000),
          confidence: w.confidence,
          speaker: speakerLetter(t, w.speaker)
        })
        const groups = wordsByTurn(t)
        const models = transcript.config["speech_models"]
        return {
          status: 200,
          body: {
            ...common,
            status: "completed",
            text: t.turns.map((turn) => turn.text).join(" "),
            words: groups.flatMap((g) => g.words.map(word)),
            utterances: groups.map((g) => ({
              confidence: 0.95,
              start: Math.round(g.turn.start * 1000),
              end: Math.round(g.turn.end * 1000),
              text: g.turn.text,
              speaker: speakerLetter(t, g.turn.speaker),
              words: g.words.map(word)
            })),
            confidence: 0.95,
            audio_duration: Math.round(t.duration),
            language_code: typeof transcript.config["language_code"] === "string" ? transcript.config["language_code"] : "en",
            speech_model_used: Array.isArray(models) && typeof models[0] === "string" ? models[0] : "universal-2"
          }
        }
      }
      return notFound(request)
    }
  })

/**
 * OpenAI `POST /v1/audio/transcriptions` (multipart, `Authorization: Bearer KEY`): with
 * `response_format=diarized_json` one segment per truth turn (speaker "A", "B" in order of first
 * appearance, no word times); with `verbose_json` the words (times, no punctuation, as whisper-1
 * answers them) and one segment per truth turn with its text and `avg_logprob`.
 */
export const startOpenAI = (options: ProviderServerOptions = {}) =>
  startServer(options, (key) => `Bearer ${key}`, (truthOf) => (request) => {
    if (request.method !== "POST" || request.path !== "/v1/audio/transcriptions") return notFound(request)
    const fields = request.form?.fields ?? {}
    const file = request.form?.files["file"]
    if (file === undefined || file.size === 0) {
      return { status: 400, body: { error: { message: "file is required", type: "invalid_request_error" } } }
    }
    const t = truthOf(file.sha256)
    if (t === undefined) {
      return { status: 400, body: { error: { message: "this test server knows only the fixtures' audio", type: "invalid_request_error" } } }
    }
    if (fields["model"]?.[0] === undefined) {
      return { status: 400, body: { error: { message: "model is required", type: "invalid_request_error" } } }
    }
    const format = fields["response_format"]?.[0] ?? "json"
    const text = t.turns.map((turn) => turn.text).join(" ")
    if (format === "diarized_json") {
      if (t.duration > 30 && fields["chunking_strategy"]?.[0] === undefined) {
        return { status: 400, body: { error: { message: "chunking_strategy is required for diarization models when the input is longer than 30 seconds.", type: "invalid_request_error" } } }
      }
      return {
        status: 200,
        body: {
          task: "transcribe",
          duration: t.duration,
          text,
          segments: t.turns.map((turn, i) => ({
            type: "transcript.text.segment",
            id: `seg_${i}`,
            start: turn.start,
            end: turn.end,
            text: turn.text,
            speaker: speakerLetter(t, turn.speaker)
          })),
          usage: { type: "duration", seconds: Math.ceil(t.duration) }
        }
      }
    }
    if (format === "verbose_json") {
      const granularities = fields["timestamp_granularities[]"] ?? ["segment"]
      return {
        status: 200,
        body: {
          task: "transcribe",
          language: "english",
          duration: t.duration,
          text,
          ...(granularities.includes("word")
            ? { words: truthWords(t).map((w) => ({ word: unpunctuated(w.text), start: w.start, end: w.end })) }
            : {}),
          ...(granularities.includes("segment")
            ? {
              segments: t.turns.map((turn, i) => ({
                id: i,
                seek: 0,
                start: turn.start,
                end: turn.end,
                text: ` ${turn.text}`,
                tokens: [],
                temperature: 0,
                avg_logprob: -0.2,
                compression_ratio: 1.3,
                no_speech_prob: 0.01
              }))
            }
            : {})
        }
      }
    }
    return { status: 200, body: { text } }
  })
