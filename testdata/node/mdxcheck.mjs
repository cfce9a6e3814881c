// mdxcheck compiles Markdown files as Docusaurus 3 reads a .md file:
// front matter taken off by gray-matter (as @docusaurus/utils does), the
// rest compiled as MDX by @mdx-js/mdx 3 with remark-gfm. It prints one
// JSON line per file, for the Go test that runs it: the error, if the file
// does not compile; the front matter; and what the tree holds that could
// run or render as markup (JSX elements and their attributes, expressions,
// import/export), with the headings, the summaries' text and the anchors'
// ids, which the test checks against the session.
//
// Usage: node mdxcheck.mjs FILE...
import {compile} from '@mdx-js/mdx'
import remarkGfm from 'remark-gfm'
import matter from 'gray-matter'
import {toString} from 'mdast-util-to-string'
import {readFile} from 'node:fs/promises'

for (const file of process.argv.slice(2)) {
  const out = {file, jsx: [], expressions: [], esm: 0, headings: [], summaries: [], anchors: []}
  const inspect = () => (tree) => {
    const walk = (node) => {
      switch (node.type) {
        case 'mdxJsxFlowElement':
        case 'mdxJsxTextElement': {
          const attrs = {}
          for (const a of node.attributes || []) {
            attrs[a.type === 'mdxJsxAttribute' ? a.name : '{spread}'] = typeof a.value === 'string' ? a.value : JSON.stringify(a.value)
          }
          out.jsx.push({name: node.name || '', attrs})
          if (node.name === 'summary') out.summaries.push(toString(node))
          if (node.name === 'a' && typeof attrs.id === 'string') out.anchors.push(attrs.id)
          break
        }
        case 'mdxFlowExpression':
        case 'mdxTextExpression':
          out.expressions.push(node.value)
          break
        case 'mdxjsEsm':
          out.esm++
          break
        case 'heading':
          out.headings.push([node.depth, toString(node)])
          break
      }
      for (const child of node.children || []) walk(child)
    }
    walk(tree)
  }
  try {
    const parsed = matter(await readFile(file, 'utf8'))
    out.frontMatter = parsed.data
    await compile(parsed.content, {remarkPlugins: [remarkGfm, inspect]})
  } catch (e) {
    out.error = String(e.message || e) + (e.line ? ` (line ${e.line})` : '')
  }
  console.log(JSON.stringify(out))
}
