package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strings"
	"sync"
	"unique"

	"github.com/piexport/piexport/internal/fileguard"
)

// A lean session: the tree without the text.
//
// Most of a session's bytes are text: messages, thinking, tool arguments
// and outputs. A session loaded lean keeps every entry with its place in
// the tree and its small fields (ids, times, roles, models, usage, tool
// names and call ids, labels), but leaves the text where it is in the file:
// each entry keeps the offset and length of its line (Entry.Offset, Size)
// and a checksum of it, and Full reads and decodes the line again when the
// text is needed. A page is then exported in about the memory of the
// tree, not of the session (see package page).
//
// What a lean entry lacks: the text of its blocks (Block.Text, Data,
// Arguments, Raw), a message's Details, nested calls, output, summary,
// mentioned files, system prompt sections and tools, an entry's Summary,
// Details, Data, Raw and custom content, a compaction's prompt checkpoint (SystemMessage keeps
// only its role, to say there is one), a context edit's replacement (Edit
// keeps Omit), a sub-agent's prompt, task and schema. The functions of this
// package that read an entry's text (Preview, PromptBefore, PromptAt,
// Summarize, Call) read it through Full; CallOf and ToolResult return
// entries and blocks as the session holds them.

// LoadOptions say how a session file is loaded.
type LoadOptions struct {
	// Lean leaves the entries' text in the file, to be read again by Full.
	// The session then keeps the file open until Close.
	Lean bool
	// Progress, when set, is told as the file is read how far reading
	// is: the bytes read, of size (the file's size when it was opened),
	// and the lines read among them, a few times a megabyte. A large
	// file takes seconds.
	Progress func(read, size int64, lines int)
}

// LoadWith is LoadContext with options.
func LoadWith(ctx context.Context, path string, opt LoadOptions) (*Session, error) {
	f, info, err := fileguard.OpenInput(path)
	if err != nil {
		return nil, err
	}
	if !opt.Lean {
		defer f.Close()
		return readContext(ctx, f, path, loadProgress(opt.Progress, info.Size()))
	}
	s, err := readLean(ctx, f, info.Size(), path, loadProgress(opt.Progress, info.Size()))
	if err != nil {
		f.Close()
		return nil, err
	}
	s.lean.closer = f
	return s, nil
}

// loadProgress is what the loader tells of how far it is: progress with
// the file's size, or nil.
func loadProgress(progress func(read, size int64, lines int), size int64) func(read int64, lines int) {
	if progress == nil {
		return nil
	}
	return func(read int64, lines int) { progress(read, size, lines) }
}

// ReadLean reads a session from r lean (see LoadOptions.Lean); r must stay
// readable, and unchanged, as long as the session is used.
func ReadLean(ctx context.Context, r io.ReaderAt, size int64, name string) (*Session, error) {
	return readLean(ctx, r, size, name, nil)
}

func readLean(ctx context.Context, r io.ReaderAt, size int64, name string, progress func(int64, int)) (*Session, error) {
	src := io.NewSectionReader(r, 0, size)
	var rd io.Reader = src
	if ctx.Done() != nil {
		rd = ctxReader{ctx, rd}
	}
	l := loader{s: &Session{File: name}, kinds: map[string]int{}, lean: true, progress: progress}
	if err := l.readLines(bufioReader(rd)); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, l.line, err)
	}
	if err := l.finish(); err != nil {
		return nil, err
	}
	l.s.lean = &leanSource{r: r}
	return l.s, nil
}

// leanSource is where a lean session's text is: its file, open.
type leanSource struct {
	r      io.ReaderAt
	closer io.Closer
	mu     sync.Mutex
	err    error // the first entry that could not be read again
	// recent holds the entries read again last, up to recentBytes of
	// their lines: a page reads a tool call's message for its row, then
	// again for each of its results' rows, one after the other.
	recent      map[*Entry]*Entry
	recentOrder []*Entry
	recentSize  int
}

// recentBytes bounds the lines of the entries a lean session keeps read.
const recentBytes = 1 << 20

