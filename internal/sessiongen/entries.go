package sessiongen

import "strconv"

// The entries between turns: model and thinking changes, session info,
// labels, compactions, branches, custom entries.

func (g *gen) modelChange() {
	g.tick(5, 2000)
	g.begin("model_change")
	g.line = appendStrField(g.line, "provider", g.model.provider)
	g.line = appendStrField(g.line, "modelId", g.model.id)
	g.end(1)
}

func (g *gen) thinkingChange() {
	g.tick(0, 3000)
	g.begin("thinking_level_change")
	g.line = appendStrField(g.line, "thinkingLevel", g.thinkingLevel)
	g.end(1)
}

// betweenTurns writes the entries that pi appends outside a prompt: names,
// labels, compactions, tree navigation, model switches, user bash commands
// and extension messages.
func (g *gen) betweenTurns() {
	if g.opt.Labels {
		if !g.named || g.r.pct(1) {
			g.sessionInfo()
		}
		if g.turns >= g.nextLabel {
			g.label()
			g.nextLabel = g.turns + g.r.between(3, 12)
		}
	}
	if g.remaining() < 8000 {
		return // room for one short turn only
	}
	if g.opt.Compactions && g.turns >= g.nextCompact && len(g.users)-g.keepFrom >= 2 {
		g.compaction()
		g.nextCompact = g.turns + g.r.between(6, 14)
	}
	if g.opt.Branches && g.turns >= g.nextBranch && len(g.users)-g.keepFrom >= 2 {
		g.branch()
		g.nextBranch = g.turns + g.r.between(g.sh.branchGap[0], g.sh.branchGap[1])
	}
	if g.r.pct(3) {
		g.model = pickModel(&g.r)
		g.modelChange()
		if g.r.pct(40) {
			g.thinkingLevel = pick(&g.r, []string{"medium", "high", "low", "off"})
			g.thinkingChange()
		}
	}
	if g.r.pct(8) {
		for k := g.r.between(1, 2); k > 0; k-- {
			g.bashExecution()
		}
	}
	if g.r.pct(4) {
		g.customMessage()
	}
	if g.r.pct(2) {
		g.custom()
	}
}

func (g *gen) sessionInfo() {
	g.tick(500, 20000)
	g.begin("session_info")
	g.tmp = appendTitle(g.tmp[:0], pick(&g.r, verbs))
	g.tmp = append(g.tmp, ' ')
	g.tmp = g.phrase(g.tmp, g.r.between(1, 4))
	if g.r.pct(20) {
		g.tmp = append(g.tmp, " in "...)
		g.tmp = append(g.tmp, g.proj.randFile(&g.r).path...)
	}
	g.line = appendQuoted(appendKey(g.line, "name"), g.tmp)
	g.end(1)
	g.named = true
}

func (g *gen) label() {
	g.tick(500, 30000)
	// Labels point back at recent entries, which is what a person marks.
	lo := max(0, len(g.ids)-60)
	target := g.ids[lo+g.r.intn(len(g.ids)-lo)]
	g.begin("label")
	g.line = appendStrField(g.line, "targetId", target)
	if !g.r.pct(12) { // no label field clears the label
		g.line = appendStrField(g.line, "label", pick(&g.r, labelNames))
	}
	g.end(1)
}

func (g *gen) trackFile(p string, modified bool) {
	st := g.fileSeen[p]
	switch {
	case modified && st != 2:
		g.fileSeen[p] = 2
		g.modFiles = append(g.modFiles, p)
		if st == 1 {
			for i, f := range g.readFiles {
				if f == p {
					g.readFiles = append(g.readFiles[:i], g.readFiles[i+1:]...)
					break
				}
			}
		}
	case !modified && st == 0:
		g.fileSeen[p] = 1
		g.readFiles = append(g.readFiles, p)
	}
}

// summary appends a summary in pi's compaction and branch-summary format.
func (g *gen) summary(b []byte) []byte {
	b = append(b, "## Goal\n"...)
	b = g.sentence(b, true)
	b = append(b, "\n\n## Constraints & Preferences\n"...)
	for k := g.r.between(1, 3); k > 0; k-- {
		b = append(b, "- "...)
		b = g.sentence(b, true)
		b = append(b, '\n')
	}
	b = append(b, "\n## Progress\n### Done\n"...)
	for k := g.r.between(1, 5); k > 0; k-- {
		b = append(b, "- [x] "...)
		b = g.sentence(b, true)
		b = append(b, '\n')
	}
	b = append(b, "\n### In Progress\n- [ ] "...)
	b = g.sentence(b, true)
	b = append(b, "\n\n### Blocked\n- "...)
	if g.r.pct(70) {
		b = append(b, "(none)"...)
	} else {
		b = g.sentence(b, true)
	}
	b = append(b, "\n\n## Key Decisions\n"...)
	for k := g.r.between(1, 3); k > 0; k-- {
		b = append(b, "- **"...)
		b = appendTitle(b, pick(&g.r, verbs))
		b = append(b, ' ')
		b = g.phrase(b, 2)
		b = append(b, "**: "...)
		b = g.sentence(b, true)
		b = append(b, '\n')
	}
	b = append(b, "\n## Next Steps\n"...)
	for i := 1; i <= g.r.between(1, 4); i++ {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ". "...)
		b = g.sentence(b, true)
		b = append(b, '\n')
	}
	b = append(b, "\n## Critical Context\n- "...)
	b = g.sentence(b, true)
	if len(g.readFiles) > 0 {
		b = append(b, "\n\n<read-files>\n"...)
		for _, f := range g.readFiles {
			b = append(append(b, f...), '\n')
		}
		b = append(b, "</read-files>"...)
	}
	if len(g.modFiles) > 0 {
		b = append(b, "\n\n<modified-files>\n"...)
		for _, f := range g.modFiles {
			b = append(append(b, f...), '\n')
		}
		b = append(b, "</modified-files>"...)
	}
	return b
}

