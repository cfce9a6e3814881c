package sessiongen

import (
	"fmt"
	"strings"
)

// Profile is the shape of a generated session: how much of it is talk,
// code and tool output. A speed figure measured on one shape says little
// about another (highlighting costs per byte of code, a tree costs per
// entry), so benchmarks run each.
type Profile string

const (
	// ProfileMixed is the shape of the sessions the generator has always
	// written: tool output about 60% of the bytes, prose 20%, fenced code
	// 10%, reads of whole files up to pi's limits. The zero Profile is
	// this one, and its bytes are the same as before profiles existed.
	ProfileMixed Profile = "mixed"
	// ProfileChat is mostly conversation: few tool calls, longer questions,
	// long answers in Markdown with some code.
	ProfileChat Profile = "chat"
	// ProfileCode is dense in code: every assistant text carries fenced
	// blocks, spread over all eight languages; reads of 60 to 500 lines,
	// larger edits with their diffs, and long build and test output.
	ProfileCode Profile = "code"
	// ProfileTools is agent work with little talk: many tool calls per
	// turn, mostly shell, searches and listings, short texts between them.
	ProfileTools Profile = "tools"
	// ProfileLinear is the shape most real coding sessions have (see
	// shared/corpus): one long path, a branch only every few dozen turns
	// even with Options.Branches, and most of the bytes in code-heavy tool
	// output: reads of source files, edits with their diffs, build and
	// test output; short texts between the calls, with some code.
	ProfileLinear Profile = "linear"
)

// Profiles lists every profile, the default first.
var Profiles = []Profile{ProfileMixed, ProfileChat, ProfileCode, ProfileTools, ProfileLinear}

// ParseProfile returns the profile named s; "" is ProfileMixed.
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return ProfileMixed, nil
	}
	for _, p := range Profiles {
		if string(p) == s {
			return p, nil
		}
	}
	names := make([]string, len(Profiles))
	for i, p := range Profiles {
		names[i] = string(p)
	}
	return "", fmt.Errorf("unknown profile %q (want %s)", s, strings.Join(names, ", "))
}

// shape holds the numbers a profile sets. The mixed shape's numbers are
// the generator's historical constants, drawn in the same order, so that
// its output is unchanged.
type shape struct {
	steps       [2]int // tool steps per turn, skewed towards the first
	toolWeights []int  // by tool, as toolNames
	// stepText is the percentage of tool steps with text before their
	// calls; stepMarkdown the percentage of those in Markdown (with fenced
	// code) rather than one plain paragraph.
	stepText, stepMarkdown int
	stepSize               [2]int // bytes of a Markdown step text, skewed
	finalSize              [2]int // bytes of a closing answer, skewed
	// thinking is the percentage of assistant messages that think, when
	// the thinking level is not off.
	thinking int
	// codeEverywhere makes every Markdown text an alternation of prose and
	// fenced blocks (codeAnswer), whose languages cycle through all eight.
	codeEverywhere bool
	// readLines, when set, bounds the files of the project: every read
	// shows between these many lines.
	readLines [2]int
	// bashWeights weighs the kinds of shell command. shortOutput is the
	// percentage of outputs under 40 lines; longOutput that of outputs of
	// a kind that can run long that run to thousands of lines (the mixed
	// shape: 55 and 12); the rest are 40 to 400 lines.
	bashWeights             []int
	shortOutput, longOutput int
	// editLines bounds the lines an edit removes and adds.
	editRemoved, editAdded [2]int
	// userMore is the percentage of user messages that add a paragraph or
	// a pasted snippet to their ask.
	userMore int
	// firstBranch delays the first branch by this many turns, and
	// branchGap bounds the turns between branches.
	firstBranch int
	branchGap   [2]int
}

