// Package imagefiles keeps the images of Markdown documents as files in
// a directory beside them (gfm.ImageStore): named by their content, so
// that the same image is one file however often it is shown and a name
// never changes; written atomically; and only of the image types a page
// shows safely, found from the bytes themselves, not from what the
// session says they are (an SVG, which can carry script, is refused).
package imagefiles

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/piexport/piexport/internal/atomicfile"
)

// extensions are the image types kept, by the MIME type
// http.DetectContentType finds, and their file extensions.
var extensions = map[string]string{
	"image/png":  ".png",
	"image/jpeg": ".jpg",
	"image/gif":  ".gif",
	"image/webp": ".webp",
}

// Dir keeps images in one directory. It is safe for several goroutines.
type Dir struct {
	// Path is the directory, made with the first image it keeps.
	Path string
	// Link is how a document links the directory: "NAME.assets",
	// "../assets".
	Link string

	mu    sync.Mutex
	names []string // kept, sorted
}

// Add keeps data in the directory, unless a file of that content is
// there already, and returns its link: Link, "/", the file's name. It
// returns "" for bytes that are no image of the allowed types.
func (d *Dir) Add(_ string, data []byte) (string, error) {
	ext, ok := extensions[http.DetectContentType(data)]
	if !ok {
		return "", nil
	}
	sum := sha256.Sum256(data)
	name := hex.EncodeToString(sum[:16]) + ext
	d.mu.Lock()
	defer d.mu.Unlock()
	if i, found := slices.BinarySearch(d.names, name); !found {
		path := filepath.Join(d.Path, name)
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(data)) {
			if err := os.MkdirAll(d.Path, 0o755); err != nil {
				return "", fmt.Errorf("making the images' directory: %w", err)
			}
			if err := atomicfile.WriteFile(path, data); err != nil {
				return "", fmt.Errorf("writing an image: %w", err)
			}
		}
		d.names = slices.Insert(d.names, i, name)
	}
	return d.Link + "/" + name, nil
}

// Names lists the files the directory was given, sorted.
func (d *Dir) Names() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.names)
}

// Prune removes from the directory the image files of ours not in keep,
// and the directory when it is left empty; it leaves other files alone.
func (d *Dir) Prune(keep []string) error {
	list, err := os.ReadDir(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	left := 0
	for _, f := range list {
		if !f.Type().IsRegular() || !isImageName(f.Name()) || slices.Contains(keep, f.Name()) {
			left++
			continue
		}
		if err := os.Remove(filepath.Join(d.Path, f.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if left == 0 {
		os.Remove(d.Path)
	}
	return nil
}

// isImageName reports whether name is one Add gives: 32 hex digits and
// an image's extension.
func isImageName(name string) bool {
	ext := filepath.Ext(name)
	base := name[:len(name)-len(ext)]
	if len(base) != 32 {
		return false
	}
	if _, err := hex.DecodeString(base); err != nil {
		return false
	}
	for _, e := range extensions {
		if e == ext {
			return true
		}
	}
	return false
}
