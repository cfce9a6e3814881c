package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/piexport/piexport/internal/fileguard"
)

// ErrNotSession reports a file that is not a pi session at all: empty,
// binary, or a stream of `pi --mode json` events.
var ErrNotSession = errors.New("not a pi session file")

// maxWarningsPerKind bounds how many warnings of one kind are kept, so a
// file with a million blank lines does not drown the reader.
const maxWarningsPerKind = 20

// Load reads the session file at path. The file is opened read-only and
// never written, truncated or locked; anything but a regular file (a
// named pipe, a device, a directory) is refused.
func Load(path string) (*Session, error) {
	return LoadContext(context.Background(), path)
}

// LoadContext is Load, given up as soon as ctx is done (Ctrl-C on a
// session of a gigabyte): the error then wraps ctx.Err().
func LoadContext(ctx context.Context, path string) (*Session, error) {
	f, _, err := fileguard.OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadContext(ctx, f, path)
}

// Read reads a session from r; name is the file name used in warnings and
// errors.
func Read(r io.Reader, name string) (*Session, error) {
	return ReadContext(context.Background(), r, name)
}

// ReadContext is Read, given up as soon as ctx is done: r is read in
// pieces of at most a megabyte, and ctx is looked at before each.
func ReadContext(ctx context.Context, r io.Reader, name string) (*Session, error) {
	return readContext(ctx, r, name, nil)
}

func readContext(ctx context.Context, r io.Reader, name string, progress func(int64, int)) (*Session, error) {
	if ctx.Done() != nil {
		r = ctxReader{ctx, r}
	}
	l := loader{s: &Session{File: name}, kinds: map[string]int{}, progress: progress}
	if err := l.readLines(bufioReader(r)); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, l.line, err)
	}
	if err := l.finish(); err != nil {
		return nil, err
	}
	return l.s, nil
}

// bufioReader is the reader a file is read through: lines are gathered
// from it a megabyte at a time.
func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 1<<20) }

// ctxReader fails its reads once its context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// object is one JSON object read from the file, before migration.
type object struct {
	line, part int
	// at and size are where the object's line is in the file: its first
	// byte and its length, line end included.
	at       int64
	size     int
	sum      uint64 // of the line, in a lean load (see lean.go)
	wire     wireEntry
	raw      []byte     // owned copy, kept only where Entry.Raw needs it
	typeErr  error      // the object is JSON but its fields had unexpected types
	bad      []BadField // values set aside so that the rest could be read (see lenient)
	salvaged bool       // the line is not one JSON object (see Entry.salvaged)
	extra    *wireExtra
}

type loader struct {
	s       *Session
	line    int
	objects []object
	kinds   map[string]int // warnings per kind, for maxWarningsPerKind
	crlf    bool
	slot    *titleSlot // omp's title slot, when the file has one
	lean    bool       // keep the entries' text in the file (lean.go)
	// progress, when set, is told the bytes and lines read so far as
	// each batch of lines is decoded (LoadOptions.Progress).
	progress func(read int64, lines int)
	// maxLine bounds a line (MaxLineBytes when zero).
	maxLine int
}

func (l *loader) warn(kind string, line int, format string, args ...any) {
	l.addWarning(kind, line, fmt.Sprintf(format, args...))
}

func (l *loader) addWarning(kind string, line int, text string) {
	if kind == "crlf" {
		if l.crlf {
			return // said once for the whole file
		}
		l.crlf = true
	}
	l.kinds[kind]++
	n := l.kinds[kind]
	switch {
	case n <= maxWarningsPerKind:
		l.s.Warnings = append(l.s.Warnings, Warning{File: l.s.File, Line: line, Text: text})
	case n == maxWarningsPerKind+1:
		l.s.Warnings = append(l.s.Warnings, Warning{File: l.s.File, Line: line, Text: "more warnings of this kind follow; not listed"})
	}
}

// decode reads every line of the batch.
func (b *batch) decode() {
	for _, ref := range b.lines {
		if ref.tooLong {
			b.warn("long", ref.number, "the line is longer than %d MiB, piexport's limit for one line; skipped", b.maxLine>>20)
			continue
		}
		b.at, b.size = ref.at, ref.size
		if b.lean {
			b.sum = maphash.Bytes(lineSeed, b.buf[ref.start:ref.end])
		}
		b.readLine(b.buf[ref.start:ref.end], ref.number, ref.complete)
	}
}

func (b *batch) readLine(line []byte, n int, complete bool) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	if bytes.HasSuffix(line, []byte("\r")) {
		line = line[:len(line)-1]
		if !b.crlf {
			b.crlf = true
			b.warn("crlf", n, "the file has Windows line endings (CRLF); read as plain line ends")
		}
	}
	if n == 1 && bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		line = line[3:]
		b.warn("bom", n, "the file starts with a UTF-8 byte order mark; ignored")
	}
	if len(bytes.TrimSpace(line)) == 0 {
		if complete || len(line) > 0 {
			b.warn("blank", n, "blank line; skipped")
		}
		return
	}
	if bytes.IndexByte(line, 0) >= 0 {
		b.warn("binary", n, "the line holds NUL bytes: binary data, not JSON; skipped")
		return
	}
	if !utf8.Valid(line) {
		line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
		b.warn("utf8", n, "the line is not valid UTF-8; the bad bytes are shown as \uFFFD")
	}
	var w wireEntry
	err := unmarshal(line, &w)
	if err == nil {
		b.add(object{line: n, part: 1, wire: w}, line)
		return
	}
	b.readObjects(line, n, complete)
}

