package fastlex

import (
	"github.com/dlclark/regexp2/v2/syntax"
)

// machine runs compiled patterns on one text. It backtracks the way
// regexp2's runner does, with a stack of its own: each choice (another
// alternative, one more or one fewer loop iteration) pushes a frame that
// says where to resume, and each change to the captures and loop states
// pushes one that undoes it; a failure pops frames until one resumes.
// Go's stack grows only with the nesting of lookarounds and atomic
// groups in the pattern, never with the length of the text.
type machine struct {
	nodes []*node // the program's, by index, for frames
	text  []rune
	end   int
	start int // where the attempt started, for \G

	caps  []span // per capture slot: its latest capture
	open  []int  // per capture slot: where the group being matched began
	log   []capUndo
	loops []loopState
	stack []frame

	subPos   int // where the body of a lookaround or atomic group ended
	matchEnd int

	// steps counts the nodes visited, the frames popped and the
	// characters compared. When it passes limit the run stops (panics
	// with workSpent): the work a text may cost is fixed in advance, not
	// measured in time.
	steps, limit int64

	// track estimates regexp2's backtracking stack for the attempt under
	// way; past trackHigh the attempt is left to regexp2 (exact).
	// trackExact says whether trackHigh comes from the program's
	// trackLimit rather than its trackBound.
	track, trackHigh int
	trackExact       bool
	prog             *program
}

// deepStack is the panic that hands an attempt to regexp2.
type deepStack struct{}

// span is a capture; start < 0 means the group did not take part.
type span struct{ start, end int }

type capUndo struct {
	slot int
	old  span
}

// loopState is a loop's progress in regexp2's terms: mark is where the
// current iteration began (-1 before the first of a loop that may run
// zero times), count the iterations so far, counted from 1-min so that it
// reaches 0 when the minimum is met (counted loops only).
type loopState struct{ mark, count int }

// frame is one entry of the backtracking stack. track is how many ints
// regexp2's runner would hold on its own backtracking stack for the same
// step (see program.trackLimit). A frame holds no pointers and positions
// as int32 (a text is far shorter than 2^31 runes): pushes are the
// matcher's commonest writes, and a stack of plain numbers costs them no
// write barrier and the collector nothing to scan.
type frame struct {
	kind  frameKind
	track uint8
	n     int32 // the node, by its index in the program (node.idx)
	pos   int32
	a, b  int32
}

type frameKind uint8

const (
	frAlt          frameKind = iota // try the alternatives of n from index a (of its candidates) at pos
	frCharLoop                      // greedy loop n: give back one character from pos, where a were taken
	frLazyCharLoop                  // lazy loop n: take one more character at pos, a taken so far
	frRestoreLoop                   // loops[n.id] = {a, b}
	frRestoreOpen                   // open[a] = b
	frUndoCaps                      // undo the captures logged from a on
	frLoopExit                      // greedy loop n: restore state {a, b}, leave it at pos
	frCountedExit                   // greedy counted loop n: restore {a, b}, leave at pos if b >= 0
	frLazyIterate                   // lazy loop n: try one more iteration at pos, state {a, b}
	frTrack                         // nothing to undo: only regexp2's stack use
)

// workSpent is the panic that stops a run whose steps passed the limit.
type workSpent struct{}

// matchAt reports whether p matches text at pos; the captures are then in
// m.caps, the whole match in m.caps[0].
func (m *machine) matchAt(p *program, pos int) bool {
	if cap(m.caps) < p.slots {
		m.caps = make([]span, p.slots)
		m.open = make([]int, p.slots)
	}
	m.caps, m.open = m.caps[:p.slots], m.open[:p.slots]
	for i := range m.caps {
		m.caps[i] = span{-1, -1}
	}
	if cap(m.loops) < p.loops {
		m.loops = make([]loopState, p.loops)
	}
	m.loops = m.loops[:p.loops]
	m.log = m.log[:0]
	m.stack = m.stack[:0]
	m.start = pos
	m.nodes = p.nodes
	// regexp2's program starts with a Lazybranch.
	m.prog = p
	m.track, m.trackHigh, m.trackExact = 2, p.trackBound*7/8, false
	matched, deep := m.runTop(p, pos)
	if deep {
		return m.exact(p, pos)
	}
	if !matched {
		return false
	}
	m.caps[0] = span{pos, m.matchEnd}
	return true
}

