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
	"github.com/piexport/piexport/internal/imagefiles"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// A unit is the jobs of one run that are done together: under Prepare,
// the jobs of one family of sessions (see Options.Prepare) with the
// family's members in its order (family, by key); else one job alone.
type unit struct {
	jobs   []*job
	family []string
}

// renderUnit reads the sources of u's jobs and brings what the archive
// holds of each up to date (see renderJob). A load error is recorded in
// the job's entry; err is kept for failures to write. Reading stops when
// ctx is done.
func renderUnit(ctx context.Context, dir string, u unit, next *manifest, opt Options, f format, sameOptions bool, parents map[string]page.Link, related map[string][]page.Related, docs map[string]pageDocs, sb *searchBuild, num map[string]int, prev *searchMeta) error {
	data := map[string][]byte{}
	for _, j := range u.jobs {
		b, err := fileguard.ReadInput(ctx, j.path)
		if err != nil {
			j.e.Error = err.Error()
			continue
		}
		sum := sha256.Sum256(b)
		j.e.SHA256 = hex.EncodeToString(sum[:])
		data[j.key] = b
	}
	if opt.Prepare != nil {
		// What a page shows depends on its whole family.
		group := familyDigest(u.family, next)
		for _, j := range u.jobs {
			j.e.Group = group
		}
	}
	var todo []*job
	for _, j := range u.jobs {
		if data[j.key] != nil && !keep(dir, j, f, sameOptions && !j.relink, sb, prev) {
			todo = append(todo, j)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	sessions := map[string]*session.Session{}
	for _, j := range todo {
		s, err := session.ReadContext(ctx, bytes.NewReader(data[j.key]), j.path)
		if err != nil {
			j.e.Error = err.Error()
			continue
		}
		sessions[j.key] = s
	}
	if opt.Prepare != nil {
		// The rest of the family is read for what it has to mask in
		// these; one that cannot be read has nothing to give.
		var group []*session.Session
		var shown []bool
		for _, key := range u.family {
			s := sessions[key]
			if s == nil {
				path := next.Sessions[key].Path
				b := data[key]
				if b == nil {
					b, _ = fileguard.ReadInput(ctx, path)
				}
				var err error
				if s, err = session.ReadContext(ctx, bytes.NewReader(b), path); err != nil || b == nil {
					continue
				}
			}
			group = append(group, s)
			shown = append(shown, sessions[key] == s)
		}
		opt.Prepare(group, shown)
	}
	for _, j := range todo {
		s := sessions[j.key]
		if s == nil {
			continue
		}
		rendered, err := renderJob(dir, j, data[j.key], s, opt, f, parents[j.key], related[j.key], docs[j.key], sb, num)
		j.rendered = rendered
		if err != nil {
			return err
		}
	}
	return nil
}

// keep says whether the job's source, read, was touched and not changed:
// its page, and the words the search index holds, stay.
func keep(dir string, j *job, f format, sameOptions bool, sb *searchBuild, prev *searchMeta) bool {
	e, old := j.e, j.old
	if !j.page || !sameOptions || old == nil || old.SHA256 != e.SHA256 || old.Group != e.Group || old.Error != "" || old.Related != e.Related || !pageExists(dir, old, f) {
		return false
	}
	j.page = false
	if sb == nil || prev.has(old.Stem+f.ext, old.Doc) {
		size, mtime, rel, from := e.Size, e.ModTime, e.Related, e.ParentSession
		*e = *old
		e.Path, e.Size, e.ModTime, e.Related, e.ParentSession = j.path, size, mtime, rel, from
		return true
	}
	return false
}

// renderJob brings what the archive holds of the job's source up to date
// from its session s, read from data and prepared: its entry in the
// manifest, its page (when the job asks for it), and its words in the
// search index (when sb is set). It reports whether it wrote the page.
func renderJob(dir string, j *job, data []byte, s *session.Session, opt Options, f format, parent page.Link, related []page.Related, docs pageDocs, sb *searchBuild, num map[string]int) (rendered bool, err error) {
	e := j.e
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
	if !j.page {
		return false, nil
	}

	key := catalog.PageKey("archive", opt.fingerprint, e.SHA256, e.Related)
	var out bytes.Buffer
	if f.ext == ".md" {
		// Its images are written as it is: it is made every time.
		docs.images = &imagefiles.Dir{Path: filepath.Join(dir, assetsDir), Link: f.assetsLink()}
	}
	if p := opt.Pages; p != nil && docs.images == nil {
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
		docs.progress = opt.tracker.writing(j)
		warnings, err := f.page(&out, s, data, opt, parent, related, docs)
		if err != nil {
			// A session that loads but does not render is listed like one
			// that does not load.
			e.Error = fmt.Sprintf("%s: %v", j.path, err)
			return false, nil
		}
		for _, w := range warnings {
			e.Warnings = append(e.Warnings, w.String())
		}
		if p := opt.Pages; p != nil && docs.images == nil {
			if pw, err := p.Create(key); err == nil {
				pw.Write(out.Bytes())
				pw.Commit()
			}
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, e.Stem+f.ext), out.Bytes()); err != nil {
		return false, err
	}
	if docs.images != nil {
		e.Assets = docs.images.Names()
	}
	return true, nil
}

// addDoc writes the file of a session's entries for the search index,
// unless it is there already, and adds its words under number num.
func addDoc(dir string, e *entry, s *session.Session, sb *searchBuild, num int, opt Options) error {
	d := docOf(s)
	sum := sha256.Sum256([]byte(e.SHA256 + opt.fingerprint + e.Group))
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
