package page

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/piexport/piexport/internal/recovered"
	"github.com/piexport/piexport/session"
)

// entryFacts is what the page knows of an entry before it renders it:
// what the index and the plan of the page's blocks need.
type entryFacts struct {
	kind    string
	preview session.Preview
	// absorbed marks a tool result shown in its call's card (see
	// sessionRenderer.absorbed).
	absorbed bool
	// lines estimates the entry's height in lines of text as the page
	// first shows it (outputs folded, thinking closed); the results shown
	// in its tool cards are counted in.
	lines int
	// args are the summaries of an assistant message's tool calls'
	// arguments, by call id, for the insights.
	args map[string]string
}

// factsOf returns the facts of nodes' entries, worked out on every core:
// reading Markdown as text for the previews (session.ReaderText) is most
// of what it costs, and an entry loaded lean is read again from its file.
func factsOf(s *session.Session, nodes []session.Node, home string, trouble *problems) []entryFacts {
	r := &sessionRenderer{s: s, home: home}
	out := make([]entryFacts, len(nodes))
	const chunk = 256
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= len(nodes) {
					return
				}
				for i := start; i < min(start+chunk, len(nodes)); i++ {
					r.factsSafely(&out[i], nodes[i].Entry, trouble)
				}
			}
		})
	}
	wg.Wait()
	// A result shown in its call's card makes the card's entry taller.
	pos := make(map[*session.Entry]int, len(nodes))
	for i, n := range nodes {
		pos[n.Entry] = i
	}
	for i, n := range nodes {
		if out[i].absorbed {
			if owner, _ := s.CallOf(n.Entry); owner != nil {
				out[pos[owner]].lines += out[i].lines
			}
		}
	}
	return out
}

// estimateLines guesses how many lines of text e takes on the page: a
// first estimate of its height, before the browser has drawn it.
func estimateLines(e *session.Entry) int {
	const head = 2
	if e.Message == nil {
		switch e.Type {
		case "compaction", "branch_summary":
			return head + 3
		case "custom_message":
			return head + blocksLines(e.Content)
		}
		return head
	}
	m := e.Message
	switch m.Role {
	case "toolResult":
		return 2 + foldedCount(m.ResultLines())
	case "bashExecution", "jsExecution":
		return head + 2 + foldedLines(m.Output)
	case "system":
		return head + 2
	}
	return head + blocksLines(m.Content)
}

// blocksLines estimates the lines of a message's blocks.
func blocksLines(blocks []session.Block) int {
	n := 0
	for i := range blocks {
		b := &blocks[i]
		switch b.Type {
		case "text":
			n += textLines(b.Text)
		case "thinking":
			n++ // closed
		case "toolCall":
			n += 2
			if b.Name == "write" || b.Name == "bash" {
				n += min(textLines(string(b.Arguments)), previewLines+1)
			}
		case "image":
			n += 12
		default:
			n++
		}
	}
	return n
}

// foldedLines is the lines an output shows: its first previewLines, and
// the line that says how many more there are.
func foldedLines(s string) int {
	if s == "" {
		return 0
	}
	return foldedCount(strings.Count(strings.TrimRight(s, "\n"), "\n") + 1)
}

// foldedCount is foldedLines for an output of n lines.
func foldedCount(n int) int {
	if n >= previewLines+foldMinLines {
		return previewLines + 1
	}
	return n
}

// textLines guesses the lines of text s wraps to in a column of about a
// hundred characters.
func textLines(s string) int {
	n := 0
	for len(s) > 0 {
		line := s
		if k := strings.IndexByte(s, '\n'); k >= 0 {
			line, s = s[:k], s[k+1:]
		} else {
			s = ""
		}
		n += 1 + len(line)/100
	}
	return n
}

// facts works out the facts of entry e into f.
func (r *sessionRenderer) facts(f *entryFacts, e *session.Entry) {
	s, home := r.s, r.home
	listed := e
	if e.Role() != "toolResult" {
		// A tool result's facts need none of its text, which is most of
		// a session's.
		e = s.Full(e)
	}
	f.kind = kindOf(e)
	f.preview = s.Preview(e, home)
	f.absorbed = f.kind == kindTool && r.absorbed(listed)
	f.lines = estimateLines(e)
	if e.Role() == "assistant" {
		for _, b := range e.Message.Content {
			if b.Type == "toolCall" {
				if f.args == nil {
					f.args = map[string]string{}
				}
				f.args[b.ToolCallID] = session.ToolArgsSummary(b.Name, b.Arguments, home)
			}
		}
	}
}

// factsSafely is facts on a worker of its own, where a panic would end
// the program: an entry whose facts cannot be worked out is listed by
// its type, and its rendering (which likely fails too) says why.
func (r *sessionRenderer) factsSafely(f *entryFacts, e *session.Entry, trouble *problems) {
	defer func() {
		if x := recover(); x != nil {
			*f = entryFacts{kind: kindOther, preview: session.Preview{Role: e.Type}, lines: 1}
			trouble.add(session.Warning{File: r.s.File, Line: e.Line,
				Text: fmt.Sprintf("entry %s could not be listed in the tree (%s)", e.ID, recovered.Describe(x))})
		}
	}()
	r.facts(f, e)
}
