package page

import (
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/piexport/piexport"
)

// TestScriptsKeepNoCopies: what the page's script must know of how this
// package writes a page comes in the index (scriptConfig, Filters), so
// that changing it here changes it there; no script keeps a copy of one
// of these values.
func TestScriptsKeepNoCopies(t *testing.T) {
	copies := map[string]*regexp.Regexp{
		"the entry id prefix":           regexp.MustCompile(`['"]` + regexp.QuoteMeta(entryIDPrefix)),
		"the rows to a block":           regexp.MustCompile(`\b` + fmt.Sprint(rowBlock) + `\b`),
		"the fold marks":                regexp.MustCompile(regexp.QuoteMeta("piexport:fold")),
		"a group's type":                regexp.MustCompile(regexp.QuoteMeta(groupScriptType)),
		"a tool card's markup":          regexp.MustCompile(regexp.QuoteMeta(toolCard)),
		"a tool output's markup":        regexp.MustCompile(regexp.QuoteMeta(toolOutput)),
		"the kinds the filters go by":   regexp.MustCompile(`['"](` + kindAssistantTools + `|` + kindContextEdit + `|` + kindSettings + `)['"]`),
		"the tree's row height, in px":  regexp.MustCompile(`\bROW = \d+`),
		"the tree's row height, in CSS": regexp.MustCompile(`\b22\b`),
	}
	for _, name := range pageScripts {
		src, err := fs.ReadFile(piexport.Assets(), name)
		if err != nil {
			t.Fatal(err)
		}
		for what, re := range copies {
			if loc := re.FindIndex(src); loc != nil {
				line := strings.Count(string(src[:loc[0]]), "\n") + 1
				t.Errorf("%s:%d keeps a copy of %s (%q): the index tells it", name, line, what, src[loc[0]:loc[1]])
			}
		}
	}
}

// TestFilterButtons: each of the tree's filter buttons is a filter the
// script knows: one of kindFilters, which the index describes, or one of
// the two that go by something else than the kind.
func TestFilterButtons(t *testing.T) {
	tmpl, err := fs.ReadFile(piexport.Templates(), "page.html")
	if err != nil {
		t.Fatal(err)
	}
	var buttons []string
	for _, m := range regexp.MustCompile(`data-filter="([^"]+)"`).FindAllStringSubmatch(string(tmpl), -1) {
		buttons = append(buttons, m[1])
	}
	for _, b := range buttons {
		if _, ok := kindFilters[b]; !ok && b != "labeled" && b != "all" {
			t.Errorf("the filter button %q is no filter the script knows", b)
		}
	}
	for name := range kindFilters {
		if !slices.Contains(buttons, name) {
			t.Errorf("the filter %q has no button", name)
		}
	}
	// The default filter is the one the page's list without JavaScript
	// uses, and the tree starts with.
	names := []string{kindUser, kindAssistantTools, kindSettings, kindTool}
	got := filterKinds(names)["default"]
	for k, kind := range names {
		if got[k] != shownByDefault(kind) {
			t.Errorf("the default filter shows %s: %v, shownByDefault says %v", kind, got[k], shownByDefault(kind))
		}
	}
}
