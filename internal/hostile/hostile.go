// Package hostile holds strings that would run script or add markup if
// any of them reached a page unescaped, for the tests of the packages that
// write pages. Each sets window.__xss or document.title, so a browser test
// can tell.
package hostile

// The strings, each named for where the tests put it.
const (
	Title   = `Fix it <script>window.__xss=1;document.title="pwned"</script> "><img src=x onerror="window.__xss=2">`
	Cwd     = `~/src/"><svg onload="window.__xss=3">`
	Label   = `"><script>window.__xss=4</script>`
	Preview = `</script><script>window.__xss=5</script> javascript:alert(1)`
	Role    = `Assistant · <b onmouseover="window.__xss=6">x</b>`
	Foot    = `'"><script>window.__xss=7</script>`
	ID      = `"><script>window.__xss=8</script>`
	Model   = `javascript:alert(1)`
)

// Engine are strings aimed at the engines of documentation sites, which
// read Markdown otherwise than GitHub: Python-Markdown (MkDocs), which
// keeps raw HTML and reads "{: ...}" as attributes; Hugo, which reads
// shortcodes before Markdown, in code too, and "{...}" after a heading
// as attributes; MDX (Docusaurus), which reads "{" as an expression, "<"
// as JSX and "import"/"export" lines as code; Liquid and Jinja, "{%".
// Each would run script (setting window.__xss), add markup, evaluate
// something or fail a build, if it reached the engine as syntax; the
// headings must not reach a table of contents.
var Engine = []string{
	`<img src=x onerror="window.__xss=11">`,
	`<script>window.__xss=12</script>`,
	`<svg onload="window.__xss=13"></svg>`,
	`<a href="javascript:window.__xss=14">a link</a> [md link](javascript:window.__xss=15)`,
	`{{< param "title" >}}`,
	`{{% param "title" %}}`,
	`{{< figure src="x" >}} and {{< unclosed`,
	`{{</* escaped */>}} {{%/* escaped */%}}`,
	`{% raw %}{{ site.title }}{% endraw %}`,
	`{`, `}`, `{window.__xss=16}`, `{(() => { window.__xss = 17 })()}`,
	"<details><summary>injected</summary>",
	"</details>",
	"</summary></details><script>window.__xss=18</script>",
	"```\nan unbalanced fence <script>window.__xss=19</script>",
	"~~~~\nanother <img src=x onerror=window.__xss=20>",
	"&lt;script&gt;window.__xss=21&lt;/script&gt; &amp;lt;b&amp;gt;",
	"export const pwned = (window.__xss = 22)",
	"import x from 'data:text/javascript,window.__xss=23'",
	"<!-- an open comment",
	"<!--more-->",
	"# more",
	"-->",
	"# An H1 of the text",
	"## An H2 of the text {#id .class onclick=\"window.__xss=24\"}",
	"###### An H6 of the text",
	"A setext heading\n================",
	"Another setext\n---",
	"*emphasis*{: onclick=\"window.__xss=25\" }",
	"{: onclick=\"window.__xss=26\" }",
	"<div markdown=\"1\">*md in html* <b onmouseover=\"window.__xss=27\">x</b></div>",
	"??? note \"a part\"\n    <img src=x onerror=window.__xss=28>",
	":::note\nan admonition\n:::",
	"$$ x^2 $$ and $y$",
	"<style>body{display:none}</style>",
}