// runTop runs p, noting whether the attempt came near regexp2's stack
// limit.
func (m *machine) runTop(p *program, pos int) (matched, deep bool) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(deepStack); !ok {
				panic(v)
			}
			deep = true
		}
	}()
	return m.run(p.start, pos), false
}

// exact decides an attempt that would take regexp2 near the limit of its
// backtracking stack, where regexp2 gives up and chroma takes the rule
// not to match, by running regexp2 itself (without a timeout: the result
// depends on the text alone). It counts as much work as the text left to
// scan.
func (m *machine) exact(p *program, pos int) bool {
	m.steps += int64(m.end - pos)
	if m.steps > m.limit {
		panic(workSpent{})
	}
	re, err := p.re()
	if err != nil {
		return false
	}
	match, err := re.FindRunesMatchStartingAt(m.text, pos)
	if err != nil || match == nil || match.RuneIndex != pos {
		return false
	}
	for i, g := range match.Groups() {
		if i >= len(m.caps) {
			break
		}
		if len(g.Captures) == 0 {
			m.caps[i] = span{-1, -1}
		} else {
			m.caps[i] = span{g.RuneIndex, g.RuneIndex + g.RuneLength}
		}
	}
	return true
}

// test reports whether c passes a single-character node.
func (n *node) test(c rune) bool {
	switch n.kind {
	case kindOne:
		return c == n.ch
	case kindNotone:
		return c != n.ch
	}
	if c < utf8RuneSelf {
		return n.ascii[c>>6]&(1<<(c&63)) != 0
	}
	return n.set.Contains(c)
}

// push pushes f, for which regexp2 would hold track ints.
func (m *machine) push(f frame, track int) {
	f.track = uint8(track)
	m.stack = append(m.stack, f)
	m.track += track
	if m.track > m.trackHigh {
		m.deepen()
	}
}

// deepen is called when the stack estimate passes trackHigh: it hands
// the attempt to regexp2, once the limit is the program's own.
func (m *machine) deepen() {
	if !m.trackExact {
		m.trackExact = true
		m.trackHigh = m.prog.trackLimit() * 7 / 8
		if m.track <= m.trackHigh {
			return
		}
	}
	panic(deepStack{})
}

