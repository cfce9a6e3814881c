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
	// groups are the groups' slot names in the order the page has them;
	// chunks counts the packed chunks.
	groups []string
	chunks int
	panels map[string]string
	// order lists the blocks as the page has them: a group's name, or
	// "pack" for a chunk.
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
		case n.Data == "noscript" && cls == "g":
			name, _ := pageAttr(n, "slot")
			b.groups = append(b.groups, name)
			b.order = append(b.order, name)
			var where [][2]any
			if err := json.Unmarshal([]byte(raw), &where); err != nil || !hasMap {
				t.Fatalf("group %s: map %q: %v", name, raw, err)
			}
			text := utf16.Encode([]rune(pageText(n)))
			off := 0
			for _, w := range where {
				l := int(w[1].(float64))
				if off+l > len(text) {
					t.Fatalf("group %s: map runs past its text (%d+%d > %d)", name, off, l, len(text))
				}
				take(w[0], string(utf16.Decode(text[off:off+l])), "group "+name)
				b.inGroup[int(w[0].(float64))] = true
				off += l
			}
			if off != len(text) {
				t.Errorf("group %s: the map covers %d of %d code units", name, off, len(text))
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
			// The group that ends the path comes first, then the chunks,
			// then the other groups from the end back.
			if len(b.order) == 0 || b.order[0] != b.groups[0] || b.groups[0] != fmt.Sprintf("g%d", len(b.groups)-1) {
				t.Errorf("blocks in the order %v", b.order)
			}
			for k, g := range b.groups {
				if want := fmt.Sprintf("g%d", len(b.groups)-1-k); g != want {
					t.Errorf("group %d is %s, want %s", k, g, want)
				}
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
	blocks, names := planBlocks(path, absorbed, func(int) int { return 10 << 10 })
	var sizes []int
	for _, b := range blocks {
		sizes = append(sizes, len(b.entries))
	}
	// The last group holds eagerBytes, the others groupBytes of entries.
	eager, group := eagerBytes/(10<<10), groupBytes/(10<<10)
	if sizes[0] != eager || len(blocks[1].entries) != 20 || blocks[1].group != "" {
		t.Errorf("block sizes %v, want %d first and then the 20 entries off the path", sizes, eager)
	}
	for k, b := range blocks[2:] {
		if last := k == len(blocks)-3; !last && len(b.entries) != group {
			t.Errorf("group %s holds %d entries, want %d", b.group, len(b.entries), group)
		}
	}
	seen := map[int]int{}
	for _, b := range blocks {
		for _, i := range b.entries {
			seen[i]++
		}
	}
	if len(seen) != n-1 || seen[5] != 0 {
		t.Errorf("%d entries placed (want %d), the absorbed one %d times", len(seen), n-1, seen[5])
	}
	if names[0] != "g0" || blocks[len(blocks)-1].group != "g0" || blocks[0].group != names[len(names)-1] {
		t.Errorf("names %v, blocks from %s to %s", names, blocks[0].group, blocks[len(blocks)-1].group)
	}
}

func TestUTF16Len(t *testing.T) {
	for _, s := range []string{"", "abc", "ünï", "日本", "a😀b", "\U0010FFFF"} {
		if got, want := utf16Len([]byte(s)), len(utf16.Encode([]rune(s))); got != want {
			t.Errorf("utf16Len(%q) = %d, want %d", s, got, want)
		}
	}
}
