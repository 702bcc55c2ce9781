// A receiver of Callsight's webhooks (analysis.completed, analysis.failed) that checks each
// message's signature before it trusts it. Add the endpoint first (`callsight webhooks add URL`,
// or POST /v1/teams/webhooks) and keep the secret it shows once.
//   CALLSIGHT_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx webhook-receiver.ts
import { verifyWebhook, WebhookVerificationError } from "@callsight/client"
import { createServer } from "node:http"

const secret = process.env.CALLSIGHT_WEBHOOK_SECRET ?? ""
const seen = new Set<string>() // a delivery keeps its webhook-id across retries

const server = createServer(async (request, response) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  try {
    // the body exactly as received: the signature is over these bytes
    const event = await verifyWebhook(Buffer.concat(chunks), request.headers, secret)
    const id = String(request.headers["webhook-id"])
    if (!seen.has(id)) {
      seen.add(id)
      const { call_id, overall_score, error } = event.data
      console.log(event.type === "analysis.completed"
        ? `${event.type} ${call_id} overall_score ${overall_score}`
        : `${event.type} ${call_id} ${error?.code}`)
    }
    response.writeHead(204).end() // answer 2xx within 10 s, or the delivery is tried again
  } catch (e) {
    if (!(e instanceof WebhookVerificationError)) throw e
    console.error(`refused: ${e.message}`)
    response.writeHead(401).end()
  }
})

server.listen(Number(process.env.PORT ?? 3000), () => console.log(`listening on ${process.env.PORT ?? 3000}`))
