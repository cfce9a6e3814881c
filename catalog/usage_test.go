package catalog

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// piStats is what pi 1.5.2 itself says of a file's work
// (testdata/reference/pi-1.5, made by its dump.mjs: getSessionStats and
// getUsageCostBreakdown).
type piStats struct {
	Stats *struct {
		Tokens struct {
			Input, Output, CacheRead, CacheWrite, Total int64
		}
		Cost float64
	}
	Breakdown []struct {
		Key    string
		Tokens int64
		Cost   float64
	}
}

// TestUsageAgreesWithPi builds the usage report over every corpus file
// pi 1.5 can total, each way it groups, and checks its totals against the
// sum of pi's own /session figures over the same files: the tokens
// exactly, the cost to the micro-dollar pi's figures are rounded to (and
// so to the cent as shown), and per model its cost breakdown.
//
// Files with a line of several objects run together are left out here:
// pi drops such a line whole, piexport keeps the entries it holds and
// counts their work (TestUsageAgreesWithStats covers them).
func TestUsageAgreesWithPi(t *testing.T) {
	refs, err := filepath.Glob("../testdata/reference/pi-1.5/*.json")
	if err != nil || len(refs) == 0 {
		t.Fatal("no reference files", err)
	}
	var files []string
	var want usage.Group
	wantModel := map[string]usage.Group{}
	for _, ref := range refs {
		b, err := os.ReadFile(ref)
		if err != nil {
			t.Fatal(err)
		}
		var ps piStats
		if err := json.Unmarshal(b, &ps); err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		file := filepath.Join(corpus, strings.TrimSuffix(filepath.Base(ref), ".json")+".jsonl")
		if ps.Stats == nil || !everyLineOneValue(t, file) {
			continue // pi itself cannot total it, or drops lines piexport reads
		}
		files = append(files, file)
		tk := ps.Stats.Tokens
		want.Input += tk.Input
		want.Output += tk.Output
		want.CacheRead += tk.CacheRead
		want.CacheWrite += tk.CacheWrite
		want.Cost += ps.Stats.Cost
		if tk.Input+tk.Output+tk.CacheRead+tk.CacheWrite != tk.Total {
			t.Fatalf("%s: pi's tokens do not add up", ref)
		}
		for _, m := range ps.Breakdown {
			g := wantModel[m.Key]
			g.Input += m.Tokens // the breakdown sums tokens only
			g.Cost += m.Cost
			wantModel[m.Key] = g
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d files with pi's figures", len(files))
	}
	c, err := New(context.Background(), files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	records, err := c.Usage(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range usage.Groupings {
		rep := usage.NewReport(records, by)
		got := rep.Total
		if got.Input != want.Input || got.Output != want.Output || got.CacheRead != want.CacheRead || got.CacheWrite != want.CacheWrite {
			t.Errorf("by %s: tokens %+v, pi says %+v", by, got.Usage, want.Usage)
		}
		if math.Abs(got.Cost-want.Cost) > 1e-6*float64(len(files)) || humanize.Cost(got.Cost) != humanize.Cost(want.Cost) {
			t.Errorf("by %s: cost %v, pi says %v", by, got.Cost, want.Cost)
		}
		// The groups add up to the total.
		var sum usage.Group
		for _, g := range rep.Groups {
			sum.Usage.Add(g.Usage)
			sum.Messages += g.Messages
		}
		if sum.Tokens() != got.Tokens() || math.Abs(sum.Cost-got.Cost) > 1e-9 || sum.Messages != got.Messages {
			t.Errorf("by %s: the groups sum to %+v, the total is %+v", by, sum, got)
		}
	}
	// pi's breakdown leaves out a model whose turns recorded no work
	// (aborted ones); the report lists it, with its messages.
	models := usage.NewReport(records, usage.ByModel)
	worked := 0
	for _, g := range models.Groups {
		if g.Tokens() == 0 && g.Cost == 0 {
			continue
		}
		worked++
		w, ok := wantModel[g.Key]
		if !ok {
			t.Errorf("model %q is in no breakdown of pi's", g.Key)
			continue
		}
		if g.Tokens() != w.Input || math.Abs(g.Cost-w.Cost) > 1e-6*float64(len(files)) {
			t.Errorf("model %s: %d tokens, %v; pi says %d, %v", g.Key, g.Tokens(), g.Cost, w.Input, w.Cost)
		}
	}
	if worked != len(wantModel) {
		t.Errorf("%d models with work, pi's breakdowns name %d", worked, len(wantModel))
	}
	if n := usage.NewReport(records, usage.ByDay).Total.Sessions; n == 0 || n > len(files) {
		t.Errorf("%d sessions with work, of %d files", n, len(files))
	}
}

// everyLineOneValue says whether every line of file that is not blank
// is one JSON value, as pi reads it.
func everyLineOneValue(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) != "" && !json.Valid([]byte(line)) {
			return false
		}
	}
	return true
}

// TestUsageAgreesWithStats checks the report over every corpus file
// against the sum of session.Stats, which the pages and the index show:
// the same tokens, the same cost to a billionth of a dollar.
func TestUsageAgreesWithStats(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "*.jsonl"))
	if err != nil || len(files) < 25 {
		t.Fatal("corpus missing", err)
	}
	// The files named bring their sub-agents' transcripts.
	found, err := Find(files)
	if err != nil || len(found) <= len(files) {
		t.Fatalf("Find found %d files of %d named: %v", len(found), len(files), err)
	}
	var want session.Usage
	for _, f := range found {
		s, err := session.Load(f)
		if err != nil {
			continue // the catalog lists it as failed, with no usage
		}
		want.Add(s.Stats().Usage)
	}
	c, err := New(context.Background(), files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	records, err := c.Usage(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	got := usage.NewReport(records, usage.ByMonth).Total.Usage
	if got.Tokens() != want.Tokens() || got.Input != want.Input || got.CacheRead != want.CacheRead || math.Abs(got.Cost-want.Cost) > 1e-9 {
		t.Errorf("the report sums %+v, the sessions' Stats %+v", got, want)
	}
}

// TestUsageSince keeps the days from --since on, and only the catalog's
// own files.
func TestUsageSince(t *testing.T) {
	file := filepath.Join(corpus, "pi-v3-civ6.jsonl")
	c, err := New(context.Background(), []string{file}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	all, err := c.Usage(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no usage")
	}
	day := all[0].Day
	if later, _ := c.Usage(context.Background(), day+"x"); len(later) != 0 {
		t.Errorf("records after the session's last day: %+v", later)
	}
	if same, _ := c.Usage(context.Background(), day); len(same) != len(all) {
		t.Errorf("since its first day: %d records, want %d", len(same), len(all))
	}
	if all[0].Session != c.List()[0].ID {
		t.Errorf("a record of session %q, the catalog's id is %q", all[0].Session, c.List()[0].ID)
	}
}
