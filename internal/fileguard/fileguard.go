// Package fileguard keeps piexport from writing over what it must not:
// its own input, above all (an output name can be the input's, by
// accident or by a default), and anything that is not a regular file,
// such as a device, a named pipe or a directory. Files are compared by
// identity (os.SameFile), not by name, so a hard link, a symbolic link or
// another spelling of the input's path is caught too.
package fileguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Kind names the kind of file m describes, for messages: "a directory",
// "a named pipe (FIFO)", "a regular file"...
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// Inputs are the files a run reads, known by identity.
type Inputs struct {
	files []input
}

type input struct {
	name string
	info fs.FileInfo
}

// NewInputs stats paths (following symbolic links). A path that cannot be
// stat'ed is left out: it cannot be written over by mistake, and reading
// it fails with its own error.
func NewInputs(paths ...string) *Inputs {
	in := &Inputs{}
	in.Add(paths...)
	return in
}

// Add adds paths to the inputs.
func (in *Inputs) Add(paths ...string) {
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			in.files = append(in.files, input{p, fi})
		}
	}
}

// Find returns the name of the input that fi describes.
func (in *Inputs) Find(fi fs.FileInfo) (string, bool) {
	for _, f := range in.files {
		if os.SameFile(f.info, fi) {
			return f.name, true
		}
	}
	return "", false
}

// Holds returns the name of the input that path is, following symbolic
// links.
func (in *Inputs) Holds(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	return in.Find(fi)
}

// InputError is an output that would write over an input, or (Inside)
// a directory holding an input that the run removes or rewrites.
type InputError struct {
	Output, Input string
	Inside        bool
}

func (e *InputError) Error() string {
	if e.Inside {
		return fmt.Sprintf("the input %s is inside %s, which this run rewrites; piexport never writes over its input", e.Input, e.Output)
	}
	if e.Output == e.Input {
		return fmt.Sprintf("%s is an input of this run; piexport never writes over its input", e.Output)
	}
	return fmt.Sprintf("%s is the input %s; piexport never writes over its input", e.Output, e.Input)
}

// NotRegularError is an output that names something piexport does not
// replace: a directory, a device, a named pipe...
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	if e.Mode.IsDir() {
		return fmt.Sprintf("%s is a directory: name a file in it", e.Path)
	}
	return fmt.Sprintf("%s is %s; piexport writes only regular files, or a new name", e.Path, Kind(e.Mode))
}

// maxLinks bounds the symbolic links Output follows, as the kernel does.
const maxLinks = 40

// Output checks that path may be written as an output of a run reading
// in, and returns where to write: path itself, or, when path is a
// symbolic link, the file the link leads to, so that the link stays and
// the file it names is replaced (atomically, by the caller). It refuses,
// with an *InputError or a *NotRegularError, when that file is one of
// the inputs or is anything but a regular file or a new name.
func Output(path string, in *Inputs) (string, error) {
	// What the path leads to, as the kernel follows it: /dev/stdout leads
	// through /proc/self/fd/1 to a pipe, whose link text ("pipe:[123]")
	// names no file the loop below could follow.
	if fi, err := os.Stat(path); err == nil {
		if name, ok := in.Find(fi); ok {
			return "", &InputError{Output: path, Input: name}
		}
		if !fi.Mode().IsRegular() {
			return "", &NotRegularError{Path: path, Mode: fi.Mode()}
		}
	}
	target := path
	for range maxLinks {
		fi, err := os.Lstat(target)
		if errors.Is(err, fs.ErrNotExist) {
			return target, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if name, ok := in.Find(fi); ok {
				return "", &InputError{Output: path, Input: name}
			}
			if !fi.Mode().IsRegular() {
				return "", &NotRegularError{Path: path, Mode: fi.Mode()}
			}
			return target, nil
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// IsOutputError reports whether err is an output refused by this package.
func IsOutputError(err error) bool {
	var ie *InputError
	var ne *NotRegularError
	return errors.As(err, &ie) || errors.As(err, &ne)
}
