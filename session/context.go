package session

// ContextRoles returns the roles of the messages pi would send to the model
// with leaf as the current entry: the latest compaction's summary first,
// then the messages it kept, then everything after it, with branch
// summaries and custom messages in their places. It mirrors pi's
// buildSessionContext, so it tells what the model saw on a path.
func (s *Session) ContextRoles(leaf *Entry) []string {
	path := s.Path(leaf)
	compaction := -1
	for i, e := range path {
		if e.Type == "compaction" {
			compaction = i
		}
	}
	roles := []string{}
	add := func(e *Entry) {
		switch {
		case e.Type == "message" && e.Message != nil:
			roles = append(roles, e.Message.Role)
		case e.Type == "custom_message":
			roles = append(roles, "custom")
		case e.Type == "branch_summary" && e.Summary != "":
			roles = append(roles, "branchSummary")
		}
	}
	if compaction < 0 {
		for _, e := range path {
			add(e)
		}
		return roles
	}
	roles = append(roles, "compactionSummary")
	kept := false
	for _, e := range path[:compaction] {
		if e.FileID == path[compaction].FirstKeptEntryID {
			kept = true
		}
		if kept {
			add(e)
		}
	}
	for _, e := range path[compaction+1:] {
		add(e)
	}
	return roles
}
