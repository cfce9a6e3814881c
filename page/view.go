package page

import (
	"html/template"
	"math/bits"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/piexport/piexport/insights"
	"github.com/piexport/piexport/session"
)

// The view model: page.go and entries.go fill it from a session,
// template.go and templates/page.html turn it into one HTML page. It holds
// display-ready values only (strings already shortened, numbers already
// summed), so the template needs no logic that belongs in Go.
//
// Contract between the two sides:
//   - Tree, Entries and the slices of Index are parallel: element i of each
//     describes the same session entry, and IDs are unique in the page.
//   - Tree is in pre-order, and the children of a node appear oldest first.
//     The page finds "the newest leaf below a node" by descending through
//     the last child, so this order matters.
//   - An entry is on the path in view exactly when Entries[i].OnPath and
//     Tree[i].OnPath are set; that path runs from a root to Index.View.
//   - Header.Path holds the token sums of that same path; the script
//     recomputes them from Index.Usage whenever the path changes.

// entryIDPrefix starts the element id of every entry (and of the card
// that stands for a tool result): ids come from the session, and one such
// as "session-index" or "pack-0" must not name the page's own elements.
// No id the page gives its own elements starts with it, nor does any
// heading or footnote id (render prefixes those with "e-"). page.js and
// templates/page.html (as text: a function call per entry costs the
// template most of its time) know it too; the script takes a link to a
// bare entry id as well.
const entryIDPrefix = "e:"

// elementID is the element id of the entry whose id is id.
func elementID(id string) string { return entryIDPrefix + id }

// entryHref is a link to the entry whose id is id, as a whole URL: its
// fragment escaped, colons too, so that html/template does not take the
// prefix's "e:" for a URL scheme and refuse the link. The browser and
// page.js both decode a fragment before they look for its element.
func entryHref(id string) string {
	return "#" + strings.ReplaceAll(url.PathEscape(elementID(id)), ":", "%3A")
}

// pageView is everything one page shows.
type pageView struct {
	// Title is the session name or the first user message, on one line.
	Title string
	// Theme is "auto", "light" or "dark" and becomes html[data-theme]. With
	// "auto" the page follows prefers-color-scheme, unless the reader chose a
	// theme with the toggle (remembered in localStorage).
	Theme  string
	Header headerView
	// Tree lists every entry in display order (see the contract above).
	Tree []treeNodeView
	// Entries lists every entry in the same order as Tree. On a page being
	// streamed the bodies come through stream instead, each dropped from
	// here once written.
	Entries []entryView
	// Order is the order in which the entries are written, as indexes
	// into Entries; nil means in order. The page shows them in tree order
	// whatever it is: the entries element holds a declarative shadow root
	// with one slot per entry, in tree order (in groups: see SlotGroups),
	// and each article names its slot. So the entries ready to show (the
	// end of the path in view) can come first in the file and be drawn
	// while the browser is still reading the long lazy rest.
	Order []int
	// stream, when set, yields the entries in order as they are rendered,
	// so a large page is written without holding every body at once.
	stream <-chan entryView
	// packs receives the bodies of the entries off the path (see pack.go)
	// as EntryStream yields them; stop ends that early.
	packs *packer
	stop  <-chan struct{}
	// Index is the data the script navigates with; it is written as JSON.
	Index pageIndex
	// search, when set, builds the search index (see search.go).
	search *searchIndex
	// jsonl, when set, packs the session file for download (jsonl.go);
	// JSONLName is its name.
	jsonl     *background
	JSONLName string
	// IndexURL, when set, is the index of the sessions the page belongs to.
	IndexURL string
	// Generator names the program, e.g. "piexport v1.2.0".
	Generator string
	// FollowURL, when set, is a same-origin script the page loads after its
	// own: the server's live follow (see Options.FollowURL).
	FollowURL string
	// SubAgents are the sub-agent transcripts the page carries, packed at
	// its end with the bodies off the path (see pack.go).
	SubAgents []subAgentPanel
	// Insights are the charts of the path in view at load, under the
	// header; nil when it has nothing to chart.
	Insights *insights.Section
}

