package testtool

import "github.com/piexport/piexport/session"

// EachMasker is a session.Masker for tests that masks each session by
// itself, with mask, and text with text (as it is when nil): what one
// session holds changes nothing in another.
type EachMasker struct {
	Name     string // the Key
	Session  func(*session.Session)
	TextWith func(string) string
}

type alone struct{}

func (alone) Kept() session.Finding                        { return alone{} }
func (alone) Same(f session.Finding) bool                  { _, ok := f.(alone); return ok }
func (m EachMasker) Find(*session.Session) session.Finding { return alone{} }
func (m EachMasker) Key() string                           { return m.Name }

// Mask masks s with Session, if set.
func (m EachMasker) Mask(s *session.Session, _ []session.Finding) {
	if m.Session != nil {
		m.Session(s)
	}
}

// Text masks s with TextWith, if set.
func (m EachMasker) Text(s string) string {
	if m.TextWith == nil {
		return s
	}
	return m.TextWith(s)
}
