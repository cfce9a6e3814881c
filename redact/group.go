package redact

import (
	"slices"

	"github.com/piexport/piexport/session"
)

// Sessions show together and repeat each other: a page carries a session
// and its omp sub-agents' transcripts, an archive and the server link a
// session with the one it was forked from and its forks. A value a name
// says is secret in one ("export DB_PASSWORD=…") may stand bare in
// another ("logged in with …"). So the sessions that show together are
// masked as a group: each is searched (Find), the values found in all of
// them are numbered in one table, and each is masked with it (Mask), so
// that a value found in any is masked wherever any has it, under one
// placeholder.

// Found is what searching one session found: the values to mask, each
// with the rule that found it, in the order the session has them. It
// holds them as the session does, so it is for memory only. Until its
// session is masked, it also holds where in the session they are, so
// that masking does not search the session again.
type Found struct {
	values []foundValue

	s      *session.Session
	slots  []slot
	pieces [][]piece
	images int
}

type foundValue struct {
	text string
	rule *rule
}

// Find searches s for what is to be masked in it, and changes nothing
// (see session.Masker).
func (r *Redactor) Find(s *session.Session) session.Finding { return r.find(s) }

func (r *Redactor) find(s *session.Session) *Found {
	if s.Lean() {
		// Its text is in the file: masking the entries would mask nothing.
		panic("redact: a session loaded lean cannot be masked")
	}
	home, user := "", ""
	if r.opt.Home != "" && s.Header != nil {
		home, user = homeOf(s.Header.Cwd)
		if home == r.opt.Home {
			home = ""
		}
	}
	d := r.detectorFor(home, user)
	slots, images := collect(s, r.opt.NoImages)

	// Search every string, on every core.
	pieces := make([][]piece, len(slots))
	parallel(len(slots), func(i int) {
		pieces[i] = scanSlot(d, &slots[i], r.opt.NoImages)
	})

	// The values, in file order, so that a session gives the same
	// placeholders every time.
	best := map[string]*rule{}
	for i := range pieces {
		for k := range pieces[i] {
			pieces[i][k].spans = merge(pieces[i][k].text, pieces[i][k].spans, best)
		}
	}
	f := &Found{s: s, slots: slots, pieces: pieces, images: images}
	seen := map[string]bool{}
	for i := range pieces {
		for _, p := range pieces[i] {
			for _, sp := range p.spans {
				if sp.rule.fixed == "" && !seen[sp.value] {
					seen[sp.value] = true
					f.values = append(f.values, foundValue{sp.value, best[sp.value]})
				}
			}
		}
	}
	return f
}

// Same says whether f and g found the same values, in the same order,
// under the same rules: sessions masked with either are masked alike.
func (f *Found) Same(g session.Finding) bool {
	h, ok := g.(*Found)
	return ok && slices.EqualFunc(f.values, h.values, func(a, b foundValue) bool { return a == b })
}

// MaskAndReport masks s in place with the values found in family, the
// findings of every session of its family in an order that each of them
// is masked with alike (the values are numbered in that order), s's own
// among them: the one Find returned for s itself. It reports what it masked in
// s, and marks s as redacted (s.Redaction) even when nothing was found.
// s's Found then keeps only the values.
func (r *Redactor) MaskAndReport(s *session.Session, family []session.Finding) *Report {
	group := make([]*Found, 0, len(family))
	for _, f := range family {
		if f, ok := f.(*Found); ok {
			group = append(group, f)
		}
	}
	return r.mask(s, group)
}

// Mask is MaskAndReport without the report (see session.Masker).
func (r *Redactor) Mask(s *session.Session, family []session.Finding) {
	r.MaskAndReport(s, family)
}

func (r *Redactor) mask(s *session.Session, group []*Found) *Report {
	i := slices.IndexFunc(group, func(f *Found) bool { return f.s == s })
	if i < 0 {
		panic("redact: Mask is given a session whose Found is not in its group")
	}
	own := group[i]
	slots, pieces := own.slots, own.pieces
	own.s, own.slots, own.pieces = nil, nil, nil

	// Replace, on every core: each value wherever it appears, not only
	// where a rule found it.
	t := tableOf(group)
	search := t.finder()
	results := make([]slotResult, len(slots))
	parallel(len(slots), func(i int) {
		if search == nil && len(pieces[i]) == 0 {
			return
		}
		results[i] = rewriteSlot(&slots[i], pieces[i], t, search)
	})

	rep := &Report{Images: own.images}
	type place struct {
		entry       *session.Entry
		placeholder string
	}
	seen := map[place]bool{} // an entry's text and its raw JSON are one place
	ids := false
	for i, res := range results {
		if res.grown > 0 && slots[i].isID {
			ids = true
		}
		for _, f := range res.findings {
			p := place{slots[i].entry, f.Placeholder}
			if slots[i].derived || seen[p] {
				continue
			}
			seen[p] = true
			if e := slots[i].entry; e != nil {
				f.EntryID = e.ID
			}
			f.Line = slots[i].line
			rep.Findings = append(rep.Findings, f)
		}
		rep.Home += res.home
		rep.Users += res.users
		rep.Images += res.images
		rep.Grown += int64(res.grown)
	}
	if ids {
		s.Reindex()
	}
	rep.File = s.File
	rep.count()
	s.Redaction = &session.Redaction{Secrets: r.opt.Secrets, Values: map[string]int{}, Places: len(rep.Findings),
		Home: r.opt.Home != "" || len(r.opt.Users) > 0, Images: rep.Images}
	for _, c := range rep.Rules {
		s.Redaction.Values[c.Rule] = c.Values
	}
	return rep
}

// Kept returns f without what it holds of where its values are: enough
// to mask the other sessions of its group with, and no hold on its own.
func (f *Found) Kept() session.Finding { return f.kept() }

func (f *Found) kept() *Found { return &Found{values: f.values} }

// Sessions masks ss, sessions that show together, as one group (see
// Found), in the order given, and returns their reports in that order.
// For the same files in the same order, it gives the same placeholders.
func (r *Redactor) Sessions(ss ...*session.Session) []*Report {
	shown := make([]bool, len(ss))
	for i := range shown {
		shown[i] = true
	}
	return r.Shown(ss, shown)
}

// Shown masks the sessions of group that shown marks, with what is found
// in all of group, numbered in its order (as Sessions numbers them): the
// others are searched only for what they have to mask in these, and
// left as they are. It returns the reports of those it masked, in order.
func (r *Redactor) Shown(group []*session.Session, shown []bool) []*Report {
	founds := make([]*Found, len(group))
	for i, s := range group {
		if founds[i] = r.find(s); !shown[i] {
			founds[i] = founds[i].kept()
		}
	}
	var reports []*Report
	for i, s := range group {
		if shown[i] {
			reports = append(reports, r.mask(s, founds))
		}
	}
	return reports
}

// Session masks s as a group of its own and reports what it masked. It
// marks s as redacted (s.Redaction) even when nothing was found.
func (r *Redactor) Session(s *session.Session) *Report {
	return r.Sessions(s)[0]
}
