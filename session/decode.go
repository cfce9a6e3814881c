package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// Decoding: a decoded object becomes the session's header or one of its
// entries, each field of each entry type in its place.

// foldTitleSlot takes omp's title slot off the objects: a fixed-width
// first line {"type":"title","v":1,...} that holds the session's current
// title. It is not an entry; its title becomes the header's.
func (l *loader) foldTitleSlot() {
	if len(l.objects) == 0 {
		return
	}
	o := &l.objects[0]
	if o.line != 1 || o.wire.Type != "title" || o.extra == nil || string(o.extra.SlotVersion) != "1" {
		return
	}
	l.slot = &titleSlot{title: o.extra.Title, source: o.extra.Source}
	l.objects = l.objects[1:]
}

// titleSlot is omp's title slot, folded into the header.
type titleSlot struct{ title, source string }

func (l *loader) header(o *object) *Header {
	w := &o.wire
	h := &Header{
		Line:          o.line,
		ID:            w.ID.value(),
		Time:          parseTime(w.Timestamp),
		Cwd:           w.Cwd,
		ParentSession: w.ParentSession,
		BranchedFrom:  w.BranchedFrom,
		Provider:      w.Provider,
		ModelID:       w.ModelID,
		ThinkingLevel: w.ThinkingLevel,
	}
	if x := o.extra; x != nil {
		h.Title, h.TitleSource, h.AdditionalDirectories = x.Title, x.TitleSource, x.AdditionalDirectories
	}
	if l.slot != nil {
		// omp: the slot holds the current title and overrides the header's.
		h.Title, h.TitleSource = l.slot.title, l.slot.source
	}
	if w.Version != nil {
		h.FileVersion = toInt(*w.Version)
		if float64(h.FileVersion) != *w.Version || h.FileVersion < 1 {
			l.warn("version", o.line, "the header's version %v is not a format version; read as version %d", *w.Version, CurrentVersion)
			h.FileVersion = CurrentVersion
		}
	}
	h.Version = h.FileVersion
	for _, b := range o.bad {
		l.warn("badfield", o.line, "the field %s of the session header holds %s; it is left out", b.Path, b.Why)
	}
	return h
}

