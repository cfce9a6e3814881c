package page

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var (
	packScriptRE = regexp.MustCompile(`<script type="` + regexp.QuoteMeta(packScriptType) + `" id="pack-(\d+)">([^<]*)</script>`)
	packedBodyRE = regexp.MustCompile(`<div class="(?:entry|subagent)-body" data-packed="(\d+):(\d+):(\d+)"></div>`)
	packAlphabet = regexp.MustCompile(`^[A-Za-z0-9_-]*$`)
)

// unpackChunk decodes one chunk as page.js does.
func unpackChunk(data string) ([]byte, error) {
	z, err := base64.RawURLEncoding.DecodeString(data)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// unpackPage returns page as the script shows it once every packed body
// is unpacked: each body back in its element, and each chunk's data
// replaced by "…", so goldens do not depend on the compressor's bytes.
// It fails the test on a chunk that is not plain base64, or a reference
// that points outside its chunk.
func unpackPage(t testing.TB, page []byte) []byte {
	t.Helper()
	if n, m := bytes.Count(page, []byte(packScriptType)), len(packScriptRE.FindAllIndex(page, -1)); n != m {
		t.Fatalf("%d pack scripts, %d of them well formed", n, m)
	}
	chunks := map[string][]byte{}
	for _, m := range packScriptRE.FindAllSubmatch(page, -1) {
		if !packAlphabet.Match(m[2]) {
			t.Fatalf("pack-%s holds characters outside base64's URL alphabet", m[1])
		}
		raw, err := unpackChunk(string(m[2]))
		if err != nil {
			t.Fatalf("pack-%s: %v", m[1], err)
		}
		chunks[string(m[1])] = raw
	}
	page = packedBodyRE.ReplaceAllFunc(page, func(el []byte) []byte {
		m := packedBodyRE.FindSubmatch(el)
		chunk, ok := chunks[string(m[1])]
		off, _ := strconv.Atoi(string(m[2]))
		n, _ := strconv.Atoi(string(m[3]))
		if !ok || off+n > len(chunk) {
			t.Errorf("%s points outside its chunk", el)
			return el
		}
		return []byte(strings.Replace(string(el), "></div>", ">"+string(chunk[off:off+n])+"</div>", 1))
	})
	return packScriptRE.ReplaceAll(page, []byte(`<script type="`+packScriptType+`" id="pack-$1">…</script>`))
}

func TestPackerRoundTrip(t *testing.T) {
	p := &packer{}
	var bodies, refs []string
	for i := range 400 {
		// About 4 KB each, so the bodies span several chunks.
		body := fmt.Sprintf("<p>entry %d: %s</p>", i, strings.Repeat("ünïcode & <b>text</b> ", 180+i%7))
		bodies = append(bodies, body)
		refs = append(refs, p.add(body))
	}
	p.done()
	if len(p.chunks) < 4 {
		t.Fatalf("%d chunks for %d KB; want one per %d KB", len(p.chunks), 400*4, packChunkBytes>>10)
	}
	raw := make([][]byte, len(p.chunks))
	for i, c := range p.chunks {
		if c.Index != i {
			t.Errorf("chunk %d has index %d", i, c.Index)
		}
		if !packAlphabet.MatchString(c.Data) {
			t.Fatalf("chunk %d holds characters outside base64's URL alphabet", i)
		}
		var err error
		if raw[i], err = unpackChunk(c.Data); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		if len(raw[i]) > packChunkBytes+8<<10 {
			t.Errorf("chunk %d unpacks to %d bytes, well over %d", i, len(raw[i]), packChunkBytes)
		}
	}
	for i, ref := range refs {
		var c, off, n int
		if _, err := fmt.Sscanf(ref, "%d:%d:%d", &c, &off, &n); err != nil {
			t.Fatalf("reference %q: %v", ref, err)
		}
		if got := string(raw[c][off : off+n]); got != bodies[i] {
			t.Fatalf("body %d (%s) unpacks to %.60q…", i, ref, got)
		}
	}
}

// TestPackOnlyOffPath exports a session with branches: the path in view
// keeps its bodies in the page, and every entry off it is packed.
func TestPackOnlyOffPath(t *testing.T) {
	page := exportPage(t, loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl"), Options{})
	doc := parsePage(t, page)
	var packed, onPath int
	pageWalk(doc, func(n *html.Node) {
		if _, ok := pageAttr(n, "data-entry"); !ok {
			return
		}
		_, hidden := pageAttr(n, "hidden")
		body := pageFindAll(n, pageHasAttr("data-packed"))
		switch {
		case hidden && len(body) != 1:
			t.Errorf("entry %s is off the path but not packed", n.Attr)
		case !hidden && len(body) != 0:
			t.Errorf("entry %s is on the path but packed", n.Attr)
		case hidden:
			packed++
		default:
			onPath++
		}
	})
	if packed == 0 || onPath == 0 {
		t.Fatalf("%d entries packed, %d on the path; want both", packed, onPath)
	}
	if !bytes.Contains(unpackPage(t, page), []byte("(alternative) I would start from a framework such as chi.")) {
		t.Error("the text of an entry off the path is not in its chunk")
	}
}
