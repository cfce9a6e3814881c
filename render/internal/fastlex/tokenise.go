package fastlex

import (
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// iteratorLimit is the work a text may cost through chroma's Lexer
// interface, where nothing can be reported but tokens: so much that
// only input built to be slow reaches it (then the rest of the text
// comes as one Error token). Lex takes a limit of its own.
const iteratorLimit = 1 << 40

// ErrNotFastlex is returned by Lex for a lexer that Wrap did not take
// over.
var ErrNotFastlex = errors.New("fastlex: not a fastlex lexer")

// Lex lexes text with l, a lexer returned by Wrap, in at most maxSteps
// steps of work (nodes visited and characters compared). It returns the
// tokens of the text up to where the work ran out, appended to dst[:0],
// and the rest of the text, "" when the whole of it was lexed. The tokens
// are not coalesced.
// A lexer panic is returned as an error.
//
// Text that is not valid UTF-8 is read as chroma reads it, each byte that
// is not part of a character a U+FFFD of its own: the tokens, like
// chroma's, hold U+FFFD there, and so does rest, but for a lexer built of
// others (wrappers.go), whose rest is the text as given.
func Lex(l chroma.Lexer, text string, maxSteps int64, dst []chroma.Token) (toks []chroma.Token, rest string, err error) {
	fl, ok := l.(*Lexer)
	if c, isC := l.(*coalescing); isC {
		// The caller merges tokens itself.
		fl, ok = c.inner.(*Lexer)
	}
	if !ok {
		r, isRunner := l.(runner)
		if _, isForeign := l.(*foreign); !isRunner || isForeign {
			return nil, "", ErrNotFastlex
		}
		return lexRunner(r, text, maxSteps, dst)
	}
	if err := fl.ready(); err != nil {
		return nil, "", err
	}
	if err := fl.unsupportedErr(); err != nil {
		return nil, "", err
	}
	r := fl.run(&chroma.TokeniseOptions{State: "root", EnsureLF: true}, text, maxSteps, dst[:0])
	if r.unsupported != nil {
		return nil, "", r.unsupported
	}
	if r.panic != nil {
		return nil, "", fmt.Errorf("lexer panic: %v", r.panic)
	}
	return r.tokens, r.rest, nil
}

// lexRunner is Lex for a lexer built of others: when the work runs out
// it cannot tell which tokens are whole, so the whole text is the rest.
func lexRunner(r runner, text string, maxSteps int64, dst []chroma.Token) (toks []chroma.Token, rest string, err error) {
	defer func() {
		if v := recover(); v != nil {
			if _, spent := v.(workSpent); spent {
				toks, rest, err = dst[:0], text, nil
				return
			}
			toks, rest, err = nil, "", fmt.Errorf("lexer panic: %v", v)
		}
	}()
	return r.lexTo(dst[:0], &chroma.TokeniseOptions{State: "root", EnsureLF: true}, text, &work{limit: maxSteps}), "", nil
}

// Tokenise implements chroma.Lexer, with chroma.RegexLexer's options.
func (l *Lexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	if err := l.ready(); err != nil {
		return nil, err
	}
	if l.unsupportedErr() != nil {
		return l.base.Tokenise(options, text)
	}
	if options == nil {
		options = &chroma.TokeniseOptions{State: "root", EnsureLF: true}
	}
	r := l.run(options, text, iteratorLimit, make([]chroma.Token, 0, len(text)/4+8))
	if r.unsupported != nil {
		return l.base.Tokenise(options, text)
	}
	toks := r.tokens
	if r.rest != "" {
		toks = append(toks, chroma.Token{Type: chroma.Error, Value: r.rest})
	}
	// The tokens are made at once; a panic comes where chroma's lazy
	// iterator would have raised it, after the tokens before it.
	return func() chroma.Token {
		if len(toks) == 0 {
			if r.panic != nil {
				p := r.panic
				r.panic = nil
				panic(p)
			}
			return chroma.EOF
		}
		t := toks[0]
		toks = toks[1:]
		return t
	}, nil
}

// result is what a run of the lexer made.
type result struct {
	tokens []chroma.Token
	rest   string
	panic  any
	// unsupported is set when the text entered a state of the lexer with
	// a rule the matcher does not run.
	unsupported error
}

// run lexes text as chroma's LexerState.Iterator would, collecting the
// tokens.
func (l *Lexer) run(options *chroma.TokeniseOptions, text string, limit int64, out []chroma.Token) (r result) {
	t := newTokeniser(l, options, text, out)
	t.m.limit = limit
	t.outer = true
	defer func() {
		v := recover()
		defer t.release()
		if v == nil {
			return
		}
		r.tokens = t.out
		if u, ok := v.(unsupportedRule); ok && u.lexer == l {
			r.tokens, r.unsupported = nil, u.err
			return
		}
		if _, spent := v.(workSpent); spent {
			r.tokens = t.out[:t.safeToks]
			if t.safePos < t.origEnd {
				r.rest = t.slice(t.safePos, t.origEnd)
			}
			return
		}
		r.panic = v
	}()
	t.lex()
	r.tokens = t.out
	return r
}

// tokeniser is one text being lexed.
type tokeniser struct {
	lexer *Lexer
	ls    *chroma.LexerState
	root  string
	src   string  // the text, for token values
	runes []rune  // the text, for the matcher and chroma's lexer state
	offs  []int32 // byte offset of each rune of src, empty when src is ASCII
	end   int     // where lexing stops: the text less a newline added for EnsureNL
	// origEnd is the end of the text the caller gave (after EnsureLF).
	origEnd int
	m       machine
	out     []chroma.Token
	groups  []string // scratch groups for simple rules
	// In the outermost text, at each rule: how many tokens are complete
	// and where the text they cover ends, for a run cut short.
	outer             bool
	safeToks, safePos int
}

// tokenisers are reused: a block of code needs its text as runes,
// offsets into it, a lexer state and the matcher's stacks, and an export
// lexes tens of thousands of blocks.
var tokenisers = sync.Pool{New: func() any { return new(tokeniser) }}

// newTokeniser prepares a tokeniser for text; release gives it back. Its
// tokens go to out.
func newTokeniser(l *Lexer, options *chroma.TokeniseOptions, text string, out []chroma.Token) *tokeniser {
	if options.EnsureLF {
		text = ensureLF(text)
	}
	newlineAdded := false
	if !options.Nested && l.base.Config().EnsureNL && (text == "" || text[len(text)-1] != '\n') {
		text += "\n"
		newlineAdded = true
	}
	if !utf8.ValidString(text) {
		// chroma lexes []rune(text), in which each byte of invalid UTF-8
		// is a U+FFFD of its own, and its token values are strings of
		// those runes. Lex that text too: token values are slices of
		// src at the runes' offsets, which must be src's own.
		text = string([]rune(text))
	}
	t := tokenisers.Get().(*tokeniser)
	runes := t.runes[:0]
	for _, c := range text {
		runes = append(runes, c)
	}
	t.runes = runes
	t.lexer, t.root, t.src, t.out = l, options.State, text, out
	t.outer, t.safeToks, t.safePos = false, 0, 0
	if t.ls == nil {
		t.ls = &chroma.LexerState{MutatorContext: map[any]any{}}
	}
	ctx := t.ls.MutatorContext
	clear(ctx)
	*t.ls = chroma.LexerState{
		Lexer:          l.base,
		Registry:       lexers.GlobalLexerRegistry,
		Text:           runes,
		Stack:          append(t.ls.Stack[:0], options.State),
		Rules:          l.rules,
		MutatorContext: ctx,
	}
	t.offs = t.offs[:0]
	if len(runes) != len(text) {
		b := 0
		for _, c := range runes {
			t.offs = append(t.offs, int32(b))
			b += utf8.RuneLen(c)
		}
		t.offs = append(t.offs, int32(b))
	}
	t.end = len(runes)
	if newlineAdded {
		t.end--
	}
	t.origEnd = t.end
	t.m.text, t.m.end, t.m.steps = runes, len(runes), 0
	return t
}

// release gives t back for reuse; nothing of it may be used after.
func (t *tokeniser) release() {
	t.lexer, t.src, t.out, t.groups = nil, "", nil, t.groups[:0]
	t.ls.Groups, t.ls.NamedGroups, t.ls.Lexer, t.ls.Rules = nil, nil, nil, nil
	clear(t.ls.MutatorContext)
	if cap(t.runes) > 1<<20 {
		// A rare huge text: let its buffers go.
		t.runes, t.offs, t.m = nil, nil, machine{}
	}
	t.m.text = nil
	tokenisers.Put(t)
}

// slice is the text from rune a to rune b.
func (t *tokeniser) slice(a, b int) string {
	if len(t.offs) == 0 {
		return t.src[a:b]
	}
	return t.src[t.offs[a]:t.offs[b]]
}

// add appends a token, leaving out what chroma's iterators drop.
func (t *tokeniser) add(tok chroma.Token) {
	if tok.Type == chroma.Ignore || tok == chroma.EOF {
		return
	}
	t.out = append(t.out, tok)
}

// lex is chroma.LexerState.Iterator's loop, with fastlex's rule search.
func (t *tokeniser) lex() {
	l := t.ls
	// Most tokens leave the state as it was: the map is read only when
	// the state changes.
	var s *state
	name := ""
	for l.Pos < t.end && len(l.Stack) > 0 {
		if t.outer {
			t.safeToks, t.safePos = len(t.out), l.Pos
		}
		l.State = l.Stack[len(l.Stack)-1]
		if s == nil || l.State != name {
			s = t.lexer.state(l.State)
			name = l.State
		}
		index, matched := t.match(s, l.Pos)
		if !matched {
			// As in Pygments: an unmatched newline resets the stack, so
			// an unclosed string costs one line, not the rest of the text.
			if l.Text[l.Pos] == '\n' && l.State != t.root {
				l.Stack = []string{t.root}
				continue
			}
			l.Pos++
			t.add(chroma.Token{Type: chroma.Error, Value: t.slice(l.Pos-1, l.Pos)})
			continue
		}
		rule := s.rules[index]
		caps := t.m.caps
		var groups []string
		if s.simple[index] {
			groups = t.groups[:0]
		} else {
			groups = make([]string, 0, len(caps))
		}
		for _, c := range caps {
			if c.start < 0 {
				groups = append(groups, "")
			} else {
				groups = append(groups, t.slice(c.start, c.end))
			}
		}
		if s.simple[index] {
			t.groups = groups
		}
		l.Rule = index
		l.Groups = groups
		l.NamedGroups = nil
		if s.named[index] {
			named := make(map[string]string, len(groups))
			for j, g := range groups {
				named[s.groupNames[index][j]] = g
			}
			l.NamedGroups = named
		}
		l.Pos += caps[0].end - caps[0].start
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(l); err != nil {
				panic(err)
			}
		}
		if plan := s.plans[index]; plan != nil {
			t.emit(plan, l.Groups)
		}
	}
	if l.Pos != len(l.Text) && len(l.Stack) == 0 {
		t.add(chroma.Token{Type: chroma.Error, Value: t.slice(l.Pos, len(l.Text))})
		l.Pos = len(l.Text)
	}
}

