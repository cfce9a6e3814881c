package recovered

import (
	"regexp"
	"testing"
)

func TestDescribe(t *testing.T) {
	for name, f := range map[string]func(){
		"panic":         func() { panic("the reason") },
		"runtime error": func() { var s []int; _ = s[3] },
		"nil map":       func() { var m map[string]int; m["x"] = 1 },
	} {
		got := func() (got string) {
			defer func() { got = Describe(recover()) }()
			f()
			return ""
		}()
		if !regexp.MustCompile(`^.+ \(at recovered/recovered_test\.go:\d+\)$`).MatchString(got) {
			t.Errorf("%s: %q, want the message and this file's line", name, got)
		}
	}
}
