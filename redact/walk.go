package redact

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/piexport/piexport/session"
)

// The strings of a session are found by walking its structs, not by
// listing fields: every exported string, every string of every JSON value
// the session keeps whole (entries and blocks of unknown types, tool
// arguments and details) is searched, so a field the session package adds
// later is masked without a change here. Ids are searched too, though no
// one wrote them: an id that holds a secret (or a value found secret
// elsewhere) is masked as text is, the same way in every field that names
// it, so that the entries it ties together stay tied (see
// session.Session.Reindex).

// A slot is one string of the session, or one JSON value it keeps.
type slot struct {
	v      reflect.Value // a settable string, or a json.RawMessage
	isJSON bool
	entry  *session.Entry // nil for the header and the session's own fields
	line   int
	// derived marks a copy of another field's text (an entry's resolved
	// label, the session's name): masked like the rest, not reported
	// twice.
	derived bool
	// isID marks an id: when one changes, the session's lookups by id
	// are made again.
	isID bool
}

var (
	entryType = reflect.TypeFor[session.Entry]()
	blockType = reflect.TypeFor[session.Block]()
	rawType   = reflect.TypeFor[json.RawMessage]()
)

// blockTypeField is the index of Block.Type.
var blockTypeField = func() int {
	f, _ := blockType.FieldByName("Type")
	return f.Index[0]
}()

// identifiers are the fields that hold ids (see slot.isID).
var identifiers = map[string]bool{
	"ID": true, "FileID": true, "ParentID": true, "TargetID": true,
	"FirstKeptEntryID": true, "FromID": true, "ToolCallID": true,
}

// derivedFields copy what another field holds.
var derivedFields = map[string]bool{"Entry.Label": true, "Session.Name": true}

// ImageRemoved replaces an image dropped by Options.NoImages.
const ImageRemoved = "[image removed]"

// walker collects a session's slots.
type walker struct {
	slots    []slot
	entry    *session.Entry
	line     int
	derived  bool
	isID     bool
	noImages bool
	images   int // images dropped
}

// collect returns the slots of s in file order: the session's own fields
// and header first, then each entry's. Entries are walked on every core,
// in runs whose slots are then joined in order.
func collect(s *session.Session, noImages bool) ([]slot, int) {
	w := &walker{noImages: noImages}
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || f.Name == "Entries" {
			continue
		}
		w.line = 0
		if f.Name == "Header" && s.Header != nil {
			w.line = s.Header.Line
		}
		w.derived = derivedFields["Session."+f.Name]
		w.walk(v.Field(i))
	}
	w.derived = false
	const run = 256
	runs := make([]*walker, (len(s.Entries)+run-1)/run)
	parallel(len(runs), func(k int) {
		rw := &walker{noImages: noImages}
		for _, e := range s.Entries[k*run : min(len(s.Entries), (k+1)*run)] {
			rw.entry, rw.line = e, e.Line
			rw.walk(reflect.ValueOf(e).Elem())
		}
		runs[k] = rw
	})
	slots, images := w.slots, w.images
	for _, rw := range runs {
		slots = append(slots, rw.slots...)
		images += rw.images
	}
	return slots, images
}

// A plan says which fields of a struct type the walk visits: exported
// ones that can hold text. Plans are made once per type.
type plan struct {
	fields []planField
}

type planField struct {
	index   int
	derived bool
	isID    bool
}

var plans sync.Map // reflect.Type → *plan

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := &plan{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || !exportedText(f.Type, map[reflect.Type]bool{}) {
			continue
		}
		p.fields = append(p.fields, planField{index: i, derived: derivedFields[t.Name()+"."+f.Name], isID: identifiers[f.Name] && f.Type.Kind() == reflect.String})
	}
	plans.Store(t, p)
	return p
}

