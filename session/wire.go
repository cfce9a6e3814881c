package session

import (
	"bytes"
	"encoding/json"
	"fmt"

	gojson "github.com/goccy/go-json"
)

// unmarshal decodes one JSON value. Decoding is most of the cost of loading
// a session; goccy/go-json does it several times faster than encoding/json
// on session lines (see BenchmarkDecode) with the same semantics for the
// types used here.
var unmarshal = gojson.Unmarshal

// wireEntry holds the fields of every entry type as the file spells them.
// Fields this package does not show (thinking signatures, partialJson...)
// are left out so that they are skipped, not copied.
type wireEntry struct {
	Type      string          `json:"type"`
	ID        *optString      `json:"id"`
	ParentID  *optString      `json:"parentId"`
	Timestamp json.RawMessage `json:"timestamp"`

	// session header
	Version       *float64 `json:"version"`
	Cwd           string   `json:"cwd"`
	ParentSession string   `json:"parentSession"`
	BranchedFrom  string   `json:"branchedFrom"`

	Message *wireMessage `json:"message"`

	// model_change, thinking_level_change (and the v1 header)
	Provider      string `json:"provider"`
	ModelID       string `json:"modelId"`
	Model         string `json:"model"`
	Role          string `json:"role"`
	ThinkingLevel string `json:"thinkingLevel"`

	// compaction, branch_summary
	Summary          string          `json:"summary"`
	ShortSummary     string          `json:"shortSummary"`
	FirstKeptEntryID string          `json:"firstKeptEntryId"`
	FirstKeptIndex   *float64        `json:"firstKeptEntryIndex"`
	TokensBefore     float64         `json:"tokensBefore"`
	FromHook         json.RawMessage `json:"fromHook"`
	FromExtension    json.RawMessage `json:"fromExtension"`
	FromID           string          `json:"fromId"`
	Details          json.RawMessage `json:"details"`

	// custom, custom_message
	CustomType string      `json:"customType"`
	Content    wireContent `json:"content"`
	Display    bool        `json:"display"`

	// label, session_info
	TargetID string  `json:"targetId"`
	Label    *string `json:"label"`
	Name     *string `json:"name"`
}

// wireExtra holds the fields that pi 1.5 and omp 18 added to entries other
// than messages. The entries that carry them are few in a file, so they
// are decoded a second time, on their own (see extraTypes): an odd type in
// one of these fields cannot spoil the fields every entry has, and the
// common lines do not pay for them.
type wireExtra struct {
	// session header (omp); omp's title slot {"type":"title","v":1,...}
	Title                 string          `json:"title"`
	TitleSource           string          `json:"titleSource"`
	AdditionalDirectories []string        `json:"additionalDirectories"`
	SlotVersion           json.RawMessage `json:"v"`

	// compaction and branch_summary (pi 1.5); usage (pi 1.5) and
	// model_usage (omp)
	Usage         *wireUsage   `json:"usage"`
	SystemMessage *wireMessage `json:"systemMessage"`
	Kind          string       `json:"kind"`
	Purpose       string       `json:"purpose"`
	Note          string       `json:"note"`
	API           string       `json:"api"`
	StopReason    string       `json:"stopReason"`
	ErrorMessage  string       `json:"errorMessage"`

	// context_edit (pi 1.5): null omits the target
	Replacement json.RawMessage `json:"replacement"`

	// omp: compaction, thinking_level_change, service_tier_change,
	// mode_change, title_change, ttsr_injection, credential_pin (whose
	// hash is deliberately not read), session_init
	TokensAfter   float64         `json:"tokensAfter"`
	Method        string          `json:"method"`
	Warning       string          `json:"warning"`
	Configured    *string         `json:"configured"`
	ServiceTier   json.RawMessage `json:"serviceTier"`
	Mode          string          `json:"mode"`
	Data          json.RawMessage `json:"data"`
	PreviousTitle string          `json:"previousTitle"`
	Source        string          `json:"source"`
	Trigger       string          `json:"trigger"`
	InjectedRules []string        `json:"injectedRules"`
	SystemPrompt  string          `json:"systemPrompt"`
	Task          string          `json:"task"`
	Tools         []string        `json:"tools"`
	Agent         string          `json:"agent"`
	ModelRole     string          `json:"modelRole"`
	ResolvedModel string          `json:"resolvedModel"`
	ReadOnly      bool            `json:"readOnly"`
	Isolated      bool            `json:"isolated"`
	OutputSchema  json.RawMessage `json:"outputSchema"`

	// omp: model_change, mcp_tool_selection; pi: custom (its data is Data,
	// as mode_change's)
	ResolvedModelIsFallback bool     `json:"resolvedModelIsFallback"`
	SelectedToolNames       []string `json:"selectedToolNames"`
}

