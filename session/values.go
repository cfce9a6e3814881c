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

// sections reads a system message's sections in the file's order (a Go
// map would lose it, and the order is the prompt's). A null section is
// one removed.
func sections(raw json.RawMessage) []Section {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var out []Section
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		switch v = bytes.TrimSpace(v); {
		case string(v) == "null":
			out = append(out, Section{Name: name, Removed: true})
		default:
			text := string(v) // not a string: kept as its JSON
			var s string
			if json.Unmarshal(v, &s) == nil {
				text = s
			}
			out = append(out, Section{Name: name, Text: text})
		}
	}
	return out
}

// settings reads a JSON object of scalars as name and value pairs in the
// file's order; a value that is not a string is kept as its JSON.
func settings(raw json.RawMessage) []Setting {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var out []Setting
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		value := string(v)
		var s string
		if json.Unmarshal(v, &s) == nil {
			value = s
		}
		out = append(out, Setting{Name: name, Value: value})
	}
	return out
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
