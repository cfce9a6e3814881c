package sessiongen

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// profileStats are the figures that tell the profiles apart.
type profileStats struct {
	entries, users, calls, results int
	fences                         map[string]int
	// textBlocks counts assistant text blocks of more than closingBytes,
	// fenced those of them holding a fenced block.
	textBlocks, fenced int
	// reads counts successful text reads, readsIn those of 60 to 500 lines.
	reads, readsIn  int
	edits, longBash int
	// branchPoints counts the entries with more than one child.
	branchPoints int
}

// closingBytes is the size below which an assistant text may be one of
// the short answers that end a session at its target size.
const closingBytes = 600

var fenceLang = regexp.MustCompile("(?m)^```([a-z]+)$")

func statsOf(t *testing.T, es []entry) profileStats {
	t.Helper()
	st := profileStats{entries: len(es) - 1, fences: map[string]int{}}
	children := map[string]int{}
	for i := range es {
		if p := es[i].ParentID; p != nil {
			if children[*p]++; children[*p] == 2 {
				st.branchPoints++
			}
		}
	}
	for i := range es {
		e := &es[i]
		if e.Message == nil {
			continue
		}
		switch m := e.Message; m.Role {
		case "user":
			st.users++
		case "assistant":
			for _, b := range e.blocks(t) {
				switch b.Type {
				case "toolCall":
					st.calls++
					if b.Name == "edit" {
						st.edits++
					}
				case "text":
					langs := fenceLang.FindAllStringSubmatch(b.Text, -1)
					for _, l := range langs {
						st.fences[l[1]]++
					}
					if len(b.Text) > closingBytes {
						st.textBlocks++
						if len(langs) > 0 {
							st.fenced++
						}
					}
				}
			}
		case "toolResult":
			st.results++
			text := ""
			for _, b := range e.blocks(t) {
				text += b.Text
			}
			switch {
			case m.ToolName == "read" && !*m.IsError && !strings.HasPrefix(text, "Read image"):
				st.reads++
				if n := strings.Count(text, "\n") + 1; n >= 60 && n <= 500 {
					st.readsIn++
				}
			case m.ToolName == "bash" && strings.Count(text, "\n") >= 400:
				st.longBash++
			}
		}
	}
	return st
}

func TestProfiles(t *testing.T) {
	const size = 3_000_000
	stats := map[Profile]profileStats{}
	for _, p := range Profiles {
		opt := Options{Seed: 9, TargetBytes: size, Profile: p, Branches: true, Compactions: true, Labels: true}
		data := generate(t, opt)
		if n := int64(len(data)); n < size || n > size+size/10 {
			t.Errorf("%s: %d bytes, want %d to %d", p, n, size, size+size/10)
		}
		es := parse(t, data)
		checkTree(t, es)
		stats[p] = statsOf(t, es)
		t.Logf("%s: %+v", p, stats[p])
	}

	mixed, chat, code, tools, linear := stats[ProfileMixed], stats[ProfileChat], stats[ProfileCode], stats[ProfileTools], stats[ProfileLinear]
	// Code: fences in every longer text, every language about as often,
	// reads of 60 to 500 lines, more edits and long output than the mixed
	// shape has for its bytes.
	if code.fenced != code.textBlocks {
		t.Errorf("code: %d of %d assistant texts hold a fenced block, want all", code.fenced, code.textBlocks)
	}
	for _, l := range languages {
		if n := code.fences[l.fence]; n*len(languages)*10 < sum(code.fences)*9 {
			t.Errorf("code: %d %s blocks of %d, want about an eighth", n, l.fence, sum(code.fences))
		}
	}
	if code.readsIn*100 < code.reads*95 {
		t.Errorf("code: %d of %d reads show 60 to 500 lines, want nearly all", code.readsIn, code.reads)
	}
	if code.edits <= 2*mixed.edits || code.longBash == 0 {
		t.Errorf("code: %d edits (mixed %d), %d long bash outputs", code.edits, mixed.edits, code.longBash)
	}
	if sum(code.fences) <= 3*sum(mixed.fences) {
		t.Errorf("code: %d fenced blocks, mixed %d: want several times more", sum(code.fences), sum(mixed.fences))
	}
	// Chat: more user messages than tool calls. Tools: many calls per ask.
	if chat.calls >= chat.users {
		t.Errorf("chat: %d tool calls for %d user messages", chat.calls, chat.users)
	}
	if tools.calls < 6*tools.users {
		t.Errorf("tools: %d tool calls for %d user messages, want 6 or more each", tools.calls, tools.users)
	}
	if tools.entries <= mixed.entries {
		t.Errorf("tools: %d entries, mixed %d: want more, smaller ones", tools.entries, mixed.entries)
	}
	// Linear: one long path, a branch only every few dozen asks even
	// with Branches; the bytes in reads, shell output and edits, with
	// more entries than the mixed shape for its bytes.
	if linear.branchPoints*30 > linear.users || mixed.branchPoints*10 < mixed.users {
		t.Errorf("linear: %d branch points for %d user messages (mixed: %d for %d)", linear.branchPoints, linear.users, mixed.branchPoints, mixed.users)
	}
	if linear.reads == 0 || linear.edits*2 < mixed.edits*3 || linear.entries <= mixed.entries {
		t.Errorf("linear: %d reads, %d edits (mixed %d), %d entries (mixed %d)", linear.reads, linear.edits, mixed.edits, linear.entries, mixed.entries)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestMixedIsDefault checks that the mixed profile is the zero Profile and
// that asking for it by name changes nothing.
func TestMixedIsDefault(t *testing.T) {
	opt := Options{Seed: 5, TargetBytes: 500_000, Branches: true, Images: true}
	a := generate(t, opt)
	opt.Profile = ProfileMixed
	if b := generate(t, opt); !bytes.Equal(a, b) {
		t.Error("Profile mixed and the zero Profile give different sessions")
	}
	for _, p := range Profiles[1:] {
		opt.Profile = p
		if b := generate(t, opt); bytes.Equal(a, b) {
			t.Errorf("profile %s gives the mixed session", p)
		}
	}
}

func TestParseProfile(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Profile
		ok   bool
	}{
		{"", ProfileMixed, true}, {"mixed", ProfileMixed, true}, {"code", ProfileCode, true},
		{"chat", ProfileChat, true}, {"tools", ProfileTools, true}, {"linear", ProfileLinear, true},
		{"Code", "", false}, {"x", "", false},
	} {
		got, err := ParseProfile(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseProfile(%q) = %q, %v", tc.in, got, err)
		}
	}
	if err := Write(&bytes.Buffer{}, Options{Profile: "nope"}); err == nil {
		t.Error("Write with an unknown profile succeeded")
	}
}
