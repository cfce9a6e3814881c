package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// A usage with huge numbers showed as "$-92233720368547758.-8" and
// "-223372036854775.-7k in": the float-to-int conversion and the sums
// wrapped. Every count now saturates, and every sum stays finite.
func TestHugeUsageSaturates(t *testing.T) {
	assistant := func(id, parent string, sec int, usage string) string {
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-01-01T00:00:%02dZ","message":{"role":"assistant","provider":"p","model":"m","content":[{"type":"text","text":"ok"}],"usage":%s}}`, id, parent, sec, usage)
	}
	huge := `{"input":1e30,"output":9223372036854775807,"cacheRead":9.3e18,"cacheWrite":1e19,"cost":{"total":1e308}}`
	s := load(t, lines(hdr,
		user("u", "", "hi", 1),
		assistant("a1", "u", 2, huge),
		assistant("a2", "a1", 3, huge),
		assistant("a3", "a2", 4, `{"input":-1e30,"output":-9223372036854775808,"cacheRead":0,"cacheWrite":0,"cost":{"total":-1e308}}`),
		assistant("a4", "a3", 5, `{"input":-1e30,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":-1e308}}`),
		`{"type":"compaction","id":"c","parentId":"a4","timestamp":"2026-01-01T00:00:06Z","summary":"s","firstKeptEntryId":"u","tokensBefore":1e300}`,
		`{"type":"message","id":"b","parentId":"c","timestamp":"2026-01-01T00:00:07Z","message":{"role":"bashExecution","command":"x","output":"","exitCode":1e300}}`,
	))
	if u := s.Entry("a1").Message.Usage; u.Input != math.MaxInt64 || u.CacheRead != math.MaxInt64 || u.CacheWrite != math.MaxInt64 || u.Tokens() != math.MaxInt64 {
		t.Errorf("one message's usage: %+v, tokens %d", u, u.Tokens())
	}
	if u := s.Entry("a3").Message.Usage; u.Input != math.MinInt64 || u.Tokens() != math.MinInt64 {
		t.Errorf("negative usage: %+v, tokens %d", u, u.Tokens())
	}
	// Two huge, then two hugely negative: each sum saturates on the way
	// up, then comes down, never wrapping.
	var up Usage
	up.Add(s.Entry("a1").Message.Usage)
	up.Add(s.Entry("a2").Message.Usage)
	if up.Input != math.MaxInt64 || up.Output != math.MaxInt64 || up.Cost != math.MaxFloat64 {
		t.Errorf("sum of two huge usages: %+v", up)
	}
	var down Usage
	down.Add(s.Entry("a3").Message.Usage)
	down.Add(s.Entry("a4").Message.Usage)
	if down.Input != math.MinInt64 || down.Output != math.MinInt64 || down.Cost != -math.MaxFloat64 {
		t.Errorf("sum of two hugely negative usages: %+v", down)
	}
	st := s.Stats()
	for _, row := range st.Breakdown {
		if math.IsInf(row.Cost, 0) || math.IsNaN(row.Cost) {
			t.Errorf("breakdown row %+v is not finite", row)
		}
	}
	if math.IsInf(st.Usage.Cost, 0) || math.IsNaN(st.Usage.Cost) {
		t.Errorf("total cost %v", st.Usage.Cost)
	}
	if e := s.Entry("c"); e.TokensBefore != math.MaxInt64 {
		t.Errorf("tokensBefore %d", e.TokensBefore)
	}
	if code := s.Entry("b").Message.ExitCode; code == nil || *code != math.MaxInt {
		t.Errorf("exit code %v", code)
	}
	if p := ToolCallSummary("read", []byte(`{"path":"a.go","offset":1e30,"limit":1e30}`), ""); p != "[read: a.go:9223372036854775807-9223372036854775807]" {
		t.Errorf("a read of a huge range: %s", p)
	}
	// What is written as JSON (the archive's manifest, tree-json) has no
	// infinity to choke on.
	if _, err := json.Marshal(s.Summarize()); err != nil {
		t.Errorf("the summary does not encode: %v", err)
	}
	if err := s.WriteCanonicalJSON(&bytes.Buffer{}); err != nil {
		t.Errorf("tree-json: %v", err)
	}
}

func TestSaturatingHelpers(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want int64
	}{{1e30, math.MaxInt64}, {-1e30, math.MinInt64}, {math.NaN(), 0}, {math.Inf(1), math.MaxInt64}, {12.9, 12}, {-3.5, -3}} {
		if got := toInt64(tc.f); got != tc.want {
			t.Errorf("toInt64(%v) = %d, want %d", tc.f, got, tc.want)
		}
	}
	if addInt64(math.MaxInt64, 1) != math.MaxInt64 || addInt64(math.MinInt64, -1) != math.MinInt64 || addInt64(math.MaxInt64, math.MinInt64) != -1 {
		t.Error("addInt64 wraps")
	}
	if addFloat(math.MaxFloat64, math.MaxFloat64) != math.MaxFloat64 || addFloat(-math.MaxFloat64, -math.MaxFloat64) != -math.MaxFloat64 {
		t.Error("addFloat overflows")
	}
}
