package session

import (
	"slices"
	"strings"
)

// pi 1.5 keeps the system prompt and the tool list in the session, as
// system messages: the first declares them, each later one patches them.
// Replaying the system messages of a path in order gives the prompt in
// force; a compaction's checkpoint holds the whole of it.

// Prompt is a system prompt and tool list: the state system messages build
// (pi-ai 1.5.2's getCurrentSystemMessage).
type Prompt struct {
	// Text is the prompt's unnamed part: the text content of every system
	// message replayed, joined by blank lines. pi puts it before the
	// sections.
	Text     string
	Sections []Section // none Removed
	Tools    []ToolSpec
}

// apply patches p with a system message, as pi replays it: text is
// appended, a section replaced in place or added at the end (or removed),
// tools removed and then added, an existing one in place.
func (p *Prompt) apply(m *Message) {
	if text := blocksText(m.Content, "\n"); text != "" {
		if p.Text != "" {
			p.Text += "\n\n"
		}
		p.Text += text
	}
	for _, sec := range m.Sections {
		at := slices.IndexFunc(p.Sections, func(s Section) bool { return s.Name == sec.Name })
		switch {
		case sec.Removed && at >= 0:
			p.Sections = slices.Delete(p.Sections, at, at+1)
		case sec.Removed:
		case at >= 0:
			p.Sections[at] = sec
		default:
			p.Sections = append(p.Sections, sec)
		}
	}
	for _, name := range m.ToolsRemoved {
		p.Tools = slices.DeleteFunc(p.Tools, func(t ToolSpec) bool { return t.Name == name })
	}
	for _, t := range m.ToolsAdded {
		if at := slices.IndexFunc(p.Tools, func(x ToolSpec) bool { return x.Name == t.Name }); at >= 0 {
			p.Tools[at] = t
		} else {
			p.Tools = append(p.Tools, t)
		}
	}
}

// PromptOf returns the prompt one system message declares on its own, as
// a compaction's checkpoint does.
func PromptOf(m *Message) Prompt {
	var p Prompt
	if m != nil {
		p.apply(m)
	}
	return p
}

// PromptChange is what one system message did to the prompt in force
// before it.
type PromptChange struct {
	// Initial is set for the first system message of its path: it
	// declares the prompt rather than changing one.
	Initial bool
	// Text is set when the message appends text to the prompt.
	Text bool
	// Added, Replaced and Removed name sections; ToolsAdded, ToolsRemoved
	// and ToolsChanged (removed and added again with a new declaration)
	// name tools, in the message's order.
	Added, Replaced, Removed               []string
	ToolsAdded, ToolsRemoved, ToolsChanged []string
}

// ToolMarks lists the tools the change touched, marked as added,
// removed or changed: "+edit −grep ~bash"; "" when it touched none.
func (c PromptChange) ToolMarks() string {
	var tools []string
	for _, n := range c.ToolsAdded {
		tools = append(tools, "+"+n)
	}
	for _, n := range c.ToolsRemoved {
		tools = append(tools, "−"+n)
	}
	for _, n := range c.ToolsChanged {
		tools = append(tools, "~"+n)
	}
	return strings.Join(tools, " ")
}

// PromptBefore returns the prompt in force just before e on its path, and
// whether any system message (or compaction checkpoint) set one.
func (s *Session) PromptBefore(e *Entry) (Prompt, bool) {
	// Walk up to the nearest checkpoint or the root, then replay forward.
	var patches []*Message
	var base *Message
	for p := e.Parent; p != nil; p = p.Parent {
		if p.Role() == "system" {
			patches = append(patches, s.Full(p).Message)
		}
		if p.Type == "compaction" && p.SystemMessage != nil {
			base = s.Full(p).SystemMessage
			break
		}
	}
	var prompt Prompt
	if base == nil && len(patches) == 0 {
		return prompt, false
	}
	if base != nil {
		prompt.apply(base)
	}
	for i := len(patches) - 1; i >= 0; i-- {
		prompt.apply(patches[i])
	}
	return prompt, true
}

// PromptAt returns the prompt a system message entry leaves in force, and
// what the message changed. ok is false when e is not a system message.
func (s *Session) PromptAt(e *Entry) (prompt Prompt, change PromptChange, ok bool) {
	if e.Role() != "system" {
		return Prompt{}, PromptChange{}, false
	}
	e = s.Full(e)
	before, had := s.PromptBefore(e)
	change.Initial = !had
	prompt = Prompt{Sections: slices.Clone(before.Sections), Tools: slices.Clone(before.Tools)}
	m := e.Message
	for _, sec := range m.Sections {
		exists := slices.ContainsFunc(before.Sections, func(s Section) bool { return s.Name == sec.Name })
		switch {
		case sec.Removed:
			change.Removed = append(change.Removed, sec.Name)
		case exists:
			change.Replaced = append(change.Replaced, sec.Name)
		default:
			change.Added = append(change.Added, sec.Name)
		}
	}
	change.Text = blocksText(m.Content, "") != ""
	for _, t := range m.ToolsAdded {
		if slices.Contains(m.ToolsRemoved, t.Name) {
			change.ToolsChanged = append(change.ToolsChanged, t.Name)
		} else {
			change.ToolsAdded = append(change.ToolsAdded, t.Name)
		}
	}
	for _, name := range m.ToolsRemoved {
		if !slices.Contains(change.ToolsChanged, name) {
			change.ToolsRemoved = append(change.ToolsRemoved, name)
		}
	}
	prompt.apply(m)
	return prompt, change, true
}

// PromptSummary describes a system message on one line: "system prompt: 5
// sections, 12 tools" for the first of its path, the change for a later
// one: "system prompt: section skills added, tools +edit −grep".
func (s *Session) PromptSummary(e *Entry) string {
	prompt, change, ok := s.PromptAt(e)
	if !ok {
		return ""
	}
	if change.Initial {
		return "system prompt: " + Count(len(prompt.Sections), "section", "sections") + ", " + Count(len(prompt.Tools), "tool", "tools")
	}
	var parts []string
	if change.Text {
		parts = append(parts, "text added")
	}
	for _, group := range []struct {
		names []string
		what  string
	}{{change.Added, "added"}, {change.Replaced, "replaced"}, {change.Removed, "removed"}} {
		switch len(group.names) {
		case 0:
		case 1:
			parts = append(parts, "section "+group.names[0]+" "+group.what)
		default:
			parts = append(parts, "sections "+strings.Join(group.names, ", ")+" "+group.what)
		}
	}
	if tools := change.ToolMarks(); tools != "" {
		parts = append(parts, "tools "+tools)
	}
	if len(parts) == 0 {
		return "system prompt: unchanged"
	}
	return "system prompt: " + strings.Join(parts, ", ")
}

// HasTagLine says whether a line of text starts with an XML-like tag, as
// prompts' skill and context blocks do: such text is shown as it is,
// not as Markdown, where the tags would vanish.
func HasTagLine(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if len(line) > 1 && line[0] == '<' && (line[1] == '/' || line[1] >= 'a' && line[1] <= 'z' || line[1] >= 'A' && line[1] <= 'Z') {
			return true
		}
	}
	return false
}
