package fileguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(in, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mk := func(name, to string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	loop := mk("loop", "loop")
	inputs := NewInputs(in)
	tests := []struct {
		out, want string
		err       any
	}{
		{filepath.Join(dir, "new.html"), filepath.Join(dir, "new.html"), nil},
		{page, page, nil},
		{mk("l1", "page.html"), page, nil},
		{mk("l2", "l1"), page, nil},
		{mk("abs", page), page, nil},
		{mk("dangling", "gone.html"), filepath.Join(dir, "gone.html"), nil},
		{in, "", &InputError{}},
		{mk("toin", "s.jsonl"), "", &InputError{}},
		{dir, "", &NotRegularError{}},
		{mk("todir", "."), "", &NotRegularError{}},
		{loop, "", "loop"},
	}
	if dev := charDevice(t, dir); dev != "" {
		tests = append(tests, struct {
			out, want string
			err       any
		}{dev, "", &NotRegularError{}})
	}
	for _, tc := range tests {
		got, err := Output(tc.out, inputs)
		switch want := tc.err.(type) {
		case nil:
			if err != nil || got != tc.want {
				t.Errorf("Output(%s) = %q, %v; want %q", tc.out, got, err, tc.want)
			}
		case *InputError:
			if !errors.As(err, &want) || want.Input != in || !IsOutputError(err) {
				t.Errorf("Output(%s): %v, want an InputError", tc.out, err)
			}
		case *NotRegularError:
			if !errors.As(err, &want) || !IsOutputError(err) {
				t.Errorf("Output(%s): %v, want a NotRegularError", tc.out, err)
			}
		case string:
			if err == nil || IsOutputError(err) {
				t.Errorf("Output(%s): %v, want a plain error", tc.out, err)
			}
		}
	}
}

// charDevice makes a character device node (the null device's numbers)
// in dir, so that a test of what piexport refuses to write never puts the
// system's /dev/null at risk. Making one needs root; without, it returns
// "" and the case is left out.
func charDevice(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("no device node to test with (%v); that case is left out", err)
		return ""
	}
	return p
}

// -o /dev/stdout with standard output a pipe: the link chain ends in
// /proc/self/fd/1, whose text ("pipe:[123]") names no file. The pipe is
// refused as a pipe, not taken for a new name that cannot be made.
func TestOutputThroughProcFD(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	fd := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Lstat(fd); err != nil {
		t.Skipf("no %s: %v", fd, err)
	}
	_, err = Output(fd, NewInputs())
	var ne *NotRegularError
	if !errors.As(err, &ne) || ne.Mode&os.ModeNamedPipe == 0 {
		t.Errorf("Output(%s) = %v, want a NotRegularError for a pipe", fd, err)
	}
}
