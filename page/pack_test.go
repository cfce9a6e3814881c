package page

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/net/html"
)

var packAlphabet = regexp.MustCompile(`^[A-Za-z0-9_-]*$`)

// unpackChunk decodes one chunk as store.js does.
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

// pageBlocks is what a page's blocks hold, read as store.js reads them.
type pageBlocks struct {
	// articles holds each entry's article by its index in tree order;
	// inGroup says which came in a group (the path in view).
	articles map[int]string
	inGroup  map[int]bool
	// groups lists, per group in the order the page has them, its
	// entries; copies, those of the early copies. chunks counts the
	// packed chunks.
	groups [][]int
	copies [][]int
	chunks int
	panels map[string]string
	// order lists the blocks as the page has them: "group", "copy" or
	// "pack".
	order []string
}

// readBlocks reads the blocks of page (see the package doc) with the
// lengths their maps give, and fails the test if a map does not fit its
// block: each article must begin and end where its map says, and carry
// its entry's id.
func readBlocks(t testing.TB, page []byte) *pageBlocks {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page)) // scripting on, as in a browser
	if err != nil {
		t.Fatal(err)
	}
	ids := pageIndexOf(t, doc).IDs
	b := &pageBlocks{articles: map[int]string{}, inGroup: map[int]bool{}, panels: map[string]string{}}
	copied := map[int]string{} // the articles of the early copies
	take := func(key any, s, where string) {
		switch k := key.(type) {
		case float64:
			i := int(k)
			if i < 0 || i >= len(ids) {
				t.Fatalf("%s: entry index %d out of range", where, i)
			}
			if _, dup := b.articles[i]; dup {
				t.Errorf("%s: entry %d twice in the page", where, i)
			}
			if !strings.HasPrefix(s, "<article ") || !strings.HasSuffix(s, "</article>") {
				t.Errorf("%s: entry %d's slice is not one article: %.80q … %.40q", where, i, s, s[max(0, len(s)-40):])
			}
			if want := `data-entry="` + html.EscapeString(ids[i]) + `"`; !strings.Contains(s[:min(len(s), 400)], want) &&
				!strings.Contains(s[:min(len(s), 400)], `data-entry="`+strings.ReplaceAll(html.EscapeString(ids[i]), "&#34;", "&quot;")+`"`) {
				t.Errorf("%s: entry %d's article does not carry %s: %.200q", where, i, want, s)
			}
			b.articles[i] = s
		case string:
			if !strings.HasPrefix(s, "<section class=\"subagent\"") {
				t.Errorf("%s: panel %q is not a section: %.80q", where, k, s)
			}
			b.panels[k] = s
		default:
			t.Fatalf("%s: map key %v", where, key)
		}
	}
	pageWalk(doc, func(n *html.Node) {
		cls, _ := pageAttr(n, "class")
		typ, _ := pageAttr(n, "type")
		raw, hasMap := pageAttr(n, "data-map")
		switch {
		case n.Data == "noscript" && cls == "g" || n.Data == "script" && typ == groupScriptType:
			hidden := n.Data == "script"
			name := fmt.Sprintf("group %d", len(b.groups))
			if hidden {
				name = fmt.Sprintf("copy %d", len(b.copies))
			}
			var where [][2]any
			if err := json.Unmarshal([]byte(raw), &where); err != nil || !hasMap {
				t.Fatalf("%s: map %q: %v", name, raw, err)
			}
			text := utf16.Encode([]rune(pageText(n)))
			off := 0
			var entries []int
			for _, w := range where {
				l := int(w[1].(float64))
				if off+l > len(text) {
					t.Fatalf("%s: map runs past its text (%d+%d > %d)", name, off, l, len(text))
				}
				i := int(w[0].(float64))
				article := string(utf16.Decode(text[off : off+l]))
				entries = append(entries, i)
				if hidden {
					copied[i] = article
				} else {
					if c, ok := copied[i]; ok && c != article {
						t.Errorf("%s: entry %d differs from its early copy", name, i)
					}
					take(w[0], article, name)
					b.inGroup[i] = true
				}
				off += l
			}
			if off != len(text) {
				t.Errorf("%s: the map covers %d of %d code units", name, off, len(text))
			}
			if hidden {
				b.copies = append(b.copies, entries)
				b.order = append(b.order, "copy")
			} else {
				b.groups = append(b.groups, entries)
				b.order = append(b.order, "group")
			}
		case n.Data == "script" && typ == packScriptType:
			b.chunks++
			b.order = append(b.order, "pack")
			data := pageText(n)
			if !packAlphabet.MatchString(data) {
				t.Fatalf("a chunk holds characters outside base64's URL alphabet")
			}
			rawChunk, err := unpackChunk(data)
			if err != nil {
				t.Fatal(err)
			}
			var where [][2]any
			if err := json.Unmarshal([]byte(raw), &where); err != nil {
				t.Fatalf("chunk map %q: %v", raw, err)
			}
			off := 0
			for _, w := range where {
				l := int(w[1].(float64))
				if off+l > len(rawChunk) {
					t.Fatalf("a chunk's map runs past its data")
				}
				take(w[0], string(rawChunk[off:off+l]), fmt.Sprintf("chunk %d", b.chunks-1))
				off += l
			}
			if off != len(rawChunk) {
				t.Errorf("a chunk's map covers %d of %d bytes", off, len(rawChunk))
			}
		}
	})
	return b
}

