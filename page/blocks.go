package page

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
)

// The page's entries, written in blocks (see the package doc): groups of
// the path in view, in <noscript>, and packed chunks of the rest.

// block is one run of entries the page writes together: a group of the
// path in view, or the entries off it, which are written as packed
// chunks.
type block struct {
	// group is the group's slot name, "g0", "g1" ... in path order; ""
	// for the entries off the path.
	group   string
	entries []int // indexes in tree order, in the order they are written
}

// How the path in view is cut into groups, by the size of its entries in
// the file, a fair guess at the size of their articles. The group that
// ends the path comes first in the page and is drawn at once: it is kept
// small so the browser reaches it soon. The others are larger, to keep
// the document's elements few, but small enough that making an article
// costs little more than its own text.
const (
	eagerBytes   = 64 << 10
	eagerEntries = 16
	groupBytes   = 192 << 10
	groupEntries = 64
)

// planBlocks cuts the entries with an article (those not absorbed) into
// blocks, in the order the page writes them: the group that ends the path
// (path lists its entries' indexes, root first), the entries off the
// path, then the other groups of the path from its end back to its start.
// size is an entry's size in the file. It returns the blocks with the
// groups' names in path order.
func planBlocks(path []int, absorbed []bool, size func(i int) int) ([]block, []string) {
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
		end = start
	}
	names := make([]string, len(cuts))
	var blocks []block
	for k, c := range cuts {
		name := "g" + strconv.Itoa(len(cuts)-1-k)
		names[len(cuts)-1-k] = name
		blocks = append(blocks, block{group: name, entries: c})
		if k == 0 && len(off) > 0 {
			blocks = append(blocks, block{entries: off})
		}
	}
	if len(cuts) == 0 && len(off) > 0 {
		blocks = append(blocks, block{entries: off})
	}
	return blocks, names
}

// writeEntries writes p's blocks as their entries are rendered, then the
// sub-agents' transcripts, packed.
func writeEntries(w *bufio.Writer, p *Page) error {
	stop := make(chan struct{})
	defer close(stop)
	var order []int
	for _, b := range p.blocks {
		order = append(order, b.entries...)
	}
	stream := renderStream(order, p.render, stop)
	var chunks chunkWriter
	var g groupWriter
	for _, b := range p.blocks {
		if b.group == "" {
			for _, i := range b.entries {
				start := chunks.raw.Len()
				writeArticle(&chunks.raw, <-stream)
				if err := chunks.took(w, i, start); err != nil {
					return err
				}
			}
			if err := chunks.flush(w); err != nil {
				return err
			}
			continue
		}
		g.reset(b.group)
		for _, i := range b.entries {
			start := g.text.Len()
			writeArticle(&g.text, <-stream)
			g.took(i, start)
		}
		if err := g.write(w); err != nil {
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

// groupWriter collects the articles of one group.
type groupWriter struct {
	name string
	text render.Builder
	// where lists each article's entry index and its length in UTF-16
	// code units, as the script counts the group's text.
	where [][2]int
}

func (g *groupWriter) reset(name string) {
	g.name = name
	g.text.Reset()
	g.where = g.where[:0]
}

// took notes the article of entry i, written into the group's text from
// start on.
func (g *groupWriter) took(i, start int) {
	normalizeNewlines(&g.text, start)
	g.where = append(g.where, [2]int{i, utf16Len(g.text.Bytes()[start:])})
}

func (g *groupWriter) write(w *bufio.Writer) error {
	where, err := json.Marshal(g.where)
	if err != nil {
		return fmt.Errorf("render page: group map: %w", err)
	}
	w.WriteString(`<noscript class="g" slot="`)
	w.WriteString(g.name)
	w.WriteString(`" data-map="`)
	w.Write(where) // digits, commas and brackets only
	w.WriteString(`">`)
	w.Write(g.text.Bytes())
	w.WriteString(`</noscript>`)
	_, err = w.WriteString(arrivedTag)
	return err
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
	h.Raw(` title="Copy a link to this entry" aria-label="Copy a link to this entry">#</a></div><div class="entry-body">`)
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
