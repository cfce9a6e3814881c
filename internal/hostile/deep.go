package hostile

import (
	"fmt"
	"strings"
)

// DeepJSON is a JSON value nested levels deep: arrays and objects in
// turn. Indented without a bound, its size grows with the square of
// levels (2,000 levels, 12 KB, indent to 16 MB).
func DeepJSON(levels int) string {
	var b strings.Builder
	for i := range levels {
		if i%2 == 0 {
			b.WriteString(`[`)
		} else {
			b.WriteString(`{"k":`)
		}
	}
	b.WriteString(`"the bottom"`)
	for i := levels - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteString(`]`)
		} else {
			b.WriteString(`}`)
		}
	}
	return b.String()
}

// DeepJSONSession is a session file that holds a DeepJSON value of levels
// in each place an export shows raw JSON indented: an extension's saved
// state, a tool call's arguments, an entry of an unknown type, and a field
// that could not be read.
func DeepJSONSession(levels int) string {
	deep := DeepJSON(levels)
	lines := []string{
		`{"type":"session","version":3,"id":"deep","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"go deep"}}`,
		fmt.Sprintf(`{"type":"custom","id":"c1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","customType":"deep-state","data":%s}`, deep),
		fmt.Sprintf(`{"type":"message","id":"a1","parentId":"c1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"probe","arguments":{"v":%s}}],"usage":{"input":%s,"output":5}}}`, deep, deep),
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"probe","content":[{"type":"text","text":"done"}]}}`,
		fmt.Sprintf(`{"type":"future_kind","id":"f1","parentId":"r1","timestamp":"2026-01-01T00:00:05Z","payload":%s}`, deep),
	}
	return strings.Join(lines, "\n") + "\n"
}
