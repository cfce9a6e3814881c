package piexport

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
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
// and extraCSS (when set, followed by one too), and the scripts named js.
// Neither may hold the closing tag of its element.
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
