/**
 * E-mails kept instead of sent when no mail server is configured (`email_outbox`), in development
 * only (mail/Mailer.ts). A row is the whole message, its live sign-in or verification link in
 * plaintext: what a developer (and the embedded quick start, and the tests) needs to sign in
 * without a mail server. Production writes no row, and deletes at start-up any an earlier run left.
 */
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

    /** Deletes every kept message; answers how many there were. */
    const clear = Rows.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ message_id: Schema.String }),
      execute: () => sql`DELETE FROM email_outbox RETURNING message_id`
    })(undefined).pipe(Effect.map((rows) => rows.length))

    return { insert, clear } as const
  })
}) {}