// run matches from n at pos until a node ends the match (opMatch) or the
// body it runs (opSubEnd): true; or until every choice made since it was
// called has failed: false, with the stack as it found it.
func (m *machine) run(n *node, pos int) bool {
	text, end := m.text, m.end
	base := len(m.stack)
next:
	for {
		m.steps++
		if m.steps > m.limit {
			panic(workSpent{})
		}
		switch n.op {
		case opChar:
			if n.rtl {
				if pos == 0 || !n.test(text[pos-1]) {
					goto fail
				}
				pos--
			} else {
				if pos >= end || !n.test(text[pos]) {
					goto fail
				}
				pos++
			}
			n = n.next
			continue

		case opMulti:
			k := len(n.str)
			at := pos
			if n.rtl {
				at = pos - k
			}
			if at < 0 || at+k > end || !m.equalAt(n.str, at, n.ci) {
				goto fail
			}
			if n.rtl {
				pos = at
			} else {
				pos = at + k
			}
			n = n.next
			continue

		case opRef:
			c := m.caps[n.id]
			if c.start < 0 {
				goto fail // regexp2 outside ECMAScript mode
			}
			k := c.end - c.start
			at := pos
			if n.rtl {
				at = pos - k
			}
			if at < 0 || at+k > end || !m.refEqual(c.start, at, k, n.ci) {
				goto fail
			}
			if n.rtl {
				pos = at
			} else {
				pos = at + k
			}
			n = n.next
			continue

		case opBol:
			if pos > 0 && text[pos-1] != '\n' {
				goto fail
			}
			n = n.next
			continue
		case opEol:
			if pos < end && text[pos] != '\n' {
				goto fail
			}
			n = n.next
			continue
		case opBoundary:
			if !m.boundary(pos) {
				goto fail
			}
			n = n.next
			continue
		case opNonboundary:
			if m.boundary(pos) {
				goto fail
			}
			n = n.next
			continue
		case opBeginning:
			if pos != 0 {
				goto fail
			}
			n = n.next
			continue
		case opStart:
			if pos != m.start {
				goto fail
			}
			n = n.next
			continue
		case opEndZ:
			if pos != end && (pos != end-1 || text[pos] != '\n') {
				goto fail
			}
			n = n.next
			continue
		case opEnd:
			if pos != end {
				goto fail
			}
			n = n.next
			continue

		case opCharLoop:
			if n.lazy {
				p, ok := m.scan(n, pos, n.min)
				if !ok {
					goto fail
				}
				if n.max > n.min {
					m.push(frame{kind: frLazyCharLoop, n: n.idx, pos: int32(p), a: int32(n.min)}, 3)
				}
				if !m.hopeful(n, p) {
					goto fail
				}
				pos, n = p, n.next
				continue
			}
			p, _ := m.scan(n, pos, n.max)
			count := m.moved(pos, p, n.rtl)
			if count < n.min {
				goto fail
			}
			if n.atomic {
				pos, n = p, n.next
				continue
			}
			if count > n.min {
				m.push(frame{kind: frCharLoop, n: n.idx, pos: int32(p), a: int32(count)}, 3)
			}
			if !m.hopeful(n, p) {
				goto fail
			}
			pos, n = p, n.next
			continue

		case opAlt:
			if b, ok := m.alternative(n, pos, 0); ok {
				n = b
				continue
			}
			goto fail

		case opLoop:
			m.push(frame{kind: frRestoreLoop, n: n.idx, a: int32(m.loops[n.id].mark), b: int32(m.loops[n.id].count)}, 1)
			switch {
			case n.min == 0:
				m.loops[n.id] = loopState{mark: -1, count: 0}
				n = n.tail
			case n.counted:
				m.loops[n.id] = loopState{mark: pos, count: 1 - n.min}
				n = n.body
			default:
				m.loops[n.id] = loopState{mark: pos}
				n = n.body
			}
			continue

		case opLoopEnd:
			loop := n.loop
			st := m.loops[loop.id]
			switch {
			case !loop.counted && !loop.lazy:
				// After a nonempty iteration try another, then leave;
				// after an empty one only leave.
				if pos != st.mark {
					m.push(frame{kind: frLoopExit, n: loop.idx, pos: int32(pos), a: int32(st.mark), b: int32(st.count)}, 3)
					m.loops[loop.id] = loopState{mark: pos}
					n = loop.body
				} else {
					m.push(frame{kind: frTrack}, 2)
					n = loop.next
				}
			case !loop.counted:
				m.push(frame{kind: frLazyIterate, n: loop.idx, pos: int32(pos), a: int32(st.mark), b: int32(st.count)}, 3)
				n = loop.next
			case !loop.lazy:
				if st.count >= loop.limit() || (pos == st.mark && st.count >= 0) {
					m.push(frame{kind: frTrack}, 3)
					n = loop.next
				} else {
					m.push(frame{kind: frCountedExit, n: loop.idx, pos: int32(pos), a: int32(st.mark), b: int32(st.count)}, 2)
					m.loops[loop.id] = loopState{mark: pos, count: st.count + 1}
					n = loop.body
				}
			default:
				if st.count < 0 {
					m.push(frame{kind: frRestoreLoop, n: loop.idx, a: int32(st.mark), b: int32(st.count)}, 2)
					m.loops[loop.id] = loopState{mark: pos, count: st.count + 1}
					n = loop.body
				} else {
					m.push(frame{kind: frLazyIterate, n: loop.idx, pos: int32(pos), a: int32(st.mark), b: int32(st.count)}, 4)
					n = loop.next
				}
			}
			continue

		case opCapOpen:
			m.push(frame{kind: frRestoreOpen, a: int32(n.id), b: int32(m.open[n.id])}, 1)
			m.open[n.id] = pos
			n = n.next
			continue

		case opCapClose:
			s, e := m.open[n.id], pos
			if e < s {
				s, e = e, s
			}
			m.push(frame{kind: frUndoCaps, a: int32(len(m.log))}, 2)
			m.log = append(m.log, capUndo{n.id, m.caps[n.id]})
			m.caps[n.id] = span{s, e}
			n = n.next
			continue

		case opLook, opAtomic:
			// The body runs on its own and is not backtracked into: its
			// first match stands, with its captures, which a failure
			// later undoes.
			// regexp2 holds a Setjump and a Setmark or Lazybranch while
			// the body runs, and two ints after it.
			mark, height, track := len(m.log), len(m.stack), m.track
			switch {
			case n.op == opAtomic:
				m.track++
			case n.neg:
				m.track += 3
			default:
				m.track += 2
			}
			matched := m.run(n.body, pos)
			if matched {
				m.stack = m.stack[:height]
			}
			m.track = track
			if n.op == opLook && n.neg {
				if matched {
					m.undo(mark)
					goto fail
				}
				m.push(frame{kind: frTrack}, 2)
				n = n.next
				continue
			}
			if !matched {
				goto fail
			}
			m.push(frame{kind: frUndoCaps, a: int32(mark)}, 2)
			if n.op == opAtomic {
				pos = m.subPos
			}
			n = n.next
			continue

		case opSubEnd:
			m.subPos = pos
			return true
		case opMatch:
			m.matchEnd = pos
			return true
		default: // opFail
			goto fail
		}

	fail:
		for {
			if len(m.stack) == base {
				return false
			}
			m.steps++
			f := m.stack[len(m.stack)-1]
			m.stack = m.stack[:len(m.stack)-1]
			m.track -= int(f.track)
			switch f.kind {
			case frRestoreLoop:
				m.loops[m.nodes[f.n].id] = loopState{int(f.a), int(f.b)}
			case frRestoreOpen:
				m.open[int(f.a)] = int(f.b)
			case frUndoCaps:
				m.undo(int(f.a))
			case frAlt:
				if b, ok := m.alternative(m.nodes[f.n], int(f.pos), int(f.a)); ok {
					n, pos = b, int(f.pos)
					continue next
				}
			case frCharLoop:
				if p, ok := m.giveBack(f); ok {
					n, pos = m.nodes[f.n].next, p
					continue next
				}
			case frLazyCharLoop:
				if p, ok := m.takeMore(f); ok {
					n, pos = m.nodes[f.n].next, p
					continue next
				}
			case frLoopExit:
				m.loops[m.nodes[f.n].id] = loopState{int(f.a), int(f.b)}
				n, pos = m.nodes[f.n].next, int(f.pos)
				continue next
			case frCountedExit:
				m.loops[m.nodes[f.n].id] = loopState{int(f.a), int(f.b)}
				if f.b >= 0 {
					n, pos = m.nodes[f.n].next, int(f.pos)
					continue next
				}
			case frLazyIterate:
				loop := m.nodes[f.n]
				if f.pos == f.a || (loop.counted && int(f.b) >= loop.limit()) {
					continue
				}
				if loop.counted {
					m.push(frame{kind: frRestoreLoop, n: loop.idx, a: f.a, b: f.b}, 2)
				} else {
					m.push(frame{kind: frRestoreLoop, n: loop.idx, a: f.a, b: f.b}, 3)
				}
				if loop.counted {
					m.loops[loop.id] = loopState{mark: int(f.pos), count: int(f.b) + 1}
				} else {
					m.loops[loop.id] = loopState{mark: int(f.pos)}
				}
				n, pos = loop.body, int(f.pos)
				continue next
			}
		}
	}
}

