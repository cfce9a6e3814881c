package gfm

import (
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/usage"
)

// MarkdownIndexItem is one session in the index of an archive of
// Markdown exports (WriteMarkdownIndex).
type MarkdownIndexItem struct {
	// Title is the session's name or first user message.
	Title string
	// Link is the session's document, a URL or a path relative to the
	// index; bytes that a Markdown link cannot hold are percent-encoded.
	Link string
	// Date is when the session started; zero when unknown.
	Date time.Time
	// Project is the session's working directory, with ~ for home.
	Project string
	// Messages counts the session's user, assistant and tool result
	// messages; Cost is what its assistant messages cost, in dollars.
	Messages int
	Cost     float64
	// Related are the sessions listed under this one: its sub-agents
	// (omp keeps their transcripts beside it), forks.
	Related []MarkdownRelated
}

// MarkdownRelated is a kind of link between sessions ("Sub-agents",
// "Forks") and the sessions it links.
type MarkdownRelated struct {
	Label string
	Links []MarkdownLink
}

// MarkdownLink is one linked session: its title and its document (a link
// as MarkdownIndexItem.Link; empty: listed without a link).
type MarkdownLink struct {
	Title, Link string
}

// IndexOptions say how the index of an archive is written.
type IndexOptions struct {
	// Title heads the index ("pi sessions").
	Title string
	// Target and FrontMatter are as Options has them; the front matter
	// holds the title and the newest session's date.
	Target      string
	FrontMatter bool
	// Usage, when set, is the sessions' model work, reported after the
	// list (WriteMarkdownUsage); Project names a working directory for
	// people there.
	Usage   []usage.Record
	Project func(cwd string) string
}

// WriteMarkdownIndex writes the index of an archive of Markdown exports:
// one table row per item, in the order given, linking to each document,
// and under it a row for each kind of session related to it (its
// sub-agents, its forks), linking to theirs; then the usage report.
func WriteMarkdownIndex(w io.Writer, items []MarkdownIndexItem, opt IndexOptions) error {
	t, err := targetFor(opt.Target)
	if err != nil {
		return err
	}
	title := opt.Title
	if title == "" {
		title = "Sessions"
	}
	var b strings.Builder
	if opt.FrontMatter {
		b.WriteString("---\ntitle: " + t.metaString(title) + "\n")
		var newest time.Time
		for _, it := range items {
			if it.Date.After(newest) {
				newest = it.Date
			}
		}
		if !newest.IsZero() {
			b.WriteString("date: " + newest.UTC().Format(time.RFC3339) + "\n")
		}
		b.WriteString("---\n\n")
	}
	if h, ok := t.(hugoTarget); ok {
		b.WriteString(h.begin(opt.FrontMatter) + "\n\n")
	}
	if !opt.FrontMatter {
		b.WriteString("# " + mdInline(title) + "\n\n")
	}
	if len(items) == 0 {
		b.WriteString("No sessions.\n")
	} else {
		b.WriteString("| Session | Date | Project | Messages | Cost |\n| --- | --- | --- | ---: | ---: |\n")
	}
	for _, it := range items {
		title := mdInline(it.Title)
		if title == "" {
			title = "(untitled)"
		}
		if link := markdownLink(it.Link); link != "" {
			title = "[" + title + "](" + link + ")"
		}
		date := ""
		if !it.Date.IsZero() {
			date = it.Date.UTC().Format("2006-01-02 15:04")
		}
		cells := []string{title, date, mdInline(it.Project), strconv.Itoa(it.Messages), humanize.Cost(it.Cost)}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		// Each kind of related session on a row of its own, under the
		// session's row.
		for _, r := range it.Related {
			links := make([]string, 0, len(r.Links))
			for _, l := range r.Links {
				text := mdInline(l.Title)
				if text == "" {
					text = "(untitled)"
				}
				if dest := markdownLink(l.Link); dest != "" {
					text = "[" + text + "](" + dest + ")"
				}
				links = append(links, text)
			}
			if len(links) > 0 {
				b.WriteString("| ↳ " + mdInline(r.Label) + ": " + strings.Join(links, ", ") + " |  |  |  |  |\n")
			}
		}
	}
	if len(opt.Usage) > 0 {
		if err := WriteMarkdownUsage(&b, opt.Usage, opt.Project); err != nil {
			return err
		}
	}
	_, err = w.Write(t.finish(trimLineEnds([]byte(b.String()))))
	return err
}

// markdownLink makes link safe as a link destination (in a table cell
// too), or returns "" when it is not a URL the document may link to.
func markdownLink(link string) string {
	link = strings.TrimSpace(link)
	if link == "" || !markdownURLAllowed([]byte(link)) {
		return ""
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(link); i++ {
		c := link[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/:?#=+,;@!$'*%", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		if c == '&' {
			// An entity, which a destination's reader decodes: a query's
			// "&" keeps its meaning, where %26 would not.
			b.WriteString("&amp;")
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
