package sessiongen

import (
	"bytes"
	"strconv"
)

// Tool calls and their results, in the shapes pi's built-in tools produce
// (read, write, edit, bash, grep, find, ls) plus two extension tools.

const (
	toolRead = iota
	toolBash
	toolEdit
	toolWrite
	toolGrep
	toolFind
	toolLs
	toolSearch
	toolFetch
)

var toolNames = [...]string{"read", "bash", "edit", "write", "grep", "find", "ls", "web_search", "fetch_url"}

var toolWeights = []int{30, 27, 13, 5, 9, 3, 3, 5, 5}

// call remembers what a tool call asked for until its result is written.
type call struct {
	tool   int
	id     string
	f      *file
	path   string
	offset int
	limit  int
	kind   int // bash output kind
	png    bool
	fail   bool
	// edit
	start                         int // first line of the context shown
	before, removed, added, after [][]byte
	oldStyle                      bool
	// write
	size int
	// grep, find, web_search
	pattern string
}

func (g *gen) toolCall(c *call, index int) {
	c.tool = g.r.weighted(g.sh.toolWeights)
	g.tmp = g.callID(g.tmp[:0], index)
	c.id = string(g.tmp)
	g.line = append(g.line, `{"type":"toolCall","id":`...)
	g.line = appendQuoted(g.line, c.id)
	g.line = appendStrField(g.line, "name", toolNames[c.tool])
	g.line = append(appendKey(g.line, "arguments"), '{')
	rel := g.r.pct(20)
	switch c.tool {
	case toolRead:
		if g.opt.Images && g.r.pct(4) && g.remaining() > 200_000 {
			c.png = true
			c.f = &g.proj.pngs[g.r.intn(len(g.proj.pngs))]
		} else {
			c.f = g.proj.randFile(&g.r)
		}
		c.path = g.proj.abs(c.f.path, rel)
		g.line = appendStrField(g.line, "path", c.path)
		// A shape that bounds its reads shows every file whole.
		if !c.png && g.sh.readLines[0] == 0 && c.f.lines > 200 && g.r.pct(20) {
			c.offset = g.r.between(1, c.f.lines-50)
			c.limit = pick(&g.r, []int{50, 100, 150, 200, 300, 400})
			g.line = appendIntField(g.line, "offset", int64(c.offset))
			g.line = appendIntField(g.line, "limit", int64(c.limit))
		}
		c.fail = g.r.pct(3)
		if !c.fail {
			g.trackFile(c.path, false)
		}
	case toolBash:
		g.tmp, c.kind = g.bashCommand(g.tmp[:0])
		g.line = appendQuoted(appendKey(g.line, "command"), g.tmp)
		if g.r.pct(10) {
			g.line = appendIntField(g.line, "timeout", int64(pick(&g.r, []int{30, 60, 120, 300})))
		}
	case toolEdit:
		c.f = g.proj.randFile(&g.r)
		c.path = g.proj.abs(c.f.path, rel)
		g.editHunk(c)
		g.line = appendStrField(g.line, "path", c.path)
		c.oldStyle = g.r.pct(40)
		if c.oldStyle {
			g.line = appendQuoted(appendKey(g.line, "oldText"), joinLines(g.tmp[:0], c.removed))
			g.line = appendQuoted(appendKey(g.line, "newText"), joinLines(g.tmp[:0], c.added))
		} else {
			g.line = append(appendKey(g.line, "edits"), `[{"oldText":`...)
			g.line = appendQuoted(g.line, joinLines(g.tmp[:0], c.removed))
			g.line = appendQuoted(appendKey(g.line, "newText"), joinLines(g.tmp[:0], c.added))
			g.line = append(g.line, "}]"...)
		}
		c.fail = g.r.pct(6)
		if !c.fail {
			g.trackFile(c.path, true)
		}
	case toolWrite:
		c.f = g.proj.randFile(&g.r)
		c.path = g.proj.abs(c.f.path, rel)
		g.line = appendStrField(g.line, "path", c.path)
		g.tmp = g.code(g.tmp[:0], c.f.lang, g.budget(g.r.skewed(10, 250)*32)/32)
		c.size = len(g.tmp)
		g.line = appendQuoted(appendKey(g.line, "content"), g.tmp)
		g.trackFile(c.path, true)
	case toolGrep:
		g.tmp = g.ident(g.tmp[:0], g.proj.lang.style)
		if g.r.pct(30) {
			g.tmp = append(g.tmp, '|')
			g.tmp = g.ident(g.tmp, g.proj.lang.style)
		}
		c.pattern = string(g.tmp)
		g.line = appendStrField(g.line, "pattern", c.pattern)
		g.line = appendStrField(g.line, "path", g.proj.abs(pick(&g.r, g.proj.dirs), rel))
		switch g.r.intn(4) {
		case 0:
			g.line = appendStrField(g.line, "glob", "*"+g.proj.lang.ext)
		case 1:
			g.line = appendBoolField(g.line, "ignoreCase", true)
		case 2:
			c.limit = pick(&g.r, []int{20, 30, 50, 100})
			g.line = appendIntField(g.line, "limit", int64(c.limit))
		}
	case toolFind:
		c.pattern = "**/*" + pick(&g.r, []*language{g.proj.lang, langMD, langJSON, langYAML}).ext
		g.line = appendStrField(g.line, "pattern", c.pattern)
		g.line = appendStrField(g.line, "path", g.proj.cwd)
	case toolLs:
		c.path = g.proj.abs(pick(&g.r, g.proj.dirs), rel)
		g.line = appendStrField(g.line, "path", c.path)
	case toolSearch:
		g.tmp = g.phrase(g.tmp[:0], g.r.between(2, 6))
		c.pattern = string(g.tmp)
		g.line = appendStrField(g.line, "query", c.pattern)
		if g.r.pct(40) {
			g.line = appendIntField(g.line, "limit", 10)
		}
	case toolFetch:
		g.tmp = append(g.tmp[:0], "https://"...)
		g.tmp = append(g.tmp, pick(&g.r, domains)...)
		c.pattern = string(g.tmp)
		g.line = appendStrField(g.line, "url", c.pattern)
	}
	g.line = append(g.line, "}}"...)
}

