package piexport_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/testtool"
)

// The page's scripts carry JSDoc types (// @ts-check), which TypeScript's
// compiler checks as tsconfig.json says: a call of another module's
// function with the wrong arguments fails here, as does one of a browser
// API. The compiler is the one testdata/node pins (npm ci --prefix
// testdata/node), and runs on Node.js.

var node = &testtool.Need{What: "type check of the scripts", Whats: "type checks of the scripts", Program: "Node.js",
	Install: "install it (apt-get install nodejs npm)", Names: []string{"node", "nodejs"}}

var tsc = &testtool.Need{What: "type check of the scripts", Whats: "type checks of the scripts", Program: "tsc",
	Install: "run npm ci --prefix testdata/node", Env: "PIEXPORT_TSC", Names: []string{filepath.Join("testdata", "node", "node_modules", ".bin", "tsc")}}

func TestMain(m *testing.M) { testtool.Main(m, "piexport", node, tsc) }

// needTSC returns the path of tsc, or skips t (fails it on CI) when it
// or Node.js is missing, and under -short.
func needTSC(t *testing.T) string {
	t.Helper()
	node.Require(t)
	compiler, err := filepath.Abs(tsc.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	return compiler
}

// typeCheck runs compiler on the project in dir and returns what it says
// and whether it found no error.
func typeCheck(t *testing.T, compiler, dir string) (string, bool) {
	t.Helper()
	cmd := exec.Command(compiler, "-p", "tsconfig.json", "--pretty", "false")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatalf("run %s: %v", compiler, err)
	}
	return out.String(), err == nil
}

// TestScriptsTypeCheck checks every script in assets/.
func TestScriptsTypeCheck(t *testing.T) {
	if out, ok := typeCheck(t, needTSC(t), "."); !ok {
		t.Errorf("tsc finds errors in the scripts:\n%s", out)
	}
}

// TestTypeCheckCatchesWrongCalls breaks calls from one module to another
// on purpose, in a copy of the scripts, and expects the check to fail on
// each: too few arguments, an argument of another type, a value the
// callee does not take.
func TestTypeCheckCatchesWrongCalls(t *testing.T) {
	compiler := needTSC(t)
	for _, tc := range []struct {
		file, call, wrong, code string
	}{
		{"page.js", "this.marks.show(scope, words, linked);", "this.marks.show(scope, linked);", "TS2554"},
		{"page.js", "articles.toggleAll('thinking');", "articles.toggleAll('thoughts');", "TS2345"},
		{"searchui.js", "this.tree.setFilter(filter);", "this.tree.setFilter(filter, this.n);", "TS2554"},
		{"index.js", "times.localize(t, true);", "times.localize(t.getAttribute('datetime'), true);", "TS2345"},
		{"page.js", "const store = this.store = new Store(n, idx.config.groupType);", "const store = this.store = new Store(idx.config.groupType, n);", "TS2345"},
	} {
		t.Run(tc.file+" "+tc.wrong, func(t *testing.T) {
			dir := t.TempDir()
			copyFile(t, "tsconfig.json", filepath.Join(dir, "tsconfig.json"))
			scripts, err := filepath.Glob(filepath.Join("assets", "*.js"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, "assets"), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, s := range scripts {
				copyFile(t, s, filepath.Join(dir, s))
			}
			name := filepath.Join(dir, "assets", tc.file)
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(src, []byte(tc.call)) {
				t.Fatalf("%s no longer holds %s: name another call to break", tc.file, tc.call)
			}
			if err := os.WriteFile(name, bytes.Replace(src, []byte(tc.call), []byte(tc.wrong), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			out, ok := typeCheck(t, compiler, dir)
			if ok {
				t.Fatalf("tsc passes %s in %s", tc.wrong, tc.file)
			}
			if !strings.Contains(out, "assets/"+tc.file) || !strings.Contains(out, tc.code) {
				t.Errorf("tsc does not name the broken call in %s (%s):\n%s", tc.file, tc.code, out)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
