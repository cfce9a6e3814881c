// Package session reads the session files of the pi coding agent and its
// forks (oh-my-pi, jensen-code, GJC): JSONL files of format versions 1, 2 and
// 3. It migrates them in memory, never writing the input, and builds the whole
// entry tree: every branch, label, name and orphan.
//
// The package knows nothing of HTML; it hands the export package a Session
// and the warnings met while reading it.
package session

import (
	"encoding/json"
	"fmt"
	"time"
)

// CurrentVersion is the newest session format this package understands.
// Files are migrated to it in memory.
const CurrentVersion = 3

// Session is one loaded session file: its header, every entry in file
// order, and the tree those entries form.
type Session struct {
	// File is the name the session was loaded from, used in warnings.
	File string
	// Header is the file's session header, or nil when it has none.
	Header *Header
	// Entries holds every entry but the header, in file order.
	Entries []*Entry
	// Roots are the entries without a parent in the file: a null parent, a
	// parent of itself, a parent that is missing, or a broken cycle.
	Roots []*Entry
	// Leaf is the entry the session was at when the file was last written:
	// the file's last entry, as pi has it.
	Leaf *Entry
	// Name is the session's name from its latest session_info entry.
	Name string
	// Warnings lists what was wrong with the file and what was done about it.
	Warnings []Warning

	byID        map[string]*Entry
	toolResults map[string][]*Entry
	calls       map[string]*Block // tool call id → the call
}

// Header is a session file's first line: {"type":"session", ...}.
type Header struct {
	Line int
	ID   string
	// Version is the format version after migration.
	Version int
	// FileVersion is the version the file declares, 0 when it declares none.
	FileVersion   int
	Time          time.Time
	Cwd           string
	ParentSession string
	// BranchedFrom is the path of the session a v1 file was forked from.
	BranchedFrom string
	// Provider, ModelID and ThinkingLevel are the v1 header's model settings.
	Provider      string
	ModelID       string
	ThinkingLevel string
}

// Entry is one line (or, where a line holds several JSON objects, one object)
// of the session file.
type Entry struct {
	// Line is the 1-based line of the file the entry was read from.
	Line int
	// Part counts the JSON objects of a line that holds several: 1 for the
	// first (and usual) one, 2 for the next, and so on.
	Part int
	// Type is the entry's "type": message, compaction, label, ...
	Type string
	// ID is unique within the session and safe to address: the file's own id,
	// a derived one for v1 files ("L12"), or for a repeated id the file's id
	// with the line appended ("abc~L40").
	ID string
	// FileID is the id as the file has it ("" in v1 files).
	FileID string
	// ParentID is the parent's id as the file (or the v1 migration) has it.
	ParentID string
	// Parent is nil for roots.
	Parent *Entry
	// Children are ordered by timestamp, oldest first, ties in file order.
	Children []*Entry
	// Time is the entry's timestamp; zero when it has none.
	Time time.Time
	// Label is the entry's resolved label: the latest label entry aimed at it.
	Label string

	// Message is set for type "message".
	Message *Message

	// Fields of the other entry types, set by type.
	Provider         string          // model_change
	ModelID          string          // model_change
	ModelRole        string          // model_change (omp: "default", ...)
	ThinkingLevel    string          // thinking_level_change
	Summary          string          // compaction, branch_summary
	ShortSummary     string          // compaction (omp)
	FirstKeptEntryID string          // compaction
	TokensBefore     int64           // compaction
	FromHook         bool            // compaction: written by a hook or extension
	FromID           string          // branch_summary: where the summarised branch left off
	Details          json.RawMessage // compaction, branch_summary, custom_message
	CustomType       string          // custom, custom_message
	Content          []Block         // custom_message
	ContentIsString  bool            // custom_message
	Display          bool            // custom_message
	TargetID         string          // label
	LabelText        string          // label
	SessionName      string          // session_info

	// Raw is the entry's JSON as the file has it, kept for the entry types
	// and message roles this package does not model, and for small
	// bookkeeping entries a reader may want to see whole. Nil otherwise, so
	// that large messages are not held twice.
	Raw json.RawMessage

	// linkedParent is the entry the file names as parent, before cycles
	// are broken; the entry itself when it names itself.
	linkedParent *Entry
	// v1FirstKept is a v1 compaction's firstKeptEntryIndex, -1 if none.
	v1FirstKept int
}

func (e *Entry) firstKeptIndex() (int, bool) { return e.v1FirstKept, e.v1FirstKept >= 0 }

// Message is the payload of a "message" entry.
type Message struct {
	// Role is user, assistant, toolResult, bashExecution, custom,
	// branchSummary, compactionSummary, omp's developer and jsExecution, or
	// anything else (then the entry keeps its Raw JSON).
	Role string
	// Content is the message's blocks; a string content becomes one text block.
	Content         []Block
	ContentIsString bool
	Time            time.Time

	// Assistant messages.
	API          string
	Provider     string
	Model        string
	Usage        Usage
	StopReason   string
	ErrorMessage string

	// Tool results.
	ToolCallID string
	ToolName   string
	IsError    bool
	Details    json.RawMessage

	// bashExecution (and omp's jsExecution) messages.
	Command            string
	Output             string
	ExitCode           *int
	Cancelled          bool
	Truncated          bool
	FullOutputPath     string
	ExcludeFromContext bool

	// custom messages.
	CustomType string
	Display    bool

	// branchSummary and compactionSummary messages.
	Summary      string
	TokensBefore int64
	FromID       string
}

// Block is one block of a message's content.
type Block struct {
	// Type is text, thinking, toolCall, image, or anything else (then Raw
	// holds the block).
	Type string
	// Text is a text block's text or a thinking block's thinking.
	Text     string
	Redacted bool
	// ToolCallID, Name and Arguments describe a toolCall block.
	ToolCallID string
	Name       string
	Arguments  json.RawMessage
	// Data is an image's base64 data, or a reference such as
	// "blob:sha256:…" to data that is not in the file.
	Data     string
	MimeType string
	Raw      json.RawMessage
}

// Usage counts an assistant message's tokens and their cost in dollars.
type Usage struct {
	Input      int64
	Output     int64
	CacheRead  int64
	CacheWrite int64
	Cost       float64
}

// Add adds u's counts to t.
func (t *Usage) Add(u Usage) {
	t.Input += u.Input
	t.Output += u.Output
	t.CacheRead += u.CacheRead
	t.CacheWrite += u.CacheWrite
	t.Cost += u.Cost
}

// Warning is something wrong with a session file that did not stop it from
// loading, with what was done about it.
type Warning struct {
	File string
	Line int // 0 when the warning is about the file as a whole
	Text string
}

func (w Warning) String() string {
	if w.Line == 0 {
		return fmt.Sprintf("%s: %s", w.File, w.Text)
	}
	return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Text)
}

// Where names the entry's place in the file: "line 12", or "line 12 (object 2)".
func (e *Entry) Where() string {
	if e.Part > 1 {
		return fmt.Sprintf("line %d (object %d)", e.Line, e.Part)
	}
	return fmt.Sprintf("line %d", e.Line)
}

// Role is the entry's message role, or "" when it is not a message.
func (e *Entry) Role() string {
	if e.Message == nil {
		return ""
	}
	return e.Message.Role
}