// headerView is the summary at the top of the page.
type headerView struct {
	Cwd       string // working directory, with the home directory shown as ~
	SessionID string
	Start     time.Time // zero when unknown
	End       time.Time // zero when unknown
	Duration  string    // e.g. "1h 12m"; "" to omit
	Models    []string
	// EntryCount counts every entry, MessageCount the user, assistant and
	// tool result messages, ToolCalls the tool calls of assistant messages.
	EntryCount, MessageCount, ToolCalls int
	// File sums the usage of the whole file, as pi's /session counts it
	// (session.Stats), Path the same kinds of usage along the path in
	// view at load.
	File, Path session.Usage
	// Redaction says what was masked (session.Redaction.Summary); "" when
	// the session was not redacted.
	Redaction string
	// Breakdown is the file's cost by model, largest first; empty when
	// one model did all the work.
	Breakdown []costRow
	// Parent is the session this one was forked from (or, for a
	// sub-agent, started by), as the header names it; ParentURL its page
	// when the caller knows it; ParentRole says which.
	Parent, ParentURL, ParentRole string
	// Related are the links of Options.Related.
	Related []Related
}

// costRow is one row of the cost by model.
type costRow struct {
	Key, Tokens, Cost string
}

// treeNodeView is one row of the sidebar tree.
type treeNodeView struct {
	ID string
	// Rails draw the tree's lines left of the row, one element per class
	// (see railClasses): levels without a line, levels with a line going
	// on ("v"), ├ ("t", this row starts a branch), └ ("l", it starts the
	// last one); see session.Layout. Laid out for the tree's default
	// filter; page.js lays the tree out again when the filter changes.
	Rails []string
	// Forks counts the branches of a branch point, else 0.
	Forks int
	// Level is the row's level in the tree for a screen reader
	// (aria-level), when it is below the first: len(Rails)+1, uncapped.
	Level int
	Kind  string
	// Role is a short prefix before the preview, e.g. "user:", or "".
	Role string
	// Preview is one line: "fix the bug…", "[read: ~/p/f.go:10-59]".
	Preview string
	// Label is the resolved label, or "".
	Label  string
	OnPath bool // on the path in view at load
	Leaf   bool // the session's leaf
}

// entryView is one entry of the conversation.
type entryView struct {
	ID     string
	Kind   string
	OnPath bool // false renders the article hidden
	// Lazy puts the body in <noscript class="lazy">: with scripting on the
	// browser keeps it as text, which costs next to nothing to parse, and
	// the script turns it into DOM when the entry is shown. Without
	// JavaScript it is ordinary HTML. Set for entries off the path in
	// view, and for all but the last eagerTail entries of a long path.
	Lazy  bool
	Time  time.Time // zero when unknown
	Label string
	// Packed, when set, says the body was moved into a packed chunk at
	// the end of the page (see pack.go), and where it is: Body is empty.
	Packed string
	// Absorbed marks a tool result shown in its call's card, in the
	// assistant's entry: it has no article of its own, and the card
	// carries its element id.
	Absorbed bool
	// Role is the heading: "User", "Assistant · claude-sonnet-4-5", ...
	Role string
	// Body is built by this package's renderers (entries.go, tools.go)
	// with render.Builder, and is trusted as HTML. Elements the page's CSS and keyboard
	// shortcuts know:
	//   details.thinking > summary        a thinking block
	//   section.tool[data-tool][data-status=ok|error|pending]
	//     > .tool-head (.tool-name, .tool-args), .tool-input, .tool-output
	//   pre.output, details.more > summary  "N more lines"
	//   .hidden-context                   text the model saw but the user did not
	Body template.HTML
	// Foot is an optional one-line footer, e.g. "1.2k in · 300 out · $0.0123".
	Foot string
	// Badges are the context edits aimed at the entry, each shown while
	// it is the latest such edit on the path in view.
	Badges []editBadge
}

