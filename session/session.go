// Package session reads the session files of the pi coding agent and its
// forks (oh-my-pi, jensen-code, GJC): JSONL files of format versions 1, 2 and
// 3. It migrates them in memory, never writing the input, and builds the whole
// entry tree: every branch, label, name and orphan.
//
// The package knows nothing of HTML or Markdown; it hands the packages that
// write pages (page, site, gfm) a Session and the warnings met while reading
// it.
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
	// the file's last entry, as pi has it, or the last one with an id when
	// the last has none.
	Leaf *Entry
	// Name is the session's name from its latest session_info entry.
	Name string
	// Warnings lists what was wrong with the file and what was done about it.
	Warnings []Warning
	// Redaction is set when the session's text was masked before it was
	// shown (package redact), and says what was masked; nil otherwise.
	Redaction *Redaction
	// Excerpt is set on a session Cut from another: which part of the
	// path it holds.
	Excerpt *Excerpt

	// lean is where the text of a lean session's entries is (lean.go).
	lean *leanSource

	byID        map[string]*Entry
	toolResults map[string][]*Entry
	calls       map[string]*Block // tool call id → the call
	callers     map[string]*Entry // tool call id → the message that made it
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
	// Title is omp's session title: the file's title slot (its fixed-width
	// first line) where it has one, else the header's own; TitleSource says
	// who chose it, "user" or "auto".
	Title       string
	TitleSource string
	// AdditionalDirectories are omp's workspace roots beyond Cwd.
	AdditionalDirectories []string
}

// Entry is one line (or, where a line holds several JSON objects, one object)
// of the session file.
type Entry struct {
	// Line is the 1-based line of the file the entry was read from.
	Line int
	// Part counts the JSON objects of a line that holds several: 1 for the
	// first (and usual) one, 2 for the next, and so on.
	Part int
	// Offset and Size are where the entry's line is in the file: its first
	// byte and its length in bytes, line end included. An entry loaded
	// lean (LoadOptions.Lean) is read again from there (Session.Full).
	Offset int64
	Size   int
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
	Data             json.RawMessage // custom: the extension's state
	Content          []Block         // custom_message
	ContentIsString  bool            // custom_message
	Display          bool            // custom_message
	TargetID         string          // label, context_edit
	LabelText        string          // label
	SessionName      string          // session_info

	// Usage is what a usage or omp model_usage entry records, and what a
	// compaction or branch summary cost to write (pi 1.5); nil when the
	// entry records none.
	Usage *Usage
	// Work says what model work a usage or model_usage entry was.
	Work *ModelWork
	// Edit is a context_edit's change to what the model sees of TargetID.
	Edit *ContextEdit
	// SystemMessage is a pi 1.5 compaction's prompt checkpoint: the prompt
	// sections and tools in force at the compaction, role "system".
	SystemMessage *Message
	// Omp holds the fields of omp's own entry types, and omp's additions
	// to compaction and thinking_level_change entries.
	Omp *OmpFields

	// BadFields are the entry's values that could not be read as their
	// fields (a count written "NaN", a number out of range): the rest of
	// the entry was read without them, and they are shown as raw JSON.
	BadFields []BadField

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
	// sum is the checksum of the entry's line in a lean session; full
	// marks an entry Full read again, whose text is all there.
	sum  uint64
	full bool
	// salvaged marks an entry read from a line that is not one JSON
	// object (several run together, or one followed by garbage): pi drops
	// such lines whole, piexport keeps what they hold.
	salvaged bool
}

func (e *Entry) firstKeptIndex() (int, bool) { return e.v1FirstKept, e.v1FirstKept >= 0 }

// Message is the payload of a "message" entry.
type Message struct {
	// Role is system, user, assistant, toolResult, bashExecution, custom,
	// branchSummary, compactionSummary, omp's developer, pythonExecution,
	// jsExecution, hookMessage and fileMention, or anything else (then the
	// entry keeps its Raw JSON).
	Role string
	// Content is the message's blocks; a string content becomes one text block.
	Content         []Block
	ContentIsString bool
	Time            time.Time

	// System messages (pi 1.5) carry the prompt and the tools. A session's
	// first one declares every section and tool; later ones patch it: a
	// section with a new text replaces the one of that name, a removed one
	// goes, tools are added and removed by name.
	Sections     []Section
	ToolsAdded   []ToolSpec
	ToolsRemoved []string

	// Assistant messages. Usage is also a tool result's own model work
	// (pi 1.5), zero when it did none.
	API          string
	Provider     string
	Model        string
	Usage        Usage
	StopReason   string
	ErrorMessage string
	// ResponseModel is the concrete model the provider says answered, when
	// it says; ThinkingLevel the level asked for (pi 1.5).
	ResponseModel string
	ThinkingLevel string
	// Diagnostics are what pi noted about the request that made an
	// assistant message: reasoning the provider dropped from it (pi 1.6),
	// fallbacks it took.
	Diagnostics []Diagnostic
	// Deferred is set for stopReason "deferred": where the answer waits.
	Deferred *Deferred

	// Tool results.
	ToolCallID string
	ToolName   string
	IsError    bool
	Details    json.RawMessage
	// NestedCalls are the calls the tool made to other tools (pi 1.5);
	// NestedComplete is false when the list was cut short.
	NestedCalls    []NestedCall
	NestedComplete bool

	// bashExecution (and omp's pythonExecution and jsExecution) messages.
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

	// lean is what a tool result of a lean session keeps of its output.
	lean *leanText

	// Files are the files an omp fileMention message put before the model.
	Files []MentionedFile
}

