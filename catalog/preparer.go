package catalog

import "github.com/piexport/piexport/session"

// Preparer prepares the sessions a catalog reads, before anything is
// summarised, indexed or handed out from them: the server masks secrets
// with one (package redact), so that nothing it lists, searches or shows
// holds them. Sessions come in families that repeat each other (a
// session, its sub-agents' transcripts, the session it was forked from,
// its forks, and theirs), and what is found in one session is to be
// masked in all of its family: a session is prepared with what was found
// in each.
type Preparer interface {
	// Find looks at s as it was read, changing nothing, and returns what
	// preparing it and the rest of its family needs of it.
	Find(s *session.Session) Finding
	// Prepare prepares s with the findings of its whole family, in the
	// family's order: s's own, from Find of s itself, among them.
	Prepare(s *session.Session, family []Finding)
}

// Finding is what a Preparer found in one session. The catalog keeps one
// per file, in memory only, while the file is as it was read.
type Finding interface {
	// Kept returns the finding as the catalog keeps it: without what it
	// holds of the session it was found in.
	Kept() Finding
	// Same says whether two findings of one file prepare its family
	// alike.
	Same(Finding) bool
}

// NewPreparer makes a Preparer of functions over findings of any type F:
// find and prepare as Preparer has them, kept and same as Finding has
// them. (redact.Redactor's Find and Mask, with redact.Found's Values and
// Same, are these.)
func NewPreparer[F any](find func(*session.Session) F, prepare func(*session.Session, []F), kept func(F) F, same func(a, b F) bool) Preparer {
	return &preparer[F]{find, prepare, kept, same}
}

type preparer[F any] struct {
	find    func(*session.Session) F
	prepare func(*session.Session, []F)
	kept    func(F) F
	same    func(a, b F) bool
}

type finding[F any] struct {
	p *preparer[F]
	f F
}

func (p *preparer[F]) Find(s *session.Session) Finding { return finding[F]{p, p.find(s)} }

func (p *preparer[F]) Prepare(s *session.Session, family []Finding) {
	fs := make([]F, 0, len(family))
	for _, f := range family {
		if f, ok := f.(finding[F]); ok {
			fs = append(fs, f.f)
		}
	}
	p.prepare(s, fs)
}

func (f finding[F]) Kept() Finding { return finding[F]{f.p, f.p.kept(f.f)} }

func (f finding[F]) Same(g Finding) bool {
	h, ok := g.(finding[F])
	return ok && f.p.same(f.f, h.f)
}

// Alone is a Preparer that prepares each session by itself, with
// prepare: what one session holds changes nothing in another.
func Alone(prepare func(*session.Session)) Preparer {
	return NewPreparer(func(*session.Session) struct{} { return struct{}{} },
		func(s *session.Session, _ []struct{}) { prepare(s) },
		func(f struct{}) struct{} { return f },
		func(a, b struct{}) bool { return true })
}
