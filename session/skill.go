package session

import (
	"regexp"
	"slices"
	"strings"
)

// skill is a skill invocation as pi writes it into a user message: the
// skill's file inside <skill name="…" location="…"> … </skill>, then what
// the user typed with it, if anything.
type skill struct {
	name, location, content, userMessage string
}

// skillPattern is pi's own (export-html's parseSkillBlock).
var skillPattern = regexp.MustCompile(`^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n</skill>(?:\n\n([\s\S]+))?$`)

// parseSkill reads a user message's content as a skill invocation: its
// first text block must be one.
func parseSkill(content []Block) (skill, bool) {
	i := slices.IndexFunc(content, func(b Block) bool { return b.Type == "text" })
	if i < 0 || !strings.HasPrefix(content[i].Text, "<skill name=") {
		return skill{}, false
	}
	m := skillPattern.FindStringSubmatch(content[i].Text)
	if m == nil {
		return skill{}, false
	}
	return skill{name: m[1], location: m[2], content: m[3], userMessage: m[4]}, true
}

// text is how a title or a preview reads the invocation: the skill's
// name, then what the user typed with it.
func (k skill) text(max int) string {
	if k.userMessage == "" {
		return oneLine(k.name, max)
	}
	return Shorten(oneLineSpaces(k.name)+" · "+ReaderText(k.userMessage, max), max)
}