// articlesPage returns page with every article the script could show
// put into the document as HTML, each chunk's data replaced by "…", so
// that the checks of a parsed page (ids, scripts, handlers, URLs) and the
// goldens see everything without depending on the compressor's bytes.
func articlesPage(t testing.TB, page []byte) []byte {
	t.Helper()
	b := readBlocks(t, page)
	keys := make([]int, 0, len(b.articles))
	for i := range b.articles {
		keys = append(keys, i)
	}
	slices.Sort(keys)
	var all strings.Builder
	all.WriteString(`<div class="unpacked">`)
	for _, i := range keys {
		if !b.inGroup[i] {
			all.WriteString(b.articles[i])
		}
	}
	panels := make([]string, 0, len(b.panels))
	for id := range b.panels {
		panels = append(panels, id)
	}
	slices.Sort(panels)
	for _, id := range panels {
		all.WriteString(b.panels[id])
	}
	all.WriteString("</div>")
	out := packDataRE.ReplaceAll(page, []byte("$1…</script>"))
	// Groups become plain HTML, as a browser without JavaScript reads them.
	out = bytes.ReplaceAll(out, []byte(`<noscript class="g"`), []byte(`<div class="g"`))
	out = groupDataRE.ReplaceAll(out, []byte("$1…</script>"))
	out = bytes.ReplaceAll(out, []byte(`</noscript>`+arrivedTag), []byte(`</div>`+arrivedTag))
	at := bytes.Index(out, []byte(`<footer class="generator">`))
	if at < 0 {
		t.Fatal("no footer in the page")
	}
	return slices.Concat(out[:at], []byte(all.String()), out[at:])
}

// pageIndexOf reads the index a parsed page carries.
func pageIndexOf(t testing.TB, doc *html.Node) pageIndex {
	t.Helper()
	var ix pageIndex
	found := false
	pageWalk(doc, func(n *html.Node) {
		if id, _ := pageAttr(n, "id"); n.Data == "script" && id == "session-index" {
			found = true
			if err := json.Unmarshal([]byte(pageText(n)), &ix); err != nil {
				t.Fatalf("the index: %v", err)
			}
		}
	})
	if !found {
		t.Fatal("the page has no index")
	}
	return ix
}

var groupDataRE = regexp.MustCompile(`(?s)(<script type="` + regexp.QuoteMeta(groupScriptType) + `"[^>]*>).*?</script>`)

var packDataRE = regexp.MustCompile(`(<script type="` + regexp.QuoteMeta(packScriptType) + `"[^>]*>)[A-Za-z0-9_-]*</script>`)

