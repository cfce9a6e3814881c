package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/piexport/piexport/internal/atomicfile"
	"github.com/piexport/piexport/page"
)

// The record of shares: one small JSON file per gist made by --share, in
// the user's state directory (sharesDir), written atomically and
// readable by the user only (the URL of a secret gist is all it takes to
// read it). A file per share, named by the gist's id, rather than one
// list: two shares at once each write their own file, so neither can
// lose the other's record.

// shareRecord is one share.
type shareRecord struct {
	GistID string `json:"gist_id"`
	URL    string `json:"url"`
	// Session is the session file's absolute path, SessionID the id its
	// header gives, Title the title as shared (masked).
	Session   string `json:"session"`
	SessionID string `json:"session_id,omitempty"`
	Title     string `json:"title"`
	// Files are the names of the gist's files.
	Files     []string  `json:"files"`
	Encrypted bool      `json:"encrypted,omitempty"`
	Shared    time.Time `json:"shared"`
	// Masked counts the values masked, per rule; Places the places they
	// were masked at; Home says the home directory and the user's name
	// were hidden; Images counts the images left out.
	Masked map[string]int `json:"masked"`
	Places int            `json:"places"`
	Home   bool           `json:"home,omitempty"`
	Images int            `json:"images,omitempty"`
	// Deleted is when --unshare deleted the gist; zero while it is up.
	Deleted time.Time `json:"deleted,omitzero"`
}

// sharesDir is where the record of shares is kept: piexport/shares in
// $XDG_STATE_HOME when it is set (to an absolute path, as the XDG base
// directory specification asks), else in the system's place for a
// program's state: ~/.local/state on Linux and other Unix systems,
// ~/Library/Application Support on macOS, %LocalAppData% on Windows.
func sharesDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "piexport", "shares"), nil
	}
	if runtime.GOOS == "windows" {
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "piexport", "shares"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding where to keep the record of shares: %w", err)
	}
	if runtime.GOOS == "darwin" {
		return filepath.Join(home, "Library", "Application Support", "piexport", "shares"), nil
	}
	return filepath.Join(home, ".local", "state", "piexport", "shares"), nil
}

// validGistID says whether id can be a gist's id, and so a file name.
func validGistID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// writeShare writes r into the record, replacing what it said of the
// same gist.
func writeShare(r *shareRecord) error {
	dir, err := sharesDir()
	if err != nil {
		return err
	}
	if !validGistID(r.GistID) {
		return fmt.Errorf("the record of shares: %q is not a gist id", r.GistID)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the record of shares: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("the record of shares: %w", err)
	}
	path := filepath.Join(dir, r.GistID+".json")
	if err := atomicfile.WritePrivate(path, append(b, '\n')); err != nil {
		return fmt.Errorf("writing the record of shares %s: %w", path, err)
	}
	return nil
}

// readShares reads the record, newest share first. A file that cannot be
// read or is not a record is named in a warning and passed over.
func readShares() (list []*shareRecord, warnings []string, err error) {
	dir, err := sharesDir()
	if err != nil {
		return nil, nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading the record of shares: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		var r shareRecord
		if err := json.Unmarshal(b, &r); err != nil || !validGistID(r.GistID) {
			if err == nil {
				err = errors.New("no gist id")
			}
			warnings = append(warnings, fmt.Sprintf("%s: not a record of a share: %v", path, err))
			continue
		}
		list = append(list, &r)
	}
	slices.SortStableFunc(list, func(a, b *shareRecord) int { return b.Shared.Compare(a.Shared) })
	return list, warnings, nil
}

// shareLinks finds the shares of a session file, for the archive's index
// and pages and the server's pages: each gist still up, newest first, as
// a link. It reads the record again only when its directory changed (a
// share adds a file, --unshare replaces one: both change the
// directory's modification time), so a server that runs while sessions
// are shared shows them at the next view.
type shareLinks struct {
	mu    sync.Mutex
	dir   string
	stamp time.Time
	read  bool
	by    map[string][]page.Link // by the session's absolute path
}

func newShareLinks() *shareLinks {
	dir, _ := sharesDir()
	return &shareLinks{dir: dir}
}

// of returns the links of the shares of the session file at path.
func (l *shareLinks) of(path string) []page.Link {
	if l == nil || l.dir == "" {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var stamp time.Time
	if fi, err := os.Stat(l.dir); err == nil {
		stamp = fi.ModTime()
	}
	if !l.read || !stamp.Equal(l.stamp) {
		l.read, l.stamp = true, stamp
		l.by = map[string][]page.Link{}
		list, _, _ := readShares()
		for _, r := range list {
			if r.Deleted.IsZero() {
				l.by[r.Session] = append(l.by[r.Session], page.Link{Title: shareLinkTitle(r), URL: r.URL})
			}
		}
	}
	return slices.Clone(l.by[abs])
}

// related is of as the archive and the server take it (their Shared).
func (l *shareLinks) related(path string) []page.Related {
	links := l.of(path)
	if len(links) == 0 {
		return nil
	}
	return []page.Related{{Label: sharedLabel, Links: links}}
}

// shareLinkTitle is what a link to a share says.
func shareLinkTitle(r *shareRecord) string {
	id := r.GistID
	if len(id) > 8 {
		id = id[:8]
	}
	title := "secret gist " + id + " (" + r.Shared.UTC().Format("2006-01-02")
	if r.Encrypted {
		title += ", encrypted"
	}
	return title + ")"
}

// sharedLabel names the links to a session's shares.
const sharedLabel = "Shared"
