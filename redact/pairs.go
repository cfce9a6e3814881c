package redact

import (
	"regexp"
	"strings"
)

// Secrets that go with an id. An AWS access key id (AKIA…) has a shape
// of its own, and gitleaks' rules find it; its secret access key is 40
// characters of base64 with no mark of its own, and only a name such as
// aws_secret_access_key lets a rule find it. Pasted without the name
// ("my key is AKIA… and the secret wJalr…"), the id was masked and the
// secret shown. As trufflehog pairs them, a string of the secret's
// shape near an id (in the same text, within a few lines) is taken for
// its secret and masked too: for every id/secret pair whose id the rule
// set knows by its shape.

// pairedSecret is the shape of the secret that goes with an id.
type pairedSecret struct {
	// rule is the secret's rule id, which names its placeholder.
	rule string
	// keywords are the id's (lower case), id matches an id where one
	// starts.
	keywords []string
	id       *regexp.Regexp
	// length is the secret's length, alphabet says which bytes it is
	// made of.
	length   int
	alphabet func(c byte) bool
}

var pairedSecrets = []pairedSecret{
	{
		// gitleaks' aws-access-token.
		rule:     "aws-secret-access-key",
		keywords: []string{"a3t", "akia", "asia", "abia", "acca"},
		id:       regexp.MustCompile(`^(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}`),
		length:   40,
		alphabet: func(c byte) bool { return isAlnum(c) || c == '/' || c == '+' },
	},
	{
		// gitleaks' alibaba-access-key-id; its secret is the rule set's
		// alibaba-secret-key, which it finds only after the word alibaba.
		rule:     "alibaba-secret-key",
		keywords: []string{"ltai"},
		id:       regexp.MustCompile(`^LTAI[a-zA-Z0-9]{20}`),
		length:   30,
		alphabet: isAlnum,
	},
}

// pairLines is how many lines before and after an id's line its secret
// is looked for in; pairBytes bounds that window on either side.
const (
	pairLines = 3
	pairBytes = 1024
)

// pairedRules returns the rules of the secrets that go with ids.
func pairedRules() []*rule {
	var rules []*rule
	for _, p := range pairedSecrets {
		rules = append(rules, &rule{id: p.rule, keywords: p.keywords, rank: rankShaped,
			find: func(text string, hits []int) [][2]int { return p.find(text, hits) }})
	}
	return rules
}

// find finds the secrets near the ids that start at hits.
func (p pairedSecret) find(text string, hits []int) [][2]int {
	var out [][2]int
	done := -1 // the window searched last ends here
	for _, h := range hits {
		if h > 0 && isAlnum(text[h-1]) {
			continue // inside a word
		}
		m := p.id.FindStringIndex(text[h:min(len(text), h+64)])
		if m == nil || h+m[1] < len(text) && isAlnum(text[h+m[1]]) {
			continue
		}
		idStart, idEnd := h, h+m[1]
		lo, hi := linesAround(text, idStart, idEnd)
		lo = max(lo, done)
		if lo >= hi {
			continue
		}
		done = hi
		for i := lo; i < hi; {
			if !p.alphabet(text[i]) {
				i++
				continue
			}
			j := i
			for j < len(text) && p.alphabet(text[j]) {
				j++
			}
			// A run that starts before the window is not whole in it.
			whole := i > lo || i == 0 || !p.alphabet(text[i-1])
			if whole && j-i == p.length && (j <= idStart || i >= idEnd) && secretLike(text[i:j]) {
				out = append(out, [2]int{i, j})
			}
			i = j
		}
	}
	return out
}

// linesAround returns the window around [start, end): its lines and
// pairLines lines before and after, at most pairBytes on either side.
func linesAround(text string, start, end int) (int, int) {
	lo := strings.LastIndexByte(text[:start], '\n') + 1
	for n := 0; n < pairLines && lo > 0; n++ {
		lo = strings.LastIndexByte(text[:lo-1], '\n') + 1
	}
	hi := len(text)
	if k := strings.IndexByte(text[end:], '\n'); k >= 0 {
		hi = end + k
	}
	for n := 0; n < pairLines && hi < len(text); n++ {
		if k := strings.IndexByte(text[hi+1:], '\n'); k >= 0 {
			hi += 1 + k
		} else {
			hi = len(text)
		}
	}
	return max(lo, start-pairBytes), min(hi, end+pairBytes)
}

// secretLike says whether s, of a secret's length and alphabet, looks
// generated: both cases and a digit, and the entropy of random
// characters. A git hash (lower-case hex), a word in camel case or a
// path of words does not.
func secretLike(s string) bool {
	return strings.ContainsAny(s, upperLetters) && strings.ContainsAny(s, lowerLetters) &&
		strings.ContainsAny(s, "0123456789") && entropy(s) >= 4
}
