package catalog

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the zones below, on a machine without its own
	"unicode"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// An archive's index page searches from file:// with assets/search.js,
// which makes words and reads queries as this package does, and reads
// dates with assets/index.js's localDate, a copy of parseDate. These
// tests run the same cases through both, so that the page finds what Go
// indexed and reads a query as the server does.

// hostileTexts are texts whose words are easy to get wrong.
var hostileTexts = []string{
	"Café CAFÉ cafe\u0301 naïve nai\u0308ve Ångström ÅNGSTRÖM",
	"Straße STRASSE ẞ groß", // ß folds to itself; ẞ to ß
	"İstanbul ISTANBUL ıi İI DİYARBAKIR",
	"ΟΔΟΣ οδος Σίσυφος ΣΊΣΥΦΟΣ ς σ Σ", // a final sigma is not σ in Go's folding
	"ǅemal Ǆ ǆ ﬁle ﬀ ℌ Ω K Å",         // title case, ligatures, signs
	"日本語のテキスト 中文字符 한국어 텍스트 ㄱㄴ ᄀ ｶﾀｶﾅ",
	"emoji 🎉party🎉 👍🏽 🇫🇷 👨‍👩‍👧 ❤️ x\u200dy a\u200bb",
	"private \ue000\ue001 \U000f0000x \U00100000",
	"digits ١٢٣ ۴۵۶ ४५६ ０１２ ①② Ⅻ ½ ¹²³ 𝟘𝟙",
	"हिन्दी नमस्ते தமிழ் ไทย ภาษา العربية עִבְרִית",
	"nul\x00byte ctl\x01\x1f\x7fdel tab\tnew\nline\r\n\u0085nel\u00a0nbsp\u2028ls\u2029ps",
	"\u0301leading mark, trailing mark\u0301 \u0301\u0302 only",
	strings.Repeat("a", 63) + "é " + strings.Repeat("b", 64) + "é " + strings.Repeat("c", 62) + "日本 " + strings.Repeat("é", 40),
	strings.Repeat("𝔘", 17) + " " + strings.Repeat("ü", 33) + " " + strings.Repeat("Ü", 31) + "X" + strings.Repeat("d", 100),
	strings.Repeat("x", 65) + "\u0301" + strings.Repeat("y", 70),
	"\ufeffbom \ufffd replacement ︀variation a\ufe0fb",
	"main.go cmd/api foo_bar foo-bar C++ e.g. 3.14 1,000 v1.2.3",
	"",
}

// runePool is what random texts are made of.
var runePool = func() []rune {
	var pool []rune
	for _, s := range hostileTexts {
		pool = append(pool, []rune(s)...)
	}
	for _, r := range []rune{' ', ' ', ' ', '"', '"', '-', '*', ':', '.', '_', 'A', 'z', '0', '\u0300', '\u0308', '\u0345', '\u1100', '\uac00', '\ud7a3', '\U0001f600', '\U000e0001', '\u0130', '\u03a3', '\u1e9e'} {
		pool = append(pool, r)
	}
	return pool
}()

// randomText returns a text of n runes: from the pool, or anywhere in
// Unicode's planes 0 to 2. Those are characters Go's tables know (Unicode
// 15.0; the browser's are newer, and the index is made with Go's).
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		var r rune
		if rng.IntN(4) == 0 {
			for r = rune(rng.IntN(0x30000)); !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co); r = rune(rng.IntN(0x30000)) {
			}
		} else {
			r = runePool[rng.IntN(len(runePool))]
		}
		b.WriteRune(r)
	}
	return b.String()
}

// corpusTexts returns the text of every entry the index holds of the
// corpus's sessions.
func corpusTexts(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	var texts []string
	for _, f := range files {
		s, err := session.Load(f)
		if err != nil {
			continue // an empty file, a header alone
		}
		for _, e := range s.Entries {
			if kind, text := EntryText(e); kind != "" && text != "" {
				texts = append(texts, text)
			}
		}
	}
	if len(texts) < 1000 {
		t.Fatalf("%d texts in the corpus", len(texts))
	}
	return texts
}