// TestBlocksHoldEveryArticle exports sessions with branches and checks
// that every entry with an article is in exactly one block: those of the
// path in view in its groups, the others packed.
func TestBlocksHoldEveryArticle(t *testing.T) {
	for _, name := range []string{"pi-v3-sdk-branches-labels.jsonl", "pi15-sdk-usage-contextedit-branch.jsonl", "pi-v3-paradocs-research.jsonl"} {
		t.Run(name, func(t *testing.T) {
			s := loadCorpus(t, name)
			p, err := NewPage(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := p.Write(&buf); err != nil {
				t.Fatal(err)
			}
			ix := p.v.Index
			b := readBlocks(t, buf.Bytes())
			onPath := map[int]bool{}
			for i := ix.View; i >= 0; i = ix.Parents[i] {
				onPath[i] = true
			}
			for i := range ix.IDs {
				_, has := b.articles[i]
				switch {
				case slices.Contains(ix.Absorbed, i):
					if has {
						t.Errorf("entry %d is shown in its call's card but has an article too", i)
					}
				case !has:
					t.Errorf("entry %d (%s) has no article", i, ix.IDs[i])
				case b.inGroup[i] != onPath[i]:
					t.Errorf("entry %d: in a group %v, on the path %v", i, b.inGroup[i], onPath[i])
				}
			}
			// Copies of the groups that end the path come first, then the
			// chunks, then the groups in path order.
			if len(b.order) == 0 || b.order[0] != "copy" || len(b.copies) == 0 {
				t.Errorf("blocks in the order %v", b.order)
			}
			last := b.groups[len(b.groups)-1]
			if !slices.Equal(b.copies[0], last) {
				t.Errorf("the first copy holds %v, want the last group %v", b.copies[0], last)
			}
			var flat []int
			for _, g := range b.groups {
				flat = append(flat, g...)
			}
			var want []int
			for i := ix.View; i >= 0; i = ix.Parents[i] {
				if !slices.Contains(ix.Absorbed, i) {
					want = append([]int{i}, want...)
				}
			}
			if !slices.Equal(flat, want) {
				t.Errorf("the groups hold %v, want the path %v", flat, want)
			}
		})
	}
}

// TestPlanBlocks cuts a path into groups by size.
func TestPlanBlocks(t *testing.T) {
	// A path of 100 entries of 10 KB, and 20 entries off it; entry 5 is
	// shown in its call's card.
	n := 120
	absorbed := make([]bool, n)
	absorbed[5] = true
	var path []int
	for i := range 100 {
		path = append(path, i)
	}
	blocks := planBlocks(path, absorbed, func(int) int { return 10 << 10 })
	eager, group := eagerBytes/(10<<10), groupBytes/(10<<10)
	var kinds []blockKind
	var sizes []int
	for _, b := range blocks {
		kinds = append(kinds, b.kind)
		sizes = append(sizes, len(b.entries))
	}
	// The copies: the last group (eager) and the one before it, as much
	// as copyBytes holds.
	if kinds[0] != copyBlock || sizes[0] != eager || kinds[1] != copyBlock || sizes[1] != group {
		t.Errorf("blocks %v of %v, want two copies of %d and %d first", kinds, sizes, eager, group)
	}
	if kinds[2] != packBlock || sizes[2] != 20 {
		t.Errorf("block 2 is %v of %d, want the 20 entries off the path", kinds[2], sizes[2])
	}
	var flat []int
	for _, b := range blocks[3:] {
		if b.kind != groupBlock {
			t.Fatalf("a %v among the groups", b.kind)
		}
		flat = append(flat, b.entries...)
	}
	want := slices.DeleteFunc(slices.Clone(path), func(i int) bool { return i == 5 })
	if !slices.Equal(flat, want) {
		t.Errorf("the groups hold %v, want the path without 5", flat)
	}
	if last := blocks[len(blocks)-1]; !slices.Equal(last.entries, blocks[0].entries) || last.group != blocks[0].group {
		t.Errorf("the first copy is of group %d, the last group is %d", blocks[0].group, last.group)
	}
}

func TestUTF16Len(t *testing.T) {
	for _, s := range []string{"", "abc", "ünï", "日本", "a😀b", "\U0010FFFF"} {
		if got, want := utf16Len([]byte(s)), len(utf16.Encode([]rune(s))); got != want {
			t.Errorf("utf16Len(%q) = %d, want %d", s, got, want)
		}
	}
}
