package session

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/piexport/piexport/internal/linediff"
)

// How tool calls and the commands a user ran read, for every output that
// shows them: the arguments, the result's text, an edit's diff, how a
// command ended.

// ToolArgs are the arguments of a tool call, read loosely: tools and forks
// spell them differently (path or file_path, oldText or old_string).
type ToolArgs map[string]any

// Str returns the first of keys that is set, as text.
func (a ToolArgs) Str(keys ...string) string {
	for _, k := range keys {
		switch v := a[k].(type) {
		case string:
			return v
		case nil:
		default:
			return fmt.Sprint(v)
		}
	}
	return ""
}

// Int returns the number key holds, if it holds one.
func (a ToolArgs) Int(key string) (int, bool) {
	f, ok := a[key].(float64)
	return toInt(f), ok
}

// ReadToolCall reads what an export shows of a tool call and its result;
// either may be nil. The name is the call's, or the result's when the call
// is missing.
func ReadToolCall(call *Block, result *Entry) (name string, args ToolArgs, rawArgs json.RawMessage, res *Message) {
	if call != nil {
		name, rawArgs = call.Name, call.Arguments
		_ = unmarshal(call.Arguments, &args)
	}
	if result != nil {
		res = result.Message
		if name == "" {
			name = res.ToolName
		}
	}
	return name, args, rawArgs, res
}

// EditDiff is the diff of an edit: the one pi stored with the result, or
// one computed from the call's old and new text. res may be nil.
func EditDiff(res *Message, args ToolArgs) string {
	if res != nil && len(res.Details) > 0 {
		var d struct {
			Diff string `json:"diff"`
		}
		if unmarshal(res.Details, &d) == nil && d.Diff != "" {
			return d.Diff
		}
	}
	var parts []string
	if edits, ok := args["edits"].([]any); ok {
		for _, x := range edits {
			if m, ok := x.(map[string]any); ok {
				e := ToolArgs(m)
				parts = append(parts, linediff.Unified(e.Str("oldText", "old_string"), e.Str("newText", "new_string")))
			}
		}
	} else if old, nu := args.Str("oldText", "old_string"), args.Str("newText", "new_string"); old != "" || nu != "" {
		parts = append(parts, linediff.Unified(old, nu))
	}
	return strings.Join(parts, "\n")
}

// ResultText joins the text blocks of a tool result, one to a line.
func (m *Message) ResultText() string { return blocksText(m.Content, "\n") }

// CommandMarks says how a command the user ran ended: its exit code, and
// whether it was cancelled, truncated (path names the full output as the
// caller shows paths) or kept out of the model's context.
func CommandMarks(m *Message, path func(string) string) []string {
	var marks []string
	if m.ExitCode != nil {
		marks = append(marks, fmt.Sprintf("exit code %d", *m.ExitCode))
	}
	if m.Cancelled {
		marks = append(marks, "cancelled")
	}
	if m.Truncated {
		t := "output truncated"
		if m.FullOutputPath != "" {
			t += "; full output in " + path(m.FullOutputPath)
		}
		marks = append(marks, t)
	}
	if m.ExcludeFromContext {
		marks = append(marks, "excluded from context (!!)")
	}
	return marks
}