// TestWordsAgreeWithJS: search.js makes the words of every corpus entry,
// of hostile texts and of random ones as the index does (Words, and the
// text appendIndexText feeds FTS5), folds any text as appendFolded does,
// and cuts long words where truncLen does.
func TestWordsAgreeWithJS(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	tb := browsertest.ScriptTab(t, piexport.Assets(), "prefs.js", "times.js", "index.js", "fold.js", "search.js")
	rng := rand.New(rand.NewPCG(5, 6))
	texts := append(corpusTexts(t), hostileTexts...)
	for range 3000 {
		texts = append(texts, randomText(rng, 1+rng.IntN(80)))
	}
	// In batches of about 2 MB: one evaluation's worth.
	var got []string
	for len(got) < len(texts) {
		end, size := len(got), 0
		for ; end < len(texts) && size < 2<<20; end++ {
			size += len(texts[end])
		}
		got = append(got, browsertest.Eval[[]string](tb, fmt.Sprintf(`%s.map(t => archiveSearch.words(t).join(' '))`, browsertest.JSON(t, texts[len(got):end])))...)
	}
	bad := 0
	for i, text := range texts {
		want := strings.Join(Words(text), " ")
		if fed := strings.TrimSuffix(string(appendIndexText(nil, text)), " "); fed != want {
			t.Errorf("text %d: Words gives %q, the index is fed %q", i, want, fed)
		}
		if got[i] != want {
			if bad++; bad <= 10 {
				t.Errorf("the words of %s: search.js makes %+q, the index %+q", quoteShort(text), got[i], want)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%d of %d texts in all", bad, len(texts))
	}

	// Folding, of any text, and cutting: both are also used on the
	// words of a snippet, to mark them.
	var folds []string
	for range 2000 {
		folds = append(folds, randomText(rng, 1+rng.IntN(20)))
	}
	folds = append(folds, hostileTexts...)
	gotFolds := browsertest.Eval[[]string](tb, fmt.Sprintf(`%s.map(archiveSearch.fold)`, browsertest.JSON(t, folds)))
	for i, s := range folds {
		if want := string(appendFolded(nil, s)); gotFolds[i] != want {
			t.Errorf("fold(%+q): search.js %+q, appendFolded %+q", s, gotFolds[i], want)
		}
	}
	var long []string
	for _, unit := range []string{"a", "é", "日", "𝔘", "ab", "aé", "a日", "ab日", "abc𝔘", "a\u0301"} {
		for n := 60; n <= 70; n++ {
			long = append(long, strings.Repeat("x", n%4)+strings.Repeat(unit, n/len(unit)+1))
		}
	}
	gotCut := browsertest.Eval[[]string](tb, fmt.Sprintf(`%s.map(archiveSearch.truncate)`, browsertest.JSON(t, long)))
	for i, w := range long {
		if want := w[:truncLen([]byte(w), maxWord)]; gotCut[i] != want {
			t.Errorf("truncate(%+q): search.js %+q, truncLen %+q", w, gotCut[i], want)
		}
	}
}

// quoteShort quotes s, cut to 200 bytes.
func quoteShort(s string) string {
	if len(s) > 200 {
		return fmt.Sprintf("%+q… (%d bytes)", s[:truncLen([]byte(s), 200)], len(s))
	}
	return fmt.Sprintf("%+q", s)
}

// jsQuery is a parsed query as search.js's parse and parsedQuery write it.
type jsQuery struct {
	Terms   []jsTerm `json:"terms"`
	Not     []jsTerm `json:"not"`
	Project []string `json:"project"`
	Model   []string `json:"model"`
	After   *float64 `json:"after"`
	Before  *float64 `json:"before"`
}

type jsTerm struct {
	Words  []string `json:"words"`
	Prefix bool     `json:"prefix"`
}

// parsedQuery is parseQuery(q) as a jsQuery.
func parsedQuery(q string) jsQuery {
	pq := parseQuery(q)
	out := jsQuery{Terms: []jsTerm{}, Not: []jsTerm{}, Project: []string{}, Model: []string{}}
	for _, t := range pq.terms {
		out.Terms = append(out.Terms, jsTerm{t.words, t.prefix})
	}
	for _, t := range pq.not {
		out.Not = append(out.Not, jsTerm{t.words, t.prefix})
	}
	out.Project = append(out.Project, pq.project...)
	out.Model = append(out.Model, pq.model...)
	unix := func(t time.Time) *float64 {
		if t.IsZero() {
			return nil
		}
		f := float64(t.Unix())
		return &f
	}
	out.After, out.Before = unix(pq.after), unix(pq.before)
	return out
}

// queries use every part of the syntax, rightly and wrongly.
var queries = []string{
	"registered mux", "Registered MUX", "  spaced\tout\nwords  ", "café naïve",
	`"a phrase" word`, `"unclosed phrase`, `"" empty`, `a"b`, `"a"b`, `a "b c"d e`, `""""`, `"-neg" "pre*"`,
	"-skip keep", "keep -skip -", "--double", "-", "-*", "- x", `-"phrase not negated"`, "-main.go",
	"pre* pre** *", "main.go*", "cmd/api", "foo-bar*", `"pre*"`, "-pre*",
	"project:piexport", "PROJECT:PiExport", "project:", "project::x", `project:"docs site" x`, `project:"docs`,
	"-project:foo", `x:"a b" y`, `"project:foo"`, "project:İstanbul", "project:ΟΔΟΣ", "model:claude-opus", "Model:GPT",
	"after:2026-03-01", "after:2026-03", "after:2026", "before:2026-03-01", "before:2026-12", "before:2026",
	"after:2026-02-29", "after:2024-02-29", "after:2026-02-30", "after:2026-13", "after:2026-00", "after:2026-3-1",
	"after:0000", "after:0099-05", "before:9999-12-31", "after:1970", "after:26", "after:2026-03-01x", "after:", "before:yesterday",
	"after:2026 before:2027 a", "after:2025 after:2026 x", "AFTER:2026-01-15 x", "after:２０２６",
	"\u00a0nbsp\u3000ideographic\u2003em", "\ufeffbom\ufeffjoined", "nel\u0085split", "x\u200by",
	"日本語 検索", "한국어", "ΣΟΦΙΑ", "İzmir", "🎉*", "\ue000*", "١٢٣",
	strings.Repeat("long", 20) + "*", "a:b c:d e:", ":x", "x:", "::",
}

// TestQueryAgreesWithJS: search.js reads every query as parseQuery does,
// with the same words, phrases, prefixes, negations and filters.
func TestQueryAgreesWithJS(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	tb := browsertest.ScriptTab(t, piexport.Assets(), "prefs.js", "times.js", "index.js", "fold.js", "search.js")
	rng := rand.New(rand.NewPCG(7, 8))
	qs := slices.Clone(queries)
	parts := []string{"-", "*", `"`, ":", " ", "project:", "model:", "after:", "before:", "2026", "-03", "-01", "x", "É", "日本", "\u00a0", "\t", "\u0301", "main.go"}
	for range 1500 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			if rng.IntN(3) == 0 {
				b.WriteString(randomText(rng, 1+rng.IntN(4)))
			} else {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
		}
		qs = append(qs, b.String())
	}
	got := browsertest.Eval[[]jsQuery](tb, fmt.Sprintf(`%s.map(archiveSearch.parse)`, browsertest.JSON(t, qs)))
	bad := 0
	for i, q := range qs {
		want := parsedQuery(q)
		if g, w := browsertest.JSON(t, got[i]), browsertest.JSON(t, want); g != w {
			if bad++; bad <= 10 {
				t.Errorf("query %+q:\nsearch.js reads %s\nparseQuery     %s", q, g, w)
			}
		}
	}
	if bad > 10 {
		t.Errorf("%d of %d queries in all", bad, len(qs))
	}
}

// TestDatesAgreeWithJS: index.js's localDate reads every date as
// parseDateIn does, in zones with and without summer time, some of
// whose days start at 01:00 (America/Sao_Paulo in 2018, Asia/Beirut).
func TestDatesAgreeWithJS(t *testing.T) {
	browsertest.Start(t)
	t.Parallel()
	tb := browsertest.ScriptTab(t, piexport.Assets(), "prefs.js", "times.js", "index.js")
	var dates []string
	for _, y := range []string{"0000", "0001", "0099", "0100", "1900", "1970", "2000", "2018", "2024", "2026", "2100", "9999"} {
		dates = append(dates, y)
		for m := 0; m <= 13; m++ {
			dates = append(dates, fmt.Sprintf("%s-%02d", y, m))
			for _, d := range []int{0, 1, 4, 15, 28, 29, 30, 31, 32} {
				dates = append(dates, fmt.Sprintf("%s-%02d-%02d", y, m, d))
			}
		}
	}
	dates = append(dates, "", "26", "02026", "2026-3", "2026-03-1", "2026-3-01", "2026/03/01", "2026-03-01T00:00", " 2026", "2026 ",
		"+202", "-2026", "２０２６", "2026-03-01\n", "yesterday", "2026-1a", "99999")
	for _, zone := range []string{"UTC", "America/New_York", "America/Sao_Paulo", "Asia/Beirut", "Asia/Kolkata", "America/Havana", "Pacific/Kiritimati", "Pacific/Pago_Pago"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		tb.SetTimeZone(zone)
		for _, end := range []bool{false, true} {
			got := browsertest.Eval[[]*float64](tb, fmt.Sprintf(`%s.map(d => sessionList.localDate(d, %v))`, browsertest.JSON(t, dates), end))
			for i, d := range dates {
				want := "null"
				if tm, ok := parseDateIn(d, end, loc); ok {
					want = fmt.Sprint(tm.Unix())
				}
				g := "null"
				if got[i] != nil {
					g = fmt.Sprint(int64(*got[i]))
				}
				if g != want {
					t.Errorf("%s, %q (end %v): localDate %s, parseDate %s", zone, d, end, g, want)
				}
			}
		}
	}
}
