package redact

import (
	"math"
	"slices"
	"strings"
	"sync"
)

// detector finds secrets in text with gitleaks' rules and this package's
// own. As gitleaks does, it first looks for every rule's keywords and runs
// only the rules whose keywords occur; unlike gitleaks it runs a rule only
// where a keyword is, not over the whole text: anchored at the keyword
// when every match starts there (most rules, generic-api-key among them,
// whose unanchored form runs at about 1.4 MB/s), else on a window around
// it as wide as a match can be.
type detector struct {
	rules     []*rule
	global    []*allowlist
	keywords  *automaton
	byKeyword [][]int32 // keyword → the rules that name it
	always    []*rule   // rules without keywords, run on every text
	// assign is the rule for values named as secret, which a JSON key
	// can name too; nil when secrets are not searched.
	assign *rule
	// literal is the rule of the user's own words; nil without any.
	// folded finds them in texts beyond ASCII (see fold.go).
	literal *rule
	folded  *automaton
}

// finding is a secret found in a text: its bytes [start, end). value is
// the value they hold, as a terminal shows it (see view.go), once spans
// are merged.
type finding struct {
	start, end int
	rule       *rule
	value      string
}

var (
	defaultOnce     sync.Once
	defaultDetector *detector
	defaultErr      error
)

// builtin returns the detector of gitleaks' rules and this package's own,
// built once.
func builtin() (*detector, error) {
	defaultOnce.Do(func() {
		rules, global, err := loadGitleaks()
		if err != nil {
			defaultErr = err
			return
		}
		own, err := ownRules()
		if err != nil {
			defaultErr = err
			return
		}
		defaultDetector = newDetector(append(rules, own...), global)
	})
	return defaultDetector, defaultErr
}

func newDetector(rules []*rule, global []*allowlist) *detector {
	d := &detector{rules: rules, global: global}
	index := map[string]int{}
	var words []string
	for ri, r := range rules {
		switch r.id {
		case "secret-assignment":
			d.assign = r
		case literalID:
			d.literal = r
			d.folded = newAutomaton(r.folded)
			if len(r.keywords) == 0 {
				continue // found by the folded search alone
			}
		}
		if len(r.keywords) == 0 {
			d.always = append(d.always, r)
			continue
		}
		for _, k := range r.keywords {
			i, ok := index[k]
			if !ok {
				i = len(words)
				index[k] = i
				words = append(words, k)
				d.byKeyword = append(d.byKeyword, nil)
			}
			if !slices.Contains(d.byKeyword[i], int32(ri)) {
				d.byKeyword[i] = append(d.byKeyword[i], int32(ri))
			}
		}
	}
	d.keywords = newAutomaton(words)
	return d
}

// hit is a keyword found for a rule: where the keyword starts and ends.
type hit struct {
	rule, word int32
	start, end int32
}

