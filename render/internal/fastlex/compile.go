package fastlex

import (
	"fmt"
	"math"
	"sync"
	"unicode"

	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// A rule's regular expression is run by fastlex's own matcher (match.go),
// not by regexp2's interpreter. It is compiled here from the tree that
// regexp2's parser makes of the pattern, so the two agree on what the
// pattern means (classes, case folding, group numbers); the matcher
// follows regexp2's backtracking rules for running it (alternatives and
// loop iterations tried in the same order, an empty iteration ends a loop
// as regexp2's Branchmark and Branchcount do, lookarounds and atomic
// groups that are not backtracked into, lookbehind run right to left).
// What it adds: it counts its steps, so a block of text is cut after a
// fixed amount of work rather than of time, and it is several times
// faster (see BenchmarkLexGenerated).

// op is what a node does.
type op uint8

const (
	opChar     op = iota // one character: ch, a class or not ch (kind)
	opMulti              // a string
	opRef                // a backreference to slot
	opBol                // ^ in multiline mode
	opEol                // $ in multiline mode
	opBoundary           // \b
	opNonboundary
	opBeginning // \A
	opStart     // \G
	opEndZ      // \Z, and $ without multiline
	opEnd       // \z
	opCharLoop  // a loop of one character: kind, min, max, lazy, atomic
	opAlt       // alternatives, tried in order
	opLoop      // a loop of body: min, max, lazy; its state in loops[id]
	opLoopEnd   // the end of one iteration of loop
	opCapOpen   // the start of group slot
	opCapClose  // the end of group slot
	opLook      // a lookaround: body, neg; behind when body runs right to left
	opAtomic    // an atomic group: body
	opSubEnd    // where a lookaround's or atomic group's body ends
	opMatch     // the whole pattern matched
	opFail      // matches nothing
)

// Kinds of single-character test, for opChar and opCharLoop.
const (
	kindOne    = iota // the character ch
	kindNotone        // any character but ch
	kindSet           // a character in set
)

// node is one step of a compiled pattern. Sequences are linked through
// next; alternatives, loop bodies and groups are sub-sequences that end by
// linking back (to the alternation's next, to the loop's end node, to a
// subEnd).
type node struct {
	op   op
	rtl  bool  // consumes right to left (inside a lookbehind)
	idx  int32 // in program.nodes
	next *node

	// opChar, opCharLoop
	kind  uint8
	ch    rune
	set   *syntax.CharSet
	ascii [2]uint64 // kindSet: which ASCII characters are in set

	// opMulti
	str []rune
	ci  bool // compare with the text lowercased (opMulti, opRef)

	// loops
	min, max     int
	lazy, atomic bool
	counted      bool // regexp2's Branchcount form (see opLoopEnd)
	body         *node
	tail         *node // opLoop: its opLoopEnd
	loop         *node // opLoopEnd: its loop
	id           int   // opLoop, opLoopEnd: index of the loop's state; opRef, opCap*: the capture slot
	neg          bool  // opLook: negative
	behind       bool  // opLook: lookbehind
	branches     []*node
	branchFirst  []charFilter // per branch: what it can start with
	// For an alternation of many branches: by ASCII character, the
	// branches that can start with it, and per branch what its second
	// character can be (any when it is not known).
	byChar       *[utf8RuneSelf][]int32
	branchSecond []charFilter
	nextFirst    charFilter // opCharLoop: what next can start with, to skip hopeless backtracking
	hasNextFirst bool
}

// program is one compiled pattern.
type program struct {
	start *node
	nodes []*node // every node, by idx
	slots int     // capture slots, group 0 included
	loops int     // opLoop nodes
	first charFilter
	// regexp2 gives up on a match (and chroma then takes the rule not to
	// match) when its backtracking stack outgrows 100,000 ints less four
	// per backtracking instruction; the machine keeps an estimate of
	// that stack (see frame.track) and, when it comes near trackLimit,
	// leaves the attempt to re (see machine.exact).
	//
	// The number of those instructions is known only by writing
	// regexp2's program, which costs more than the rest of compiling a
	// pattern, and few attempts ever come near the limit: the machine
	// starts from trackBound, a limit no higher than trackLimit (from
	// trackCountBound), and asks for trackLimit only past it.
	trackBound int
	trackLimit func() int
	// re is the rule as regexp2 runs it, compiled only for the rare
	// attempt exact hands over.
	re func() (*regexp2.Regexp, error)
}

// regexp2's default MaxBacktrackingStackSize.
const regexp2StackSize = 100000

// compileError says which construct the matcher does not run.
type compileError struct{ what string }

func (e compileError) Error() string {
	return "fastlex: unsupported regular expression construct: " + e.what
}

// compileProgram compiles a pattern as regexp2.Compile would parse it.
func compileProgram(pattern string) (*program, error) {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil {
		return nil, err
	}
	c := &compiler{tree: tree}
	c.slots = tree.Captop
	if tree.Capnumlist != nil && tree.Captop != len(tree.Capnumlist) {
		c.slots = len(tree.Capnumlist)
		c.slotOf = map[int]int{}
		for i, n := range tree.Capnumlist {
			c.slotOf[n] = i
		}
	}
	match := &node{op: opMatch}
	root := tree.Root
	// The whole match is group 0, which matchAt records itself.
	if root.T == syntax.NtCapture && root.M == 0 && root.N == -1 && len(root.Children) == 1 {
		root = root.Children[0]
	}
	start, err := c.compile(root, match)
	if err != nil {
		return nil, err
	}
	p := &program{start: start, slots: c.slots, loops: c.loops,
		trackBound: regexp2StackSize - 4*trackCountBound(tree.Root),
		trackLimit: sync.OnceValue(func() int { return regexp2StackSize - 4*trackCount(pattern) }),
		re:         sync.OnceValues(func() (*regexp2.Regexp, error) { return regexp2.Compile(pattern) })}
	p.first = firstOf(start, map[*node]charFilter{})
	p.nodes = numberNodes(start)
	return p, nil
}

// trackCount is the number of backtracking instructions in regexp2's
// program for pattern, which compileProgram has parsed before.
func trackCount(pattern string) int {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil {
		panic(err)
	}
	code, err := syntax.Write(tree)
	if err != nil {
		panic(err)
	}
	return code.TrackCount
}

// trackCountBound is a bound on trackCount for the tree rooted at n:
// regexp2's writer emits at most four instructions for each node it
// visits, once for a leaf and before and after each child of the rest,
// plus two for the whole program. TestEveryLexerRunsOnFastlex holds it
// to every rule of chroma's lexers.
func trackCountBound(n *syntax.RegexNode) int {
	var visits func(*syntax.RegexNode) int
	visits = func(n *syntax.RegexNode) int {
		if len(n.Children) == 0 {
			return 1
		}
		v := 0
		for _, c := range n.Children {
			v += 2 + visits(c)
		}
		return v
	}
	return 2 + 4*visits(n)
}

// numberNodes lists every node reachable from start and sets each one's
// idx to its place in the list.
func numberNodes(start *node) []*node {
	var nodes []*node
	seen := map[*node]bool{}
	stack := []*node{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || seen[n] {
			continue
		}
		seen[n] = true
		n.idx = int32(len(nodes))
		nodes = append(nodes, n)
		stack = append(stack, n.next, n.body, n.tail, n.loop)
		stack = append(stack, n.branches...)
	}
	return nodes
}

type compiler struct {
	tree   *syntax.RegexTree
	slots  int
	slotOf map[int]int // capture number to slot, when the numbers have gaps
	loops  int
}

func (c *compiler) slot(capnum int) int {
	if c.slotOf == nil {
		return capnum
	}
	if s, ok := c.slotOf[capnum]; ok {
		return s
	}
	return -1
}

// compile returns the nodes of n followed by next.
func (c *compiler) compile(n *syntax.RegexNode, next *node) (*node, error) {
	rtl := n.Options&syntax.RightToLeft != 0
	ci := n.Options&syntax.IgnoreCase != 0
	leaf := func(op op) *node { return &node{op: op, rtl: rtl, next: next} }
	switch n.T {
	case syntax.NtOne:
		return c.char(leaf(opChar), kindOne, n), nil
	case syntax.NtNotone:
		return c.char(leaf(opChar), kindNotone, n), nil
	case syntax.NtSet:
		return c.char(leaf(opChar), kindSet, n), nil
	case syntax.NtMulti:
		x := leaf(opMulti)
		x.str, x.ci = n.Str, ci
		return x, nil
	case syntax.NtRef:
		x := leaf(opRef)
		x.id, x.ci = c.slot(n.M), ci
		if x.id < 0 {
			return nil, compileError{"a reference to a missing group"}
		}
		return x, nil
	case syntax.NtBol:
		return leaf(opBol), nil
	case syntax.NtEol:
		return leaf(opEol), nil
	case syntax.NtBoundary:
		return leaf(opBoundary), nil
	case syntax.NtNonboundary:
		return leaf(opNonboundary), nil
	case syntax.NtBeginning:
		return leaf(opBeginning), nil
	case syntax.NtStart:
		return leaf(opStart), nil
	case syntax.NtEndZ:
		return leaf(opEndZ), nil
	case syntax.NtEnd:
		return leaf(opEnd), nil
	case syntax.NtEmpty:
		return next, nil
	case syntax.NtNothing:
		return leaf(opFail), nil
	case syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		return c.charLoop(leaf(opCharLoop), kindOne, n), nil
	case syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
		return c.charLoop(leaf(opCharLoop), kindNotone, n), nil
	case syntax.NtSetloop, syntax.NtSetlazy, syntax.NtSetloopatomic:
		return c.charLoop(leaf(opCharLoop), kindSet, n), nil
	case syntax.NtConcatenate:
		var err error
		for i := len(n.Children) - 1; i >= 0; i-- {
			if next, err = c.compile(n.Children[i], next); err != nil {
				return nil, err
			}
		}
		return next, nil
	case syntax.NtGroup:
		if len(n.Children) != 1 {
			return nil, compileError{"a group with several children"}
		}
		return c.compile(n.Children[0], next)
	case syntax.NtAlternate:
		x := leaf(opAlt)
		for _, child := range n.Children {
			b, err := c.compile(child, next)
			if err != nil {
				return nil, err
			}
			x.branches = append(x.branches, b)
		}
		x.branchFirst = make([]charFilter, len(x.branches))
		memo := map[*node]charFilter{}
		for i, b := range x.branches {
			if rtl {
				x.branchFirst[i] = anyChar
			} else {
				x.branchFirst[i] = firstOf(b, memo)
			}
		}
		if !rtl && len(x.branches) >= manyBranches {
			x.byChar = new([utf8RuneSelf][]int32)
			x.branchSecond = make([]charFilter, len(x.branches))
			for i, b := range x.branches {
				for ch := range utf8RuneSelf {
					if x.branchFirst[i].may(rune(ch)) {
						x.byChar[ch] = append(x.byChar[ch], int32(i))
					}
				}
				x.branchSecond[i] = anyChar
				if b.op == opChar {
					x.branchSecond[i] = firstOf(b.next, memo)
				}
			}
		}
		return x, nil
	case syntax.NtCapture:
		if n.N != -1 {
			return nil, compileError{"a balancing group"}
		}
		s := c.slot(n.M)
		if s < 0 || len(n.Children) != 1 {
			return nil, compileError{"a capture without a slot"}
		}
		closeNode := &node{op: opCapClose, rtl: rtl, next: next, id: s}
		body, err := c.compile(n.Children[0], closeNode)
		if err != nil {
			return nil, err
		}
		return &node{op: opCapOpen, rtl: rtl, next: body, id: s}, nil
	case syntax.NtLoop, syntax.NtLazyloop:
		if len(n.Children) != 1 {
			return nil, compileError{"a loop with several children"}
		}
		x := leaf(opLoop)
		x.min, x.max, x.lazy = n.M, n.N, n.T == syntax.NtLazyloop
		// regexp2 writes a loop with an upper bound or a lower bound
		// above one as Branchcount, any other as Branchmark; the two
		// treat empty iterations a little differently.
		x.counted = n.N < math.MaxInt32 || n.M > 1
		x.id = c.loops
		c.loops++
		end := &node{op: opLoopEnd, rtl: rtl, loop: x}
		body, err := c.compile(n.Children[0], end)
		if err != nil {
			return nil, err
		}
		x.body, x.tail = body, end
		return x, nil
	case syntax.NtPosLook, syntax.NtNegLook:
		if len(n.Children) != 1 {
			return nil, compileError{"a lookaround with several children"}
		}
		body, err := c.compile(n.Children[0], &node{op: opSubEnd})
		if err != nil {
			return nil, err
		}
		x := leaf(opLook)
		x.body, x.neg = body, n.T == syntax.NtNegLook
		x.behind = n.Children[0].Options&syntax.RightToLeft != 0
		return x, nil
	case syntax.NtAtomic:
		if len(n.Children) != 1 {
			return nil, compileError{"an atomic group with several children"}
		}
		body, err := c.compile(n.Children[0], &node{op: opSubEnd})
		if err != nil {
			return nil, err
		}
		x := leaf(opAtomic)
		x.body = body
		return x, nil
	case syntax.NtUpdateBumpalong:
		// Only moves where a search would try next; a rule is tried at
		// one position.
		return next, nil
	}
	return nil, compileError{fmt.Sprintf("node type %d", n.T)}
}

// manyBranches is the size from which an alternation indexes its
// branches by their first character: keyword lists run to hundreds.
const manyBranches = 8

func (c *compiler) char(x *node, kind uint8, n *syntax.RegexNode) *node {
	x.kind, x.ch, x.set = kind, n.Ch, n.Set
	if kind == kindSet {
		x.ascii = asciiOf(n.Set)
	}
	return x
}

func (c *compiler) charLoop(x *node, kind uint8, n *syntax.RegexNode) *node {
	c.char(x, kind, n)
	x.min, x.max = n.M, n.N
	x.lazy = n.T == syntax.NtOnelazy || n.T == syntax.NtNotonelazy || n.T == syntax.NtSetlazy
	x.atomic = n.T == syntax.NtOneloopatomic || n.T == syntax.NtNotoneloopatomic || n.T == syntax.NtSetloopatomic
	if !x.rtl && x.next != nil {
		x.nextFirst = firstOf(x.next, map[*node]charFilter{})
		x.hasNextFirst = !x.nextFirst.any
	}
	return x
}

func asciiOf(set *syntax.CharSet) [2]uint64 {
	var b [2]uint64
	for c := rune(0); c < utf8RuneSelf; c++ {
		if set.Contains(c) {
			b[c>>6] |= 1 << (c & 63)
		}
	}
	return b
}

const utf8RuneSelf = 0x80

// charFilter is what a match can start with: a character whose bit is
// set among the ASCII ones, or any character beyond ASCII when nonASCII;
// any when nothing is known (the match may be empty, or start with a
// backreference).
type charFilter struct {
	any      bool
	ascii    [2]uint64
	nonASCII bool
}

var anyChar = charFilter{any: true}

func (f charFilter) may(c rune) bool {
	switch {
	case f.any:
		return true
	case c < utf8RuneSelf:
		return f.ascii[c>>6]&(1<<(c&63)) != 0
	}
	return f.nonASCII
}

func (f *charFilter) add(g charFilter) {
	f.any = f.any || g.any
	f.ascii[0] |= g.ascii[0]
	f.ascii[1] |= g.ascii[1]
	f.nonASCII = f.nonASCII || g.nonASCII
}

// firstOf says what a match starting at n can start with: the first
// character it consumes, looking through assertions, which consume
// nothing. It only follows forward nodes. memo holds the answers so far:
// sequences share their tails, and alternatives of optional parts would
// otherwise walk them again and again.
func firstOf(n *node, memo map[*node]charFilter) charFilter {
	if f, ok := memo[n]; ok {
		return f
	}
	f := firstOfNode(n, memo)
	memo[n] = f
	return f
}

func firstOfNode(n *node, memo map[*node]charFilter) charFilter {
	if n != nil && n.op == opLook {
		// Consumes nothing: the first character is what follows it.
		// (A lookbehind's node is marked right to left like its body;
		// what follows it runs forward.)
		return firstOf(n.next, memo)
	}
	if n == nil || n.rtl {
		return anyChar
	}
	switch n.op {
	case opChar:
		return charFilterOf(n)
	case opMulti:
		if len(n.str) == 0 {
			return firstOf(n.next, memo)
		}
		if n.ci {
			return anyChar
		}
		return charFilterOf(&node{kind: kindOne, ch: n.str[0]})
	case opCharLoop:
		f := charFilterOf(n)
		if n.min == 0 {
			f.add(firstOf(n.next, memo))
		}
		return f
	case opBol, opEol, opBoundary, opNonboundary, opBeginning, opStart, opEndZ, opEnd,
		opCapOpen, opCapClose:
		return firstOf(n.next, memo)
	case opAlt:
		var f charFilter
		for _, b := range n.branches {
			f.add(firstOf(b, memo))
		}
		return f
	case opLoop:
		f := firstOf(n.body, memo)
		if n.min == 0 {
			f.add(firstOf(n.next, memo))
		}
		return f
	case opLoopEnd:
		// After an iteration comes another or what follows the loop;
		// the body is not known yet while it is being compiled.
		return anyChar
	case opAtomic:
		// A body that may match nothing reaches its subEnd: any.
		return firstOf(n.body, memo)
	case opFail:
		return charFilter{}
	}
	return anyChar // opRef, opSubEnd, opMatch
}

func charFilterOf(n *node) charFilter {
	var f charFilter
	switch n.kind {
	case kindOne:
		if n.ch < utf8RuneSelf {
			f.ascii[n.ch>>6] |= 1 << (n.ch & 63)
		} else {
			f.nonASCII = true
		}
	case kindNotone:
		f.ascii = [2]uint64{^uint64(0), ^uint64(0)}
		if n.ch < utf8RuneSelf {
			f.ascii[n.ch>>6] &^= 1 << (n.ch & 63)
		}
		f.nonASCII = true
	case kindSet:
		f.ascii = n.ascii
		f.nonASCII = true // sets are not inspected beyond ASCII
	}
	return f
}

// lower is the case folding regexp2 compares lowercased strings with.
func lower(r rune) rune { return unicode.ToLower(r) }
