// Package fastlex runs chroma's regular-expression lexers faster, with
// the same tokens, and with a bound on the work a text may cost that does
// not depend on the clock.
//
// chroma lexes by trying the rules of the current state in order at each
// position until one matches, each rule a regexp2 (.NET-style) regular
// expression with a 250 ms timeout. fastlex keeps chroma's rule tables,
// mutators and emitters, and changes how rules are tried:
//
//   - Each rule runs on fastlex's own backtracking matcher (compile.go,
//     match.go), compiled from the tree regexp2's parser makes of the
//     pattern and following regexp2's backtracking order, so that it
//     finds the same match. It is several times faster than regexp2's
//     interpreter, and it counts its steps: a text gets a fixed amount of
//     work (Lex), not of time, so the same text always gives the same
//     tokens, however busy the machine.
//   - A state's rules are compiled when a text first enters it
//     (states.go): a block of code reaches few of a lexer's states.
//   - Only the rules that can start with the character at hand are tried,
//     still in their order: a skipped rule could not have matched, so the
//     first rule that matches, and every token, is chroma's.
//   - Alternatives inside a pattern are skipped the same way, which makes
//     keyword lists cheap.
//   - Token values are slices of the text, not copies (of the text as
//     chroma reads it: where it is not valid UTF-8, each bad byte is a
//     U+FFFD, as in chroma's []rune(text)); nested lexers
//     (Using, UsingSelf, UsingByGroup) run on fastlex too, sharing the
//     work bound of the text they are part of.
//
// Where chroma keeps a type to itself (its coalescing wrapper, the
// emitters inside ByGroups and Using, the mutators inside Mutators)
// fastlex looks at it through reflect, and the tests fail if that stops
// working.
package fastlex

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Wrap returns a lexer that gives the same tokens as l, faster, when l is
// one of chroma's regular-expression lexers or is built from them (see
// wrappers.go); any other lexer comes back as it is. Nested lexers named
// by Using are taken from chroma's global registry, as they are for l.
func Wrap(l chroma.Lexer) chroma.Lexer {
	if l == nil {
		return nil
	}
	r := runnerFor(l)
	if _, ok := r.(*foreign); ok {
		return l
	}
	return r
}

// byBase holds one Lexer per chroma lexer, so that each compiles once
// however many names it is found under.
var byBase sync.Map // *chroma.RegexLexer -> *Lexer

func wrapped(rl *chroma.RegexLexer) *Lexer {
	l, _ := byBase.LoadOrStore(rl, &Lexer{base: rl})
	return l.(*Lexer)
}

var coalescerType = reflect.TypeOf(chroma.Coalesce(nil))

// Lexer is a chroma.RegexLexer whose rules run on fastlex's matcher.
//
// A lexer has dozens of states and hundreds of rules, and a block of code
// visits a few of them: each state is compiled when a text first enters
// it (states.go), and each rule's pattern once, by fastlex alone.
type Lexer struct {
	base *chroma.RegexLexer

	once   sync.Once
	err    error
	rules  chroma.CompiledRules // chroma's, for mutators and emitters that read them
	flags  string               // the lexer's regexp2 flags, as chroma sets them
	states map[string]*state

	// mu serialises compiling states: included rules are shared between
	// states, and so are the programs of their patterns.
	mu    sync.Mutex
	progs map[string]*program // by pattern
	// unsupported is set when some rule uses a construct the matcher does
	// not run: the lexer then hands its work to chroma's.
	unsupported atomic.Pointer[error]
}

// state holds one lexer state's rules, compiled on first use, and for
// each ASCII character the rules that can match at a position holding it.
type state struct {
	once sync.Once
	err  error

	rules []*chroma.CompiledRule
	progs []*program
	ascii [utf8RuneSelf][]int
	all   []int // every rule, in order: for non-ASCII characters
	// Per rule: the names of its groups in chroma's order, whether
	// anything may read them by name, and how its tokens are emitted.
	groupNames [][]string
	named      []bool
	plans      []*emitPlan
	// simple rules have no mutator and emit through plans fastlex runs
	// itself, so their groups are read at once and need no copy.
	simple []bool
}

// Config implements chroma.Lexer.
func (l *Lexer) Config() *chroma.Config { return l.base.Config() }

// AnalyseText implements chroma.Lexer.
func (l *Lexer) AnalyseText(text string) float32 { return l.base.AnalyseText(text) }

