package redact

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
)

// TestPairedSecrets: the secret that goes with an id is masked near it,
// in prose, a CSV row or a credentials file; strings of its shape that
// are no secret, or far from an id, are not.
func TestPairedSecrets(t *testing.T) {
	g := fakesecret.New(11)
	id := g.Make("aws-access-key-id").Values[0]
	secret := g.Make("aws-secret-access-key").Values[0]
	const ali = "LTAI5tQ8Zk2mW9xR4vB7nP1c"
	const aliSecret = "h7Kd2LmQ9xW4zR1vB8nT3cY6pF0sJa"
	far := strings.Repeat("a line between\n", 8)
	tests := []struct {
		name, text, want string
	}{
		{"prose", "My AWS key is " + id + " and secret " + secret,
			"My AWS key is [REDACTED:aws-access-token#1] and secret [REDACTED:aws-secret-access-key#1]"},
		{"secret first", "secret " + secret + "\nid " + id,
			"secret [REDACTED:aws-secret-access-key#1]\nid [REDACTED:aws-access-token#1]"},
		{"csv", "Access key ID,Secret access key\n" + id + "," + secret + "\n",
			"Access key ID,Secret access key\n[REDACTED:aws-access-token#1],[REDACTED:aws-secret-access-key#1]\n"},
		{"three lines below", id + "\n\n\nthe secret: " + secret,
			"[REDACTED:aws-access-token#1]\n\n\nthe secret: [REDACTED:aws-secret-access-key#1]"},
		{"same value elsewhere", id + " " + secret + "\n" + far + "again " + secret,
			"[REDACTED:aws-access-token#1] [REDACTED:aws-secret-access-key#1]\n" + far + "again [REDACTED:aws-secret-access-key#1]"},
		{"too far", id + "\n" + far + secret, "[REDACTED:aws-access-token#1]\n" + far + secret},
		{"no id", "a hash " + secret, "a hash " + secret},
		{"git hash near an id", id + " at commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
			"[REDACTED:aws-access-token#1] at commit 9fceb02d0ae598e95dc970b74767f19372d61af8"},
		{"longer run", id + " blob " + secret + "Q", "[REDACTED:aws-access-token#1] blob " + secret + "Q"},
		{"camel case", id + " in FetchUserAccountSettingsForAdmin1Now", "[REDACTED:aws-access-token#1] in FetchUserAccountSettingsForAdmin1Now"},
		{"alibaba", "id " + ali + " secret " + aliSecret,
			"id [REDACTED:alibaba-access-key-id#1] secret [REDACTED:alibaba-secret-key#1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mask(t, tc.text); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
