package page

import (
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/piexport/piexport/insights"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// The view model: page.go and entries.go fill it from a session,
// template.go, templates/page.html and blocks.go turn it into one HTML
// page (see the package doc for what the document holds). It holds
// display-ready values only (strings already shortened, numbers already
// summed), so the template needs no logic that belongs in Go.
//
// Contract between the two sides:
//   - The slices of Index are parallel: element i of each describes the
//     same session entry, in tree order, and ids are unique in the page.
//   - Tree order is a pre-order in which the children of a node appear
//     oldest first. The page finds "the newest leaf below a node" by
//     descending through the last child, so this order matters.
//   - The path in view runs from a root to Index.View; Header.Path holds
//     its token sums, which the script works out again from Index.Usage
//     whenever the path changes.

// entryIDPrefix starts the element id of every entry (and of the card
// that stands for a tool result): ids come from the session, and one such
// as "session-index" or "tree" must not name the page's own elements. No
// id the page gives its own elements starts with it, nor does any
// heading or footnote id (render prefixes those with "e-"). The page's
// script knows it too, and takes a link to a bare entry id as well.
const entryIDPrefix = "e:"

// bareAnchor says whether the entry id can also be an element id of its
// own (an anchor in the entry's head): an id as pi and omp write them,
// hexadecimal digits and dashes, which no id the page gives its own
// elements is, nor a heading's ("e-…").
func bareAnchor(id string) bool {
	if len(id) < 4 || strings.HasPrefix(id, "e-") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || c == '-' && i > 0) {
			return false
		}
	}
	return true
}

// elementID is the element id of the entry whose id is id.
func elementID(id string) string { return entryIDPrefix + id }

// entryHref is a link to the entry whose id is id, as a whole URL: its
// fragment escaped, colons too, so that html/template does not take the
// prefix's "e:" for a URL scheme and refuse the link. The browser and
// the script both decode a fragment before they look for its element.
func entryHref(id string) string {
	return "#" + strings.ReplaceAll(url.PathEscape(elementID(id)), ":", "%3A")
}

// pageView is everything one page shows but the entries, which blocks.go
// writes as they are rendered.
type pageView struct {
	// Title is the session name or the first user message, on one line.
	Title string
	// Theme is "auto", "light" or "dark" and becomes html[data-theme]. With
	// "auto" the page follows prefers-color-scheme, unless the reader chose a
	// theme with the toggle (remembered in localStorage).
	Theme  string
	Header headerView
	// Index is the data the script draws the tree and the path from; it
	// is written as JSON before the entries.
	Index pageIndex
	// TOC lists the entries of the path in view, for a reader without
	// JavaScript: the tree then shows them as links.
	TOC []tocRow
	// Empty is set when the session has no entries.
	Empty bool
	// JSONLName names the session file when the page carries it for
	// download (jsonl.go).
	JSONLName string
	// IndexURL, when set, is the index of the sessions the page belongs to.
	IndexURL string
	// Generator names the program, e.g. "piexport v1.2.0".
	Generator string
	// FollowURL, when set, is a same-origin script the page loads after its
	// own: the server's live follow (see Options.FollowURL).
	FollowURL string
	// Insights are the charts of the path in view at load, under the
	// header; nil when it has nothing to chart.
	Insights *insights.Section
	// Description is what a link to the page previews (meta.go).
	Description string
	// Excerpt is set when the page holds part of a path (session.Cut).
	Excerpt *excerptView
	// Embed and EmbedLink are Options.Embed and Options.EmbedLink.
	Embed     bool
	EmbedLink string
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
	// when the caller knows it; ParentRole says which. ParentIsPath is
	// set when Parent is a file's path rather than a title.
	Parent, ParentURL, ParentRole string
	ParentIsPath                  bool
	// Related are the links of Options.Related.
	Related []Related
}

// costRow is one row of the cost by model.
type costRow struct {
	Key, Tokens, Cost string
}

// tocRow is one entry of the path in view as the page lists it for a
// reader without JavaScript.
type tocRow struct {
	ID, Role, Preview, Label string
}

