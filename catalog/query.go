package catalog

import (
	"strings"
	"time"
	"unicode"
)

// query is a parsed search. Its text part becomes an FTS5 expression; its
// filters narrow the sessions and the time searched.
//
// The syntax, meant to need no manual: words, all of which an entry must
// hold, as whole words with case and accents folded ("cafe" finds "Café");
// "a phrase" in double quotes; word* for words that start with word;
// -word for entries without it; and the filters project:NAME (the
// session's working directory contains NAME), model:NAME (the session used
// a model whose name contains NAME), after:DATE and before:DATE (the
// entry's time, DATE as 2026-03-01, 2026-03 or 2026, in local time). A
// word with punctuation in it (main.go, cmd/api) is searched as the phrase
// of its words. The commonest English words are not indexed (see
// stopwords): they are left out of words and phrases.
type query struct {
	// match is the FTS5 expression; "" when the query has no word.
	match string
	// terms are what to mark in snippets: single words (prefix when
	// marked so) and the words of each phrase, folded.
	terms []queryTerm
	// ignored are the words left out because they are not indexed.
	ignored []string
	project []string
	model   []string
	// after and before bound the entries' times; zero when unbounded.
	after, before time.Time
}

type queryTerm struct {
	words  []string
	prefix bool
}

// parseQuery parses q, never failing: what it cannot read is left out.
func parseQuery(q string) query {
	var pq query
	var pos, neg []string
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
		if prefix {
			// A prefix may be a stopword itself: "the*" finds "then".
			all := []string{}
			forWords(text, func(start, end int) { all = append(all, foldWord(text[start:end])) })
			if len(all) > 0 && isStopword([]byte(all[len(all)-1])) {
				words = append(words, all[len(all)-1])
			}
		}
		if len(words) == 0 {
			forWords(text, func(start, end int) { pq.ignored = append(pq.ignored, text[start:end]) })
			continue
		}
		// The words are quoted as FTS5 strings: nothing in them is syntax.
		expr := `"` + strings.Join(words, " ") + `"`
		if prefix {
			expr += " *"
		}
		if negate {
			neg = append(neg, expr)
			continue
		}
		pos = append(pos, expr)
		pq.terms = append(pq.terms, queryTerm{words: words, prefix: prefix})
	}
	if len(pos) > 0 {
		pq.match = strings.Join(pos, " AND ")
		for _, n := range neg {
			pq.match = "(" + pq.match + ") NOT " + n
		}
	}
	return pq
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
func parseDate(s string, end bool) (time.Time, bool) {
	for _, f := range []struct {
		layout string
		add    func(time.Time) time.Time
	}{
		{time.DateOnly, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{"2006-01", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{"2006", func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
	} {
		if t, err := time.ParseInLocation(f.layout, s, time.Local); err == nil {
			if end {
				t = f.add(t)
			}
			return t, true
		}
	}
	return time.Time{}, false
}
