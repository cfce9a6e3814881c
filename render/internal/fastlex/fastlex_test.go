package fastlex

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/render/internal/chromaref"
)

// sample is a text and the name of the lexer for it.
type sample struct{ lexer, text string }

// samples returns chroma's own lexer test inputs (NAME.actual, lexed by
// the lexer called NAME, from the module cache) and ours in testdata
// (LEXER[-VARIANT].txt), for the languages chroma has no input for.
func samples(t testing.TB) map[string]sample {
	t.Helper()
	all := map[string]sample{}
	for name, text := range chromaTestdata(t) {
		all[name] = sample{name, text}
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples in testdata: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		lexer, _, _ := strings.Cut(name, "-")
		all[name] = sample{lexer, string(b)}
	}
	return all
}

// chromaTestdata returns chroma's own lexer test inputs by name.
func chromaTestdata(t testing.TB) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Fatalf("finding chroma's module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "lexers", "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "*.actual"))
	if err != nil || len(files) < 100 {
		t.Fatalf("chroma's test inputs in %s: %d files, %v", dir, len(files), err)
	}
	inputs := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[strings.TrimSuffix(filepath.Base(f), ".actual")] = string(b)
	}
	return inputs
}

// tokens lexes text with l; a panic is reported as a token so the two
// lexers can be compared on it too.
func tokens(l chroma.Lexer, text string) (toks []chroma.Token, err error) {
	defer func() {
		if v := recover(); v != nil {
			toks, err = []chroma.Token{panicToken}, nil
		}
	}()
	return chroma.Tokenise(l, nil, text)
}

// TestSameTokensAsChroma lexes every sample whose lexer fastlex takes
// over and wants exactly chroma's tokens.
func TestSameTokensAsChroma(t *testing.T) {
	wrapped := 0
	for name, s := range samples(t) {
		l, text := lexers.Get(s.lexer), s.text
		if l == nil {
			if !strings.Contains(name, ".") {
				t.Errorf("%s: chroma has no lexer %q", name, s.lexer)
			}
			continue
		}
		fast := Wrap(l)
		if fast == l {
			continue
		}
		wrapped++
		want, werr := tokens(chromaref.Untimed(l), text)
		got, gerr := tokens(fast, text)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: chroma's error %v, fastlex's %v", name, werr, gerr)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: tokens differ (-chroma +fastlex):\n%s", name, diff)
		}
	}
	if wrapped < 130 {
		t.Errorf("only %d of chroma's lexers were taken over; want most of them", wrapped)
	}
}

// TestSameTokensOnInvalidUTF8: chroma lexes the runes of a text, in which
// each byte of invalid UTF-8 is a U+FFFD of its own, and its tokens hold
// U+FFFD there; fastlex must give the same tokens. It gave the bytes
// themselves (FuzzSameTokens' finding, testdata/fuzz), and panicked where
// the text held multi-byte characters too, its rune offsets no longer
// being the text's.
func TestSameTokensOnInvalidUTF8(t *testing.T) {
	for _, tc := range []struct{ name, lexer, text string }{
		{"fuzz finding: an error token", "css", ":root {\n  --variable-name:\xf8~ #fff;\n}\n"},
		{"invalid bytes after a multi-byte character", "css", "a { --v:é\xf8~ #fff; }"},
		{"a cut multi-byte character in a string", "go", "s := \"é\xe8\x80\" // ü\n"},
		{"in a nested lexer", "html", "<p>é</p><script>let s = '\xff';</script><style>a{b:\xfe}</style>"},
		{"in a delegating lexer", "php", "<b>\xc3</b><?php echo \"ü\xc3\"; ?>"},
		{"in markdown's front matter", "markdown", "---\nk: \xf8é\n---\n# T\xf8\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := lexers.Get(tc.lexer)
			want, werr := tokens(chromaref.Untimed(l), tc.text)
			got, gerr := tokens(Wrap(l), tc.text)
			if werr != nil || gerr != nil {
				t.Fatalf("chroma's error %v, fastlex's %v", werr, gerr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tokens differ (-chroma +fastlex):\n%s", diff)
			}
			toks, rest, err := Lex(Wrap(l), tc.text, 1<<30, nil)
			if err != nil || rest != "" {
				t.Fatalf("Lex: rest %q, error %v", rest, err)
			}
			var b strings.Builder
			for _, tok := range toks {
				b.WriteString(tok.Value)
			}
			// The text as chroma reads it, and a newline some lexers add.
			if read := string([]rune(tc.text)); b.String() != read && b.String() != read+"\n" {
				t.Errorf("Lex's tokens make %q, not %q", b.String(), read)
			}
		})
	}
}

