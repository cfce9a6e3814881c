package page

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
)

// The page's entries, written in blocks (see the package doc): groups of
// the path in view, in <noscript>, and packed chunks of the rest.

// block is one run of entries the page writes together: a group of the
// path in view, the copy of one written early, or the entries off the
// path, written as packed chunks.
type block struct {
	kind    blockKind
	group   int   // the group's number in path order (groups and copies)
	entries []int // indexes in tree order, in the order they are written
}

type blockKind int

const (
	groupBlock blockKind = iota
	copyBlock            // a group of the end of the path, early and hidden
	packBlock            // the entries off the path
)

// How the path in view is cut into groups, by the size of its entries in
// the file, a fair guess at the size of their articles. The group that
// ends the path is small, so that the browser reaches it soon; the others
// are larger, to keep the document's elements few, but small enough that
// making an article costs little more than its own text. The groups of
// the end of the path, up to copyBytes of them, come first in the file
// too, hidden, so that the script draws the end of the path (where a
// long session opens) before the browser has read the rest: the groups
// themselves are in path order, so that a browser without JavaScript
// shows the path in order.
const (
	eagerBytes   = 64 << 10
	eagerEntries = 16
	groupBytes   = 192 << 10
	groupEntries = 64
	copyBytes    = 256 << 10
)

// planBlocks cuts the entries with an article (those not absorbed) into
// blocks, in the order the page writes them: copies of the groups that
// end the path (path lists its entries' indexes, root first), the entries
// off the path, then the groups of the path in order. size is an entry's
// size in the file.
func planBlocks(path []int, absorbed []bool, size func(i int) int) []block {
	onPath := make([]bool, len(absorbed))
	var arts []int // the path's articles, in path order
	for _, i := range path {
		onPath[i] = true
		if !absorbed[i] {
			arts = append(arts, i)
		}
	}
	var off []int
	for i := range absorbed {
		if !onPath[i] && !absorbed[i] {
			off = append(off, i)
		}
	}
	// Cut from the end back.
	var cuts [][]int
	var sizes []int
	end := len(arts)
	for end > 0 {
		maxBytes, maxEntries := groupBytes, groupEntries
		if len(cuts) == 0 {
			maxBytes, maxEntries = eagerBytes, eagerEntries
		}
		start, sum := end-1, size(arts[end-1])
		for start > 0 && end-start < maxEntries && sum+size(arts[start-1]) <= maxBytes {
			start--
			sum += size(arts[start])
		}
		cuts = append(cuts, arts[start:end])
		sizes = append(sizes, sum)
		end = start
	}
	var blocks []block
	copied := 0
	for k := range cuts {
		if k > 0 && copied+sizes[k] > copyBytes {
			break
		}
		copied += sizes[k]
		blocks = append(blocks, block{kind: copyBlock, group: len(cuts) - 1 - k, entries: cuts[k]})
	}
	if len(off) > 0 {
		blocks = append(blocks, block{kind: packBlock, entries: off})
	}
	for k := len(cuts) - 1; k >= 0; k-- {
		blocks = append(blocks, block{kind: groupBlock, group: len(cuts) - 1 - k, entries: cuts[k]})
	}
	return blocks
}

// writeEntries writes p's blocks as their entries are rendered, then the
// sub-agents' transcripts, packed. A group copied early is rendered once:
// its text is kept until the group's turn comes. rest writes the rest of
// the index, after the copies: the first screen comes before it.
func writeEntries(w *bufio.Writer, p *Page, rest func() error) error {
	stop := make(chan struct{})
	defer close(stop)
	copies := map[int]*groupWriter{}
	var order []int
	for _, b := range p.blocks {
		if b.kind == copyBlock {
			copies[b.group] = nil
		}
		if b.kind == groupBlock {
			if _, copied := copies[b.group]; copied {
				continue
			}
		}
		order = append(order, b.entries...)
	}
	stream := renderStream(order, p.article, stop)
	// next is the next article, in the order they are written; progress
	// counts the entries each carries: its own, and the tool results its
	// call's card shows.
	carried := p.carried()
	done, k := 0, 0
	next := func() *entryView {
		v := <-stream
		if p.progress != nil {
			done += 1 + carried[order[k]]
			k++
			p.progress(done, len(p.nodes))
		}
		return v
	}
	if p.progress != nil {
		p.progress(0, len(p.nodes))
	}
	var chunks chunkWriter
	var g groupWriter
	for _, b := range p.blocks {
		if rest != nil && b.kind != copyBlock {
			if err := rest(); err != nil {
				return err
			}
			rest = nil
		}
		switch b.kind {
		case packBlock:
			for _, i := range b.entries {
				start := chunks.raw.Len()
				writeArticle(&chunks.raw, next())
				if err := chunks.took(w, i, start); err != nil {
					return err
				}
			}
			if err := chunks.flush(w); err != nil {
				return err
			}
		case copyBlock:
			c := &groupWriter{}
			for _, i := range b.entries {
				start := c.text.Len()
				writeArticle(&c.text, next())
				c.took(i, start)
			}
			copies[b.group] = c
			if err := c.write(w, true); err != nil {
				return err
			}
		case groupBlock:
			if c := copies[b.group]; c != nil {
				if err := c.write(w, false); err != nil {
					return err
				}
				copies[b.group] = nil // its text can go
				continue
			}
			g.reset()
			for _, i := range b.entries {
				start := g.text.Len()
				writeArticle(&g.text, next())
				g.took(i, start)
			}
			if err := g.write(w, false); err != nil {
				return err
			}
		}
	}
	if rest != nil {
		if err := rest(); err != nil {
			return err
		}
	}
	for _, panel := range p.panels() {
		start := chunks.raw.Len()
		chunks.raw.Append(panel.HTML)
		if err := chunks.took(w, panel.ID, start); err != nil {
			return err
		}
	}
	return chunks.flush(w)
}

