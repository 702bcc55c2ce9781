/**
 * The wiki's articles are Markdown (`body_markdown`). They are rendered here into React elements,
 * never into an HTML string: every piece of text is a text node that React escapes, so nothing in an
 * article (an `<img onerror>`, a `<script>`) can become markup, and no sanitiser is needed. What the
 * wiki uses is covered: headings, paragraphs, bullet and numbered lists, block quotes (nested
 * blocks inside), tables, fenced code, rules, and inline `code`, **strong**, *emphasis* and
 * [links](https://…) (only http(s), mailto and same-site paths; anything else stays text).
 */
import { Fragment, type ReactNode } from "react"

type Block =
  | { readonly t: "h"; readonly level: 2 | 3 | 4; readonly text: string }
  | { readonly t: "p"; readonly text: string }
  | { readonly t: "ul"; readonly items: ReadonlyArray<string> }
  | { readonly t: "ol"; readonly start: number; readonly items: ReadonlyArray<string> }
  | { readonly t: "quote"; readonly blocks: ReadonlyArray<Block> }
  | { readonly t: "code"; readonly text: string }
  | { readonly t: "table"; readonly head: ReadonlyArray<string>; readonly rows: ReadonlyArray<ReadonlyArray<string>> }
  | { readonly t: "hr" }

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/
const QUOTE = /^\s{0,3}>\s?(.*)$/
const FENCE = /^\s{0,3}(```|~~~)/
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/

const cells = (line: string) =>
  line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim())

const startsBlock = (line: string, next: string | undefined) =>
  HEADING.test(line) || BULLET.test(line) || NUMBERED.test(line) || QUOTE.test(line) || FENCE.test(line) || RULE.test(line) ||
  (line.trim().startsWith("|") && next !== undefined && TABLE_SEPARATOR.test(next))

/** The blocks of a Markdown text. */
export const parseBlocks = (source: string): ReadonlyArray<Block> => {
  const lines = source.replace(/\r\n?/g, "\n").split("\n")
  const blocks: Array<Block> = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]!
    if (line.trim() === "") {
      i++
      continue
    }
    const fence = FENCE.exec(line)
    if (fence !== null) {
      const body: Array<string> = []
      i++
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!)
      i++
      blocks.push({ t: "code", text: body.join("\n") })
      continue
    }
    const heading = HEADING.exec(line)
    if (heading !== null) {
      // the page's h1 is the article's title: the article's own headings start at h2
      const level = Math.min(4, Math.max(2, heading[1]!.length)) as 2 | 3 | 4
      blocks.push({ t: "h", level, text: heading[2]! })
      i++
      continue
    }
    if (RULE.test(line)) {
      blocks.push({ t: "hr" })
      i++
      continue
    }
    if (QUOTE.test(line)) {
      const inner: Array<string> = []
      while (i < lines.length && QUOTE.test(lines[i]!)) inner.push(QUOTE.exec(lines[i++]!)![1]!)
      blocks.push({ t: "quote", blocks: parseBlocks(inner.join("\n")) })
      continue
    }
    if (line.trim().startsWith("|") && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]!)) {
      const head = cells(line)
      const rows: Array<ReadonlyArray<string>> = []
      i += 2
      while (i < lines.length && lines[i]!.trim().startsWith("|")) rows.push(cells(lines[i++]!))
      blocks.push({ t: "table", head, rows })
      continue
    }
    const bullet = BULLET.exec(line)
    const numbered = NUMBERED.exec(line)
    if (bullet !== null || numbered !== null) {
      const pattern = bullet !== null ? BULLET : NUMBERED
      const items: Array<string> = []
      while (i < lines.length) {
        const l = lines[i]!
        const item = pattern.exec(l)
        if (item !== null) {
          items.push(item[item.length - 1]!)
          i++
        } else if (l.trim() !== "" && /^\s+/.test(l) && items.length > 0) {
          items[items.length - 1] += ` ${l.trim()}` // a continuation line of the item
          i++
        } else if (l.trim() === "" && i + 1 < lines.length && pattern.test(lines[i + 1]!)) {
          i++ // a loose list: blank lines between items
        } else break
      }
      blocks.push(bullet !== null ? { t: "ul", items } : { t: "ol", start: Number(numbered![1]), items })
      continue
    }
    const para: Array<string> = [line.trim()]
    i++
    while (i < lines.length && lines[i]!.trim() !== "" && !startsBlock(lines[i]!, lines[i + 1])) para.push(lines[i++]!.trim())
    blocks.push({ t: "p", text: para.join(" ") })
  }
  return blocks
}

/** Where a link may lead: the web, an e-mail, or a path of this site. Anything else is shown as text. */
const safeHref = (href: string): string | null => (/^(https?:\/\/|mailto:|\/(?!\/)|#)/i.test(href) ? href : null)

// code spans first (their content is literal), then links, strong, emphasis
const INLINE = /(`+)([\s\S]+?)\1|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*(?!\s)([\s\S]+?)\*|(?<![\p{L}\p{N}])_(?!\s)([^_]+?)_(?![\p{L}\p{N}])/gu

