// Package linediff computes line diffs of two texts in unified form, for
// edits whose result carries no diff of its own. It knows nothing of
// sessions or of how a diff is shown.
package linediff

import (
	"strconv"
	"strings"
)

const (
	// diffMaxLines is the most lines per side Unified compares; above
	// it the old text is shown removed and the new one added.
	diffMaxLines = 5000
	// diffMaxEdits bounds Myers' search, whose memory grows with the
	// square of the number of edits; texts that far apart read just as
	// well as a removal and an addition.
	diffMaxEdits = 1000
	// diffContext is the number of unchanged lines kept around a change.
	diffContext = 3
)

type editOp byte

const (
	opEq  editOp = ' '
	opDel editOp = '-'
	opAdd editOp = '+'
)

type edit struct {
	op   editOp
	a, b int // line index in old (for opEq, opDel) and in new (opEq, opAdd)
}

// Unified computes a line diff of two texts in unified form (hunks
// with @@ -a,b +c,d @@ headers and three lines of context), for edits
// whose result carries no diff of its own. Equal texts give "".
func Unified(oldText, newText string) string {
	a, b := splitLines(oldText), splitLines(newText)
	if len(a) > diffMaxLines || len(b) > diffMaxLines {
		return formatHunks(a, b, replaceAll(a, b))
	}
	return formatHunks(a, b, diffLines(a, b))
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func replaceAll(a, b []string) []edit {
	es := make([]edit, 0, len(a)+len(b))
	for i := range a {
		es = append(es, edit{op: opDel, a: i})
	}
	for j := range b {
		es = append(es, edit{op: opAdd, b: j})
	}
	return es
}

// diffLines returns the edit script from a to b: common prefix and
// suffix, and Myers' O(ND) algorithm on what lies between.
func diffLines(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var es []edit
	for i := range pre {
		es = append(es, edit{op: opEq, a: i, b: i})
	}
	mid, ok := myers(a[pre:len(a)-suf], b[pre:len(b)-suf])
	if !ok {
		mid = replaceAll(a[pre:len(a)-suf], b[pre:len(b)-suf])
	}
	for _, e := range mid {
		e.a += pre
		e.b += pre
		es = append(es, e)
	}
	for k := suf; k > 0; k-- {
		es = append(es, edit{op: opEq, a: len(a) - k, b: len(b) - k})
	}
	return es
}

// myers finds a shortest edit script with at most diffMaxEdits edits; ok
// is false when there is none that short.
func myers(a, b []string) ([]edit, bool) {
	// Compare small integers, not strings, in the inner loop.
	ids := map[string]int32{}
	intern := func(ls []string) []int32 {
		out := make([]int32, len(ls))
		for i, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)
	n, m := len(x), len(y)
	maxD := min(n+m, diffMaxEdits)
	off := maxD + 1
	v := make([]int32, 2*off+1)
	// trace[d] holds v[k] for k in [-d, d] as it was before step d.
	var trace [][]int32
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int32(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				i = int(v[off+k+1])
			} else {
				i = int(v[off+k-1]) + 1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i++
				j++
			}
			v[off+k] = int32(i)
			if i >= n && j >= m {
				return backtrack(trace, n, m), true
			}
		}
	}
	return nil, false
}

func backtrack(trace [][]int32, n, m int) []edit {
	var rev []edit
	i, j := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d] // index k+d
		at := func(k int) int { return int(v[k+d]) }
		k := i - j
		if d == 0 {
			for i > 0 && j > 0 {
				i--
				j--
				rev = append(rev, edit{op: opEq, a: i, b: j})
			}
			break
		}
		var prevK int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevI := at(prevK)
		prevJ := prevI - prevK
		for i > prevI && j > prevJ {
			i--
			j--
			rev = append(rev, edit{op: opEq, a: i, b: j})
		}
		if i == prevI {
			j--
			rev = append(rev, edit{op: opAdd, b: j})
		} else {
			i--
			rev = append(rev, edit{op: opDel, a: i})
		}
	}
	es := make([]edit, len(rev))
	for k, e := range rev {
		es[len(rev)-1-k] = e
	}
	return es
}

// formatHunks writes the script as unified hunks, each change with up to
// diffContext unchanged lines around it.
func formatHunks(a, b []string, es []edit) string {
	var sb strings.Builder
	for start := 0; start < len(es); {
		// Find the next change.
		for start < len(es) && es[start].op == opEq {
			start++
		}
		if start == len(es) {
			break
		}
		lo := max(start-diffContext, 0)
		// Extend while changes are close enough to share context.
		end := start
		for end < len(es) {
			if es[end].op != opEq {
				end++
				continue
			}
			run := end
			for run < len(es) && es[run].op == opEq {
				run++
			}
			if run == len(es) || run-end > 2*diffContext {
				end = min(end+diffContext, len(es))
				break
			}
			end = run
		}
		writeHunk(&sb, a, b, es[lo:end])
		start = end
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func writeHunk(sb *strings.Builder, a, b []string, es []edit) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, e := range es {
		if e.op != opAdd {
			if aStart < 0 {
				aStart = e.a
			}
			aLen++
		}
		if e.op != opDel {
			if bStart < 0 {
				bStart = e.b
			}
			bLen++
		}
	}
	sb.WriteString("@@ -" + hunkRange(aStart, aLen) + " +" + hunkRange(bStart, bLen) + " @@\n")
	for _, e := range es {
		sb.WriteByte(byte(e.op))
		if e.op == opAdd {
			sb.WriteString(b[e.b])
		} else {
			sb.WriteString(a[e.a])
		}
		sb.WriteByte('\n')
	}
}

// hunkRange formats "start,len" one-based, as diff does. A side is empty
// in a hunk only when that whole text is empty (otherwise context lines
// would be there), which diff writes as 0,0.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return "0,0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}
