// Package redact masks secrets in a loaded session before anything is
// rendered from it, so that no page, Markdown file, archive, server page
// or search index made from the session can show them.
//
// Secrets are found with gitleaks' default rule set (its keywords,
// regexes, entropy limits and allowlists) and this package's own rules
// (extra.go); each is replaced by a typed placeholder,
// [REDACTED:aws-access-token#2], the same value by the same placeholder
// everywhere in the session, so a reader can still follow the
// conversation. The user's own words (Options.Literals), the home
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

	"github.com/piexport/piexport/session"
)

// Options say what a Redactor masks.
type Options struct {
	// Secrets masks what the rules find: keys, tokens, passwords.
	Secrets bool
	// Literals are the user's own words (names, hosts, customer ids),
	// masked wherever they appear, in any ASCII case.
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

// Session masks s in place and reports what it masked. It marks s as
// redacted (s.Redaction) even when nothing was found.
func (r *Redactor) Session(s *session.Session) *Report {
	if s.Lean() {
		// Its text is in the file: masking the entries would mask nothing.
		panic("redact: a session loaded lean cannot be masked")
	}
	home, user := "", ""
	if r.opt.Home != "" && s.Header != nil {
		home, user = homeOf(s.Header.Cwd)
		if home == r.opt.Home {
			home = ""
		}
	}
	d := r.detectorFor(home, user)
	slots, images := collect(s, r.opt.NoImages)

	// Search every string, on every core.
	found := make([][]piece, len(slots))
	parallel(len(slots), func(i int) {
		found[i] = scanSlot(d, &slots[i], r.opt.NoImages)
	})

	// Number the values in file order, so that a session gives the same
	// placeholders every time.
	t := newTable()
	for i := range found {
		for k := range found[i] {
			found[i][k].spans = t.merge(found[i][k].text, found[i][k].spans)
		}
	}
	for i := range found {
		for _, p := range found[i] {
			for _, sp := range p.spans {
				if sp.rule.fixed == "" {
					t.add(p.text[sp.start:sp.end])
				}
			}
		}
	}

	// Replace, on every core: each value wherever it appears, not only
	// where a rule found it.
	search := t.finder()
	results := make([]slotResult, len(slots))
	parallel(len(slots), func(i int) {
		if search == nil && len(found[i]) == 0 {
			return
		}
		results[i] = rewriteSlot(&slots[i], found[i], t, search)
	})

	rep := &Report{File: s.File, Images: images}
	type place struct {
		entry       *session.Entry
		placeholder string
	}
	seen := map[place]bool{} // an entry's text and its raw JSON are one place
	for i, res := range results {
		for _, f := range res.findings {
			p := place{slots[i].entry, f.Placeholder}
			if slots[i].derived || seen[p] {
				continue
			}
			seen[p] = true
			if e := slots[i].entry; e != nil {
				f.EntryID = e.ID
			}
			f.Line = slots[i].line
			rep.Findings = append(rep.Findings, f)
		}
		rep.Home += res.home
		rep.Users += res.users
		rep.Images += res.images
		rep.Grown += int64(res.grown)
	}
	rep.count(t)
	s.Redaction = &session.Redaction{Secrets: r.opt.Secrets, Values: map[string]int{}, Places: len(rep.Findings),
		Home: r.opt.Home != "" || len(r.opt.Users) > 0, Images: rep.Images}
	for _, c := range rep.Rules {
		s.Redaction.Values[c.Rule] = c.Values
	}
	return rep
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
				spans = append(spans, finding{0, len(text), d.assign})
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
		spans = append(spans, finding{0, n, imageRule})
	}
	if n == len(text) {
		return spans
	}
	for _, sp := range d.find(text[n:]) {
		sp.start += n
		sp.end += n
		spans = append(spans, sp)
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
	d := r.detectorFor("", "")
	t := newTable()
	spans := t.merge(s, d.find(s))
	for _, sp := range spans {
		if sp.rule.fixed == "" {
			t.add(s[sp.start:sp.end])
		}
	}
	var res slotResult
	out, _ := rewriteText(s, spans, t, nil, 0, &res)
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
const version = "3"
