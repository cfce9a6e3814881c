package archive

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/usage"
)

// TestUsageReport: an archive's index carries the usage report, with the
// figures the catalog (and so `piexport --usage`) gives for the same
// files, and a build that reads nothing again (the manifest keeps each
// session's usage) writes the same index.
func TestUsageReport(t *testing.T) {
	src := t.TempDir()
	out := filepath.Join(t.TempDir(), "archive")
	files := sources(t, src, "pi-v3-civ6.jsonl", "pi-v3-earth0-a.jsonl", "pi-v3-earth0-b.jsonl",
		"pi15-sdk-usage-contextedit-main.jsonl", "pi-v3-sdk-branches-labels.jsonl")
	res, err := Build(context.Background(), out, files, Options{Generator: "piexport test"})
	must(t, err)
	if len(res.Rendered) != 5 {
		t.Fatalf("result %+v", res)
	}
	index, err := os.ReadFile(res.Index)
	must(t, err)

	c, err := catalog.New(context.Background(), files, catalog.Options{})
	must(t, err)
	defer c.Close()
	records, err := c.Usage(context.Background(), "")
	must(t, err)
	total := usage.NewReport(records, usage.ByMonth).Total
	want := `<span class="insights-sum">` + humanize.Cost(total.Cost) + " · " + humanize.Tokens(total.Tokens()) + " tokens · "
	for _, w := range []string{`<details class="insights usage-report" id="usage">`, want, "Cost per project", "Cost per model"} {
		if !strings.Contains(string(index), w) {
			t.Errorf("the index lacks %s", w)
		}
	}

	res, err = Build(context.Background(), out, files, Options{Generator: "piexport test"})
	must(t, err)
	if len(res.Rendered) != 0 || res.Unchanged != 5 {
		t.Errorf("second build: %+v", res)
	}
	again, err := os.ReadFile(res.Index)
	must(t, err)
	if string(again) != string(index) {
		t.Error("a build that read nothing again wrote another index")
	}
}
