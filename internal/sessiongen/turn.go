package sessiongen

import (
	"encoding/base64"
	"strconv"
)

// A turn is one user prompt and everything the agent does for it: zero or
// more assistant messages that call tools, each followed by the tool results,
// and a closing assistant answer. A few turns end in an error or an abort.

type model struct {
	api, provider, id string
	// prices in dollars per million tokens
	in, out, cacheRead, cacheWrite float64
	callStyle                      uint8 // how tool call ids look
	sig                            uint8 // how thinking signatures look
}

const (
	callAnthropic = iota
	callOpenAI
	callNumbered
)

const (
	sigBase64 = iota
	sigReasoningContent
	sigOpenAI
)

var models = []model{
	{"anthropic-messages", "anthropic", "claude-sonnet-4-5", 3, 15, 0.3, 3.75, callAnthropic, sigBase64},
	{"anthropic-messages", "anthropic", "claude-opus-4-5", 5, 25, 0.5, 6.25, callAnthropic, sigBase64},
	{"openai-responses", "openai", "gpt-5", 1.25, 10, 0.125, 0, callOpenAI, sigOpenAI},
	{"openai-codex-responses", "openai-codex", "gpt-5.3-codex", 1.75, 14, 0.175, 0, callOpenAI, sigOpenAI},
	{"openai-completions", "deepseek", "deepseek-v4-pro", 0.435, 0.87, 0.036, 0, callNumbered, sigReasoningContent},
	{"google-generative-ai", "google", "gemini-2.5-pro", 1.25, 10, 0.31, 0, callOpenAI, sigBase64},
}