// match is chroma's matchRules over the rules that can start at pos.
func (t *tokeniser) match(s *state, pos int) (int, bool) {
	c := t.ls.Text[pos]
	candidates := s.all
	if c < utf8RuneSelf {
		candidates = s.ascii[c]
	}
	for _, i := range candidates {
		p := s.progs[i]
		if c >= utf8RuneSelf && !p.first.may(c) {
			continue
		}
		if t.m.matchAt(p, pos) {
			return i, true
		}
	}
	return 0, false
}

// emit appends the tokens of a plan for groups, as the emitter it stands
// for would yield them.
func (t *tokeniser) emit(p *emitPlan, groups []string) {
	switch p.kind {
	case planToken:
		t.add(chroma.Token{Type: p.token, Value: groups[0]})
	case planByGroups:
		if len(p.subs) != len(groups)-1 {
			t.add(chroma.Token{Type: chroma.Error, Value: groups[0]})
			return
		}
		for i, sub := range p.subs {
			if sub != nil {
				t.emit(sub, groups[i+1:i+2])
			}
		}
	case planUsing:
		nl := nestedLexer(p.lexer)
		if nl == nil {
			panic(fmt.Sprintf("no such lexer %q", p.lexer))
		}
		t.nested(nl, &chroma.TokeniseOptions{State: "root", Nested: true}, groups[0])
	case planNested:
		t.nested(p.nested, &chroma.TokeniseOptions{State: "root", Nested: true}, groups[0])
	case planUsingSelf:
		t.nested(t.lexer, &chroma.TokeniseOptions{State: p.state, Nested: true}, groups[0])
	case planUsingByGroup:
		if len(p.subs) != len(groups)-1 {
			panic("UsingByGroup expects number of emitters to be the same as len(groups)-1")
		}
		sub := nestedLexer(groups[p.nameGroup])
		for i, group := range groups[1:] {
			switch {
			case i == p.codeGroup-1 && sub != nil:
				t.nested(sub, nil, groups[p.codeGroup])
			case p.subs[i] != nil:
				t.emit(p.subs[i], []string{group})
			}
		}
	default:
		t.drain(p.emitter.Emit(groups, t.ls))
	}
}

// nested lexes text with another lexer (or this one) into the same
// tokens, on fastlex when it can, within what is left of the work.
func (t *tokeniser) nested(l chroma.Lexer, options *chroma.TokeniseOptions, text string) {
	w := &work{limit: t.m.limit - t.m.steps}
	defer func() { t.m.steps += w.steps }()
	n := len(t.out)
	t.out = runnerFor(l).lexTo(t.out, options, text, w)
	// Tokens a nested lexer yields pass through this lexer's iterator,
	// which drops what chroma's drops.
	kept := t.out[:n]
	for _, tok := range t.out[n:] {
		if tok.Type != chroma.Ignore && tok != chroma.EOF {
			kept = append(kept, tok)
		}
	}
	t.out = kept
}

// drain appends every token of it.
func (t *tokeniser) drain(it chroma.Iterator) {
	for tok := it(); tok != chroma.EOF; tok = it() {
		t.add(tok)
	}
}
