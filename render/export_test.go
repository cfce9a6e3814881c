package render

import (
	"testing"

	"github.com/piexport/piexport/render/internal/chromaref"
)

// ResetCaches empties the lexer and block caches, so that what is
// rendered next is lexed anew.
func ResetCaches() {
	lexerCache.Clear()
	lexerCacheSize.Store(0)
	blockCache = newCodeCache(blockCacheMaxBytes)
}

// UnlimitedWork lifts the work limit of highlighting until the test ends,
// for tests that compare fastlex's tokens with chroma's on lexers that
// run past it (Svelte's rules are cubic on a file cut short).
func UnlimitedWork(t testing.TB) {
	saved := lexWork
	lexWork = 1 << 30
	ResetCaches()
	t.Cleanup(func() {
		lexWork = saved
		ResetCaches()
	})
}

// UseChromaLexers makes highlighting use chroma's own lexers, without
// their match timeout (see chromaref), instead of fastlex until the test
// ends. It empties the caches on the way in and
// out, so that no lexer of one kind serves the other.
func UseChromaLexers(t testing.TB) {
	saved := wrapLexer
	ResetCaches()
	wrapLexer = chromaref.Untimed
	t.Cleanup(func() {
		wrapLexer = saved
		ResetCaches()
	})
}
