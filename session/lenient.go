package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// A field of an odd type (a count written "NaN", a number past float64's
// range) must cost the entry that field only, not its id, its parent and
// its text: such an object is decoded again member by member, and a
// member that still fails is descended into where it is an object read
// into a struct, so that only the innermost bad value is set aside. The
// entry keeps it as a BadField, shown as raw JSON.

// BadField is a value of an entry that could not be read as its field
// (a string where a number belongs, a number out of range): the rest of
// the entry was read without it.
type BadField struct {
	// Path names the field as the file nests it: "message.usage.input",
	// "message.content[2].text".
	Path string
	// Raw is the value as the file has it.
	Raw json.RawMessage
	// Why says what is wrong with it, for warnings: "a string where a
	// number belongs".
	Why string
}

// maxBadFields bounds the values set aside in one object: past it, the
// object is kept whole as raw JSON, as one of unknown kind is.
const maxBadFields = 32

// lenient collects the values a lenient decoding set aside.
type lenient struct {
	bad []BadField
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// decode decodes the JSON object raw into v, a pointer to a struct,
// member by member, leaving out (and noting under path) the values that
// do not fit their field. It reports false when raw is not an object it
// can read that way, or holds more than maxBadFields bad values.
func (l *lenient) decode(raw []byte, v any, path string) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return false
	}
	ok := true
	var one []byte
	eachMember(raw, func(name string, val json.RawMessage) {
		if !ok {
			return
		}
		// The member alone, decoded as the whole object would decode it.
		key, _ := json.Marshal(name)
		one = append(append(append(append(append(one[:0], '{'), key...), ':'), val...), '}')
		if unmarshal(one, v) == nil {
			return
		}
		at := name
		if path != "" {
			at = path + "." + name
		}
		f, found := fieldNamed(rv.Elem().Type(), name)
		if found && len(val) > 0 && val[0] == '{' {
			// An object read into a struct: only its bad members go.
			t := f.Type
			if t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if t.Kind() == reflect.Struct && !reflect.PointerTo(t).Implements(unmarshalerType) {
				inner := reflect.New(t)
				if l.decode(val, inner.Interface(), at) {
					field := rv.Elem().FieldByIndex(f.Index)
					if f.Type.Kind() == reflect.Pointer {
						field.Set(inner)
					} else {
						field.Set(inner.Elem())
					}
					return
				}
				if len(l.bad) > maxBadFields {
					ok = false
					return
				}
			}
		}
		var ft reflect.Type
		if found {
			ft = f.Type
		}
		l.bad = append(l.bad, BadField{Path: at, Raw: bytes.Clone(val), Why: whyBad(val, ft)})
		if len(l.bad) > maxBadFields {
			ok = false
		}
	})
	return ok
}

// fieldNamed finds the field of struct type t that a JSON member named
// name decodes into: its tag's name, else the same name in another case,
// as the decoders match them.
func fieldNamed(t reflect.Type, name string) (reflect.StructField, bool) {
	var fold *reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		if tag == name {
			return f, true
		}
		if fold == nil && strings.EqualFold(tag, name) {
			fold = &f
		}
	}
	if fold != nil {
		return *fold, true
	}
	return reflect.StructField{}, false
}

// whyBad says what is wrong with val as a value of a field of type t (nil
// when unknown), in a few words.
func whyBad(val json.RawMessage, t reflect.Type) string {
	got := jsonKind(val)
	want := ""
	if t != nil {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct:
			want = "an object"
			if t == reflect.TypeFor[wireContent]() {
				want = "a string or an array of blocks"
			}
		case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int64, reflect.Int32:
			want = "a number"
		case reflect.String:
			want = "a string"
		case reflect.Bool:
			want = "a boolean"
		case reflect.Slice:
			want = "an array"
		}
	}
	switch {
	case want == "":
		return fmt.Sprintf("%s it cannot be read as", got)
	case got == want && want == "a number":
		return "a number out of range"
	case got == want:
		return fmt.Sprintf("%s that cannot be read", got)
	}
	return fmt.Sprintf("%s where %s belongs", got, want)
}

// prefixed returns bad with prefix put before each path.
func prefixed(prefix string, bad []BadField) []BadField {
	out := make([]BadField, len(bad))
	for i, b := range bad {
		b.Path = prefix + b.Path
		out[i] = b
	}
	return out
}
