package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/progressline"
	"github.com/piexport/piexport/session"
)

// TestUsageReport prints the report of a few sessions each way it
// groups, as text and as JSON, and checks both against the sessions' own
// totals: the tokens exactly, the cost to the cent as printed. A second
// run reads nothing again (the catalog's cache) and prints the same.
func TestUsageReport(t *testing.T) {
	files := []string{
		corpus + "pi-v3-civ6.jsonl", corpus + "pi-v3-earth0-a.jsonl", corpus + "pi-v3-earth0-b.jsonl",
		corpus + "pi15-sdk-usage-contextedit-main.jsonl", corpus + "omp-v3-akasha-researcher-b.jsonl",
	}
	var want session.Usage
	for _, f := range files {
		s, err := session.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		want.Add(s.Stats().Usage)
	}
	cache := t.TempDir()
	for _, by := range []string{"day", "week", "month", "project", "model"} {
		t.Run(by, func(t *testing.T) {
			args := append([]string{"--usage", "--by", by, "--cache-dir", cache, "-q"}, files...)
			out, errOut, code := runCLI(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			total := strings.Fields(lines[len(lines)-1])
			if total[0] != "Total" || total[1] != "5" || total[len(total)-2] != progressline.Count(want.Tokens()) || total[len(total)-1] != humanize.Cost(want.Cost) {
				t.Errorf("total line %q, want 5 sessions, %s tokens, %s", lines[len(lines)-1], progressline.Count(want.Tokens()), humanize.Cost(want.Cost))
			}
			if !strings.HasPrefix(lines[0], "Usage by "+by) {
				t.Errorf("heading %q", lines[0])
			}

			jsonOut, _, code := runCLI(t, append(args, "--json")...)
			if code != 0 {
				t.Fatalf("--json: exit %d", code)
			}
			var rep usageJSON
			if err := json.Unmarshal([]byte(jsonOut), &rep); err != nil {
				t.Fatal(err)
			}
			var sum groupJSON
			for _, g := range rep.Groups {
				sum.Tokens += g.Tokens
				sum.Cost += g.Cost
			}
			if rep.Total.Tokens != want.Tokens() || math.Abs(rep.Total.Cost-want.Cost) > 1e-6 || sum.Tokens != want.Tokens() || math.Abs(sum.Cost-want.Cost) > 1e-5 {
				t.Errorf("JSON total %+v, groups sum to %+v; the sessions say %d tokens, %v", rep.Total, sum, want.Tokens(), want.Cost)
			}
			if rep.By != by || len(rep.Groups) == 0 {
				t.Errorf("JSON by %q with %d groups", rep.By, len(rep.Groups))
			}
			if by == "project" && !strings.Contains(out, "~/Documents/Code/civ6.ch") && !strings.Contains(out, "civ6.ch") {
				t.Errorf("no project civ6.ch in\n%s", out)
			}
		})
	}
}

func TestUsageSinceAndErrors(t *testing.T) {
	file := corpus + "pi-v3-civ6.jsonl" // June 8, 2026
	out, _, code := runCLI(t, "--usage", "--since", "2026-06-09", "--no-cache", file)
	if code != 0 || !strings.Contains(out, "since 2026-06-09") || !strings.Contains(out, "no model work recorded") {
		t.Errorf("a day after the session: exit %d, %q", code, out)
	}
	out, _, code = runCLI(t, "--usage", "--since", "2026-06", "--by", "day", "--no-cache", file)
	if code != 0 || !strings.Contains(out, "\n2026-06-08 ") {
		t.Errorf("since its month: exit %d, %q", code, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--usage", "--by", "year", file}, "--by must be"},
		{[]string{"--usage", "--since", "last week", file}, "--since"},
		{[]string{"--json", file}, "--json goes with --usage"},
		{[]string{"--by", "day", file}, "--by goes with --usage"},
		{[]string{"--usage", "-o", filepath.Join(t.TempDir(), "x"), file}, "--usage prints a report"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestUsageRedact: under --redact the projects' and the models' names
// are masked as the pages mask them (issue 21, item 6: the models'
// were not), in the table and in the JSON.
func TestUsageRedact(t *testing.T) {
	out, _, code := runCLI(t, "--usage", "--by", "project", "--redact-literal", "civ6", "--no-cache", "-q", corpus+"pi-v3-civ6.jsonl")
	if code != 0 || strings.Contains(out, "civ6") || !strings.Contains(out, "[REDACTED:literal#1]") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{{"--by", "model"}, {"--by", "model", "--json"}} {
		args = append([]string{"--usage", "--redact-literal", "Sonnet", "--no-cache", "-q"}, append(args, corpus+"pi-v3-civ6.jsonl")...)
		out, _, code := runCLI(t, args...)
		if code != 0 || strings.Contains(strings.ToLower(out), "sonnet") || !strings.Contains(out, "[REDACTED:literal#1]") {
			t.Errorf("%q: exit %d:\n%s", args, code, out)
		}
	}
}

// TestUsageUnknownModel: a message that names no provider and no model
// is counted under "(unknown model)", not "/".
func TestUsageUnknownModel(t *testing.T) {
	out, _, code := runCLI(t, "--usage", "--by", "model", "--no-cache", "-q", corpus+"pi-v3-kimchi-smoke-fixture.jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "\n(unknown model) ") || strings.Contains(out, "\n/ ") {
		t.Errorf("the unnamed model is not said so:\n%s", out)
	}
}

// TestSubAgentsCountedApart: the index of an archive and --usage count
// the sessions of a history the same way, sub-agents' transcripts apart
// from the sessions they work for.
func TestSubAgentsCountedApart(t *testing.T) {
	src := t.TempDir()
	for _, name := range []string{"omp18-task-subagents.jsonl", "omp18-task-subagents/Lexer.jsonl",
		"omp18-task-subagents/Lexer/Tokens.jsonl", "omp18-task-subagents/Parser.jsonl"} {
		b, err := os.ReadFile(corpus + name)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const want = "1 session and 3 sub-agents"
	out, errOut, code := runCLI(t, "--usage", "--no-cache", "-q", src)
	if code != 0 || !strings.Contains(out, " of "+want+": ") || !strings.Contains(out, "Sub-agents") {
		t.Errorf("--usage: exit %d, %s\n%s", code, errOut, out)
	}
	site := filepath.Join(t.TempDir(), "site")
	if _, errOut, code := runCLI(t, "--no-cache", "-q", "-o", site, src); code != 0 {
		t.Fatalf("archive: exit %d, %s", code, errOut)
	}
	index, _ := os.ReadFile(filepath.Join(site, "index.html"))
	if !strings.Contains(string(index), `<p class="index-summary">`+want+" in 1 project · ") {
		t.Errorf("the index does not say %q", want)
	}
}

// The server, its index, --usage and an archive count the same files the
// same way: so many sessions and so many sub-agents, and apart from them
// the files that could not be read; --usage says how many did no model
// work, so that its table's count adds up to theirs.
func TestOneCountSaidOneWay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	copyOMPFamily(t, dir) // 2 sessions (one of them pi's), 3 sub-agents
	copyCorpus(t, "pi15-header-only.jsonl", filepath.Join(dir, "pi15-header-only.jsonl"))
	copyCorpus(t, "edge-v3-jsonmode-eventstream-crew-worker.jsonl", filepath.Join(dir, "events.jsonl"))
	const counted = "3 sessions and 3 sub-agents"

	srv := startServer(t, []string{"--serve", "--no-cache", "--addr", "127.0.0.1:0", dir}, "catalogued")
	if log := srv.stderr.String(); !strings.Contains(log, "catalogued "+counted+"; 1 file could not be read\n") {
		t.Errorf("the server's log says\n%s", log)
	}
	if index := string(srv.get("")); !strings.Contains(index, `<p class="index-summary">`+counted+" in ") || !strings.Contains(index, " · 1 file could not be read</p>") {
		t.Errorf("the server's index does not say %q and that 1 file could not be read", counted)
	}
	srv.stop()

	out, errOut, code := runCLI(t, "--usage", "--no-cache", dir)
	if code != 0 || !strings.Contains(out, "of "+counted+": ") || !strings.Contains(out, "; 1 session did no model work\n") ||
		!strings.Contains(errOut, "piexport: 1 file could not be read; it is not counted\n") {
		t.Errorf("--usage: exit %d\n%s%s", code, errOut, out)
	}
	if !regexp.MustCompile(`\nTotal +2 +3 `).MatchString(out) {
		t.Errorf("--usage's table does not count the 2 sessions and 3 sub-agents with model work:\n%s", out)
	}

	site := filepath.Join(t.TempDir(), "site")
	_, errOut, code = runCLI(t, "--no-cache", "-o", site, dir)
	if code != 1 || !strings.Contains(errOut, counted+": 6 written, 0 unchanged\n") || !strings.Contains(errOut, "1 of 7 session files could not be read") {
		t.Errorf("the archive: exit %d\n%s", code, errOut)
	}
	if index, _ := os.ReadFile(filepath.Join(site, "index.html")); !strings.Contains(string(index), `<p class="index-summary">`+counted+" in ") {
		t.Errorf("the archive's index does not say %q", counted)
	}
}
