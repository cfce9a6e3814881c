package piexport

import (
	"strings"
	"testing"
)

func TestWithoutCommentLines(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{"line comments", "// a\nvar x = 1; // b\n  // c\nx++;\n", "var x = 1; // b\nx++;\n", ""},
		{"block comments", "/**\n * doc\n */\nfunction f() {}\n  /** @param {string} s */\n  g();\n", "function f() {}\n  g();\n", ""},
		{"casts stay", "  /** @type {X} */ (el).title = 1;\nvar a = /* b */ 2;\n", "  /** @type {X} */ (el).title = 1;\nvar a = /* b */ 2;\n", ""},
		{"lines stay apart", "a = b\n// c\n(d)\n", "a = b\n(d)\n", ""},
		{"a pattern is no comment", "var re = /\\/\\/x/;\n", "var re = /\\/\\/x/;\n", ""},
		{"no last newline", "x();\n// end", "x();\n", ""},
		{"code after a comment's end", "/* a\n b */ x();\n", "", "line 2: code after the end of a comment"},
		{"a comment that does not end", "x();\n/* a\n", "", "a comment that does not end"},
		{"a template literal", "var s = `\n// not a comment\n`;\n", "", "line 1: a template literal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := withoutCommentLines([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
