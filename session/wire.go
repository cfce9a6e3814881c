package session

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

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

type wireMessage struct {
	Role      string          `json:"role"`
	Content   wireContent     `json:"content"`
	Timestamp json.RawMessage `json:"timestamp"`

	API          string     `json:"api"`
	Provider     string     `json:"provider"`
	Model        string     `json:"model"`
	Usage        *wireUsage `json:"usage"`
	StopReason   string     `json:"stopReason"`
	ErrorMessage string     `json:"errorMessage"`

	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	IsError    bool            `json:"isError"`
	Details    json.RawMessage `json:"details"`

	Command            string   `json:"command"`
	Code               string   `json:"code"` // omp jsExecution
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
		return err
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
		TokensBefore:    int64(w.TokensBefore),
		FromID:          w.FromID,

		ExcludeFromContext: w.ExcludeFromContext,
	}
	if m.Command == "" && w.Code != "" {
		m.Command = w.Code
	}
	if w.ExitCode != nil {
		code := int(*w.ExitCode)
		m.ExitCode = &code
	}
	if u := w.Usage; u != nil {
		m.Usage = Usage{Input: int64(u.Input), Output: int64(u.Output), CacheRead: int64(u.CacheRead), CacheWrite: int64(u.CacheWrite)}
		if u.Cost != nil {
			m.Usage.Cost = u.Cost.Total
		}
	}
	return m
}

// optString is a JSON string that may be absent, null, or (in odd files) a
// number; absent and null differ only in whether the pointer is set.
type optString struct {
	s string
}

func (o *optString) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0 || data[0] == 'n':
	case data[0] == '"':
		return unmarshal(data, &o.s)
	default:
		o.s = string(data)
	}
	return nil
}

func (o *optString) value() string {
	if o == nil {
		return ""
	}
	return o.s
}

// parseTime reads a timestamp written as an ISO 8601 string or as Unix
// milliseconds. It returns the zero time for anything else.
func parseTime(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return time.Time{}
	}
	if raw[0] == '"' {
		s, err := strconv.Unquote(string(raw))
		if err != nil {
			return time.Time{}
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t
			}
		}
		return time.Time{}
	}
	ms, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms)).UTC()
}
