package redact

import (
	"regexp"
	"slices"
	"strings"
)

// Rules for what the user names rather than what looks secret: their own
// words, their home directory, their user name. Each is found by the same
// keyword search as the secrets, in the same pass.

// imageRule marks an image dropped under Options.NoImages.
var imageRule = &rule{id: "image", kind: kindImage, fixed: ImageRemoved}

// literalID is the rule id of the user's own words.
const literalID = "literal"

// literalRule masks each of words wherever it appears, in any case (see
// fold.go).
func literalRule(words []string) *rule {
	var keywords, folded []string
	for _, w := range words {
		w = foldLiteral(strings.TrimSpace(w))
		if w == "" || slices.Contains(folded, w) {
			continue
		}
		folded = append(folded, w)
		if !hasNonASCII(w) {
			keywords = append(keywords, w)
		}
	}
	if len(folded) == 0 {
		return nil
	}
	return &rule{id: literalID, keywords: keywords, folded: folded, rank: rankLiteral}
}

// homeRule shows each home directory as ~.
func homeRule(homes []string) *rule {
	var keywords []string
	for _, h := range homes {
		// Kept in their case: a Unix path is matched in it (the search
		// itself ignores case).
		h = strings.TrimRight(h, `/\`)
		if len(h) < 2 || slices.Contains(keywords, h) {
			continue
		}
		keywords = append(keywords, h)
		if strings.Contains(h, `\`) {
			// C:\Users\ann is also written C:/Users/ann.
			keywords = append(keywords, strings.ReplaceAll(h, `\`, "/"))
		}
	}
	if len(keywords) == 0 {
		return nil
	}
	return &rule{id: "home", keywords: keywords, kind: kindHome, fixed: "~"}
}

// wordHit says whether a keyword found at [start, end) counts for r, a
// rule with no regex: a literal counts anywhere; a home directory where
// it is not part of a longer name (and, on Unix, in its own case); a user
// name where it stands as a word.
func wordHit(r *rule, text, keyword string, start, end int) bool {
	switch r.kind {
	case kindHome:
		if keyword[0] == '/' && text[start:end] != keyword {
			return false
		}
		return (start == 0 || !isPathName(text[start-1])) && (end == len(text) || !isPathName(text[end]))
	case kindUser:
		return (start == 0 || !isAlnum(text[start-1])) && (end == len(text) || !isAlnum(text[end]))
	}
	return true
}

func isPathName(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

// genericUsers are account names that say nothing of who the user is and
// are common words: they are not replaced (their home directory still
// is).
var genericUsers = []string{"root", "admin", "administrator", "user", "users", "guest", "ubuntu",
	"debian", "ec2-user", "centos", "fedora", "runner", "vagrant", "node", "app", "www-data",
	"nobody", "pi", "dev", "developer", "build", "ci", "jenkins", "git", "docker", "codespace",
	"vscode", "coder", "default", "home", "shared", "public"}

// userRule shows each user name as "user" where it stands as a word.
func userRule(users []string) *rule {
	var keywords []string
	for _, u := range users {
		u = strings.ToLower(strings.TrimSpace(u))
		if len(u) < 3 || slices.Contains(genericUsers, u) || slices.Contains(keywords, u) {
			continue
		}
		keywords = append(keywords, u)
	}
	if len(keywords) == 0 {
		return nil
	}
	return &rule{id: "user", keywords: keywords, kind: kindUser, fixed: "user"}
}

// homePattern reads the home directory and the user from a path.
var homePattern = regexp.MustCompile(`^(?:(/(?:home|Users)/([^/\\]+))|([A-Za-z]:[\\/]Users[\\/]([^/\\]+)))`)

// homeOf returns the home directory a working directory is under, and its
// user, or "" when it is under none.
func homeOf(cwd string) (home, user string) {
	m := homePattern.FindStringSubmatch(cwd)
	switch {
	case m == nil:
		return "", ""
	case m[1] != "":
		return m[1], m[2]
	default:
		return m[3], m[4]
	}
}
