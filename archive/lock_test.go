package archive

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/piexport/piexport/session"
)

// Two builds into one directory at once: the second waits for the lock
// and, when the first takes too long, says the archive is busy; a build
// that finds the lock released in time goes on.
func TestBuildLock(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	files := sources(t, src, "pi-v3-earth0-tiny.jsonl")
	lockWait = 300 * time.Millisecond
	t.Cleanup(func() { lockWait = 3 * time.Second })

	unlock, err := lockDir(context.Background(), out)
	must(t, err)
	start := time.Now()
	_, err = Build(context.Background(), out, files, Options{})
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), out+": another piexport run is writing this archive; try again when it is done") {
		t.Fatalf("a build into a locked directory: %v", err)
	}
	if waited := time.Since(start); waited < lockWait {
		t.Errorf("gave up after %v, before waiting %v", waited, lockWait)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
		t.Error("the busy build wrote the index")
	}

	// Released while the second build waits: it goes on.
	lockWait = 5 * time.Second
	time.AfterFunc(200*time.Millisecond, unlock)
	res, err := Build(context.Background(), out, files, Options{})
	if err != nil || len(res.Rendered) != 1 {
		t.Fatalf("after the lock was released: %v, %+v", err, res)
	}

	// Cancelled while waiting.
	unlock, err = lockDir(context.Background(), out)
	must(t, err)
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := Build(ctx, out, files, Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a cancelled wait: %v", err)
	}
}

// The lock file is never followed through a link nor waited on as a pipe.
func TestLockFileNotRegular(t *testing.T) {
	out := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere")
	must(t, os.Symlink(target, filepath.Join(out, LockName)))
	if _, err := lockDir(context.Background(), out); err == nil {
		t.Error("the lock was taken through a symbolic link")
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the link's target was created")
	}
}

// A build started while another writes the directory waits for it to
// finish before it reads the manifest; the archive then is as the second
// one wrote it, every link of its index to a page that is there. Without
// the lock, two builds each removed pages the other had just listed.
func TestConcurrentBuilds(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	a := sources(t, filepath.Join(src, "a"), "pi-v3-earth0-tiny.jsonl", "pi-v3-sdk-branches-labels.jsonl")
	b := sources(t, filepath.Join(src, "b"), "pi-v3-sdk-compaction-custom.jsonl")
	_, err := Build(context.Background(), out, a, Options{})
	must(t, err)

	inFirst, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	waited := false // the first build waits once, before it reads a file
	go func() {
		_, err := Build(context.Background(), out, a, Options{Force: true, Progress: func(p Progress) {
			if !waited {
				waited = true
				close(inFirst)
				<-release
			}
		}})
		first <- err
	}()
	<-inFirst
	second := make(chan error, 1)
	go func() {
		_, err := Build(context.Background(), out, b, Options{})
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("the second build ran while the first was writing (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	must(t, <-first)
	must(t, <-second)
	checkLinks(t, out)
	if _, err := os.Lstat(filepath.Join(out, LockName)); err == nil {
		t.Error("the lock file was left behind")
	}
}

// checkLinks asserts that every page the index links is there.
func checkLinks(t *testing.T, out string) {
	t.Helper()
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	must(t, err)
	links := 0
	for _, part := range strings.Split(string(index), `href="`)[1:] {
		link, _, _ := strings.Cut(part, `"`)
		if !strings.HasSuffix(link, ".html") || strings.Contains(link, "/") {
			continue
		}
		links++
		if _, err := os.Stat(filepath.Join(out, link)); err != nil {
			t.Errorf("the index links %s, which is not there", link)
		}
	}
	if links == 0 {
		t.Error("the index links no page")
	}
}

// A named pipe where the index or the manifest goes is neither read (it
// would hang the build) nor replaced.
func TestArchiveFilesNotRegular(t *testing.T) {
	for _, name := range []string{"index.html", ManifestName} {
		src, out := t.TempDir(), t.TempDir()
		files := sources(t, src, "pi-v3-earth0-tiny.jsonl")
		fifo := filepath.Join(out, name)
		must(t, syscall.Mkfifo(fifo, 0o644))
		done := make(chan error, 1)
		go func() {
			_, err := Build(context.Background(), out, files, Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "named pipe") {
				t.Errorf("%s is a named pipe: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close() // let the stuck read return
			}
			t.Fatalf("%s is a named pipe: the build hangs", name)
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s: the named pipe was replaced", name)
		}
	}
}

// A source swapped for a named pipe after it was listed: reading its
// header for its fork's link does not wait for a writer.
func TestForkedFromNamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "s.jsonl")
	must(t, syscall.Mkfifo(fifo, 0o644))
	done := make(chan string, 1)
	go func() { done <- session.ForkedFrom(fifo) }()
	select {
	case got := <-done:
		if got != "" {
			t.Errorf("session.ForkedFrom(a named pipe) = %q", got)
		}
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("forkedFrom waits on a named pipe")
	}
}

// An archive directory whose search directory is a symbolic link (one
// received from someone else can be): a build removed old generations
// and doc files through it, elsewhere. It is refused, and what the link
// leads to is left as it was.
func TestSearchDirSymlink(t *testing.T) {
	for _, link := range []string{searchDir, filepath.Join(searchDir, docsDir)} {
		src, out, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
		files := sources(t, src, "pi-v3-earth0-tiny.jsonl")
		victim := filepath.Join(elsewhere, "1", "keep.js")
		must(t, os.MkdirAll(filepath.Dir(victim), 0o755))
		must(t, os.WriteFile(victim, []byte("mine"), 0o644))
		must(t, os.WriteFile(filepath.Join(elsewhere, "keep.js"), []byte("mine"), 0o644))
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(out, link)), 0o755))
		must(t, os.Symlink(elsewhere, filepath.Join(out, link)))
		// A manifest that names a generation there, as a real one would.
		must(t, os.WriteFile(filepath.Join(out, ManifestName), []byte(`{"version":4,"search":"search/1","sessions":{}}`), 0o644))
		_, err := Build(context.Background(), out, files, Options{})
		if err == nil || !strings.Contains(err.Error(), "is a symbolic link, not a directory of the archive's own") {
			t.Errorf("%s a symbolic link: %v", link, err)
		}
		for _, p := range []string{victim, filepath.Join(elsewhere, "keep.js")} {
			if b, err := os.ReadFile(p); err != nil || string(b) != "mine" {
				t.Errorf("%s a symbolic link: %s was touched: %q %v", link, p, b, err)
			}
		}
		if list, _ := os.ReadDir(elsewhere); len(list) != 2 {
			t.Errorf("%s a symbolic link: the build wrote where it leads: %v", link, list)
		}
	}
}
