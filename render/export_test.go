package render

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// ResetCaches empties the lexer and block caches, so that what is
// rendered next is lexed anew.
func ResetCaches() {
	lexerCache.Clear()
	lexerCacheSize.Store(0)
	blockCache = newCodeCache(blockCacheMaxBytes)
}

// UseChromaLexers makes highlighting use chroma's own lexers instead of
// fastlex until the test ends. It empties the caches on the way in and
// out, so that no lexer of one kind serves the other.
func UseChromaLexers(t testing.TB) {
	saved := wrapLexer
	ResetCaches()
	wrapLexer = func(l chroma.Lexer) chroma.Lexer { return l }
	t.Cleanup(func() {
		wrapLexer = saved
		ResetCaches()
	})
}
