// Package jsonindent pretty-prints untrusted JSON within bounds. A page
// and a Markdown file show the values they have no view for (extension
// data, unknown entries, tool arguments, fields that could not be read)
// indented; json.Indent gives each level two more spaces on every line, so
// a value nested a few thousand levels deep in a few kilobytes becomes
// megabytes (2,000 levels in 12 KB made a 16 MB page, three of 9,000 in
// 54 KB a page of 972 MB). Indent keeps json.Indent's layout for what a
// person can read, and shows the rest compact: values nested deeper than
// MaxDepth, and all that follows once indentation has added its share of
// bytes (see maxAdded). What it returns is at most 9 times as long as the
// input, plus 64 KB.
package jsonindent

import (
	"encoding/json"
	"strings"

	"github.com/piexport/piexport/session"
)

// MaxDepth is the deepest level of nesting shown indented: the members of
// a container deeper than this are written on one line.
const MaxDepth = 32

// maxAdded bounds the bytes indentation adds to a value of n bytes: 8 per
// byte, and 64 KB, up to 4 MB. Values people read are indented whole
// (indenting adds 1 to 3 bytes per byte of ordinary JSON); one that would
// grow more is indented until the bound, then shown compact.
func maxAdded(n int) int { return min(64<<10+8*n, 4<<20) }

// Shown is a value as Indent shows it.
type Shown struct {
	// Text is the value, indented by two spaces per level as json.Indent
	// does, or as it was given when it is not JSON.
	Text []byte
	// Deep says values nested deeper than MaxDepth are written compact;
	// Long that indentation stopped at its bound, and the rest of the
	// value is written compact.
	Deep, Long bool
}

// Note says in one or two sentences what of the value is not indented,
// "" when all of it is.
func (s Shown) Note() string {
	var parts []string
	if s.Deep {
		parts = append(parts, "Values nested deeper than "+session.Count(MaxDepth, "level", "levels")+" are shown compact, each on one line.")
	}
	if s.Long {
		parts = append(parts, "Indented whole, this value would take too much room: past its first part it is shown compact.")
	}
	return strings.Join(parts, " ")
}

// Indent returns raw indented by two spaces per level, without prefix, as
// json.Indent does, within the bounds of the package doc. Raw that is not
// one valid JSON value is returned as it is, as json.Indent's callers
// showed it.
func Indent(raw []byte) Shown {
	if !json.Valid(raw) {
		return Shown{Text: raw}
	}
	ix := indenter{raw: raw, budget: maxAdded(len(raw)), out: make([]byte, 0, len(raw)+len(raw)/2)}
	ix.value()
	return Shown{Text: ix.out, Deep: ix.deep, Long: ix.long}
}

// indenter writes one valid JSON value. It reads raw as json.Indent's
// scanner does but needs no checks: json.Valid has made them.
type indenter struct {
	raw    []byte
	at     int // the next byte of raw to read
	out    []byte
	budget int // bytes indentation may add, past which all is compact
	// compact says indentation stopped for the rest of the value (the
	// budget is spent).
	compact    bool
	deep, long bool
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (ix *indenter) skipSpace() {
	for ix.at < len(ix.raw) && isSpace(ix.raw[ix.at]) {
		ix.at++
	}
}

// value writes the whole value, then the white space that follows it as
// it is (json.Indent keeps it).
func (ix *indenter) value() {
	ix.skipSpace()
	depth := 0
	// opened says the last token opened a container: the newline before
	// its first member waits, so that an empty one is written {} or [].
	opened := false
	for {
		ix.skipSpace()
		if ix.at == len(ix.raw) {
			return
		}
		c := ix.raw[ix.at]
		if opened {
			opened = false
			if c == '}' || c == ']' {
				ix.out = append(ix.out, c)
				ix.at++
				depth--
				if depth == 0 {
					ix.trailing()
					return
				}
				continue
			}
			ix.newline(depth)
		}
		switch c {
		case '{', '[':
			if depth == MaxDepth {
				// Its members would be nested deeper than MaxDepth.
				ix.compactValue()
				if depth == 0 {
					ix.trailing()
					return
				}
				continue
			}
			ix.out = append(ix.out, c)
			ix.at++
			depth++
			opened = true
		case '}', ']':
			depth--
			ix.newline(depth)
			ix.out = append(ix.out, c)
			ix.at++
			if depth == 0 {
				ix.trailing()
				return
			}
		case ',':
			ix.out = append(ix.out, c)
			ix.at++
			ix.newline(depth)
		case ':':
			ix.out = append(ix.out, ':')
			if !ix.compact {
				ix.out = append(ix.out, ' ')
			}
			ix.at++
		default:
			ix.scalar()
			if depth == 0 {
				ix.trailing()
				return
			}
		}
	}
}

// newline starts a line at depth, unless indentation has stopped, and
// stops it once it has added its budget.
func (ix *indenter) newline(depth int) {
	if ix.compact {
		return
	}
	ix.out = append(ix.out, '\n')
	for range depth {
		ix.out = append(ix.out, ' ', ' ')
	}
	if len(ix.out)-ix.at > ix.budget {
		ix.compact, ix.long = true, true
	}
}

// scalar copies a string, number, true, false or null.
func (ix *indenter) scalar() {
	start := ix.at
	if ix.raw[ix.at] == '"' {
		ix.at = stringEnd(ix.raw, ix.at)
	} else {
		for ix.at < len(ix.raw) && !isSpace(ix.raw[ix.at]) && !strings.ContainsRune(",:]}", rune(ix.raw[ix.at])) {
			ix.at++
		}
	}
	ix.out = append(ix.out, ix.raw[start:ix.at]...)
}

// compactValue copies the container that starts at ix.at without its
// white space.
func (ix *indenter) compactValue() {
	start := len(ix.out)
	depth := 0
	for {
		c := ix.raw[ix.at]
		switch {
		case c == '"':
			end := stringEnd(ix.raw, ix.at)
			ix.out = append(ix.out, ix.raw[ix.at:end]...)
			ix.at = end
			continue
		case isSpace(c):
		case c == '{' || c == '[':
			depth++
			ix.out = append(ix.out, c)
		case c == '}' || c == ']':
			depth--
			ix.out = append(ix.out, c)
		default:
			ix.out = append(ix.out, c)
		}
		ix.at++
		if depth == 0 {
			break
		}
	}
	if len(ix.out)-start > 2 {
		ix.deep = true // more than {} or []
	}
}

// trailing copies what follows the value: white space only, in valid
// JSON.
func (ix *indenter) trailing() {
	ix.out = append(ix.out, ix.raw[ix.at:]...)
	ix.at = len(ix.raw)
}

// stringEnd returns the index just past the string that starts at i.
func stringEnd(raw []byte, i int) int {
	for i++; ; i++ {
		switch raw[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
}
