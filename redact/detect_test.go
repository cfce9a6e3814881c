package redact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/internal/sessiongen"
)

// mask runs the full redactor on one text and returns it masked.
func mask(t *testing.T, text string) string {
	t.Helper()
	d, err := builtin()
	if err != nil {
		t.Fatal(err)
	}
	return maskString(d, text, true)
}

// TestRules masks secrets in the contexts gitleaks' rules leave to this
// package's: values named as secret, Authorization headers, URLs with a
// password, keys cut short, .env files; and secrets in prose, followed by
// punctuation a source file would not have.
func TestRules(t *testing.T) {
	g := fakesecret.New(7)
	anthropic := g.Make("anthropic-api-key").Text
	openai := g.Make("openai-api-key").Text
	pem := g.Make("rsa-private-key")
	tests := []struct {
		name, text, want string
	}{
		{"assignment", `DB_PASSWORD=hunter2hunter`, `DB_PASSWORD=[REDACTED:secret-assignment#1]`},
		{"yaml", "db:\n  password: correcthorse\n", "db:\n  password: [REDACTED:secret-assignment#1]\n"},
		{"json key", `{"client_secret": "Zq81kq0PLm2nB7vC"}`, `{"client_secret": "[REDACTED:secret-assignment#1]"}`},
		{"go", `apiKey := "a8Fk2mQ9xL0pR7sT3vW5"`, `apiKey := "[REDACTED:secret-assignment#1]"`},
		{"header", `fetch(u, {headers: {Authorization: "Bearer a8Fk2mQ9xL0pR7sT3vW5yZ1"}})`, `fetch(u, {headers: {Authorization: "Bearer [REDACTED:authorization-header#1]"}})`},
		{"curl header", `curl -H "Authorization: Bearer a8Fk2mQ9xL0pR7sT3vW5yZ1" x`, `curl -H "Authorization: Bearer [REDACTED:curl-auth-header#1]" x`},
		{"basic", `Authorization: Basic c3ZjOmE4RmsybVE5eEwwcA==`, `Authorization: Basic [REDACTED:authorization-header#1]`},
		{"url", `psql postgres://app:s3cr3t-pw@db:5432/x`, `psql postgres://app:[REDACTED:url-password#1]@db:5432/x`},
		{"url pass", `postgres://user:pass@localhost/db`, `postgres://user:[REDACTED:url-password#1]@localhost/db`},
		{"url token user", `https://x-access-token:Zq81kq0PLm2nB7vC@github.com/o/r`, `https://x-access-token:[REDACTED:url-password#1]@github.com/o/r`},
		{"prose comma", "my key is " + anthropic + ", thanks", "my key is [REDACTED:anthropic-api-key#1], thanks"},
		{"prose period", "Use " + openai + ".", "Use [REDACTED:openai-api-key#1]."},
		{"markdown", "**" + anthropic + "**", "**[REDACTED:anthropic-api-key#1]**"},
		{"pem", "key:\n" + pem.Text + "\ndone", "key:\n[REDACTED:private-key#1]\ndone"},
		{"pem cut short", "key:\n" + pem.Text[:400] + "\n[output truncated]", "key:\n[REDACTED:private-key#1]\n[output truncated]"},
		{"pem escaped", `"private_key": "` + strings.ReplaceAll(pem.Text, "\n", `\n`) + `"`, `"private_key": "[REDACTED:private-key#1]"`},
		{"dotenv", "NODE_ENV=production\nSESSION_SIGNING=4f9a0c2b8e7d6a5f4e3d2c1b0a9f8e7d\nPORT=80\n", "NODE_ENV=production\nSESSION_SIGNING=[REDACTED:dotenv-secret#1]\nPORT=80\n"},
		{"same value twice", "a " + anthropic + " b " + anthropic, "a [REDACTED:anthropic-api-key#1] b [REDACTED:anthropic-api-key#1]"},
		{"url password word", `DATABASE_URL=postgres://postgres:password@localhost:5432/app`, `DATABASE_URL=postgres://postgres:[REDACTED:url-password#1]@localhost:5432/app`},
		{"url password variable", `postgres://app:${PGPASSWORD}@db/x`, `postgres://app:${PGPASSWORD}@db/x`},
		{"sk prefix", "openrouter: 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.", "openrouter: [REDACTED:sk-api-key#1]."},
		{"oauth client secret", `secret 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 and more`, `secret [REDACTED:google-oauth-client-secret#1] and more`},
		{"sas signature", `https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2026-01-01&sig=kA8%2Fq3Lm9Zx2Wv7Rt5Yp1Nc4Bd6Fh0Jk%3D done`, `https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&se=2026-01-01&sig=[REDACTED:url-signature#1] done`},
		{"found elsewhere", "PASSWORD=Tr0ub4dor&3x\nthen I typed Tr0ub4dor&3x again", "PASSWORD=[REDACTED:secret-assignment#1]\nthen I typed [REDACTED:secret-assignment#1] again"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mask(t, tc.text); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestLookAlikes leaves alone what looks like a secret and is not.
func TestLookAlikes(t *testing.T) {
	for _, text := range []string{
		"Choose a strong password: at least 12 characters, and never reuse a token.",
		"the password field is required; password: string; token?: string",
		"request 3f9b2c7e-41d5-4a8e-9c2f-6b1d0e7a8f35 failed",
		"commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Dana",
		"color: #1f6feb; background-color: #0d1117; border: 1px solid #30363d;",
		`"integrity": "sha512-Ql9Pr3kq1cI1RvT2QzC9J9f7f0V3lZ5lq3k1y8w6s6yJ9hYQmGq1YwP0r8yZ0k5Qm3t3bJ6Fv0bB0r3Xl8wM1A=="`,
		"github.com/google/go-cmp v0.7.0 h1:wk8382ETsv4JYUZwIsn6YpYiWiBsYLSJiTsyBybVuN8=",
		"--- PASS: TestLogin/wrong_password (0.01s)\n--- PASS: TestToken (0.00s)",
		"max_tokens: 4096\ntemperature: 0.2",
		`sort_key: "created_at"`,
		`const password = process.env.DB_PASSWORD;`,
		`password: ${{ secrets.DB_PASSWORD }}`,
		`export GITHUB_TOKEN=$GITHUB_TOKEN`,
		`DATABASE_URL=postgres://localhost:5432/app`,
		"the API key goes in the Authorization header as a Bearer token",
		"keyboard shortcuts: monkey=banana",
		`"thinkingSignature": "EqQBCkgIARABGAIiQJ8b2Kq+u7m9Vh5Wm3n0J1kz3YwZ4aR8xP6fT0cL2dQ5sN7gH9jE1bU3vK6yX4oM8iA2qW0eD5tF7rG9hJ1lC3nBEgzx0H2kP4sR6vT8w=="`,
		"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"CREATE INDEX idx_token ON sessions (token_hash);",
		"pip install scikit-learn; import sklearn as sk-learn; task-sk-12",
		"the signature=valid check and ?sig=short",
	} {
		if got := mask(t, text); got != text {
			t.Errorf("changed:\n got %q\nfrom %q", got, text)
		}
	}
}

// TestFindsWhatGitleaksFinds checks that running each rule only where its
// keywords are (anchored, with its gate, or in a window) finds every
// secret its whole regex finds, as gitleaks runs it, on texts full of
// secrets and on a generated session.
func TestFindsWhatGitleaksFinds(t *testing.T) {
	d, err := builtin()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	text, _ := fakesecret.New(3).Fill(readTemplate(t))
	var gen bytes.Buffer
	if err := sessiongen.Write(&gen, sessiongen.Options{Seed: 2, TargetBytes: 300 << 10, Branches: true}); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{text, gen.String()} {
		sc := bufio.NewScanner(strings.NewReader(src))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var v any
			if json.Unmarshal(sc.Bytes(), &v) == nil {
				texts = appendStrings(texts, v)
			}
		}
	}
	for _, kind := range fakesecret.Kinds() {
		texts = append(texts, "x "+fakesecret.New(9).Make(kind).Text+" y")
	}
	checked := 0
	for _, text := range texts {
		found := d.find(text)
		lower := strings.ToLower(text)
		for _, r := range d.rules {
			if r.expr == "" || !slices.ContainsFunc(r.keywords, func(k string) bool { return strings.Contains(lower, k) }) {
				continue // gitleaks runs a rule only when its keywords are in the text
			}
			for _, loc := range r.whole().FindAllStringSubmatchIndex(text, -1) {
				want := d.accept(r, text, loc, nil)
				if len(want) == 0 {
					continue
				}
				if match := strings.ToLower(text[loc[0]:loc[1]]); !slices.ContainsFunc(r.keywords, func(k string) bool { return strings.Contains(match, k) }) {
					// A match without a keyword: sourcegraph-access-token
					// takes any 40 hex digits (a git commit) anywhere in a
					// text that names Sourcegraph. Rules run only around
					// their keywords here.
					continue
				}
				checked++
				w := want[0]
				ok := false
				for _, f := range found {
					if f.start <= w.start && w.end <= f.end {
						ok = true
						break
					}
				}
				if !ok {
					t.Errorf("%s: %q found by the whole regex, not by the detector", r.id, text[w.start:w.end])
				}
			}
		}
	}
	if checked < len(fakesecret.Kinds()) {
		t.Errorf("only %d secrets checked", checked)
	}
}

func appendStrings(out []string, v any) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = appendStrings(out, e)
		}
	case map[string]any:
		for _, e := range x {
			out = appendStrings(out, e)
		}
	}
	return out
}

