// Package fastlex runs chroma's regular-expression lexers faster, with
// the same tokens.
//
// chroma lexes by trying the rules of the current state in order at each
// position until one matches. Most of its time goes in rules that fail:
// a Rust identifier is tried against every keyword and literal rule
// before the identifier rule takes it. Each rule's regular expression
// says which characters a match can start with (regexp2 works that out
// to search, and we read it from its parse tree), so fastlex tries only
// the rules that can start with the character at hand, still in their
// order. Since a skipped rule could not have matched, the first rule that
// matches, and so every token, is the one chroma would have chosen.
//
// Two savings follow. A rule is tried through regexp2's MatchView, which
// allocates nothing for an attempt that fails; and the map of named groups
// chroma builds for every token is built only for rules whose emitter or
// mutator may read it.
//
// The rest of the lexer (mutators, emitters, nested lexers, the state
// stack, error recovery) is chroma's, driven the same way as
// chroma.LexerState.Iterator does. Where chroma keeps a type to itself
// (its coalescing wrapper, the emitters inside ByGroups, the mutators
// inside Mutators) fastlex looks at it through reflect, and the tests
// fail if that stops working.
package fastlex

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// Wrap returns a lexer that gives the same tokens as l, faster, when l is
// one of chroma's registered regular-expression lexers (which the
// registry hands out wrapped in chroma.Coalesce); any other lexer comes
// back as it is. Nested lexers named by Using are taken from chroma's
// global registry, as they are for l.
func Wrap(l chroma.Lexer) chroma.Lexer {
	if rl, ok := l.(*chroma.RegexLexer); ok {
		return wrapped(rl)
	}
	if rl := coalescedRegexLexer(l); rl != nil {
		return chroma.Coalesce(wrapped(rl))
	}
	return l
}

// byBase holds one Lexer per chroma lexer, so that each compiles once
// however many names it is found under.
var byBase sync.Map // *chroma.RegexLexer -> *Lexer

func wrapped(rl *chroma.RegexLexer) *Lexer {
	l, _ := byBase.LoadOrStore(rl, &Lexer{base: rl})
	return l.(*Lexer)
}

var coalescerType = reflect.TypeOf(chroma.Coalesce(nil))

// coalescedRegexLexer finds the *chroma.RegexLexer inside chroma's
// coalescing wrapper. chroma does not export the wrapper, but its only
// field is the exported embedded Lexer.
func coalescedRegexLexer(l chroma.Lexer) *chroma.RegexLexer {
	v := reflect.ValueOf(l)
	if v.Type() != coalescerType {
		return nil
	}
	f := v.Elem().FieldByName("Lexer")
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	rl, _ := f.Interface().(*chroma.RegexLexer)
	return rl
}

// Lexer is a chroma.RegexLexer with first-character filters on its rules.
type Lexer struct {
	base *chroma.RegexLexer

	once   sync.Once
	err    error
	rules  chroma.CompiledRules
	states map[string]*state
}

// state holds one lexer state's rules and, for each ASCII character, the
// rules that can match at a position holding it.
type state struct {
	rules  []*chroma.CompiledRule
	starts []firstChars
	ascii  [utf8.RuneSelf][]int
	all    []int // every rule, in order: for non-ASCII characters
	// Per rule: its capture groups' numbers and names in chroma's order,
	// and whether anything may read the named groups.
	groupNums  [][]int
	groupNames [][]string
	named      []bool
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

// SetRegistry implements chroma.Lexer.
func (l *Lexer) SetRegistry(r *chroma.LexerRegistry) chroma.Lexer {
	l.base.SetRegistry(r)
	return l
}

// compile builds the rules as chroma's RegexLexer does (the same
// patterns, flags and lexer mutators such as include and combined), then
// the filters.
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
			re.MatchTimeout = 250 * time.Millisecond
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
	for name, rs := range rules {
		s := &state{rules: rs, starts: make([]firstChars, len(rs))}
		for i, r := range rs {
			pattern := strings.TrimPrefix(r.Regexp.String(), `\G`)
			s.starts[i] = startsOf(pattern)
			s.all = append(s.all, i)
			nums := r.Regexp.GetGroupNumbers()
			names := make([]string, len(nums))
			for j, num := range nums {
				names[j] = r.Regexp.GroupNameFromNumber(num)
			}
			s.groupNums = append(s.groupNums, nums)
			s.groupNames = append(s.groupNames, names)
			s.named = append(s.named, emitterReadsNamed(r.Type) || mutatorReadsNamed(r.Mutator))
		}
		for c := range utf8.RuneSelf {
			for i := range rs {
				if s.starts[i].may(rune(c)) {
					s.ascii[c] = append(s.ascii[c], i)
				}
			}
		}
		l.states[name] = s
	}
	return nil
}

