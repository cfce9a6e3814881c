package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/session"
)

// A catalog that prepares sessions reads a family as one: when a file of
// it changes, the others may hold what it now names secret, and they are
// prepared again too, unless what was found in the changed files is what
// was found before (a session that grew by lines that name nothing
// secret), which is the common case while a session is written.

// kept is a finding the catalog keeps, with the state of the file it was
// found in.
type kept struct {
	at stamp
	f  session.Finding
}

// family returns the ids of the records of the family of the record id,
// in the family's order (by their files' keys), id among them.
func (c *Catalog) family(id string) []string {
	c.famMu.Lock()
	defer c.famMu.Unlock()
	if gen := c.linkGen.Load(); c.families == nil || c.familiesAt != gen {
		c.families, c.familiesAt = c.findFamilies(), gen
	}
	if f := c.families[id]; f != nil {
		return f
	}
	return []string{id}
}

// findFamilies joins the records into families: a sub-agent's transcript
// with its session, a fork with the session its header names (by its
// path, or by its file's name when one file alone has that name, as link
// finds it).
func (c *Catalog) findFamilies() map[string][]string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	root := make(map[string]string, len(c.records))
	find := func(id string) string {
		for root[id] != id {
			root[id] = root[root[id]]
			id = root[id]
		}
		return id
	}
	join := func(a, b string) {
		if _, ok := root[b]; ok {
			if ra, rb := find(a), find(b); ra != rb {
				root[ra] = rb
			}
		}
	}
	byKey := make(map[string]string, len(c.records))
	byBase := make(map[string]string, len(c.records))
	for id, r := range c.records {
		root[id] = id
		byKey[r.f.key] = id
		base := path.Base(filepath.ToSlash(r.f.path))
		if _, dup := byBase[base]; dup {
			byBase[base] = ""
		} else {
			byBase[base] = id
		}
	}
	for id, r := range c.records {
		if r.parent != "" {
			join(id, r.parent)
		}
		if r.from == "" {
			continue
		}
		p, ok := byKey[filepath.Clean(r.from)]
		if !ok {
			p = byBase[path.Base(filepath.ToSlash(r.from))]
		}
		if p != "" && p != id {
			join(id, p)
		}
	}
	members := map[string][]string{}
	for id := range c.records {
		r := find(id)
		members[r] = append(members[r], id)
	}
	out := make(map[string][]string, len(c.records))
	for _, list := range members {
		if len(list) == 1 {
			continue
		}
		slices.SortFunc(list, func(a, b string) int { return strings.Compare(c.records[a].f.key, c.records[b].f.key) })
		for _, id := range list {
			out[id] = list
		}
	}
	return out
}

// forkedFrom reads what the file f was forked from off its header (see
// session.HeaderForkedFrom).
func (c *Catalog) forkedFrom(f file) string {
	fh, err := c.open(f)
	if err != nil {
		return ""
	}
	defer fh.Close()
	return session.HeaderForkedFrom(fh)
}

// familyDigest sums the contents of the family of the record id, as the
// store holds them: what a prepared session shows depends on all of
// them. It is "" for a session of no family.
func (c *Catalog) familyDigest(id string) string {
	ids := c.family(id)
	if len(ids) < 2 {
		return ""
	}
	h := sha256.New()
	c.mu.RLock()
	for _, m := range ids {
		if r := c.records[m]; r != nil && r.row != nil {
			fmt.Fprintf(h, "%s %x\n", m, r.row.Sum)
		}
	}
	c.mu.RUnlock()
	return hex.EncodeToString(h.Sum(nil))
}

// withFamily makes i.Hash, in a catalog that prepares sessions, the sum
// of the file's content and of its family's (see familyDigest): a page
// made for one is not the page of the other.
func (c *Catalog) withFamily(i *Info) {
	if c.opt.Mask == nil || i.Hash == "" {
		return
	}
	if d := c.familyDigest(i.ID); d != "" {
		sum := sha256.Sum256([]byte(i.Hash + " " + d))
		i.Hash = hex.EncodeToString(sum[:])
	}
}

// member is one session of a family being read: its record and file,
// and what reading it gave.
type member struct {
	r       *record
	file    file
	stale   bool
	s       *session.Session
	t       *tracker
	st      stamp
	finding session.Finding
	err     error
}

