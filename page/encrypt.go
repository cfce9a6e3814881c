package page

import (
	"bufio"
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/piexport/piexport"
)

// An encrypted page (WriteEncrypted) is the page as Write makes it,
// gzipped and sealed with a passphrase, inside a small page that asks for
// the passphrase and opens it in the browser. The small page holds no
// text of the session: its title, head and script are the same for every
// session, and the session travels only as ciphertext.
//
// The sealed page is cut into segments, each sealed on its own, so that
// no segment is larger than a browser handles with ease, whatever the
// session's size. The construction is the STREAM of Hoang, Reyhanitabar,
// Rogaway and Vizár, as age uses it:
//
//   - key: PBKDF2-HMAC-SHA-256 of the passphrase with a random 16-byte
//     salt, sealIterations rounds, 32 bytes (AES-256);
//   - segment i (from 0) of at most sealSegment bytes of the gzipped page
//     is sealed with AES-256-GCM under the nonce i (11 bytes, big-endian)
//     followed by a byte that is 1 for the last segment and 0 for the
//     others: a segment cannot be moved, and the page cannot be cut short
//     or made longer without the passphrase;
//   - each sealed segment is written in base64 (standard alphabet, padded)
//     in an inert <script type="application/x-piexport-sealed">, in order.
//
// The parameters are JSON in <script type="application/json"
// id="sealed-params">: {"v":1,"kdf":"PBKDF2-SHA-256","iterations":N,
// "salt":base64,"check":base64,"cipher":"AES-256-GCM","segment":N,
// "compression":"gzip"}. The check is the tag of nothing sealed under
// a nonce no segment has (checkNonce): it tells a wrong passphrase from a
// damaged file, whichever segment is missing.
//
// The passphrase is taken in Unicode's NFC form, on both sides: the same
// text typed on two systems may arrive composed or not. One a browser
// cannot type (a control character) is refused (CheckPassphrase).
//
// In the browser (assets/sealed.js), WebCrypto derives the key and opens
// every segment before anything is shown: a wrong passphrase fails on the
// check and shows nothing, a damaged file on what was changed. DecryptPage
// (decrypt.go) reads a file as the script does and accepts what it
// accepts. Then the script replaces the small page with the sealed one
// (document.open, then document.write of the page as it is unpacked): the
// browser parses it as it parses a page read from a file, so the page's
// own script runs as it always does, at the same address, and deep links
// work. The small page's Content-Security-Policy stays in force over the
// page it opens, so it allows the page's own inline style and scripts by
// their hashes too; the page's own policy then applies as well.

// sealIterations is the number of PBKDF2 rounds: OWASP's figure for
// PBKDF2-HMAC-SHA-256 (2023).
const sealIterations = 600_000

// sealSegment is the size of a segment of the gzipped page before it is
// sealed.
const sealSegment = 1 << 20

// sealedScriptType is the type of the inert blocks that hold the sealed
// segments.
const sealedScriptType = "application/x-piexport-sealed"

// sealedTemplate is the small page around the sealed one.
var sealedTemplate = template.Must(template.New("sealed.html").ParseFS(piexport.Templates(), "sealed.html"))

// loadSealedAssets reads the small page's style and script once, and
// makes its Content-Security-Policy: its own and the page's.
var loadSealedAssets = sync.OnceValues(func() (*piexport.Inline, error) {
	a, err := piexport.LoadInline([]string{"sealed.css"}, "", "sealed.js")
	if err != nil {
		return nil, fmt.Errorf("encrypted page assets: %w", err)
	}
	pa, err := loadPageAssets()
	if err != nil {
		return nil, err
	}
	csp := strings.Replace(pa.CSP, "script-src ", "script-src '"+piexport.CSPHash(string(a.JS))+"' ", 1)
	a.CSP = strings.Replace(csp, "style-src ", "style-src '"+piexport.CSPHash(string(a.CSS))+"' ", 1)
	return a, nil
})

// sealParams are the parameters an encrypted page is opened with.
type sealParams struct {
	Version    int    `json:"v"`
	KDF        string `json:"kdf"`
	Iterations int    `json:"iterations"`
	Salt       []byte `json:"salt"`
	// Check is nothing sealed under checkNonce: it opens with the right
	// passphrase whatever became of the segments, so that a damaged file
	// is told from a wrong passphrase. Pages made before it have none.
	Check       []byte `json:"check,omitempty"`
	Cipher      string `json:"cipher"`
	Segment     int    `json:"segment"`
	Compression string `json:"compression"`
}

// sealedData is what the small page's template sees.
type sealedData struct {
	Theme, Generator string
	Params           template.JS
	CSS              template.CSS
	JS               template.JS
	CSP              string
}

