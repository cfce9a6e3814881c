package jsonindent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// nested is a value n levels deep: arrays and objects in turn around a
// string.
func nested(n int) []byte {
	var b strings.Builder
	for i := range n {
		if i%2 == 0 {
			b.WriteString(`[1,`)
		} else {
			b.WriteString(`{"k":`)
		}
	}
	b.WriteString(`"leaf"`)
	for i := n - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteString(`]`)
		} else {
			b.WriteString(`}`)
		}
	}
	return []byte(b.String())
}

// bound is what the package doc promises for n bytes of input.
func bound(n int) int { return 9*n + 64<<10 + 2*MaxDepth + 2 }

// Within the bounds, Indent writes what json.Indent writes, byte for byte:
// pages and Markdown files of ordinary sessions do not change.
func TestIndentAsJSONIndent(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `null`, `"a\"b\\"`, ` {"a" : [ 1 , 2 , { } , [ ] ] , "b":{"c":null}} `,
		"\n\t[true,false,-1.5e+3,\"x:,]}\"]\r\n",
		`{"a":{"b":{"c":{"d":[[[[["deep enough"]]]]]}}}}`,
		string(nested(MaxDepth)),
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(in), "", "  "); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		got := Indent([]byte(in))
		if string(got.Text) != want.String() || got.Deep || got.Long || got.Note() != "" {
			t.Errorf("Indent(%q) = %q (deep %v, long %v), want %q", in, got.Text, got.Deep, got.Long, want.String())
		}
	}
	for _, in := range []string{``, `{`, `{"a":1}x`, `[1,]`, "\xff"} {
		if got := Indent([]byte(in)); string(got.Text) != in || got.Note() != "" {
			t.Errorf("Indent(%q) = %q, %q: not JSON, it is shown as it is", in, got.Text, got.Note())
		}
	}
}

// Deep values are shown compact past MaxDepth: 2,000 levels
// in 12 KB made 16 MB, and 9,000 levels 162 MB.
func TestIndentDeep(t *testing.T) {
	for _, n := range []int{MaxDepth + 1, 2000, 9000} {
		in := nested(n)
		got := Indent(in)
		if len(got.Text) > bound(len(in)) {
			t.Errorf("%d levels, %d bytes: %d bytes indented, over %d", n, len(in), len(got.Text), bound(len(in)))
		}
		if !got.Deep || got.Long || !strings.Contains(got.Note(), "deeper than 32 levels") {
			t.Errorf("%d levels: deep %v, long %v, note %q", n, got.Deep, got.Long, got.Note())
		}
		if !sameValue(t, in, got.Text) {
			t.Errorf("%d levels: the value changed", n)
		}
		lines := strings.Split(string(got.Text), "\n")
		widest := 0
		for _, l := range lines {
			widest = max(widest, len(l)-len(strings.TrimLeft(l, " ")))
		}
		if widest != 2*MaxDepth {
			t.Errorf("%d levels: indented up to %d spaces, want %d", n, widest, 2*MaxDepth)
		}
	}
	// A container at the bound that is empty is shown as json.Indent
	// shows it, with no note.
	in := strings.Repeat("[", MaxDepth) + "[]" + strings.Repeat("]", MaxDepth)
	if got := Indent([]byte(in)); got.Deep {
		t.Errorf("an empty container at the bound is noted as cut")
	}
}

// A value that indentation would grow past its budget is indented up to
// it, then shown compact.
func TestIndentLong(t *testing.T) {
	// Each 1 at depth 32 takes a line of 64 spaces: 33 times the input.
	in := []byte(strings.Repeat("[", MaxDepth) + strings.Repeat("1,", 200_000) + "1" + strings.Repeat("]", MaxDepth))
	got := Indent(in)
	if !got.Long || got.Deep || !strings.Contains(got.Note(), "shown compact") {
		t.Errorf("long: %v, deep %v, note %q", got.Long, got.Deep, got.Note())
	}
	if len(got.Text) > bound(len(in)) || len(got.Text) < maxAdded(len(in)) {
		t.Errorf("%d bytes in, %d out: want between the budget %d and the bound %d", len(in), len(got.Text), maxAdded(len(in)), bound(len(in)))
	}
	if !sameValue(t, in, got.Text) {
		t.Error("the value changed")
	}
}

// sameValue reports whether a and b are the same JSON value, white space
// aside.
func sameValue(t testing.TB, a, b []byte) bool {
	t.Helper()
	var ca, cb bytes.Buffer
	if err := json.Compact(&ca, a); err != nil {
		t.Fatalf("compact %q: %v", a, err)
	}
	if err := json.Compact(&cb, b); err != nil {
		t.Errorf("the output is not JSON: %v", err)
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// FuzzIndent checks the bound on nested JSON values (any input, seeded
// with nested ones): the output is at most 64 times the input plus a
// constant (the package promises 9 times), holds the same value, and is
// json.Indent's own when nothing was cut.
func FuzzIndent(f *testing.F) {
	for _, n := range []int{1, 5, 31, 32, 33, 40, 200} {
		f.Add(nested(n))
	}
	f.Add([]byte(`{"a":[{"b":{"c":[1,2,{"d":"e\"f"}]}}],"g":null}`))
	f.Add([]byte(strings.Repeat(`{"a":[`, 50) + strings.Repeat(`]}`, 50)))
	f.Fuzz(func(t *testing.T, in []byte) {
		got := Indent(in)
		if len(got.Text) > 64*len(in)+64<<10+2*MaxDepth+2 {
			t.Fatalf("%d bytes in, %d out", len(in), len(got.Text))
		}
		var want bytes.Buffer
		if json.Indent(&want, in, "", "  ") != nil {
			if !bytes.Equal(got.Text, in) {
				t.Fatalf("not JSON, yet changed: %q", got.Text)
			}
			return
		}
		if !sameValue(t, in, got.Text) {
			t.Fatalf("the value changed: %q became %q", in, got.Text)
		}
		if !got.Deep && !got.Long && !bytes.Equal(got.Text, want.Bytes()) {
			t.Fatalf("Indent(%q) = %q, json.Indent %q", in, got.Text, want.Bytes())
		}
	})
}