// Tokenise implements chroma.Lexer, with chroma.RegexLexer's options.
func (l *Lexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	l.once.Do(func() { l.err = l.compile() })
	if l.err != nil {
		return nil, l.err
	}
	if options == nil {
		options = &chroma.TokeniseOptions{State: "root", EnsureLF: true}
	}
	if options.EnsureLF {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	newlineAdded := false
	if !options.Nested && l.base.Config().EnsureNL && !strings.HasSuffix(text, "\n") {
		text += "\n"
		newlineAdded = true
	}
	it := &iterator{
		lexer: l,
		root:  options.State,
		state: &chroma.LexerState{
			Lexer:          l.base,
			Registry:       lexers.GlobalLexerRegistry,
			Text:           []rune(text),
			Stack:          []string{options.State},
			Rules:          l.rules,
			MutatorContext: map[any]any{},
		},
	}
	it.end = len(it.state.Text)
	if newlineAdded {
		it.end--
	}
	return it.next, nil
}

// iterator is chroma.LexerState.Iterator with the filtered rule search.
type iterator struct {
	lexer   *Lexer
	state   *chroma.LexerState
	root    string
	end     int
	pending []chroma.Iterator // emitters' token streams, innermost last
}

func (it *iterator) next() chroma.Token {
	l := it.state
	for l.Pos < it.end && len(l.Stack) > 0 {
		if t, ok := it.drain(); ok {
			return t
		}
		l.State = l.Stack[len(l.Stack)-1]
		s, ok := it.lexer.states[l.State]
		if !ok {
			panic("unknown state " + l.State)
		}
		index, rule, groups, named := s.match(l.Text, l.Pos)
		if groups == nil {
			// As in Pygments: an unmatched newline resets the stack, so
			// an unclosed string costs one line, not the rest of the text.
			if l.Text[l.Pos] == '\n' && l.State != it.root {
				l.Stack = []string{it.root}
				continue
			}
			l.Pos++
			return chroma.Token{Type: chroma.Error, Value: string(l.Text[l.Pos-1 : l.Pos])}
		}
		l.Rule = index
		l.Groups = groups
		l.NamedGroups = named
		l.Pos += utf8.RuneCountInString(groups[0])
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(l); err != nil {
				panic(err)
			}
		}
		if rule.Type != nil {
			it.pending = append(it.pending, rule.Type.Emit(l.Groups, l))
		}
	}
	if t, ok := it.drain(); ok {
		return t
	}
	if l.Pos != len(l.Text) && len(l.Stack) == 0 {
		value := string(l.Text[l.Pos:])
		l.Pos = len(l.Text)
		return chroma.Token{Type: chroma.Error, Value: value}
	}
	return chroma.EOF
}

// drain returns the next token the emitters have queued, if any.
func (it *iterator) drain() (chroma.Token, bool) {
	for len(it.pending) > 0 {
		n := len(it.pending) - 1
		t := it.pending[n]()
		if t.Type == chroma.Ignore {
			continue
		}
		if t == chroma.EOF {
			it.pending = it.pending[:n]
			continue
		}
		return t, true
	}
	return chroma.Token{}, false
}