func joinLines(b []byte, lines [][]byte) []byte {
	for i, l := range lines {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, l...)
	}
	return b
}

// editHunk makes the lines an edit replaces and the context pi shows around
// them in details.diff.
func (g *gen) editHunk(c *call) {
	nb, nf := 4, 4
	nr := g.r.between(g.sh.editRemoved[0], g.sh.editRemoved[1])
	na := g.r.between(g.sh.editAdded[0], g.sh.editAdded[1])
	c.start = g.r.between(1, max(1, c.f.lines-nb-nr-nf))
	src := g.code(nil, c.f.lang, nb+nr+na+nf+4)
	lines := bytes.Split(bytes.TrimRight(src, "\n"), []byte("\n"))
	for len(lines) < nb+nr+na+nf {
		lines = append(lines, []byte(""))
	}
	c.before = lines[:nb]
	c.removed = lines[nb : nb+nr]
	c.added = lines[nb+nr : nb+nr+na]
	c.after = lines[nb+nr+na : nb+nr+na+nf]
}

// diff appends the edit as pi's details.diff: a marker, a line number padded
// to a common width, a space and the text; "..." for elided lines.
func (c *call) diff(b []byte) ([]byte, int) {
	first := c.start
	last := first + len(c.before) + max(len(c.removed), len(c.added)) + len(c.after)
	w := len(strconv.Itoa(last))
	num := func(b []byte, mark byte, n int) []byte {
		b = append(b, mark)
		s := strconv.Itoa(n)
		for i := len(s); i < w; i++ {
			b = append(b, ' ')
		}
		b = append(b, s...)
		return append(b, ' ')
	}
	ellipsis := func(b []byte) []byte {
		b = append(b, ' ')
		for i := 0; i < w; i++ {
			b = append(b, ' ')
		}
		return append(b, " ...\n"...)
	}
	if first > 1 {
		b = ellipsis(b)
	}
	n := first
	for _, l := range c.before {
		b = append(append(num(b, ' ', n), l...), '\n')
		n++
	}
	changed := n
	for i, l := range c.removed {
		b = append(append(num(b, '-', n+i), l...), '\n')
	}
	for i, l := range c.added {
		b = append(append(num(b, '+', n+i), l...), '\n')
	}
	n += len(c.removed)
	for _, l := range c.after {
		b = append(append(num(b, ' ', n), l...), '\n')
		n++
	}
	b = ellipsis(b)
	return b[:len(b)-1], changed
}

