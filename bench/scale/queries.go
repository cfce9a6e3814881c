package main

import (
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/piexport/piexport/session"
)

// makeQueries draws n queries of each kind from what the history's users
// and assistants wrote, the way a person remembers a conversation: a word,
// three words of one message, a phrase of two or three words as written.
// Words are at least four letters, and not the commonest ones, which the
// index leaves out.
func makeQueries(h *history, n int) (map[string][]string, error) {
	r := rand.New(rand.NewPCG(3, 5))
	var texts, raws [][]string
	for _, i := range h.shuffled(40) {
		s, err := session.Load(h.files[i])
		if err != nil {
			return nil, err
		}
		for _, e := range s.Entries {
			if m := e.Message; m != nil && (m.Role == "user" || m.Role == "assistant") {
				if w := words(m.Text()); len(w) >= 6 {
					texts = append(texts, w)
					raws = append(raws, strings.FieldsFunc(m.Text(), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
				}
			}
		}
	}
	q := map[string][]string{}
	for range n {
		t := texts[r.IntN(len(texts))]
		q["one word"] = append(q["one word"], t[r.IntN(len(t))])
		t = texts[r.IntN(len(texts))]
		q["three words"] = append(q["three words"], t[r.IntN(len(t))]+" "+t[r.IntN(len(t))]+" "+t[r.IntN(len(t))])
		// A phrase as written: consecutive words, the first a long one.
		t = raws[r.IntN(len(raws))]
		k := 2 + r.IntN(2)
		at := r.IntN(max(1, len(t)-k+1))
		for at > 0 && len(t[at]) < 4 {
			at--
		}
		q["phrase"] = append(q["phrase"], `"`+strings.Join(t[at:min(len(t), at+k)], " ")+`"`)
	}
	return q, nil
}

// words returns the runs of at least four letters of text.
func words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 4 && !common[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	return out
}

var common = map[string]bool{"that": true, "this": true, "from": true, "have": true, "were": true, "will": true, "with": true}
