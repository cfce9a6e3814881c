package session

import "fmt"

// Migrations bring older files to the current format in memory. pi does the
// same on load but then rewrites the file; here the file is never touched.

// migrateV1 gives a v1 file's entries ids and links each to the one before
// it, as pi's v1→v2 step does. The ids come from line numbers, not random
// numbers, so exporting a file twice gives the same output. all holds every
// object read from the file in order, with nil for the header: v1
// compactions name the first entry they keep by its index in that list.
func migrateV1(s *Session, all []*Entry) {
	prev := ""
	for _, e := range s.Entries {
		e.FileID = v1ID(e)
		e.ParentID = prev
		prev = e.FileID
	}
	for _, e := range s.Entries {
		if e.Type != "compaction" || e.FirstKeptEntryID != "" {
			continue
		}
		if i, ok := e.firstKeptIndex(); ok && i >= 0 && i < len(all) && all[i] != nil {
			e.FirstKeptEntryID = all[i].FileID
		}
	}
}

func v1ID(e *Entry) string {
	if e.Part > 1 {
		return fmt.Sprintf("L%d.%d", e.Line, e.Part)
	}
	return fmt.Sprintf("L%d", e.Line)
}

// migrateV2 renames the v2 message role hookMessage to custom.
func migrateV2(s *Session) {
	for _, e := range s.Entries {
		if e.Message != nil && e.Message.Role == "hookMessage" {
			e.Message.Role = "custom"
		}
	}
}
