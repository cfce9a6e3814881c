package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/piexport/piexport/session"
)

// What a later read needs to tell whether a file only grew: the hash of
// its first headBytes and of the seamBytes before the point reading
// stopped. pi only ever appends whole lines to a session file; a rewrite
// (a migration, a fork written over it) changes its head.
const (
	headBytes = 64 << 10
	seamBytes = 4 << 10
)

// progress is where reading a file stopped, and what continuing needs.
type progress struct {
	// Sum is the SHA-256 of the whole file as read.
	Sum [32]byte
	// ReadSize is the offset just past the last complete line, and Lines
	// the number of complete lines before it. Reading continues there.
	ReadSize int64
	Lines    int
	// State is the SHA-256 state after ReadSize bytes, so the hash of a
	// grown file is computed from the new bytes alone.
	State []byte
	// Anchor is the hash of the head and of the seam before ReadSize.
	Anchor [32]byte
}

// tracker passes a file's bytes through to the session loader and keeps,
// as they pass, their hash, where each line starts, and the head and seam
// of the file.
type tracker struct {
	r    io.Reader
	h    hash.Hash
	pos  int64 // bytes seen, counted from the start of the file
	line int   // complete lines seen
	// starts[i] is where line base+i+1 starts: the first entry is where
	// this tracker started.
	starts []int64
	head   []byte
	// ring holds the last seamBytes seen; seam is its content at the last
	// newline.
	ring     []byte
	seam     []byte
	readSize int64
	state    []byte
	// startState is the hash's state where the tracker started.
	startState []byte
}

func newTracker(r io.Reader, from int64, lines int, h hash.Hash) *tracker {
	t := &tracker{r: r, h: h, pos: from, line: lines, starts: []int64{from}, readSize: from}
	if from == 0 {
		t.head = make([]byte, 0, headBytes)
	}
	return t
}

func (t *tracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.take(p[:n])
	}
	return n, err
}

func (t *tracker) take(b []byte) {
	if t.head != nil && len(t.head) < headBytes {
		t.head = append(t.head, b[:min(len(b), headBytes-len(t.head))]...)
	}
	last := bytes.LastIndexByte(b, '\n')
	if last >= 0 {
		for i := 0; i <= last; {
			j := bytes.IndexByte(b[i:last+1], '\n')
			i += j + 1
			t.line++
			t.starts = append(t.starts, t.pos+int64(i))
		}
		t.h.Write(b[:last+1])
		t.keep(b[:last+1])
		t.readSize = t.pos + int64(last) + 1
		t.state = marshalHash(t.h)
		t.seam = append(t.seam[:0], t.ring...)
		t.h.Write(b[last+1:])
		t.keep(b[last+1:])
	} else {
		t.h.Write(b)
		t.keep(b)
	}
	t.pos += int64(len(b))
}

// keep adds b to the ring of the last seamBytes seen.
func (t *tracker) keep(b []byte) {
	if len(b) >= seamBytes {
		t.ring = append(t.ring[:0], b[len(b)-seamBytes:]...)
		return
	}
	if over := len(t.ring) + len(b) - seamBytes; over > 0 {
		t.ring = append(t.ring[:0], t.ring[over:]...)
	}
	t.ring = append(t.ring, b...)
}

// progress returns what was read. head is the file's first bytes when the
// tracker did not start at the beginning of the file.
func (t *tracker) progress(head []byte) progress {
	if head == nil {
		head = t.head
	}
	p := progress{ReadSize: t.readSize, Lines: t.line, State: t.state}
	copy(p.Sum[:], t.h.Sum(nil))
	if p.State == nil {
		// No newline met: continuing starts over from where this read
		// started, so the state is the one it started with.
		p.State = t.startState
	}
	p.Anchor = anchorOf(head[:min(len(head), int(p.ReadSize))], t.seam)
	return p
}

func anchorOf(head, seam []byte) [32]byte {
	h := sha256.New()
	h.Write(head)
	h.Write(seam)
	var a [32]byte
	copy(a[:], h.Sum(nil))
	return a
}

func marshalHash(h hash.Hash) []byte {
	b, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		// crypto/sha256 always can.
		panic(err)
	}
	return b
}

// readFull reads a whole session file.
func readFull(r io.Reader, name string) (*session.Session, *tracker, error) {
	t := newTracker(r, 0, 0, sha256.New())
	t.startState = marshalHash(t.h)
	// The loader reads to the end of the file. Nothing is read after it: a
	// line written meanwhile would be counted but not loaded.
	s, err := session.Read(t, name)
	return s, t, err
}

// errNotAppended says a file did not only grow since it was read: it has
// to be read again from its start.
var errNotAppended = errors.New("the file changed before the point it was read to")

// readAppended reads what was appended to a file since it was read up to
// old. It checks first that the head and the seam are as they were. The
// lines are read as a session made of the file's header line and the new
// lines, so entries come out exactly as a whole read makes them; their
// Line fields are the file's line numbers.
func readAppended(f io.ReaderAt, size int64, old *fileRow, name string) (*session.Session, *tracker, []byte, error) {
	if old.Header == nil || old.Tail != 0 || size < old.ReadSize || old.State == nil {
		return nil, nil, nil, errNotAppended
	}
	// The head is read as far as the file now goes: the next anchor
	// covers more of it when the file was shorter than headBytes.
	head := make([]byte, min(headBytes, size))
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, nil, nil, err
	}
	seam := make([]byte, min(seamBytes, old.ReadSize))
	if _, err := f.ReadAt(seam, old.ReadSize-int64(len(seam))); err != nil {
		return nil, nil, nil, err
	}
	if anchorOf(head[:min(headBytes, old.ReadSize)], seam) != old.Anchor || seam[len(seam)-1] != '\n' {
		return nil, nil, nil, errNotAppended
	}
	h := sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(old.State); err != nil {
		return nil, nil, nil, errNotAppended
	}
	t := newTracker(io.NewSectionReader(f, old.ReadSize, size-old.ReadSize), old.ReadSize, old.Lines, h)
	t.startState = old.State
	t.ring = append(t.ring, seam...)
	t.seam = append(t.seam, seam...)
	// The header line ends in its newline; the loader numbers it line 1.
	s, err := session.Read(io.MultiReader(bytes.NewReader(old.Header), t), name)
	if err != nil {
		if t.line == old.Lines && errors.Is(err, session.ErrNotSession) {
			// Nothing but the start of a line was added.
			return nil, t, head, nil
		}
		return nil, nil, nil, fmt.Errorf("%w: %v", errNotAppended, err)
	}
	shift := old.Lines - 1
	for _, e := range s.Entries {
		e.Line += shift
	}
	return s, t, head, nil
}