// WriteEncrypted writes the page to w encrypted with passphrase (see
// above): a page that shows nothing of the session until the
// passphrase is given in the browser. A passphrase a browser cannot
// type is refused (see CheckPassphrase). Like Write, it streams, and may
// leave part of a page in w on an error. A Page is written once.
func (p *Page) WriteEncrypted(w io.Writer, passphrase string) error {
	return p.writeEncrypted(w, passphrase, sealSegment, sealIterations)
}

// writeEncrypted is WriteEncrypted with segments of segment bytes and
// the key derived in iterations rounds.
func (p *Page) writeEncrypted(w io.Writer, passphrase string, segment, iterations int) error {
	passphrase, err := CheckPassphrase(passphrase)
	if err != nil {
		return fmt.Errorf("encrypting the page: %w", err)
	}
	a, err := loadSealedAssets()
	if err != nil {
		return err
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return fmt.Errorf("encrypting the page: %w", err)
	}
	aead, err := sealingAEAD(passphrase, salt, iterations)
	if err != nil {
		return err
	}
	params, err := json.Marshal(sealParams{Version: 1, KDF: "PBKDF2-SHA-256", Iterations: iterations, Salt: salt,
		Check: aead.Seal(nil, checkNonce(), nil, nil), Cipher: "AES-256-GCM", Segment: segment, Compression: "gzip"})
	if err != nil {
		return fmt.Errorf("encrypting the page: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	data := sealedData{Theme: p.v.Theme, Generator: p.v.Generator, Params: template.JS(params), CSS: a.CSS, JS: a.JS, CSP: a.CSP}
	if err := sealedTemplate.ExecuteTemplate(bw, "sealed-start", data); err != nil {
		return fmt.Errorf("render encrypted page: %w", err)
	}
	sw := &sealWriter{w: bw, aead: aead, size: segment}
	// The page's packed chunks are gzipped already, the rest is HTML that
	// compresses well at any level: at BestSpeed a 50 MB session's page
	// (47 MB) encrypts to 24 MB for 5-10% more CPU time than the plain
	// page, against 22 MB for 23-29% more at the default level.
	zw, _ := gzip.NewWriterLevel(sw, gzip.BestSpeed)
	zw.ModTime = noTime
	if err := p.Write(zw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := sw.close(); err != nil {
		return err
	}
	if err := sealedTemplate.ExecuteTemplate(bw, "sealed-end", data); err != nil {
		return fmt.Errorf("render encrypted page: %w", err)
	}
	return bw.Flush()
}

// sealingAEAD derives the key from the passphrase.
func sealingAEAD(passphrase string, salt []byte, iterations int) (cipher.AEAD, error) {
	key, err := pbkdf2.Key(sha256.New, passphrase, salt, iterations, 32)
	if err != nil {
		return nil, fmt.Errorf("deriving the key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// segmentNonce is the nonce of segment i: i in 11 bytes, big-endian, then
// 1 for the last segment, else 0.
func segmentNonce(i uint64, last bool) []byte {
	nonce := make([]byte, 12)
	binary.BigEndian.PutUint64(nonce[3:11], i)
	if last {
		nonce[11] = 1
	}
	return nonce
}

// checkNonce is the nonce of sealParams.Check: 11 zero bytes, then 2,
// which no segment's nonce ends with.
func checkNonce() []byte {
	nonce := make([]byte, 12)
	nonce[11] = 2
	return nonce
}

// sealWriter cuts what is written to it into segments, seals each one and
// writes it as a block. It holds back a full segment until more comes, so
// that the last segment, sealed by close, is known to be the last.
type sealWriter struct {
	w     *bufio.Writer
	aead  cipher.AEAD
	size  int // of a segment
	buf   []byte
	count uint64
	out   []byte
}

func (s *sealWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if len(s.buf) == s.size {
			if err := s.seal(false); err != nil {
				return 0, err
			}
		}
		k := min(len(b), s.size-len(s.buf))
		s.buf = append(s.buf, b[:k]...)
		b = b[k:]
	}
	return n, nil
}

// close seals what is left as the last segment.
func (s *sealWriter) close() error { return s.seal(true) }

func (s *sealWriter) seal(last bool) error {
	s.out = s.aead.Seal(s.out[:0], segmentNonce(s.count, last), s.buf, nil)
	s.count++
	s.buf = s.buf[:0]
	s.w.WriteString(`<script type="` + sealedScriptType + `">`)
	enc := base64.NewEncoder(base64.StdEncoding, s.w)
	enc.Write(s.out)
	enc.Close()
	_, err := s.w.WriteString("</script>\n")
	return err
}
