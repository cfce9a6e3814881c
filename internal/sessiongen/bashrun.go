package sessiongen

import "strconv"

// A shell command's result as pi writes it: log lines, the output cut to
// its tail, and the user's own ! commands (bashExecution).

// logLines appends service log lines, timestamped and levelled, stopping at
// lines lines or limit bytes.
func (g *gen) logLines(b []byte, lines int, ansi bool, limit int) []byte {
	start := len(b)
	ts := g.clock - int64(lines)*137
	for n := 0; n < lines && len(b)-start < limit; n++ {
		ts += int64(g.r.between(1, 300))
		b = appendISO(b, ts)
		lvl := g.r.weighted([]int{70, 12, 10, 8})
		if ansi {
			b = append(b, ' ')
			b = append(b, []string{green, cyan, yellow, red}[lvl]...)
		} else {
			b = append(b, ' ')
		}
		b = append(b, []string{"INFO ", "DEBUG", "WARN ", "ERROR"}[lvl]...)
		if ansi {
			b = append(b, reset...)
		}
		b = append(b, " ["...)
		b = append(b, pick(&g.r, langWords)...)
		b = append(b, "] "...)
		b = g.sentence(b, false)
		b = append(b, " request_id="...)
		b = g.appendRandom(b, hexDigits, 12)
		b = append(b, " duration_ms="...)
		b = strconv.AppendInt(b, int64(g.r.intn(2000)), 10)
		b = append(b, '\n')
	}
	return b
}

// outputLines picks how long a command's output is: mostly short, sometimes
// hundreds of lines and now and then thousands.
func (g *gen) outputLines(k int) int {
	switch c := g.r.intn(100); {
	case c < g.sh.shortOutput || k == bashMisc || k == bashLs:
		return g.r.between(1, 40)
	case c < 100-g.sh.longOutput || !longBash[k]:
		return g.r.between(40, 400)
	default:
		return g.r.between(1000, 5000)
	}
}

func (g *gen) bashResult(c *call) {
	lines := g.outputLines(c.kind)
	out, exit := g.bashOutput(g.tmp2[:0], c.kind, lines, g.budget(lines*90))
	g.tmp2 = out
	if room := g.budget(len(out)); room < len(out) {
		out = out[:len(cutBytes(out, room))+1]
	}
	total := bytesCount(out, '\n')
	text := out
	truncBy := ""
	// pi keeps the tail within 2000 lines and 50 KB. Some long outputs stay
	// whole, as older versions and extensions write them, so readers meet
	// both.
	// Truncation repeats the shown tail in details, so skip it when the
	// file is near its target.
	if (total > piMaxLines || len(out) > piMaxBytes) && g.r.pct(70) && g.budget(2*len(out)) == 2*len(out) {
		text = tail(out, piMaxLines, piMaxBytes)
		truncBy = "lines"
		if len(out) > piMaxBytes && bytesCount(text, '\n') < piMaxLines {
			truncBy = "bytes"
		}
	}
	g.tmp = append(g.tmp[:0], text...)
	if len(text) == 0 {
		g.tmp = append(g.tmp, "(no output)"...)
	}
	var logPath string
	if truncBy != "" {
		shown := bytesCount(text, '\n')
		logPath = "/tmp/pi-bash-" + string(g.appendRandom(nil, hexDigits, 16)) + ".log"
		g.tmp = append(g.tmp, "\n\n[Showing lines "...)
		g.tmp = appendRange(g.tmp, total-shown+1, total)
		g.tmp = append(g.tmp, " of "...)
		g.tmp = strconv.AppendInt(g.tmp, int64(total), 10)
		if truncBy == "bytes" {
			g.tmp = append(g.tmp, " (50.0KB limit)"...)
		}
		g.tmp = append(g.tmp, ". Full output: "...)
		g.tmp = append(g.tmp, logPath...)
		g.tmp = append(g.tmp, ']')
	}
	if exit != 0 {
		g.tmp = append(g.tmp, "\n\nCommand exited with code "...)
		g.tmp = strconv.AppendInt(g.tmp, int64(exit), 10)
	}
	msgTS := g.beginResult(c)
	start := len(g.line)
	g.line = appendQuoted(g.line, g.tmp)
	g.line = append(g.line, "}]"...)
	if truncBy != "" {
		g.truncationDetails(text, truncBy, total, len(out), bytesCount(text, '\n'), true, logPath)
	}
	g.endResult(exit != 0, msgTS, start)
}

// tail returns the last whole lines of b within maxLines and maxBytes.
func tail(b []byte, maxLines, maxBytes int) []byte {
	n := 0
	i := len(b) - 1 // b ends in '\n'
	for i > 0 {
		j := i - 1
		for j >= 0 && b[j] != '\n' {
			j--
		}
		if n+1 > maxLines || len(b)-(j+1) > maxBytes {
			break
		}
		n++
		i = j
	}
	return b[i+1:]
}

func bytesCount(b []byte, c byte) int {
	n := 0
	for _, x := range b {
		if x == c {
			n++
		}
	}
	return n
}

// bashExecution writes a command the user ran with ! (or !! to keep it out
// of the context).
func (g *gen) bashExecution() {
	g.tick(3000, 120000)
	msgTS := g.clock - int64(g.r.between(50, 3000))
	g.begin("message")
	g.line = append(g.line, `,"message":{"role":"bashExecution","command":`...)
	var k int
	g.tmp, k = g.bashCommand(g.tmp[:0])
	g.line = appendQuoted(g.line, g.tmp)
	cancelled := g.r.pct(20)
	truncated := false
	var exit int
	g.tmp2 = g.tmp2[:0]
	if !cancelled {
		lines := g.r.between(1, 60)
		if g.r.pct(10) {
			lines = g.r.between(200, 3000)
		}
		g.tmp2, exit = g.bashOutput(g.tmp2, k, lines, g.budget(lines*90))
		if room := g.budget(len(g.tmp2)); room < len(g.tmp2) {
			g.tmp2 = g.tmp2[:len(cutBytes(g.tmp2, room))+1]
		}
		if len(g.tmp2) > piMaxBytes {
			g.tmp2 = tail(g.tmp2, piMaxLines, piMaxBytes)
			truncated = true
		}
	}
	g.line = appendQuoted(appendKey(g.line, "output"), g.tmp2)
	if !cancelled {
		g.line = appendIntField(g.line, "exitCode", int64(exit))
	}
	g.line = appendBoolField(g.line, "cancelled", cancelled)
	g.line = appendBoolField(g.line, "truncated", truncated)
	if truncated {
		g.line = appendKey(g.line, "fullOutputPath")
		g.line = append(g.line, `"/tmp/pi-bash-`...)
		g.line = g.appendRandom(g.line, hexDigits, 16)
		g.line = append(g.line, `.log"`...)
	}
	g.line = appendIntField(g.line, "timestamp", msgTS)
	if g.r.pct(25) {
		g.line = appendBoolField(g.line, "excludeFromContext", true)
	}
	g.end(2)
	g.ctxTokens += len(g.tmp2) / 4
}
