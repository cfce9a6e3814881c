package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// results collects figures: printed as a table per history, and appended
// to a TSV file, one line per figure, with the time and the machine's load.
type results struct {
	path string
	f    *os.File
	size string
	// loads shows, in the table, the load average beside each figure.
	loads   bool
	lines   []string
	targets []string
}

func newResults(path string) (*results, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	return &results{path: path, f: f}, nil
}

func (r *results) add(what string, v float64, unit string) {
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(r.f, "%s\t%s\t%s\t%.3f\t%s\t%s\n", time.Now().Format(time.RFC3339), r.size, what, v, unit, strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	line := fmt.Sprintf("| %s | %s |", what, format(v, unit))
	if r.loads {
		line += fmt.Sprintf(" %.2f |", loadAverage())
	}
	r.lines = append(r.lines, line)
}

func format(v float64, unit string) string {
	switch {
	case unit == "":
		return fmt.Sprintf("%.0f", v)
	case v >= 100:
		return fmt.Sprintf("%.0f %s", v, unit)
	default:
		return fmt.Sprintf("%.2g %s", v, unit)
	}
}

// target notes a figure that has a target (the catalog's, issue 34's
// table), to print apart: met or not.
func (r *results) target(what string, v float64, op string, want float64, unit string) {
	met := v >= want
	if op == "<=" {
		met = v <= want
	}
	verdict := "met"
	if !met {
		verdict = "NOT MET"
	}
	r.targets = append(r.targets, fmt.Sprintf("| %s | %s | %s %s | %s |", what, format(v, unit), op, format(want, unit), verdict))
}

func (r *results) print(w io.Writer) {
	load, _ := os.ReadFile("/proc/loadavg")
	head := "| figure | value |\n| --- | --- |"
	if r.loads {
		head = "| figure | value | load (1 min) |\n| --- | --- | --- |"
	}
	fmt.Fprintf(w, "\n%s history (load average now: %s)\n\n%s\n%s\n", r.size, strings.TrimSpace(string(load)), head, strings.Join(r.lines, "\n"))
	if len(r.targets) > 0 {
		fmt.Fprintf(w, "\n| target | value | wanted | |\n| --- | --- | --- | --- |\n%s\n", strings.Join(r.targets, "\n"))
	}
	r.lines, r.targets = nil, nil
}

func (r *results) close() { r.f.Close() }

// loadAverage is the machine's load average over the last minute: the
// figures of a run on a busy machine are told apart by it.
func loadAverage() float64 {
	b, _ := os.ReadFile("/proc/loadavg")
	var l float64
	fmt.Sscan(string(b), &l)
	return l
}
