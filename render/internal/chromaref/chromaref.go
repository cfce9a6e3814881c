// Package chromaref makes chroma's own lexers fit to be the reference that
// tests compare fastlex with: chroma gives every rule of a lexer a 250 ms
// match timeout, after which the rule silently fails, so on a busy
// machine the reference itself would change. Untimed lifts the timeout.
// Only tests import this package.
package chromaref

import (
	"math"
	"reflect"
	"sync"
	"unsafe"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

var (
	mu   sync.Mutex
	done = map[chroma.Lexer]bool{}
)

// Untimed compiles l and lifts the match timeout of its rules, and of the
// lexers it is built from or names in Using rules; it returns l. It
// reaches into chroma's private fields through reflect, and panics if
// they are no longer where they were.
func Untimed(l chroma.Lexer) chroma.Lexer {
	mu.Lock()
	defer mu.Unlock()
	untime(l)
	return l
}

func untime(l chroma.Lexer) {
	if l == nil || done[l] {
		return
	}
	done[l] = true
	rl, ok := l.(*chroma.RegexLexer)
	if !ok {
		// Lexers built from others: delegating, remapping, Markdown's,
		// chroma's coalescing wrapper.
		v := reflect.ValueOf(l)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return
		}
		for _, name := range []string{"root", "language", "lexer", "Lexer"} {
			if f := v.Elem().FieldByName(name); f.IsValid() {
				if part, ok := readable(f).Interface().(chroma.Lexer); ok {
					untime(part)
				}
			}
		}
		return
	}
	// Tokenising compiles the rules; an error is the caller's to meet.
	if _, err := rl.Tokenise(nil, ""); err != nil {
		return
	}
	f := reflect.ValueOf(rl).Elem().FieldByName("rules")
	if !f.IsValid() || f.Kind() != reflect.Map {
		panic("chromaref: chroma.RegexLexer has no rules map")
	}
	rules := readable(f).Interface().(map[string][]*chroma.CompiledRule)
	for _, rs := range rules {
		for _, r := range rs {
			r.Regexp.MatchTimeout = math.MaxInt64
			untimeNamed(r.Type)
		}
	}
}

// untimeNamed untimes the lexers an emitter names (Using, and Using
// inside ByGroups).
func untimeNamed(e chroma.Emitter) {
	if e == nil {
		return
	}
	v := reflect.ValueOf(e)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return
	}
	if f := v.Elem().FieldByName("Lexer"); f.IsValid() && f.Kind() == reflect.String {
		untime(lexers.Get(f.String()))
	}
	if f := v.Elem().FieldByName("Emitters"); f.IsValid() {
		for _, sub := range readable(f).Interface().(chroma.Emitters) {
			untimeNamed(sub)
		}
	}
}

func readable(f reflect.Value) reflect.Value {
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}
