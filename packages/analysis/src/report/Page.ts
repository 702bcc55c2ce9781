/**
 * The HTML document around the sections: its head (the title, a content security policy that
 * allows no script and nothing from outside, the stylesheet) and its end (the footer).
 */
import { CSS } from "./Css.js"
import { e } from "./Format.js"
import type { ReportInput } from "./Report.js"

/** The document up to the opening `<body>`. */
export const documentStart = (input: ReportInput): string => {
  const title = input.external_call_id ?? input.call_id
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Call report · ${e(title)} · Callsight</title>
<style>${CSS}</style>
</head>
<body>`
}

/** The document after `</main>`: the footer, and the end. */
export const documentEnd = (input: ReportInput): string =>
  `<footer>Callsight · call ${e(input.call_id)} · ${e(input.method_version)} · generated from the stored analysis</footer>
</body>
</html>
`
