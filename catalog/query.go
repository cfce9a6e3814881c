package catalog

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// query is a parsed search. Its words become an FTS5 expression (see
// expr); its filters narrow the sessions and the time searched.
//
// The syntax, meant to need no manual: words, all of which an entry must
// hold, as whole words with case and accents folded ("cafe" finds "Café");
// "a phrase" in double quotes; word* for words that start with word;
// -word for entries without it; and the filters project:NAME (the
// session's working directory contains NAME), model:NAME (the session used
// a model whose name contains NAME), after:DATE and before:DATE (the
// entry's time, DATE as 2026-03-01, 2026-03 or 2026, in local time). A
// word with punctuation in it (main.go, cmd/api) is searched as the phrase
// of its words. Every word counts, the commonest ("the", "on") too.
type query struct {
	// terms must all match; not must not.
	terms, not []queryTerm
	project    []string
	model      []string
	// after and before bound the entries' times; zero when unbounded.
	after, before time.Time
}

// queryTerm is a word or a phrase, folded as the index folds them.
type queryTerm struct {
	words []string
	// prefix says the last word is the start of the words to find;
	// expanded are those words (see Catalog.expand): none, a prefix that
	// starts no word, matches nothing.
	prefix   bool
	expanded []string
}

// parseQuery parses q, never failing: what it cannot read is left out.
func parseQuery(q string) query {
	var pq query
	for _, tok := range splitQuery(q) {
		text, quoted := tok.text, tok.quoted
		if !quoted {
			if k, v, ok := strings.Cut(text, ":"); ok && v != "" {
				switch strings.ToLower(k) {
				case "project":
					pq.project = append(pq.project, strings.ToLower(v))
					continue
				case "model":
					pq.model = append(pq.model, strings.ToLower(v))
					continue
				case "after":
					if t, ok := parseDate(v, false); ok {
						pq.after = t
						continue
					}
				case "before":
					if t, ok := parseDate(v, true); ok {
						pq.before = t
						continue
					}
				}
			}
		}
		negate := false
		if !quoted && strings.HasPrefix(text, "-") && len(text) > 1 {
			negate, text = true, text[1:]
		}
		prefix := false
		if !quoted && strings.HasSuffix(text, "*") {
			prefix, text = true, strings.TrimRight(text, "*")
		}
		words := indexWords(text)
		if len(words) == 0 {
			continue
		}
		t := queryTerm{words: words, prefix: prefix}
		if negate {
			pq.not = append(pq.not, t)
		} else {
			pq.terms = append(pq.terms, t)
		}
	}
	return pq
}

// expr is the FTS5 expression of the query; "" when it has no word to
// find.
func (pq *query) expr() string {
	if len(pq.terms) == 0 {
		return ""
	}
	var pos []string
	for _, t := range pq.terms {
		pos = append(pos, t.expr())
	}
	e := strings.Join(pos, " AND ")
	for _, t := range pq.not {
		e = "(" + e + ") NOT " + t.expr()
	}
	return e
}

// expr is the term as an FTS5 expression. The words are quoted as FTS5
// strings: nothing in them is syntax (they are letters and digits).
func (t queryTerm) expr() string {
	phrase := func(words []string) string { return `"` + strings.Join(words, " ") + `"` }
	switch {
	case !t.prefix:
		return phrase(t.words)
	case len(t.expanded) == 0:
		// Unexpanded (its words not looked up): FTS5's prefix search.
		return phrase(t.words) + " *"
	}
	head := t.words[:len(t.words)-1]
	alts := make([]string, len(t.expanded))
	for i, w := range t.expanded {
		alts[i] = phrase(append(slices.Clip(head), w))
	}
	return "(" + strings.Join(alts, " OR ") + ")"
}

type queryToken struct {
	text   string
	quoted bool
}

// splitQuery splits q at white space outside double quotes; a quoted part
// is one token, also after a filter's colon (project:"docs site").
func splitQuery(q string) []queryToken {
	var out []queryToken
	for q != "" {
		q = strings.TrimLeftFunc(q, unicode.IsSpace)
		if q == "" {
			break
		}
		if q[0] == '"' {
			text, rest, _ := strings.Cut(q[1:], `"`)
			out = append(out, queryToken{text, true})
			q = rest
			continue
		}
		end := strings.IndexFunc(q, unicode.IsSpace)
		if end < 0 {
			end = len(q)
		}
		word := q[:end]
		if k, _, ok := strings.Cut(word, `:"`); ok && !strings.Contains(k, `"`) {
			val, rest, _ := strings.Cut(q[len(k)+2:], `"`)
			out = append(out, queryToken{k + ":" + val, false})
			q = rest
			continue
		}
		out = append(out, queryToken{word, false})
		q = q[end:]
	}
	return out
}

// parseDate reads 2026-03-01, 2026-03 or 2026 in local time. end asks for
// the end of the period (for before:, which then includes it).
func parseDate(s string, end bool) (time.Time, bool) { return parseDateIn(s, end, time.Local) }

// parseDateIn is parseDate in loc. assets/index.js has a copy (localDate),
// which the index's filters and the archive's search read dates with.
func parseDateIn(s string, end bool, loc *time.Location) (time.Time, bool) {
	for _, f := range []struct {
		layout              string
		years, months, days int
	}{
		{time.DateOnly, 0, 0, 1},
		{"2006-01", 0, 1, 0},
		{"2006", 1, 0, 0},
	} {
		// Read in UTC, where a date's arithmetic is the calendar's, and
		// only then placed in loc.
		t, err := time.Parse(f.layout, s)
		if err != nil {
			continue
		}
		if end {
			t = t.AddDate(f.years, f.months, f.days)
		}
		y, m, d := t.Date()
		return dayStart(y, m, d, loc), true
	}
	return time.Time{}, false
}

// dayStart is the first instant of a day in loc: its midnight, or where
// the clocks skip midnight (America/Sao_Paulo until 2019, Asia/Beirut)
// the moment they jump, as JavaScript's Date has it. time.Date leaves
// that case open, and may answer 23:00 the day before.
func dayStart(y int, m time.Month, d int, loc *time.Location) time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t
	}
	start, end := t.ZoneBounds()
	if t.Day() != d {
		return end // before the jump, on the day before
	}
	return start
}