// match is chroma's matchRules over the rules that can start at pos. It
// reads each match through regexp2's MatchView, which allocates nothing
// for the attempts that fail, and builds the named groups only for rules
// whose emitter or mutator might read them.
func (s *state) match(text []rune, pos int) (int, *chroma.CompiledRule, []string, map[string]string) {
	c := text[pos]
	candidates := s.all
	if c < utf8.RuneSelf {
		candidates = s.ascii[c]
	}
	var groups []string
	var nums []int
	read := func(m regexp2.MatchView) bool {
		if at, _, ok := m.GroupRange(0); !ok || at != pos {
			return false
		}
		groups = make([]string, len(nums))
		for j, num := range nums {
			if at, n, ok := m.GroupRange(num); ok {
				groups[j] = string(text[at : at+n])
			}
		}
		return false
	}
	for _, i := range candidates {
		if c >= utf8.RuneSelf && !s.starts[i].may(c) {
			continue
		}
		rule := s.rules[i]
		nums = s.groupNums[i]
		if err := rule.Regexp.FindRunesMatches(text, pos, read); err != nil || groups == nil {
			groups = nil
			continue
		}
		var named map[string]string
		if s.named[i] {
			named = make(map[string]string, len(groups))
			for j, g := range groups {
				named[s.groupNames[i][j]] = g
			}
		}
		return i, rule, groups, named
	}
	return 0, &chroma.CompiledRule{}, nil, nil
}

// Emitters and mutators of chroma's own whose behaviour is known: none of
// them reads LexerState.NamedGroups. Anything else (an EmitterFunc such
// as ByGroupNames, a lexer's own MutatorFunc) may.
var (
	byGroupsType     = reflect.TypeOf(chroma.ByGroups())
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

// firstChars is what a rule's match can start with.
type firstChars struct {
	any   bool            // no limit is known
	set   *syntax.CharSet // if not nil, the first character is in it
	runes []rune          // otherwise one of these
	fold  bool            // compare runes without case
}

func (f firstChars) may(c rune) bool {
	switch {
	case f.any:
		return true
	case f.set != nil:
		return f.set.Contains(c)
	}
	for _, r := range f.runes {
		if r == c || f.fold && equalFold(r, c) {
			return true
		}
	}
	return false
}

// equalFold reports whether a and b are the same letter in some case.
func equalFold(a, b rune) bool {
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// startsOf reads from regexp2's own search optimisations what a match of
// pattern can start with. Anything it does not pin down to the first
// character, or a pattern that can match nothing at all, means any.
func startsOf(pattern string) firstChars {
	any := firstChars{any: true}
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil || tree.FindOptimizations == nil {
		return any
	}
	o := tree.FindOptimizations
	if o.MinRequiredLength == 0 {
		return any
	}
	switch o.FindMode {
	case syntax.LeadingString_LeftToRight:
		r, _ := utf8.DecodeRuneInString(o.LeadingPrefix)
		return firstChars{runes: []rune{r}}
	case syntax.LeadingString_OrdinalIgnoreCase_LeftToRight:
		r, _ := utf8.DecodeRuneInString(o.LeadingPrefix)
		return firstChars{runes: []rune{r}, fold: true}
	case syntax.LeadingStrings_LeftToRight:
		if len(o.LeadingPrefixFirstRunes) == 0 {
			return any
		}
		return firstChars{runes: o.LeadingPrefixFirstRunes}
	case syntax.FixedDistanceChar_LeftToRight:
		if o.FixedDistanceLiteral.Distance == 0 {
			return firstChars{runes: []rune{o.FixedDistanceLiteral.C}}
		}
	case syntax.FixedDistanceString_LeftToRight:
		if o.FixedDistanceLiteral.Distance == 0 && o.FixedDistanceLiteral.S != "" {
			r, _ := utf8.DecodeRuneInString(o.FixedDistanceLiteral.S)
			return firstChars{runes: []rune{r}}
		}
	case syntax.LeadingSet_LeftToRight, syntax.FixedDistanceSets_LeftToRight:
		for _, fs := range o.FixedDistanceSets {
			if fs.Distance == 0 && fs.Set != nil {
				return firstChars{set: fs.Set}
			}
		}
	}
	return any
}