// TestEveryKindInContext masks each kind of token in the contexts a
// conversation has them in: prose with punctuation, Markdown, JSON, YAML,
// shell, URLs (as a user, in a query), a table.
func TestEveryKindInContext(t *testing.T) {
	g := fakesecret.New(11)
	ctxs := []string{
		"%s",
		"Here it is: %s",
		"`%s`",
		"```\n%s\n```",
		"key=%s",
		"export TOKEN=\"%s\"",
		`{"auth": "%s"}`,
		"token: %s",
		"- %s",
		"(%s)",
		"'%s'",
		"<code>%s</code>",
		"curl -u admin:%s https://x",
		"https://%s@github.com/o/r.git",
		"https://oauth2:%s@gitlab.com/o/r.git",
		"//registry.npmjs.org/:_authToken=%s",
		"docker login -u me -p %s registry.io",
		"?api_key=%s&x=1",
		"Error: invalid token %s.",
		"| prod | %s |",
		"value=%s;",
		"%s\n",
	}
	for _, kind := range fakesecret.Kinds() {
		switch kind { // kinds that bring their own context: see TestRules
		case "dotenv", "gcp-service-account", "rsa-private-key", "openssh-private-key", "postgres-url", "mongodb-url", "authorization-bearer", "authorization-basic", "password-assignment", "aws-secret-access-key", "azure-storage-key", "slack-webhook":
			continue
		}
		s := g.Make(kind)
		for _, c := range ctxs {
			text := strings.Replace(c, "%s", s.Text, 1)
			out := mask(t, text)
			if len(fakesecret.Leaks([]byte(out), []fakesecret.Secret{s})) > 0 {
				t.Errorf("%s in %q: %q", kind, c, out)
			}
		}
	}
}
