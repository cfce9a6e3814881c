package session

import (
	"encoding/json"
	"unsafe"
)

// Compact packs the session's bulky text (message and tool text, tool
// arguments, details, command output, summaries, raw JSON) into a few
// large blocks of memory, and returns how many bytes they hold. The
// strings are the same; the session is not changed otherwise.
//
// A decoded session holds its text as tens of thousands of separate
// strings, each rounded up to an allocation size (about a sixth more in
// all, on a code-heavy session) and each an object for the collector to
// track. Packed, the text takes its own length, in objects the collector
// does not look into. A caller that keeps the session for one export
// (piexport's command line) compacts it after loading and redacting.
//
// Strings that point into a block keep the whole block alive: a caller
// that keeps a few strings of many sessions (a catalog) should not
// compact, or should clone what it keeps. Fields may still be set to
// other strings afterwards.
func (s *Session) Compact() int64 {
	var a arena
	for _, e := range s.Entries {
		a.str(&e.Summary)
		a.str(&e.ShortSummary)
		a.raw(&e.Details)
		a.raw(&e.Raw)
		a.blocks(e.Content)
		a.message(e.Message)
		a.message(e.SystemMessage)
	}
	return a.total
}

// arena hands out room in blocks of up to arenaBlock bytes; a string
// larger than arenaLarge gets a block of its own.
type arena struct {
	block []byte
	total int64
}

const (
	arenaBlock = 1 << 20
	arenaFirst = 16 << 10
	arenaLarge = arenaBlock / 4
	// arenaSmall: shorter strings stay where they are; ids and names
	// are many and cost little.
	arenaSmall = 64
)

func (a *arena) place(n int) []byte {
	if n > arenaLarge {
		a.total += int64(n)
		return make([]byte, n)
	}
	if len(a.block)+n > cap(a.block) {
		// Blocks grow from arenaFirst to arenaBlock, so that a session of
		// a few lines (a search's snippet reads one) is not handed a
		// megabyte.
		size := min(arenaBlock, max(arenaFirst, 2*cap(a.block), n))
		a.block = make([]byte, 0, size)
	}
	at := len(a.block)
	a.block = a.block[:at+n]
	a.total += int64(n)
	return a.block[at : at+n : at+n]
}

func (a *arena) str(s *string) {
	if len(*s) < arenaSmall {
		return
	}
	b := a.place(len(*s))
	copy(b, *s)
	*s = unsafe.String(unsafe.SliceData(b), len(b))
}

func (a *arena) raw(r *json.RawMessage) {
	if len(*r) < arenaSmall {
		return
	}
	b := a.place(len(*r))
	copy(b, *r)
	*r = b
}

func (a *arena) blocks(bs []Block) {
	for i := range bs {
		b := &bs[i]
		a.str(&b.Text)
		a.raw(&b.Arguments)
		a.str(&b.Data)
		a.raw(&b.Raw)
	}
}

func (a *arena) message(m *Message) {
	if m == nil {
		return
	}
	a.blocks(m.Content)
	a.raw(&m.Details)
	a.str(&m.Output)
	a.str(&m.Command)
	a.str(&m.Summary)
	a.str(&m.ErrorMessage)
	for i := range m.Sections {
		a.str(&m.Sections[i].Text)
	}
}
