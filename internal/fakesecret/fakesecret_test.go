package fakesecret

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFill(t *testing.T) {
	text, secrets := New(1).Fill(`{"a":"{{github-pat}} {{github-pat}} {{github-pat#2}}","b":"{{rsa-private-key}}"}`)
	var doc map[string]string
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("not JSON after filling: %v", err)
	}
	if len(secrets) != 3 {
		t.Fatalf("%d secrets, want 3", len(secrets))
	}
	parts := strings.Fields(doc["a"])
	if parts[0] != parts[1] || parts[0] == parts[2] || parts[0] != secrets[0].Text {
		t.Errorf("a marker is not one secret, or two markers are: %q", parts)
	}
	if doc["b"] != secrets[2].Text || !strings.Contains(doc["b"], "\n") {
		t.Errorf("the key block did not survive JSON escaping")
	}
}

func TestLeaks(t *testing.T) {
	g := New(2)
	s := g.Make("anthropic-api-key")
	other := g.Make("anthropic-api-key")
	v := s.Values[0]
	for _, tc := range []struct {
		out  string
		leak bool
	}{
		{"x " + v + " y", true},
		{"cut: " + v[len(v)/2:], true},
		{"escaped " + strings.ReplaceAll(v, "-", `\u002d`), true},
		{"masked [REDACTED:anthropic-api-key#1]", false},
		{other.Text, false},
	} {
		if got := len(Leaks([]byte(tc.out), []Secret{s})) > 0; got != tc.leak {
			t.Errorf("Leaks(%q) = %v, want %v", tc.out, got, tc.leak)
		}
	}
}

func TestKinds(t *testing.T) {
	g := New(3)
	for _, k := range Kinds() {
		s := g.Make(k)
		if s.Kind != k || len(s.Values) == 0 || !strings.Contains(s.Text, s.Values[0]) {
			t.Errorf("%s: %+v", k, s)
		}
	}
}
