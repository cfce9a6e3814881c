package session

// What the model saw. These mirror pi 1.5.2's buildContextEntries,
// buildSessionProjection and buildSessionContext (session-manager.js), so
// that piexport tells what the model was sent on any path, and agrees with
// pi about it.

// Projection says what a context edit made of an entry the model is sent.
type Projection int

const (
	// Kept is an entry the model sees as it is.
	Kept Projection = iota
	// Omitted is an entry a context edit hid from the model.
	Omitted
	// Replaced is an entry the model sees with other content in its place.
	Replaced
)

func (p Projection) String() string {
	switch p {
	case Omitted:
		return "omitted"
	case Replaced:
		return "replaced"
	}
	return "kept"
}

// ContextEntry is one entry of the context the model is sent at a leaf.
type ContextEntry struct {
	Entry *Entry
	// Edit is the latest context_edit of the context aimed at Entry, or nil.
	Edit *Entry
	// Checkpoint is set on a context's leading compaction: it stands for
	// the entries it summarised, and brings its prompt checkpoint (if it
	// has one) and its summary. A compaction kept further on brings
	// nothing.
	Checkpoint bool
}

// Projection says whether the model sees the entry as it is, not at all,
// or with other content.
func (c ContextEntry) Projection() Projection {
	switch {
	case c.Edit == nil:
		return Kept
	case c.Edit.Edit == nil || c.Edit.Edit.Omit:
		return Omitted
	}
	return Replaced
}

// Context returns the entries that make up the model's context at leaf,
// in pi's order. Without a compaction on the path that is the whole path.
// With one, the latest compaction comes first, then the entries it kept
// (from its first kept entry on, leaving out system messages, which its
// checkpoint replaces), then everything after it. Each entry carries the
// latest context edit aimed at it among these entries.
func (s *Session) Context(leaf *Entry) []ContextEntry {
	path := s.Path(leaf)
	compaction := -1
	for i, e := range path {
		if e.Type == "compaction" {
			compaction = i
		}
	}
	var entries []*Entry
	if compaction < 0 {
		entries = path
	} else {
		entries = append(entries, path[compaction])
		kept := false
		for _, e := range path[:compaction] {
			if e.FileID == path[compaction].FirstKeptEntryID {
				kept = true
			}
			if kept && e.Role() != "system" {
				entries = append(entries, e)
			}
		}
		entries = append(entries, path[compaction+1:]...)
	}
	edits := map[string]*Entry{}
	for _, e := range entries {
		if e.Type == "context_edit" {
			edits[e.TargetID] = e
		}
	}
	out := make([]ContextEntry, len(entries))
	for i, e := range entries {
		out[i] = ContextEntry{Entry: e, Checkpoint: compaction >= 0 && i == 0}
		if e.FileID != "" {
			out[i].Edit = edits[e.FileID]
		}
	}
	return out
}

// ContextRoles returns the roles of the messages pi sends the model with
// leaf as the current entry: each context entry's messages, less those a
// context edit omits. It tells what the model saw on a path.
func (s *Session) ContextRoles(leaf *Entry) []string {
	roles := []string{}
	for _, c := range s.Context(leaf) {
		if c.Projection() == Omitted {
			continue
		}
		e := c.Entry
		switch {
		case e.Type == "message" && e.Message != nil:
			roles = append(roles, e.Message.Role)
		case e.Type == "custom_message":
			roles = append(roles, "custom")
		case e.Type == "branch_summary" && e.Summary != "":
			roles = append(roles, "branchSummary")
		case e.Type == "compaction" && c.Checkpoint:
			if e.SystemMessage != nil {
				roles = append(roles, "system")
			}
			roles = append(roles, "compactionSummary")
		}
	}
	return roles
}
