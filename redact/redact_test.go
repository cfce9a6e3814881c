package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/session"
)

const templatePath = "../testdata/redact/planted.jsonl.tmpl"

func readTemplate(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(templatePath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// planted loads tmpl with fake secrets in place of its markers.
func planted(t testing.TB, tmpl string, seed uint64) (*session.Session, []fakesecret.Secret) {
	t.Helper()
	text, secrets := fakesecret.New(seed).Fill(tmpl)
	s, err := session.Read(strings.NewReader(text), "planted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s, secrets
}

// dump writes every string the session holds, as JSON: what anything
// rendered from it could show.
func dump(t testing.TB, s *session.Session) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	must := func(v any) {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	must(s.Header)
	must(s.Name)
	must(s.File)
	must(s.Warnings)
	for _, e := range s.Entries {
		c := *e
		c.Parent, c.Children = nil, nil
		must(c)
	}
	return b.Bytes()
}

func redactor(t testing.TB, opt Options) *Redactor {
	t.Helper()
	r, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var placeholderRE = regexp.MustCompile(`\[REDACTED:([a-z0-9-]+)#(\d+)\]`)

// lookAlikes are in the planted session and are not secrets.
var lookAlikes = []string{
	"3f9b2c7e-41d5-4a8e-9c2f-6b1d0e7a8f35",                                                            // a UUID
	"9fceb02d0ae598e95dc970b74767f19372d61af8",                                                        // a git commit
	"sha512-Ql9Pr3kq1cI1RvT2QzC9J9f7f0V3lZ5lq3k1y8w6s6yJ9hYQmGq1YwP0r8yZ0k5Qm3t3bJ6Fv0bB0r3Xl8wM1A==", // package-lock.json
	"h1:wk8382ETsv4JYUZwIsn6YpYiWiBsYLSJiTsyBybVuN8=",                                                 // go.sum
	"#1f6feb", "#0d1117", // hex colours
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", // an image
	"a password must have 12 characters",
	"never commit the password or a token; the key rotation guide is in docs/secrets.md",
	"0195a3c2-7d1e-7f00-9a4b-5c6d7e8f9012", // the session id
}

// TestPlantedSecrets masks a session with fake secrets of every kind in
// every kind of entry and field: none survives anywhere in the session,
// the look-alikes do, and each value has one placeholder throughout.
func TestPlantedSecrets(t *testing.T) {
	s, secrets := planted(t, readTemplate(t), 1)
	if len(fakesecret.Kinds()) < 25 {
		t.Fatalf("only %d kinds of secrets", len(fakesecret.Kinds()))
	}
	before := dump(t, s)
	if leaks := fakesecret.Leaks(before, secrets); len(leaks) != len(secrets)+countValues(secrets)-len(secrets) {
		t.Fatalf("the planted session does not hold every secret before redaction: %d of %d", len(leaks), countValues(secrets))
	}
	rep := redactor(t, Options{Secrets: true, Home: "/home/ada", Users: []string{"ada"}}).Session(s)
	after := dump(t, s)
	for _, leak := range fakesecret.Leaks(after, secrets) {
		t.Errorf("survived: %s", leak)
	}
	for _, l := range lookAlikes {
		if !bytes.Contains(after, jsonText(l)) {
			t.Errorf("look-alike changed: %q", l)
		}
	}
	if bytes.Contains(after, []byte("/home/ada")) || regexp.MustCompile(`\bada\b`).Match(after) {
		t.Errorf("the home directory or the user name survived")
	}

	// One placeholder per value: the Anthropic key is in two messages.
	first := s.Entry("u0000001").Message.Text()
	again := s.Entry("u0000003").Message.Text()
	p := placeholderRE.FindString(first)
	if !strings.HasPrefix(p, "[REDACTED:anthropic-api-key#") || !strings.Contains(again, p) {
		t.Errorf("the same key is not masked the same way: %q then %q", first, again)
	}
	// Two AWS keys, two numbers.
	if !bytes.Contains(after, []byte("[REDACTED:aws-access-token#1]")) || !bytes.Contains(after, []byte("[REDACTED:aws-access-token#2]")) {
		t.Errorf("two AWS keys are not numbered 1 and 2")
	}

	// The report: every placeholder in the session is in it, with a place.
	inReport := map[string]bool{}
	var previews strings.Builder
	for _, f := range rep.Findings {
		inReport[f.Placeholder] = true
		previews.WriteString(f.Preview + "\n")
		if f.Line == 0 || f.EntryID == "" || f.Rule != ruleOf(f.Placeholder) {
			t.Errorf("bad finding %+v", f)
		}
	}
	if leaks := fakesecret.Leaks([]byte(previews.String()), secrets); len(leaks) > 0 {
		t.Errorf("previews give secrets away: %v", leaks)
	}
	for _, m := range placeholderRE.FindAllString(string(after), -1) {
		if !inReport[m] {
			t.Errorf("%s is in the session but not in the report", m)
		}
	}
	if s.Redaction == nil || s.Redaction.Places != len(rep.Findings) || rep.Values() < len(secrets) {
		t.Errorf("redaction summary %+v, report %d values for %d secrets", s.Redaction, rep.Values(), len(secrets))
	}
}

func countValues(secrets []fakesecret.Secret) int {
	n := 0
	for _, s := range secrets {
		n += len(s.Values)
	}
	return n
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) []byte {
	b, _ := json.Marshal(s)
	return b[1 : len(b)-1]
}

// TestEveryKindInEveryField plants each kind of secret in each place of
// the planted session: session j has kind (i+j) mod K at place i, so K
// sessions hold every pair, each value once (none helps find another).
func TestEveryKindInEveryField(t *testing.T) {
	tmpl := readTemplate(t)
	markers := regexp.MustCompile(`\{\{[a-z0-9#-]+\}\}`).FindAllStringIndex(tmpl, -1)
	kinds := fakesecret.Kinds()
	r := redactor(t, Options{Secrets: true})
	for j := range kinds {
		var b strings.Builder
		done := 0
		for i, m := range markers {
			b.WriteString(tmpl[done:m[0]])
			fmt.Fprintf(&b, "{{%s#p%d}}", kinds[(i+j)%len(kinds)], i)
			done = m[1]
		}
		b.WriteString(tmpl[done:])
		s, secrets := planted(t, b.String(), uint64(j))
		r.Session(s)
		after := dump(t, s)
		for i, secret := range secrets {
			if leaks := fakesecret.Leaks(after, []fakesecret.Secret{secret}); len(leaks) > 0 {
				m := markers[i]
				t.Errorf("%s in place of %s: %s", secret.Kind, tmpl[m[0]:m[1]], strings.Join(leaks, "; "))
			}
		}
	}
}

// TestEveryStringIsWalked guards the walk: the session's types hold text
// only where it looks (exported strings, JSON, slices and pointers of
// them). A map or interface of text, or an unexported string, would be
// missed: this test fails when one is added.
func TestEveryStringIsWalked(t *testing.T) {
	unexported := map[string]bool{ // links and indexes, no text of their own
		"Session.byID": true, "Session.toolResults": true, "Session.calls": true, "Session.callers": true,
		"Entry.linkedParent": true, "Entry.v1FirstKept": true,
		// A lean session's file and the entries read from it again: such a
		// session is never masked (Redactor.Session refuses it).
		"Session.lean": true,
	}
	seen := map[reflect.Type]bool{}
	var check func(t reflect.Type, path string)
	check = func(typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice:
			if typ == rawType {
				return
			}
			check(typ.Elem(), path)
		case reflect.Map:
			if typ.Elem().Kind() == reflect.String || typ.Elem().Kind() == reflect.Interface || typ.Key().Kind() == reflect.String && path != "Redaction.Values" {
				t.Errorf("%s is a map holding text, which the walk does not look into", path)
			}
		case reflect.Interface:
			t.Errorf("%s is an interface, which the walk does not look into", path)
		case reflect.Struct:
			if seen[typ] || typ.PkgPath() != entryType.PkgPath() {
				return
			}
			seen[typ] = true
			for i := range typ.NumField() {
				f := typ.Field(i)
				name := typ.Name() + "." + f.Name
				if !f.IsExported() {
					if !unexported[name] && holdsText(f.Type, map[reflect.Type]bool{}) {
						t.Errorf("%s is unexported and can hold text: the walk does not see it", name)
					}
					continue
				}
				check(f.Type, name)
			}
		}
	}
	check(reflect.TypeFor[session.Session](), "Session")
	if !seen[entryType] || !seen[blockType] {
		t.Fatal("the check did not reach entries and blocks")
	}
}

// holdsText says whether a value of type t can hold a string.
func holdsText(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return t.Elem().Kind() == reflect.Uint8 || holdsText(t.Elem(), seen)
	case reflect.Map:
		return holdsText(t.Key(), seen) || holdsText(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsText(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// TestRealSessions masks nothing in the real sessions of the corpus but
// what is secret there: the signatures of signed video URLs. A rule that
// fires on ordinary text (code, prose, tool output) fails here.
func TestRealSessions(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*.jsonl")
	if err != nil || len(files) < 10 {
		t.Fatalf("corpus: %v, %d files", err, len(files))
	}
	r := redactor(t, Options{Secrets: true})
	for _, f := range files {
		s, err := session.Load(f)
		if err != nil {
			continue // the corpus holds files that are not sessions
		}
		for _, finding := range r.Session(s).Findings {
			if finding.Rule == "url-signature" && strings.HasSuffix(f, "gjc-v3-pinion01-headerless-images.jsonl") {
				continue
			}
			t.Errorf("%s:%d: masked %s (%s)", filepath.Base(f), finding.Line, finding.Placeholder, finding.Preview)
		}
	}
}

// TestLeanSessionIsRefused: a session whose text stays in its file cannot
// be masked, and the redactor says so rather than mask nothing.
func TestLeanSessionIsRefused(t *testing.T) {
	s, err := session.LoadWith(context.Background(), "../testdata/corpus/pi-v3-sdk-branches-labels.jsonl", session.LoadOptions{Lean: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a lean session was masked")
		}
	}()
	r.Session(s)
}
