package main

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/piexport/piexport/session"
)

// queryKinds are the kinds of search measured, in the order reported.
var queryKinds = []string{"one word", "three words", "phrase", "common word", "common pair", "prefix", "filtered"}

// makeQueries draws n queries of each kind from what the history's users
// and assistants wrote, the way a person remembers a conversation:
//
//   - one word, three words of one message, a phrase of two or three words
//     as written (words of four letters or more);
//   - a common word: one of the 40 commonest words of those messages, the
//     shortest too ("the", "is", "on": every word is indexed); a pair of
//     them;
//   - a prefix: the first three or four letters of a word, and *;
//   - a word with a filter: a project, a date before or after which the
//     entry was written, or both.
func makeQueries(h *history, n int) (map[string][]string, error) {
	r := rand.New(rand.NewPCG(3, 5))
	var texts, raws [][]string
	counts := map[string]int{}
	for _, i := range h.shuffled(40) {
		s, err := session.Load(h.files[i])
		if err != nil {
			return nil, err
		}
		for _, e := range s.Entries {
			if m := e.Message; m != nil && (m.Role == "user" || m.Role == "assistant") {
				raw := strings.FieldsFunc(m.Text(), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
				for _, w := range raw {
					counts[strings.ToLower(w)]++
				}
				if w := words(m.Text()); len(w) >= 6 {
					texts = append(texts, w)
					raws = append(raws, raw)
				}
			}
		}
	}
	common := make([]string, 0, len(counts))
	for w := range counts {
		common = append(common, w)
	}
	slices.SortFunc(common, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
	common = common[:min(len(common), 40)]
	// Dates inside the history's span: generated sessions start in 2026.
	start := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
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
		q["common word"] = append(q["common word"], common[r.IntN(len(common))])
		q["common pair"] = append(q["common pair"], common[r.IntN(len(common))]+" "+common[r.IntN(len(common))])
		t = texts[r.IntN(len(texts))]
		w := []rune(t[r.IntN(len(t))])
		q["prefix"] = append(q["prefix"], string(w[:min(len(w), 3+r.IntN(2))])+"*")
		var filter string
		day := start.AddDate(0, 0, r.IntN(300)).Format(time.DateOnly)
		switch r.IntN(3) {
		case 0:
			filter = fmt.Sprintf("project:p%02d", r.IntN(projects))
		case 1:
			filter = []string{"after:", "before:"}[r.IntN(2)] + day
		default:
			filter = fmt.Sprintf("project:p%02d after:%s", r.IntN(projects), day)
		}
		word := common[r.IntN(len(common))]
		if r.IntN(2) == 0 {
			t = texts[r.IntN(len(texts))]
			word = t[r.IntN(len(t))]
		}
		q["filtered"] = append(q["filtered"], word+" "+filter)
	}
	return q, nil
}

// mixed returns the queries of every kind in turn.
func mixed(qs map[string][]string) []string {
	var out []string
	for i := 0; ; i++ {
		added := false
		for _, k := range queryKinds {
			if i < len(qs[k]) {
				out = append(out, qs[k][i])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

// words returns the runs of at least four letters of text.
func words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 4 {
			out = append(out, w)
		}
	}
	return out
}
