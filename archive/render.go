package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/atomicfile"
	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// renderOne reads one source and brings what the archive holds of it up
// to date: its entry in the manifest, its page (when the job asks for it
// and the source did change: a file touched but not changed keeps its
// page), and its words in the search index (when sb is set). A load
// error is recorded in the entry; err is kept for failures to write.
// Reading stops when ctx is done.
func renderOne(ctx context.Context, dir string, j *job, opt Options, f format, sameOptions bool, parent page.Link, related []page.Related, sb *searchBuild, num map[string]int, prev *searchMeta) (rendered bool, err error) {
	e, old := j.e, j.old
	data, err := fileguard.ReadInput(ctx, j.path)
	if err != nil {
		e.Error = err.Error()
		return false, nil
	}
	sum := sha256.Sum256(data)
	e.SHA256 = hex.EncodeToString(sum[:])
	makePage := j.page
	if makePage && sameOptions && old != nil && old.SHA256 == e.SHA256 && old.Error == "" && old.Related == e.Related && pageExists(dir, old, f) {
		// Touched, not changed: the page, and the words the search index
		// holds, stay.
		makePage = false
		if sb == nil || prev.has(old.Stem+f.ext, old.Doc) {
			size, mtime, rel, from := e.Size, e.ModTime, e.Related, e.ParentSession
			*e = *old
			e.Path, e.Size, e.ModTime, e.Related, e.ParentSession = j.path, size, mtime, rel, from
			return false, nil
		}
	}
	s, err := session.ReadContext(ctx, bytes.NewReader(data), j.path)
	if err != nil {
		e.Error = err.Error()
		return false, nil
	}
	if opt.Prepare != nil {
		opt.Prepare(s)
	}
	e.Error = ""
	e.Warnings = nil
	for _, w := range s.Warnings {
		e.Warnings = append(e.Warnings, w.String())
	}
	e.Summary = s.Summarize()
	// An entry without a time of its own counts on the day the session
	// began, as the catalog counts it (else the file's last change).
	began := time.Unix(0, e.ModTime)
	if s.Header != nil {
		e.Cwd, e.SessionID = s.Header.Cwd, s.Header.ID
		if !s.Header.Time.IsZero() {
			began = s.Header.Time
		}
	}
	e.Usage = usage.Tally(s.Entries, began)
	if sb != nil {
		if err := addDoc(dir, e, s, sb, num[j.key], opt); err != nil {
			return false, err
		}
		j.words = true
	}
	if !makePage {
		return false, nil
	}

	key := catalog.PageKey("archive", opt.fingerprint, e.SHA256, e.Related)
	var out bytes.Buffer
	if p := opt.Pages; p != nil {
		if cp, err := p.Open(key); err == nil {
			_, err = cp.WriteTo(&out)
			cp.Close()
			if err != nil {
				out.Reset()
			}
		}
	}
	if out.Len() == 0 {
		out.Grow(len(data) + 64<<10)
		warnings, err := f.page(&out, s, data, opt, parent, related)
		if err != nil {
			// A session that loads but does not render is listed like one
			// that does not load.
			e.Error = fmt.Sprintf("%s: %v", j.path, err)
			return false, nil
		}
		for _, w := range warnings {
			e.Warnings = append(e.Warnings, w.String())
		}
		if p := opt.Pages; p != nil {
			if pw, err := p.Create(key); err == nil {
				pw.Write(out.Bytes())
				pw.Commit()
			}
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, e.Stem+f.ext), out.Bytes()); err != nil {
		return false, err
	}
	return true, nil
}

// addDoc writes the file of a session's entries for the search index,
// unless it is there already, and adds its words under number num.
func addDoc(dir string, e *entry, s *session.Session, sb *searchBuild, num int, opt Options) error {
	d := docOf(s)
	sum := sha256.Sum256([]byte(e.SHA256 + opt.fingerprint))
	e.Doc = e.Stem + "-" + hex.EncodeToString(sum[:6]) + ".js"
	path := filepath.Join(dir, searchDir, docsDir, e.Doc)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		script, err := jsCall("doc", e.Doc, d.entries)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(path, script); err != nil {
			return err
		}
	}
	return sb.addSession(num, d)
}