// TestWrapTakesOverCommonLexers guards against chroma changing how its
// registry wraps lexers, which would silently turn fastlex off.
func TestWrapTakesOverCommonLexers(t *testing.T) {
	for _, name := range []string{"go", "rust", "python", "typescript", "bash", "sql", "json", "yaml"} {
		l := lexers.Get(name)
		if w := Wrap(l); w == l {
			t.Errorf("Wrap(%s) returned chroma's lexer unchanged", name)
		}
	}
}

// BenchmarkLex lexes ~100 KB of chroma's own test inputs with chroma and
// with fastlex. MB/s counts the source's bytes.
func BenchmarkLex(b *testing.B) {
	inputs := samples(b)
	for _, name := range []string{"go", "rust", "python", "typescript", "bash", "sql", "yaml", "json"} {
		in := inputs[name].text
		if in == "" {
			b.Fatalf("no sample for %s", name)
		}
		text := strings.Repeat(in, 100<<10/len(in)+1)
		l := lexers.Get(inputs[name].lexer)
		for _, tc := range []struct {
			impl  string
			lexer chroma.Lexer
		}{{"chroma", l}, {"fastlex", Wrap(l)}} {
			b.Run(name+"/"+tc.impl, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, err := chroma.Tokenise(tc.lexer, nil, text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// fuzzLexers are the lexers FuzzSameTokens compares: those sessions use
// most, and some with unusual machinery (case-insensitive rules, heredocs,
// nested lexers).
var fuzzLexers = []string{
	"go", "rust", "python", "typescript", "javascript", "bash", "sql", "mysql",
	"yaml", "json", "c", "cpp", "java", "ruby", "css", "html", "toml", "diff",
	"docker", "makefile", "php", "kotlin", "swift", "lua", "nix", "hcl",
}

// FuzzSameTokens wants fastlex and chroma to agree on any text. Both are
// pulled a token at a time, side by side, for at most two seconds: some
// text makes chroma's own rules crawl (that is its nature, and why export
// gives each block a deadline), and a rule that takes near regexp2's
// 250 ms match timeout may time out on one side and not the other, so the
// comparison ends at the first token that takes 100 ms on either side.
func FuzzSameTokens(f *testing.F) {
	inputs := samples(f)
	for i, name := range fuzzLexers {
		if in, ok := inputs[name]; ok {
			f.Add(uint8(i), in.text[:min(len(in.text), fuzzMaxBytes)])
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		if len(text) > fuzzMaxBytes {
			return // the fuzzer's time is better spent on many short texts
		}
		name := fuzzLexers[int(which)%len(fuzzLexers)]
		l := lexers.Get(name)
		if l == nil {
			t.Fatalf("no lexer %q", name)
		}
		want, werr := pull(l, text)
		got, gerr := pull(Wrap(l), text)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: chroma's error %v, fastlex's %v", name, werr, gerr)
		}
		deadline := time.Now().Add(2 * time.Second)
		for i := 0; time.Now().Before(deadline); i++ {
			w, wslow := want()
			g, gslow := got()
			if wslow || gslow {
				return
			}
			if w != g {
				t.Fatalf("%s: token %d is %v from chroma, %v from fastlex", name, i, w, g)
			}
			if w == chroma.EOF || w == panicToken {
				return
			}
		}
	})
}

// fuzzMaxBytes bounds the texts FuzzSameTokens lexes: on longer ones a
// backtracking rule can take seconds per token, in chroma as in fastlex.
const fuzzMaxBytes = 1024

// panicToken stands for a lexer's panic in the token stream.
var panicToken = chroma.Token{Type: chroma.Error, Value: "panic"}

// pull returns l's tokens of text one at a time, each with whether it
// took 100 ms or more; a panic comes as panicToken.
func pull(l chroma.Lexer, text string) (func() (chroma.Token, bool), error) {
	it, err := l.Tokenise(nil, text)
	if err != nil {
		return nil, err
	}
	return func() (t chroma.Token, slow bool) {
		start := time.Now()
		defer func() {
			if v := recover(); v != nil {
				t = panicToken
			}
			slow = time.Since(start) >= 100*time.Millisecond
		}()
		return it(), false
	}, nil
}

// TestReadsNamedGroups checks which emitters and mutators are taken to
// read LexerState.NamedGroups: fastlex leaves them out for the others.
func TestReadsNamedGroups(t *testing.T) {
	byNames := chroma.ByGroupNames(map[string]chroma.Emitter{"x": chroma.Keyword})
	for _, tc := range []struct {
		name    string
		emitter chroma.Emitter
		want    bool
	}{
		{"none", nil, false},
		{"token type", chroma.Keyword, false},
		{"by groups", chroma.ByGroups(chroma.Text, chroma.Keyword), false},
		{"using", chroma.Using("go"), false},
		{"by group names", byNames, true},
		{"by groups holding by group names", chroma.ByGroups(chroma.Text, byNames), true},
		{"a function", chroma.EmitterFunc(func([]string, *chroma.LexerState) chroma.Iterator { return nil }), true},
	} {
		if got := emitterReadsNamed(tc.emitter); got != tc.want {
			t.Errorf("emitter %s: reads named groups = %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name    string
		mutator chroma.Mutator
		want    bool
	}{
		{"none", nil, false},
		{"push", chroma.Push("root"), false},
		{"pop", chroma.Pop(1), false},
		{"several", chroma.Mutators(chroma.Push("a"), chroma.Pop(1)), false},
		{"a function", chroma.MutatorFunc(func(*chroma.LexerState) error { return nil }), true},
		{"several with a function", chroma.Mutators(chroma.Push("a"), chroma.MutatorFunc(func(*chroma.LexerState) error { return nil })), true},
	} {
		if got := mutatorReadsNamed(tc.mutator); got != tc.want {
			t.Errorf("mutator %s: reads named groups = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSameTokensOnMutations compares fastlex with chroma on texts made
// by cutting, repeating and splicing pieces of the samples, the way a
// fuzzer would but without its instrumentation, which makes chroma too
// slow to fuzz for long: 800 texts of up to 1 KB, the same every run.
func TestSameTokensOnMutations(t *testing.T) {
	inputs := samples(t)
	var pieces []string
	for _, name := range fuzzLexers {
		if in, ok := inputs[name]; ok {
			pieces = append(pieces, in.text)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	piece := func() string {
		p := pieces[r.IntN(len(pieces))]
		from := r.IntN(len(p))
		return p[from:min(len(p), from+1+r.IntN(200))]
	}
	for i := range 800 {
		var b strings.Builder
		for b.Len() < 1+r.IntN(fuzzMaxBytes) {
			switch r.IntN(4) {
			case 0:
				b.WriteString(piece())
			case 1:
				b.WriteString(strings.Repeat(piece(), 1+r.IntN(4)))
			case 2:
				const quotes = "\"'`/*#\\\n\t {}()<>$@"
				b.WriteByte(quotes[r.IntN(len(quotes))])
			default:
				b.WriteString(strings.ToUpper(piece()))
			}
		}
		text := b.String()
		name := fuzzLexers[i%len(fuzzLexers)]
		l := lexers.Get(name)
		want, _ := tokens(chromaref.Untimed(l), text)
		got, _ := tokens(Wrap(l), text)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s on text %d %q: tokens differ (-chroma +fastlex):\n%s", name, i, text, diff)
		}
	}
}

// TestEveryLexerRunsOnFastlex compiles every regular-expression lexer of
// chroma's registry for fastlex's matcher: a construct it does not run
// would hand that lexer back to chroma, slow and timed by the clock. It
// checks each pattern's bound on regexp2's stack too.
func TestEveryLexerRunsOnFastlex(t *testing.T) {
	n, patterns := 0, 0
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		rl, ok := l.(*chroma.RegexLexer)
		if !ok {
			continue
		}
		w := wrapped(rl)
		if err := compileAll(w); err != nil {
			t.Errorf("%s: %v", rl.Config().Name, err)
			continue
		}
		patterns += checkTrackBounds(t, w)
		n++
	}
	if n < 250 || patterns < 5000 {
		t.Errorf("only %d regular-expression lexers in chroma's registry, with %d patterns", n, patterns)
	}
}

// TestLexWorkLimit: a lexer that turns quadratic (Go's on unclosed block
// comments) is stopped after the work it was given, the same place every
// time, and the text it did not reach comes back whole.
func TestLexWorkLimit(t *testing.T) {
	code := strings.Repeat("/* x ", 64<<10/5)
	l := Wrap(lexers.Get("go"))
	limit := int64(64 * len(code))
	toks, rest, err := Lex(l, code, limit, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rest == "" {
		t.Fatal("the whole block was lexed within the limit")
	}
	var b strings.Builder
	for _, tok := range toks {
		b.WriteString(tok.Value)
	}
	if b.String()+rest != code {
		t.Errorf("tokens and rest do not make up the text: %d + %d bytes of %d", b.Len(), len(rest), len(code))
	}
	for range 3 {
		again, rest2, _ := Lex(l, code, limit, nil)
		if len(again) != len(toks) || rest2 != rest {
			t.Fatalf("a second run stopped elsewhere: %d tokens and %d bytes left, then %d and %d", len(toks), len(rest), len(again), len(rest2))
		}
	}
	// Within the limit the same text gives all of chroma's tokens.
	short := code[:200]
	want, _ := chroma.Tokenise(lexers.Get("go"), nil, short)
	got, rest, err := Lex(l, short, limit, nil)
	if err != nil || rest != "" {
		t.Fatalf("short text: rest %q, err %v", rest, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("short text: tokens differ (-chroma +fastlex):\n%s", diff)
	}
}

// TestNoLexerLeftToChroma checks that fastlex runs every lexer of chroma's
// registry itself, composite ones included, but for those whose own Go
// code lexes parts with chroma (HTTP bodies): those would run on chroma's
// clock. Go's raw strings, which chroma lexes through a closure, must be
// taken over too.
func TestNoLexerLeftToChroma(t *testing.T) {
	leftToChroma := map[string]bool{"HTTP": true}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		name := l.Config().Name
		_, foreignRunner := runnerFor(l).(*foreign)
		if foreignRunner != leftToChroma[name] {
			t.Errorf("%s (%T): left to chroma = %v", name, l, foreignRunner)
		}
	}
	goLexer := Wrap(lexers.Get("go")).(*Lexer)
	if err := compileAll(goLexer); err != nil {
		t.Fatal(err)
	}
	for name, s := range goLexer.states {
		for i, p := range s.plans {
			if !p.native() {
				t.Errorf("Go rule %s.%d (%s) emits through chroma's code", name, i, s.rules[i].Pattern)
			}
		}
	}
}
