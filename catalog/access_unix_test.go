//go:build unix

package catalog

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// openAsOther opens the catalog cached in cache as a user who may not
// read its databases, and returns the error it gives. Root reads every
// file, so when the test runs as root the opening runs in a copy of this
// test binary as the user nobody, with the cache's directory opened to
// it (the databases stay private).
func openAsOther(t *testing.T, cache string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		for _, name := range []string{dbName("", 0), dbName("", 1)} {
			p := filepath.Join(cache, name)
			must(t, os.Chmod(p, 0))
			t.Cleanup(func() { os.Chmod(p, 0o600) })
		}
		_, err := Open(context.Background(), nil, Options{CacheDir: cache})
		if err == nil {
			return "opened"
		}
		return err.Error()
	}
	// A directory nobody can reach, with the test binary and the cache.
	dir, err := os.MkdirTemp("", "piexport-access-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	must(t, os.Chmod(dir, 0o755))
	exe, err := os.Executable()
	must(t, err)
	bin := filepath.Join(dir, "catalog.test")
	copyExecutable(t, exe, bin)
	moved := filepath.Join(dir, "cache")
	must(t, os.Rename(cache, moved))
	// The other user may write in the directory, as its owner could:
	// only the databases are closed to it.
	must(t, os.Chmod(moved, 0o777))
	for _, name := range []string{dbName("", 0), dbName("", 1)} {
		must(t, os.Chmod(filepath.Join(moved, name), 0o600))
	}
	cmd := exec.Command(bin, "-test.run=^TestOpenCacheAsAnother$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIEXPORT_TEST_OPEN_CACHE="+moved)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	must(t, os.Rename(moved, cache))
	if err != nil {
		t.Fatalf("the helper failed: %v\n%s", err, out)
	}
	_, msg, ok := strings.Cut(string(out), "OPEN: ")
	if !ok {
		t.Fatalf("the helper said nothing of the opening:\n%s", out)
	}
	msg, _, _ = strings.Cut(msg, "\n")
	// The error names the cache where the helper found it.
	return strings.ReplaceAll(msg, moved, cache)
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	must(t, err)
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	must(t, err)
	_, err = io.Copy(out, in)
	must(t, err)
	must(t, out.Close())
}

// TestOpenCacheAsAnother is openAsOther's helper: run by it, it opens the
// cache it is given and prints what happened; run otherwise, it has
// nothing to do.
func TestOpenCacheAsAnother(t *testing.T) {
	cache := os.Getenv("PIEXPORT_TEST_OPEN_CACHE")
	if cache == "" {
		t.Skip("run by TestCacheNotDamagedKept, as another user")
	}
	_, err := Open(context.Background(), nil, Options{CacheDir: cache})
	if err == nil {
		fmt.Println("OPEN: opened")
		return
	}
	fmt.Println("OPEN: " + err.Error())
}
