package page

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	xhtml "golang.org/x/net/html"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// The page's script holds copies of logic the Go side has too: the
// figures of package humanize, the tree's layout of session.Layout. These
// tests run the same cases through both, in Chromium (see
// browsertest.ScriptTab), so that the two cannot drift apart.

func TestFiguresAgreeWithHumanize(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	tb := browsertest.ScriptTab(t, piexport.Assets(), "figures.js")
	rng := rand.New(rand.NewPCG(1, 2))
	var counts []int64
	for _, base := range []int64{0, 1, 999, 1000, 9949, 9950, 9999, 99_499, 99_500, 999_499, 999_500, 9_949_999, 9_950_000,
		99_499_999, 99_500_000, 999_499_999, 999_500_000, 9_949_999_999, 99_499_999_999, 99_500_000_000, 1 << 40} {
		for d := int64(-2); d <= 2; d++ {
			if base+d >= 0 {
				counts = append(counts, base+d)
			}
		}
	}
	for range 2000 {
		counts = append(counts, int64(math.Pow(10, rng.Float64()*12)))
	}
	costs := []float64{0, -1, 0.00004, 0.00005, 0.00006, 0.0001, 0.00994, 0.00995, 0.99994, 0.99995, 0.9999, 1, 1.004, 1.005,
		9.995, 99.995, 1234.5678, 999999.995, 1e11, 1e12, 1.5e13, 1e300}
	for range 2000 {
		costs = append(costs, math.Pow(10, rng.Float64()*14-6))
	}
	got := browsertest.Eval[[]string](tb, fmt.Sprintf(`%s.map(figures.tokens)`, browsertest.JSON(t, counts)))
	for i, n := range counts {
		if want := humanize.Tokens(n); got[i] != want {
			t.Errorf("tokens(%d): the page says %q, humanize %q", n, got[i], want)
		}
	}
	got = browsertest.Eval[[]string](tb, fmt.Sprintf(`%s.map(figures.cost)`, browsertest.JSON(t, costs)))
	for i, c := range costs {
		if want := humanize.Cost(c); got[i] != want {
			t.Errorf("cost(%v): the page says %q, humanize %q", c, got[i], want)
		}
	}
}