// entry turns a decoded object into an Entry.
func (l *loader) entry(o *object) *Entry {
	w := &o.wire
	e := &Entry{
		Line:     o.line,
		Part:     o.part,
		Offset:   o.at,
		Size:     o.size,
		sum:      o.sum,
		Type:     w.Type,
		FileID:   w.ID.value(),
		ParentID: w.ParentID.value(),
		Time:     parseTime(w.Timestamp),
		Raw:      o.raw,

		v1FirstKept: -1,
		salvaged:    o.salvaged,
	}
	if errors.Is(o.typeErr, errTooDeep) {
		return e // said when the line was read
	}
	if o.typeErr != nil {
		l.warn("fields", o.line, "a %q entry has fields of unexpected types (%v); shown as raw JSON", w.Type, o.typeErr)
		return e
	}
	x := o.extra
	if x == nil {
		x = &wireExtra{}
	}
	e.BadFields = o.bad
	if w.Message != nil {
		e.BadFields = append(e.BadFields, prefixed("message.", w.Message.Content.bad)...)
	}
	e.BadFields = append(e.BadFields, w.Content.bad...)
	if x.SystemMessage != nil {
		e.BadFields = append(e.BadFields, prefixed("systemMessage.", x.SystemMessage.Content.bad)...)
	}
	for _, b := range e.BadFields {
		l.warn("badfield", o.line, "the field %s of a %q entry holds %s; that value is shown as raw JSON, the rest of the entry is kept", b.Path, w.Type, b.Why)
	}
	switch w.Type {
	case "message":
		if w.Message == nil {
			l.warn("fields", o.line, "a message entry without a message; shown as raw JSON")
			break
		}
		e.Message = w.Message.message()
	case "model_change":
		e.Provider, e.ModelID, e.ModelRole = w.Provider, w.ModelID, w.Role
		if e.ModelID == "" && w.Model != "" {
			// omp writes one "provider/modelId" string; providers may hold
			// slashes of their own only after the first one.
			e.Provider, e.ModelID, _ = strings.Cut(w.Model, "/")
			if e.ModelID == "" {
				e.Provider, e.ModelID = "", w.Model
			}
		}
		if x.ResolvedModelIsFallback {
			e.Omp = &OmpFields{Fallback: true}
		}
	case "thinking_level_change":
		e.ThinkingLevel = w.ThinkingLevel
		if x.Configured != nil && *x.Configured != w.ThinkingLevel {
			e.Omp = &OmpFields{ConfiguredThinking: *x.Configured}
		}
	case "compaction":
		e.Summary, e.ShortSummary = w.Summary, w.ShortSummary
		e.FirstKeptEntryID = w.FirstKeptEntryID
		if w.FirstKeptIndex != nil {
			e.v1FirstKept = toInt(*w.FirstKeptIndex)
		}
		e.TokensBefore = toInt64(w.TokensBefore)
		e.Details = w.Details
		e.FromHook = truthy(w.FromHook) || truthy(w.FromExtension)
		e.Usage = x.Usage.optional()
		if x.SystemMessage != nil {
			e.SystemMessage = x.SystemMessage.message()
			e.SystemMessage.Role = "system"
		}
		if x.TokensAfter != 0 || x.Method != "" || x.Warning != "" {
			e.Omp = &OmpFields{TokensAfter: toInt64(x.TokensAfter), Method: x.Method, Warning: x.Warning}
		}
	case "branch_summary":
		e.Summary, e.FromID, e.Details = w.Summary, w.FromID, w.Details
		e.Usage = x.Usage.optional()
	case "usage", "model_usage":
		e.Usage = x.Usage.optional()
		if e.Usage == nil {
			e.Usage = &Usage{}
		}
		e.Work = &ModelWork{Kind: x.Kind, Provider: w.Provider, Model: w.Model, Note: x.Note,
			Role: w.Role, API: x.API, StopReason: x.StopReason, ErrorMessage: x.ErrorMessage}
		if w.Type == "model_usage" {
			e.Work.Kind = x.Purpose
		}
	case "context_edit":
		e.TargetID = w.TargetID
		e.Edit = replacement(x.Replacement)
	case "service_tier_change":
		e.Omp = &OmpFields{ServiceTier: settings(x.ServiceTier)}
	case "mode_change":
		e.Omp = &OmpFields{Mode: x.Mode, ModeData: x.Data}
	case "title_change":
		e.Omp = &OmpFields{Title: x.Title, PreviousTitle: x.PreviousTitle, TitleSource: x.Source, Trigger: x.Trigger}
	case "ttsr_injection":
		e.Omp = &OmpFields{Rules: x.InjectedRules}
	case "credential_pin":
		e.Omp = &OmpFields{CredentialProvider: w.Provider}
	case "session_init":
		e.Omp = &OmpFields{Init: &SessionInit{SystemPrompt: x.SystemPrompt, Task: x.Task, Tools: x.Tools,
			Agent: x.Agent, ModelRole: x.ModelRole, ResolvedModel: x.ResolvedModel, ReadOnly: x.ReadOnly,
			Isolated: x.Isolated, OutputSchema: x.OutputSchema}}
	case "custom":
		e.CustomType, e.Data = w.CustomType, x.Data
	case "mcp_tool_selection":
		e.Omp = &OmpFields{MCPTools: x.SelectedToolNames}
	case "custom_message":
		e.CustomType = w.CustomType
		e.Content, e.ContentIsString = w.Content.blocks, w.Content.isString
		e.Display = w.Display
		e.Details = w.Details
	case "label":
		e.TargetID = w.TargetID
		if w.Label != nil {
			e.LabelText = *w.Label
		}
	case "session_info":
		if w.Name != nil {
			e.SessionName = *w.Name
		}
	}
	return e
}

// optional returns the usage a field holds, or nil when it is absent.
func (u *wireUsage) optional() *Usage {
	if u == nil {
		return nil
	}
	out := u.usage()
	return &out
}

// replacement reads a context_edit's replacement: null (or nothing) omits
// the target, {content} replaces what the model sees of it.
func replacement(raw json.RawMessage) *ContextEdit {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return &ContextEdit{Omit: true}
	}
	var r struct {
		Content wireContent `json:"content"`
	}
	if unmarshal(raw, &r) != nil {
		return &ContextEdit{Omit: true}
	}
	return &ContextEdit{Content: r.Content.blocks, ContentIsString: r.Content.isString}
}

// truthy reads a flag that forks write as a boolean or as a name.
func truthy(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	return s != "" && s != "false" && s != "null" && s != `""` && s != "0"
}