// extraTypes are the entry types whose wireExtra is decoded.
var extraTypes = map[string]bool{
	"session": true, "title": true, "compaction": true, "branch_summary": true,
	"thinking_level_change": true, "usage": true, "model_usage": true, "context_edit": true,
	"service_tier_change": true, "mode_change": true, "title_change": true,
	"ttsr_injection": true, "credential_pin": true, "session_init": true,
	"model_change": true, "mcp_tool_selection": true, "custom": true,
}

type wireMessage struct {
	Role      string          `json:"role"`
	Content   wireContent     `json:"content"`
	Timestamp json.RawMessage `json:"timestamp"`

	// pi 1.5's additions are read leniently (raw JSON decoded later, or a
	// looseString): a fork that writes one of these names with another
	// type must not turn a whole message into raw JSON.
	// system messages
	Sections     json.RawMessage `json:"sections"`
	ToolsAdded   json.RawMessage `json:"toolsAdded"`
	ToolsRemoved json.RawMessage `json:"toolsRemoved"`

	API           string          `json:"api"`
	Provider      string          `json:"provider"`
	Model         string          `json:"model"`
	Usage         *wireUsage      `json:"usage"`
	StopReason    string          `json:"stopReason"`
	ErrorMessage  string          `json:"errorMessage"`
	ResponseModel looseString     `json:"responseModel"`
	ThinkingLevel looseString     `json:"thinkingLevel"`
	Deferred      json.RawMessage `json:"deferred"`
	Diagnostics   json.RawMessage `json:"diagnostics"` // pi 1.6

	ToolCallID  string          `json:"toolCallId"`
	ToolName    string          `json:"toolName"`
	IsError     bool            `json:"isError"`
	Details     json.RawMessage `json:"details"`
	NestedCalls json.RawMessage `json:"nestedCalls"`

	Command            string   `json:"command"`
	Code               string   `json:"code"` // omp pythonExecution, jsExecution
	Output             string   `json:"output"`
	ExitCode           *float64 `json:"exitCode"`
	Cancelled          bool     `json:"cancelled"`
	Truncated          bool     `json:"truncated"`
	FullOutputPath     string   `json:"fullOutputPath"`
	ExcludeFromContext bool     `json:"excludeFromContext"`

	CustomType string `json:"customType"`
	Display    bool   `json:"display"`

	Summary      string  `json:"summary"`
	TokensBefore float64 `json:"tokensBefore"`
	FromID       string  `json:"fromId"`

	lean *leanText // what a lean load keeps of a result's output

	Files json.RawMessage `json:"files"` // omp fileMention
}

type wireUsage struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Cost       *struct {
		Total float64 `json:"total"`
	} `json:"cost"`
}

type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type wireDeferred struct {
	Provider  string          `json:"provider"`
	ModelID   string          `json:"modelId"`
	API       string          `json:"api"`
	ID        string          `json:"id"`
	ExpiresAt json.RawMessage `json:"expiresAt"`
}

type wireNestedCall struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Status     string          `json:"status"`
	DurationMs float64         `json:"durationMs"`
	Error      string          `json:"error"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Redacted  bool            `json:"redacted"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Data      string          `json:"data"`
	MimeType  string          `json:"mimeType"`
}

