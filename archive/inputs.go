package archive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/piexport/piexport/internal/fileguard"
)

// refuseInputs fails the build, before it writes anything, when a file it
// could write or remove is one of its inputs: a session file given by
// name can be called index.html, carry a page's name, or lie in the
// search index's directory, whose old generations are removed whole.
func refuseInputs(dir string, files []string, next, old *manifest, f format) error {
	if in, ok := inputInside(filepath.Join(dir, searchDir), files); ok {
		return &fileguard.InputError{Output: filepath.Join(dir, searchDir), Input: in, Inside: true}
	}
	inputs := fileguard.NewInputs(files...)
	names := []string{f.index, ManifestName}
	for _, m := range []*manifest{next, old} {
		for _, e := range m.sortedEntries() {
			names = append(names, e.Stem+f.ext, e.Stem+formats[old.formatName()].ext)
		}
	}
	names = append(names, old.indexName())
	for _, name := range names {
		p := filepath.Join(dir, name)
		if in, ok := inputs.Holds(p); ok {
			return &fileguard.InputError{Output: p, Input: in}
		}
	}
	return nil
}

// refuseHousekeeping fails the build when one of its inputs is a file
// the build removes for its own sake: the lock file, removed when the
// build ends, what looks like a killed build's temporary file, or a file
// in a killed build's search directory (see removeStaleTemps). Session
// files can be given by any name.
func refuseHousekeeping(dir string, files []string) error {
	inputs := fileguard.NewInputs(files...)
	names := []string{LockName}
	if list, err := os.ReadDir(dir); err == nil {
		for _, d := range list {
			if isTemp(d.Name()) {
				names = append(names, d.Name())
			}
			if d.IsDir() && strings.HasPrefix(d.Name(), searchBuildPrefix) {
				p := filepath.Join(dir, d.Name())
				if in, ok := inputInside(p, files); ok {
					return &fileguard.InputError{Output: p, Input: in, Inside: true}
				}
			}
		}
	}
	for _, name := range names {
		p := filepath.Join(dir, name)
		if in, ok := inputs.Holds(p); ok {
			return &fileguard.InputError{Output: p, Input: in}
		}
	}
	return nil
}

// inputInside returns the first of files that lies under dir, symbolic
// links resolved: the file itself, or the file a link given as input
// leads to, either of which would go with the directory.
func inputInside(dir string, files []string) (string, bool) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", false // no such directory: nothing in it to remove
	}
	under := func(p string) bool {
		a, err := filepath.Abs(p)
		if err != nil {
			return false
		}
		rel, err := filepath.Rel(real, a)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", false
	}
	for _, p := range files {
		if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil && under(filepath.Join(d, filepath.Base(p))) {
			return p, true
		}
		if t, err := filepath.EvalSymlinks(p); err == nil && under(t) {
			return p, true
		}
	}
	return "", false
}

// checkSearchDirs refuses a build whose search directories are symbolic
// links (or anything but directories): the build removes old generations
// and doc files below them, which through a link would be files
// elsewhere (an archive directory received from someone else can hold
// such a link).
func checkSearchDirs(dir string) error {
	for _, p := range []string{filepath.Join(dir, searchDir), filepath.Join(dir, searchDir, docsDir)} {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is %s, not a directory of the archive's own: piexport writes and removes its search index only there", p, fileguard.Kind(fi.Mode()))
		}
	}
	return nil
}