// giveBack resumes a greedy character loop with one character fewer, or
// as many fewer as it takes for what follows to be able to start; it
// pushes the frame for the next time.
func (m *machine) giveBack(f frame) (int, bool) {
	n, count, p := m.nodes[f.n], int(f.a), int(f.pos)
	for {
		count--
		if n.rtl {
			p++
		} else {
			p--
		}
		if m.hopeful(n, p) {
			if count > n.min {
				m.push(frame{kind: frCharLoop, n: n.idx, pos: int32(p), a: int32(count)}, 3)
			}
			return p, true
		}
		if count == n.min {
			return 0, false
		}
		m.steps++
	}
}

// takeMore resumes a lazy character loop with one character more, if the
// next one passes, and pushes the frame for the next time.
func (m *machine) takeMore(f frame) (int, bool) {
	n, p := m.nodes[f.n], int(f.pos)
	for count := int(f.a); count < n.max; {
		if n.rtl {
			if p == 0 || !n.test(m.text[p-1]) {
				return 0, false
			}
			p--
		} else {
			if p >= m.end || !n.test(m.text[p]) {
				return 0, false
			}
			p++
		}
		count++
		if m.hopeful(n, p) {
			if count < n.max {
				m.push(frame{kind: frLazyCharLoop, n: n.idx, pos: int32(p), a: int32(count)}, 3)
			}
			return p, true
		}
		m.steps++
	}
	return 0, false
}

