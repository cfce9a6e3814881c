package sessiongen

import (
	"strconv"
	"strings"
)

// Prose and markdown. Every function appends to b and returns it, so one
// scratch buffer serves a whole message without allocating.

type identStyle uint8

const (
	camel identStyle = iota
	snake
	pascal
	kebab
)

func appendTitle(b []byte, w string) []byte {
	if w == "" {
		return b
	}
	c := w[0]
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	return append(append(b, c), w[1:]...)
}

// appendThirdPerson appends the third person singular of verb v.
func appendThirdPerson(b []byte, v string) []byte {
	switch n := len(v); {
	case n > 1 && v[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(v[n-2])):
		return append(append(b, v[:n-1]...), "ies"...)
	case strings.HasSuffix(v, "s"), strings.HasSuffix(v, "sh"), strings.HasSuffix(v, "ch"), strings.HasSuffix(v, "x"):
		return append(append(b, v...), "es"...)
	}
	return append(append(b, v...), 's')
}

// ident appends an identifier of one to three words in the given style.
func (g *gen) ident(b []byte, st identStyle) []byte {
	n := 1 + g.r.weighted([]int{4, 5, 2})
	for i := 0; i < n; i++ {
		w := pick(&g.r, identWords)
		switch {
		case i == 0 && st != pascal:
			b = append(b, w...)
		case st == snake:
			b = append(append(b, '_'), w...)
		case st == kebab:
			b = append(append(b, '-'), w...)
		default:
			b = appendTitle(b, w)
		}
	}
	return b
}

func (g *gen) phrase(b []byte, words int) []byte {
	for i := 0; i < words; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		switch g.r.intn(4) {
		case 0:
			b = append(b, pick(&g.r, adjectives)...)
		default:
			b = append(b, pick(&g.r, nouns)...)
		}
	}
	return b
}

// inline appends a markdown inline element: code, a path, emphasis or a link.
func (g *gen) inline(b []byte) []byte {
	switch g.r.intn(6) {
	case 0, 1:
		b = append(b, '`')
		b = g.ident(b, camel)
		if g.r.pct(40) {
			b = append(b, "()"...)
		}
		return append(b, '`')
	case 2:
		b = append(b, '`')
		b = append(b, g.proj.randFile(&g.r).path...)
		return append(b, '`')
	case 3:
		b = append(b, "**"...)
		b = g.phrase(b, g.r.between(1, 3))
		return append(b, "**"...)
	case 4:
		b = append(b, '[')
		b = g.phrase(b, g.r.between(1, 4))
		b = append(b, "](https://"...)
		b = append(b, pick(&g.r, domains)...)
		if g.r.pct(50) {
			b = append(b, '#')
			b = append(b, pick(&g.r, identWords)...)
		}
		return append(b, ')')
	default:
		b = append(b, '_')
		b = append(b, pick(&g.r, adjectives)...)
		return append(b, '_')
	}
}

// sentence appends one sentence. With md, it may carry inline markdown.
func (g *gen) sentence(b []byte, md bool) []byte {
	start := len(b)
	switch g.r.intn(6) {
	case 0:
		b = append(b, pick(&g.r, openers)...)
		b = append(b, ' ')
		b = append(b, pick(&g.r, verbs)...)
		b = append(b, " the "...)
		b = g.phrase(b, g.r.between(1, 3))
	case 1:
		b = append(b, "The "...)
		b = g.phrase(b, g.r.between(1, 2))
		b = append(b, " is "...)
		b = append(b, pick(&g.r, adjectives)...)
	case 2:
		b = append(b, "This "...)
		b = appendThirdPerson(b, pick(&g.r, verbs))
		b = append(b, " the "...)
		b = g.phrase(b, g.r.between(1, 3))
		b = append(b, " before the "...)
		b = append(b, pick(&g.r, nouns)...)
		b = append(b, " is "...)
		b = append(b, pick(&g.r, adjectives)...)
	case 3:
		b = append(b, "We "...)
		b = append(b, pick(&g.r, adverbs)...)
		b = append(b, ' ')
		b = append(b, pick(&g.r, verbs)...)
		b = append(b, " each "...)
		b = append(b, pick(&g.r, nouns)...)
		b = append(b, " in the "...)
		b = g.phrase(b, 2)
	case 4:
		b = append(b, "If the "...)
		b = append(b, pick(&g.r, nouns)...)
		b = append(b, " is "...)
		b = append(b, pick(&g.r, adjectives)...)
		b = append(b, ", the "...)
		b = append(b, pick(&g.r, nouns)...)
		b = append(b, " should "...)
		b = append(b, pick(&g.r, verbs)...)
		b = append(b, " the "...)
		b = g.phrase(b, g.r.between(1, 2))
	default:
		n := g.r.between(5, 14)
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			switch g.r.intn(9) {
			case 0, 1, 2:
				b = append(b, pick(&g.r, nouns)...)
			case 3, 4:
				b = append(b, pick(&g.r, verbs)...)
			case 5:
				b = append(b, pick(&g.r, adjectives)...)
			case 6:
				b = append(b, "the"...)
			case 7:
				b = append(b, pick(&g.r, []string{"of", "to", "in", "for", "with", "on", "from", "by"})...)
			default:
				b = append(b, pick(&g.r, adverbs)...)
			}
		}
	}
	if md && g.r.pct(45) {
		b = append(b, pick(&g.r, []string{" in ", " via ", " with ", " next to ", " using ", " for "})...)
		b = g.inline(b)
	}
	if g.r.pct(30) {
		b = append(b, ' ')
		b = append(b, pick(&g.r, connectives)...)
		b = append(b, " the "...)
		b = g.phrase(b, g.r.between(1, 2))
		b = append(b, ' ')
		b = append(b, pick(&g.r, []string{"is", "was", "stays", "becomes", "looks"})...)
		b = append(b, ' ')
		b = append(b, pick(&g.r, adjectives)...)
	}
	if b[start] >= 'a' && b[start] <= 'z' {
		b[start] -= 'a' - 'A'
	}
	return append(b, pick(&g.r, []string{".", ".", ".", ".", ":", "!", "?"})...)
}

