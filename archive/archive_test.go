package archive

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/atomicfile"
	"github.com/piexport/piexport/internal/sessiongen"
)

const corpus = "../testdata/corpus"

// sources copies corpus files into dir/--proj--/ and adds an empty file,
// which fails to load.
func sources(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	var paths []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(corpus, n))
		must(t, err)
		p := filepath.Join(dir, "--home-dev-proj--", n)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, b, 0o644))
		paths = append(paths, p)
	}
	bad := filepath.Join(dir, "--home-dev-proj--", "empty.jsonl")
	must(t, os.WriteFile(bad, nil, 0o644))
	return append(paths, bad)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot is the bytes and modification time of every file of an archive.
type snapshot map[string]fileState

type fileState struct {
	data  string
	mtime time.Time
}

func snap(t *testing.T, dir string) snapshot {
	t.Helper()
	s := snapshot{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		s[filepath.ToSlash(rel)] = fileState{string(b), fi.ModTime()}
		return nil
	})
	must(t, err)
	return s
}

// bySearch splits a list of files into those of the search index and the
// others.
func bySearch(files []string) (search, others []string) {
	for _, f := range files {
		if strings.HasPrefix(f, "search/") {
			search = append(search, f)
		} else {
			others = append(others, f)
		}
	}
	return search, others
}

