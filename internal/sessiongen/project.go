package sessiongen

import (
	"path"
	"strings"
)

// A project is the made-up source tree a session works on. Tool calls name
// its files, so reads, edits and greps of one session agree on paths and
// languages.

type file struct {
	path  string // relative to the cwd
	lang  *language
	lines int // length reported by read and used for edit line numbers
	png   bool
	dir   bool
}

type project struct {
	name  string
	cwd   string
	sep   string // path separator of the cwd
	lang  *language
	files []file
	pngs  []file
	dirs  []string
}

func newProject(r *rng, cwd string, sh *shape) project {
	p := project{cwd: cwd, sep: "/"}
	if strings.Contains(cwd, `\`) {
		p.sep = `\`
	}
	name := cwd
	if i := strings.LastIndexAny(cwd, `/\`); i >= 0 {
		name = cwd[i+1:]
	}
	if name == "" {
		name = "project"
	}
	p.name = name
	main := []*language{langGo, langTS, langPython, langRust}
	p.lang = main[r.intn(len(main))]

	ndirs := r.between(5, 14)
	seen := map[string]bool{}
	for len(p.dirs) < ndirs {
		d := pick(r, dirNames)
		if r.pct(50) {
			d += "/" + pick(r, dirNames)
		}
		if !seen[d] {
			seen[d] = true
			p.dirs = append(p.dirs, d)
		}
	}
	nfiles := r.between(30, 120)
	seenFile := map[string]bool{}
	for len(p.files) < nfiles {
		l := p.lang
		switch k := r.intn(100); {
		case k < 8:
			l = langMD
		case k < 14:
			l = langJSON
		case k < 19:
			l = langYAML
		case k < 23:
			l = langSQL
		case k < 27:
			l = langBash
		case k < 35:
			l = pick(r, main)
		}
		var dir string
		switch l {
		case langMD:
			dir = pick(r, []string{"", "docs"})
		case langSQL:
			dir = "migrations"
		case langBash:
			dir = "scripts"
		default:
			dir = pick(r, p.dirs)
		}
		stem := pick(r, fileStems)
		if r.pct(40) {
			stem += "_" + pick(r, identWords)
		}
		if l == langTS && r.pct(20) {
			stem += ".test"
		}
		if l == langGo && r.pct(25) {
			stem += "_test"
		}
		if l == langMD && dir == "" {
			stem = pick(r, []string{"README", "CHANGELOG", "CONTRIBUTING", "NOTES", "PLAN"})
		}
		fp := path.Join(dir, stem+l.ext)
		if seenFile[fp] {
			continue
		}
		seenFile[fp] = true
		// Mostly modest files, a long tail up to 2,000 lines and a few beyond
		// (which pi's read truncates).
		f := r.float()
		lines := 50 + int(f*f*f*1950)
		if lo, hi := sh.readLines[0], sh.readLines[1]; hi > 0 {
			lines = lo + int(f*float64(hi-lo))
		} else if r.pct(2) {
			lines = r.between(2000, 3500)
		}
		p.files = append(p.files, file{path: fp, lang: l, lines: lines})
	}
	for i := 0; i < 6; i++ {
		p.pngs = append(p.pngs, file{
			path: path.Join(pick(r, []string{"docs/screenshots", "assets", "test/fixtures"}), pick(r, fileStems)+"-"+pick(r, nouns)+".png"),
			png:  true,
		})
	}
	return p
}

func (p *project) randFile(r *rng) *file { return &p.files[r.intn(len(p.files))] }

// abs returns the path as a tool argument names it: usually absolute, as
// models tend to write them, sometimes relative to the cwd.
func (p *project) abs(rel string, relative bool) string {
	if relative {
		return rel
	}
	if p.sep == `\` {
		return p.cwd + `\` + strings.ReplaceAll(rel, "/", `\`)
	}
	return p.cwd + "/" + rel
}