// exportedText says whether a value of type t holds text the walk can
// reach: a string, JSON, or exported fields, elements or pointers to them.
func exportedText(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == rawType {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.String:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return exportedText(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && exportedText(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

func (w *walker) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			w.slots = append(w.slots, slot{v: v, entry: w.entry, line: w.line, derived: w.derived, isID: w.isID})
		}
	case reflect.Slice:
		if v.Type() == rawType {
			if v.Len() > 0 {
				w.slots = append(w.slots, slot{v: v, isJSON: true, entry: w.entry, line: w.line, derived: w.derived})
			}
			return
		}
		if v.Type().Elem().Kind() == reflect.Pointer && v.Type().Elem().Elem() == entryType {
			return // links between entries (Roots, Children): each is walked once, from Entries
		}
		for i := range v.Len() {
			w.walk(v.Index(i))
		}
	case reflect.Pointer:
		if !v.IsNil() && v.Type().Elem() != entryType {
			w.walk(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		if t == blockType && v.Field(blockTypeField).String() == "image" {
			w.image(v)
			return
		}
		for _, f := range planOf(t).fields {
			was := w.derived
			w.derived, w.isID = was || f.derived, f.isID
			w.walk(v.Field(f.index))
			w.derived, w.isID = was, false
		}
	case reflect.Map:
		// No map of the session holds text today; one that does would be
		// missed, which TestEveryStringIsWalked would notice.
	}
}

// image handles an image block: its data is not text to search; with
// noImages the block becomes a line of text saying it was removed.
func (w *walker) image(v reflect.Value) {
	if w.noImages {
		w.images++
		v.Set(reflect.ValueOf(session.Block{Type: "text", Text: ImageRemoved}))
		return
	}
	t := v.Type()
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && f.Name != "Data" {
			w.isID = identifiers[f.Name]
			w.walk(v.Field(i))
			w.isID = false
		}
	}
}

// imageLen returns how many bytes at the start of s are an image: a
// data: URL's head and base64 data, or a run of base64 whose first bytes
// are those of an image file; 0 when s does not start with one. Those
// bytes are not searched (base64 holds look-alikes by chance) and are
// dropped under NoImages; whatever follows them is text like any other
// (a caption, a key pasted after a screenshot) and is searched.
func imageLen(s string) int {
	if rest, ok := strings.CutPrefix(s, "data:image/"); ok {
		head, _, found := strings.Cut(rest[:min(len(rest), 100)], ",")
		if !found || !strings.HasSuffix(head, ";base64") {
			return 0 // no base64 data: what follows is text (an SVG's)
		}
		n := len(s) - len(rest) + len(head) + 1
		return n + base64Len(s[n:])
	}
	if len(s) < 64 {
		return 0
	}
	for i := range 64 {
		if !isBase64Byte(s[i]) {
			return 0 // most text stops here, at its first space
		}
	}
	head := make([]byte, 48)
	n, err := base64.StdEncoding.Decode(head, []byte(s[:64]))
	if err != nil || !strings.HasPrefix(http.DetectContentType(head[:n]), "image/") {
		return 0
	}
	return base64Len(s)
}

// base64Len is the length of the base64 at the start of s, its padding
// included: the padding ends it.
func base64Len(s string) int {
	i := 0
	for i < len(s) && isBase64Byte(s[i]) && s[i] != '=' {
		i++
	}
	for i < len(s) && s[i] == '=' {
		i++
	}
	return i
}

// opaqueKeys name, by the type of the content block that holds them, the
// values that are opaque blobs from a provider, not text anyone wrote: a
// thinking block's signature, encrypted or redacted reasoning. They are
// not secrets, and their base64 would only give look-alikes, so only the
// user's own words are masked there (see opaqueStrings). The same keys
// anywhere else (a tool's arguments, an extension's data) are text like
// any other. (Pages show these blobs only inside the raw JSON of an entry
// or block of unknown kind.)
var opaqueKeys = map[string][]string{
	"thinking":          {"thinkingSignature", "signature", "redactedThinking", "encrypted_content", "encryptedContent"},
	"redacted_thinking": {"data", "signature"},
	"redactedThinking":  {"data", "signature", "redactedThinking"},
	"reasoning":         {"encrypted_content", "encryptedContent", "signature"},
	"text":              {"textSignature"},
}

// anyOpaqueKey holds every key of opaqueKeys, quoted as JSON has them.
var anyOpaqueKey = func() [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	for _, keys := range opaqueKeys {
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				out = append(out, []byte(`"`+k+`"`))
			}
		}
	}
	return out
}()
