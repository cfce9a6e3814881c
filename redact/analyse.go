package redact

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a rule's regex says about where its matches can be: read from its
// syntax tree so that a regex is tried only where it can match.

// dropLeadIn returns re without what may come before its first keyword: a
// leading optional repeat (`[\w.-]{0,50}?`), which only widens the match,
// and a leading \b, reported so that the caller can check it itself.
func dropLeadIn(re *syntax.Regexp) (rest *syntax.Regexp, wordStart, ok bool) {
	if re.Op != syntax.OpConcat {
		return re, false, true
	}
	subs := re.Sub
	for len(subs) > 0 {
		s := subs[0]
		switch {
		case s.Op == syntax.OpWordBoundary:
			wordStart = true
		case s.Op == syntax.OpEmptyMatch:
		case (s.Op == syntax.OpStar || s.Op == syntax.OpQuest || (s.Op == syntax.OpRepeat && s.Min == 0)) && !hasCapture(s):
			if wordStart {
				return nil, false, false // \b then an optional part: keep it whole
			}
		default:
			if len(subs) == len(re.Sub) {
				return re, false, true // nothing before the anchor
			}
			if len(subs) == 1 {
				return subs[0], wordStart, true
			}
			out := *re
			out.Sub = subs
			return &out, wordStart, true
		}
		subs = subs[1:]
	}
	return nil, false, false
}

func hasCapture(re *syntax.Regexp) bool {
	if re.Op == syntax.OpCapture {
		return true
	}
	for _, s := range re.Sub {
		if hasCapture(s) {
			return true
		}
	}
	return false
}

// startsWithKeyword says whether each of the prefixes starts with one of
// the keywords (compared in lower case).
func startsWithKeyword(prefixes, keywords []string) bool {
	for _, p := range prefixes {
		p = strings.ToLower(p)
		found := false
		for _, k := range keywords {
			if strings.HasPrefix(p, k) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// literalPrefixes lists strings one of which begins every match of re,
// each as long as re's leading literal parts allow. ok is false when re
// can begin with something not spelled out (a wide class, a repeat).
func literalPrefixes(re *syntax.Regexp, limit int) (out []string, ok bool) {
	out, _, ok = prefixSet(re, limit)
	return out, ok
}

// prefixSet returns the prefixes and whether each of them is the whole of
// what re matches (so the next part of a concatenation may extend them).
func prefixSet(re *syntax.Regexp, limit int) ([]string, bool, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			// Case folding: the keywords are compared in lower case anyway.
			return []string{strings.ToLower(string(re.Rune))}, true, true
		}
		return []string{string(re.Rune)}, true, true
	case syntax.OpCharClass:
		var runes []rune
		for i := 0; i < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				runes = append(runes, r)
				if len(runes) > 4 {
					return nil, false, false
				}
			}
		}
		var out []string
		seen := map[string]bool{}
		for _, r := range runes {
			s := strings.ToLower(string(r))
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return out, true, true
	case syntax.OpCapture:
		return prefixSet(re.Sub[0], limit)
	case syntax.OpAlternate:
		var out []string
		whole := true
		for _, s := range re.Sub {
			p, w, ok := prefixSet(s, limit)
			if !ok {
				return nil, false, false
			}
			out = append(out, p...)
			whole = whole && w
			if len(out) > limit {
				return nil, false, false
			}
		}
		return out, whole, true
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			p, whole, ok := prefixSet(s, limit)
			if !ok {
				if len(out) == 1 && out[0] == "" {
					return nil, false, false
				}
				return out, false, true
			}
			var next []string
			for _, a := range out {
				for _, b := range p {
					next = append(next, a+b)
				}
			}
			if len(next) > limit {
				return out, false, out[0] != ""
			}
			out = next
			if !whole {
				return out, false, true
			}
		}
		return out, true, true
	case syntax.OpQuest:
		p, whole, ok := prefixSet(re.Sub[0], limit)
		if !ok {
			return nil, false, false
		}
		return append(p, ""), whole, true
	case syntax.OpRepeat, syntax.OpPlus:
		if re.Op == syntax.OpRepeat && re.Min == 0 {
			return nil, false, false
		}
		p, _, ok := prefixSet(re.Sub[0], limit)
		return p, false, ok
	}
	return nil, false, false
}

