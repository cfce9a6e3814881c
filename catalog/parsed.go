package catalog

import "time"

// ParsedQuery is a search as the query language reads it (see query): for
// a catalog kept on another engine (package teamcatalog) to run the same
// searches, and cut and mark the same snippets.
type ParsedQuery struct {
	// Terms must all match; Not must not.
	Terms, Not []QueryTerm
	// Project and Model are what the session's working directory and one
	// of its models must contain, folded to lower case.
	Project, Model []string
	// After and Before bound the entries' times; zero when unbounded.
	After, Before time.Time

	terms []queryTerm
}

// QueryTerm is a word or a phrase, folded as the index folds them. Prefix
// says the last word is the start of the words to find.
type QueryTerm struct {
	Words  []string
	Prefix bool
}

// ParseQuery parses q as Search does, never failing: what it cannot read
// is left out.
func ParseQuery(q string) ParsedQuery {
	pq := parseQuery(q)
	p := ParsedQuery{Project: pq.project, Model: pq.model, After: pq.after, Before: pq.before, terms: pq.terms}
	for _, t := range pq.terms {
		p.Terms = append(p.Terms, QueryTerm{Words: t.words, Prefix: t.prefix})
	}
	for _, t := range pq.not {
		p.Not = append(p.Not, QueryTerm{Words: t.words, Prefix: t.prefix})
	}
	return p
}

// Snippet cuts the part of text (an entry's, as EntryText makes it)
// around the first match of the query's terms, on one line, and marks
// every match: byte ranges [start, end) of the snippet, in order.
func (p ParsedQuery) Snippet(text string) (string, [][2]int) { return snippet(text, p.terms) }

// MarkWords are the words a page marks in the hits: the terms' words, a
// prefix with * after it.
func (p ParsedQuery) MarkWords() []string {
	var out []string
	for _, t := range p.terms {
		out = append(out, t.words...)
		if t.prefix {
			out[len(out)-1] += "*"
		}
	}
	return out
}
