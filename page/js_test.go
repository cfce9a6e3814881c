package page

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/sessiongen"
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