// maxLength bounds the length in bytes of what re matches; -1 when it is
// unbounded.
func maxLength(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += runeLen(r, re.Flags&syntax.FoldCase != 0)
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return runeLen(re.Rune[len(re.Rune)-1], false)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture:
		return maxLength(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpQuest:
		return maxLength(re.Sub[0])
	case syntax.OpRepeat:
		if re.Max < 0 {
			return -1
		}
		n := maxLength(re.Sub[0])
		if n < 0 {
			return -1
		}
		return n * re.Max
	case syntax.OpConcat:
		total := 0
		for _, s := range re.Sub {
			n := maxLength(s)
			if n < 0 {
				return -1
			}
			total += n
		}
		return total
	case syntax.OpAlternate:
		best := 0
		for _, s := range re.Sub {
			n := maxLength(s)
			if n < 0 {
				return -1
			}
			best = max(best, n)
		}
		return best
	}
	return -1
}

// runeLen is the length of r in UTF-8, or with fold of its longest case
// variant: k folds to the Kelvin sign, s to the long s.
func runeLen(r rune, fold bool) int {
	if fold {
		switch unicode.ToLower(r) {
		case 'k':
			return 3
		case 's':
			return 2
		}
		if r >= 0x80 {
			return utf8.UTFMax
		}
	}
	return utf8.RuneLen(r)
}

// edgePunctuation is what may stand right before or after a secret in a
// conversation, beyond what gitleaks' rules allow for in a source file: a
// token at the end of a sentence ("use sk-live-… ."), in parentheses, in
// Markdown emphasis or a table, in an HTML tag.
const edgePunctuation = ".,;:!?)]}>(*|&<#"

// widenEdges lets a rule's regex accept a secret followed (or preceded)
// by punctuation where its terminator, `(?:[\x60'"\s;]|\\[nr]|$)`, or its
// opening, `(?:^|[\\'"\x60\s>=:(,)])`, would not: gitleaks writes these
// for code, where a key ends at a quote or a space. Only an alternation
// that holds ^ or $ at the start or end of the regex is changed, and only
// by adding characters to its classes.
func widenEdges(re *syntax.Regexp) {
	if re.Op != syntax.OpConcat || len(re.Sub) == 0 {
		return
	}
	widen := func(alt *syntax.Regexp, edge syntax.Op) {
		if alt.Op != syntax.OpAlternate {
			return
		}
		hasEdge := false
		for _, s := range alt.Sub {
			if s.Op == edge {
				hasEdge = true
			}
		}
		if !hasEdge {
			return
		}
		for _, s := range alt.Sub {
			if s.Op != syntax.OpCharClass {
				continue
			}
			for _, c := range edgePunctuation {
				s.Rune = append(s.Rune, c, c)
			}
			s.Rune = normalizeClass(s.Rune)
		}
	}
	last := re.Sub[len(re.Sub)-1]
	widen(last, syntax.OpEndText)
	widen(re.Sub[0], syntax.OpBeginText)
	if len(re.Sub) >= 2 && isTerminator(last) {
		dropTrailingBoundary(re.Sub[len(re.Sub)-2])
	}
}

// isTerminator says whether re is an alternation that matches at the end
// of the text: the end of a secret.
func isTerminator(re *syntax.Regexp) bool {
	if re.Op != syntax.OpAlternate {
		return false
	}
	for _, s := range re.Sub {
		if s.Op == syntax.OpEndText {
			return true
		}
	}
	return false
}

// dropTrailingBoundary removes a \b that ends re (or a branch of it) when a
// terminator follows: the terminator already says the secret ends there,
// and \b would refuse a secret whose last character is not a word
// character (an OpenAI key ending in '-').
func dropTrailingBoundary(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpCapture:
		dropTrailingBoundary(re.Sub[0])
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			dropTrailingBoundary(s)
		}
	case syntax.OpConcat:
		if n := len(re.Sub); n > 1 && re.Sub[n-1].Op == syntax.OpWordBoundary {
			re.Sub = re.Sub[:n-1]
		} else if n > 0 {
			dropTrailingBoundary(re.Sub[n-1])
		}
	}
}

// normalizeClass sorts and merges the ranges of a character class.
func normalizeClass(r []rune) []rune {
	type rng struct{ lo, hi rune }
	var rs []rng
	for i := 0; i+1 < len(r); i += 2 {
		rs = append(rs, rng{r[i], r[i+1]})
	}
	slices.SortFunc(rs, func(a, b rng) int { return int(a.lo - b.lo) })
	var out []rune
	for _, x := range rs {
		if n := len(out); n > 0 && x.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], x.hi)
			continue
		}
		out = append(out, x.lo, x.hi)
	}
	return out
}
