package render

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/piexport/piexport/render/internal/fastlex"
)

// Finding the lexer for a fence language or a file name, cached.

// cachedLexer wraps a lookup result so that misses (nil) are cached too:
// lexers.Get and lexers.Match scan every lexer's file name globs when a
// name is unknown.
type cachedLexer struct{ lexer chroma.Lexer }

var (
	// wrapLexer speeds chroma's lexers up, with the same tokens; the
	// tests swap it out to compare pages with chroma's own lexers.
	wrapLexer = fastlex.Wrap

	lexerCache     sync.Map // string -> cachedLexer
	lexerCacheSize atomic.Int64
)

func cacheLexer(key string, find func() chroma.Lexer) chroma.Lexer {
	if v, ok := lexerCache.Load(key); ok {
		return v.(cachedLexer).lexer
	}
	l := find()
	if l != nil {
		if l.Config().Name == "plaintext" {
			l = nil
		} else {
			// Not coalesced: writeTokens merges neighbours of a class.
			l = wrapLexer(l)
		}
	}
	if lexerCacheSize.Load() < lexerCacheMax {
		if _, loaded := lexerCache.LoadOrStore(key, cachedLexer{l}); !loaded {
			lexerCacheSize.Add(1)
		}
	}
	return l
}

// lexerForLang finds the lexer for a fence language or alias. It never
// guesses from the content (lexers.Analyse runs every analyser).
func lexerForLang(lang string) chroma.Lexer {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if lang == "" || len(lang) > lexerNameMax {
		return nil
	}
	return cacheLexer("lang:"+lang, func() chroma.Lexer { return lexers.Get(lang) })
}

// lexerForFile finds the lexer for a file name as tools report it, with
// either kind of path separator.
func lexerForFile(path string) chroma.Lexer {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	if base == "" || len(base) > lexerNameMax {
		return nil
	}
	// Most file names are told apart by their extension alone; caching by
	// it spares a scan of every lexer's globs for each new file name.
	// Names without one (Makefile, Dockerfile) are cached whole.
	if dot := strings.LastIndexByte(base, '.'); dot > 0 && !wholeNames()[base] {
		ext := base[dot:]
		return cacheLexer("ext:"+ext, func() chroma.Lexer { return lexers.Match("file" + ext) })
	}
	return cacheLexer("file:"+base, func() chroma.Lexer { return lexers.Match(base) })
}

// FileLanguage names the language of a file, by its name as tools report
// it: its lexer's first alias, else the lexer's name; "" when no lexer
// knows the file.
func FileLanguage(path string) string {
	l := lexerForFile(path)
	if l == nil {
		return ""
	}
	if aliases := l.Config().Aliases; len(aliases) > 0 {
		return aliases[0]
	}
	return l.Config().Name
}

// wholeNames are the file names some lexer claims whole (go.mod,
// CMakeLists.txt), which their extension alone would not find.
var wholeNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		cfg := l.Config()
		for _, pattern := range append(append([]string(nil), cfg.Filenames...), cfg.AliasFilenames...) {
			if !strings.ContainsAny(pattern, "*?[") {
				names[pattern] = true
			}
		}
	}
	return names
})
