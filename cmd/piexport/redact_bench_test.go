package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
)

// benchSetup builds piexport and writes a generated 50 MB session file,
// once, into a directory of the tests' cache, which TestMain removes.
var benchSetup = sync.OnceValues(func() (dir string, err error) {
	if dir, err = os.MkdirTemp(os.Getenv("PIEXPORT_CACHE_DIR"), "bench-"); err != nil {
		return "", err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "piexport"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v: %s", err, out)
	}
	f, err := os.Create(filepath.Join(dir, "gen.jsonl"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	opt := sessiongen.Options{Seed: 1, TargetBytes: 50_000_000, Branches: true, Images: true, Compactions: true, Labels: true}
	return dir, sessiongen.Write(f, opt)
})

// BenchmarkRedact times piexport on the generated 50 MB session as a user
// runs it, a new process each time (a process keeps rendered code blocks
// for the next session, which would favour whichever mode runs again):
// export (load, render, write the page), the same with --redact, and
// --redact-report (load, mask, print). Each iteration runs the three, in
// turns, so that they share the machine's load, and reports their times
// and the ratios to the export, of wall time and of CPU time, e.g.
//
//	go test ./cmd/piexport -run XXX -bench Redact -benchtime 1x -count 5 | benchstat -
func BenchmarkRedact(b *testing.B) {
	dir, err := benchSetup()
	if err != nil {
		b.Fatal(err)
	}
	in, out := filepath.Join(dir, "gen.jsonl"), filepath.Join(dir, "out.html")
	info, err := os.Stat(in)
	if err != nil {
		b.Fatal(err)
	}
	modes := []struct {
		name string
		args []string
	}{
		{"export", []string{"-q", "-o", out, in}},
		{"redact", []string{"-q", "--redact", "-o", out, in}},
		{"report", []string{"-q", "--redact-report", in}},
	}
	// Wall time, and CPU time (user and system), which other work on the
	// machine disturbs less.
	took, cpu := make([]time.Duration, len(modes)), make([]time.Duration, len(modes))
	b.SetBytes(info.Size())
	turn := 0
	for b.Loop() {
		for k := range modes {
			m := modes[(turn+k)%len(modes)]
			cmd := exec.Command(filepath.Join(dir, "piexport"), m.args...)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = io.Discard, &stderr
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("%v: %v: %s", m.args, err, stderr.Bytes())
			}
			took[(turn+k)%len(modes)] += time.Since(start)
			cpu[(turn+k)%len(modes)] += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		turn++
	}
	for k, m := range modes {
		b.ReportMetric(took[k].Seconds()/float64(b.N), m.name+"-s")
	}
	b.ReportMetric(float64(took[1])/float64(took[0]), "redact/export")
	b.ReportMetric(float64(took[2])/float64(took[0]), "report/export")
	b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "redact/export-cpu")
	b.ReportMetric(float64(cpu[2])/float64(cpu[0]), "report/export-cpu")
}
