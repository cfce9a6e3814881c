// Package redact masks secrets in a loaded session before anything is
// rendered from it, so that no page, Markdown file, archive, server page
// or search index made from the session can show them.
//
// Secrets are found with gitleaks' default rule set (its keywords,
// regexes, entropy limits and allowlists) and this package's own rules
// (extra.go); each is replaced by a typed placeholder,
// [REDACTED:aws-access-token#2], the same value by the same placeholder
// everywhere in the session, so a reader can still follow the
// conversation. Sessions that show together (a session and its
// sub-agents' transcripts, its forks) are masked as one group, with one
// table of placeholders (group.go). Text is also searched as a terminal
// shows it, without its escape sequences (view.go); ids are masked like
// text, the same way wherever they are. The user's own words
// (Options.Literals, in any case of any script: fold.go), the home
// directory and the user's name can be masked too. A Report says what
// was masked and where.
//
// The package knows nothing of HTML or files: it rewrites the strings of
// a session.Session in place.
package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Options say what a Redactor masks.
type Options struct {
	// Secrets masks what the rules find: keys, tokens, passwords.
	Secrets bool
	// Literals are the user's own words (names, hosts, customer ids),
	// masked wherever they appear, in any case and any script.
	Literals []string
	// Home, when set, is the home directory, shown as ~; the home
	// directory in a session's working directory (when it was recorded
	// elsewhere) is too.
	Home string
	// Users are user names, shown as "user" wherever they stand as a word.
	// With Home set, the user of a session's working directory is added.
	// Names of system accounts (root, ubuntu, runner…) are left: they say
	// nothing of who the user is, and are common words.
	Users []string
	// NoImages drops images: each becomes the text [image removed].
	NoImages bool
}

// Redactor masks sessions. It is safe for concurrent use: an archive or a
// server uses one for every session.
type Redactor struct {
	opt    Options
	rules  []*rule
	global []*allowlist

	mu        sync.Mutex
	detectors map[string]*detector // by the names a session adds
}

// New returns a Redactor for opt.
func New(opt Options) (*Redactor, error) {
	r := &Redactor{opt: opt, detectors: map[string]*detector{}}
	if opt.Secrets {
		d, err := builtin()
		if err != nil {
			return nil, err
		}
		r.rules, r.global = d.rules, d.global
	}
	return r, nil
}

// detectorFor returns the detector for a session whose working directory
// adds home and user (both may be "").
func (r *Redactor) detectorFor(home, user string) *detector {
	key := home + "\x00" + user
	r.mu.Lock()
	defer r.mu.Unlock()
	if d := r.detectors[key]; d != nil {
		return d
	}
	rules := slices.Clone(r.rules)
	if lit := literalRule(r.opt.Literals); lit != nil {
		rules = append(rules, lit)
	}
	homes := []string{r.opt.Home}
	if home != "" {
		homes = append(homes, home)
	}
	if h := homeRule(homes); h != nil {
		rules = append(rules, h)
	}
	users := slices.Clone(r.opt.Users)
	if user != "" {
		users = append(users, user)
	}
	if u := userRule(users); u != nil {
		rules = append(rules, u)
	}
	d := newDetector(rules, r.global)
	r.detectors[key] = d
	return d
}

// parallel calls f(i) for every i below n on every core.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/64))
	var next atomic.Int64
	const chunk = 32
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(n, start+chunk); i++ {
					f(i)
				}
			}
		}()
	}
	wg.Wait()
}

// A piece is one string searched: a slot's own text, or one string of
// its JSON (token counts them).
type piece struct {
	token int
	text  string
	spans []finding
}

