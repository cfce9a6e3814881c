package fastlex

import (
	"bytes"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Some of chroma's lexers are built from others: a delegating lexer
// (PHP, ERB, Svelte: a language inside HTML), a remapping lexer (the Lisps,
// Go's raw strings as templates), the Markdown lexer (YAML front matter).
// Left to chroma, their parts would run on regexp2 with its match
// timeout, and a page would depend on the clock again. fastlex rebuilds
// them around its own lexers, running chroma's own algorithm for
// combining the parts (the code below follows chroma's, step for step),
// and the tests compare the tokens with chroma's.

// runner is a lexer that fastlex runs itself, within a bound on work.
type runner interface {
	chroma.Lexer
	// lexTo appends to out the tokens Tokenise(options, text) would
	// yield, counting its work in w; it panics with workSpent when the
	// work runs out.
	lexTo(out []chroma.Token, options *chroma.TokeniseOptions, text string, w *work) []chroma.Token
}

// work is the work bound shared by the lexers that take part in one text.
type work struct{ steps, limit int64 }

// lexTo implements runner.
func (l *Lexer) lexTo(out []chroma.Token, options *chroma.TokeniseOptions, text string, w *work) (toks []chroma.Token) {
	if err := l.ready(); err != nil {
		panic(err)
	}
	if l.unsupportedErr() != nil {
		return (&foreign{l.base}).lexTo(out, options, text, w)
	}
	if options == nil {
		options = &chroma.TokeniseOptions{State: "root", EnsureLF: true}
	}
	n := len(out)
	t := newTokeniser(l, options, text, out)
	t.m.limit = w.limit - w.steps
	defer func() {
		w.steps += t.m.steps
		t.release()
		// A state with a rule the matcher does not run: chroma lexes
		// the whole text instead.
		if v := recover(); v != nil {
			if u, ok := v.(unsupportedRule); !ok || u.lexer != l {
				panic(v)
			}
			toks = (&foreign{l.base}).lexTo(out[:n], options, text, w)
		}
	}()
	t.lex()
	return t.out
}

var runners sync.Map // chroma.Lexer -> runner

// runnerFor returns the runner for one of chroma's lexers: fastlex's own
// for a regular-expression lexer, a rebuilt one for those made of others,
// and for anything else a foreign runner that leaves the work to chroma.
func runnerFor(l chroma.Lexer) runner {
	switch x := l.(type) {
	case runner:
		return x
	case *chroma.RegexLexer:
		return wrapped(x)
	}
	if r, ok := runners.Load(l); ok {
		return r.(runner)
	}
	var r runner
	switch reflect.TypeOf(l) {
	case coalescerType:
		r = &coalescing{Lexer: l, inner: runnerFor(field(l, "Lexer").(chroma.Lexer))}
	case delegatingType:
		r = &delegating{Lexer: l, root: runnerFor(field(l, "root").(chroma.Lexer)), language: runnerFor(field(l, "language").(chroma.Lexer))}
	case remappingType:
		r = &remapping{Lexer: l, inner: runnerFor(field(l, "lexer").(chroma.Lexer)), mapper: field(l, "mapper").(func(chroma.Token) []chroma.Token)}
	case markdownType:
		r = &markdown{Lexer: l, inner: runnerFor(field(l, "Lexer").(chroma.Lexer))}
	default:
		r = &foreign{l}
	}
	v, _ := runners.LoadOrStore(l, r)
	return v.(runner)
}

var (
	delegatingType = reflect.TypeOf(chroma.DelegatingLexer(nil, nil))
	remappingType  = reflect.TypeOf(chroma.RemappingLexer(nil, nil))
	markdownType   = reflect.TypeOf(lexers.Get("markdown"))
)

// field reads a field of the struct that x points to, exported or not.
func field(x any, name string) any {
	v := reflect.ValueOf(x).Elem().FieldByName(name)
	if !v.IsValid() {
		panic("fastlex: " + reflect.TypeOf(x).String() + " has no field " + name)
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Interface()
}

// tokeniseWith runs r through chroma's Lexer interface, within the
// iterator's work bound.
func tokeniseWith(r runner, options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	toks, rest := lexWhole(r, options, text, iteratorLimit)
	if rest != "" {
		toks = append(toks, chroma.Token{Type: chroma.Error, Value: rest})
	}
	return chroma.Literator(toks...), nil
}

// lexWhole runs r on text within limit; if the work runs out, it gives
// no tokens and the whole text back.
func lexWhole(r runner, options *chroma.TokeniseOptions, text string, limit int64) (toks []chroma.Token, rest string) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(workSpent); !ok {
				panic(v)
			}
			toks, rest = nil, text
		}
	}()
	return r.lexTo(nil, options, text, &work{limit: limit}), ""
}

// coalescing is chroma.Coalesce around a runner.
type coalescing struct {
	chroma.Lexer
	inner runner
}

func (c *coalescing) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return tokeniseWith(c, options, text)
}

func (c *coalescing) lexTo(out []chroma.Token, options *chroma.TokeniseOptions, text string, w *work) []chroma.Token {
	return append(out, coalesce(c.inner.lexTo(nil, options, text, w))...)
}

// coalesce merges neighbouring tokens of one type and drops empty ones,
// as chroma.Coalesce does.
func coalesce(toks []chroma.Token) []chroma.Token {
	out := toks[:0]
	for _, t := range toks {
		if t.Value == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Type == t.Type && len(out[n-1].Value) < 8192 {
			out[n-1].Value += t.Value
			continue
		}
		out = append(out, t)
	}
	return out
}