func (g *gen) paragraph(b []byte, sentences int, md bool) []byte {
	for i := 0; i < sentences; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = g.sentence(b, md)
	}
	return b
}

// thinking appends plain reasoning text of about size bytes.
func (g *gen) thinking(b []byte, size int) []byte {
	start := len(b)
	for len(b)-start < size {
		if len(b) > start {
			b = append(b, "\n\n"...)
		}
		b = g.paragraph(b, g.r.between(2, 6), false)
	}
	return b
}

// markdown appends an assistant answer of about size bytes, codeShare percent
// of it in fenced blocks.
func (g *gen) markdown(b []byte, size, codeShare int) []byte {
	start := len(b)
	b = g.paragraph(b, g.r.between(1, 4), true)
	codeBytes, textBytes := 0, len(b)-start
	for len(b)-start < size {
		b = append(b, "\n\n"...)
		before := len(b)
		if codeBytes*100 < codeShare*(codeBytes+textBytes) && g.r.pct(60) {
			room := size - (len(b) - start)
			b = g.fence(b, min(g.r.skewed(4, 70), max(3, room/35)))
			codeBytes += len(b) - before
			continue
		}
		switch g.r.weighted([]int{4, 4, 2, 2, 6, 1, 1}) {
		case 0:
			b = append(b, pick(&g.r, []string{"## ", "### ", "#### "})...)
			b = appendTitle(b, pick(&g.r, verbs))
			b = append(b, ' ')
			b = g.phrase(b, g.r.between(1, 3))
			b = append(b, "\n\n"...)
			b = g.paragraph(b, g.r.between(1, 3), true)
		case 1:
			n := g.r.between(2, 7)
			for i := 0; i < n; i++ {
				if i > 0 {
					b = append(b, '\n')
				}
				b = append(b, "- "...)
				if g.r.pct(30) {
					b = g.inline(b)
					b = append(b, ": "...)
				}
				b = g.sentence(b, true)
				if g.r.pct(12) {
					b = append(b, "\n  - "...)
					b = g.sentence(b, true)
				}
			}
		case 2:
			n := g.r.between(2, 6)
			for i := 0; i < n; i++ {
				if i > 0 {
					b = append(b, '\n')
				}
				b = strconv.AppendInt(b, int64(i+1), 10)
				b = append(b, ". "...)
				b = g.sentence(b, true)
			}
		case 3:
			b = g.table(b)
		case 4:
			b = g.paragraph(b, g.r.between(2, 5), true)
		case 5:
			b = append(b, "> "...)
			b = g.paragraph(b, g.r.between(1, 2), true)
		default:
			b = append(b, "---"...)
		}
		textBytes += len(b) - before
	}
	return b
}

func (g *gen) table(b []byte) []byte {
	cols := g.r.between(2, 5)
	rows := g.r.between(2, 9)
	b = append(b, '|')
	for c := 0; c < cols; c++ {
		b = append(b, ' ')
		b = appendTitle(b, pick(&g.r, nouns))
		b = append(b, " |"...)
	}
	b = append(b, "\n|"...)
	for c := 0; c < cols; c++ {
		b = append(b, pick(&g.r, []string{"---|", "---|", ":---|", "---:|"})...)
	}
	for r := 0; r < rows; r++ {
		b = append(b, "\n|"...)
		for c := 0; c < cols; c++ {
			b = append(b, ' ')
			switch g.r.intn(5) {
			case 0:
				b = append(b, '`')
				b = g.ident(b, camel)
				b = append(b, '`')
			case 1:
				b = strconv.AppendInt(b, int64(g.r.intn(5000)), 10)
				b = append(b, pick(&g.r, []string{"", " ms", " KB", "%", " MB/s"})...)
			case 2:
				b = append(b, pick(&g.r, []string{"✅", "❌", "yes", "no", "todo", "done", "n/a"})...)
			default:
				b = g.phrase(b, g.r.between(1, 4))
			}
			b = append(b, " |"...)
		}
	}
	return b
}

// fence appends a fenced code block of about lines lines, mostly in the
// project's language.
func (g *gen) fence(b []byte, lines int) []byte {
	l := g.proj.lang
	if g.r.pct(45) {
		l = pick(&g.r, languages)
	}
	return g.fenceIn(b, l, lines)
}

// fenceIn appends a fenced code block of about lines lines in l.
func (g *gen) fenceIn(b []byte, l *language, lines int) []byte {
	b = append(b, "```"...)
	b = append(b, l.fence...)
	b = append(b, '\n')
	b = g.code(b, l, lines)
	if n := len(b); n > 0 && b[n-1] != '\n' {
		b = append(b, '\n')
	}
	return append(b, "```"...)
}
