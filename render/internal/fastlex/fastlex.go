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
//   - Only the rules that can start with the character at hand are tried,
//     still in their order: a skipped rule could not have matched, so the
//     first rule that matches, and every token, is chroma's.
//   - Alternatives inside a pattern are skipped the same way, which makes
//     keyword lists cheap.
//   - Token values are slices of the text, not copies; nested lexers
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

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
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
type Lexer struct {
	base *chroma.RegexLexer

	once   sync.Once
	err    error
	rules  chroma.CompiledRules // chroma's, for mutators and emitters that read them
	states map[string]*state
	// unsupported is set when some rule uses a construct the matcher does
	// not run: the lexer then hands its work to chroma's.
	unsupported error
}

// state holds one lexer state's rules, compiled, and for each ASCII
// character the rules that can match at a position holding it.
type state struct {
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

// compile builds the rules as chroma's RegexLexer does (the same
// patterns, flags and lexer mutators such as include and combined), then
// fastlex's programs, filters and emit plans.
func (l *Lexer) compile() error {
	raw, err := l.base.Rules()
	if err != nil {
		return err
	}
	cfg := l.base.Config()
	flags := ""
	if !cfg.NotMultiline {
		flags += "m"
	}
	if cfg.CaseInsensitive {
		flags += "i"
	}
	if cfg.DotAll {
		flags += "s"
	}
	rules := chroma.CompiledRules{}
	for name, rs := range raw {
		for i, r := range rs {
			pattern := "(?:" + r.Pattern + ")"
			if flags != "" {
				pattern = "(?" + flags + ")" + pattern
			}
			re, err := regexp2.Compile(`\G` + pattern)
			if err != nil {
				return fmt.Errorf("%s: rule %s.%d: %w", cfg.Name, name, i, err)
			}
			rules[name] = append(rules[name], &chroma.CompiledRule{Rule: r, Regexp: re})
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
	progs := map[string]*program{} // included rules share their pattern
	for name, rs := range rules {
		s := &state{rules: rs}
		for i, r := range rs {
			pattern := r.Regexp.String()
			p, ok := progs[pattern]
			if !ok {
				var err error
				if p, err = compileProgram(pattern, r.Regexp); err != nil {
					l.unsupported = fmt.Errorf("%s: rule %s.%d: %w", cfg.Name, name, i, err)
					return nil
				}
				progs[pattern] = p
			}
			s.progs = append(s.progs, p)
			s.all = append(s.all, i)
			nums := r.Regexp.GetGroupNumbers()
			names := make([]string, len(nums))
			for j, num := range nums {
				names[j] = r.Regexp.GroupNameFromNumber(num)
			}
			s.groupNames = append(s.groupNames, names)
			s.named = append(s.named, emitterReadsNamed(r.Type) || mutatorReadsNamed(r.Mutator))
			plan := planFor(r.Type)
			if p := knownClosure(cfg.Name, r.Pattern); p != nil {
				plan = p
			}
			s.plans = append(s.plans, plan)
			s.simple = append(s.simple, r.Mutator == nil && plan.native())
		}
		for c := range utf8RuneSelf {
			for i := range rs {
				if s.progs[i].first.may(rune(c)) {
					s.ascii[c] = append(s.ascii[c], i)
				}
			}
		}
		l.states[name] = s
	}
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