// delegating is chroma.DelegatingLexer: the language lexer first, its
// Other tokens then lexed with the root lexer, the two merged.
type delegating struct {
	chroma.Lexer
	root, language runner
}

func (d *delegating) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return tokeniseWith(d, options, text)
}

type insertion struct {
	start, end int
	tokens     []chroma.Token
}

func (d *delegating) lexTo(out []chroma.Token, options *chroma.TokeniseOptions, text string, w *work) []chroma.Token {
	tokens := coalesce(d.language.lexTo(nil, options, text, w))
	others := &bytes.Buffer{}
	var insertions []*insertion
	var insert *insertion
	offset := 0
	var last chroma.Token
	for _, t := range tokens {
		if t.Type == chroma.Other {
			if last != chroma.EOF && insert != nil && last.Type != chroma.Other {
				insert.end = offset
			}
			others.WriteString(t.Value)
		} else {
			if last == chroma.EOF || last.Type == chroma.Other {
				insert = &insertion{start: offset}
				insertions = append(insertions, insert)
			}
			insert.tokens = append(insert.tokens, t)
		}
		last = t
		offset += len(t.Value)
	}
	if len(insertions) == 0 {
		return d.root.lexTo(out, options, text, w)
	}
	rootTokens := coalesce(d.root.lexTo(nil, options, others.String(), w))

	offset = 0
	tokenIndex, insertionIndex := 0, 0
	nextToken := func() chroma.Token {
		if tokenIndex >= len(rootTokens) {
			return chroma.EOF
		}
		t := rootTokens[tokenIndex]
		tokenIndex++
		return t
	}
	nextInsertion := func() *insertion {
		if insertionIndex >= len(insertions) {
			return nil
		}
		i := insertions[insertionIndex]
		insertionIndex++
		return i
	}
	t := nextToken()
	i := nextInsertion()
	for t != chroma.EOF || i != nil {
		if t == chroma.EOF || (i != nil && i.start < offset+len(t.Value)) {
			var l chroma.Token
			l, t = splitToken(t, i.start-offset)
			if l != chroma.EOF {
				out = append(out, l)
				offset += len(l.Value)
			}
			out = append(out, i.tokens...)
			offset += i.end - i.start
			if t == chroma.EOF {
				t = nextToken()
			}
			i = nextInsertion()
		} else {
			out = append(out, t)
			offset += len(t.Value)
			t = nextToken()
		}
	}
	return out
}

func splitToken(t chroma.Token, offset int) (l chroma.Token, r chroma.Token) {
	if t == chroma.EOF {
		return chroma.EOF, chroma.EOF
	}
	if offset == 0 {
		return chroma.EOF, t
	}
	if offset == len(t.Value) {
		return t, chroma.EOF
	}
	l, r = t, t
	l.Value = l.Value[:offset]
	r.Value = r.Value[offset:]
	return l, r
}

// remapping is chroma.RemappingLexer: each token of the inner lexer
// turned into those the mapper makes of it.
type remapping struct {
	chroma.Lexer
	inner  runner
	mapper func(chroma.Token) []chroma.Token
}

func (r *remapping) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return tokeniseWith(r, options, text)
}

func (r *remapping) lexTo(out []chroma.Token, options *chroma.TokeniseOptions, text string, w *work) []chroma.Token {
	for _, t := range r.inner.lexTo(nil, options, text, w) {
		out = append(out, r.mapper(t)...)
	}
	return out
}

// markdown is chroma's Markdown lexer: YAML front matter, when the text
// starts with it, then Markdown.
type markdown struct {
	chroma.Lexer
	inner runner
}

func (m *markdown) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return tokeniseWith(m, options, text)
}

func (m *markdown) lexTo(out []chroma.Token, options *chroma.TokeniseOptions, text string, w *work) []chroma.Token {
	frontmatter, rest, ok := splitFrontmatter(text)
	yaml := lexers.Get("YAML")
	if !ok || yaml == nil {
		return m.inner.lexTo(out, options, text, w)
	}
	out = runnerFor(yaml).lexTo(out, options, frontmatter, w)
	return m.inner.lexTo(out, options, rest, w)
}

// splitFrontmatter is chroma's: a leading block between "---" lines.
func splitFrontmatter(text string) (frontmatter string, rest string, ok bool) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text, false
	}
	lineEnd := strings.IndexByte(text, '\n')
	if lineEnd < 0 {
		return "", text, false
	}
	if strings.TrimSuffix(text[:lineEnd], "\r") != "---" {
		return "", text, false
	}
	for pos := lineEnd + 1; pos < len(text); {
		next := strings.IndexByte(text[pos:], '\n')
		if next < 0 {
			break
		}
		lineEnd = pos + next
		line := strings.TrimSuffix(text[pos:lineEnd], "\r")
		if line == "---" {
			return text[:lineEnd+1], text[lineEnd+1:], true
		}
		pos = lineEnd + 1
	}
	return "", text, false
}

// foreign is a lexer fastlex does not know how to run: chroma runs it,
// on its own clock, outside the work bound.
type foreign struct{ chroma.Lexer }

func (f *foreign) lexTo(out []chroma.Token, options *chroma.TokeniseOptions, text string, _ *work) []chroma.Token {
	it, err := f.Lexer.Tokenise(options, text)
	if err != nil {
		panic(err)
	}
	for t := it(); t != chroma.EOF; t = it() {
		out = append(out, t)
	}
	return out
}