var knownBlocks = map[string]bool{"text": true, "thinking": true, "toolCall": true, "image": true}

// wireContent is message content: a string, or an array of blocks.
type wireContent struct {
	blocks        []Block
	isString      bool
	unknownBlocks bool // some block is of a type this package does not model
	// bad are the values of blocks set aside (see lenient), by their
	// path from the content: "content[2].text".
	bad []BadField
}

func (c *wireContent) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] == 'n' {
		return nil
	}
	if data[0] == '"' {
		var s string
		if err := unmarshal(data, &s); err != nil {
			return err
		}
		c.isString = true
		c.blocks = []Block{{Type: "text", Text: s}}
		return nil
	}
	var wire []wireBlock
	if err := unmarshal(data, &wire); err != nil {
		// One block of odd types must not cost the others their text:
		// each is read on its own, its bad values set aside.
		var raws []json.RawMessage
		if unmarshal(data, &raws) != nil {
			return err
		}
		wire = make([]wireBlock, len(raws))
		var l lenient
		for i, raw := range raws {
			if !l.decode(raw, &wire[i], fmt.Sprintf("content[%d]", i)) {
				return err
			}
		}
		c.bad = l.bad
	}
	c.blocks = make([]Block, len(wire))
	for i, w := range wire {
		b := Block{Type: w.Type, Text: w.Text, Redacted: w.Redacted, ToolCallID: w.ID, Name: w.Name,
			Arguments: w.Arguments, Data: w.Data, MimeType: w.MimeType}
		if w.Type == "thinking" {
			b.Text = w.Thinking
		}
		if !knownBlocks[w.Type] {
			c.unknownBlocks = true
		}
		c.blocks[i] = b
	}
	if c.unknownBlocks {
		// Rare: decode again to keep each unknown block whole.
		var raws []json.RawMessage
		if err := unmarshal(data, &raws); err == nil && len(raws) == len(c.blocks) {
			for i := range c.blocks {
				if !knownBlocks[c.blocks[i].Type] {
					c.blocks[i].Raw = bytes.Clone(raws[i])
				}
			}
		}
	}
	return nil
}

func (w *wireMessage) message() *Message {
	m := &Message{
		Role:            w.Role,
		Content:         w.Content.blocks,
		ContentIsString: w.Content.isString,
		Time:            parseTime(w.Timestamp),
		API:             w.API,
		Provider:        w.Provider,
		Model:           w.Model,
		StopReason:      w.StopReason,
		ErrorMessage:    w.ErrorMessage,
		ToolCallID:      w.ToolCallID,
		ToolName:        w.ToolName,
		IsError:         w.IsError,
		Details:         w.Details,
		Command:         w.Command,
		Output:          w.Output,
		Cancelled:       w.Cancelled,
		Truncated:       w.Truncated,
		FullOutputPath:  w.FullOutputPath,
		CustomType:      w.CustomType,
		Display:         w.Display,
		Summary:         w.Summary,
		TokensBefore:    toInt64(w.TokensBefore),
		FromID:          w.FromID,

		ExcludeFromContext: w.ExcludeFromContext,

		lean: w.lean,
	}
	if m.Command == "" && w.Code != "" {
		m.Command = w.Code
	}
	if w.ExitCode != nil {
		code := toInt(*w.ExitCode)
		m.ExitCode = &code
	}
	if w.Usage != nil {
		m.Usage = w.Usage.usage()
	}
	if w.Role == "system" {
		m.Sections = sections(w.Sections)
		var added, removed []wireTool
		_ = unmarshal(w.ToolsAdded, &added)
		_ = unmarshal(w.ToolsRemoved, &removed)
		for _, t := range added {
			m.ToolsAdded = append(m.ToolsAdded, ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		}
		for _, t := range removed {
			m.ToolsRemoved = append(m.ToolsRemoved, t.Name)
		}
	}
	m.ResponseModel, m.ThinkingLevel = string(w.ResponseModel), string(w.ThinkingLevel)
	var d *wireDeferred
	if len(w.Deferred) > 0 && unmarshal(w.Deferred, &d) == nil && d != nil {
		m.Deferred = &Deferred{Provider: d.Provider, ModelID: d.ModelID, API: d.API, ID: d.ID, ExpiresAt: parseTime(d.ExpiresAt)}
	}
	if len(w.Diagnostics) > 0 {
		m.Diagnostics = diagnostics(w.Diagnostics)
	}
	if w.Role == "fileMention" && len(w.Files) > 0 {
		m.Files = mentionedFiles(w.Files)
	}
	var n *struct {
		Calls    []wireNestedCall `json:"calls"`
		Complete bool             `json:"complete"`
	}
	if len(w.NestedCalls) > 0 && unmarshal(w.NestedCalls, &n) == nil && n != nil {
		m.NestedComplete = n.Complete
		for _, c := range n.Calls {
			m.NestedCalls = append(m.NestedCalls, NestedCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments,
				Status: c.Status, DurationMs: c.DurationMs, Error: c.Error})
		}
	}
	return m
}