// entryView is one entry as it is rendered into its article.
type entryView struct {
	ID   string
	Kind string
	Time time.Time // zero when unknown
	// Label is the resolved label, or "".
	Label string
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
// parallel, one element per entry in tree order.
type pageIndex struct {
	IDs     []string `json:"ids"`
	Parents []int    `json:"parents"` // index of the parent, -1 for a root
	// Kinds index KindNames: the entry's kind (kinds.go), which the tree's
	// filters and colours go by.
	Kinds     []int    `json:"kinds"`
	KindNames []string `json:"kindNames"`
	// Roles index RoleNames: the short prefix of the entry's row ("user:",
	// or "" for none); Previews are the rest of the row's text. They are
	// most of the index's bytes, and the tree needs only the rows it
	// draws: they are written apart, rowBlock to a block (see
	// pageData.Rows), which the script parses when it first needs one.
	Roles     []int    `json:"roles"`
	RoleNames []string `json:"roleNames"`
	Previews  []string `json:"-"`
	// Labels holds the resolved label of each labeled entry.
	Labels map[int]string `json:"labels"`
	// Absorbed lists the tool results shown in their call's card: they
	// have no article, and links to them go to the card.
	Absorbed []int `json:"absorbed"`
	// Lines estimates each entry's height in lines of text before it is
	// drawn, so that the page's scroll height is about right from the
	// start; 0 for an entry with no article.
	Lines []int `json:"lines"`
	// Usage holds, per entry that records model usage (session.Entry.
	// UsageRecord), input, output, cacheRead, cacheWrite and cost; the
	// script sums it along the path in view. The header has the sums of
	// the path at load, so it is written apart, after the first screen
	// (pageData.Usage).
	Usage map[int][5]float64 `json:"-"`
	// Edits maps an entry to the context edits aimed at it, in file
	// order; the script shows the badge of the latest one on the path.
	Edits map[int][]int `json:"edits"`
	Leaf  int           `json:"leaf"` // the session's leaf
	View  int           `json:"view"` // the end of the path in view at load
	// Filters says which kinds each of the tree's filters by kind shows
	// (kindFilters), one flag per KindNames; writePage fills it in.
	Filters map[string][]bool `json:"filters"`
	// Config is what the script knows of the page's markup.
	Config *scriptConfig `json:"config"`
}

// scriptConfig is what the page's script is told of how this package
// writes the page, so that it keeps no copy of it: the values are this
// package's constants.
type scriptConfig struct {
	// EntryPrefix starts an entry's element id (entryIDPrefix).
	EntryPrefix string `json:"entryPrefix"`
	// RowBlock is how many previews a block of the tree's rows holds.
	RowBlock int `json:"rowBlock"`
	// FoldStart and FoldEnd enclose the folded lines of an output.
	FoldStart string `json:"foldStart"`
	FoldEnd   string `json:"foldEnd"`
	// GroupType is the type of a group's early copy (blocks.go).
	GroupType string `json:"groupType"`
	// ToolCard starts a tool's card, ToolOutput its output (tools.go).
	ToolCard   string `json:"toolCard"`
	ToolOutput string `json:"toolOutput"`
	// Highlight lists the classes of the runs of highlighted code, by
	// letter (render.HighlightClasses).
	Highlight []string `json:"highlight"`
}

// pageScriptConfig is the scriptConfig of every page.
var pageScriptConfig = &scriptConfig{
	EntryPrefix: entryIDPrefix,
	RowBlock:    rowBlock,
	FoldStart:   foldStart,
	FoldEnd:     foldEnd,
	GroupType:   groupScriptType,
	ToolCard:    toolCard,
	ToolOutput:  toolOutput,
	Highlight:   render.HighlightClasses(),
}

// newPageIndex makes the index of n entries, to be filled with set.
func newPageIndex(n int) pageIndex {
	return pageIndex{
		IDs:       make([]string, n),
		Parents:   make([]int, n),
		Kinds:     make([]int, n),
		Roles:     make([]int, n),
		RoleNames: []string{""},
		Previews:  make([]string, n),
		Lines:     make([]int, n),
		Labels:    map[int]string{},
		Absorbed:  []int{},
		Usage:     map[int][5]float64{},
		Edits:     map[int][]int{},
		Leaf:      -1,
		View:      -1,
		Config:    pageScriptConfig,
	}
}

// set fills in the i-th entry, in tree order: parent is its parent's
// index (-1 for a root), role and preview its row in the tree, lines the
// estimate of its height (unused when absorbed).
func (ix *pageIndex) set(i int, id string, parent int, kind, role, preview, label string, absorbed bool, lines int) {
	ix.IDs[i] = id
	ix.Parents[i] = parent
	ix.Kinds[i] = code(&ix.KindNames, kind)
	ix.Roles[i] = code(&ix.RoleNames, role)
	ix.Previews[i] = preview
	if label != "" {
		ix.Labels[i] = label
	}
	if absorbed {
		ix.Absorbed = append(ix.Absorbed, i)
	} else {
		ix.Lines[i] = lines
	}
}

// code is name's index in names, which it joins if it is not there: the
// index names each kind and role once.
func code(names *[]string, name string) int {
	for k, n := range *names {
		if n == name {
			return k
		}
	}
	*names = append(*names, name)
	return len(*names) - 1
}

// rowBlock is how many previews one block of the tree's rows holds (the
// script is told it: scriptConfig).
const rowBlock = 2048
