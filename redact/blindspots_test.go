package redact

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
)

// A PNG's first bytes, as base64: enough for imageLen to know an image.
var pngBase64 = base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"),
	bytes.Repeat([]byte{0x5a, 0xa5, 0x3c}, 40)...))

// TestTextAfterAnImage (issue 21, item 1): a string that starts with an
// image, a data: URL or bare base64 of one, is searched after the image:
// the key, the token and the user's word that follow it are masked, the
// image's bytes are not touched (or, with NoImages, are removed).
func TestTextAfterAnImage(t *testing.T) {
	const literal = "Globex"
	tmpl := `{"type":"session","version":3,"id":"h","timestamp":"2026-11-20T10:00:00Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-11-20T10:00:01Z","message":{"role":"user","content":"data:image/png;base64,` + pngBase64 + `\nkey {{aws-access-key-id}} and {{github-pat}} for Globex"}}
{"type":"message","id":"u2","parentId":"u1","timestamp":"2026-11-20T10:00:02Z","message":{"role":"user","content":"` + pngBase64 + ` then {{slack-bot-token}} at Globex"}}
{"type":"message","id":"a1","parentId":"u2","timestamp":"2026-11-20T10:00:03Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"upload","arguments":{"file":"data:image/png;base64,` + pngBase64 + ` {{stripe-secret-key}} Globex"}}]}}
{"type":"custom","id":"x1","parentId":"a1","customType":"shot","data":{"png":"` + pngBase64 + `","caption":"{{npm-token}}"}}
`
	for _, noImages := range []bool{false, true} {
		s, secrets := planted(t, tmpl, 11)
		redactor(t, Options{Secrets: true, Literals: []string{literal}, NoImages: noImages}).Session(s)
		after := dump(t, s)
		for _, leak := range fakesecret.Leaks(after, secrets) {
			t.Errorf("NoImages %v: survived: %s", noImages, leak)
		}
		if bytes.Contains(bytes.ToLower(after), []byte("globex")) {
			t.Errorf("NoImages %v: the literal after an image survived", noImages)
		}
		images := bytes.Count(after, []byte(pngBase64))
		switch {
		case !noImages && images != 4:
			t.Errorf("the images were changed: %d of 4 intact", images)
		case noImages && images != 0:
			t.Errorf("NoImages: %d images left", images)
		case noImages && bytes.Count(after, []byte(ImageRemoved)) != 4:
			t.Errorf("NoImages: not every image says it was removed:\n%s", after)
		}
	}
}

// TestOpaqueKeysWhereTheyAre (issue 21, item 2): the keys of providers'
// blobs (signature, textSignature, encrypted_content…) are passed over
// only in the blocks that hold such blobs, and the user's words are
// masked even there; the same names elsewhere (a tool's arguments, an
// extension's data, details) are searched like any other.
func TestOpaqueKeysWhereTheyAre(t *testing.T) {
	const literal = "Globex"
	blob := "EqQBCkgIARABGAIiQJ8b2Kq+u7m9Vh5Wm3n0J1kz3YwZ4aR8xP6fT0cL2dQ5sN7gH9jE1bU3vK6yX4oM8iA2qW0eD5tF7rG9hJ1lC3nB"
	tmpl := `{"type":"session","version":3,"id":"h","timestamp":"2026-11-20T10:00:00Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-20T10:00:01Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"plan","thinkingSignature":"` + blob + `"},{"type":"toolCall","id":"c1","name":"send_email","arguments":{"to":"jane@example.com","signature":"Jane Roe, Globex Inc, {{github-pat}}","textSignature":"{{gitlab-pat}}"}},{"type":"reasoning","encrypted_content":"` + blob + `Globex` + blob + `","summary":[]}]}}
{"type":"custom","id":"x1","parentId":"a1","customType":"mail","data":{"encrypted_content":"{{stripe-secret-key}}","redactedThinking":"token {{npm-token}}","nested":[{"type":"text","encryptedContent":"{{slack-bot-token}}"}]}}
{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-11-20T10:00:02Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"send_email","content":[{"type":"text","text":"sent"}],"details":{"signature":"Jane Roe {{huggingface-token}}"}}}
`
	s, secrets := planted(t, tmpl, 12)
	redactor(t, Options{Secrets: true, Literals: []string{literal}}).Session(s)
	after := dump(t, s)
	for _, leak := range fakesecret.Leaks(after, secrets) {
		t.Errorf("survived: %s", leak)
	}
	if bytes.Contains(bytes.ToLower(after), []byte("globex")) {
		t.Errorf("the user's word survived in a signature or a blob")
	}
	// The blobs themselves stay as they are, around the word masked.
	if n := strings.Count(string(after), blob); n < 3 {
		t.Errorf("a provider's blob was changed: %d of 3 intact", n)
	}
}

// TestOpaqueStrings reads which strings are a provider's blobs.
func TestOpaqueStrings(t *testing.T) {
	for _, tc := range []struct {
		json string
		want []string // the strings that are blobs
	}{
		{`{"type":"thinking","thinking":"t","thinkingSignature":"S1"}`, []string{"S1"}},
		{`{"thinkingSignature":"S1","thinking":"t","type":"thinking"}`, []string{"S1"}},
		{`{"signature":"S1"}`, nil},
		{`{"type":"toolCall","arguments":{"signature":"S1"}}`, nil},
		{`[{"type":"text","text":"a","textSignature":"S1"},{"type":"reasoning","encrypted_content":"S2","summary":[{"type":"x","signature":"S3"}]}]`, []string{"S1", "S2"}},
		{`{"type":"redacted_thinking","data":"S1","more":{"data":"S2"}}`, []string{"S1"}},
		{`{"type":"thinking","signature":["S1"],"thinkingSignature":5}`, nil},
		{`{"type":"thinking","sig\u006eature":"S1"}`, []string{"S1"}},
		{`{"type":"thinking","signature":"S1"`, nil}, // cut short: the object never closes
	} {
		raw := []byte(tc.json)
		got := opaqueStrings(raw)
		var texts []string
		eachJSONString(raw, func(js jsonString, text string) {
			if got[js.start] {
				texts = append(texts, text)
			}
		})
		if strings.Join(texts, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: blobs %q, want %q", tc.json, texts, tc.want)
		}
	}
}

func TestImageLen(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"data:image/png;base64,QUJD\nkey", len("data:image/png;base64,QUJD")},
		{"data:image/png;base64,QUJD==key", len("data:image/png;base64,QUJD==")},
		{"data:image/svg+xml;utf8,<svg/>", 0},
		{"data:image/png", 0},
		{pngBase64 + " caption", len(pngBase64)},
		{pngBase64, len(pngBase64)},
		{strings.Repeat("QUJD", 20), 0}, // base64, not of an image
		{"plain text", 0},
	} {
		if got := imageLen(tc.s); got != tc.want {
			t.Errorf("imageLen(%.40q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