// SetAnalyser implements chroma.Lexer.
func (l *Lexer) SetAnalyser(f func(text string) float32) chroma.Lexer {
	l.base.SetAnalyser(f)
	return l
}

// SetRegistry implements chroma.Lexer. Nested lexers always come from
// chroma's global registry, as for the lexers it holds.
func (l *Lexer) SetRegistry(*chroma.LexerRegistry) chroma.Lexer { return l }

// compile builds the rule table as chroma's RegexLexer does (the same
// rules, flags and lexer mutators such as include and combined), without
// compiling a pattern: chroma would compile every rule of every state
// with regexp2, and fastlex compiles those of a state when it is entered.
func (l *Lexer) compile() error {
	raw, err := rawRules(l.base)
	if err != nil {
		return err
	}
	cfg := l.base.Config()
	if !cfg.NotMultiline {
		l.flags += "m"
	}
	if cfg.CaseInsensitive {
		l.flags += "i"
	}
	if cfg.DotAll {
		l.flags += "s"
	}
	rules := chroma.CompiledRules{}
	for name, rs := range raw {
		rules[name] = []*chroma.CompiledRule{}
		for _, r := range rs {
			rules[name] = append(rules[name], &chroma.CompiledRule{Rule: r})
		}
	}
	// Lexer mutators rewrite the rule table (include splices in another
	// state's rules); a rewrite can add more, so start over after each.
restart:
	seen := map[chroma.LexerMutator]bool{}
	for name := range rules {
		for i := range rules[name] {
			m, ok := rules[name][i].Mutator.(chroma.LexerMutator)
			if !ok {
				continue
			}
			if seen[m] {
				return fmt.Errorf("%s: mutator %T seen twice", cfg.Name, m)
			}
			seen[m] = true
			if err := m.MutateLexer(rules, name, i); err != nil {
				return err
			}
			goto restart
		}
	}

	l.rules = rules
	l.states = make(map[string]*state, len(rules))
	for name, rs := range rules {
		l.states[name] = &state{rules: rs}
	}
	l.progs = map[string]*program{}
	return nil
}

// ready compiles the lexer once.
func (l *Lexer) ready() error {
	l.once.Do(func() { l.err = l.compile() })
	return l.err
}

// Emitters and mutators of chroma's own whose behaviour is known: none of
// them reads LexerState.NamedGroups. Anything else (an EmitterFunc such
// as ByGroupNames, a lexer's own MutatorFunc) may.
var (
	byGroupsType     = reflect.TypeOf(chroma.ByGroups())
	usingType        = reflect.TypeOf(chroma.Using(""))
	usingSelfType    = reflect.TypeOf(chroma.UsingSelf(""))
	usingByGroupType = reflect.TypeOf(chroma.UsingByGroup(0, 0))
	multiMutatorType = reflect.TypeOf(chroma.Mutators())
	plainEmitters    = typesOf(chroma.Using(""), chroma.UsingSelf(""), chroma.UsingByGroup(0, 0))
	plainMutators    = typesOf(chroma.Push(), chroma.Pop(1), chroma.Include(""), chroma.Combined())
)

func typesOf(values ...any) map[reflect.Type]bool {
	types := map[reflect.Type]bool{}
	for _, v := range values {
		types[reflect.TypeOf(v)] = true
	}
	return types
}

func emitterReadsNamed(e chroma.Emitter) bool {
	switch {
	case e == nil:
		return false
	case reflect.TypeOf(e) == byGroupsType:
		for _, sub := range reflect.ValueOf(e).Elem().FieldByName("Emitters").Interface().(chroma.Emitters) {
			if emitterReadsNamed(sub) {
				return true
			}
		}
		return false
	}
	if _, ok := e.(chroma.TokenType); ok {
		return false
	}
	return !plainEmitters[reflect.TypeOf(e)]
}

func mutatorReadsNamed(m chroma.Mutator) bool {
	switch {
	case m == nil:
		return false
	case reflect.TypeOf(m) == multiMutatorType:
		for _, sub := range reflect.ValueOf(m).Elem().FieldByName("Mutators").Interface().([]chroma.Mutator) {
			if mutatorReadsNamed(sub) {
				return true
			}
		}
		return false
	}
	return !plainMutators[reflect.TypeOf(m)]
}