// TestTreeLayoutAgreesWithGo lays out the tree of every corpus session and
// of generated ones, under the default filter and under random ones,
// with treelayout.js and with session.Layout: every row shown draws the same
// rails and branch marks.
func TestTreeLayoutAgreesWithGo(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	tb := browsertest.ScriptTab(t, piexport.Assets(), "treelayout.js")
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	var sessions []*session.Session
	for _, f := range files {
		if strings.Contains(f, "edge-") {
			continue
		}
		sessions = append(sessions, loadCorpus(t, filepath.Base(f)))
	}
	sessions = append(sessions, wideSession(t, 50))
	for seed := range int64(3) {
		var buf bytes.Buffer
		if err := sessiongen.Write(&buf, sessiongen.Options{Seed: seed, TargetBytes: 300 << 10, Branches: true, Compactions: true, Labels: true}); err != nil {
			t.Fatal(err)
		}
		s, err := session.Read(&buf, "gen.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k, s := range sessions {
		nodes := s.Flatten()
		index := make(map[*session.Entry]int, len(nodes))
		for i, n := range nodes {
			index[n.Entry] = i
		}
		parents := make([]int, len(nodes))
		for i, n := range nodes {
			parents[i] = -1
			if n.Entry.Parent != nil {
				parents[i] = index[n.Entry.Parent]
			}
		}
		for round := range 4 {
			vis := make([]int, len(nodes))
			shown := func(e *session.Entry) bool {
				i := index[e]
				switch round {
				case 0:
					return true
				case 1:
					return shownByDefault(kindOf(e))
				default:
					return vis[i] == 1
				}
			}
			for i, n := range nodes {
				if round >= 2 {
					if rng.IntN(3) > 0 {
						vis[i] = 1
					}
				} else if shown(n.Entry) {
					vis[i] = 1
				}
			}
			rows := s.Layout(nodes, shown)
			type jsRow struct {
				Rails string `json:"rails"`
				Forks int    `json:"forks"`
				Depth int    `json:"depth"`
			}
			got := browsertest.Eval[[]jsRow](tb, fmt.Sprintf(`(() => {
				const parents = %s, vis = Uint8Array.from(%s);
				const lay = treeLayout.layout(parents.length, parents, vis);
				return parents.map((_, i) => ({rails: treeLayout.rails(lay, i, 0), forks: lay.forks[i], depth: lay.depth[i]}));
			})()`, browsertest.JSON(t, parents), browsertest.JSON(t, vis)))
			glyph := strings.NewReplacer(string(session.RailLine), "v", string(session.RailTee), "t", string(session.RailElbow), "l")
			for i := range nodes {
				if vis[i] == 0 {
					continue
				}
				want := glyph.Replace(rows[i].Rails)
				if got[i].Rails != want || got[i].Forks != rows[i].Forks || got[i].Depth != rows[i].Depth() {
					t.Fatalf("session %d (%s), round %d, row %d: the page draws %+v, session.Layout %q with %d forks", k, s.File, round, i, got[i], want, rows[i].Forks)
				}
			}
		}
	}
}

// TestHighlightRunsAgreeWithGo turns the runs of highlighted code, as
// render writes them, into spans with the page's script (code.js), on
// the code blocks of a generated code-heavy session and on text that
// mixes one-, two- and four-byte characters with the ones the page
// escapes: the spans hold the code's text, and read back as runs they are
// the runs Go wrote.
func TestHighlightRunsAgreeWithGo(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	var buf bytes.Buffer
	if err := sessiongen.Write(&buf, sessiongen.Options{Seed: 4, TargetBytes: 400_000, Profile: sessiongen.ProfileCode}); err != nil {
		t.Fatal(err)
	}
	// The fences as the file has them, in JSON strings.
	fence := regexp.MustCompile("```([a-z]+)\\\\n(.*?)```")
	var codes, langs []string
	for _, m := range fence.FindAllStringSubmatch(buf.String(), -1) {
		code, err := strconv.Unquote(`"` + m[2] + `"`)
		if err != nil {
			continue
		}
		codes, langs = append(codes, code), append(langs, m[1])
	}
	codes = append(codes, "// héllo 🙂 <b> & \"x\" \x01\nfunc f() string { return \"é🙂\" }\n", "x := `a\tb` + \"🙂🙂\"\n")
	langs = append(langs, "go", "go")
	if len(codes) < 50 {
		t.Fatalf("%d code blocks in the generated session", len(codes))
	}
	var blocks []string
	for k, code := range codes {
		blocks = append(blocks, string(render.Highlight(code, langs[k])))
	}
	tb := browsertest.ScriptTab(t, piexport.Assets(), "code.js")
	classes := render.HighlightClasses()
	got := browsertest.Eval[[]string](tb, fmt.Sprintf(`%s.map(h => CodeBlocks.spans(h, %s))`, browsertest.JSON(t, blocks), browsertest.JSON(t, classes)))
	letter := map[string]byte{}
	for k, c := range classes {
		letter[c] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[k]
	}
	runsOf := regexp.MustCompile(`<code data-hl="([^"]*)">`)
	for k, html := range got {
		code := pageFindAll(parsePage(t, []byte(html)), func(n *xhtml.Node) bool { return n.Data == "code" })
		if len(code) != 1 {
			t.Fatalf("block %d: %d code elements", k, len(code))
		}
		var runs []byte
		cur, n := byte('.'), 0
		var text strings.Builder
		for c := code[0].FirstChild; c != nil; c = c.NextSibling {
			l, s := byte('.'), c.Data
			if c.Type == xhtml.ElementNode {
				cls, _ := pageAttr(c, "class")
				if l = letter[cls]; l == 0 || c.Data != "span" {
					t.Fatalf("block %d: a <%s class=%q> in the code", k, c.Data, cls)
				}
				s = pageText(c)
			}
			text.WriteString(s)
			if l != cur && n > 0 {
				runs = strconv.AppendInt(append(runs, cur), int64(n), 10)
				n = 0
			}
			cur = l
			n += len(utf16.Encode([]rune(s)))
		}
		if cur != '.' && n > 0 {
			runs = strconv.AppendInt(append(runs, cur), int64(n), 10)
		}
		if want := strings.ReplaceAll(codes[k], "\r\n", "\n"); text.String() != want {
			t.Errorf("block %d: the spans hold %q, want the code %q", k, text.String(), want)
		}
		m := runsOf.FindStringSubmatch(blocks[k])
		if m == nil {
			continue // not highlighted
		}
		if string(runs) != m[1] {
			t.Errorf("block %d: the spans read back as the runs\n%s\nwant\n%s", k, runs, m[1])
		}
	}
}
