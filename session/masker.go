package session

// A Masker masks sessions before anything is made of them: a catalog, a
// server, an archive and an export take one (package redact's Redactor
// is one), so that what each lists, searches, shows or writes is masked
// alike. Sessions come in families that repeat each other (a session,
// its sub-agents' transcripts, the session it was forked from, its forks
// and theirs), and what is found in one is masked in all of its family:
// Find looks at each member, and Mask masks one with what was found in
// every member. A caller may keep a member's finding (Kept) while its file
// is unchanged, instead of reading the member again.
type Masker interface {
	// Find looks at s as it was read, changing nothing, and returns what
	// masking s and the rest of its family needs of it.
	Find(s *Session) Finding
	// Mask masks s in place with the findings of its whole family, in
	// the family's order, s's own (from Find of s itself) among them.
	Mask(s *Session, family []Finding)
	// Text masks text that is in no session: a path, an error.
	Text(string) string
	// Key names what the Masker does: what one key made is never taken
	// for what another would make.
	Key() string
}

// A Finding is what a Masker found in one session.
type Finding interface {
	// Kept returns the finding without what it holds of the session it
	// was found in: enough to mask the rest of the family with.
	Kept() Finding
	// Same says whether two findings of one file mask its family alike.
	Same(Finding) bool
}