// nestedLexers caches the lexers Using and UsingByGroup name: chroma's
// registry scans every lexer's file name patterns for a name it does not
// know.
var nestedLexers sync.Map // string -> chroma.Lexer (nil when none)

func nestedLexer(name string) chroma.Lexer {
	if v, ok := nestedLexers.Load(name); ok {
		l, _ := v.(chroma.Lexer)
		return l
	}
	l := lexers.GlobalLexerRegistry.Get(name)
	if len(name) <= 64 {
		nestedLexers.Store(name, l)
	}
	return l
}

// emitPlan is a rule's emitter as fastlex runs it: chroma's token types,
// ByGroups and the Using family directly, anything else through its Emit.
type emitPlan struct {
	kind      planKind
	token     chroma.TokenType
	subs      []*emitPlan // ByGroups, UsingByGroup: per group, nil to skip
	lexer     string      // Using
	state     string      // UsingSelf
	nameGroup int         // UsingByGroup
	codeGroup int
	nested    runner         // planNested
	emitter   chroma.Emitter // planOther
}

type planKind uint8

const (
	planToken planKind = iota
	planByGroups
	planUsing
	planUsingSelf
	planUsingByGroup
	planNested // a lexer fastlex runs, as UsingLexer(lexer) would
	planOther
)

func planFor(e chroma.Emitter) *emitPlan {
	if e == nil {
		return nil
	}
	if t, ok := e.(chroma.TokenType); ok {
		return &emitPlan{kind: planToken, token: t}
	}
	v := reflect.ValueOf(e)
	switch reflect.TypeOf(e) {
	case byGroupsType:
		p := &emitPlan{kind: planByGroups}
		for _, sub := range v.Elem().FieldByName("Emitters").Interface().(chroma.Emitters) {
			p.subs = append(p.subs, planFor(sub))
		}
		return p
	case usingType:
		return &emitPlan{kind: planUsing, lexer: v.Elem().FieldByName("Lexer").String()}
	case usingSelfType:
		return &emitPlan{kind: planUsingSelf, state: v.Elem().FieldByName("State").String()}
	case usingByGroupType:
		p := &emitPlan{kind: planUsingByGroup,
			nameGroup: int(v.Elem().FieldByName("SublexerNameGroup").Int()),
			codeGroup: int(v.Elem().FieldByName("CodeGroup").Int())}
		for _, sub := range v.Elem().FieldByName("Emitters").Interface().(chroma.Emitters) {
			p.subs = append(p.subs, planFor(sub))
		}
		return p
	}
	return &emitPlan{kind: planOther, emitter: e}
}

// knownClosure returns the plan for a rule whose emitter chroma builds
// as a closure that reflect cannot see into, when fastlex knows what it
// does: Go's raw strings, lexed as text templates (chroma's go.go:
// UsingLexer(TypeRemappingLexer(GoTextTemplate, Other to String))).
// TestNoRuleLeftToChroma fails if chroma changes the rule.
func knownClosure(lexer, pattern string) *emitPlan {
	if lexer != "Go" || pattern != "(`)([^`]*)(`)" {
		return nil
	}
	r := goRawStrings()
	if r == nil {
		return nil
	}
	return &emitPlan{kind: planByGroups, subs: []*emitPlan{
		{kind: planToken, token: chroma.LiteralString},
		{kind: planNested, nested: r},
		{kind: planToken, token: chroma.LiteralString},
	}}
}

// goRawStrings is made once: runners are kept per lexer.
var goRawStrings = sync.OnceValue(func() runner {
	tmpl := lexers.Get("Go Text Template")
	if tmpl == nil {
		return nil
	}
	return runnerFor(chroma.TypeRemappingLexer(tmpl, chroma.TypeMapping{{From: chroma.Other, To: chroma.LiteralString}}))
})

// native reports whether fastlex runs the plan itself, all the way down.
func (p *emitPlan) native() bool {
	if p == nil {
		return true
	}
	if p.kind == planOther {
		return false
	}
	for _, s := range p.subs {
		if !s.native() {
			return false
		}
	}
	return true
}

// ensureLF turns \r\n and \r into \n, as chroma's EnsureLF option does.
func ensureLF(text string) string {
	if strings.IndexByte(text, '\r') < 0 {
		return text
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	return strings.ReplaceAll(text, "\r", "\n")
}
