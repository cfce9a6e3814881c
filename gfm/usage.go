package gfm

import (
	"io"
	"strconv"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/usage"
)

// WriteMarkdownUsage writes the usage report of an archive of Markdown
// exports, as the HTML index charts it: tables of sessions, tokens and
// cost per month, per project and per model, each with its total, the
// figures `piexport --usage` prints. project names a working directory
// for people (home as ~). It writes nothing when there is no record.
func WriteMarkdownUsage(w io.Writer, records []usage.Record, project func(cwd string) string) error {
	if len(records) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("\n## Usage\n")
	for _, by := range []usage.By{usage.ByMonth, usage.ByProject, usage.ByModel} {
		rep := usage.NewReport(records, by)
		b.WriteString("\n### Per " + string(by) + "\n\n")
		// Sub-agents' transcripts are counted apart from sessions, in a
		// column of their own when there are any.
		agents := rep.Total.SubAgents > 0
		if agents {
			b.WriteString("| " + by.Heading() + " | Sessions | Sub-agents | Tokens | Cost |\n| --- | ---: | ---: | ---: | ---: |\n")
		} else {
			b.WriteString("| " + by.Heading() + " | Sessions | Tokens | Cost |\n| --- | ---: | ---: | ---: |\n")
		}
		row := func(name string, g usage.Group) {
			cells := []string{name, strconv.Itoa(g.Sessions)}
			if agents {
				cells = append(cells, strconv.Itoa(g.SubAgents))
			}
			cells = append(cells, humanize.Tokens(g.Tokens()), humanize.Cost(g.Cost))
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
		for _, g := range rep.Groups {
			name := g.Key
			switch {
			case by == usage.ByProject && name == "":
				name = "(no working directory)"
			case by == usage.ByProject:
				name = project(name)
			case by == usage.ByModel:
				name = humanize.Model(name)
			}
			row(mdInline(name), g)
		}
		row("**Total**", rep.Total)
	}
	b.WriteString("\nMonths are of UTC days.\n")
	_, err := io.WriteString(w, string(trimLineEnds([]byte(b.String()))))
	return err
}
