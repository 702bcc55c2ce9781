/** Types of wiki.mjs, for the tests' global setup. */
export declare const WIKI_DIR: string
export declare const OUTPUT: string
export declare const render: () => string
export declare const generateWiki: () => boolean