// alternative returns the first branch of alternation n, from index i of
// its candidates at pos, that may match there, and pushes a frame to try
// the rest later.
func (m *machine) alternative(n *node, pos, i int) (*node, bool) {
	c := rune(-1)
	if !n.rtl && pos < m.end {
		c = m.text[pos]
	}
	if n.byChar != nil && c >= 0 && c < utf8RuneSelf {
		list := n.byChar[c]
		next := rune(-1)
		if pos+1 < m.end {
			next = m.text[pos+1]
		}
		for ; i < len(list); i++ {
			b := list[i]
			if next >= 0 && !n.branchSecond[b].may(next) {
				continue
			}
			if i+1 < len(list) {
				m.push(frame{kind: frAlt, n: n.idx, pos: int32(pos), a: int32(i + 1)}, 2)
			}
			return n.branches[b], true
		}
		return nil, false
	}
	for ; i < len(n.branches); i++ {
		if c >= 0 && !n.branchFirst[i].may(c) {
			continue
		}
		if i+1 < len(n.branches) {
			m.push(frame{kind: frAlt, n: n.idx, pos: int32(pos), a: int32(i + 1)}, 2)
		}
		return n.branches[i], true
	}
	return nil, false
}

// limit is how many iterations past the minimum a counted loop may run.
func (n *node) limit() int {
	if n.max == maxInt32 {
		return maxInt32
	}
	return n.max - n.min
}

const maxInt32 = 1<<31 - 1

// hopeful says whether what follows a character loop could start at p: a
// greedy loop gives back one character at a time, and most positions can
// be skipped without trying the rest of the pattern.
func (m *machine) hopeful(n *node, p int) bool {
	return !n.hasNextFirst || p >= m.end || n.nextFirst.may(m.text[p])
}

// scan takes up to max characters that pass n from pos and returns where
// it stopped, and whether it took max of them.
func (m *machine) scan(n *node, pos, max int) (int, bool) {
	text := m.text
	p := pos
	if n.rtl {
		lo := 0
		if max < pos {
			lo = pos - max
		}
		for p > lo && n.test(text[p-1]) {
			p--
		}
		m.steps += int64(pos - p)
		return p, pos-p == max
	}
	hi := m.end
	if max < hi-pos {
		hi = pos + max
	}
	switch n.kind {
	case kindOne:
		for p < hi && text[p] == n.ch {
			p++
		}
	case kindNotone:
		for p < hi && text[p] != n.ch {
			p++
		}
	default:
		for p < hi {
			c := text[p]
			if c < utf8RuneSelf {
				if n.ascii[c>>6]&(1<<(c&63)) == 0 {
					break
				}
			} else if !n.set.Contains(c) {
				break
			}
			p++
		}
	}
	m.steps += int64(p - pos)
	if m.steps > m.limit {
		panic(workSpent{})
	}
	return p, p-pos == max
}

func (m *machine) moved(from, to int, rtl bool) int {
	if rtl {
		return from - to
	}
	return to - from
}

// undo takes back the captures made since the log held mark entries.
func (m *machine) undo(mark int) {
	for i := len(m.log) - 1; i >= mark; i-- {
		m.caps[m.log[i].slot] = m.log[i].old
	}
	m.log = m.log[:mark]
}

// equalAt compares str with the text at at, as regexp2's runematch does:
// with ci, the text is lowercased first (str already is).
func (m *machine) equalAt(str []rune, at int, ci bool) bool {
	text := m.text[at : at+len(str)]
	m.steps += int64(len(str) >> 3)
	if !ci {
		for i, c := range str {
			if text[i] != c {
				return false
			}
		}
		return true
	}
	for i, c := range str {
		if lower(text[i]) != c {
			return false
		}
	}
	return true
}

// refEqual compares the captured text at from with the text at at, as
// regexp2's refmatch does.
func (m *machine) refEqual(from, at, k int, ci bool) bool {
	m.steps += int64(k >> 3)
	for i := 0; i < k; i++ {
		a, b := m.text[from+i], m.text[at+i]
		if a == b {
			continue
		}
		if !ci {
			return false
		}
		if uint32(a|b) <= 0x7f {
			f := a | 0x20
			if f < 'a' || f > 'z' || f != b|0x20 {
				return false
			}
			continue
		}
		if !syntax.IsCaseEquivalent(a, b, 0) {
			return false
		}
	}
	return true
}

// boundary is regexp2's \b: a word character on exactly one side.
func (m *machine) boundary(pos int) bool {
	return (pos > 0 && isWordChar(m.text[pos-1])) != (pos < m.end && isWordChar(m.text[pos]))
}

var asciiWord = func() (t [utf8RuneSelf]bool) {
	for c := range t {
		t[c] = syntax.IsWordChar(rune(c))
	}
	return t
}()

func isWordChar(c rune) bool {
	if c < utf8RuneSelf {
		return asciiWord[c]
	}
	return syntax.IsWordChar(c)
}
