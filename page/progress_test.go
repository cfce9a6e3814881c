package page

import (
	"io"
	"testing"
)

// Writing a page tells how many of the session's entries are written,
// counting a tool result shown in its call's card with the call: from 0
// to every entry, only ever more.
func TestWriteTellsProgress(t *testing.T) {
	for _, file := range []string{"pi-v3-paradocs-research.jsonl", "omp18-task-subagents.jsonl", "pi-v3-sdk-branches-labels.jsonl"} {
		s := loadCorpus(t, file)
		p, err := NewPage(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var told [][2]int
		p.Tell(func(done, total int) { told = append(told, [2]int{done, total}) })
		if err := p.Write(io.Discard); err != nil {
			t.Fatal(err)
		}
		if len(told) < 2 || told[0] != [2]int{0, len(s.Entries)} || told[len(told)-1] != [2]int{len(s.Entries), len(s.Entries)} {
			t.Errorf("%s: told %v first and %v last, want 0 then %d of %d entries", file, told[0], told[len(told)-1], len(s.Entries), len(s.Entries))
		}
		for i := 1; i < len(told); i++ {
			if told[i][0] <= told[i-1][0] {
				t.Errorf("%s: told %v after %v", file, told[i], told[i-1])
				break
			}
		}
	}
}
