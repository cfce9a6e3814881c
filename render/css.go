package render

import (
	"bytes"
	"strings"
	"sync"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// The formatter is used for its CSS only (see CSS); the markup is
// written by writeTokens so that line numbers can start anywhere without
// building a formatter per block. Line numbers are enabled so that the
// CSS carries the rules for them.
var cssFormatter = chromahtml.New(
	chromahtml.WithClasses(true),
	chromahtml.WithLineNumbers(true),
	chromahtml.WithCSSComments(false),
)

var chromaCSSOnce = sync.OnceValue(buildChromaCSS)

// CSS returns the stylesheet for highlighted code, scoped like the
// page's palette in page.css: chroma's github style by default (and in
// print), github-dark on screen for data-theme="dark" and for "auto" when
// the system prefers dark. It is computed once; every page embeds it.
func CSS() string { return chromaCSSOnce() }

// buildChromaCSS writes the light rules once, unscoped, and the dark ones
// under the theme selectors, which are more specific. A property that
// only the light style sets is "unset" in the dark rule, so nothing of
// one style leaks into the other (github gives some tokens a weight or
// background that github-dark does not).
func buildChromaCSS() string {
	light := styleRules("github")
	dark := styleRules("github-dark")
	var b strings.Builder
	b.WriteString("/* Code highlighting: chroma's github and github-dark styles. */\n")
	writeRules(&b, "", light)
	// Dark rules: every selector either style styles.
	darkBySel := map[string][]cssDecl{}
	for _, r := range dark {
		darkBySel[r.selector] = r.decls
	}
	var darkRules []cssRule
	seen := map[string]bool{}
	for _, r := range append(append([]cssRule(nil), dark...), light...) {
		if seen[r.selector] {
			continue
		}
		seen[r.selector] = true
		decls := darkBySel[r.selector]
		for _, l := range light {
			if l.selector != r.selector {
				continue
			}
			for _, d := range l.decls {
				if !hasProp(decls, d.prop) {
					decls = append(decls, cssDecl{d.prop, "unset"})
				}
			}
		}
		darkRules = append(darkRules, cssRule{r.selector, decls})
	}
	for _, media := range []struct{ query, scope string }{
		{"screen", `html[data-theme="dark"] `},
		{"screen and (prefers-color-scheme: dark)", `html[data-theme="auto"] `},
	} {
		b.WriteString("@media " + media.query + " {\n")
		writeRules(&b, media.scope, darkRules)
		b.WriteString("}\n")
	}
	return b.String()
}

type cssDecl struct{ prop, value string }

type cssRule struct {
	selector string
	decls    []cssDecl
}

func hasProp(decls []cssDecl, prop string) bool {
	for _, d := range decls {
		if d.prop == prop {
			return true
		}
	}
	return false
}

// styleRules returns the rules WriteCSS writes for a style (one per line)
// that apply to our markup. Left out: the .bg rule and the block
// background, which content.css takes from --code-bg so code matches the
// page; rules for table line numbers, highlighted and linked lines, which
// are never written; and .err, which marks text the lexer did not
// understand, not an error in the code, and would paint it red.
func styleRules(name string) []cssRule {
	var buf bytes.Buffer
	if err := cssFormatter.WriteCSS(&buf, styles.Get(name)); err != nil {
		panic("chroma CSS for " + name + ": " + err.Error())
	}
	var rules []cssRule
	for line := range strings.SplitSeq(buf.String(), "\n") {
		sel, body, ok := strings.Cut(line, "{")
		if !ok {
			continue
		}
		sel = strings.TrimSpace(sel)
		if sel == ".bg" || strings.Contains(sel, ":target") {
			continue
		}
		if cls, ok := strings.CutPrefix(sel, ".chroma ."); ok {
			switch cls {
			case "lnt", "lntd", "lntable", "lnlinks", "hl", "err":
				continue
			}
		}
		var decls []cssDecl
		for d := range strings.SplitSeq(strings.TrimSuffix(strings.TrimSpace(body), "}"), ";") {
			prop, value, ok := strings.Cut(d, ":")
			prop, value = strings.TrimSpace(prop), strings.TrimSpace(value)
			if !ok || prop == "" || sel == ".chroma" && prop == "background-color" {
				continue
			}
			decls = append(decls, cssDecl{prop, value})
		}
		if len(decls) > 0 {
			rules = append(rules, cssRule{sel, decls})
		}
	}
	return rules
}

// writeRules writes rules with equal declarations as one rule with a
// selector list (most token types share a colour). That keeps the order
// of effect: each code span has one token class, so no two of these
// rules meet on one element.
func writeRules(b *strings.Builder, scope string, rules []cssRule) {
	var bodies []string
	selectors := map[string][]string{}
	for _, r := range rules {
		var body strings.Builder
		for i, d := range r.decls {
			if i > 0 {
				body.WriteByte(';')
			}
			body.WriteString(" " + d.prop + ": " + d.value)
		}
		key := body.String()
		if _, ok := selectors[key]; !ok {
			bodies = append(bodies, key)
		}
		selectors[key] = append(selectors[key], scope+r.selector)
	}
	for _, body := range bodies {
		b.WriteString(strings.Join(selectors[body], ", "))
		b.WriteString(" {")
		b.WriteString(body)
		b.WriteString(" }\n")
	}
}
