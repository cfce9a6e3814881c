package page

import (
	"bytes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/unicode/norm"
)

// DecryptPage reads back the page an encrypted page holds, as its script
// (assets/sealed.js) does in the browser, and accepts what the script
// accepts: the file is read as a browser parses it, its parameters and
// segments checked by the same rules in the same order. It returns the
// page, or ErrWrongPassphrase, or an ErrDamaged that says what is wrong.
// It is for tests and tools that check what an encrypted page holds.
func DecryptPage(encrypted []byte, passphrase string) ([]byte, error) {
	doc, err := html.Parse(bytes.NewReader(encrypted))
	if err != nil {
		return nil, damaged("it is not HTML: %v", err)
	}
	paramsText, found, segments := sealedParts(doc)
	if !found {
		return nil, damaged("it has no parameters")
	}
	params, err := readSealParams(paramsText)
	if err != nil {
		return nil, err
	}
	if len(segments) == 0 {
		return nil, damaged("it holds no sealed segment")
	}
	sealed := make([][]byte, len(segments))
	for i, seg := range segments {
		if sealed[i], err = canonicalBase64(seg); err != nil {
			return nil, damaged("segment %d is not base64", i)
		}
	}
	if params.Check != nil {
		// Pages with a check were sealed with the passphrase in NFC, as
		// their script takes it; earlier ones as it was typed.
		passphrase = norm.NFC.String(passphrase)
	}
	aead, err := sealingAEAD(passphrase, params.Salt, params.Iterations)
	if err != nil {
		return nil, err
	}
	if params.Check != nil {
		if _, err := aead.Open(nil, checkNonce(), params.Check, nil); err != nil {
			return nil, ErrWrongPassphrase
		}
	}
	zipped, err := openSegments(aead, sealed, params.Check == nil)
	if err != nil {
		return nil, err
	}
	// Browsers' DecompressionStream takes one gzip member and nothing
	// after it.
	br := bytes.NewReader(zipped)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, damaged("%v", err)
	}
	zr.Multistream(false)
	page, err := io.ReadAll(zr)
	if err != nil {
		return nil, damaged("%v", err)
	}
	if br.Len() > 0 {
		return nil, damaged("data follows its page")
	}
	return page, nil
}

// openSegments opens every segment in order. Without a check (a page
// made before it) a first segment that does not open is taken for a wrong
// passphrase, as the script of such a page took it.
func openSegments(aead cipher.AEAD, sealed [][]byte, firstTellsPassphrase bool) ([]byte, error) {
	var zipped []byte
	for i, ct := range sealed {
		pt, err := aead.Open(nil, segmentNonce(uint64(i), i == len(sealed)-1), ct, nil)
		switch {
		case err != nil && i == 0 && firstTellsPassphrase:
			return nil, ErrWrongPassphrase
		case err != nil:
			return nil, damaged("segment %d was changed, or is not in its place, or a segment is missing", i)
		}
		zipped = append(zipped, pt...)
	}
	return zipped, nil
}

// ErrWrongPassphrase is DecryptPage's error for a passphrase that does not
// open the page.
var ErrWrongPassphrase = errors.New("the passphrase does not open this page")

// ErrDamaged is DecryptPage's error for a file that was changed or cut
// after it was encrypted: no passphrase opens it. The script says "This
// file is damaged or was changed after it was encrypted".
var ErrDamaged = errors.New("the encrypted page is damaged or was changed after it was encrypted")

func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrDamaged, fmt.Sprintf(format, args...))
}

// sealedParts finds what the script reads in the document a browser
// parses the file into: the text of the first element whose id is
// sealed-params (document.getElementById), and the text of each script
// element of the sealed type, in order (querySelectorAll, which matches
// an HTML element's type attribute in any case). The contents of a
// template are no part of the document, and are passed over.
func sealedParts(doc *html.Node) (params string, found bool, segments []string) {
	stack := []*html.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type == html.ElementNode {
			if !found && firstAttr(n, "id") == (attrValue{"sealed-params", true}) {
				params, found = textContent(n), true
			}
			if n.Data == "script" {
				typ := firstAttr(n, "type")
				if typ.ok && (typ.val == sealedScriptType || n.Namespace == "" && strings.EqualFold(typ.val, sealedScriptType)) {
					segments = append(segments, textContent(n))
				}
			}
			if n.DataAtom == atom.Template && n.Namespace == "" {
				continue
			}
		}
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, c)
		}
	}
	return params, found, segments
}

type attrValue struct {
	val string
	ok  bool
}

// firstAttr is the value of n's attribute key as a browser keeps it: the
// first of several.
func firstAttr(n *html.Node, key string) attrValue {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return attrValue{a.Val, true}
		}
	}
	return attrValue{}
}

// textContent is the text of n and all it holds, as the DOM's
// textContent.
func textContent(n *html.Node) string {
	var b strings.Builder
	stack := []*html.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, c)
		}
	}
	return b.String()
}

// maxSealIterations bounds the rounds a page may ask for: a changed
// number must not keep a browser deriving a key for hours.
const maxSealIterations = 10_000_000

// readSealParams reads the parameters' JSON as the script does: exact
// keys, and each value of its type, else the file is damaged.
func readSealParams(text string) (sealParams, error) {
	var p sealParams
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &fields); err != nil || fields == nil {
		return p, damaged("its parameters are not a JSON object")
	}
	str := func(key string) (string, bool) {
		var s string
		raw, ok := fields[key]
		return s, ok && len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil
	}
	integer := func(key string, lo, hi float64) (int, bool) {
		var f float64
		raw, ok := fields[key]
		if !ok || json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || f < lo || f > hi {
			return 0, false
		}
		return int(f), true
	}
	bytesOf := func(key string, n int) ([]byte, bool) {
		s, ok := str(key)
		if !ok {
			return nil, false
		}
		b, err := canonicalBase64(s)
		return b, err == nil && len(b) == n
	}
	var ok [7]bool
	var kdf, cph, comp string
	p.Version, ok[0] = integer("v", 1, 1)
	kdf, ok[1] = str("kdf")
	cph, ok[2] = str("cipher")
	comp, ok[3] = str("compression")
	p.Iterations, ok[4] = integer("iterations", 1, maxSealIterations)
	p.Segment, ok[5] = integer("segment", 1, math.MaxInt32)
	p.Salt, ok[6] = bytesOf("salt", 16)
	if ok != [7]bool{true, true, true, true, true, true, true} || kdf != "PBKDF2-SHA-256" || cph != "AES-256-GCM" || comp != "gzip" {
		return p, damaged("its parameters are not those of an encrypted page this version opens")
	}
	if _, has := fields["check"]; has {
		check, good := bytesOf("check", 16)
		if !good {
			return p, damaged("its check is not 16 bytes of base64")
		}
		p.Check = check
	}
	return p, nil
}

// canonicalBase64 decodes s, standard base64 with its padding, written
// as Go writes it and as the script accepts it: nothing else, not even a
// line end, and no bits set past the data.
func canonicalBase64(s string) ([]byte, error) {
	if strings.ContainsAny(s, "\r\n") {
		return nil, errors.New("a line end in base64")
	}
	return base64.StdEncoding.Strict().DecodeString(s)
}
