package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// errTooDeep marks an object nested deeper than the JSON decoders go.
var errTooDeep = errors.New("nested too deep")

// maxDepth is the nesting depth beyond which encoding/json and goccy/go-json
// refuse a document ("exceeded max depth"). JSON itself sets no limit, so a
// line past it is valid JSON that cannot be decoded: it is kept as raw text.
const maxDepth = 10000

// isTooDeep reports whether err is a decoder's refusal of deep nesting.
func isTooDeep(err error) bool {
	return err != nil && strings.Contains(err.Error(), "exceeded max depth")
}

// shallowFields reads the top-level fields of the JSON object obj that
// place an entry in the tree (type, id, parentId, timestamp) without
// descending into any value, so that it works at any depth below them.
// What it cannot read stays empty.
func shallowFields(obj []byte) wireEntry {
	var w wireEntry
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return w
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return w
		}
		end := skipString(obj, i)
		if end < 0 {
			return w
		}
		var key string
		if json.Unmarshal(obj[i:end], &key) != nil {
			return w
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return w
		}
		i = skipSpace(obj, i+1)
		vend := skipValue(obj, i)
		if vend < 0 {
			return w
		}
		val := obj[i:vend]
		scalar := val[0] != '{' && val[0] != '['
		switch {
		case key == "type" && val[0] == '"':
			_ = json.Unmarshal(val, &w.Type)
		case key == "id" && scalar:
			w.ID = &optString{}
			_ = w.ID.UnmarshalJSON(val)
		case key == "parentId" && scalar:
			w.ParentID = &optString{}
			_ = w.ParentID.UnmarshalJSON(val)
		case key == "timestamp" && scalar:
			w.Timestamp = bytes.Clone(val)
		}
		i = skipSpace(obj, vend)
		if i >= len(obj) || obj[i] != ',' {
			return w
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i], or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the value starting at b[i], or -1.
// Objects and arrays are skipped by counting brackets, not by recursion.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && !strings.ContainsRune(",}] \t\r\n", rune(b[j])) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