// remember keeps full, read again for e, among the recent entries.
func (l *leanSource) remember(e, full *Entry) {
	if e.Size > recentBytes/4 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.recent == nil {
		l.recent = map[*Entry]*Entry{}
	}
	if _, ok := l.recent[e]; ok {
		return
	}
	l.recent[e] = full
	l.recentOrder = append(l.recentOrder, e)
	l.recentSize += e.Size
	for l.recentSize > recentBytes {
		old := l.recentOrder[0]
		l.recentOrder = l.recentOrder[1:]
		l.recentSize -= old.Size
		delete(l.recent, old)
	}
}

// recall returns e read again, if it is among the recent entries.
func (l *leanSource) recall(e *Entry) *Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recent[e]
}

// lineSeed checksums the lines of lean sessions, so that Full notices a
// file changed since it was read.
var lineSeed = maphash.MakeSeed()

// Lean says whether the session was loaded lean: its entries' text is read
// by Full.
func (s *Session) Lean() bool { return s.lean != nil }

// Close lets go of the file a lean session reads its text from; Full
// then returns entries as they are. It does nothing for other sessions.
func (s *Session) Close() error {
	if s.lean == nil || s.lean.closer == nil {
		return nil
	}
	err := s.lean.closer.Close()
	s.lean.closer = nil
	return err
}

// Err returns the first error met reading a lean session's entries again
// (the file changed or went away since it was loaded), wrapped with the
// file and line; nil if there was none. An entry that could not be read
// again is returned by Full without its text, so whatever was made from
// the session while Err is set is incomplete.
func (s *Session) Err() error {
	if s.lean == nil {
		return nil
	}
	s.lean.mu.Lock()
	defer s.lean.mu.Unlock()
	return s.lean.err
}

// ErrChanged reports a session file that changed after it was loaded lean.
var ErrChanged = errors.New("the file changed while it was being read")

// Full returns e with everything the file holds of it. An entry of a lean
// session holds its place in the tree but not its text, which Full reads
// again from the file into a new Entry that shares e's place (parent,
// children, id, label); any other entry is returned as it is. The entries
// Full returns are shared: they must not be changed. Full is safe to call
// from several goroutines.
func (s *Session) Full(e *Entry) *Entry {
	if s.lean == nil || e == nil || e.full || e.Size == 0 {
		return e
	}
	if full := s.lean.recall(e); full != nil {
		return full
	}
	full, err := s.reread(e)
	if err != nil {
		s.lean.mu.Lock()
		if s.lean.err == nil {
			s.lean.err = fmt.Errorf("%s:%d: %w", s.File, e.Line, err)
		}
		s.lean.mu.Unlock()
		return e
	}
	s.lean.remember(e, full)
	return full
}

// lineBuffers hold the lines Full reads: decoding copies what an entry
// keeps out of them.
var lineBuffers = sync.Pool{New: func() any { return new([]byte) }}

func (s *Session) reread(e *Entry) (*Entry, error) {
	buf := lineBuffers.Get().(*[]byte)
	defer lineBuffers.Put(buf)
	if cap(*buf) < e.Size {
		*buf = make([]byte, e.Size)
	}
	line := (*buf)[:e.Size]
	if _, err := s.lean.r.ReadAt(line, e.Offset); err != nil && !(errors.Is(err, io.EOF) && len(line) == e.Size) {
		if errors.Is(err, io.EOF) {
			return nil, ErrChanged
		}
		return nil, err
	}
	if maphash.Bytes(lineSeed, line) != e.sum {
		return nil, ErrChanged
	}
	b := &batch{}
	b.readLine(line, e.Line, bytes.HasSuffix(line, []byte("\n")))
	var o *object
	for i := range b.objects {
		if b.objects[i].part == e.Part {
			o = &b.objects[i]
			break
		}
	}
	if o == nil {
		return nil, ErrChanged
	}
	// The loader's warnings were given when the file was loaded.
	l := loader{s: &Session{File: s.File}, kinds: map[string]int{}}
	fresh := l.entry(o)
	// What the tree and the migrations made of the entry is the shell's.
	fresh.Line, fresh.Part, fresh.Offset, fresh.Size, fresh.sum = e.Line, e.Part, e.Offset, e.Size, e.sum
	fresh.ID, fresh.FileID, fresh.ParentID = e.ID, e.FileID, e.ParentID
	fresh.Parent, fresh.Children, fresh.Label = e.Parent, e.Children, e.Label
	fresh.FirstKeptEntryID = e.FirstKeptEntryID
	fresh.linkedParent, fresh.v1FirstKept, fresh.salvaged = e.linkedParent, e.v1FirstKept, e.salvaged
	fresh.full = true
	if e.Message != nil && fresh.Message != nil {
		fresh.Message.Role = e.Message.Role
	}
	return fresh, nil
}

