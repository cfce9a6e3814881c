package fastlex

import (
	"errors"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/render/internal/chromaref"
)

// compileAll compiles every state of l, as texts entering each would.
func compileAll(l *Lexer) error {
	if err := l.ready(); err != nil {
		return err
	}
	for name := range l.states {
		err := func() (err error) {
			defer func() {
				if v := recover(); v != nil {
					u, ok := v.(unsupportedRule)
					if !ok {
						panic(v)
					}
					err = u.err
				}
			}()
			l.state(name)
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// TestStatesCompiledOnFirstUse: lexing a text compiles the states it
// enters and no other, and leaves chroma's own rules uncompiled.
func TestStatesCompiledOnFirstUse(t *testing.T) {
	rl := chroma.MustNewLexer(&chroma.Config{Name: "states"}, func() chroma.Rules {
		return chroma.Rules{
			"root": {
				{Pattern: `"`, Type: chroma.LiteralString, Mutator: chroma.Push("string")},
				{Pattern: `\w+`, Type: chroma.Name},
				{Pattern: `\s+`, Type: chroma.Text},
			},
			"string":   {{Pattern: `[^"]+`, Type: chroma.LiteralString}, {Pattern: `"`, Type: chroma.LiteralString, Mutator: chroma.Pop(1)}},
			"comment":  {{Pattern: `\*/`, Type: chroma.Comment, Mutator: chroma.Pop(1)}},
			"included": {chroma.Include("comment")},
		}
	})
	l := Wrap(rl).(*Lexer)
	text := `name "a string" more`
	got, rest, err := Lex(l, text, 1<<20, nil)
	if err != nil || rest != "" {
		t.Fatalf("rest %q, err %v", rest, err)
	}
	if field(rl, "compiled").(bool) {
		t.Error("chroma compiled its rules for fastlex")
	}
	for name, want := range map[string]bool{"root": true, "string": true, "comment": false, "included": false} {
		if compiled := l.states[name].progs != nil; compiled != want {
			t.Errorf("state %s compiled = %v, want %v", name, compiled, want)
		}
	}
	want, err := chroma.Tokenise(rl, &chroma.TokeniseOptions{State: "root", EnsureLF: true}, text)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens differ (-chroma +fastlex):\n%s", diff)
	}
}

// TestUnsupportedStateLeftToChroma: a state with a rule the matcher does
// not run (a balancing group) hands the lexer to chroma once a text
// enters it: Lex says so, and Tokenise gives chroma's tokens.
func TestUnsupportedStateLeftToChroma(t *testing.T) {
	rl := chroma.MustNewLexer(&chroma.Config{Name: "balancing"}, func() chroma.Rules {
		return chroma.Rules{
			"root": {
				{Pattern: `x`, Type: chroma.Keyword, Mutator: chroma.Push("odd")},
				{Pattern: `.`, Type: chroma.Text},
				{Pattern: `\n`, Type: chroma.Text},
			},
			"odd": {
				{Pattern: `(?<o>a)(?<c-o>b)`, Type: chroma.Name, Mutator: chroma.Pop(1)},
				{Pattern: `.`, Type: chroma.Text, Mutator: chroma.Pop(1)},
			},
		}
	})
	l := Wrap(rl).(*Lexer)
	if _, rest, err := Lex(l, "plain", 1<<20, nil); err != nil || rest != "" {
		t.Fatalf("a text that stays in root: rest %q, err %v", rest, err)
	}
	var ce compileError
	if _, _, err := Lex(l, "plain xab", 1<<20, nil); !errors.As(err, &ce) {
		t.Fatalf("a text that enters the state: err %v, want the unsupported construct", err)
	}
	for _, text := range []string{"xab yz", "plain"} {
		want, _ := chroma.Tokenise(rl, nil, text)
		got, err := chroma.Tokenise(l, nil, text)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: tokens differ (-chroma +fastlex):\n%s", text, diff)
		}
	}
}

// checkTrackBounds: the bound each program of l starts from is never
// above regexp2's own limit; else the matcher could go on where regexp2
// gives up. It returns the number of programs checked.
func checkTrackBounds(t *testing.T, l *Lexer) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	for pattern, p := range l.progs {
		if p.trackBound > p.trackLimit() {
			t.Errorf("%s: %s: bound %d above regexp2's limit %d", l.Config().Name, pattern, p.trackBound, p.trackLimit())
		}
	}
	return len(l.progs)
}

// TestDeepStackAsRegexp2: an attempt that would outgrow regexp2's
// backtracking stack fails in chroma (the rule does not match), and so
// it does in fastlex, which checks the program's own limit before it
// hands the attempt to regexp2; a shallow one matches in both.
func TestDeepStackAsRegexp2(t *testing.T) {
	rl := chroma.MustNewLexer(&chroma.Config{Name: "deep"}, func() chroma.Rules {
		return chroma.Rules{"root": {
			{Pattern: `(?:a|bc)*d`, Type: chroma.Keyword},
			{Pattern: `a+`, Type: chroma.Name},
			{Pattern: `.`, Type: chroma.Text},
		}}
	})
	chromaref.Untimed(rl)
	for _, text := range []string{strings.Repeat("a", 100) + "d", strings.Repeat("a", 50000) + "d"} {
		want, err := chroma.Tokenise(rl, nil, text)
		if err != nil {
			t.Fatal(err)
		}
		if deep := len(text) > 1000; deep == (want[0].Type == chroma.Keyword) {
			t.Fatalf("%d bytes: regexp2 gave %s, want the rule to match only where the stack suffices", len(text), want[0].Type)
		}
		got, rest, err := Lex(Wrap(rl), text, 1<<30, nil)
		if err != nil || rest != "" {
			t.Fatalf("rest of %d bytes, err %v", len(rest), err)
		}
		if diff := cmp.Diff(want, coalesce(got)); diff != "" {
			t.Errorf("%d bytes: tokens differ (-chroma +fastlex):\n%.2000s", len(text), diff)
		}
	}
}