func (g *gen) fileDetails() {
	g.line = append(appendKey(g.line, "details"), `{"readFiles":`...)
	g.line = appendStrArray(g.line, g.readFiles)
	g.line = append(g.line, `,"modifiedFiles":`...)
	g.line = appendStrArray(g.line, g.modFiles)
	g.line = append(g.line, '}')
}

func (g *gen) compaction() {
	// Keep the last one or two turns, never reaching behind the previous
	// compaction's first kept entry.
	i := max(g.kept, len(g.users)-g.r.between(1, 2))
	g.tick(20000, 90000)
	g.begin("compaction")
	g.tmp = g.summary(g.tmp[:0])
	g.line = appendQuoted(appendKey(g.line, "summary"), g.tmp)
	g.line = appendStrField(g.line, "firstKeptEntryId", g.users[i].id)
	g.line = appendIntField(g.line, "tokensBefore", int64(g.ctxTokens))
	g.fileDetails()
	g.end(1)
	g.kept = i
	// A branch back past this point would leave the compaction off the path.
	g.keepFrom = len(g.users)
	g.ctxTokens = g.ctxTokens/5 + len(g.tmp)/4
	g.cached = 0
}

func (g *gen) branch() {
	i := g.keepFrom + g.r.intn(len(g.users)-g.keepFrom)
	u := g.users[i]
	g.users = g.users[:i]
	g.leaf = u.parent
	g.ctxTokens, g.cached = u.ctxTokens, 0
	if g.r.pct(20) {
		return // navigated without a summary: the next user message is the sibling
	}
	g.tick(5000, 60000)
	from := g.leaf
	g.begin("branch_summary")
	if from == "" {
		from = "root"
	}
	g.line = appendStrField(g.line, "fromId", from)
	g.tmp = g.summary(g.tmp[:0])
	g.line = appendQuoted(appendKey(g.line, "summary"), g.tmp)
	if g.r.pct(60) {
		g.fileDetails()
	}
	g.end(1)
	g.ctxTokens += len(g.tmp) / 4
}

func (g *gen) customMessage() {
	g.tick(10, 2000)
	g.beginTail("custom_message")
	g.line = appendStrField(g.line, "customType", pick(&g.r, customMessageTypes))
	g.tmp = g.paragraph(g.tmp[:0], g.r.between(1, 5), true)
	if g.r.pct(50) {
		g.line = appendQuoted(appendKey(g.line, "content"), g.tmp)
		g.line = appendBoolField(g.line, "display", false)
	} else {
		g.line = append(appendKey(g.line, "content"), `[{"type":"text","text":`...)
		g.line = appendQuoted(g.line, g.tmp)
		g.line = append(g.line, "}]"...)
		g.line = appendBoolField(g.line, "display", true)
		g.line = append(appendKey(g.line, "details"), `{"source":`...)
		g.line = appendQuoted(g.line, pick(&g.r, []string{"hook", "extension", "skill"}))
		g.line = append(g.line, '}')
	}
	g.treeFields()
	g.end(1)
	g.ctxTokens += len(g.tmp) / 4
}

func (g *gen) custom() {
	g.tick(10, 2000)
	g.beginTail("custom")
	g.line = appendStrField(g.line, "customType", "git-checkpoint")
	g.line = append(appendKey(g.line, "data"), `{"commitHash":"`...)
	g.line = strconv.AppendUint(g.line, g.r.u64()&0xffffffffff, 16)
	g.line = append(g.line, `","branch":`...)
	g.line = appendQuoted(g.line, pick(&g.r, branches))
	g.line = append(g.line, '}')
	g.treeFields()
	g.end(1)
}

// chain writes Options.Chain short messages in one line of descent.
func (g *gen) chain() {
	g.model = &models[0]
	for i := 0; i < g.opt.Chain && g.err == nil; i++ {
		g.tick(200, 5000)
		if i%2 == 0 {
			g.begin("message")
			g.line = append(g.line, `,"message":{"role":"user","content":[{"type":"text","text":`...)
			g.tmp = g.sentence(g.tmp[:0], false)
			g.line = appendQuoted(g.line, g.tmp)
			g.line = append(g.line, "}]"...)
			g.line = appendIntField(g.line, "timestamp", g.clock-int64(g.r.between(1, 50)))
			g.end(2)
			continue
		}
		msgTS := g.clock - int64(g.r.between(100, 1500))
		g.begin("message")
		g.line = append(g.line, `,"message":{"role":"assistant","content":[{"type":"text","text":`...)
		g.tmp = g.sentence(g.tmp[:0], true)
		g.line = appendQuoted(g.line, g.tmp)
		g.line = append(g.line, "}]"...)
		g.assistantTail(len(g.tmp), "stop", msgTS)
		g.end(2)
	}
}
