package session

import (
	"strings"
	"testing"
)

// drawn lays out s and draws each row as "rails text", with the rails as
// box-drawing glyphs.
func drawn(s *Session, shown func(*Entry) bool) []string {
	var out []string
	for _, r := range s.Layout(s.Flatten(), shown) {
		if !r.Shown {
			continue
		}
		line := RailGlyphs(r.Rails) + r.Entry.Message.Text()
		if r.Forks > 0 {
			line += " ⑂"
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

func TestLayout(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		hide  string // entries whose text is in here are hidden
		want  []string
	}{
		{"a chain has no rails", []string{user("a", "", "a", 1), user("b", "a", "b", 2), user("c", "b", "c", 3)}, "",
			[]string{"a", "b", "c"}},
		{"a branch point", []string{user("a", "", "a", 1), user("b", "a", "b", 2), user("c", "b", "c", 3), user("d", "a", "d", 4), user("e", "d", "e", 5)}, "",
			[]string{"a ⑂", "├─ b", "│  c", "└─ d", "   e"}},
		{"branches within a branch", []string{
			user("a", "", "a", 1), user("b", "a", "b", 2), user("c", "b", "c", 3), user("x", "b", "x", 4), user("d", "a", "d", 5)}, "",
			[]string{"a ⑂", "├─ b ⑂", "│  ├─ c", "│  └─ x", "└─ d"}},
		{"several roots", []string{user("a", "", "a", 1), user("b", "a", "b", 2), user("r", "missing", "r", 3)}, "",
			[]string{"├─ a", "│  b", "└─ r"}},
		{"a hidden row passes its branch on", []string{
			user("a", "", "a", 1), user("h", "a", "hidden", 2), user("b", "h", "b", 3), user("c", "a", "c", 4)}, "hidden",
			[]string{"a ⑂", "├─ b", "└─ c"}},
		{"a branch point with one shown branch is none", []string{
			user("a", "", "a", 1), user("b", "a", "b", 2), user("h", "a", "hidden", 3)}, "hidden",
			[]string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := load(t, lines(append([]string{hdr}, tc.lines...)...))
			var shown func(*Entry) bool
			if tc.hide != "" {
				shown = func(e *Entry) bool { return !strings.Contains(tc.hide, e.Message.Text()) }
			}
			got := drawn(s, shown)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestFitWidth(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a line that is too long", 10, "a line th…"},
		{"• 继续写第三章主角", 8, "• 继续…"},
		{"no limit", 0, "no limit"},
	} {
		if got := fitWidth(tc.in, tc.width); got != tc.want {
			t.Errorf("fitWidth(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
