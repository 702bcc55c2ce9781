/** vitest's global setup: the wiki's Markdown written into its module, as the build does (scripts/wiki.mjs). */
import { generateWiki } from "../../scripts/wiki.mjs"

export default function setup() {
  generateWiki()
}