// readFamily reads the records of stale, of one family, whose store rows
// are not their files as they are now, and prepares them with what the
// whole family holds: reading the rest of the family too, and returning
// it prepared anew, unless what was found in stale is what was found
// before (see above). It returns what was read of each file, in the
// family's order, and nil when reading was cut short by ctx.
func (c *Catalog) readFamily(ctx context.Context, stale []*record) []*readData {
	ids := c.family(stale[0].id)
	c.mu.RLock()
	var ms []*member
	for _, id := range ids {
		if r := c.records[id]; r != nil {
			ms = append(ms, &member{r: r, file: r.f, stale: slices.Contains(stale, r)})
		}
	}
	c.mu.RUnlock()
	prep := c.opt.Mask
	read := func(m *member) {
		m.err = func() (err error) {
			// A panic (of the loader, or of the Masker) becomes the
			// file's error, as readFileSafely has it.
			defer recoverAs(&err, m.file.path+": reading it")
			if m.s, m.t, m.st, err = c.readWhole(ctx, m.file); err == nil {
				m.finding = prep.Find(m.s)
			}
			return err
		}()
	}
	for _, m := range ms {
		if m.stale {
			read(m)
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	c.famMu.Lock()
	same := true
	for _, m := range ms {
		k, ok := c.stored[m.r.id]
		switch {
		case m.stale && m.err == nil:
			same = same && ok && k.f.Same(m.finding)
		case !m.stale:
			c.mu.RLock()
			row := m.r.row
			c.mu.RUnlock()
			if same = same && ok && row != nil && k.at == row.Stamp; same {
				m.finding = k.f
			}
		}
	}
	c.famMu.Unlock()
	if !same {
		for _, m := range ms {
			if !m.stale {
				read(m)
				m.stale = m.err == nil // read and prepared anew
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	findings := make([]session.Finding, 0, len(ms))
	for _, m := range ms {
		if m.finding != nil {
			findings = append(findings, m.finding)
		}
	}
	var out []*readData
	for _, m := range ms {
		switch {
		case !m.stale:
		case m.err != nil:
			out = append(out, &readData{r: m.r, d: c.errorData(m.r, m.err)})
		default:
			err := func() (err error) {
				defer recoverAs(&err, m.file.path+": reading it")
				prep.Mask(m.s, findings)
				return nil
			}()
			if err != nil {
				out = append(out, &readData{r: m.r, d: c.errorData(m.r, err)})
				continue
			}
			d := fromFull(c.rowKey(m.file.key), m.st, m.s, m.t, gateOf(ctx))
			// The header line, as the file has it, and the hash's state,
			// which holds the file's last bytes as they are, are what
			// reading only what was appended needs, which a catalog that
			// prepares sessions never does.
			d.row.Header, d.row.State = nil, nil
			d.finding = m.finding.Kept()
			d.again = !slices.Contains(stale, m.r)
			out = append(out, &readData{r: m.r, d: d})
		}
	}
	return out
}

// readData is what was read of one record's file.
type readData struct {
	r *record
	d *fileData
}

// errorData is what the store keeps of a file that cannot be read: its
// error, so that it is listed, and read again only once it changes.
func (c *Catalog) errorData(r *record, err error) *fileData {
	c.mu.RLock()
	d := &fileData{row: fileRow{Path: c.rowKey(r.f.key), Stamp: r.found, Err: c.prepareText(err.Error())}}
	c.mu.RUnlock()
	var fe *fileError
	if errors.As(err, &fe) {
		d.row.Stamp, d.row.Sum = fe.stamp, fe.sum
	}
	return d
}

// staleFamilies groups records that the store does not hold as they are
// now by family, in the order of the first of each.
func (c *Catalog) staleFamilies(stale []*record) [][]*record {
	var out [][]*record
	at := map[string]int{}
	for _, r := range stale {
		head := c.family(r.id)[0]
		i, ok := at[head]
		if !ok {
			i = len(out)
			at[head] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	return out
}

// prepareLoaded prepares s, the session of the record r read whole now,
// with its family's findings: each other member's as kept for its file
// as it is now, else found by reading that file (and kept).
func (c *Catalog) prepareLoaded(r *record, s *session.Session) {
	prep := c.opt.Mask
	own := prep.Find(s)
	var findings []session.Finding
	for _, id := range c.family(r.id) {
		if id == r.id {
			findings = append(findings, own)
			continue
		}
		c.mu.RLock()
		m := c.records[id]
		c.mu.RUnlock()
		if m == nil {
			continue
		}
		if f := c.findingOf(m); f != nil {
			findings = append(findings, f)
		}
	}
	prep.Mask(s, findings)
}

// findingOf returns what was found in r's file as it is now: kept from
// before, or found by reading it; nil when it cannot be read.
func (c *Catalog) findingOf(r *record) session.Finding {
	c.mu.RLock()
	f := r.f
	c.mu.RUnlock()
	fi, err := c.stat(f)
	if err != nil {
		return nil
	}
	st := stampOf(fi)
	c.famMu.Lock()
	for _, k := range []kept{c.seen[r.id], c.stored[r.id]} {
		if k.f != nil && k.at == st {
			c.famMu.Unlock()
			return k.f
		}
	}
	c.famMu.Unlock()
	s, _, at, err := c.readWhole(context.Background(), f)
	if err != nil {
		return nil
	}
	found := c.opt.Mask.Find(s).Kept()
	c.famMu.Lock()
	c.seen[r.id] = kept{at, found}
	c.famMu.Unlock()
	return found
}

// familyVersion names the state of the files of the family of the record
// id, as they are now: a session loaded for one is not the session as
// prepared for another.
func (c *Catalog) familyVersion(id string) string {
	ids := c.family(id)
	if len(ids) < 2 {
		return ""
	}
	var b strings.Builder
	for _, m := range ids {
		c.mu.RLock()
		r := c.records[m]
		c.mu.RUnlock()
		if r == nil {
			continue
		}
		if fi, err := c.stat(r.f); err == nil {
			b.WriteString(stampOf(fi).String())
		}
		b.WriteByte(' ')
	}
	return b.String()
}