// changed lists the files added, removed or rewritten between a and b.
func changed(a, b snapshot) []string {
	var out []string
	for k, v := range b {
		if w, ok := a[k]; !ok || w.data != v.data || !w.mtime.Equal(v.mtime) {
			out = append(out, k)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

const (
	pageA = "home-dev-proj--pi-v3-sdk-branches-labels.html"
	pageB = "home-dev-proj--pi-v3-sdk-compaction-custom.html"
	pageC = "home-dev-proj--pi-v3-earth0-tiny.html"
)

func TestBuild(t *testing.T) {
	src := t.TempDir()
	out := filepath.Join(t.TempDir(), "archive")
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-sdk-compaction-custom.jsonl", "pi-v3-earth0-tiny.jsonl")
	var calls []string
	var last Progress
	res, err := Build(context.Background(), out, files, Options{Generator: "piexport test", Progress: func(p Progress) {
		if len(calls) == 0 || p.Done != last.Done {
			// A file read; between these, pages tell as they are written.
			calls = append(calls, filepath.Base(p.Path))
		}
		if p.Files != 4 || p.Done != len(calls)-1 || p.BytesDone < last.BytesDone || p.Started.IsZero() {
			t.Errorf("progress %+v after %+v, want 4 files, %d done, bytes that only grow", p, last, len(calls)-1)
		}
		last = p
	}})
	must(t, err)
	if len(res.Rendered) != 3 || res.Unchanged != 0 || len(res.Failed) != 1 || !strings.Contains(res.Failed[0].Err.Error(), "empty.jsonl") {
		t.Errorf("result = %+v", res)
	}
	if len(calls) != 5 || calls[0] != "." {
		t.Errorf("progress calls = %q, want a first with no path and one per source", calls)
	}
	var size int64
	for _, f := range files {
		fi, err := os.Stat(f)
		must(t, err)
		size += fi.Size()
	}
	if last.Bytes != size || last.BytesDone != size {
		t.Errorf("progress ends at %d of %d bytes, want %d of %d", last.BytesDone, last.Bytes, size, size)
	}
	got := snap(t, out)
	var names []string
	for k := range got {
		names = append(names, k)
	}
	slices.Sort(names)
	search, names := bySearch(names)
	// The search index: its meta, one segment of one shard (the sessions
	// are small), a file per session.
	if len(search) != 1+1+3 || !slices.Contains(search, "search/meta-1.js") || !slices.Contains(search, "search/g1/t0.js") {
		t.Errorf("search files = %q", search)
	}
	want := []string{ManifestName, pageC, pageA, pageB, "index.html"}
	if !slices.Equal(names, want) {
		t.Errorf("archive files = %q, want %q", names, want)
	}
	index := got["index.html"].data
	for _, p := range []string{pageA, pageB, pageC} {
		if !strings.Contains(index, `href="`+p+`"`) {
			t.Errorf("index does not link %s", p)
		}
		if !strings.Contains(got[p].data, `<meta name="generator" content="piexport test">`) {
			t.Errorf("%s is not a session page", p)
		}
	}
	if !strings.Contains(index, "empty.jsonl: not a pi session file") || strings.Contains(index, `href="home-dev-proj--empty`) {
		t.Error("the index does not list the bad file with its error, or links it")
	}
	if res.Index != filepath.Join(out, "index.html") {
		t.Errorf("Index = %q", res.Index)
	}
}

func TestIncremental(t *testing.T) {
	src := t.TempDir()
	out := t.TempDir()
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-sdk-compaction-custom.jsonl", "pi-v3-earth0-tiny.jsonl")
	build := func() Result {
		t.Helper()
		res, err := Build(context.Background(), out, files, Options{})
		must(t, err)
		return res
	}
	build()
	s1 := snap(t, out)

	// Nothing changed: nothing is written.
	res := build()
	// The file that failed is counted once, as failed: the figures add
	// up to the sources given.
	if len(res.Rendered) != 0 || res.Unchanged != 3 || len(res.Failed) != 1 {
		t.Errorf("second build: %+v, want nothing rendered, 3 unchanged, 1 failed", res)
	}
	if c := changed(s1, snap(t, out)); c != nil {
		t.Errorf("a build with nothing changed wrote %q", c)
	}

	// Touched, not changed: the hash says the page is current.
	later := time.Now().Add(time.Minute)
	must(t, os.Chtimes(files[0], later, later))
	res = build()
	if len(res.Rendered) != 0 {
		t.Errorf("a touched file was rendered again: %q", res.Rendered)
	}
	s2 := snap(t, out)
	if c := changed(s1, s2); !slices.Equal(c, []string{ManifestName}) {
		t.Errorf("after a touch, changed %q, want only the manifest", c)
	}

	// One source grows: only its page, the index (its counts) and the
	// manifest change.
	f, err := os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(`{"type":"message","id":"zz000001","parentId":null,"timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"one more thing"}}` + "\n")
	must(t, err)
	must(t, f.Close())
	res = build()
	if !slices.Equal(res.Rendered, files[1:2]) {
		t.Errorf("rendered %q, want %q", res.Rendered, files[1:2])
	}
	s3 := snap(t, out)
	if search, c := bySearch(changed(s2, s3)); !slices.Equal(c, []string{ManifestName, pageB, "index.html"}) || len(search) == 0 {
		t.Errorf("after a change, changed %q and %d search files, want the page, the index, the manifest and the search index", c, len(search))
	}
	if !strings.Contains(s3[pageB].data, "one more thing") {
		t.Error("the page lacks the new entry")
	}

	// A source is deleted: its page goes, after the index stops linking it.
	must(t, os.Remove(files[2]))
	files = slices.Delete(files, 2, 3)
	res = build()
	if !slices.Equal(res.Removed, []string{pageC}) {
		t.Errorf("removed %q, want %q", res.Removed, []string{pageC})
	}
	s4 := snap(t, out)
	if _, ok := s4[pageC]; ok || strings.Contains(s4["index.html"].data, pageC) {
		t.Error("the deleted source's page or link is still there")
	}
	if _, c := bySearch(changed(s3, s4)); !slices.Equal(c, []string{ManifestName, pageC, "index.html"}) {
		t.Errorf("after a delete, changed %q", c)
	}

	// A new source named like an existing one elsewhere gets its own name;
	// the existing pages keep theirs.
	other := filepath.Join(t.TempDir(), "--home-dev-proj--", "pi-v3-sdk-branches-labels.jsonl")
	must(t, os.MkdirAll(filepath.Dir(other), 0o755))
	b, err := os.ReadFile(files[0])
	must(t, err)
	must(t, os.WriteFile(other, b, 0o644))
	files = append(files, other)
	res = build()
	s5 := snap(t, out)
	if _, c := bySearch(changed(s4, s5)); len(c) != 3 || !strings.HasPrefix(c[1], strings.TrimSuffix(pageA, ".html")+"-") {
		t.Errorf("after adding a namesake, changed %q, want a new page with a hashed name, the index and the manifest", c)
	}
}

// An interrupted build leaves the previous archive whole and readable.
func TestInterrupted(t *testing.T) {
	src := t.TempDir()
	out := t.TempDir()
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-sdk-compaction-custom.jsonl", "pi-v3-earth0-tiny.jsonl")
	_, err := Build(context.Background(), out, files, Options{})
	must(t, err)
	before := snap(t, out)

	// A new theme makes every page stale; the build is stopped after its
	// first page.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = Build(ctx, out, files, Options{Theme: "dark", Workers: 1, Progress: func(p Progress) {
		if p.Done == 1 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted build: err = %v, want context.Canceled", err)
	}
	checkReadable(t, out, before)

	// A page that cannot be written stops the build the same way.
	page := filepath.Join(out, pageB)
	must(t, os.Remove(page))
	must(t, os.MkdirAll(filepath.Join(page, "in-the-way"), 0o755))
	_, err = Build(context.Background(), out, files, Options{Theme: "light", Workers: 1})
	if err == nil {
		t.Fatal("a build that cannot write a page succeeded")
	}
	must(t, os.RemoveAll(page))
	before[pageB] = fileState{}
	delete(before, pageB)
	checkReadable(t, out, before)

	// The next build completes.
	res, err := Build(context.Background(), out, files, Options{Theme: "dark"})
	must(t, err)
	if len(res.Rendered) != 3 {
		t.Errorf("after the interruptions, rendered %d pages, want 3", len(res.Rendered))
	}
}

// checkReadable checks that the index and the manifest are those of
// before, that every page the index links exists and parses, and that no
// temporary file is left.
func checkReadable(t *testing.T, dir string, before snapshot) {
	t.Helper()
	now := snap(t, dir)
	for _, name := range []string{"index.html", ManifestName} {
		if now[name] != before[name] {
			t.Errorf("%s changed", name)
		}
	}
	doc, err := html.Parse(strings.NewReader(now["index.html"].data))
	must(t, err)
	var links []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			for _, a := range n.Attr {
				if a.Key == "href" && strings.HasSuffix(a.Val, ".html") {
					links = append(links, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if len(links) == 0 {
		t.Error("the index links no page")
	}
	for _, l := range links {
		p, ok := now[l]
		if !ok && l != pageB {
			t.Errorf("the index links %s, which is missing", l)
			continue
		}
		if ok && (!strings.Contains(p.data, "</html>") || !strings.HasPrefix(p.data, "<!DOCTYPE html>")) {
			t.Errorf("%s is not a whole page", l)
		}
	}
	for name := range now {
		if strings.HasSuffix(name, atomicfile.TempSuffix) {
			t.Errorf("temporary file %s left behind", name)
		}
	}
}

func TestStemFor(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"/h/.pi/agent/sessions/--home-dev-webapp--/2026-01-05T08-00-00-000Z_0195.jsonl", "home-dev-webapp--2026-01-05T08-00-00-000Z_0195"},
		{"/h/.pi/agent/sessions/--C--Users-dev-src--/a b?c.jsonl", "C--Users-dev-src--a-b-c"},
		{"corpus/évian.jsonl", "corpus--vian"},
		{"/x/../.hidden.jsonl", "hidden"},
		{"/s.jsonl", "s"},
	} {
		if got := stemFor(tc.path); got != tc.want {
			t.Errorf("stemFor(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	long := "/p/--" + strings.Repeat("x", 300) + "--/s.jsonl"
	if got := stemFor(long); len(got) != maxStem {
		t.Errorf("long name: %d bytes, want %d", len(got), maxStem)
	}
	n := newNamer()
	a, b, c := n.name("/a/p/S.jsonl"), n.name("/b/p/s.jsonl"), n.name("/c/d/index")
	if a != "p--S" || !strings.HasPrefix(b, "p--s-") || b == a || c != "d--index" {
		t.Errorf("names = %q %q %q", a, b, c)
	}
	if !slices.Contains([]bool{n.reserve("INDEX")}, false) {
		t.Error("index is not reserved")
	}
}

func TestFormats(t *testing.T) {
	if _, err := Build(context.Background(), t.TempDir(), nil, Options{Format: "pdf"}); err == nil {
		t.Error("an unknown format was accepted")
	}
	src := t.TempDir()
	out := t.TempDir()
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-tiny.jsonl")
	res, err := Build(context.Background(), out, files, Options{Format: "md", Home: "/home/dev"})
	must(t, err)
	if len(res.Rendered) != 2 || len(res.Failed) != 1 || res.Index != filepath.Join(out, "index.md") {
		t.Errorf("result = %+v", res)
	}
	s := snap(t, out)
	mdA := strings.TrimSuffix(pageA, ".html") + ".md"
	if !strings.Contains(s[mdA].data, "Health endpoint") {
		t.Errorf("%s is not the session's Markdown", mdA)
	}
	index := s["index.md"].data
	for _, want := range []string{"[Health endpoint](" + mdA + ")", "Could not be read:", "empty.jsonl"} {
		if !strings.Contains(index, want) {
			t.Errorf("index.md lacks %q:\n%s", want, index)
		}
	}

	// Back to HTML in the same directory: the Markdown files go.
	res, err = Build(context.Background(), out, files, Options{})
	must(t, err)
	if len(res.Rendered) != 2 || !slices.Contains(res.Removed, mdA) || !slices.Contains(res.Removed, "index.md") {
		t.Errorf("switching formats: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(out, pageA)); err != nil {
		t.Error(err)
	}
}

func BenchmarkArchive(b *testing.B) {
	src := b.TempDir()
	if _, err := sessiongen.Sessions(src, 1000, 3); err != nil {
		b.Fatal(err)
	}
	files, err := catalog.Find([]string{src})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range files {
		fi, _ := os.Stat(f)
		size += fi.Size()
	}
	b.Run("scratch", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			out := b.TempDir()
			res, err := Build(context.Background(), out, files, Options{})
			if err != nil || len(res.Rendered) != len(files) {
				b.Fatalf("err %v, %d rendered", err, len(res.Rendered))
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		out := b.TempDir()
		if _, err := Build(context.Background(), out, files, Options{}); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			res, err := Build(context.Background(), out, files, Options{})
			if err != nil || res.Unchanged != len(files) {
				b.Fatalf("err %v, %d unchanged", err, res.Unchanged)
			}
		}
	})
}

// TestBuildRefusesFileWithMask: a page that carries its session file
// carries it as it is, which would undo what Mask masks; the archive
// refuses the two together and writes nothing.
func TestBuildRefusesFileWithMask(t *testing.T) {
	src := t.TempDir()
	out := filepath.Join(t.TempDir(), "archive")
	files := sources(t, src, "pi-v3-earth0-tiny.jsonl")
	_, err := Build(context.Background(), out, files, Options{
		EmbedJSONL: true,
		Mask:       &recordingMasker{masked: map[string][]string{}},
	})
	if err == nil {
		t.Fatal("an archive carrying session files as they are was built with Mask")
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused archive wrote %s (%v)", out, err)
	}
}
