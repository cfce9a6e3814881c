package fastlex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/piexport/piexport/internal/sessiongen"
)

// generatedBlocks returns the fenced blocks of a generated code-dense
// session (sessiongen's code profile), by language: the code an export
// highlights most.
var generatedBlocks = sync.OnceValue(func() map[string][]string {
	var buf bytes.Buffer
	if err := sessiongen.Write(&buf, sessiongen.Options{Seed: 1, TargetBytes: 4 << 20, Profile: sessiongen.ProfileCode}); err != nil {
		panic(err)
	}
	fence := regexp.MustCompile("(?s)```([a-z]+)\n(.*?)```")
	blocks := map[string][]string{}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e struct {
			Message *struct {
				Role    string
				Content json.RawMessage
			}
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Message == nil || e.Message.Role != "assistant" {
			continue
		}
		var bs []struct{ Type, Text string }
		_ = json.Unmarshal(e.Message.Content, &bs)
		for _, b := range bs {
			for _, m := range fence.FindAllStringSubmatch(b.Text, -1) {
				blocks[m[1]] = append(blocks[m[1]], m[2])
			}
		}
	}
	return blocks
})

// BenchmarkLexGenerated lexes the fenced blocks of a generated code-dense
// session, one language at a time, block by block as an export does,
// with chroma (Tokenise) and with fastlex (Lex, as render calls it).
// MB/s counts the source's bytes.
func BenchmarkLexGenerated(b *testing.B) {
	blocks := generatedBlocks()
	var names []string
	for name := range blocks {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		l := lexers.Get(name)
		n := 0
		for _, text := range blocks[name] {
			n += len(text)
		}
		fast := Wrap(l)
		var buf []chroma.Token
		var err error
		for _, tc := range []struct {
			impl string
			lex  func(string) error
		}{
			{"chroma", func(text string) error { _, err := chroma.Tokenise(l, nil, text); return err }},
			{"fastlex", func(text string) error { buf, _, err = Lex(fast, text, 1<<40, buf); return err }},
		} {
			b.Run(name+"/"+tc.impl, func(b *testing.B) {
				b.SetBytes(int64(n))
				cpu := cpuTime()
				for b.Loop() {
					for _, text := range blocks[name] {
						if err := tc.lex(text); err != nil {
							b.Fatal(err)
						}
					}
				}
				// On a shared machine the wall clock measures the other
				// processes too; the CPU time of this one does not.
				b.ReportMetric(float64(n)*float64(b.N)/1e6/(cpuTime()-cpu).Seconds(), "cpu-MB/s")
			})
		}
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