// slim drops what a lean entry does not keep (see the top of this file)
// from a decoded object.
func (o *object) slim() {
	o.raw = nil
	w := &o.wire
	w.Summary, w.Details = "", nil
	w.Content.slim()
	// Names that come again and again are kept once: a session of ten
	// thousand messages names its model ten thousand times.
	w.Type, w.Provider, w.ModelID, w.Model = intern(w.Type), intern(w.Provider), intern(w.ModelID), intern(w.Model)
	if m := w.Message; m != nil {
		m.Role, m.API, m.Provider, m.Model = intern(m.Role), intern(m.API), intern(m.Provider), intern(m.Model)
		m.StopReason, m.ToolName = intern(m.StopReason), intern(m.ToolName)
		m.ResponseModel, m.ThinkingLevel = looseString(intern(string(m.ResponseModel))), looseString(intern(string(m.ThinkingLevel)))
		if m.Role == "toolResult" {
			// What a page tells of an output without reading it.
			text := blocksText(m.Content.blocks, "\n")
			m.lean = &leanText{bytes: len(text), lines: countLines(text), sum: maphash.String(lineSeed, text),
				aborted: strings.TrimSpace(text) == AbortedText}
		}
		m.Content.slim()
		m.Sections, m.ToolsAdded, m.Details, m.NestedCalls = nil, nil, nil, nil
		m.Output, m.Code, m.Summary = "", "", ""
		m.Files = nil
	}
	if x := o.extra; x != nil {
		if x.SystemMessage != nil {
			x.SystemMessage = &wireMessage{}
		}
		if r := bytes.TrimSpace(x.Replacement); len(r) > 0 && string(r) != "null" {
			x.Replacement = []byte("{}")
		}
		x.SystemPrompt, x.Task, x.OutputSchema = "", "", nil
		x.Data = nil
	}
}

func (c *wireContent) slim() {
	for i := range c.blocks {
		b := &c.blocks[i]
		b.Text, b.Data, b.Arguments, b.Raw = "", "", nil, nil
		b.Type, b.Name, b.MimeType = intern(b.Type), intern(b.Name), intern(b.MimeType)
	}
}

// intern returns the one copy of s that every lean entry shares.
func intern(s string) string {
	if s == "" {
		return s
	}
	return unique.Make(s).Value()
}

// leanText is what a lean tool result keeps of its output: its length in
// bytes and in lines, its checksum, and whether it says the call was
// aborted.
type leanText struct {
	bytes, lines int
	sum          uint64
	aborted      bool
}

// countLines counts the lines of text, a last line end not starting
// another: 0 for no text.
func countLines(text string) int {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return 0
	}
	return strings.Count(text, "\n") + 1
}

// ResultBytes is the length of ResultText, also for a lean entry.
func (m *Message) ResultBytes() int {
	if m.lean != nil {
		return m.lean.bytes
	}
	return len(m.ResultText())
}

// ResultSum is a checksum of ResultText, also for a lean entry: the same
// for the same text within one run of the program.
func (m *Message) ResultSum() uint64 {
	if m.lean != nil {
		return m.lean.sum
	}
	return maphash.String(lineSeed, m.ResultText())
}

// ResultLines is the number of lines of ResultText (a last line end not
// starting another), also for a lean entry.
func (m *Message) ResultLines() int {
	if m.lean != nil {
		return m.lean.lines
	}
	return countLines(m.ResultText())
}