// scanSlot finds what is to be masked in one slot.
func scanSlot(d *detector, sl *slot, noImages bool) []piece {
	if !sl.isJSON {
		text := sl.v.String()
		if spans := scanText(d, text, noImages); len(spans) > 0 {
			return []piece{{text: text, spans: spans}}
		}
		return nil
	}
	var out []piece
	token := 0
	raw := sl.v.Bytes()
	opaque := opaqueStrings(raw)
	eachJSONString(raw, func(js jsonString, text string) {
		defer func() { token++ }()
		if opaque[js.start] {
			// A provider's blob: only the user's own words are masked.
			if d.literal == nil {
				return
			}
			if spans := literalsOnly(d.find(text)); len(spans) > 0 {
				out = append(out, piece{token: token, text: text, spans: spans})
			}
			return
		}
		spans := scanText(d, text, noImages)
		if js.key != "" && d.assign != nil && imageLen(text) == 0 {
			// "apiKey": "…" names its value as a secret, as KEY=value does.
			if n := nameStrength(js.key); n > 0 && acceptValue(text, true, false, n, js.key) {
				spans = append(spans, finding{start: 0, end: len(text), rule: d.assign})
			}
		}
		if len(spans) > 0 {
			out = append(out, piece{token: token, text: text, spans: spans})
		}
	})
	return out
}

// scanText finds what is to be masked in text: an image it starts with
// is not searched (and is dropped under noImages), the rest is.
func scanText(d *detector, text string, noImages bool) []finding {
	n := imageLen(text)
	var spans []finding
	if n > 0 && noImages {
		spans = append(spans, finding{start: 0, end: n, rule: imageRule})
	}
	if n == len(text) {
		return spans
	}
	for _, sp := range d.find(text[n:]) {
		sp.start += n
		sp.end += n
		spans = append(spans, sp)
	}
	if v := viewOf(text[n:]); v != nil {
		// As a terminal shows it: what escape sequences split is whole.
		for _, sp := range d.find(v.text) {
			sp.start, sp.end = v.raw(sp.start, sp.end)
			sp.start += n
			sp.end += n
			spans = append(spans, sp)
		}
	}
	return spans
}

// literalsOnly keeps the spans of the user's own words.
func literalsOnly(spans []finding) []finding {
	out := spans[:0]
	for _, sp := range spans {
		if sp.rule.id == literalID {
			out = append(out, sp)
		}
	}
	return out
}

// Text masks one string that is not part of a session, such as the path
// of a session file (pi names session folders after the working
// directory, which holds the user's name). Values are numbered within s
// alone.
func (r *Redactor) Text(s string) string {
	return maskString(r.detectorFor("", ""), s, false)
}

// maskString masks s as a group of its own: what d finds in it, and with
// everywhere every other occurrence of a value found.
func maskString(d *detector, s string, everywhere bool) string {
	best := map[string]*rule{}
	spans := merge(s, scanText(d, s, false), best)
	t := &table{place: map[string]string{}, counts: map[string]int{}}
	for _, sp := range spans {
		if sp.rule.fixed == "" {
			t.add(sp.value, best[sp.value])
		}
	}
	var search *finder
	if everywhere {
		search = t.finder()
	}
	var res slotResult
	out, _ := rewriteText(s, spans, t, search, 0, &res)
	return out
}

// Key names what the Redactor does, for the keys of caches and archives
// of what it masked: two Redactors with the same key mask sessions the
// same way. The user's words and names are in it only hashed.
func (r *Redactor) Key() string {
	h := sha256.New()
	fmt.Fprintf(h, "secrets=%v gitleaks=%s images=%v home=%q\n", r.opt.Secrets, gitleaksVersion, !r.opt.NoImages, r.opt.Home)
	for _, l := range r.opt.Literals {
		fmt.Fprintf(h, "literal=%q\n", l)
	}
	for _, u := range r.opt.Users {
		fmt.Fprintf(h, "user=%q\n", u)
	}
	return "redact-" + version + "-" + hex.EncodeToString(h.Sum(nil)[:12])
}

// version changes whenever what this package masks changes, so that what
// was masked with an older one is masked again.
const version = "4"