// scratch is what one goroutine reuses from text to text.
type scratch struct {
	hits []hit
	wins [][2]int
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// find returns the secrets in text, in no particular order; they may
// overlap.
func (d *detector) find(text string) []finding {
	var out []finding
	for _, r := range d.always {
		for _, sp := range r.find(text, nil) {
			out = append(out, finding{start: sp[0], end: sp[1], rule: r})
		}
	}
	if d.folded != nil && hasNonASCII(text) {
		d.folded.scanFolded(text, func(_, start, end int) {
			out = append(out, finding{start: start, end: end, rule: d.literal})
		})
	}
	if len(text) > math.MaxInt32 {
		return out
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	hits := sc.hits[:0]
	d.keywords.scan(text, func(w, end int) {
		start := int32(end - len(d.keywords.words[w]))
		for _, ri := range d.byKeyword[w] {
			hits = append(hits, hit{ri, int32(w), start, int32(end)})
		}
	})
	sc.hits = hits
	if len(hits) == 0 {
		return out
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.rule != b.rule {
			return int(a.rule - b.rule)
		}
		return int(a.start - b.start)
	})
	for i := 0; i < len(hits); {
		j := i
		for j < len(hits) && hits[j].rule == hits[i].rule {
			j++
		}
		out = d.runRule(d.rules[hits[i].rule], text, hits[i:j], sc, out)
		i = j
	}
	return out
}

// runRule runs r where its keywords were found, hits sorted by start.
func (d *detector) runRule(r *rule, text string, hits []hit, sc *scratch, out []finding) []finding {
	switch {
	case r.expr == "" && r.find == nil:
		for _, h := range hits {
			if wordHit(r, text, d.keywords.words[h.word], int(h.start), int(h.end)) {
				out = append(out, finding{start: int(h.start), end: int(h.end), rule: r})
			}
		}
	case r.find != nil:
		starts := make([]int, 0, len(hits))
		for k, h := range hits {
			if k == 0 || h.start != hits[k-1].start {
				starts = append(starts, int(h.start))
			}
		}
		for _, sp := range r.find(text, starts) {
			out = append(out, finding{start: sp[0], end: sp[1], rule: r})
		}
	case r.at != nil && r.anchors == nil:
		last := -1
		for _, h := range hits {
			if p := int(h.start); p != last {
				last = p
				out = d.tryAt(r, text, p, out)
			}
		}
	case r.at != nil:
		// The literal a match starts with is not the keyword (a match of
		// lob-api-key starts with "lob" and holds "test_"): look for it
		// up to anchorLen before each keyword.
		lo, hi := -1, -1
		flush := func() {
			if lo < 0 {
				return
			}
			r.anchors.scan(text[lo:hi], func(w, end int) {
				out = d.tryAt(r, text, lo+end-len(r.anchors.words[w]), out)
			})
		}
		for _, h := range hits {
			a := 0
			if r.anchorLen >= 0 {
				a = max(0, int(h.start)-r.anchorLen)
			}
			b := min(len(text), int(h.end)+32)
			if lo >= 0 && a <= hi {
				hi = max(hi, b)
				continue
			}
			flush()
			lo, hi = a, b
		}
		flush()
	default:
		wins := sc.wins[:0]
		for _, h := range hits {
			lo, hi := 0, len(text)
			if r.maxLen >= 0 {
				lo = max(0, int(h.start)-r.maxLen-1)
				hi = min(len(text), int(h.end)+r.maxLen+1)
			}
			if n := len(wins); n > 0 && lo <= wins[n-1][1] {
				wins[n-1][1] = max(wins[n-1][1], hi)
				continue
			}
			wins = append(wins, [2]int{lo, hi})
		}
		sc.wins = wins
		for _, w := range wins {
			for _, loc := range r.whole().FindAllStringSubmatchIndex(text[w[0]:w[1]], -1) {
				for k := range loc {
					if loc[k] >= 0 {
						loc[k] += w[0]
					}
				}
				out = d.accept(r, text, loc, out)
			}
		}
	}
	return out
}

// tryAt tries r's anchored regex at p.
func (d *detector) tryAt(r *rule, text string, p int, out []finding) []finding {
	if r.wordStart && p > 0 && isWordByte(text[p-1]) == isWordByte(text[p]) {
		return out
	}
	end := len(text)
	if r.maxLen >= 0 {
		// One byte more than a match can take, so that an end of text or
		// a word boundary is never seen where the window is cut.
		end = min(end, p+r.maxLen+1)
	}
	if r.gate != nil && !r.gate.pass(text, p, end) {
		return out
	}
	loc := r.at.FindStringSubmatchIndex(text[p:end])
	if loc == nil {
		return out
	}
	for k := range loc {
		if loc[k] >= 0 {
			loc[k] += p
		}
	}
	return d.accept(r, text, loc, out)
}

// accept turns a match of r (submatch offsets in text) into a finding if
// the secret it holds passes the rule's entropy check and no allowlist
// lets it go, as gitleaks decides.
func (d *detector) accept(r *rule, text string, loc []int, out []finding) []finding {
	if r.leadIn && r.maxLen >= 0 {
		// The whole match is the secret: take the lead-in back, as the
		// whole regex would match it.
		lo := max(0, loc[1]-r.maxLen)
		for _, m := range r.whole().FindAllStringIndex(text[lo:loc[1]], -1) {
			if lo+m[1] == loc[1] {
				loc = []int{lo + m[0], loc[1]}
			}
		}
	}
	start, end := -1, -1
	switch {
	case r.group > 0 && 2*r.group+1 < len(loc):
		start, end = loc[2*r.group], loc[2*r.group+1]
	default:
		for g := 1; 2*g+1 < len(loc); g++ {
			if loc[2*g] >= 0 && loc[2*g+1] > loc[2*g] {
				start, end = loc[2*g], loc[2*g+1]
				break
			}
		}
	}
	if start < 0 {
		start, end = loc[0], loc[1]
		for start < end && text[start] == '\n' {
			start++
		}
		for end > start && text[end-1] == '\n' {
			end--
		}
	}
	if start >= end {
		return out
	}
	secret := text[start:end]
	if r.entropy != 0 && entropy(secret) <= r.entropy {
		return out
	}
	if r.rank == rankGeneric && !(strings.ContainsAny(secret, "0123456789") && strings.IndexFunc(secret, isLetter) >= 0) {
		// A generated key has digits and letters (40 random characters
		// lack a digit once in a thousand); "relacoes/espiritualidade"
		// after "keys:" is words.
		return out
	}
	match := text[loc[0]:loc[1]]
	if r.at != nil && !r.leadIn {
		// The match as the whole regex has it, lead-in included, for the
		// allowlists that look at it ("capital" is allowed, not "apital").
		lo := max(0, loc[0]-leadInMax)
		if m := r.whole().FindStringIndex(text[lo:loc[1]]); m != nil && lo+m[0] <= loc[0] {
			match = text[lo+m[0] : loc[1]]
		}
	}
	line := ""
	for _, lists := range [][]*allowlist{d.global, r.allow} {
		for _, a := range lists {
			if a.target == "line" && line == "" {
				line = lineAround(text, loc[0], loc[1])
			}
			if a.allows(secret, match, line) {
				return out
			}
		}
	}
	return append(out, finding{start: start, end: end, rule: r})
}

// leadInMax bounds the lead-in gitleaks' rules put before their keyword:
// `[\w.-]{0,50}?`.
const leadInMax = 64

// lineAround returns the lines of text that [start, end) touches.
func lineAround(text string, start, end int) string {
	lo := strings.LastIndexByte(text[:start], '\n') + 1
	hi := strings.IndexByte(text[end:], '\n')
	if hi < 0 {
		return text[lo:]
	}
	return text[lo : end+hi]
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// entropy is the Shannon entropy of s in bits per character, counting
// characters over its length in bytes, as gitleaks does.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var ascii [128]int
	var other map[rune]int
	for _, c := range s {
		if c < 128 {
			ascii[c]++
			continue
		}
		if other == nil {
			other = map[rune]int{}
		}
		other[c]++
	}
	inv := 1 / float64(len(s))
	e := 0.0
	add := func(n int) {
		if n > 0 {
			f := float64(n) * inv
			e -= f * math.Log2(f)
		}
	}
	for _, n := range ascii {
		add(n)
	}
	for _, n := range other {
		add(n)
	}
	return e
}
