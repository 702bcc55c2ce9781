/** E-mails kept instead of sent when no mail server is configured (`email_outbox`). */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import * as Rows from "../db/Rows.js"
import { newId } from "../lib/Ids.js"

export class OutboxRepo extends Effect.Service<OutboxRepo>()("OutboxRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = Rows.execute({
      Request: Schema.Struct({ to: Schema.String, subject: Schema.String, text: Schema.String, html: Schema.String }),
      execute: (m) =>
        sql`INSERT INTO email_outbox (message_id, to_address, subject, text_body, html_body)
            VALUES (${newId("msg")}, ${m.to}, ${m.subject}, ${m.text}, ${m.html})`
    })

    return { insert } as const
  })
}) {}
