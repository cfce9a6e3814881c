package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/piexport/piexport/internal/sessiongen"
)

// history is a generated history of sessions.
type history struct {
	dir      string
	files    []string
	sizes    []int64
	bytes    int64
	projects int
}

// Sessions run from 1 to 9 MB (sessiongen's --size, 0.93 MB steps) over 12
// projects: 300 sessions make 1.4 GB, as in the issue that set the targets.
const (
	projects = 12
	sizeStep = 930_000
)

// makeHistory generates a history of about want bytes in dir, or reuses
// the one a run before left there.
func makeHistory(dir string, want int64, log io.Writer) (*history, error) {
	n := int((want + 5*sizeStep - 1) / (5 * sizeStep))
	done := filepath.Join(dir, ".complete")
	h := &history{dir: dir, projects: projects}
	var cwds []string
	for i := range n {
		cwd := fmt.Sprintf("/home/dev/projects/p%02d", i%projects)
		cwds = append(cwds, cwd)
		h.files = append(h.files, filepath.Join(dir, sessiongen.SessionDir(cwd), fmt.Sprintf("s%04d.jsonl", i)))
	}
	if b, err := os.ReadFile(done); err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(n) {
		fmt.Fprintf(log, "generating %d sessions in %s\n", n, dir)
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		if err := generate(h.files, cwds); err != nil {
			return nil, err
		}
		if err := os.WriteFile(done, []byte(strconv.Itoa(n)), 0o644); err != nil {
			return nil, err
		}
	}
	for _, f := range h.files {
		fi, err := os.Stat(f)
		if err != nil {
			return nil, err
		}
		h.sizes = append(h.sizes, fi.Size())
		h.bytes += fi.Size()
	}
	return h, nil
}

func generate(files, cwds []string) error {
	work := make(chan int)
	errs := make(chan error, len(files))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range work {
				f := files[i]
				if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
					errs <- err
					continue
				}
				errs <- sessiongen.WriteFile(f, sessiongen.Options{
					Seed:        int64(i + 1),
					TargetBytes: int64(1+i*5%9) * sizeStep,
					Branches:    true,
					Compactions: true,
					Cwd:         cwds[i],
				})
			}
		})
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return errors.Join(all...)
}

// nearest returns the indexes of the n files closest to size bytes.
func (h *history) nearest(size int64, n int) []int {
	idx := make([]int, len(h.files))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		da, db := abs(h.sizes[a]-size), abs(h.sizes[b]-size)
		if da != db {
			if da < db {
				return -1
			}
			return 1
		}
		return a - b
	})
	return idx[:min(n, len(idx))]
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// shuffled returns n indexes of files drawn at random, uniformly, with a
// fixed seed.
func (h *history) shuffled(n int) []int {
	r := rand.New(rand.NewPCG(7, 11))
	out := make([]int, n)
	for i := range out {
		out[i] = r.IntN(len(h.files))
	}
	return out
}
