package fastlex

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
)

// Compiling a lexer's states on first use.
//
// chroma compiles every rule of a lexer with regexp2 the first time it is
// used, and a lexer has dozens of states and hundreds of rules, most of
// which a block of code never reaches: compiled up front, and once more
// for the matcher, they cost about 0.1 s of CPU per export. So chroma's
// rule table is read without compiling it, and a state's rules are
// compiled by fastlex when a text first enters the state; regexp2
// compiles a pattern only where chroma's code may read the rule's Regexp
// (a mutator or emitter of its own) or where the matcher hands an
// attempt to regexp2 (program.re).

// rawRules returns the rules of rl as its definition gives them (Go code
// or chroma's XML), without chroma compiling them: RegexLexer.Rules
// compiles every pattern first. Only a lexer without a rules function,
// which chroma's constructors do not make, goes through Rules.
func rawRules(rl *chroma.RegexLexer) (chroma.Rules, error) {
	v := reflect.ValueOf(rl).Elem().FieldByName("fetchRulesFunc")
	if !v.IsValid() || v.IsNil() {
		return rl.Rules()
	}
	fetch, ok := field(rl, "fetchRulesFunc").(func() (chroma.Rules, error))
	if !ok {
		return rl.Rules()
	}
	rules, err := fetch()
	if err != nil {
		return nil, fmt.Errorf("%s: failed to compile rules: %w", rl.Config().Name, err)
	}
	if _, ok := rules["root"]; !ok {
		return nil, errors.New(`no "root" state`)
	}
	return rules, nil
}

// unsupportedRule is the panic that stops a lexer, when a state it
// enters has a rule the matcher does not run, so that chroma's lexer can
// take over the text (see Lexer.lexTo and Lexer.run).
type unsupportedRule struct {
	lexer *Lexer
	err   error
}

// state returns the named state, compiled.
func (l *Lexer) state(name string) *state {
	s, ok := l.states[name]
	if !ok {
		panic("unknown state " + name)
	}
	s.once.Do(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if s.err = l.compileState(name, s); s.err != nil {
			l.unsupported.CompareAndSwap(nil, &s.err)
		}
	})
	if s.err != nil {
		panic(unsupportedRule{l, s.err})
	}
	return s
}

// compileState compiles the rules of one state: their programs, filters
// and emit plans. l.mu is held.
func (l *Lexer) compileState(name string, s *state) error {
	cfg := l.base.Config()
	for i, r := range s.rules {
		pattern := "(?:" + r.Pattern + ")"
		if l.flags != "" {
			pattern = "(?" + l.flags + ")" + pattern
		}
		pattern = `\G` + pattern
		p, ok := l.progs[pattern]
		if !ok {
			var err error
			if p, err = compileProgram(pattern); err != nil {
				return fmt.Errorf("%s: rule %s.%d: %w", cfg.Name, name, i, err)
			}
			l.progs[pattern] = p
		}
		plan := planFor(r.Type)
		if p := knownClosure(cfg.Name, r.Pattern); p != nil {
			plan = p
		}
		// chroma refuses a lexer whose ByGroups does not have an emitter
		// per group; so does fastlex, by handing it to chroma.
		if _, byGroups := r.Type.(chroma.ValidatingEmitter); byGroups && plan != nil && plan.kind == planByGroups && len(plan.subs) != p.slots-1 {
			return fmt.Errorf("%s: rule %s.%d: %d groups for %d emitters", cfg.Name, name, i, p.slots-1, len(plan.subs))
		}
		named := emitterReadsNamed(r.Type) || mutatorReadsNamed(r.Mutator)
		simple := r.Mutator == nil && plan.native()
		var names []string
		if !simple || named {
			// chroma's code may read the rule's Regexp (ByGroupNames
			// does), and group names are regexp2's.
			if r.Regexp == nil {
				re, err := regexp2.Compile(pattern)
				if err != nil {
					return fmt.Errorf("%s: rule %s.%d: %w", cfg.Name, name, i, err)
				}
				r.Regexp = re
			}
			for _, num := range r.Regexp.GetGroupNumbers() {
				names = append(names, r.Regexp.GroupNameFromNumber(num))
			}
		}
		s.progs = append(s.progs, p)
		s.all = append(s.all, i)
		s.groupNames = append(s.groupNames, names)
		s.named = append(s.named, named)
		s.plans = append(s.plans, plan)
		s.simple = append(s.simple, simple)
	}
	for c := range utf8RuneSelf {
		for i := range s.rules {
			if s.progs[i].first.may(rune(c)) {
				s.ascii[c] = append(s.ascii[c], i)
			}
		}
	}
	return nil
}

// unsupportedErr is the error that hands the lexer to chroma, nil while
// every state it has entered runs on fastlex.
func (l *Lexer) unsupportedErr() error {
	if e := l.unsupported.Load(); e != nil {
		return *e
	}
	return nil
}
