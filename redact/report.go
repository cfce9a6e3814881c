package redact

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/termsafe"
	"github.com/piexport/piexport/session"
)

// Report says what was masked in one session.
type Report struct {
	// File is the session's file name.
	File string
	// Findings lists every place a value was masked, in file order.
	Findings []Finding
	// Rules counts the values and places by rule, most values first.
	Rules []RuleCount
	// Home and Users count the places where the home directory and a
	// user name were replaced; Images the images dropped.
	Home, Users, Images int
	// Grown counts the bytes of the strings that were written anew, which
	// the session now holds besides (until the old ones are collected)
	// what it held.
	Grown int64
}

// Finding is one place where a value was masked.
type Finding struct {
	// Rule is the id of the rule that found the value: a gitleaks rule
	// id, one of this package's (secret-assignment…), or "literal".
	Rule string
	// Placeholder is what replaced it: [REDACTED:aws-access-token#2].
	Placeholder string
	// EntryID is the entry it was in; "" for the session header. An entry
	// masked in several fields (its text and its raw JSON) counts once.
	EntryID string
	// Line is the line of the file the entry was read from.
	Line int
	// Preview shows the value masked: its kind's prefix and its last
	// four characters (sk-ant-…Q4xA), or only its length when short.
	Preview string
}

// RuleCount is how much one rule found.
type RuleCount struct {
	Rule string
	// Values counts the distinct values, Places where they were masked.
	Values, Places int
}

// count counts the values and places of each rule from the findings: a
// value counts where it was masked, and nowhere else.
func (r *Report) count() {
	byRule := map[string]*RuleCount{}
	values := map[string]bool{}
	for _, f := range r.Findings {
		c := byRule[f.Rule]
		if c == nil {
			c = &RuleCount{Rule: f.Rule}
			byRule[f.Rule] = c
		}
		c.Places++
		if !values[f.Placeholder] {
			values[f.Placeholder] = true
			c.Values++
		}
	}
	for _, c := range byRule {
		r.Rules = append(r.Rules, *c)
	}
	slices.SortFunc(r.Rules, func(a, b RuleCount) int {
		return cmp.Or(cmp.Compare(b.Values, a.Values), cmp.Compare(a.Rule, b.Rule))
	})
}

// Values counts the distinct values masked.
func (r *Report) Values() int {
	n := 0
	for _, c := range r.Rules {
		n += c.Values
	}
	return n
}

// WriteText writes the report for people: a line per place (unless
// countsOnly), then the counts by rule. It goes to a terminal: the file's
// name, entry ids and previews come from outside and are escaped (see
// termsafe).
func (r *Report) WriteText(w io.Writer, countsOnly bool) error {
	bw := bufio.NewWriter(w)
	file := termsafe.Escape(r.File)
	if !countsOnly {
		for _, f := range r.Findings {
			where := fmt.Sprintf("%s:%d", file, f.Line)
			entry := f.EntryID
			if entry == "" {
				entry = "header"
			}
			fmt.Fprintf(bw, "%s\tentry %s\t%s\t%s\n", where, termsafe.Escape(entry), f.Placeholder, termsafe.Escape(f.Preview))
		}
	}
	fmt.Fprintf(bw, "%s: %s\n", file, r.Summary())
	for _, c := range r.Rules {
		fmt.Fprintf(bw, "  %-40s %s in %s\n", c.Rule, padCount(c.Values, "value", "values"), humanize.Count(c.Places, "place", "places"))
	}
	if r.Home > 0 {
		fmt.Fprintf(bw, "  %-40s %s\n", "home directory shown as ~", padCount(r.Home, "place", "places"))
	}
	if r.Users > 0 {
		fmt.Fprintf(bw, "  %-40s %s\n", "user name shown as user", padCount(r.Users, "place", "places"))
	}
	if r.Images > 0 {
		fmt.Fprintf(bw, "  %-40s %3d\n", "images dropped", r.Images)
	}
	return bw.Flush()
}

// Summary says in one line what was masked: "3 values masked in 5
// places" or "no secrets found".
func (r *Report) Summary() string { return summary(r.Values(), len(r.Findings)) }

// Summarize says of a session masked what its Report would: the values
// masked, the places, and the line Summary writes. A session not masked
// has none.
func Summarize(s *session.Session) (values, places int, line string) {
	if s.Redaction != nil {
		for _, n := range s.Redaction.Values {
			values += n
		}
		places = s.Redaction.Places
	}
	return values, places, summary(values, places)
}

func summary(values, places int) string {
	if values == 0 {
		return "no secrets found"
	}
	return humanize.Count(values, "value", "values") + " masked in " + humanize.Count(places, "place", "places")
}

// padCount is humanize.Count with the figure right-aligned in three
// columns, as the report's table sets it.
func padCount(n int, one, many string) string {
	s := humanize.Count(n, one, many)
	if w := len(strconv.Itoa(n)); w < 3 {
		s = strings.Repeat(" ", 3-w) + s
	}
	return s
}

// Masked says whether s holds a placeholder: a value was masked in it.
func Masked(s string) bool { return strings.Contains(s, "[REDACTED:") }

// Preview shows a secret without giving it away: the prefix that says
// its kind (sk-ant-, ghp_, AKIA, xoxb-) and its last four characters, for
// a value long enough that these are a small part of it; only its length
// otherwise.
func Preview(value string) string {
	n := utf8.RuneCountInString(value)
	if strings.HasPrefix(value, "-----BEGIN") {
		if end := strings.Index(value[10:], "-----"); end >= 0 {
			return value[:10+end+5] + "… (" + humanize.Count(n, "character", "characters") + ")"
		}
	}
	if n < 20 || strings.ContainsAny(value, "\n") {
		return "(" + humanize.Count(n, "character", "characters") + ")"
	}
	prefix := ""
	head := value[:min(len(value), 12)]
	if i := strings.LastIndexAny(head, "-_"); i >= 2 {
		prefix = head[:i+1]
	} else if isUpperWord(value[:4]) {
		prefix = value[:4] // AKIA…, ASIA…
	}
	tail := []rune(value)
	return prefix + "…" + string(tail[len(tail)-4:])
}

func isUpperWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