// readObjects is the slow path for a line that is not one JSON object: it
// recovers every object the line holds (pi v1 files have lines with two
// objects run together) and says what is wrong with the rest.
func (b *batch) readObjects(line []byte, n int, complete bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	var parts []json.RawMessage
	var err error
	var deep []byte // the rest of the line, from an object nested too deep
	for {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err = dec.Decode(&raw); err != nil {
			if isTooDeep(err) {
				deep = bytes.TrimSpace(line[start:])
			}
			break
		}
		parts = append(parts, raw)
	}
	if err == io.EOF {
		err = nil
	}
	kept := 0
	salvaged := len(parts) > 1 || err != nil
	for _, raw := range parts {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] != '{' {
			b.warn("notobject", n, "the line is JSON but not an object (%s); skipped", jsonKind(raw))
			continue
		}
		kept++
		o := object{line: n, part: kept, salvaged: salvaged}
		if e := unmarshal(raw, &o.wire); e != nil {
			// Valid JSON whose fields have unexpected types: read what
			// can be read, setting aside only the values that do not fit.
			o.wire = wireEntry{}
			var l lenient
			if l.decode(raw, &o.wire, "") {
				o.bad = l.bad
			} else {
				// Too odd to read that way: keep it whole as a generic
				// entry, still in its place in the tree.
				o.wire = shallowFields(raw)
				o.typeErr = e
			}
		}
		b.add(o, raw)
	}
	if len(deep) > 0 && deep[0] == '{' {
		// Valid JSON, as far as anyone can tell, that no decoder here will
		// read: keep its text, placed in the tree by its top-level fields.
		kept++
		b.add(object{line: n, part: kept, salvaged: len(parts) > 0, wire: shallowFields(deep), typeErr: errTooDeep}, deep)
		b.warn("deep", n, "the JSON is nested too deep (more than %s) to read; its text is kept as raw JSON", Count(maxDepth, "level", "levels"))
		err = nil
	}
	if len(parts) > 1 && kept > 1 {
		b.warn("multi", n, "the line holds %d JSON objects run together; each is kept as an entry", kept)
	}
	switch {
	case err == nil:
	case !complete && (errors.Is(err, io.ErrUnexpectedEOF) || isUnexpectedEnd(err)):
		b.warn("truncated", n, "the last line is cut short (the file ends mid-entry, as after a crash while writing); everything before it is kept")
	case kept > 0:
		b.warn("malformed", n, "after %d JSON object(s) the line is not valid JSON (%v); the rest of the line is skipped", kept, err)
	default:
		b.warn("malformed", n, "the line is not valid JSON (%v); skipped", simplifyJSONError(err))
	}
}

func isUnexpectedEnd(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end")
}

func simplifyJSONError(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s, at byte %d", se.Error(), se.Offset)
	}
	return err.Error()
}

func jsonKind(raw []byte) string {
	switch {
	case len(raw) == 0:
		return "empty"
	case raw[0] == '[':
		return "an array"
	case raw[0] == '"':
		return "a string"
	case raw[0] == 't' || raw[0] == 'f':
		return "a boolean"
	case raw[0] == 'n':
		return "null"
	case raw[0] == '{':
		return "an object"
	default:
		return "a number"
	}
}

// add keeps an object. raw is the object's bytes in the batch's buffer; it
// is copied only when the entry will keep it.
func (b *batch) add(o object, raw []byte) {
	o.at, o.size, o.sum = b.at, b.size, b.sum
	if o.typeErr == nil && extraTypes[o.wire.Type] {
		o.extra = &wireExtra{}
		if err := unmarshal(raw, o.extra); err != nil {
			o.extra = &wireExtra{}
			var l lenient
			switch {
			case l.decode(raw, o.extra, ""):
				o.bad = append(o.bad, l.bad...)
			case o.wire.Type != "session":
				o.extra = &wireExtra{}
				o.typeErr = err // shown as its JSON, with a warning
			default:
				o.extra = &wireExtra{}
				b.warn("fields", o.line, "some fields of the session header have unexpected types (%v); they are not shown", err)
			}
		}
	}
	if b.lean {
		o.slim()
	} else if o.typeErr != nil || keepsRaw(&o.wire) {
		o.raw = bytes.Clone(raw)
	}
	b.objects = append(b.objects, o)
}