/** Inline Markdown as React nodes (text stays text). */
export const inline = (text: string): ReactNode => {
  const out: Array<ReactNode> = []
  let last = 0
  let k = 0
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index))
    if (m[2] !== undefined) out.push(<code key={k++}>{m[2].trim()}</code>)
    else if (m[3] !== undefined) {
      const href = safeHref(m[4]!)
      out.push(href === null
        ? <Fragment key={k++}>{inline(m[3])}</Fragment>
        : href.startsWith("/") || href.startsWith("#")
        ? <a key={k++} href={href}>{inline(m[3])}</a>
        : <a key={k++} href={href} target="_blank" rel="noreferrer noopener">{inline(m[3])}</a>)
    } else if (m[5] !== undefined || m[6] !== undefined) out.push(<strong key={k++}>{inline(m[5] ?? m[6]!)}</strong>)
    else out.push(<em key={k++}>{inline(m[7] ?? m[8]!)}</em>)
    last = m.index + m[0].length
  }
  if (last < text.length) out.push(text.slice(last))
  return out.length === 1 ? out[0] : out
}

const Blocks = ({ blocks }: { readonly blocks: ReadonlyArray<Block> }) => (
  <>
    {blocks.map((b, i) => {
      switch (b.t) {
        case "h":
          return b.level === 2 ? <h2 key={i}>{inline(b.text)}</h2> : b.level === 3 ? <h3 key={i}>{inline(b.text)}</h3> : <h4 key={i}>{inline(b.text)}</h4>
        case "p":
          return <p key={i}>{inline(b.text)}</p>
        case "ul":
          return <ul key={i}>{b.items.map((it, j) => <li key={j}>{inline(it)}</li>)}</ul>
        case "ol":
          return <ol key={i} start={b.start}>{b.items.map((it, j) => <li key={j}>{inline(it)}</li>)}</ol>
        case "quote":
          return <blockquote key={i}><Blocks blocks={b.blocks} /></blockquote>
        case "code":
          return <pre key={i}><code>{b.text}</code></pre>
        case "hr":
          return <hr key={i} />
        case "table":
          return (
            <div className="table-wrap" key={i} tabIndex={0}>
              <table>
                <thead><tr>{b.head.map((h, j) => <th scope="col" key={j}>{inline(h)}</th>)}</tr></thead>
                <tbody>{b.rows.map((r, j) => <tr key={j}>{r.map((c, n) => <td key={n}>{inline(c)}</td>)}</tr>)}</tbody>
              </table>
            </div>
          )
      }
    })}
  </>
)

/** A Markdown text, rendered as elements. */
export const Markdown = ({ source }: { readonly source: string }) => <Blocks blocks={parseBlocks(source)} />
