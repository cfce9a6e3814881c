package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/piexport/piexport/session"
)

// maxStem bounds a page's name without its extension, well under the 255
// bytes file systems allow.
const maxStem = 120

// stemFor derives a page's name (without extension) from its source path:
// the project folder and the file's base name, e.g.
// "home-dev-projects-webapp--2026-01-05T08-00-00-000Z_0195…" for pi's
// ~/.pi/agent/sessions/--home-dev-projects-webapp--/2026-…jsonl. Only
// letters, digits, '.', '_' and '-' are kept, so the name is safe in a URL
// and on every file system.
func stemFor(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	project := filepath.Base(filepath.Dir(path))
	stem := sanitize(base)
	if p := sanitize(project); p != "" && project != "." && project != string(filepath.Separator) {
		stem = p + "--" + stem
	}
	if stem == "" {
		stem = "session"
	}
	if len(stem) > maxStem {
		stem = stem[:maxStem-9] + "-" + shortHash(path)
	}
	return stem
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	// No hidden files, no "--" of pi's folder names at the ends.
	return strings.Trim(string(b), ".-")
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// namer hands out page names that are unique in the archive, compared
// without case (macOS and Windows file systems ignore it). A name once
// given to a source stays that source's, run after run (the manifest keeps
// it), so links into the archive keep working.
type namer struct {
	taken map[string]bool
}

func newNamer() *namer {
	// The index's own name is never a page's.
	return &namer{taken: map[string]bool{"index": true, "_index": true}}
}

// reserve marks a name as used; it reports false if it already was.
func (n *namer) reserve(stem string) bool {
	k := strings.ToLower(stem)
	if n.taken[k] {
		return false
	}
	n.taken[k] = true
	return true
}

// name gives source a fresh name. A collision is resolved by the source
// path's hash, which does not depend on the order sources are met in.
func (n *namer) name(source string) string { return n.nameAs(stemFor(source), source) }

// nameAs gives source the name stem, or one made from it when it is taken.
func (n *namer) nameAs(stem, source string) string {
	if len(stem) > maxStem {
		stem = stem[:maxStem-9] + "-" + shortHash(source)
	}
	if n.reserve(stem) {
		return stem
	}
	stem += "-" + shortHash(source)
	for i := 2; ; i++ {
		s := stem
		if i > 2 {
			s += "-" + strconv.Itoa(i)
		}
		if n.reserve(s) {
			return s
		}
	}
}

// agentStems returns what names each source of files that is new to the
// archive (old keeps the names it gave): a session's own name, as
// stemFor makes it; an omp sub-agent's transcript, whose session the
// archive holds, the name of its session's page, "--" and its file's
// name, so that "project--2026-…_0195…--Lexer--Tokens" reads as what it
// is and sorts beside its session. hide rewrites the paths names are
// made from (see Options.Mask).
func agentStems(files []string, old *manifest, names *namer, hide func(string) string) func(abs string) string {
	have := map[string]bool{}
	for _, p := range files {
		if a, err := filepath.Abs(p); err == nil {
			have[a] = true
		}
	}
	given := map[string]string{}
	for _, p := range files {
		if a, err := filepath.Abs(p); err == nil {
			if e := old.Sessions[sourceKey(a)]; e != nil && hide(e.Stem) == e.Stem {
				given[a] = e.Stem
			}
		}
	}
	var stemOf func(abs string, depth int) string
	stemOf = func(abs string, depth int) string {
		if s, ok := given[abs]; ok {
			return s
		}
		var stem string
		if parent, ok := session.SubAgentParent(abs, func(p string) bool { return have[p] }); ok && parent != abs && depth < 8 {
			base := strings.TrimSuffix(filepath.Base(hide(abs)), filepath.Ext(abs))
			stem = names.nameAs(stemOf(parent, depth+1)+"--"+sanitize(base), hide(abs))
		} else {
			stem = names.name(hide(abs))
		}
		given[abs] = stem
		return stem
	}
	return func(abs string) string { return stemOf(abs, 0) }
}
