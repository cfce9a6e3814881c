package redact

// automaton finds every occurrence of a set of words in one pass over a
// text (Aho-Corasick), ignoring ASCII case: gitleaks' keyword prefilter,
// and the search for values already known to be secret. Its transitions
// form a full table over the byte classes the words use, so the scan is
// one lookup per byte.
type automaton struct {
	class  [256]uint8 // byte → class; 0 for bytes in no word
	nclass int
	// next maps state*nclass + class to the next state, also times
	// nclass (so the scan needs no multiplication), with the sign bit set
	// where words end there.
	next  []int32
	out   [][]int32 // state → the words that end there
	words []string
}

const ends = -1 << 31 // the sign bit of next

// newAutomaton builds the automaton of words, which are matched ignoring
// ASCII case.
func newAutomaton(words []string) *automaton {
	a := &automaton{words: words}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			c := lower(w[i])
			if a.class[c] == 0 {
				a.nclass++
				a.class[c] = uint8(a.nclass)
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		a.class[c] = a.class[c+'a'-'A']
	}
	a.nclass++ // class 0 too
	n := a.nclass

	// The trie, in the table that becomes the automaton's, -1 for a
	// missing edge; at most one state per byte of the words.
	states := 1
	for _, w := range words {
		states += len(w)
	}
	a.next = make([]int32, states*n)
	for i := range a.next {
		a.next[i] = -1
	}
	a.out = make([][]int32, 1, states)
	used := int32(1)
	for wi, w := range words {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			at := int(s)*n + int(a.class[w[i]])
			if a.next[at] < 0 {
				a.next[at] = used
				used++
				a.out = append(a.out, nil)
			}
			s = a.next[at]
		}
		a.out[s] = append(a.out[s], int32(wi))
	}
	a.next = a.next[:int(used)*n]

	// Breadth first, each state's failure link gives its missing edges
	// and the words it also ends.
	fail := make([]int32, used)
	queue := make([]int32, 0, used)
	for c := 0; c < n; c++ {
		if t := a.next[c]; t >= 0 {
			queue = append(queue, t)
		} else {
			a.next[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if len(a.out[fail[s]]) > 0 {
			a.out[s] = append(a.out[s], a.out[fail[s]]...)
		}
		row, failRow := a.next[int(s)*n:int(s+1)*n], a.next[int(fail[s])*n:int(fail[s]+1)*n]
		for c, t := range row {
			if t < 0 {
				row[c] = failRow[c]
				continue
			}
			fail[t] = failRow[c]
			queue = append(queue, t)
		}
	}
	// What the scan reads: states times nclass, flagged where words end.
	for i, t := range a.next {
		v := t * int32(n)
		if len(a.out[t]) > 0 {
			v |= ends
		}
		a.next[i] = v
	}
	return a
}

// scan calls found for every occurrence of a word in text, in order of
// where they end, with the word's index and the offset just past it.
func (a *automaton) scan(text string, found func(word, end int)) {
	if len(a.words) == 0 {
		return
	}
	n := int32(a.nclass)
	next, class := a.next, &a.class
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = next[s+int32(class[text[i]])]
		if s < 0 {
			s &^= ends
			for _, w := range a.out[s/n] {
				found(int(w), i+1)
			}
		}
	}
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
