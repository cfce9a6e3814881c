package redact

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON a session keeps whole (entries of unknown types, tool
// arguments, tool details) is searched string by string: each string is
// decoded, searched as text, and written back re-encoded only if it
// changed, so the JSON stays valid and everything else in it byte for
// byte as it was.

// jsonString is one string of a JSON text: its bytes [start, end), quotes
// included, and the key it is the value of ("" for a key itself, an array
// element, a top-level string).
type jsonString struct {
	start, end int
	key        string
	isKey      bool
}

// eachJSONString calls f for every string in raw, in order, with its
// decoded text. It reads well-formed JSON; on anything else it stops.
func eachJSONString(raw []byte, f func(s jsonString, text string)) {
	key := "" // the key whose ':' was the last thing read
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if isJSONSpace(c) {
			continue
		}
		if c != '"' {
			key = ""
			continue
		}
		end, escaped := stringEnd(raw, i)
		if end < 0 {
			return
		}
		var text string
		if escaped {
			text = unescape(raw[i+1 : end-1])
		} else {
			text = string(raw[i+1 : end-1])
		}
		j := end
		for j < len(raw) && isJSONSpace(raw[j]) {
			j++
		}
		if j < len(raw) && raw[j] == ':' {
			f(jsonString{start: i, end: end, isKey: true}, text)
			key = text
			i = j
			continue
		}
		f(jsonString{start: i, end: end, key: key}, text)
		key = ""
		i = end - 1
	}
}

// stringEnd returns the offset just past the string that opens at i, and
// whether it holds escapes; -1 if it does not end.
func stringEnd(raw []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return -1, escaped
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// unescape decodes the inside of a JSON string.
func unescape(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch b[i] {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'u':
			r, n := hexRune(b[i+1:])
			if n == 0 {
				sb.WriteString(`\u`)
				continue
			}
			i += n
			if utf16.IsSurrogate(r) {
				if i+2 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					if r2, n2 := hexRune(b[i+3:]); n2 > 0 {
						if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
							r = pair
							i += 2 + n2
						}
					}
				}
			}
			sb.WriteRune(r)
		default: // \" \\ \/
			sb.WriteByte(b[i])
		}
	}
	return sb.String()
}

func hexRune(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	if err != nil {
		return 0, 0
	}
	return rune(v), 4
}

// appendQuoted appends s as a JSON string.
func appendQuoted(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// opaqueStrings returns the starts of the strings of raw that are opaque
// blobs where they stand (see opaqueKeys): values of an object whose
// "type" names a block that holds such a blob under that key. The type
// may come before or after the key, so the object is read whole first.
// It returns nil when raw names none of those keys at all, which is most
// JSON (a key spelled with escapes is looked for the long way).
func opaqueStrings(raw []byte) map[int]bool {
	named := bytes.Contains(raw, []byte(`\u`))
	for _, k := range anyOpaqueKey {
		if named || bytes.Contains(raw, k) {
			named = true
			break
		}
	}
	if !named {
		return nil
	}
	type member struct {
		key string
		at  int
	}
	type frame struct {
		object  bool
		key     string // the key whose value comes next, "" if none
		hasKey  bool
		typ     string
		members []member // string values whose key could name a blob
	}
	var out map[int]bool
	var stack []frame
	value := func() *frame { // the frame a value just read belongs to, its key taken
		if len(stack) == 0 {
			return nil
		}
		f := &stack[len(stack)-1]
		if !f.object || !f.hasKey {
			return nil
		}
		f.hasKey = false
		return f
	}
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '"':
			end, escaped := stringEnd(raw, i)
			if end < 0 {
				return out
			}
			text := string(raw[i+1 : end-1])
			if escaped {
				text = unescape(raw[i+1 : end-1])
			}
			j := end
			for j < len(raw) && isJSONSpace(raw[j]) {
				j++
			}
			if j < len(raw) && raw[j] == ':' && len(stack) > 0 && stack[len(stack)-1].object {
				f := &stack[len(stack)-1]
				f.key, f.hasKey = text, true
				i = j
				continue
			}
			if f := value(); f != nil {
				if f.key == "type" {
					f.typ = text
				} else {
					f.members = append(f.members, member{f.key, i})
				}
			}
			i = end - 1
		case '{', '[':
			value()
			stack = append(stack, frame{object: c == '{'})
		case '}', ']':
			if len(stack) == 0 {
				return out
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, m := range f.members {
				if slices.Contains(opaqueKeys[f.typ], m.key) {
					if out == nil {
						out = map[int]bool{}
					}
					out[m.at] = true
				}
			}
		case ',', ':', ' ', '\t', '\r', '\n':
		default:
			// A number, true, false or null: a value.
			value()
			for i+1 < len(raw) && !strings.ContainsRune(",:]} \t\r\n", rune(raw[i+1])) {
				i++
			}
		}
	}
	return out
}