var shapes = map[Profile]*shape{
	ProfileMixed: {
		steps: [2]int{0, 8}, toolWeights: toolWeights,
		stepText: 60, stepMarkdown: 25, stepSize: [2]int{200, 4000}, finalSize: [2]int{800, 40000}, thinking: 55,
		bashWeights: bashWeights, shortOutput: 55, longOutput: 12,
		editRemoved: [2]int{1, 6}, editAdded: [2]int{1, 12}, userMore: 60,
		branchGap: [2]int{4, 10},
	},
	ProfileChat: {
		steps: [2]int{0, 2},
		// read, bash, edit, write, grep, find, ls, web_search, fetch_url
		toolWeights: []int{30, 15, 10, 5, 5, 2, 2, 20, 11},
		stepText:    80, stepMarkdown: 40, stepSize: [2]int{200, 4000}, finalSize: [2]int{300, 12000}, thinking: 70,
		bashWeights: bashWeights, shortOutput: 60, longOutput: 5,
		editRemoved: [2]int{1, 6}, editAdded: [2]int{1, 12}, userMore: 90,
		branchGap: [2]int{4, 10},
	},
	ProfileCode: {
		steps:       [2]int{2, 10},
		toolWeights: []int{24, 22, 36, 4, 8, 2, 2, 1, 1},
		stepText:    100, stepMarkdown: 100, stepSize: [2]int{200, 2500}, finalSize: [2]int{800, 6000}, thinking: 30,
		codeEverywhere: true,
		readLines:      [2]int{60, 500},
		// go test, build, git log, git diff, ls, cargo, pytest, logs, grep,
		// cat, tsc, misc
		bashWeights: []int{18, 12, 5, 8, 2, 10, 12, 8, 4, 12, 6, 3},
		shortOutput: 65, longOutput: 6,
		editRemoved: [2]int{2, 16}, editAdded: [2]int{2, 30}, userMore: 60,
		branchGap: [2]int{4, 10},
	},
	ProfileTools: {
		steps:       [2]int{3, 24},
		toolWeights: []int{18, 40, 8, 2, 14, 6, 6, 4, 2},
		stepText:    35, stepMarkdown: 5, stepSize: [2]int{200, 4000}, finalSize: [2]int{200, 3000}, thinking: 40,
		bashWeights: bashWeights, shortOutput: 55, longOutput: 8,
		editRemoved: [2]int{1, 6}, editAdded: [2]int{1, 12}, userMore: 40,
		branchGap: [2]int{4, 10},
	},
	// The corpus's coding sessions: about nine assistant messages per
	// ask; of the bytes, reads 40%, the calls' arguments (edits, writes)
	// a quarter, shell output and edit results a tenth each, thinking
	// and text a few percent.
	ProfileLinear: {
		steps: [2]int{3, 16},
		// read, bash, edit, write, grep, find, ls, web_search, fetch_url
		toolWeights: []int{28, 34, 26, 4, 4, 2, 2, 0, 0},
		stepText:    50, stepMarkdown: 15, stepSize: [2]int{200, 2000}, finalSize: [2]int{300, 4000}, thinking: 35,
		readLines: [2]int{15, 250},
		// go test, build, git log, git diff, ls, cargo, pytest, logs, grep,
		// cat, tsc, misc
		bashWeights: []int{18, 12, 5, 8, 2, 10, 12, 8, 4, 12, 6, 3},
		shortOutput: 92, longOutput: 2,
		editRemoved: [2]int{3, 30}, editAdded: [2]int{3, 50}, userMore: 30,
		firstBranch: 30, branchGap: [2]int{40, 80},
	},
}

// codeAnswer appends assistant text of about size bytes in which prose
// and fenced blocks alternate, at least one block, their languages taken
// in turn from all eight so that every lexer gets its share.
func (g *gen) codeAnswer(b []byte, size int) []byte {
	start := len(b)
	b = g.paragraph(b, g.r.between(1, 3), true)
	for first := true; first || len(b)-start < size; first = false {
		b = append(b, "\n\n"...)
		room := size - (len(b) - start)
		l := languages[g.fenceTurn%len(languages)]
		g.fenceTurn++
		b = g.fenceIn(b, l, min(g.r.skewed(3, 25), max(3, room/35)))
		if len(b)-start >= size {
			break
		}
		b = append(b, "\n\n"...)
		if g.r.pct(30) {
			b = append(b, "- "...)
			b = g.sentence(b, true)
			b = append(b, "\n- "...)
			b = g.sentence(b, true)
		} else {
			b = g.paragraph(b, g.r.between(1, 3), true)
		}
	}
	return b
}
