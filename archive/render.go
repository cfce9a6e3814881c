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
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// A unit is the jobs of one run that are done together: under Mask,
// the jobs of one family of sessions (see Options.Mask) with the
// family's members in its order (family, by key); else one job alone.
type unit struct {
	jobs   []*job
	family []string
}

// renderUnit reads the sources of u's jobs and brings what the archive
// holds of each up to date (see renderJob). A load error is recorded in
// the job's entry; err is kept for failures to write. Reading stops when
// ctx is done.
func (b *builder) renderUnit(ctx context.Context, u unit) error {
	data := map[string][]byte{}
	for _, j := range u.jobs {
		raw, err := fileguard.ReadInput(ctx, j.path)
		if err != nil {
			j.e.Error = err.Error()
			continue
		}
		sum := sha256.Sum256(raw)
		j.e.SHA256 = hex.EncodeToString(sum[:])
		data[j.key] = raw
	}
	if b.opt.Mask != nil {
		// What a page shows depends on its whole family.
		group := familyDigest(u.family, b.next)
		for _, j := range u.jobs {
			j.e.Group = group
		}
	}
	var todo []*job
	for _, j := range u.jobs {
		if data[j.key] != nil && !b.keep(j) {
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
	if b.opt.Mask != nil {
		// The rest of the family is read for what it has to mask in
		// these; one that cannot be read has nothing to give.
		var group []*session.Session
		var shown []bool
		for _, key := range u.family {
			s := sessions[key]
			if s == nil {
				path := b.next.Sessions[key].Path
				raw := data[key]
				if raw == nil {
					raw, _ = fileguard.ReadInput(ctx, path)
				}
				var err error
				if s, err = session.ReadContext(ctx, bytes.NewReader(raw), path); err != nil || raw == nil {
					continue
				}
			}
			group = append(group, s)
			shown = append(shown, sessions[key] == s)
		}
		b.mask(group, shown)
	}
	for _, j := range todo {
		s := sessions[j.key]
		if s == nil {
			continue
		}
		rendered, err := b.renderJob(j, data[j.key], s)
		j.rendered = rendered
		if err != nil {
			return err
		}
	}
	return nil
}

// keep says whether the job's source, read, was touched and not changed:
// its page, and the words the search index holds, stay. A page made
// again for its links is never kept.
func (b *builder) keep(j *job) bool {
	e, old := j.e, j.old
	if !j.page || !b.sameOptions || j.relink || old == nil || old.SHA256 != e.SHA256 || old.Group != e.Group || old.Error != "" || old.Related != e.Related || !pageExists(b.dir, old, b.f) {
		return false
	}
	j.page = false
	if !j.words || b.prev.has(old.Stem+b.f.ext, old.Doc) {
		size, mtime, rel, from := e.Size, e.ModTime, e.Related, e.ParentSession
		*e = *old
		e.Path, e.Size, e.ModTime, e.Related, e.ParentSession = j.path, size, mtime, rel, from
		return true
	}
	return false
}

// renderJob brings what the archive holds of the job's source up to date
// from its session s, read from data and prepared: its entry in the
// manifest, its page and its words in the search index (each when the
// job asks for it). It reports whether it wrote the page.
func (b *builder) renderJob(j *job, data []byte, s *session.Session) (rendered bool, err error) {
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
	if j.words {
		if err := b.addWords(j, s); err != nil {
			return false, err
		}
		j.indexed = true
	}
	if !j.page {
		return false, nil
	}

	key := catalog.PageKey("archive", b.opt.fingerprint, e.SHA256, e.Related)
	var out bytes.Buffer
	docs := b.docs[j.key]
	if b.f.ext == ".md" {
		// Its images are written as it is: it is made every time.
		docs.images = &imagefiles.Dir{Path: filepath.Join(b.dir, assetsDir), Link: b.f.assetsLink()}
	}
	if p := b.opt.Pages; p != nil && docs.images == nil {
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
		docs.progress = b.opt.tracker.writing(j)
		warnings, err := b.f.page(&out, s, data, b.opt, b.parents[j.key], b.related[j.key], docs)
		if err != nil {
			// A session that loads but does not render is listed like one
			// that does not load.
			e.Error = fmt.Sprintf("%s: %v", j.path, err)
			return false, nil
		}
		for _, w := range warnings {
			e.Warnings = append(e.Warnings, w.String())
		}
		if p := b.opt.Pages; p != nil && docs.images == nil {
			if pw, err := p.Create(key); err == nil {
				pw.Write(out.Bytes())
				pw.Commit()
			}
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(b.dir, e.Stem+b.f.ext), out.Bytes()); err != nil {
		return false, err
	}
	if docs.images != nil {
		e.Assets = docs.images.Names()
	}
	return true, nil
}

// addWords writes the file of the job's session's entries for the search
// index, unless it is there already, and adds its words under the
// session's slot.
func (b *builder) addWords(j *job, s *session.Session) error {
	e := j.e
	d := docOf(s)
	sum := sha256.Sum256([]byte(e.SHA256 + b.opt.fingerprint + e.Group))
	e.Doc = e.Stem + "-" + hex.EncodeToString(sum[:6]) + ".js"
	path := filepath.Join(b.dir, searchDir, docsDir, e.Doc)
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
	return b.sb.addSession(b.num[j.key], d)
}

// mask masks the members of a family that shown marks with what every
// member holds (Options.Mask), and tells Options.Masked of each.
func (b *builder) mask(family []*session.Session, shown []bool) {
	findings := make([]session.Finding, len(family))
	for i, s := range family {
		if findings[i] = b.opt.Mask.Find(s); !shown[i] {
			findings[i] = findings[i].Kept()
		}
	}
	for i, s := range family {
		if !shown[i] {
			continue
		}
		b.opt.Mask.Mask(s, findings)
		if b.opt.Masked != nil {
			b.opt.Masked(s)
		}
	}
}
