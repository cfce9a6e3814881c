package redact

import (
	"bytes"
	"strings"
	"testing"
)

// TestShortSecretNames (issue 33, item 11): short and run-together names
// of secrets (pw=, dbpassword=, clientsecret=, accesstoken=) name them as
// well as DB_PASSWORD does; words that end the same way (bypass,
// monkey) do not.
func TestShortSecretNames(t *testing.T) {
	const masked = "" // masked, by whichever rule
	for _, tc := range []struct{ text, want string }{
		{"pw=Tr0ub4dor&3xyzzyQ", "pw=[REDACTED:secret-assignment#1]"},
		{"login with PW: Tr0ub4dor&3xyzzyQ", "login with PW: [REDACTED:secret-assignment#1]"},
		{`db_pw = "correct-horse-battery"`, `db_pw = "[REDACTED:secret-assignment#1]"`},
		{"rootpw=Xk2!vq93Lm", "rootpw=[REDACTED:secret-assignment#1]"},
		{"psk=Zq8vP2mWx7Lk", masked},
		{"passcode: 4821-7730", "passcode: [REDACTED:secret-assignment#1]"},
		{"dbpassword=s3cr3t-pa55", "dbpassword=[REDACTED:secret-assignment#1]"},
		{"clientsecret=hunter2hunter", "clientsecret=[REDACTED:secret-assignment#1]"},
		{"accesstoken=Hk4Tq9Wz2Lm7Xc3Vb8Np", masked},
		{"privatekey=Hk4Tq9Wz2Lm7Xc3Vb8Np", masked},
		{"adminpass=Tr0ub4dor", "adminpass=[REDACTED:secret-assignment#1]"},
		{"bypass=Tr0ub4dor", "bypass=Tr0ub4dor"},
		{"monkey=Tr0ub4dor", "monkey=Tr0ub4dor"},
		{"compass: N48.2 E16.3", "compass: N48.2 E16.3"},
		{"maxtokens=4096", "maxtokens=4096"},
	} {
		got := mask(t, tc.text)
		value := tc.text[strings.IndexAny(tc.text, "=:")+1:]
		value = strings.Trim(value, ` "`)
		switch {
		case tc.want == masked && strings.Contains(got, value):
			t.Errorf("%q: got %q, the value unmasked", tc.text, got)
		case tc.want != masked && got != tc.want:
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
	// In a label, the field the issue met it in.
	s := read(t, "s.jsonl", header+userLine("u1", "", "hi")+
		`{"type":"label","id":"l1","parentId":"u1","targetId":"u1","label":"pw=Tr0ub4dor&3xyzzyQ","timestamp":"2026-11-20T10:00:02.000Z"}`+"\n")
	redactor(t, Options{Secrets: true}).Session(s)
	if out := dump(t, s); bytes.Contains(out, []byte("Tr0ub4dor")) {
		t.Errorf("the label keeps the password")
	}
}