func pickModel(r *rng) *model {
	return &models[r.weighted([]int{55, 12, 12, 6, 10, 5})]
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func (g *gen) appendRandom(b []byte, alphabet string, n int) []byte {
	for i := 0; i < n; i++ {
		b = append(b, alphabet[g.r.intn(len(alphabet))])
	}
	return b
}

// callID returns a tool call id in the style of the current provider.
func (g *gen) callID(b []byte, index int) []byte {
	g.callSeq++
	switch g.model.callStyle {
	case callAnthropic:
		b = append(b, "toolu_01"...)
		return g.appendRandom(b, base62, 22)
	case callNumbered:
		b = append(b, "call_0"...)
		b = strconv.AppendInt(b, int64(index), 10)
		b = append(b, '_')
		return g.appendRandom(b, base62, 24)
	default:
		b = append(b, "call_"...)
		return g.appendRandom(b, base62, 24)
	}
}

func (g *gen) turn() {
	// Near the target a turn is a short question and a short answer, so the
	// file ends close to the target.
	last := g.remaining() < 6000
	g.userMessage(last)
	steps := g.r.skewed(g.sh.steps[0], g.sh.steps[1])
	if last {
		steps = 0
	} else if g.turns == 0 {
		steps = max(steps, 2)
	}
	for s := 0; s < steps; s++ {
		if g.remaining() < 6000 && s > 0 {
			break
		}
		switch k := g.r.intn(100); {
		case k < 2 && g.turns > 0:
			g.failedAssistant("error")
			return
		case k < 4 && g.turns > 0:
			g.failedAssistant("aborted")
			return
		}
		g.toolStep()
	}
	g.finalAssistant()
}

func (g *gen) userMessage(short bool) {
	g.tick(5000, 240000)
	parent := g.leaf
	id := g.begin("message")
	g.users = append(g.users, userRec{id: id, parent: parent, ctxTokens: g.ctxTokens})
	g.line = append(g.line, `,"message":{"role":"user","content":[{"type":"text","text":`...)
	t := g.request(g.tmp[:0], short)
	g.tmp = t
	g.line = appendQuoted(g.line, t)
	g.line = append(g.line, '}')
	if g.opt.Images && !short && (g.turns == 1 || g.r.pct(3)) && g.budget(110<<10) > 10<<10 {
		g.line = append(g.line, `,{"type":"image","mimeType":"image/png","data":"`...)
		// base64 makes the image a third bigger than the PNG.
		g.line = g.appendPNG(g.line, min(g.r.between(5<<10, 80<<10), g.budget(110<<10)*3/4))
		g.line = append(g.line, `"}`...)
	}
	g.line = append(g.line, ']')
	g.line = appendIntField(g.line, "timestamp", g.clock-int64(g.r.between(1, 40)))
	g.end(2)
	g.ctxTokens += len(t)/4 + 8
}

// request appends what a user types: an ask, some context and sometimes a
// pasted log or snippet.
func (g *gen) request(b []byte, short bool) []byte {
	t := &userAskTmpls[g.r.intn(len(userAskTmpls))]
	b = g.expand(b, g.proj.lang, t)
	if short {
		return b
	}
	if g.r.pct(g.sh.userMore) {
		b = append(b, ' ')
		b = g.paragraph(b, g.r.between(1, 4), true)
	}
	switch k := g.r.intn(100); {
	case k < 10:
		b = append(b, "\n\n```\n"...)
		b = g.logLines(b, g.r.between(3, 30), false, 1<<20)
		b = append(b, "```"...)
	case k < 18:
		b = append(b, "\n\n"...)
		b = g.fence(b, g.r.between(3, 25))
	case k < 22:
		b = append(b, "\n\n"...)
		for i := g.r.between(2, 5); i > 0; i-- {
			b = append(b, "- "...)
			b = g.sentence(b, true)
			b = append(b, '\n')
		}
	}
	return b
}

var userAskTmpls = compile([]string{
	"Can you {v} the {w} in `{p}`?",
	"Please {v} the {w} so it works with the {a} {w}.",
	"The {w} is {a} again. Can you look at `{p}`?",
	"Why does the {w} fail when the {w} is {a}?",
	"Let's {v} the {w} handling in `{p}` and add a test.",
	"I want to {v} the {w}. Start with `{p}`.",
	"Could you {v} every {w} that still uses the {a} {w}?",
	"{v} the {w} first, then we can {v} the {w}.",
	"Tests in `{p}` are failing since the {w} change, fix them.",
	"Review `{p}` and tell me what you would {v}.",
	"Add a `{i}` option to the {w} and document it.",
	"continue",
	"ok, go ahead",
	"That looks wrong: the {w} should never be {a}.",
}, "")

// thinkingBlock appends a thinking content block.
func (g *gen) thinkingBlock(size int) {
	g.line = append(g.line, `{"type":"thinking","thinking":`...)
	g.tmp = g.thinking(g.tmp[:0], size)
	g.line = appendQuoted(g.line, g.tmp)
	g.line = append(g.line, `,"thinkingSignature":"`...)
	switch g.model.sig {
	case sigBase64:
		n := g.r.between(150, 1100)
		g.tmp2 = g.tmp2[:0]
		for i := 0; i < n; i += 8 {
			v := g.r.u64()
			g.tmp2 = append(g.tmp2, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
		}
		g.line = base64.StdEncoding.AppendEncode(g.line, g.tmp2[:n])
	case sigReasoningContent:
		g.line = append(g.line, "reasoning_content"...)
	default:
		// pi stores the OpenAI reasoning item as JSON inside the string.
		g.line = append(g.line, `{\"type\":\"reasoning\",\"id\":\"rs_`...)
		g.line = g.appendRandom(g.line, hexDigits, 48)
		g.line = append(g.line, `\",\"encrypted_content\":\"gAAAAA`...)
		g.line = g.appendRandom(g.line, base62, g.r.between(200, 900))
		g.line = append(g.line, `\",\"summary\":[]}`...)
	}
	g.line = append(g.line, `"}`...)
}

func (g *gen) textBlock(b []byte) {
	g.line = append(g.line, `{"type":"text","text":`...)
	g.line = appendQuoted(g.line, b)
	g.line = append(g.line, '}')
}

// assistantTail closes the content array's message with model, usage, stop
// reason and timestamp. out is the size of the generated content in bytes.
func (g *gen) assistantTail(out int, stop string, msgTS int64) {
	m := g.model
	g.line = appendStrField(g.line, "api", m.api)
	g.line = appendStrField(g.line, "provider", m.provider)
	g.line = appendStrField(g.line, "model", m.id)
	outTok := out/4 + g.r.between(5, 40)
	var in, cr, cw int
	if stop == "error" {
		outTok = 0
	} else {
		total := g.ctxTokens + 3000 // system prompt and tool definitions
		switch m.api {
		case "anthropic-messages":
			in = g.r.between(1, 12)
			cr = min(g.cached, total-in)
			cw = max(0, total-in-cr)
		default:
			cr = g.cached / 128 * 128
			in = max(1, total-cr)
		}
		g.cached = total
	}
	g.line = append(appendKey(g.line, "usage"), `{"input":`...)
	g.line = strconv.AppendInt(g.line, int64(in), 10)
	g.line = appendIntField(g.line, "output", int64(outTok))
	g.line = appendIntField(g.line, "cacheRead", int64(cr))
	g.line = appendIntField(g.line, "cacheWrite", int64(cw))
	g.line = appendIntField(g.line, "totalTokens", int64(in+outTok+cr+cw))
	ci := float64(in) * m.in / 1e6
	co := float64(outTok) * m.out / 1e6
	ccr := float64(cr) * m.cacheRead / 1e6
	ccw := float64(cw) * m.cacheWrite / 1e6
	g.line = append(appendKey(g.line, "cost"), `{"input":`...)
	g.line = appendFloat(g.line, ci)
	g.line = appendFloatField(g.line, "output", co)
	g.line = appendFloatField(g.line, "cacheRead", ccr)
	g.line = appendFloatField(g.line, "cacheWrite", ccw)
	g.line = appendFloatField(g.line, "total", ci+co+ccr+ccw)
	g.line = append(g.line, "}}"...)
	g.line = appendStrField(g.line, "stopReason", stop)
	g.line = appendIntField(g.line, "timestamp", msgTS)
	if stop != "error" && g.r.pct(85) {
		g.line = appendKey(g.line, "responseId")
		if m.provider == "anthropic" {
			g.line = append(g.line, `"msg_01`...)
			g.line = g.appendRandom(g.line, base62, 22)
		} else {
			g.line = append(g.line, `"resp_`...)
			g.line = g.appendRandom(g.line, hexDigits, 40)
		}
		g.line = append(g.line, '"')
	}
	g.ctxTokens += outTok
}

// beginAssistant starts an assistant message entry and returns the time the
// message was created (before it finished streaming).
func (g *gen) beginAssistant() int64 {
	msgTS := g.tick(300, 4000)
	g.tick(800, 45000)
	g.begin("message")
	g.line = append(g.line, `,"message":{"role":"assistant","content":[`...)
	return msgTS
}

func (g *gen) thinks() bool { return g.thinkingLevel != "off" && g.r.pct(g.sh.thinking) }

// toolStep writes an assistant message that calls one to three tools, then
// their results.
func (g *gen) toolStep() {
	msgTS := g.beginAssistant()
	start := len(g.line)
	closing := g.remaining() < 6000
	if !closing && g.thinks() {
		g.thinkingBlock(g.budget(g.r.skewed(150, 5000)))
		g.line = append(g.line, ',')
	}
	if !closing && g.r.pct(g.sh.stepText) {
		if g.r.pct(g.sh.stepMarkdown) {
			size := g.budget(g.r.skewed(g.sh.stepSize[0], g.sh.stepSize[1]))
			if g.sh.codeEverywhere {
				g.tmp = g.codeAnswer(g.tmp[:0], size)
			} else {
				g.tmp = g.markdown(g.tmp[:0], size, 35)
			}
		} else {
			g.tmp = g.paragraph(g.tmp[:0], g.r.between(1, 4), true)
		}
		g.textBlock(g.tmp)
		g.line = append(g.line, ',')
	}
	ncalls := 1 + g.r.weighted([]int{60, 28, 12})
	if closing {
		ncalls = 1
	}
	calls := make([]call, ncalls)
	for i := range calls {
		if i > 0 {
			g.line = append(g.line, ',')
		}
		g.toolCall(&calls[i], i)
	}
	g.line = append(g.line, ']')
	g.assistantTail(len(g.line)-start, "toolUse", msgTS)
	g.end(2)
	for i := range calls {
		g.toolResult(&calls[i])
	}
}

// failedAssistant writes an assistant message that ended in an error (empty
// content, errorMessage) or was aborted by the user, possibly mid tool call,
// which then never gets a result.
func (g *gen) failedAssistant(stop string) {
	msgTS := g.beginAssistant()
	start := len(g.line)
	msg := pick(&g.r, errorMessages)
	if stop == "aborted" {
		msg = pick(&g.r, []string{"Request was aborted.", "Request was aborted."})
		switch g.r.intn(3) {
		case 0:
			g.tmp = g.paragraph(g.tmp[:0], g.r.between(1, 2), true)
			g.textBlock(g.tmp)
		case 1:
			var c call
			g.toolCall(&c, 0)
		}
	}
	g.line = append(g.line, ']')
	g.assistantTail(len(g.line)-start, stop, msgTS)
	g.line = appendStrField(g.line, "errorMessage", msg)
	g.end(2)
}

// finalAssistant writes the answer that ends a turn: markdown prose with
// headings, lists, tables, links and fenced code.
func (g *gen) finalAssistant() {
	msgTS := g.beginAssistant()
	start := len(g.line)
	closing := g.remaining() < 4000
	if !closing && g.thinks() {
		g.thinkingBlock(g.budget(g.r.skewed(150, 5000)))
		g.line = append(g.line, ',')
	}
	size := g.r.skewed(g.sh.finalSize[0], g.sh.finalSize[1])
	if closing {
		size = g.r.between(100, 400)
	}
	if g.sh.codeEverywhere && !closing {
		g.tmp = g.codeAnswer(g.tmp[:0], g.budget(size))
	} else {
		g.tmp = g.markdown(g.tmp[:0], g.budget(size), 33)
	}
	g.textBlock(g.tmp)
	g.line = append(g.line, ']')
	g.assistantTail(len(g.line)-start, "stop", msgTS)
	g.end(2)
}
