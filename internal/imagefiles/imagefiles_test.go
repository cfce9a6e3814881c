package imagefiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A PNG's signature and a little more: what http.DetectContentType reads.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestAdd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.assets")
	d := &Dir{Path: dir, Link: "s.assets"}
	link, err := d.Add("image/png", png)
	if err != nil || !strings.HasPrefix(link, "s.assets/") || !strings.HasSuffix(link, ".png") {
		t.Fatalf("Add = %q, %v", link, err)
	}
	again, err := d.Add("image/jpeg", png) // the bytes say what it is
	if err != nil || again != link {
		t.Errorf("the same image again: %q, %v; want %q", again, err, link)
	}
	data, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(link, "s.assets/")))
	if err != nil || string(data) != string(png) {
		t.Errorf("the file holds %q, %v", data, err)
	}
	for _, bad := range [][]byte{
		[]byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`),
		[]byte("<html><script>alert(1)</script>"),
		[]byte("plain text"),
	} {
		if link, err := d.Add("image/png", bad); link != "" || err != nil {
			t.Errorf("Add(%q) = %q, %v; want nothing kept", bad, link, err)
		}
	}
	if names := d.Names(); len(names) != 1 {
		t.Errorf("names %v, want one", names)
	}
	// Prune keeps what is listed and files not of ours.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	if err := d.Prune(nil); err != nil {
		t.Fatal(err)
	}
	list, _ := os.ReadDir(dir)
	if len(list) != 1 || list[0].Name() != "notes.txt" {
		t.Errorf("after Prune: %v", list)
	}
}