// keepsRaw says which entries keep their JSON as the file has it: those this
// package does not model (shown raw to the reader) and small bookkeeping ones.
func keepsRaw(w *wireEntry) bool {
	switch w.Type {
	case "message":
		return w.Message == nil || !knownRoles[w.Message.Role] || w.Message.Content.unknownBlocks
	case "model_change", "thinking_level_change", "compaction", "branch_summary",
		"usage", "model_usage", "service_tier_change", "mode_change", "reset_boundary",
		"title_change", "ttsr_injection", "session_init", "context_edit":
		return false
	case "credential_pin":
		return false // never hold the pin's hash
	case "custom", "mcp_tool_selection":
		return false // their data is Entry.Data and Omp.MCPTools
	case "custom_message":
		return w.Content.unknownBlocks
	}
	return true
}

// knownEntryTypes are the entry types of pi and omp sessions. A file none of
// whose lines has one of these is not a session.
var knownEntryTypes = map[string]bool{
	"message": true, "model_change": true, "thinking_level_change": true,
	"compaction": true, "branch_summary": true, "custom": true,
	"custom_message": true, "label": true, "session_info": true,
	"ttsr_injection": true, "session_init": true, "mcp_tool_selection": true,
	"mode_change": true,
	// pi 1.5
	"usage": true, "context_edit": true,
	// omp 18
	"model_usage": true, "service_tier_change": true, "reset_boundary": true,
	"title_change": true, "credential_pin": true,
}

var knownRoles = map[string]bool{
	"system": true, "user": true, "assistant": true, "toolResult": true, "bashExecution": true,
	"custom": true, "hookMessage": true, "branchSummary": true,
	"compactionSummary": true, "developer": true, "jsExecution": true,
	"pythonExecution": true, "fileMention": true, // omp 18
}

// finish finds the header, migrates the entries and builds the tree.
func (l *loader) finish() error {
	s := l.s
	if len(l.objects) == 0 {
		if l.line == 0 {
			return fmt.Errorf("%s: %w: the file is empty", s.File, ErrNotSession)
		}
		if l.line == 1 {
			return fmt.Errorf("%s: %w: its one line is not a JSON object", s.File, ErrNotSession)
		}
		return fmt.Errorf("%s: %w: none of its %s is a JSON object", s.File, ErrNotSession, Count(l.line, "line", "lines"))
	}

	l.foldTitleSlot()
	headerAt := -1
	for i := range l.objects {
		if l.objects[i].wire.Type == "session" {
			headerAt = i
			break
		}
	}
	hasIDs := false
	known := 0
	types := map[string]bool{}
	for i := range l.objects {
		o := &l.objects[i]
		if i == headerAt {
			continue
		}
		if o.wire.ID != nil && o.wire.ParentID != nil {
			hasIDs = true
		}
		if knownEntryTypes[o.wire.Type] {
			known++
		} else if len(types) < 8 {
			types[o.wire.Type] = true
		}
	}
	if headerAt >= 0 && len(l.objects) == 1 {
		// A session opened and closed without a turn: older pi and omp
		// write these. It is a session, with nothing in it.
		s.Header = l.header(&l.objects[headerAt])
		if s.Header.Version < CurrentVersion {
			s.Header.Version = CurrentVersion
		}
		l.objects = nil
		l.buildTree()
		return nil
	}
	if known == 0 && len(l.objects) > 1 {
		return fmt.Errorf("%s: %w: none of its entries is of a session entry type (it has %s); `pi --mode json` event streams look like this", s.File, ErrNotSession, listTypes(types))
	}
	if known == 0 {
		return fmt.Errorf("%s: %w: it holds no session entries", s.File, ErrNotSession)
	}

	version := 0
	if headerAt >= 0 {
		h := &l.objects[headerAt]
		s.Header = l.header(h)
		version = s.Header.FileVersion
		if headerAt > 0 {
			l.warn("header", h.line, "the session header is not the file's first line; the lines before it are kept as entries")
		}
	} else {
		l.warn("header", 0, "the file has no session header (its first line is an entry); the entries are shown without one")
	}
	switch {
	case version == 0 && hasIDs:
		if s.Header != nil {
			l.warn("version", s.Header.Line, "the header has no version but the entries carry ids; keeping the file's own parent links")
		}
		version = CurrentVersion
	case version == 0:
		version = 1
	case version > CurrentVersion:
		l.warn("version", s.Header.Line, "format version %d is newer than this piexport knows (%d); loading it as best it can", version, CurrentVersion)
	}

	entries := make([]*Entry, 0, len(l.objects))
	var all []*Entry // every object, header included, for v1 entry indexes
	for i := range l.objects {
		o := &l.objects[i]
		if i == headerAt {
			all = append(all, nil)
			continue
		}
		e := l.entry(o)
		entries = append(entries, e)
		all = append(all, e)
	}
	l.objects = nil
	s.Entries = entries

	if version < 2 {
		migrateV1(s, all)
	}
	if version < 3 {
		migrateV2(s)
	}
	if s.Header != nil && s.Header.Version < CurrentVersion {
		s.Header.Version = CurrentVersion
	}
	l.buildTree()
	return nil
}

func listTypes(types map[string]bool) string {
	var names []string
	for t := range types {
		if t == "" {
			t = "(no type)"
		}
		names = append(names, fmt.Sprintf("%q", t))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
