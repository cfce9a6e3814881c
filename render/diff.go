package render

import (
	"bytes"
	"html/template"
	"strings"
)

// diffLineKind is the class of one rendered diff line. Class names are
// short (an edit's diff is a span or three per line), and none is one of
// chroma's (see TestDiffClassesAreNotChromas).
type diffLineKind string

const (
	diffAdd  diffLineKind = "da"
	diffDel  diffLineKind = "dr"
	diffCtx  diffLineKind = "dc"
	diffHunk diffLineKind = "dh"
	diffFile diffLineKind = "df" // ---, +++, diff --git, index …
	diffMeta diffLineKind = "dm" // \ No newline at end of file
)

// diffLine is one parsed line: sign and number are empty when the line
// has none.
type diffLine struct {
	kind   diffLineKind
	sign   string
	number string
	code   string
}

// Diff renders a diff as <pre class="diff">, one block span per
// line classed da (added), dr (removed), dc (context), dh (hunk), df
// (file) or dm (meta). It reads plain unified diffs and the numbered form
// pi's edit tool writes in details.diff ("+ 12 code", " 12 code",
// "      ..."), and gjc's ("+12|code"); numbers go to a gutter of their own
// (dn), signs to a column (ds).
func Diff(diff string) template.HTML {
	diff = strings.ReplaceAll(diff, "\r\n", "\n")
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	parsed := parseDiff(lines)
	width := 0
	for _, l := range parsed {
		width = max(width, len(l.number))
	}

	var b bytes.Buffer
	b.Grow(len(diff)*2 + 64*len(lines))
	b.WriteString(`<pre class="diff"><code>`)
	for _, l := range parsed {
		b.WriteString(`<span class=`)
		b.WriteString(string(l.kind))
		b.WriteString(`>`)
		if width > 0 {
			b.WriteString(`<span class=dn>`)
			for range width - len(l.number) {
				b.WriteByte(' ')
			}
			b.WriteString(l.number)
			b.WriteString("</span>")
		}
		if l.sign != "" {
			b.WriteString(`<span class=ds>`)
			escapeTextTo(&b, l.sign)
			b.WriteString("</span>")
		}
		escapeTextTo(&b, l.code)
		b.WriteString("\n</span>")
	}
	b.WriteString("</code></pre>")
	return trusted(b.Bytes())
}

func parseDiff(lines []string) []diffLine {
	out := make([]diffLine, 0, len(lines))
	if numberedDiff(lines) {
		for _, line := range lines {
			out = append(out, parseNumberedLine(line))
		}
		return out
	}

	// Header lines (---, +++) come before a file's first hunk; after it a
	// line "--- x" is the removal of "-- x". Diffs without any hunk header
	// (pi writes some) have no header part at all.
	inHeader := false
	for _, line := range lines {
		if strings.HasPrefix(line, "@@") {
			inHeader = true
			break
		}
	}
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "diff "):
			inHeader = true
			out = append(out, diffLine{kind: diffFile, code: line})
		case strings.HasPrefix(line, "@@"):
			inHeader = false
			out = append(out, diffLine{kind: diffHunk, code: line})
		case inHeader:
			out = append(out, diffLine{kind: diffFile, code: line})
		case strings.HasPrefix(line, `\`):
			out = append(out, diffLine{kind: diffMeta, code: line})
		case strings.HasPrefix(line, "+"):
			out = append(out, diffLine{kind: diffAdd, sign: "+", code: line[1:]})
		case strings.HasPrefix(line, "-"):
			out = append(out, diffLine{kind: diffDel, sign: "-", code: line[1:]})
		case strings.HasPrefix(line, " "):
			out = append(out, diffLine{kind: diffCtx, sign: " ", code: line[1:]})
		default:
			out = append(out, diffLine{kind: diffCtx, code: line})
		}
	}
	return out
}

// numberedLine splits "<sign><spaces><digits><' ' or '|'><code>"; ok is
// false when line does not have that shape.
func numberedLine(line string) (sign, number, code string, ok bool) {
	if line == "" || (line[0] != '+' && line[0] != '-' && line[0] != ' ') {
		return "", "", "", false
	}
	i := 1
	for i < len(line) && line[i] == ' ' {
		i++
	}
	start := i
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == start {
		return "", "", "", false
	}
	number = line[start:i]
	switch {
	case i == len(line):
	case line[i] == ' ' || line[i] == '|':
		i++
	default:
		return "", "", "", false
	}
	return line[:1], number, line[i:], true
}

// elisionLine is pi's marker for skipped context: spaces, then "...".
func elisionLine(line string) bool {
	return strings.TrimLeft(line, " ") == "..." && strings.HasPrefix(line, " ")
}

// numberedDiff reports whether every line has pi's numbered shape. The
// whole diff decides, so that a plain diff adding "12 apples" is not
// read as line 12.
func numberedDiff(lines []string) bool {
	numbered := false
	for _, line := range lines {
		if line == "" || elisionLine(line) {
			continue
		}
		if _, _, _, ok := numberedLine(line); !ok {
			return false
		}
		numbered = true
	}
	return numbered
}

func parseNumberedLine(line string) diffLine {
	sign, number, code, ok := numberedLine(line)
	if !ok {
		return diffLine{kind: diffCtx, code: strings.TrimLeft(line, " ")}
	}
	kind := diffCtx
	switch sign {
	case "+":
		kind = diffAdd
	case "-":
		kind = diffDel
	}
	return diffLine{kind: kind, sign: sign, number: number, code: code}
}
