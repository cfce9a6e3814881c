package archive

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/piexport/piexport/gfm"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/site"
)

// format is how an archive's files are written.
type format struct {
	name, ext string
	// page writes a session's file and returns what went wrong that did
	// not stop it (an entry shown unformatted); progress, when set, is
	// told how many of its entries are written, of total, as they are.
	page  func(w io.Writer, s *session.Session, raw []byte, opt Options, parent page.Link, related []page.Related, progress func(done, total int)) ([]session.Warning, error)
	index func(io.Writer, []site.IndexItem, site.IndexOptions) error
}

var formats = map[string]format{
	"html": {name: "html", ext: ".html", page: writePage, index: site.WriteIndex},
	"md":   {name: "md", ext: ".md", page: writeMarkdown, index: writeIndexMarkdown},
}

// writePage writes a session's page, with its links to the index, to the
// session it came from (parent, by title, when the archive has it) and
// to the others it has to do with; raw is the session file, which the
// page carries when opt.EmbedJSONL says so.
func writePage(w io.Writer, s *session.Session, raw []byte, opt Options, parent page.Link, related []page.Related, progress func(done, total int)) ([]session.Warning, error) {
	po := page.Options{Theme: opt.Theme, Home: opt.Home, Generator: opt.Generator,
		ParentURL: parent.URL, ParentName: parent.Title, Related: related, IndexURL: "index.html"}
	if opt.EmbedJSONL {
		po.JSONL, po.JSONLName = raw, filepath.Base(s.File)
	}
	p, err := page.NewPage(s, po)
	if err != nil {
		return nil, err
	}
	p.Tell(progress)
	err = p.Write(w)
	return p.Warnings(), err
}

// writeMarkdown writes a session's Markdown document.
func writeMarkdown(w io.Writer, s *session.Session, _ []byte, opt Options, _ page.Link, _ []page.Related, progress func(done, total int)) ([]session.Warning, error) {
	return nil, gfm.WriteMarkdown(w, s, gfm.Options{Home: opt.Home, Generator: opt.Generator, Progress: progress})
}

// Formats lists the values Options.Format accepts.
var Formats = []string{"html", "md"}

func formatOf(name string) (format, error) {
	if name == "" {
		name = "html"
	}
	f, ok := formats[name]
	if !ok {
		return format{}, fmt.Errorf("unknown archive format %q (want html or md)", name)
	}
	return f, nil
}

// writeIndexMarkdown writes the index of a Markdown archive, ordered as
// the HTML index is (grouped by project, newest first), and the files
// that failed to load last, unlinked, with their errors.
func writeIndexMarkdown(w io.Writer, items []site.IndexItem, opt site.IndexOptions) error {
	groups, failed := site.GroupIndex(items, opt.Home)
	var rows []gfm.MarkdownIndexItem
	for _, g := range groups {
		for _, it := range g.Items {
			row := gfm.MarkdownIndexItem{Title: it.Title(), Link: it.URL, Date: it.Summary.Start,
				Project: g.Project, Messages: it.Summary.Messages, Cost: it.Summary.Usage.Cost}
			for _, r := range it.Related {
				mr := gfm.MarkdownRelated{Label: r.Label}
				for _, l := range r.Links {
					mr.Links = append(mr.Links, gfm.MarkdownLink{Title: l.Title, Link: l.URL})
				}
				row.Related = append(row.Related, mr)
			}
			rows = append(rows, row)
		}
	}
	for _, it := range failed {
		msg := it.Err.Error()
		if h := opt.Home; h != "" && h != "/" {
			msg = strings.ReplaceAll(msg, h+"/", "~/")
		}
		rows = append(rows, gfm.MarkdownIndexItem{Title: "Could not be read: " + msg, Project: session.ShortenHome(it.Path, opt.Home)})
	}
	if err := gfm.WriteMarkdownIndex(w, rows); err != nil {
		return err
	}
	return gfm.WriteMarkdownUsage(w, opt.Usage, func(cwd string) string {
		return session.ShortenHome(cwd, session.HomeOf(cwd, opt.Home))
	})
}
