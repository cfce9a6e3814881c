package redact

import (
	_ "embed"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// gitleaksVersion names the gitleaks release whose default rule set,
// config/gitleaks.toml (MIT, see gitleaks.LICENSE), is copied here
// unchanged. To update it, copy that file from the module of a newer
// release and change this constant.
const gitleaksVersion = "v8.30.1"

//go:embed gitleaks.toml
var gitleaksTOML []byte

// tomlConfig is the part of a gitleaks configuration this package reads.
type tomlConfig struct {
	Allowlist  *tomlAllowlist   `toml:"allowlist"`
	Allowlists []*tomlAllowlist `toml:"allowlists"`
	Rules      []struct {
		ID          string           `toml:"id"`
		Regex       string           `toml:"regex"`
		Path        string           `toml:"path"`
		SecretGroup int              `toml:"secretGroup"`
		Entropy     float64          `toml:"entropy"`
		Keywords    []string         `toml:"keywords"`
		Allowlist   *tomlAllowlist   `toml:"allowlist"`
		Allowlists  []*tomlAllowlist `toml:"allowlists"`
	} `toml:"rules"`
}

type tomlAllowlist struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

// A rule finds one kind of secret. Most come from gitleaks' rule set; the
// rest are this package's own (see extra.go), which decide in Go.
type rule struct {
	id       string
	keywords []string // lower case; a match holds one of them
	// expr is the rule's regular expression as the rule set writes it
	// (widened, see widenEdges); "" for rules without one. Its compiled
	// form is kept in re only for rules that run it on windows; the others
	// compile it when they need it (whole), rarely: compiled regexes are
	// most of the rule set's memory, and memory the page's renderer then
	// lacks costs it garbage collections.
	expr   string
	re     *regexp.Regexp
	reOnce sync.Once
	// at, when set, is re without its optional lead-in (such as
	// `[\w.-]{0,50}?`, which only widens the match), anchored at the
	// start: every match of re starts, after the lead-in, with a literal,
	// so at need only be tried where one is. For most rules the literals
	// are the keywords themselves; otherwise anchors finds them, near a
	// keyword (at most anchorLen before it). wordStart says the regex
	// began with \b. gate, when set, rules out most places cheaply
	// before at is tried: Go's regexp takes microseconds per try.
	at        *regexp.Regexp
	wordStart bool
	// leadIn says at dropped a lead-in from a regex without capture
	// groups, whose secret is the whole match: accept finds where the
	// whole match starts.
	leadIn    bool
	anchors   *automaton
	anchorLen int
	gate      *gate
	// maxLen bounds a match's length in bytes; -1 when unbounded.
	maxLen int
	// group is the capture group holding the secret; 0: the first
	// non-empty one, or the whole match when there is none.
	group   int
	entropy float64
	allow   []*allowlist
	// find, for this package's own rules, replaces the regex: it returns
	// the secret spans [start, end) it accepts in text, given that a
	// keyword ends at each of hits.
	find func(text string, hits []int) [][2]int
	// rank orders rules from specific to generic: when several find the
	// same value, the report and the placeholder name the lowest rank.
	rank int
	// kind says what the rule finds: a value to mask with a numbered
	// placeholder, or the home directory, a user name or an image, each
	// replaced by fixed text.
	kind kind
	// fixed is that text.
	fixed string
	// folded are the user's own words, folded (see fold.go), for the
	// rule of those; keywords then hold those that fold to ASCII.
	folded []string
}

// kind is what a rule finds.
type kind uint8

const (
	kindValue kind = iota
	kindHome
	kindUser
	kindImage
)

// allowlist is a gitleaks allowlist: a finding it matches is not a secret.
type allowlist struct {
	and       bool   // condition AND: every check must hold
	target    string // "secret" (default), "match" or "line"
	regexes   []*regexp.Regexp
	stopWords []string // lower case
	// impossible is set for an AND list that also needs a path or a
	// commit: text in a session has neither, so it never applies.
	impossible bool
}

// allows says whether the list lets a finding go.
func (a *allowlist) allows(secret, match, line string) bool {
	if a.impossible {
		return false
	}
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	regexOK := false
	for _, re := range a.regexes {
		if re.MatchString(target) {
			regexOK = true
			break
		}
	}
	stopOK := false
	if len(a.stopWords) > 0 {
		lower := strings.ToLower(secret)
		stopOK = slices.ContainsFunc(a.stopWords, func(w string) bool { return strings.Contains(lower, w) })
	}
	if a.and {
		return (len(a.regexes) == 0 || regexOK) && (len(a.stopWords) == 0 || stopOK)
	}
	return regexOK || stopOK
}

// Ranks: specific rules first, the generic ones last.
const (
	rankSpecific = iota
	rankShaped   // this package's rules for a recognisable shape
	rankNamed    // a value named as secret by its key
	rankGeneric  // gitleaks' generic-api-key
	rankLiteral  // the user's own words
)

// loadGitleaks reads gitleaks' rule set: its rules and its global
// allowlist. Rules that need a file path (they look at file names, or only
// inside certain files) are left out: a session's text has no path.
func loadGitleaks() ([]*rule, []*allowlist, error) {
	var cfg tomlConfig
	if err := toml.Unmarshal(gitleaksTOML, &cfg); err != nil {
		return nil, nil, fmt.Errorf("gitleaks rules: %w", err)
	}
	var global []*allowlist
	for _, t := range append([]*tomlAllowlist{cfg.Allowlist}, cfg.Allowlists...) {
		if t == nil {
			continue
		}
		a, err := compileAllowlist(t)
		if err != nil {
			return nil, nil, fmt.Errorf("gitleaks global allowlist: %w", err)
		}
		if a != nil {
			global = append(global, a)
		}
	}
	var rules []*rule
	for _, tr := range cfg.Rules {
		if tr.Path != "" || tr.Regex == "" {
			continue
		}
		generic := strings.Contains(tr.ID, "generic")
		r, err := compileRule(tr.ID, tr.Regex, tr.Keywords, !generic)
		if err != nil {
			return nil, nil, fmt.Errorf("gitleaks rule %s: %w", tr.ID, err)
		}
		r.group, r.entropy = tr.SecretGroup, tr.Entropy
		r.rank = rankSpecific
		if generic {
			r.rank = rankGeneric
		}
		for _, t := range append([]*tomlAllowlist{tr.Allowlist}, tr.Allowlists...) {
			if t == nil {
				continue
			}
			a, err := compileAllowlist(t)
			if err != nil {
				return nil, nil, fmt.Errorf("gitleaks rule %s: %w", tr.ID, err)
			}
			if a != nil {
				r.allow = append(r.allow, a)
			}
		}
		rules = append(rules, r)
	}
	return rules, global, nil
}

// compileAllowlist compiles t. Paths and commits never match text in a
// session: an OR list keeps only its regexes and stop words, an AND list
// that needs them never applies.
func compileAllowlist(t *tomlAllowlist) (*allowlist, error) {
	a := &allowlist{and: strings.EqualFold(t.Condition, "AND"), target: t.RegexTarget}
	if a.and && (len(t.Paths) > 0 || len(t.Commits) > 0) {
		a.impossible = true
	}
	for _, s := range t.Regexes {
		if a.target == "" || a.target == "secret" {
			// gitleaks matches these anywhere in the secret; here they
			// match from its start. Unanchored, vault's s\.[A-Za-z]{24}
			// lets an hvs. token through whenever 24 letters follow its
			// "s.", and the global (?i)^true|false|null$ any secret with
			// "false" in it.
			s = "^(?:" + s + ")"
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, err
		}
		a.regexes = append(a.regexes, re)
	}
	for _, w := range t.StopWords {
		a.stopWords = append(a.stopWords, strings.ToLower(w))
	}
	if len(a.regexes) == 0 && len(a.stopWords) == 0 && !a.impossible {
		return nil, nil // a list of paths only
	}
	return a, nil
}

// compileRule compiles a rule's regex and works out where it needs to be
// tried (see rule.at and rule.anchors).
func compileRule(id, expr string, keywords []string, widen bool) (*rule, error) {
	r := &rule{id: id}
	for _, k := range keywords {
		r.keywords = append(r.keywords, strings.ToLower(k))
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	if widen {
		// Not generic-api-key: in prose, "keys: alpha/beta," would be one.
		widenEdges(tree)
	}
	r.expr = tree.String()
	re, err := regexp.Compile(r.expr)
	if err != nil {
		return nil, err
	}
	r.maxLen = maxLength(tree)
	rest, wordStart, ok := dropLeadIn(tree)
	if !ok {
		r.re = re
		return r, nil
	}
	prefixes, ok := literalPrefixes(rest, 64)
	if !ok || len(prefixes) == 0 || slices.Contains(prefixes, "") {
		r.re = re
		return r, nil
	}
	anchored := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{{Op: syntax.OpBeginText}, rest}}
	at, err := regexp.Compile(anchored.String())
	if err != nil {
		return nil, fmt.Errorf("anchored form: %w", err)
	}
	if at.NumSubexp() != re.NumSubexp() {
		return nil, fmt.Errorf("anchored form lost a capture group")
	}
	r.at, r.wordStart = at, wordStart
	r.leadIn = rest != tree && re.NumSubexp() == 0
	r.gate = newGate(rest)
	if !startsWithKeyword(prefixes, r.keywords) {
		r.anchors = newAutomaton(uniqueLower(prefixes))
		r.anchorLen = maxLength(rest)
	}
	return r, nil
}

// whole returns the rule's regex, compiled the first time it is needed.
func (r *rule) whole() *regexp.Regexp {
	r.reOnce.Do(func() {
		if r.re == nil {
			r.re = regexp.MustCompile(r.expr) // it compiled when the rule was read
		}
	})
	return r.re
}

func uniqueLower(words []string) []string {
	var out []string
	for _, w := range words {
		w = strings.ToLower(w)
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
