package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/session"
)

// Find lists the session files named by paths: a regular file is taken as
// given, whatever its name, with the transcripts of its omp sub-agents
// (session.SubAgentDir, searched as a directory is), so that a session
// named brings what it carries as it does when its directory is named;
// anything else but a directory is refused; a directory is searched
// recursively for *.jsonl files.
// The result is sorted and holds each file once. Symbolic links met inside a
// directory are not followed: they lead either out of it, which would expose
// files nobody asked for, or to a file the search finds anyway.
func Find(paths []string) ([]string, error) {
	found, err := find(nil, paths, false)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.path
	}
	return out, nil
}

// givenPathError is err about the path p as the caller gave it: "nosuch: no
// such file or directory", where the system names the absolute path it
// looked up and the call ("lstat /home/me/nosuch: ...").
func givenPathError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: "stat", Path: p, Err: err}
}

// file is one session file the catalog knows.
type file struct {
	// path names the file for people: as given, or the directory as given
	// joined with the file's place below it.
	path string
	// root is the real path of the directory the file was found in, "" for
	// a file given by name (or one in an fs.FS).
	root string
	// rel is the file's path below root, with the OS's separators.
	rel string
	// key identifies the file whatever it was called: its real path.
	key string
}

// find lists the files below paths, in fsys when it is not nil, else on
// disk. It is Find with what the catalog needs to open the files safely.
// lenient skips paths that no longer exist, for a catalog looking again.
func find(fsys fs.FS, paths []string, lenient bool) ([]file, error) {
	var out []file
	if fsys != nil {
		if len(paths) == 0 {
			paths = []string{"."}
		}
		for _, p := range paths {
			err := fs.WalkDir(fsys, p, func(name string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.Type().IsRegular() && (name == p || path.Ext(name) == ".jsonl") {
					out = append(out, file{path: name, key: name})
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			if agents := strings.TrimSuffix(p, ".jsonl"); agents != p {
				if d, err := fs.Stat(fsys, agents); err == nil && d.IsDir() {
					err := fs.WalkDir(fsys, agents, func(name string, d fs.DirEntry, err error) error {
						if err == nil && d.Type().IsRegular() && path.Ext(name) == ".jsonl" {
							out = append(out, file{path: name, key: name})
						}
						return err
					})
					if err != nil {
						return nil, err
					}
				}
			}
		}
		return sortFiles(out), nil
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, givenPathError(p, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if lenient && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, givenPathError(p, err)
		}
		fi, err := os.Stat(real)
		if err != nil {
			return nil, givenPathError(p, err)
		}
		if !fi.IsDir() {
			if err := fileguard.CheckInput(p, fi); err != nil {
				if lenient {
					continue
				}
				return nil, err
			}
			out = append(out, file{path: filepath.Clean(p), key: real})
			if agents := session.SubAgentDir(real); agents != real {
				// A directory of the file's own, not a link out of it.
				if fi, err := os.Lstat(agents); err == nil && fi.IsDir() {
					name := session.SubAgentDir(filepath.Clean(p))
					if abs != real {
						name = agents // beside the file a link leads to
					}
					found, err := findIn(name, agents)
					if err != nil {
						return nil, err
					}
					out = append(out, found...)
				}
			}
			continue
		}
		found, err := findIn(p, real)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return sortFiles(out), nil
}

// findIn lists the *.jsonl files below the directory real, named below p,
// the name it was given by.
func findIn(p, real string) ([]file, error) {
	var out []file
	err := filepath.WalkDir(real, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || filepath.Ext(name) != ".jsonl" {
			return nil
		}
		rel, err := filepath.Rel(real, name)
		if err != nil {
			return err
		}
		out = append(out, file{path: filepath.Join(p, rel), root: real, rel: rel, key: name})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("searching %s: %w", p, err)
	}
	return out, nil
}

// sortFiles sorts by path and keeps the first of the files that are one
// file under several names.
func sortFiles(files []file) []file {
	slices.SortStableFunc(files, func(a, b file) int { return strings.Compare(a.path, b.path) })
	seen := make(map[string]bool, len(files))
	return slices.DeleteFunc(files, func(f file) bool {
		if seen[f.key] {
			return true
		}
		seen[f.key] = true
		return false
	})
}
