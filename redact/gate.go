package redact

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minLength is the length in bytes of the shortest string re matches.
func minLength(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(string(re.Rune))
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLength(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLength(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minLength(s)
		}
		return n
	case syntax.OpAlternate:
		best := -1
		for _, s := range re.Sub {
			if n := minLength(s); best < 0 || n < best {
				best = n
			}
		}
		return max(best, 0)
	}
	return 0
}

// byteSet is a set of bytes; every byte of a multi-byte UTF-8 character
// is in it when any character above ASCII is.
type byteSet [256]bool

func (b *byteSet) addRune(r rune, fold bool) {
	if r >= utf8.RuneSelf {
		b.addHigh()
		return
	}
	b[r] = true
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf {
				b.addHigh()
			} else {
				b[f] = true
			}
		}
	}
}

func (b *byteSet) addHigh() {
	for c := utf8.RuneSelf; c < 256; c++ {
		b[c] = true
	}
}

func (b *byteSet) addClass(ranges []rune) {
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			b[r] = true
		}
		if hi >= utf8.RuneSelf {
			b.addHigh()
		}
	}
}

// allBytes adds every byte a match of re can hold.
func (b *byteSet) allBytes(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.addRune(r, re.Flags&syntax.FoldCase != 0)
		}
	case syntax.OpCharClass:
		b.addClass(re.Rune)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		for c := range b {
			b[c] = true
		}
	default:
		for _, s := range re.Sub {
			b.allBytes(s)
		}
	}
}

// firstBytes adds the bytes a match of re can start with. It returns
// false when re can match the empty string.
func (b *byteSet) firstBytes(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return false
		}
		b.addRune(re.Rune[0], re.Flags&syntax.FoldCase != 0)
		return true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.allBytes(re)
		return true
	case syntax.OpCapture, syntax.OpPlus:
		return b.firstBytes(re.Sub[0])
	case syntax.OpRepeat:
		return b.firstBytes(re.Sub[0]) && re.Min > 0
	case syntax.OpStar, syntax.OpQuest:
		b.firstBytes(re.Sub[0])
		return false
	case syntax.OpAlternate:
		all := true
		for _, s := range re.Sub {
			all = b.firstBytes(s) && all
		}
		return all
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if b.firstBytes(s) {
				return true
			}
		}
		return false
	}
	return false // zero-width
}

// gate is a quick test that rules out most places where a rule's anchored
// regex would fail. From the anchor, only bytes of skip may come until a
// byte of next does (within reach bytes, -1 for no limit), and not before
// minLead bytes. It is read from the regex: its anchoring literal, the
// optional parts after it, and the first part that must be there. For
// generic-api-key: a keyword, name characters and quotes, then one of
// `=>:|?,`.
type gate struct {
	skip, next byteSet
	minLead    int
	reach      int
	// must, when set, lists literals one of which a match holds after
	// its anchor: curl-auth-user's "-u" or "--user", far after "curl".
	must    []string
	hasNext bool
}

// newGate reads the gate of an anchored regex, or returns nil when it has
// none worth testing.
func newGate(re *syntax.Regexp) *gate {
	if re.Op != syntax.OpConcat {
		return nil
	}
	g := &gate{}
	lead := true
	for _, s := range re.Sub {
		minLen, maxLen := minLength(s), maxLength(s)
		switch {
		case lead && minLen > 0:
			g.skip.allBytes(s)
			g.minLead = minLen
			g.reach = maxLen
			lead = false
		case lead:
			return nil // an optional part before the anchor: dropLeadIn kept it
		case minLen == 0 && g.hasNext:
			// After the first part that must be there: only must is read.
		case minLen == 0:
			g.skip.allBytes(s)
			if maxLen < 0 || g.reach < 0 {
				g.reach = -1
			} else {
				g.reach += maxLen
			}
		default:
			if g.must == nil {
				// The first part that must be there and begins with one
				// of a few literals, spelled out in their case.
				if lits, ok := exactPrefixes(s); ok && len(lits) <= 8 && !slices.ContainsFunc(lits, func(l string) bool { return len(l) < 2 }) {
					g.must = lits
				}
			}
			if !g.hasNext {
				if !g.next.firstBytes(s) {
					return nil
				}
				g.hasNext = true
			}
		}
	}
	if !g.hasNext {
		return nil
	}
	return g
}

// exactPrefixes lists strings, in their case, one of which begins every
// match of re; ok is false when re can begin otherwise, or ignores case.
func exactPrefixes(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture:
		return exactPrefixes(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			p, ok := exactPrefixes(s)
			if !ok {
				return nil, false
			}
			out = append(out, p...)
		}
		return out, true
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil, false
		}
		return exactPrefixes(re.Sub[0])
	}
	return nil, false
}

// pass says whether the anchored regex may match at p, in text up to
// limit.
func (g *gate) pass(text string, p, limit int) bool {
	if g.must != nil && !slices.ContainsFunc(g.must, func(l string) bool { return strings.Contains(text[p:limit], l) }) {
		return false
	}
	end := len(text)
	if g.reach >= 0 {
		end = min(end, p+g.reach+1)
	}
	for i := p; i < end; i++ {
		c := text[i]
		if i >= p+g.minLead && g.next[c] {
			return true
		}
		if !g.skip[c] {
			return false
		}
	}
	return false
}
