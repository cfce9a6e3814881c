package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestAgreesWithPi loads every corpus file and compares the canonical tree
// JSON with what pi's own SessionManager made of the same file: pi 0.73.1
// (testdata/reference, written by shared/reference/dump.mjs) and pi 1.5.2
// (testdata/reference/pi-1.5, by shared/reference/pi-1.5/dump.mjs, which
// adds pi's totals, cost by model and the edited context). The rules are
// those of shared/reference/compare.py, ported so that `go test` holds them
// without Python. Every corpus file must have pi 1.5.2's view.
func TestAgreesWithPi(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*.jsonl")
	if err != nil || len(files) < 25 {
		t.Fatalf("corpus missing: %d files, %v", len(files), err)
	}
	for _, ref := range []struct {
		dir      string
		required bool
	}{{"../testdata/reference", false}, {"../testdata/reference/pi-1.5", true}} {
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".jsonl")
			t.Run(filepath.Base(ref.dir)+"/"+name, func(t *testing.T) {
				expected := filepath.Join(ref.dir, name+".json")
				if _, err := os.Stat(expected); err != nil {
					if ref.required {
						t.Fatalf("no reference for %s: %v", name, err)
					}
					t.Skipf("pi 0.73.1 has no view of %s (it was written later)", name)
				}
				want := readJSON(t, expected)
				s, err := Load(file)
				if strings.HasPrefix(name, "edge-") {
					// pi calls this event stream "valid" and shows nothing;
					// piexport says what it is instead.
					if !errors.Is(err, ErrNotSession) {
						t.Fatalf("Load = %v, want ErrNotSession", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				checkTree(t, s)
				var buf bytes.Buffer
				if err := s.WriteCanonicalJSON(&buf); err != nil {
					t.Fatal(err)
				}
				var got map[string]any
				if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
					t.Fatal(err)
				}
				for _, d := range compareWithPi(t, file, want, got) {
					t.Error(d)
				}
			})
		}
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// refKey is an entry reference: a line and the object's part on it.
type refKey struct{ line, part int }

// toRef reads a reference: a number, or [line, part].
func toRef(v any) (refKey, bool) {
	switch x := v.(type) {
	case float64:
		return refKey{int(x), 1}, true
	case []any:
		if len(x) == 2 {
			a, _ := x[0].(float64)
			b, _ := x[1].(float64)
			return refKey{int(a), int(b)}, true
		}
	}
	return refKey{}, false
}

// fromRef writes a reference back the way the JSON has it.
func fromRef(k refKey) any {
	if k.part == 1 {
		return float64(k.line)
	}
	return []any{float64(k.line), float64(k.part)}
}

func stringKey(s string) refKey {
	a, b, found := strings.Cut(s, ":")
	line, _ := strconv.Atoi(a)
	part := 1
	if found {
		part, _ = strconv.Atoi(b)
	}
	return refKey{line, part}
}

func compareWithPi(t *testing.T, rawPath string, pi, ours map[string]any) []string {
	t.Helper()
	var diffs []string
	ourEntries, _ := ours["entries"].([]any)
	if pi["valid"] != true {
		if len(ourEntries) == 0 {
			diffs = append(diffs, "pi found no usable header; piexport shows no entries either")
		}
		return diffs
	}

	// The file's own view of versions and ids.
	var rawHeader map[string]any
	rawHasIDs := false
	rawLineOf := map[string]int{}
	rawParent := map[int]any{}
	f, err := os.Open(rawPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for no := 1; sc.Scan(); no++ {
		line := bytes.TrimSpace(sc.Bytes())
		var obj map[string]any
		if len(line) == 0 || json.Unmarshal(line, &obj) != nil {
			continue
		}
		_, hasID := obj["id"]
		_, hasParent := obj["parentId"]
		switch {
		case rawHeader == nil && obj["type"] == "session":
			rawHeader = obj
		case hasID && hasParent:
			rawHasIDs = true
			if id, ok := obj["id"].(string); ok {
				if _, seen := rawLineOf[id]; !seen {
					rawLineOf[id] = no
				}
			}
			rawParent[no] = obj["parentId"]
		}
	}
	_, hasVersion := rawHeader["version"]
	relinkedByPi := rawHeader != nil && !hasVersion && rawHasIDs

	piEntries := map[refKey]map[string]any{}
	var piOrder []refKey
	for _, e := range pi["entries"].([]any) {
		m := e.(map[string]any)
		k := refKey{int(m["line"].(float64)), 1}
		piEntries[k] = m
		piOrder = append(piOrder, k)
	}
	our := map[refKey]map[string]any{}
	for _, e := range ourEntries {
		m := e.(map[string]any)
		part := 1
		if p, ok := m["part"].(float64); ok {
			part = int(p)
		}
		our[refKey{int(m["line"].(float64)), part}] = m
	}
	for _, k := range piOrder {
		if our[k] == nil {
			diffs = append(diffs, fmt.Sprintf("entry at line %d: pi has it, piexport lacks it", k.line))
		}
	}
	extra := map[refKey]bool{}
	for k := range our {
		if piEntries[k] == nil {
			extra[k] = true
		}
	}
	// parentOf contracts entries only piexport has: an entry's parent is
	// its nearest ancestor that pi has too.
	parentOf := func(k refKey) any {
		p := our[k]["parent"]
		seen := map[refKey]bool{}
		for {
			pk, ok := toRef(p)
			if !ok {
				return p
			}
			if !extra[pk] || seen[pk] {
				return fromRef(pk)
			}
			seen[pk] = true
			p = our[pk]["parent"]
		}
	}
	for _, k := range piOrder {
		pe, oe := piEntries[k], our[k]
		if oe == nil {
			continue
		}
		for _, field := range []string{"type", "role"} {
			if !reflect.DeepEqual(pe[field], oe[field]) {
				diffs = append(diffs, fmt.Sprintf("line %d: %s pi=%v piexport=%v", k.line, field, pe[field], oe[field]))
			}
		}
		op := parentOf(k)
		if relinkedByPi {
			var want any
			if rp := rawParent[k.line]; rp != nil {
				if line, ok := rawLineOf[rp.(string)]; ok {
					want = float64(line)
				} else {
					want = "missing:" + rp.(string)
				}
			}
			if !reflect.DeepEqual(op, want) {
				diffs = append(diffs, fmt.Sprintf("line %d: parent %v, but the file's own parentId says %v", k.line, op, want))
			}
			continue
		}
		if !reflect.DeepEqual(pe["parent"], op) {
			diffs = append(diffs, fmt.Sprintf("line %d: parent pi=%v piexport=%v", k.line, pe["parent"], op))
		}
	}

	ph, _ := pi["header"].(map[string]any)
	oh, _ := ours["header"].(map[string]any)
	for _, field := range []string{"line", "id", "version", "cwd", "parentSession"} {
		if !reflect.DeepEqual(ph[field], oh[field]) {
			diffs = append(diffs, fmt.Sprintf("header.%s: pi=%v piexport=%v", field, ph[field], oh[field]))
		}
	}

	if !relinkedByPi {
		refs := func(v any) []refKey {
			var out []refKey
			list, _ := v.([]any)
			for _, x := range list {
				k, _ := toRef(x)
				out = append(out, k)
			}
			return out
		}
		ourChildren := map[refKey][]refKey{}
		for k, v := range ours["children"].(map[string]any) {
			ourChildren[stringKey(k)] = refs(v)
		}
		var contracted func(kids []refKey) []refKey
		contracted = func(kids []refKey) []refKey {
			out := []refKey{}
			for _, c := range kids {
				if extra[c] {
					out = append(out, contracted(ourChildren[c])...)
				} else {
					out = append(out, c)
				}
			}
			return out
		}
		if !reflect.DeepEqual(append([]refKey{}, refs(pi["roots"])...), contracted(refs(ours["roots"]))) {
			diffs = append(diffs, "roots differ")
		}
		piChildren := map[refKey][]refKey{}
		for k, v := range pi["children"].(map[string]any) {
			piChildren[stringKey(k)] = refs(v)
		}
		keys := map[refKey]bool{}
		for k := range piChildren {
			keys[k] = true
		}
		for k := range ourChildren {
			if !extra[k] {
				keys[k] = true
			}
		}
		for k := range keys {
			want := append([]refKey{}, piChildren[k]...)
			if !reflect.DeepEqual(want, contracted(ourChildren[k])) {
				diffs = append(diffs, fmt.Sprintf("children of line %d differ", k.line))
			}
		}
		pl := map[refKey]any{}
		for k, v := range pi["labels"].(map[string]any) {
			pl[stringKey(k)] = v
		}
		ol := map[refKey]any{}
		for k, v := range ours["labels"].(map[string]any) {
			if !extra[stringKey(k)] {
				ol[stringKey(k)] = v
			}
		}
		if !reflect.DeepEqual(pl, ol) {
			diffs = append(diffs, fmt.Sprintf("labels differ: pi=%v piexport=%v", pl, ol))
		}
		ourLeaf := ours["leaf"]
		seen := map[refKey]bool{}
		for {
			k, ok := toRef(ourLeaf)
			if !ok || !extra[k] || seen[k] {
				break
			}
			seen[k] = true // a recovered leaf: pi's is its nearest kept ancestor
			ourLeaf = our[k]["parent"]
		}
		if !reflect.DeepEqual(pi["leaf"], ourLeaf) {
			diffs = append(diffs, fmt.Sprintf("leaf: pi=%v piexport=%v", pi["leaf"], ours["leaf"]))
		}
		var ourPath []any
		for _, p := range ours["path"].([]any) {
			if k, _ := toRef(p); !extra[k] {
				ourPath = append(ourPath, p)
			}
		}
		piPath, _ := pi["path"].([]any)
		if len(piPath) != len(ourPath) || (len(piPath) > 0 && !reflect.DeepEqual(piPath, ourPath)) {
			diffs = append(diffs, fmt.Sprintf("path differs: pi has %d entries, piexport %d", len(piPath), len(ourPath)))
		}
		if len(extra) == 0 && !reflect.DeepEqual(pi["context"], ours["context"]) {
			diffs = append(diffs, fmt.Sprintf("context roles differ: pi=%v piexport=%v", pi["context"], ours["context"]))
		}
	}
	if !reflect.DeepEqual(pi["name"], ours["name"]) {
		diffs = append(diffs, fmt.Sprintf("name: pi=%v piexport=%v", pi["name"], ours["name"]))
	}
	return append(diffs, comparePi15(pi, ours)...)
}

// comparePi15 checks pi 1.5's keys where the expected document has them
// (compare.py's compare_pi15): pi's totals, its cost by model, and the
// leaf's context after context edits. Where pi's own count failed (old
// files whose usage has no cost) stats and breakdown are null and not
// compared.
func comparePi15(pi, ours map[string]any) []string {
	var diffs []string
	if want, ok := pi["stats"].(map[string]any); ok {
		got, _ := ours["stats"].(map[string]any)
		for _, k := range []string{"userMessages", "assistantMessages", "toolCalls", "toolResults", "totalMessages"} {
			if !reflect.DeepEqual(want[k], got[k]) {
				diffs = append(diffs, fmt.Sprintf("stats.%s: pi=%v piexport=%v", k, want[k], got[k]))
			}
		}
		if !reflect.DeepEqual(want["tokens"], got["tokens"]) {
			diffs = append(diffs, fmt.Sprintf("stats.tokens: pi=%v piexport=%v", want["tokens"], got["tokens"]))
		}
		wc, _ := want["cost"].(float64)
		gc, _ := got["cost"].(float64)
		if math.Abs(wc-gc) > 1e-6 {
			diffs = append(diffs, fmt.Sprintf("stats.cost: pi=%v piexport=%v", wc, gc))
		}
	}
	if want, ok := pi["breakdown"].([]any); ok && len(want) > 0 {
		rows := func(v any) map[string]string {
			out := map[string]string{}
			list, _ := v.([]any)
			for _, r := range list {
				m, _ := r.(map[string]any)
				cost, _ := m["cost"].(float64)
				out[fmt.Sprint(m["key"])] = fmt.Sprintf("%v tokens, $%.6f", m["tokens"], math.Round(cost*1e6)/1e6)
			}
			return out
		}
		if w, g := rows(want), rows(ours["breakdown"]); !reflect.DeepEqual(w, g) {
			diffs = append(diffs, fmt.Sprintf("breakdown: pi=%v piexport=%v", w, g))
		}
	}
	if want, ok := pi["projection"]; ok && !reflect.DeepEqual(want, ours["projection"]) {
		diffs = append(diffs, fmt.Sprintf("projection: pi=%v piexport=%v", want, ours["projection"]))
	}
	return diffs
}

// TestCompareCatchesDifferences makes sure the comparison above can fail:
// each change to a correct document must be reported.
func TestCompareCatchesDifferences(t *testing.T) {
	const name = "pi-v3-sdk-branches-labels"
	file := "../testdata/corpus/" + name + ".jsonl"
	want := readJSON(t, "../testdata/reference/"+name+".json")
	s, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	tamper := map[string]func(doc map[string]any){
		"children order": func(doc map[string]any) {
			kids := doc["children"].(map[string]any)["4"].([]any)
			kids[0], kids[1] = kids[1], kids[0]
		},
		"label":  func(doc map[string]any) { doc["labels"].(map[string]any)["17"] = "other" },
		"name":   func(doc map[string]any) { doc["name"] = "Health endpoint " },
		"leaf":   func(doc map[string]any) { doc["leaf"] = float64(20) },
		"parent": func(doc map[string]any) { doc["entries"].([]any)[3].(map[string]any)["parent"] = float64(2) },
		"role":   func(doc map[string]any) { doc["entries"].([]any)[2].(map[string]any)["role"] = "assistant" },
	}
	checkTampering(t, file, want, s, tamper)
}

// TestComparePi15CatchesDifferences makes sure the pi 1.5 keys are
// compared: each change to a correct document must be reported.
func TestComparePi15CatchesDifferences(t *testing.T) {
	const name = "pi15-sdk-usage-contextedit-main"
	file := "../testdata/corpus/" + name + ".jsonl"
	want := readJSON(t, "../testdata/reference/pi-1.5/"+name+".json")
	s, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	stats := func(doc map[string]any) map[string]any { return doc["stats"].(map[string]any) }
	tamper := map[string]func(doc map[string]any){
		"message count": func(doc map[string]any) { stats(doc)["totalMessages"] = float64(9) },
		"tokens":        func(doc map[string]any) { stats(doc)["tokens"].(map[string]any)["cacheRead"] = float64(6700) },
		"cost":          func(doc map[string]any) { stats(doc)["cost"] = 0.0307 },
		"breakdown key": func(doc map[string]any) {
			doc["breakdown"].([]any)[2].(map[string]any)["key"] = "anthropic/claude-sonnet-4-5"
		},
		"breakdown cost":  func(doc map[string]any) { doc["breakdown"].([]any)[1].(map[string]any)["cost"] = 0.0191 },
		"projection kind": func(doc map[string]any) { doc["projection"].([]any)[5].([]any)[1] = "kept" },
		"projection order": func(doc map[string]any) {
			p := doc["projection"].([]any)
			p[0], p[1] = p[1], p[0]
		},
		"context order": func(doc map[string]any) {
			c := doc["context"].([]any)
			c[0], c[1] = c[1], c[0]
		},
	}
	checkTampering(t, file, want, s, tamper)
}

func checkTampering(t *testing.T, file string, want map[string]any, s *Session, tamper map[string]func(map[string]any)) {
	t.Helper()
	for what, change := range tamper {
		t.Run(what, func(t *testing.T) {
			t.Helper()
			var buf bytes.Buffer
			if err := s.WriteCanonicalJSON(&buf); err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if d := compareWithPi(t, file, want, doc); len(d) != 0 {
				t.Fatalf("untouched document differs: %v", d)
			}
			change(doc)
			if d := compareWithPi(t, file, want, doc); len(d) == 0 {
				t.Errorf("a changed %s went unnoticed", what)
			}
		})
	}
}
