package teamcatalog

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/session"
)

// The database holds a session as text, which the server loads as it
// would load the file. That text is masked here, before it leaves the
// machine, with the same values, rules and placeholders as the loaded
// session the index rows are made from.
//
// redact masks a loaded session, string by string, the JSON it keeps
// whole included (decoded, masked, re-encoded). So the file's lines are
// handed to it as a session of their own, each line kept whole as an
// entry's JSON, and masked in one group with the loaded session and its
// family: a value found in either is masked in both, under one
// placeholder. A line that is not JSON is masked as text.

// rawLineType is the type of the entries that carry a file's lines.
const rawLineType = "piexport.line"

// maskFile masks s (loaded from raw) and raw itself with what is found in
// them and in family, the other sessions of s's family, and returns the
// masked text. s is masked in place.
func maskFile(red *redact.Redactor, raw []byte, s *session.Session, family []*session.Session) []byte {
	carrier := &session.Session{File: s.File}
	if s.Header != nil {
		// Its working directory tells redact whose home and name to mask.
		h := *s.Header
		h.AdditionalDirectories = slices.Clone(h.AdditionalDirectories)
		carrier.Header = &h
	}
	var ends [][]byte
	for n, rest := 1, raw; len(rest) > 0; n++ {
		line, end := rest, []byte(nil)
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, end, rest = rest[:i], rest[i:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		if bytes.HasSuffix(line, []byte("\r")) {
			line, end = line[:len(line)-1], append([]byte("\r"), end...)
		}
		e := &session.Entry{Line: n, Type: rawLineType}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 && json.Valid(trimmed) {
			e.Raw = json.RawMessage(line)
		} else {
			e.Summary = string(line)
		}
		carrier.Entries = append(carrier.Entries, e)
		ends = append(ends, end)
	}
	group := append(slices.Clip(family), s, carrier)
	shown := make([]bool, len(group))
	shown[len(group)-2], shown[len(group)-1] = true, true
	red.Shown(group, shown)

	out := make([]byte, 0, len(raw)+len(raw)/16)
	for i, e := range carrier.Entries {
		if e.Raw != nil {
			out = append(out, e.Raw...)
		} else {
			out = append(out, e.Summary...)
		}
		out = append(out, ends[i]...)
	}
	return out
}
