package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/piexport/piexport/humanize"
)

// Errors from the system name what failed in its own terms ("stat
// nosuch.jsonl: no such file or directory", "rename
// .x.4086941724.piexport-tmp: ..."). These say it in the user's: the file
// they named and what is wrong with it, without temporary names. The
// original error stays wrapped, for errors.Is.

// plainError is an error said in plain words, wrapping the original.
type plainError struct {
	msg string
	err error
}

func (e *plainError) Error() string { return e.msg }
func (e *plainError) Unwrap() error { return e.err }

// inputError says why the input name could not be read.
func inputError(name string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return &plainError{name + ": no such file or directory", err}
	case errors.Is(err, fs.ErrPermission):
		return &plainError{name + ": not allowed to read it (permission denied)", err}
	}
	return err
}

// pathsError is inputError for an error about one of the paths the
// user named (a session file or a directory to search): the catalog
// and the server name it as given. Any other error is returned as it is.
func pathsError(paths []string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && slices.Contains(paths, pe.Path) {
		return inputError(pe.Path, err)
	}
	return err
}

// noSessionFiles says that paths hold no session file to read.
func noSessionFiles(paths []string) error {
	return fmt.Errorf("no session files (*.jsonl) under %s", strings.Join(paths, ", "))
}

// couldNotRead says that failed of the total session files could not be
// read (each said why on a line of its own).
func couldNotRead(failed, total int) error {
	return fmt.Errorf("%d of %s could not be read", failed, count(total, "session file", "session files"))
}

// outputError says why the output out could not be written; err comes
// from writing it through a temporary file.
func outputError(out string, err error) error {
	if err == nil {
		return nil
	}
	dir := filepath.Dir(out)
	var why string
	info, statErr := os.Stat(out)
	switch {
	case statErr == nil && info.IsDir():
		why = out + " is a directory (name a file in it)"
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(dir); serr != nil {
			why = "the directory " + dir + " does not exist"
		} else {
			why = "it could not be created"
		}
	case errors.Is(err, fs.ErrPermission):
		why = "not allowed to write in " + dir + " (permission denied)"
	case errors.Is(err, syscall.ENOSPC):
		why = "the disk is full"
	case errors.Is(err, syscall.EROFS):
		why = dir + " is on a read-only file system"
	default:
		// The cause without the operation and the temporary file's name.
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe):
			why = pe.Err.Error()
		case errors.As(err, &le):
			why = le.Err.Error()
		default:
			why = err.Error()
		}
	}
	return &plainError{"cannot write " + out + ": " + why, err}
}

// listenError says why the server could not listen on addr.
func listenError(addr string, err error) error {
	host, port, splitErr := net.SplitHostPort(addr)
	if splitErr != nil {
		return err
	}
	free := net.JoinHostPort(host, "0")
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return &plainError{fmt.Sprintf("port %s on %s is taken by another program; stop it, choose another port with --addr, or use --addr %s for a free one", port, host, free), err}
	case errors.Is(err, syscall.EACCES):
		if n, _ := strconv.Atoi(port); n > 0 && n < 1024 {
			return &plainError{fmt.Sprintf("port %s needs administrator rights; use a port above 1023, or --addr %s for a free one", port, free), err}
		}
		return &plainError{fmt.Sprintf("not allowed to listen on %s; use --addr %s for a free port", addr, free), err}
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return &plainError{fmt.Sprintf("%s is not an address of this machine; use --addr 127.0.0.1:0 to serve locally", host), err}
	}
	return err
}

// count is humanize.Count, short for the messages here.
func count(n int, one, many string) string { return humanize.Count(n, one, many) }
