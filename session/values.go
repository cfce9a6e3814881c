package session

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// JSON values read leniently: forks write the same field with other types,
// and a session is read as far as it can be.

// looseString reads a JSON string; any other value reads as "".
type looseString string

func (s *looseString) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '"' {
		return nil
	}
	var v string
	if err := unmarshal(data, &v); err != nil {
		return err
	}
	*s = looseString(v)
	return nil
}

// sections reads a system message's sections in the file's order (the
// order is the prompt's). A null section is one removed.
func sections(raw json.RawMessage) []Section {
	var out []Section
	eachMember(raw, func(name string, v json.RawMessage) {
		if string(v) == "null" {
			out = append(out, Section{Name: name, Removed: true})
			return
		}
		out = append(out, Section{Name: name, Text: textOf(v)})
	})
	return out
}

// settings reads a JSON object of scalars as name and value pairs in the
// file's order.
func settings(raw json.RawMessage) []Setting {
	var out []Setting
	eachMember(raw, func(name string, v json.RawMessage) {
		out = append(out, Setting{Name: name, Value: textOf(v)})
	})
	return out
}

// eachMember calls f with each member of a JSON object in the file's order
// (a Go map would lose it), its value trimmed of white space. It stops at
// the first member it cannot read, and does nothing for anything but an
// object.
func eachMember(raw json.RawMessage, f func(name string, v json.RawMessage)) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return
		}
		f(name, bytes.TrimSpace(v))
	}
}

// textOf is a JSON string's text; any other value is kept as its JSON.
func textOf(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// optString is a JSON string that may be absent, null, or (in odd files) a
// number; absent and null differ only in whether the pointer is set.
type optString struct {
	s string
}

func (o *optString) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0 || data[0] == 'n':
	case data[0] == '"':
		return unmarshal(data, &o.s)
	default:
		o.s = string(data)
	}
	return nil
}

func (o *optString) value() string {
	if o == nil {
		return ""
	}
	return o.s
}

// parseTime reads a timestamp written as an ISO 8601 string or as Unix
// milliseconds. It returns the zero time for anything else.
func parseTime(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return time.Time{}
	}
	if raw[0] == '"' {
		s, err := strconv.Unquote(string(raw))
		if err != nil {
			return time.Time{}
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t
			}
		}
		return time.Time{}
	}
	ms, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(toInt64(ms)).UTC()
}
