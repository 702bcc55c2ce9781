/**
 * A local server speaking OpenAI's chat completions with structured output (`POST
 * /v1/chat/completions`, `response_format: json_schema`), for the tests of the LLM-assisted path
 * that call it through our OpenAI adapter (`llm/OpenAI.ts`): each request's user prompt is kept and
 * answered by `answer(prompt)`, as JSON content or as a refusal.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

export interface LocalOpenAI {
  readonly url: string
  /** The user prompt of every request, in order. */
  readonly prompts: Array<string>
}

export const localOpenAI = (answer: (prompt: string) => { content?: unknown; refusal?: string }) =>
  Effect.acquireRelease(
    Effect.async<LocalOpenAI & { close: () => void }>((resume) => {
      const prompts: Array<string> = []
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
          if (req.method !== "POST" || req.url !== "/v1/chat/completions" || body.response_format?.type !== "json_schema") {
            res.writeHead(404, { "content-type": "application/json" })
            return res.end(JSON.stringify({ error: { message: "no such route" } }))
          }
          const prompt = body.messages[1].content as string
          prompts.push(prompt)
          const a = answer(prompt)
          res.writeHead(200, { "content-type": "application/json" })
          res.end(JSON.stringify({
            id: "chatcmpl-local",
            object: "chat.completion",
            model: body.model,
            choices: [{
              index: 0,
              finish_reason: "stop",
              message: { role: "assistant", content: a.content === undefined ? null : JSON.stringify(a.content), refusal: a.refusal ?? null }
            }]
          }))
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          prompts,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })))
    }),
    (s) => Effect.sync(s.close)
  )

/**
 * The doubtful findings a request lists (`Assist.ts`): each line `o<n>: [mm:ss.s] speaker (kind): quote`
 * after "Doubtful findings:", read back as a model reads them.
 */
export const doubtfulOf = (prompt: string): Array<{ readonly id: string; readonly kind: string; readonly quote: string }> => {
  const from = prompt.indexOf("Doubtful findings:")
  if (from < 0) return []
  return [...prompt.slice(from).matchAll(/^(o\d+): \[[\d:.]+\] \S+ \((\w+)\): (.*)$/gm)].map((m) => ({ id: m[1]!, kind: m[2]!, quote: m[3]! }))
}
