package session

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Redaction says what was masked in a session's text.
type Redaction struct {
	// Secrets says secrets were looked for (not only images dropped).
	Secrets bool
	// Values counts the distinct values masked, by the id of the rule
	// that found them: "aws-access-token": 2.
	Values map[string]int
	// Places counts the places where they were masked.
	Places int
	// Home says the home directory is shown as ~ and the user's name as
	// "user".
	Home bool
	// Images counts the images dropped.
	Images int
}

// Summary says in one line what was masked, for the head of a page:
// "3 values masked: 2 aws-access-token, 1 github-pat; the home directory
// shown as ~, the user name as user".
func (r *Redaction) Summary() string {
	total := 0
	var counts []ruleCount
	for rule, n := range r.Values {
		total += n
		counts = append(counts, ruleCount{rule, n})
	}
	slices.SortFunc(counts, func(a, b ruleCount) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.rule, b.rule)) })
	var parts []string
	switch {
	case total == 0 && r.Secrets:
		parts = append(parts, "no secrets found")
	case total > 0:
		// The rules with most values; a line, not a wall, when a
		// session holds many kinds (the report lists them all).
		const shown = 5
		var rules []string
		for i, c := range counts {
			if i == shown && len(counts) > shown+1 {
				rules = append(rules, fmt.Sprintf("%d more by %s", total-sum(counts[:shown]), Count(len(counts)-shown, "other rule", "other rules")))
				break
			}
			rules = append(rules, fmt.Sprintf("%d %s", c.n, c.rule))
		}
		parts = append(parts, Count(total, "value", "values")+" masked: "+strings.Join(rules, ", "))
	}
	if r.Home {
		parts = append(parts, "the home directory shown as ~, the user name as user")
	}
	if r.Images > 0 {
		parts = append(parts, Count(r.Images, "image", "images")+" left out")
	}
	return strings.Join(parts, "; ")
}

type ruleCount struct {
	rule string
	n    int
}

func sum(counts []ruleCount) int {
	n := 0
	for _, c := range counts {
		n += c.n
	}
	return n
}
