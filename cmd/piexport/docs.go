package main

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/gfm"
	"github.com/piexport/piexport/internal/imagefiles"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
)

// Sessions in a documentation site: the Markdown's engine and shape, a
// page to embed, and excerpts of a session in any format.

// docFlags are the flags that shape a Markdown document for a site, and
// the excerpt flags, which any format takes.
type docFlags struct {
	target        string
	frontMatter   bool
	headingOffset int
	bodyOnly      bool
	from, to      string
	// embed makes a page for an iframe; embedLink is where its "Open the
	// full session" goes.
	embed     bool
	embedLink string
}

func (d *docFlags) define(fs *pflag.FlagSet) {
	fs.StringVar(&d.target, "md-target", "github", "with --format md: the `engine` the Markdown is for: github (GitHub and other CommonMark renderers), mkdocs (MkDocs with Material), hugo (Hugo, which then gets front matter) or docusaurus (Docusaurus 3, MDX)")
	fs.BoolVar(&d.frontMatter, "front-matter", false, "with --format md: start with YAML front matter (title, date, lastmod, session_id, project, models, cost, tokens, entries, parent), and leave the title heading to the engine")
	fs.IntVar(&d.headingOffset, "heading-offset", 0, "with --format md: move every heading `N` levels down (0 to 4), for a page that includes the document under its own headings")
	fs.BoolVar(&d.bodyOnly, "body-only", false, "with --format md: write the turns alone, without the title, the facts and the last line, for a page that includes the document")
	fs.BoolVar(&d.embed, "embed", false, "make a page to show in an iframe: a one-line header instead of the facts and charts, the tree closed, and its height posted to the page around it (see the README)")
	fs.StringVar(&d.embedLink, "embed-link", "", "with --embed: link the header to the full session at `URL` (http, https or relative)")
	fs.StringVar(&d.from, "from", "", "export the part of the path that starts at the entry with this `ID` (or the start of one), in any format: an excerpt")
	fs.StringVar(&d.to, "to", "", "export the part of the path that ends at the entry with this `ID` (or the start of one), with the results of its tool calls (default: the leaf)")
}

// check checks the flags against the rest of opt. Hugo builds a page's
// title and date from front matter alone, so the hugo target writes it,
// unless the document is a body to include or --front-matter=false says
// not to.
func (d *docFlags) check(fs *pflag.FlagSet, opt *options) error {
	switch {
	case !gfm.ValidTarget(d.target):
		return usagef("--md-target must be github, mkdocs, hugo or docusaurus, not %q", d.target)
	case d.headingOffset < 0 || d.headingOffset > 4:
		return usagef("--heading-offset must be 0 to 4, not %d", d.headingOffset)
	case opt.format != "md" && (fs.Changed("md-target") || fs.Changed("front-matter") || fs.Changed("heading-offset") || d.bodyOnly):
		return usagef("--md-target, --front-matter, --heading-offset and --body-only go with --format md")
	case (d.from != "" || d.to != "") && opt.leaf != "":
		return usagef("--from and --to name the part of a path to export; --leaf does not go with them (--to names where it ends)")
	case (d.from != "" || d.to != "") && (opt.serve || opt.usage || opt.sharing.share):
		return usagef("--from and --to go with one session's export, not --serve, --usage or --share")
	case d.embedLink != "" && !d.embed:
		return usagef("--embed-link goes with --embed")
	case d.embed && opt.format != "html":
		return usagef("--embed makes an HTML page for an iframe; it does not go with --format %s", opt.format)
	case d.embed && (opt.serve || opt.usage || opt.sharing.share || opt.sharing.encrypt):
		return usagef("--embed makes one page for an iframe; it does not go with --serve, --usage, --share or --encrypt")
	case d.embed && opt.embedJSONL:
		return usagef("--embed leaves out the header, where --embed-jsonl offers the session file; use one or the other")
	case d.embedLink != "" && !page.WebLink(d.embedLink):
		return usagef("--embed-link must be an http or https URL, or a relative one, not %q", d.embedLink)
	}
	if d.target == "hugo" && !fs.Changed("front-matter") && !d.bodyOnly {
		d.frontMatter = true
	}
	return nil
}

// excerptEnds are the entries --from and --to name (nil for one not
// given).
type excerptEnds struct{ from, to *session.Entry }

// ends finds the entries --from and --to name in s, by their ids as the
// file has them (as --leaf's): nil when neither is given.
func (d *docFlags) ends(s *session.Session) (*excerptEnds, error) {
	if d.from == "" && d.to == "" {
		return nil, nil
	}
	var e excerptEnds
	var err error
	if d.from != "" {
		if e.from, err = findLeaf(s, d.from); err != nil {
			return nil, err
		}
	}
	if d.to != "" {
		if e.to, err = findLeaf(s, d.to); err != nil {
			return nil, err
		}
	}
	return &e, nil
}

// excerpt is s cut to the part of its path between ends (session.Cut),
// or s itself for no ends. agents, s's sub-agents, are cut to those
// whose task calls the part holds.
func (d *docFlags) excerpt(s *session.Session, ends *excerptEnds, agents []*session.SubAgent) (*session.Session, []*session.SubAgent, error) {
	if ends == nil {
		return s, agents, nil
	}
	part, err := s.Cut(ends.from, ends.to)
	if err != nil {
		return nil, nil, usageError{err}
	}
	started := map[string]bool{}
	for _, e := range part.Entries {
		if e.Role() != "assistant" {
			continue
		}
		full := part.Full(e)
		for i := range full.Message.Content {
			b := &full.Message.Content[i]
			if b.Type == "toolCall" && b.Name == "task" {
				for _, a := range session.TaskRun(b.Arguments, part.ToolResult(e, b.ToolCallID)) {
					started[a.ID] = true
				}
			}
		}
	}
	var kept []*session.SubAgent
	for _, a := range agents {
		if started[a.ID] {
			kept = append(kept, a)
		}
	}
	return part, kept, nil
}

// markdownOptions are the gfm options of opt for one document written to
// out ("" for standard output, which has nowhere to keep images).
func (d *docFlags) markdownOptions(opt *options, home string, agents []*session.SubAgent, out string) gfm.Options {
	o := gfm.Options{Home: home, Generator: generator(), SubAgents: agents,
		Target: d.target, FrontMatter: d.frontMatter, HeadingOffset: d.headingOffset, BodyOnly: d.bodyOnly}
	if out != "" {
		o.Images = imageDir(out, d.target)
	}
	return o
}

// imageDir keeps a single document's images in NAME.assets beside it,
// linked as the engine resolves a link from the page it makes of the
// document: Hugo serves NAME.md at NAME/ (but index.md and _index.md at
// their directory), Docusaurus wants a relative path to start with "./".
func imageDir(out, target string) *imagefiles.Dir {
	base := filepath.Base(out)
	name := strings.TrimSuffix(base, filepath.Ext(base)) + ".assets"
	link := url.PathEscape(name)
	switch {
	case target == "hugo" && base != "index.md" && base != "_index.md":
		link = "../" + link
	case target == "docusaurus":
		link = "./" + link
	}
	return &imagefiles.Dir{Path: filepath.Join(filepath.Dir(out), name), Link: link}
}
