package page

import "github.com/piexport/piexport/session"

// parentLine says how the page's header names the session s came from
// (see session.ParentOf): by its title when the caller knows it (an
// archive or the server, which link it at opt.ParentURL too), else by a
// path, the one on this machine when the caller found it or as
// ParentOf names it; isPath says which, for a path is shown as code.
func parentLine(s *session.Session, home string, opt Options) (name, url, role string, isPath bool) {
	name, role = s.ParentOf(home)
	switch {
	case opt.ParentName != "":
		return opt.ParentName, opt.ParentURL, role, false
	case opt.ParentPath != "":
		name = opt.ParentPath
	}
	return name, opt.ParentURL, role, name != ""
}