// pageIndex is the navigation data of the page script. Its slices are
// parallel to pageView.Tree.
type pageIndex struct {
	IDs     []string `json:"ids"`
	Parents []int    `json:"parents"` // index of the parent, -1 for a root
	Kinds   []string `json:"kinds"`
	Labeled []int    `json:"labeled"` // indexes of the entries with a label
	// Usage holds, per entry that records model usage (session.Entry.
	// UsageRecord), input, output, cacheRead, cacheWrite and cost; the
	// script sums it along the path in view.
	Usage map[int][5]float64 `json:"usage"`
	// Edits maps an entry to the context edits aimed at it, in file
	// order; the script shows the badge of the latest one on the path.
	Edits map[int][]int `json:"edits,omitempty"`
	Leaf  int           `json:"leaf"` // the session's leaf
	View  int           `json:"view"` // the end of the path in view at load
}

// EntryStream yields the page's entries in the order they are written
// (Order), for the template, with the bodies off the path packed.
func (v *pageView) EntryStream() <-chan entryView {
	in := v.stream
	if in == nil {
		ch := make(chan entryView, len(v.Entries))
		if v.Order == nil {
			for _, e := range v.Entries {
				ch <- e
			}
		} else {
			for _, k := range v.Order {
				ch <- v.Entries[k]
			}
		}
		close(ch)
		in = ch
	}
	v.packs = &packer{}
	return v.packs.pack(in, v.stop, v.SubAgents)
}

// slotGroupSize is how many entries' slots share one group in the page's
// shadow root (see Order). A group out of view is skipped whole
// (content-visibility), so a change to the entries shown costs the
// browser layout in proportion to the groups, not to every entry.
const slotGroupSize = 128

// slotGroup is one group of slots: the ids of its entries, in tree order,
// a part name that sizes the group before it is first drawn, and whether
// it holds entries that come ready to show (see entryView.Lazy): such a
// group is laid out at once, so the end of the path is drawn as soon as
// the browser has read it, wherever the reader is in the page.
type slotGroup struct {
	IDs   []string
	Size  string
	Ready bool
}

// SlotGroups splits the entries into slot groups, for the template. A
// group's size part, "n0", "n1", "n2", "n4" ... "n128", is how many of its
// entries are on the path in view, rounded down to a power of two; the
// stylesheet turns it into an estimated height.
func (v *pageView) SlotGroups() []slotGroup {
	var groups []slotGroup
	for start := 0; start < len(v.Tree); start += slotGroupSize {
		nodes := v.Tree[start:min(len(v.Tree), start+slotGroupSize)]
		g := slotGroup{IDs: make([]string, 0, len(nodes))}
		shown := 0
		for i, n := range nodes {
			// A pointer, not a copy: renderers may be filling in other
			// fields of the entry while the template reads these.
			e := &v.Entries[start+i]
			if e.Absorbed {
				continue
			}
			g.IDs = append(g.IDs, n.ID)
			if n.OnPath {
				shown++
			}
			if e.OnPath && !e.Lazy {
				g.Ready = true
			}
		}
		size := 0 // the largest power of two not above shown
		if shown > 0 {
			size = 1 << (bits.Len(uint(shown)) - 1)
		}
		g.Size = "n" + strconv.Itoa(size)
		groups = append(groups, g)
	}
	return groups
}

// SearchIndex returns the search index, for the template, once it is
// built; "" when the page has none.
func (v *pageView) SearchIndex() string {
	if v.search == nil {
		return ""
	}
	return v.search.wait()
}

// JSONL returns the session file packed for download, for the template,
// once it is packed; "" when the page does not carry it.
func (v *pageView) JSONL() string {
	if v.jsonl == nil {
		return ""
	}
	return v.jsonl.wait()
}

// Packs returns the packed chunks, for the template. It is complete once
// the entries from EntryStream are all written.
func (v *pageView) Packs() []*packChunk {
	if v.packs == nil {
		return nil
	}
	return v.packs.chunks
}