func (u *wireUsage) usage() Usage {
	out := Usage{Input: toInt64(u.Input), Output: toInt64(u.Output), CacheRead: toInt64(u.CacheRead), CacheWrite: toInt64(u.CacheWrite)}
	if u.Cost != nil {
		out.Cost = u.Cost.Total
	}
	return out
}

// diagnostics reads an assistant message's diagnostics leniently: one
// that is not an object is left out, one of a type not modelled here
// keeps its JSON.
func diagnostics(raw json.RawMessage) []Diagnostic {
	var list []json.RawMessage
	if unmarshal(raw, &list) != nil {
		return nil
	}
	out := make([]Diagnostic, 0, len(list))
	for _, r := range list {
		var d struct {
			Type  looseString `json:"type"`
			Error struct {
				Message looseString `json:"message"`
			} `json:"error"`
			Details struct {
				Transformations []struct {
					Type   looseString `json:"type"`
					ID     looseString `json:"id"`
					Path   looseString `json:"path"`
					Action looseString `json:"action"`
					Reason looseString `json:"reason"`
				} `json:"transformations"`
			} `json:"details"`
		}
		if unmarshal(r, &d) != nil {
			// Fields of odd types: the type, if it can be read, and the JSON.
			var t struct {
				Type looseString `json:"type"`
			}
			_ = unmarshal(r, &t)
			out = append(out, Diagnostic{Type: string(t.Type), Raw: bytes.Clone(r)})
			continue
		}
		diag := Diagnostic{Type: string(d.Type), Error: string(d.Error.Message)}
		switch diag.Type {
		case "openai_input_transformations", "anthropic_input_transformations":
			for _, t := range d.Details.Transformations {
				diag.Transformations = append(diag.Transformations, Transformation{Type: string(t.Type), ID: string(t.ID),
					Path: string(t.Path), Action: string(t.Action), Reason: string(t.Reason)})
			}
		default:
			diag.Raw = bytes.Clone(r)
		}
		out = append(out, diag)
	}
	return out
}

// mentionedFiles reads the files of an omp fileMention message.
func mentionedFiles(raw json.RawMessage) []MentionedFile {
	var list []struct {
		Path          looseString `json:"path"`
		Content       looseString `json:"content"`
		LineCount     float64     `json:"lineCount"`
		ByteSize      float64     `json:"byteSize"`
		SkippedReason looseString `json:"skippedReason"`
		Image         *wireBlock  `json:"image"`
	}
	if unmarshal(raw, &list) != nil {
		return nil
	}
	out := make([]MentionedFile, len(list))
	for i, f := range list {
		out[i] = MentionedFile{Path: string(f.Path), Content: string(f.Content), LineCount: toInt(f.LineCount),
			ByteSize: toInt64(f.ByteSize), SkippedReason: string(f.SkippedReason)}
		if f.Image != nil {
			out[i].Image = &Block{Type: "image", Data: f.Image.Data, MimeType: f.Image.MimeType}
		}
	}
	return out
}
