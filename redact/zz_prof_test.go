package redact

import (
	"bytes"
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/piexport/piexport/session"
)

func TestZProf(t *testing.T) {
	data := generated()
	r, _ := New(Options{Secrets: true, Home: "/root", Users: []string{"root"}})
	f, _ := os.Create("/tmp/rd/cpu8.out")
	var total time.Duration
	var ss []*session.Session
	for range 3 {
		s, _ := session.Read(bytes.NewReader(data), "gen.jsonl")
		ss = append(ss, s)
	}
	pprof.StartCPUProfile(f)
	for _, s := range ss {
		t0 := time.Now()
		r.Session(s)
		total += time.Since(t0)
	}
	pprof.StopCPUProfile()
	t.Logf("%v per session", total/3)
}
