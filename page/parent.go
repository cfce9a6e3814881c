package page

import "github.com/piexport/piexport/session"

// parentLine says how the page's header names the session s came from
// (see session.ParentOf): by the name the caller gives it (its title in
// an archive or on the server, which link it at opt.ParentURL too, or
// its path on this machine), else as ParentOf names it.
func parentLine(s *session.Session, home string, opt Options) (name, url, role string) {
	name, role = s.ParentOf(home)
	if opt.ParentName != "" {
		name = opt.ParentName
	}
	return name, opt.ParentURL, role
}