// beginResult starts a toolResult message for c.
func (g *gen) beginResult(c *call) int64 {
	msgTS := g.tick(5, 3000)
	g.tick(0, 30)
	g.begin("message")
	g.line = append(g.line, `,"message":{"role":"toolResult","toolCallId":`...)
	g.line = appendQuoted(g.line, c.id)
	g.line = appendStrField(g.line, "toolName", toolNames[c.tool])
	g.line = append(appendKey(g.line, "content"), `[{"type":"text","text":`...)
	return msgTS
}

func (g *gen) endResult(isError bool, msgTS int64, start int) {
	g.line = appendBoolField(g.line, "isError", isError)
	g.line = appendIntField(g.line, "timestamp", msgTS)
	g.ctxTokens += (len(g.line) - start) / 4
	g.end(2)
}

// simpleResult writes a result whose content is one text block and that has
// no details.
func (g *gen) simpleResult(c *call, text []byte, isError bool) {
	msgTS := g.beginResult(c)
	start := len(g.line)
	g.line = appendQuoted(g.line, text)
	g.line = append(g.line, "}]"...)
	g.endResult(isError, msgTS, start)
}

func (g *gen) toolResult(c *call) {
	switch c.tool {
	case toolRead:
		g.readResult(c)
	case toolBash:
		g.bashResult(c)
	case toolEdit:
		if c.fail {
			g.tmp = append(g.tmp[:0], "Could not find the exact text in "...)
			g.tmp = append(g.tmp, c.path...)
			g.tmp = append(g.tmp, ". The old text must match exactly including all whitespace and newlines."...)
			g.simpleResult(c, g.tmp, true)
			return
		}
		msgTS := g.beginResult(c)
		start := len(g.line)
		if c.oldStyle {
			g.tmp = append(g.tmp[:0], "Successfully replaced text in "...)
			g.tmp = append(g.tmp, c.path...)
			g.tmp = append(g.tmp, '.')
		} else {
			g.tmp = append(g.tmp[:0], "Successfully replaced 1 block(s) in "...)
			g.tmp = append(g.tmp, c.path...)
			g.tmp = append(g.tmp, '.')
		}
		g.line = appendQuoted(g.line, g.tmp)
		g.line = append(g.line, "}]"...)
		var first int
		g.tmp, first = c.diff(g.tmp[:0])
		g.line = append(appendKey(g.line, "details"), `{"diff":`...)
		g.line = appendQuoted(g.line, g.tmp)
		g.line = appendIntField(g.line, "firstChangedLine", int64(first))
		g.line = append(g.line, '}')
		g.endResult(false, msgTS, start)
	case toolWrite:
		g.tmp = append(g.tmp[:0], "Successfully wrote "...)
		g.tmp = strconv.AppendInt(g.tmp, int64(c.size), 10)
		g.tmp = append(g.tmp, " bytes to "...)
		g.tmp = append(g.tmp, c.path...)
		g.simpleResult(c, g.tmp, false)
	case toolGrep:
		g.grepResult(c)
	case toolFind:
		n := g.r.skewed(0, 200)
		n = min(n, max(1, g.budget(n*40)/40))
		g.tmp = g.tmp[:0]
		for i := 0; i < n; i++ {
			g.tmp = append(g.tmp, g.proj.randFile(&g.r).path...)
			g.tmp = append(g.tmp, '\n')
		}
		if n == 0 {
			g.tmp = append(g.tmp, "No files found matching pattern"...)
		} else {
			g.tmp = g.tmp[:len(g.tmp)-1]
		}
		g.simpleResult(c, g.tmp, false)
	case toolLs:
		g.tmp = g.tmp[:0]
		for i := g.r.between(3, 40); i > 0; i-- {
			if g.r.pct(25) {
				g.tmp = append(g.tmp, pick(&g.r, dirNames)...)
				g.tmp = append(g.tmp, "/\n"...)
			} else {
				f := g.proj.randFile(&g.r)
				g.tmp = append(g.tmp, f.path[lastSlash(f.path)+1:]...)
				g.tmp = append(g.tmp, '\n')
			}
		}
		g.simpleResult(c, g.tmp[:len(g.tmp)-1], false)
	case toolSearch, toolFetch:
		g.extensionResult(c)
	}
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

// cutLines returns the first n lines of b (without a trailing newline).
func cutLines(b []byte, n int) []byte {
	for i, c := range b {
		if c == '\n' {
			n--
			if n == 0 {
				return b[:i]
			}
		}
	}
	return bytes.TrimSuffix(b, []byte("\n"))
}

// cutBytes returns the longest run of whole lines of b within max bytes.
func cutBytes(b []byte, max int) []byte {
	if len(b) <= max {
		return b
	}
	i := bytes.LastIndexByte(b[:max], '\n')
	if i < 0 {
		return b[:0]
	}
	return b[:i]
}

func (g *gen) readResult(c *call) {
	if c.fail {
		g.tmp = append(g.tmp[:0], "ENOENT: no such file or directory, access '"...)
		g.tmp = append(g.tmp, g.proj.abs(c.f.path, false)...)
		g.tmp = append(g.tmp, '\'')
		g.simpleResult(c, g.tmp, true)
		return
	}
	if c.png {
		msgTS := g.beginResult(c)
		start := len(g.line)
		g.line = append(g.line, `"Read image file [image/png]"},{"type":"image","data":"`...)
		g.line = g.appendPNG(g.line, g.r.between(5<<10, 80<<10))
		g.line = append(g.line, `","mimeType":"image/png"}]`...)
		g.endResult(false, msgTS, start)
		return
	}
	total := c.f.lines
	first := 1
	want := total
	if c.offset > 0 {
		first = min(c.offset, total)
		want = min(c.limit, total-first+1)
	}
	room := g.budget(1 << 30)
	lines := min(want, piMaxLines, max(8, room/20))
	// Generate a line more than shown so the cut lands on a line end.
	src := g.code(g.tmp2[:0], c.f.lang, lines+1)
	g.tmp2 = src
	text := cutLines(src, lines)
	truncBy := ""
	if len(text) > piMaxBytes {
		text = cutBytes(text, piMaxBytes)
		truncBy = "bytes"
	} else if want > piMaxLines && lines == piMaxLines {
		truncBy = "lines"
	}
	cost := len(text)
	if truncBy != "" {
		cost *= 2
	}
	if cost > room {
		// Near the target the file is shown whole but shorter than it is
		// elsewhere in the session; details.truncation would double it.
		text = cutBytes(text, max(room, 200))
		truncBy = ""
		total = first + bytes.Count(text, []byte("\n"))
	}
	shown := bytes.Count(text, []byte("\n")) + 1
	last := first + shown - 1
	g.tmp = append(g.tmp[:0], text...)
	switch {
	case truncBy == "bytes":
		g.tmp = append(g.tmp, "\n\n[Showing lines "...)
		g.tmp = appendRange(g.tmp, first, last)
		g.tmp = append(g.tmp, " of "...)
		g.tmp = strconv.AppendInt(g.tmp, int64(total), 10)
		g.tmp = append(g.tmp, " (50.0KB limit). Use offset="...)
		g.tmp = strconv.AppendInt(g.tmp, int64(last+1), 10)
		g.tmp = append(g.tmp, " to continue]"...)
	case truncBy == "lines":
		g.tmp = append(g.tmp, "\n\n[Showing lines "...)
		g.tmp = appendRange(g.tmp, first, last)
		g.tmp = append(g.tmp, " of "...)
		g.tmp = strconv.AppendInt(g.tmp, int64(total), 10)
		g.tmp = append(g.tmp, ". Use offset="...)
		g.tmp = strconv.AppendInt(g.tmp, int64(last+1), 10)
		g.tmp = append(g.tmp, " to continue]"...)
	case c.offset > 0 && last < total:
		g.tmp = append(g.tmp, "\n\n["...)
		g.tmp = strconv.AppendInt(g.tmp, int64(total-last), 10)
		g.tmp = append(g.tmp, " more lines in file. Use offset="...)
		g.tmp = strconv.AppendInt(g.tmp, int64(last+1), 10)
		g.tmp = append(g.tmp, " to continue]"...)
	}
	msgTS := g.beginResult(c)
	start := len(g.line)
	g.line = appendQuoted(g.line, g.tmp)
	g.line = append(g.line, "}]"...)
	if truncBy != "" {
		g.truncationDetails(text, truncBy, total, len(text)*total/max(shown, 1), shown, false, "")
	}
	g.endResult(false, msgTS, start)
}

func appendRange(b []byte, a, z int) []byte {
	b = strconv.AppendInt(b, int64(a), 10)
	b = append(b, '-')
	return strconv.AppendInt(b, int64(z), 10)
}

// truncationDetails writes pi's details.truncation, which repeats the shown
// text, and for bash the path of the full log.
func (g *gen) truncationDetails(text []byte, by string, totalLines, totalBytes, outLines int, limits bool, fullPath string) {
	g.line = append(appendKey(g.line, "details"), `{"truncation":{"content":`...)
	g.line = appendQuoted(g.line, text)
	g.line = appendBoolField(g.line, "truncated", true)
	g.line = appendStrField(g.line, "truncatedBy", by)
	g.line = appendIntField(g.line, "totalLines", int64(totalLines))
	g.line = appendIntField(g.line, "totalBytes", int64(totalBytes))
	g.line = appendIntField(g.line, "outputLines", int64(outLines))
	g.line = appendIntField(g.line, "outputBytes", int64(len(text)))
	g.line = appendBoolField(g.line, "lastLinePartial", false)
	g.line = appendBoolField(g.line, "firstLineExceedsLimit", false)
	if limits {
		g.line = appendIntField(g.line, "maxLines", piMaxLines)
		g.line = appendIntField(g.line, "maxBytes", piMaxBytes)
	}
	g.line = append(g.line, '}')
	if fullPath != "" {
		g.line = appendStrField(g.line, "fullOutputPath", fullPath)
	}
	g.line = append(g.line, '}')
}

func (g *gen) grepResult(c *call) {
	n := g.r.skewed(0, 120)
	limit := c.limit
	if limit == 0 {
		limit = 100
	}
	hitLimit := n >= limit
	n = min(n, limit, max(1, g.budget(n*70)/70))
	g.tmp = g.tmp[:0]
	for i := 0; i < n; i++ {
		f := g.proj.randFile(&g.r)
		g.tmp = append(g.tmp, f.path...)
		g.tmp = append(g.tmp, ':')
		g.tmp = strconv.AppendInt(g.tmp, int64(g.r.between(1, f.lines)), 10)
		g.tmp = append(g.tmp, ": "...)
		g.tmp = g.codeLine(g.tmp, f.lang)
		g.tmp = append(g.tmp, '\n')
	}
	if n == 0 {
		g.simpleResult(c, append(g.tmp, "No matches found"...), false)
		return
	}
	g.tmp = g.tmp[:len(g.tmp)-1]
	if !hitLimit {
		g.simpleResult(c, g.tmp, false)
		return
	}
	g.tmp = append(g.tmp, "\n\n["...)
	g.tmp = strconv.AppendInt(g.tmp, int64(limit), 10)
	g.tmp = append(g.tmp, " matches limit reached. Use limit="...)
	g.tmp = strconv.AppendInt(g.tmp, int64(2*limit), 10)
	g.tmp = append(g.tmp, " for more, or refine pattern]"...)
	msgTS := g.beginResult(c)
	start := len(g.line)
	g.line = appendQuoted(g.line, g.tmp)
	g.line = append(g.line, "}]"...)
	g.line = appendIntField(append(appendKey(g.line, "details"), '{'), "matchLimitReached", int64(limit))
	g.line = append(g.line, '}')
	g.endResult(false, msgTS, start)
}

// codeLine appends one line of code in l, without its newline.
func (g *gen) codeLine(b []byte, l *language) []byte {
	if l.body == nil {
		return g.phrase(b, g.r.between(2, 6))
	}
	b = append(b, l.indent...)
	return g.expand(b, l, &l.body[g.r.intn(len(l.body))])
}

// extensionResult writes results of the web_search and fetch_url tools that
// an extension registers; their details have their own shape.
func (g *gen) extensionResult(c *call) {
	g.tmp = g.tmp[:0]
	n := 0
	if c.tool == toolSearch {
		g.tmp = append(g.tmp, "**Search results** for \""...)
		g.tmp = append(g.tmp, c.pattern...)
		g.tmp = append(g.tmp, "\"\n\n"...)
		n = g.r.between(3, 10)
		n = min(n, max(1, g.budget(n*300)/300))
		for i := 1; i <= n; i++ {
			g.tmp = strconv.AppendInt(g.tmp, int64(i), 10)
			g.tmp = append(g.tmp, ". ["...)
			g.tmp = appendTitle(g.tmp, pick(&g.r, nouns))
			g.tmp = append(g.tmp, ' ')
			g.tmp = g.phrase(g.tmp, g.r.between(2, 6))
			g.tmp = append(g.tmp, "](https://"...)
			g.tmp = append(g.tmp, pick(&g.r, domains)...)
			g.tmp = append(g.tmp, ") — *"...)
			g.tmp = append(g.tmp, pick(&g.r, []string{"duckduckgo", "brave", "startpage", "google"})...)
			g.tmp = append(g.tmp, "*\n   "...)
			g.tmp = g.paragraph(g.tmp, g.r.between(1, 3), false)
			g.tmp = append(g.tmp, "\n\n"...)
		}
	} else {
		g.tmp = g.markdownDoc(g.tmp, g.budget(g.r.skewed(20, 600)*40)/40)
		g.tmp = cutBytes(g.tmp, g.budget(len(g.tmp)))
		n = len(g.tmp)
	}
	msgTS := g.beginResult(c)
	start := len(g.line)
	g.line = appendQuoted(g.line, bytes.TrimRight(g.tmp, "\n"))
	g.line = append(g.line, "}]"...)
	g.line = append(appendKey(g.line, "details"), '{')
	if c.tool == toolSearch {
		g.line = appendStrField(g.line, "query", c.pattern)
		g.line = appendIntField(g.line, "resultCount", int64(n))
	} else {
		g.line = appendStrField(g.line, "url", c.pattern)
		g.line = appendIntField(g.line, "status", 200)
		g.line = appendStrField(g.line, "contentType", "text/html")
		g.line = appendIntField(g.line, "bytes", int64(n))
	}
	g.line = append(g.line, '}')
	g.endResult(false, msgTS, start)
}
