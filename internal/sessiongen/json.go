package sessiongen

import "strconv"

// needsEscape marks the bytes that JSON.stringify escapes. It leaves <, > and
// & alone (unlike encoding/json) because pi writes its files with
// JSON.stringify, and a benchmark should see the bytes pi would write.
var needsEscape = func() (t [256]bool) {
	for i := 0; i < 0x20; i++ {
		t[i] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as a JSON string literal.
func appendQuoted[S ~string | ~[]byte](b []byte, s S) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends the body of a JSON string literal for s (no quotes).
func appendEscaped[S ~string | ~[]byte](b []byte, s S) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !needsEscape[c] {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}

// appendKey appends ,"k": (or "k": right after an opening brace).
func appendKey(b []byte, k string) []byte {
	if n := len(b); n > 0 && b[n-1] != '{' && b[n-1] != '[' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, k...)
	return append(b, '"', ':')
}

func appendStrField(b []byte, k, v string) []byte {
	return appendQuoted(appendKey(b, k), v)
}

func appendIntField(b []byte, k string, v int64) []byte {
	return strconv.AppendInt(appendKey(b, k), v, 10)
}

func appendBoolField(b []byte, k string, v bool) []byte {
	return strconv.AppendBool(appendKey(b, k), v)
}

// appendFloat writes v the way JavaScript prints a number: shortest
// round-trip digits, integers without a fraction. Costs are at least 1e-6 or
// zero, where JavaScript and 'f' formatting agree.
func appendFloat(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

func appendFloatField(b []byte, k string, v float64) []byte {
	return appendFloat(appendKey(b, k), v)
}

// appendStrArray appends a JSON array of strings.
func appendStrArray(b []byte, xs []string) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendQuoted(b, x)
	}
	return append(b, ']')
}