// carried counts, by entry index, the tool results shown in that entry's
// call cards, which have no article of their own; nil when no one is told
// of the writing's progress.
func (p *Page) carried() map[int]int {
	if p.progress == nil || p.r == nil {
		return nil
	}
	out := map[int]int{}
	for _, j := range p.v.Index.Absorbed {
		if owner, _ := p.r.s.CallOf(p.nodes[j].Entry); owner != nil {
			out[p.r.pos[owner]]++
		}
	}
	return out
}

// groupWriter collects the articles of one group.
type groupWriter struct {
	text render.Builder
	// where lists each article's entry index and its length in UTF-16
	// code units, as the script counts the group's text.
	where [][2]int
}

func (g *groupWriter) reset() {
	g.text.Reset()
	g.where = g.where[:0]
}

// took notes the article of entry i, written into the group's text from
// start on.
func (g *groupWriter) took(i, start int) {
	normalizeNewlines(&g.text, start)
	g.where = append(g.where, [2]int{i, utf16Len(g.text.Bytes()[start:])})
}

// groupScriptType is the type of the inert block an early copy of a group
// is: text to every browser, so that its articles' ids are not the
// page's twice.
const groupScriptType = "application/x-piexport-group"

// write writes the group, or with early its copy written before its place
// (see planBlocks).
func (g *groupWriter) write(w *bufio.Writer, early bool) error {
	where, err := json.Marshal(g.where)
	if err != nil {
		return fmt.Errorf("render page: group map: %w", err)
	}
	text := g.text.Bytes()
	if early {
		// Script text ends at "</script" and changes how it is read at
		// "<script": neither is in an article, whose text is escaped and
		// whose markup is this package's.
		if containsFold(text, "<script") || containsFold(text, "</script") {
			return fmt.Errorf("render page: an article holds a script tag")
		}
		w.WriteString(`<script type="` + groupScriptType + `" data-map="`)
	} else {
		w.WriteString(`<noscript class="g" data-map="`)
	}
	w.Write(where) // digits, commas and brackets only
	w.WriteString(`">`)
	w.Write(text)
	if early {
		w.WriteString(`</script>`)
	} else {
		w.WriteString(`</noscript>`)
	}
	_, err = w.WriteString(arrivedTag)
	return err
}

// containsFold says whether b holds tag, in any case.
func containsFold(b []byte, tag string) bool {
	for i := bytes.IndexByte(b, '<'); i >= 0 && i+len(tag) <= len(b); {
		if bytes.EqualFold(b[i:i+len(tag)], []byte(tag)) {
			return true
		}
		j := bytes.IndexByte(b[i+1:], '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// arrivedTag follows the index and every block (see arrivedScript).
const arrivedTag = "<script>" + arrivedScript + "</script>\n"

// writeArticle writes the article of one entry.
func writeArticle(h *render.Builder, v *entryView) {
	h.Raw(`<article class="entry"`)
	h.Attr("id", elementID(v.ID))
	h.Attr("data-entry", v.ID)
	h.Attr("data-kind", v.Kind)
	h.Raw(`><div class="entry-head"><span class="role">`)
	h.Text(v.Role)
	h.Raw(`</span>`)
	if v.Label != "" {
		h.Raw(` <span class="tag">`)
		h.Text(v.Label)
		h.Raw(`</span>`)
	}
	for _, badge := range v.Badges {
		h.Raw(` <a class="edit-badge"`)
		h.Attr("href", "#"+elementID(badge.Edit))
		h.Attr("data-edit", badge.Edit)
		if !badge.Active {
			h.Raw(` hidden`)
		}
		h.Raw(`>`)
		h.Text(badge.Text)
		h.Raw(`</a>`)
	}
	if !v.Time.IsZero() {
		h.Raw(` <time`)
		h.Attr("datetime", humanize.ISOTime(v.Time))
		h.Raw(`>`)
		h.Text(humanize.UTCTime(v.Time))
		h.Raw(`</time>`)
	}
	h.Raw(` <a class="permalink"`)
	h.Attr("href", "#"+elementID(v.ID))
	h.Attr("data-copy", v.ID)
	h.Raw(` title="Copy a link to this entry (Shift+click: to the entries from the one copied last to this one)" aria-label="Copy a link to this entry">#</a>`)
	if bareAnchor(v.ID) {
		// page.html#d0c5a006 names the entry as session.md#d0c5a006
		// does, also for a browser without the script.
		h.Raw(`<span class="entry-anchor"`)
		h.Attr("id", v.ID)
		h.Raw(`></span>`)
	}
	h.Raw(`</div><div class="entry-body">`)
	h.Append(v.Body)
	h.Raw(`</div>`)
	if v.Foot != "" {
		h.Raw(`<div class="entry-foot">`)
		h.Text(v.Foot)
		h.Raw(`</div>`)
	}
	h.Raw(`</article>`)
}

// normalizeNewlines turns CR LF and CR into LF in what b holds from start
// on, as the browser does to what it reads: the lengths in a block's map
// are then those of the text the script sees.
func normalizeNewlines(b *render.Builder, start int) {
	tail := b.Bytes()[start:]
	if bytes.IndexByte(tail, '\r') < 0 {
		return
	}
	n := 0
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(tail) && tail[i+1] == '\n' {
				i++
			}
		}
		tail[n] = c
		n++
	}
	b.Truncate(start + n)
}

// utf16Len is the length of s in UTF-16 code units: JavaScript's length.
func utf16Len(s []byte) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		i += size
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
