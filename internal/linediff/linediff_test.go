package linediff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestUnifiedDiff(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"both empty", "", "", ""},
		{"from empty", "", "a\nb\n", "@@ -0,0 +1,2 @@\n+a\n+b"},
		{"to empty", "a\n", "", "@@ -1 +0,0 @@\n-a"},
		{"one line", "a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c"},
		{"no trailing newline", "a\nb", "a\nc", "@@ -1,2 +1,2 @@\n a\n-b\n+c"},
		{"context trimmed", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8"},
		{"insert at end", "a\nb\n", "a\nb\nc\n", "@@ -1,2 +1,3 @@\n a\n b\n+c"},
		{"two hunks", "a\n1\n2\n3\n4\n5\n6\n7\nb\n", "A\n1\n2\n3\n4\n5\n6\n7\nB\n",
			"@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-b\n+B"},
		{"close changes share a hunk", "a\n1\n2\n3\n4\n5\n6\nb\n", "A\n1\n2\n3\n4\n5\n6\nB\n",
			"@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B"},
		{"CRLF", "a\r\nb\r\n", "a\nc\n", "@@ -1,2 +1,2 @@\n a\n-b\n+c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unified(tc.old, tc.new); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// diffLines must be a correct script (it rebuilds both texts) and a
// shortest one (its changes equal n+m-2·LCS).
func TestDiffLinesMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 2000 {
		a := randomLines(r)
		b := randomLines(r)
		es := diffLines(a, b)
		var gotA, gotB []string
		changes := 0
		for _, e := range es {
			switch e.op {
			case opEq:
				if a[e.a] != b[e.b] {
					t.Fatalf("case %d: equal edit joins %q and %q", iter, a[e.a], b[e.b])
				}
				gotA, gotB = append(gotA, a[e.a]), append(gotB, b[e.b])
			case opDel:
				gotA = append(gotA, a[e.a])
				changes++
			case opAdd:
				gotB = append(gotB, b[e.b])
				changes++
			}
		}
		if strings.Join(gotA, "\n") != strings.Join(a, "\n") || strings.Join(gotB, "\n") != strings.Join(b, "\n") {
			t.Fatalf("case %d: script does not rebuild %q -> %q: %+v", iter, a, b, es)
		}
		if want := len(a) + len(b) - 2*lcsLen(a, b); changes != want {
			t.Fatalf("case %d: %d changes, want %d for %q -> %q", iter, changes, want, a, b)
		}
	}
}

func randomLines(r *rand.Rand) []string {
	n := r.IntN(12)
	ls := make([]string, n)
	for i := range ls {
		ls[i] = string(rune('a' + r.IntN(4)))
	}
	return ls
}

func lcsLen(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func numberedText(n int, tag string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(tag)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('0' + i%10)))
		b.WriteString("\n")
	}
	return b.String()
}

func TestUnifiedDiffGuards(t *testing.T) {
	cases := []struct {
		name     string
		old, new string
	}{
		// Too many lines: not compared at all.
		{"too many lines", numberedText(diffMaxLines+1, "a"), numberedText(diffMaxLines+1, "a")},
		// Too many edits for Myers: every line differs.
		{"too many edits", numberedText(1500, "a"), numberedText(1500, "b")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			d := Unified(tc.old, tc.new)
			if el := time.Since(start); el > 2*time.Second {
				t.Errorf("took %v", el)
			}
			lines := strings.Split(d, "\n")
			oldN, newN := strings.Count(tc.old, "\n"), strings.Count(tc.new, "\n")
			if len(lines) != 1+oldN+newN {
				t.Fatalf("%d lines, want hunk header + %d + %d", len(lines), oldN, newN)
			}
			for i, l := range lines[1:] {
				want := byte('-')
				if i >= oldN {
					want = '+'
				}
				if l[0] != want {
					t.Fatalf("line %d = %q, want all removals then all additions", i+1, l)
				}
			}
		})
	}

	// Below the guards a large, mostly equal pair is still a real diff.
	a := numberedText(4000, "a")
	b := strings.Replace(a, "axxx3\n", "changed\n", 1)
	if d := Unified(a, b); strings.Count(d, "\n") != 8 {
		t.Errorf("want one small hunk, got %d lines", strings.Count(d, "\n")+1)
	}
}

// BenchmarkUnifiedDiff diffs about 100 KB of code against a copy with a
// change every few lines.
func BenchmarkUnifiedDiff(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 100<<10; i++ {
		fmt.Fprintf(&sb, "func (s *Store) Get%d(key string) ([]byte, error) {\n\ts.mu.RLock()\n\tdefer s.mu.RUnlock()\n\treturn s.items[key], nil\n}\n\n", i)
	}
	old := sb.String()
	changed := strings.ReplaceAll(old, "s.mu.RLock()", "s.mu.Lock()")
	b.SetBytes(int64(len(old)))
	for b.Loop() {
		Unified(old, changed)
	}
}
