package piexport

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestGoVersionAgrees: go.mod asks for the first release of the Go the
// README names ("Go 1.26 or newer" and go 1.26.0), so that any toolchain
// the README allows builds piexport as it is: one that is older than
// go.mod's line would download another, which fails offline.
func TestGoVersionAgrees(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	named := regexp.MustCompile(`With Go (\d+\.\d+) or newer`).FindSubmatch(readme)
	if goLine == nil || named == nil {
		t.Fatalf("go.mod's go line %q, the README's Go %q", goLine, named)
	}
	if want := string(named[1]) + ".0"; string(goLine[1]) != want {
		t.Errorf("go.mod says go %s, the README Go %s or newer: want go %s", goLine[1], named[1], want)
	}
	if regexp.MustCompile(`(?m)^toolchain `).Match(mod) || strings.Contains(string(mod), "\ntoolchain") {
		t.Error("go.mod names a toolchain, which an older Go would download")
	}
}