// Diagnostic is one note pi keeps on an assistant message about the
// request that made it (message.diagnostics, pi 1.6).
type Diagnostic struct {
	// Type is the diagnostic's type: "openai_input_transformations",
	// "anthropic_input_transformations", "anthropic_thread_fallback", …
	Type string
	// Error is the message of the error it reports, if any.
	Error string
	// Transformations are what the provider changed in the request before
	// the model saw it (details.transformations of the two
	// *_input_transformations types).
	Transformations []Transformation
	// Raw is the diagnostic's JSON, for types this package does not model.
	Raw json.RawMessage
}

// Transformation is one change a provider made to a request: for OpenAI a
// reasoning item (ID) removed, for Anthropic a thinking block (at Path)
// dropped, each with the provider's reason.
type Transformation struct {
	Type, ID, Path, Action, Reason string
}

// MentionedFile is one file of an omp fileMention message: its path, its
// text, or why it was left out ("tooLarge", "binary"), or an image.
type MentionedFile struct {
	Path          string
	Content       string
	LineCount     int
	ByteSize      int64
	SkippedReason string
	// Image is the file as an image block, when it is one.
	Image *Block
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

// Section is one named part of a system prompt. In a later system message
// Removed says the section of that name was dropped.
type Section struct {
	Name    string
	Text    string
	Removed bool
}

// ToolSpec is a tool a system message declares: its name, what it is for,
// and its parameters as a JSON schema.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// NestedCall is one call a tool made to another tool (pi 1.5).
type NestedCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
	// Status is "ok", "error" or "unfinished".
	Status     string
	DurationMs float64 // 0 when unknown
	Error      string
}

// Deferred is where a deferred answer can be fetched from the provider.
type Deferred struct {
	Provider  string
	ModelID   string
	API       string
	ID        string
	ExpiresAt time.Time // zero when unknown
}

// ModelWork describes the model work of a usage entry (pi 1.5) or of omp's
// model_usage entry: model calls outside the conversation.
type ModelWork struct {
	// Kind is pi's kind ("cache_warm", ...) or omp's purpose.
	Kind     string
	Provider string
	Model    string
	Note     string
	// Role, API, StopReason and ErrorMessage are omp's.
	Role         string
	API          string
	StopReason   string
	ErrorMessage string
}

// ContextEdit changes what the model sees of an earlier entry from the edit
// on (pi 1.5): it omits the entry, or shows the model Content in place of
// the entry's own. The target itself is never changed.
type ContextEdit struct {
	Omit            bool
	Content         []Block
	ContentIsString bool
}

// OmpFields are the fields of omp's own entry types.
type OmpFields struct {
	// ServiceTier (service_tier_change) is the tier per provider family;
	// empty when the session went back to the default tiers.
	ServiceTier []Setting
	// Mode and ModeData (mode_change): the mode entered, "none" on leaving
	// one, and its data, e.g. a plan file's path.
	Mode     string
	ModeData json.RawMessage
	// Title, PreviousTitle, TitleSource ("user" or "auto") and Trigger
	// (title_change).
	Title, PreviousTitle, TitleSource, Trigger string
	// Rules (ttsr_injection) are the names of the rules injected.
	Rules []string
	// MCPTools (mcp_tool_selection) are the MCP tools chosen for the
	// model, by name.
	MCPTools []string
	// Fallback (model_change) marks a model chosen as a retry fallback,
	// not the one configured.
	Fallback bool
	// CredentialProvider (credential_pin) names the provider whose account
	// served the session. The pin's hash is never read.
	CredentialProvider string
	// Init (session_init) is how a sub-agent was started.
	Init *SessionInit
	// ConfiguredThinking (thinking_level_change) is the level the user
	// chose, "auto" when omp chooses it.
	ConfiguredThinking string
	// TokensAfter, Method and Warning are omp's compaction fields.
	TokensAfter int64
	Method      string
	Warning     string
}

// Setting is one name and value, kept in the file's order.
type Setting struct {
	Name, Value string
}

// SessionInit is omp's record of how a sub-agent session began.
type SessionInit struct {
	SystemPrompt  string
	Task          string
	Tools         []string
	Agent         string
	ModelRole     string
	ResolvedModel string
	ReadOnly      bool
	Isolated      bool
	// OutputSchema is the JSON schema of a structured answer, if asked for.
	OutputSchema json.RawMessage
}

// Usage counts tokens and their cost in dollars.
type Usage struct {
	Input      int64
	Output     int64
	CacheRead  int64
	CacheWrite int64
	Cost       float64
}

// Tokens is the sum of u's token counts, as pi totals them, saturating
// at the ends of int64's range.
func (u Usage) Tokens() int64 {
	return addInt64(addInt64(u.Input, u.Output), addInt64(u.CacheRead, u.CacheWrite))
}

// Add adds u's counts to t, saturating at the ends of their range (see
// toInt64): a sum never wraps to the other sign.
func (t *Usage) Add(u Usage) {
	t.Input = addInt64(t.Input, u.Input)
	t.Output = addInt64(t.Output, u.Output)
	t.CacheRead = addInt64(t.CacheRead, u.CacheRead)
	t.CacheWrite = addInt64(t.CacheWrite, u.CacheWrite)
	t.Cost = addFloat(t.Cost, u.Cost)
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
