package redact

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// table numbers the values found in a group of sessions (see Found).
type table struct {
	place  map[string]string // value → its placeholder
	counts map[string]int    // rule → values numbered so far
	order  []string          // values in the order they were numbered
}

// tableOf numbers the values of group: each under the most specific rule
// that found it in any session of the group, in the group's order, then
// in the order each session found them.
func tableOf(group []*Found) *table {
	best := map[string]*rule{}
	for _, f := range group {
		for _, v := range f.values {
			if b := best[v.text]; b == nil || v.rule.rank < b.rank {
				best[v.text] = v.rule
			}
		}
	}
	t := &table{place: map[string]string{}, counts: map[string]int{}}
	for _, f := range group {
		for _, v := range f.values {
			t.add(v.text, best[v.text])
		}
	}
	return t
}

// merge sorts spans and joins those that overlap: a value that two rules
// find in part is masked whole, under the most specific rule, which it
// notes in best. A fixed replacement (home, user name) that overlaps a
// value gives way to it. Each value span gets its value, as a terminal
// shows it.
func merge(text string, spans []finding, best map[string]*rule) []finding {
	slices.SortFunc(spans, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	var values, fixed []finding
	for _, sp := range spans {
		if sp.rule.fixed != "" {
			fixed = append(fixed, sp)
			continue
		}
		if n := len(values); n > 0 && sp.start < values[n-1].end {
			last := &values[n-1]
			last.end = max(last.end, sp.end)
			if sp.rule.rank < last.rule.rank {
				last.rule = sp.rule
			}
			continue
		}
		values = append(values, sp)
	}
	for i := range values {
		v := &values[i]
		v.value = shown(text[v.start:v.end])
		if b := best[v.value]; b == nil || v.rule.rank < b.rank {
			best[v.value] = v.rule
		}
	}
	out := values
	for _, f := range fixed {
		if !overlapsAny(values, f) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b finding) int { return cmp.Compare(a.start, b.start) })
	return out
}

func overlapsAny(spans []finding, f finding) bool {
	for _, s := range spans {
		if f.start < s.end && s.start < f.end {
			return true
		}
	}
	return false
}

// add numbers value, found by r, if it is new.
func (t *table) add(value string, r *rule) {
	if _, ok := t.place[value]; ok {
		return
	}
	t.counts[r.id]++
	t.place[value] = fmt.Sprintf("[REDACTED:%s#%d]", r.id, t.counts[r.id])
	t.order = append(t.order, value)
}

// finder returns a search for every value numbered, or nil when there is
// none.
func (t *table) finder() *finder {
	if len(t.order) == 0 {
		return nil
	}
	f := &finder{values: t.order}
	size := 0
	for _, v := range t.order {
		size += len(v)
	}
	if len(t.order) > maxIndexSearch && size <= maxAutomatonBytes {
		f.all = newAutomaton(t.order)
	}
	return f
}

// maxIndexSearch is how many values are looked for one by one, with
// strings.Index (which runs at gigabytes a second); more are looked for
// in one pass of an automaton, whose table is costly to build: up to
// maxAutomatonBytes of values, a table of some 20 MB at most.
const (
	maxIndexSearch    = 16
	maxAutomatonBytes = 64 << 10
)

// finder finds the values of a table in a text.
type finder struct {
	values []string
	all    *automaton
}

// scan calls found for every occurrence of a value in text, in no
// particular order.
func (f *finder) scan(text string, found func(start, end int)) {
	if f.all != nil {
		f.all.scan(text, func(w, end int) {
			if v := f.values[w]; text[end-len(v):end] == v { // the automaton ignores case
				found(end-len(v), end)
			}
		})
		return
	}
	for _, v := range f.values {
		for at := 0; ; {
			i := strings.Index(text[at:], v)
			if i < 0 {
				break
			}
			found(at+i, at+i+len(v))
			at += i + 1
		}
	}
}

// shortValue is the length under which a value is masked elsewhere only
// where it stands as a word: "abc123" inside a longer word is not it.
const shortValue = 8

// slotResult is what rewriting a slot did.
type slotResult struct {
	findings            []Finding
	home, users, images int
	// grown counts the bytes of the strings written anew.
	grown int
}

