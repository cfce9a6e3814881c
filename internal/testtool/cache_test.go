package testtool

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCacheNotices runs go test on a package whose test needs a program
// that is missing: its skip is cached, as any result is, until the
// program is installed where it was looked for; then the test runs
// again. (A stat of the program's path alone would not do: go test
// rechecks the files a test stats only inside the module.) The package
// is in a module of its own, with a copy of this package's code (an
// internal package cannot be imported from there).
func TestCacheNotices(t *testing.T) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	code, err := os.ReadFile("testtool.go")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	bin := t.TempDir() // where the program will be installed
	files := map[string]string{
		"go.mod": "module needs\n\ngo 1.26.0\n\nrequire github.com/piexport/piexport v0.0.0\n\nreplace github.com/piexport/piexport => " + root + "\n",
		"go.sum": string(sum),
		"needs_test.go": `package needs

import (
	"testing"

	"needs/testtool"
)

var tool = &testtool.Need{What: "test", Whats: "tests", Program: "the tool", Install: "install it", Names: []string{` + "`" + filepath.Join(bin, "thetool") + "`" + `}}

func TestMain(m *testing.M) { testtool.Main(m, "needs", tool) }

func TestNeedsTool(t *testing.T) {
	if tool.Path() == "" {
		tool.Missing(t)
	}
	t.Log("ran with", tool.Path())
}
`,
		"testtool/testtool.go": string(code),
	}
	if err := os.Mkdir(filepath.Join(mod, "testtool"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goTest := func() string {
		t.Helper()
		cmd := exec.Command(goCmd, "test", "-mod=mod", ".")
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "CI=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go test: %v\n%s", err, out)
		}
		return string(out)
	}
	goTest()
	if out := goTest(); !strings.Contains(out, "(cached)") {
		t.Fatalf("the skip was not cached:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(bin, "thetool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := goTest(); strings.Contains(out, "(cached)") {
		t.Errorf("once the program is installed, go test replays the skip:\n%s", out)
	}
}
