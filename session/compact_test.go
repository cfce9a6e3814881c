package session

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/piexport/piexport/internal/sessiongen"
)

// TestCompactKeepsEveryString: after Compact every entry reads as before,
// and the bulk of the text is in the packed blocks.
func TestCompactKeepsEveryString(t *testing.T) {
	data := sessiongen.Sample(400_000)
	s, err := Read(bytes.NewReader(data), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Read(bytes.NewReader(data), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Compact(); n < 250_000 {
		t.Errorf("Compact packed %d bytes of a 400 KB session", n)
	}
	if !reflect.DeepEqual(ref.Entries, s.Entries) {
		t.Error("the entries differ after Compact")
	}
	// A field set afterwards is the caller's string, as before.
	e := s.Entries[len(s.Entries)-1]
	if e.Message != nil && len(e.Message.Content) > 0 {
		e.Message.Content[0].Text = "replaced"
		if e.Message.Content[0].Text != "replaced" {
			t.Error("a field could not be set after Compact")
		}
	}
}