// rewriteSlot masks one slot: the spans found in it, and every other
// occurrence of a value the table holds, except in an image's data and
// in a provider's opaque blobs (see opaqueStrings), where only the spans
// found are.
func rewriteSlot(sl *slot, found []piece, t *table, search *finder) slotResult {
	var res slotResult
	if !sl.isJSON {
		var own []finding
		if len(found) > 0 {
			own = found[0].spans
		}
		text := sl.v.String()
		if out, ok := rewriteText(text, own, t, search, imageLen(text), &res); ok {
			sl.v.SetString(out)
			res.grown += len(out)
		}
		return res
	}
	raw := sl.v.Bytes()
	opaque := opaqueStrings(raw)
	var buf []byte
	done, token, k := 0, 0, 0
	eachJSONString(raw, func(js jsonString, text string) {
		defer func() { token++ }()
		var own []finding
		if k < len(found) && found[k].token == token {
			own = found[k].spans
			k++
		}
		var out string
		var ok bool
		if opaque[js.start] {
			out, ok = rewriteText(text, own, t, nil, 0, &res)
		} else {
			out, ok = rewriteText(text, own, t, search, imageLen(text), &res)
		}
		if !ok {
			return
		}
		if buf == nil {
			buf = make([]byte, 0, len(raw)+64)
		}
		buf = append(buf, raw[done:js.start]...)
		buf = appendQuoted(buf, out)
		done = js.end
	})
	if buf != nil {
		buf = append(buf, raw[done:]...)
		sl.v.SetBytes(buf)
		res.grown += len(buf)
	}
	return res
}

// rewriteText replaces in text the spans own and every occurrence of a
// value of t from byte from on, also where escape sequences split it (see
// view.go). It reports false when nothing changed.
func rewriteText(text string, own []finding, t *table, search *finder, from int, res *slotResult) (string, bool) {
	type edit struct {
		start, end int
		with       string
		value      string // "" for a fixed replacement
	}
	var edits []edit
	for _, sp := range own {
		if sp.rule.fixed != "" {
			edits = append(edits, edit{sp.start, sp.end, sp.rule.fixed, ""})
			switch sp.rule.kind {
			case kindHome:
				res.home++
			case kindUser:
				res.users++
			case kindImage:
				res.images++
			}
			continue
		}
		edits = append(edits, edit{sp.start, sp.end, t.place[sp.value], sp.value})
	}
	if search != nil && from < len(text) {
		// In the text as it is, then as it is shown: an occurrence with
		// no escape in it is found twice, and the edits merge.
		seen := text[from:]
		v := viewOf(seen)
		for pass := 0; pass < 2; pass++ {
			if pass == 1 {
				if v == nil {
					break
				}
				seen = v.text
			}
			search.scan(seen, func(start, end int) {
				value := seen[start:end]
				if len(value) < shortValue && (start > 0 && isAlnum(seen[start-1]) || end < len(seen) && isAlnum(seen[end])) {
					return
				}
				if pass == 1 {
					start, end = v.raw(start, end)
				}
				edits = append(edits, edit{start + from, end + from, t.place[value], value})
			})
		}
	}
	if len(edits) == 0 {
		return text, false
	}
	// Values first, longest first where they start together; then the
	// fixed replacements that touch no value.
	slices.SortFunc(edits, func(a, b edit) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	var kept []edit
	for _, e := range edits {
		if e.value == "" {
			continue
		}
		if n := len(kept); n > 0 && e.start < kept[n-1].end {
			kept[n-1].end = max(kept[n-1].end, e.end)
			continue
		}
		kept = append(kept, e)
	}
	for _, e := range edits {
		if e.value != "" {
			continue
		}
		clash := false
		for _, k := range kept {
			if e.start < k.end && k.start < e.end {
				clash = true
				break
			}
		}
		if !clash {
			kept = append(kept, e)
		}
	}
	slices.SortFunc(kept, func(a, b edit) int { return cmp.Compare(a.start, b.start) })
	var b strings.Builder
	b.Grow(len(text))
	done := 0
	for _, e := range kept {
		b.WriteString(text[done:e.start])
		b.WriteString(e.with)
		b.WriteString(colours(text[e.start:e.end]))
		done = e.end
		if e.value != "" {
			res.findings = append(res.findings, Finding{Rule: ruleOf(e.with), Placeholder: e.with, Preview: Preview(e.value)})
		}
	}
	b.WriteString(text[done:])
	return b.String(), true
}

func isAlnum(c byte) bool { return isWordByte(c) && c != '_' }

// ruleOf reads the rule id back from a placeholder.
func ruleOf(placeholder string) string {
	id := strings.TrimPrefix(placeholder, "[REDACTED:")
	if i := strings.LastIndexByte(id, '#'); i >= 0 {
		id = id[:i]
	}
	return id
}
