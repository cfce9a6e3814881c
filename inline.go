package piexport

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"strings"
)

// Inline is a stylesheet and a script from Assets, ready to be written
// inline in a page, and the Content-Security-Policy that allows exactly
// these two.
type Inline struct {
	CSS template.CSS
	JS  template.JS
	// CSP allows the inline style and script, images from data: URIs and
	// nothing else. It has no form-action, which depends on the page.
	CSP string
}

// LoadInline joins the stylesheets named css, each followed by a newline,
// and extraCSS (when set, followed by one too), and the scripts named js,
// without their lines of comments (withoutCommentLines). Neither may hold
// the closing tag of its element.
func LoadInline(css []string, extraCSS string, js ...string) (*Inline, error) {
	assets := Assets()
	var style strings.Builder
	for _, name := range css {
		b, err := fs.ReadFile(assets, name)
		if err != nil {
			return nil, err
		}
		style.Write(b)
		style.WriteByte('\n')
	}
	if extraCSS != "" {
		style.WriteString(extraCSS)
		style.WriteByte('\n')
	}
	var script []byte
	for i, name := range js {
		b, err := fs.ReadFile(assets, name)
		if err != nil {
			return nil, err
		}
		b, err = withoutCommentLines(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if i > 0 {
			script = append(script, '\n')
		}
		script = append(script, b...)
	}
	// A closing tag inside the text would end the element early and leave
	// the rest to the HTML parser; our own files never need one.
	if containsFold(style.String(), "</style") {
		return nil, errors.New("CSS contains </style")
	}
	if containsFold(string(script), "</script") {
		return nil, errors.New("script contains </script")
	}
	in := &Inline{
		// Both come from files embedded in the binary, never from a
		// session, so they may be written verbatim.
		CSS: template.CSS(style.String()),
		JS:  template.JS(script),
	}
	in.CSP = "default-src 'none'; script-src '" + CSPHash(string(in.JS)) +
		"'; style-src '" + CSPHash(string(in.CSS)) + "'; img-src data:; base-uri 'none'"
	return in, nil
}

// CSPHash returns the CSP source expression that allows one inline element
// whose text is s.
func CSPHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
}

// withoutCommentLines drops the lines of a script that are comments and
// nothing else: a line that starts with //, and a block comment that has
// lines of its own. Every page carries its scripts inline, and their
// comments, JSDoc types included, are a third of them; the files in
// assets/ keep them for whoever reads or checks the code. A line is never
// cut: a comment after code, or a type cast before it, stays, and so a
// line break stays between every two lines of code (what semicolon
// insertion reads). A template literal, whose lines could start like a
// comment, is refused.
func withoutCommentLines(src []byte) ([]byte, error) {
	out := make([]byte, 0, len(src))
	inBlock := false
	for n, line := range bytes.SplitAfter(src, []byte("\n")) {
		text := bytes.TrimSpace(line)
		switch {
		case inBlock:
			if end := bytes.Index(text, []byte("*/")); end >= 0 {
				if end+2 != len(text) {
					return nil, fmt.Errorf("line %d: code after the end of a comment", n+1)
				}
				inBlock = false
			}
			continue
		case bytes.HasPrefix(text, []byte("//")):
			continue
		case bytes.HasPrefix(text, []byte("/*")):
			end := bytes.Index(text[2:], []byte("*/"))
			if end < 0 {
				inBlock = true
				continue
			}
			if end+4 == len(text) {
				continue
			}
		}
		if bytes.IndexByte(line, '`') >= 0 {
			return nil, fmt.Errorf("line %d: a template literal, which this does not read", n+1)
		}
		out = append(out, line...)
	}
	if inBlock {
		return nil, errors.New("a comment that does not end")
	}
	return out, nil
}
