// Package fakesecret makes fake secrets in the formats of real ones: AWS
// keys, GitHub and GitLab tokens, private keys, connection strings. They
// are made at test time from a seed, so that no string in the repository
// looks like a secret to a scanner, while the tests' sessions are full of
// them.
package fakesecret

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Secret is one fake secret.
type Secret struct {
	// Kind names the format it imitates.
	Kind string
	// Text is what is planted: the secret with the context its format
	// comes in (a header, a connection string, a whole .env file).
	Text string
	// Values are the parts of Text that must not survive redaction.
	Values []string
}

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lower + digits
	hexLow = "0123456789abcdef"
	b64    = alnum + "+/"
	url64  = alnum + "-_"
)

// Gen makes fake secrets. The same seed makes the same secrets.
type Gen struct {
	r *rand.Rand
}

// New returns a generator seeded with seed.
func New(seed uint64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, 0x5ec2e7))}
}

// chars returns n characters drawn from set, with at least one of each
// kind the set has (upper, lower, digit), as real tokens do.
func (g *Gen) chars(set string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = set[g.r.IntN(len(set))]
		}
		s := string(b)
		if n < 8 || mixed(s, set) {
			return s
		}
	}
}

func mixed(s, set string) bool {
	for _, class := range []string{upper, lower, digits} {
		if strings.ContainsAny(set, class) && !strings.ContainsAny(s, class) {
			return false
		}
	}
	return true
}

// Kinds lists every kind Make knows, in a fixed order.
func Kinds() []string {
	kinds := make([]string, len(makers))
	for i, m := range makers {
		kinds[i] = m.kind
	}
	return kinds
}

// Make returns a new fake secret of the given kind.
func (g *Gen) Make(kind string) Secret {
	for _, m := range makers {
		if m.kind == kind {
			s := m.make(g)
			s.Kind = kind
			return s
		}
	}
	panic("fakesecret: no kind " + kind)
}

// one is a secret that is its own text.
func one(v string) Secret { return Secret{Text: v, Values: []string{v}} }

var makers = []struct {
	kind string
	make func(g *Gen) Secret
}{
	{"aws-access-key-id", func(g *Gen) Secret { return one("AKIA" + g.chars(upper+"234567", 16)) }},
	{"aws-secret-access-key", func(g *Gen) Secret {
		v := g.chars(b64, 40)
		return Secret{Text: "aws_secret_access_key = " + v, Values: []string{v}}
	}},
	{"github-pat", func(g *Gen) Secret { return one("ghp" + "_" + g.chars(alnum, 36)) }},
	{"github-fine-grained-pat", func(g *Gen) Secret {
		return one("github" + "_pat_" + "11" + g.chars(upper+digits, 20) + "_" + g.chars(alnum, 59))
	}},
	{"github-oauth", func(g *Gen) Secret { return one("gho" + "_" + g.chars(alnum, 36)) }},
	{"gitlab-pat", func(g *Gen) Secret { return one("glpat" + "-" + g.chars(alnum, 20)) }},
	{"slack-bot-token", func(g *Gen) Secret {
		return one("xoxb" + "-" + g.chars(digits, 12) + "-" + g.chars(digits, 13) + "-" + g.chars(alnum, 24))
	}},
	{"slack-webhook", func(g *Gen) Secret {
		path := "T" + g.chars(upper+digits, 8) + "/B" + g.chars(upper+digits, 10) + "/" + g.chars(alnum, 24)
		return Secret{Text: "https://hooks." + "slack.com/services/" + path, Values: []string{path}}
	}},
	{"stripe-secret-key", func(g *Gen) Secret { return one("sk" + "_live_" + "51" + g.chars(alnum, 46)) }},
	{"stripe-restricted-key", func(g *Gen) Secret { return one("rk" + "_live_" + "51" + g.chars(alnum, 46)) }},
	{"openai-api-key", func(g *Gen) Secret {
		return one("sk-" + "proj-" + g.chars(url64, 74) + "T3Blbk" + "FJ" + g.chars(url64, 74))
	}},
	{"anthropic-api-key", func(g *Gen) Secret {
		return one("sk-ant-" + "api03-" + g.chars(url64, 93) + "AA")
	}},
	{"google-api-key", func(g *Gen) Secret { return one("AI" + "za" + "Sy" + g.chars(url64, 33)) }},
	{"gcp-service-account", func(g *Gen) Secret {
		key := g.pem("PRIVATE KEY", 26)
		id := g.chars(hexLow, 40)
		text := fmt.Sprintf(`{
  "type": "service_account",
  "project_id": "acme-prod-%s",
  "private_key_id": "%s",
  "private_key": %q,
  "client_email": "deployer@acme-prod.iam.gserviceaccount.com",
  "client_id": "1%s",
  "token_uri": "https://oauth2.googleapis.com/token"
}`, g.chars(digits, 4), id, key.Text, g.chars(digits, 20))
		return Secret{Text: text, Values: key.Values}
	}},
	{"npm-token", func(g *Gen) Secret { return one("npm" + "_" + g.chars(lower+digits, 36)) }},
	{"pypi-token", func(g *Gen) Secret { return one("pypi-" + "AgEIcHlwaS5vcmc" + g.chars(url64, 70)) }},
	{"huggingface-token", func(g *Gen) Secret { return one("hf" + "_" + g.chars(upper+lower, 34)) }},
	{"azure-client-secret", func(g *Gen) Secret {
		return one(g.chars(alnum, 3) + g.chars(digits, 1) + "Q~" + g.chars(alnum+"_~.", 34))
	}},
	{"azure-storage-key", func(g *Gen) Secret {
		key := g.chars(b64, 86) + "=="
		return Secret{Text: "DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=" + key + ";EndpointSuffix=core.windows.net", Values: []string{key}}
	}},
	{"twilio-api-key", func(g *Gen) Secret { return one("SK" + g.chars(hexLow, 32)) }},
	{"sendgrid-api-key", func(g *Gen) Secret { return one("SG" + "." + g.chars(url64, 22) + "." + g.chars(url64, 43)) }},
	{"jwt", func(g *Gen) Secret {
		enc := base64.RawURLEncoding.EncodeToString
		head := enc([]byte(`{"alg":"HS256","typ":"JWT"}`))
		body := enc(fmt.Appendf(nil, `{"sub":"%s","name":"Dana","iat":%d}`, g.chars(digits, 10), 1700000000+g.r.IntN(9999999)))
		return one(head + "." + body + "." + g.chars(url64, 43))
	}},
	{"rsa-private-key", func(g *Gen) Secret { return g.pem("RSA PRIVATE KEY", 25) }},
	{"openssh-private-key", func(g *Gen) Secret { return g.pem("OPENSSH PRIVATE KEY", 7) }},
	{"postgres-url", func(g *Gen) Secret {
		pw := g.chars(alnum, 18)
		return Secret{Text: "postgres://app_rw:" + pw + "@db.internal.acme.io:5432/orders", Values: []string{pw}}
	}},
	{"mongodb-url", func(g *Gen) Secret {
		pw := g.chars(alnum, 16)
		return Secret{Text: "mongodb+srv://admin:" + pw + "@cluster0.x8k2p.mongodb.net/prod", Values: []string{pw}}
	}},
	{"authorization-bearer", func(g *Gen) Secret {
		tok := g.chars(alnum, 40)
		return Secret{Text: "Authorization: Bearer " + tok, Values: []string{tok}}
	}},
	{"authorization-basic", func(g *Gen) Secret {
		cred := base64.StdEncoding.EncodeToString([]byte("svc-deploy:" + g.chars(alnum, 14)))
		return Secret{Text: "Authorization: Basic " + cred, Values: []string{cred}}
	}},
	{"dotenv", func(g *Gen) Secret {
		pw, sk, sess := g.chars(alnum+"!#%", 16), g.chars(alnum, 50), g.chars(hexLow, 64)
		text := "# local settings\nNODE_ENV=production\nPORT=8080\nDB_PASSWORD=" + pw +
			"\nSECRET_KEY_BASE=" + sk + "\nSESSION_SIGNING=" + sess + "\nLOG_LEVEL=info\n"
		return Secret{Text: text, Values: []string{pw, sk, sess}}
	}},
	{"password-assignment", func(g *Gen) Secret {
		pw := g.chars(alnum, 10) + "!" + g.chars(digits, 3)
		return Secret{Text: `db_password = "` + pw + `"`, Values: []string{pw}}
	}},
	{"digitalocean-token", func(g *Gen) Secret { return one("dop" + "_v1_" + g.chars(hexLow, 64)) }},
	{"shopify-token", func(g *Gen) Secret { return one("shpat" + "_" + g.chars(hexLow, 32)) }},
	{"linear-api-key", func(g *Gen) Secret { return one("lin" + "_api_" + g.chars(alnum, 40)) }},
	{"vault-token", func(g *Gen) Secret { return one("hvs" + "." + "CAESI" + g.chars(url64, 90)) }},
	{"age-secret-key", func(g *Gen) Secret {
		return one("AGE-SECRET-" + "KEY-1" + g.chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58))
	}},
}

// pem makes a private key block with lines of base64, whose lines are
// the values.
func (g *Gen) pem(label string, lines int) Secret {
	var b strings.Builder
	var values []string
	b.WriteString("-----BEGIN " + label + "-----\n")
	for i := range lines {
		n := 64
		if i == lines-1 {
			n = 44
		}
		line := g.chars(b64, n)
		if i == 0 && strings.HasPrefix(label, "OPENSSH") {
			line = "b3BlbnNzaC1rZXktdjEAAAAA" + line[24:]
		}
		values = append(values, line)
		b.WriteString(line + "\n")
	}
	b.WriteString("-----END " + label + "-----")
	return Secret{Text: b.String(), Values: values}
}

// Fill replaces each marker of tmpl, {{kind}} or {{kind#n}} for a second
// (third…) secret of a kind, with a fake secret of that kind, escaped for
// a JSON string: tmpl is a session file whose strings hold the markers.
// The same marker gets the same secret. It returns the secrets planted,
// in the order their markers first appear.
func (g *Gen) Fill(tmpl string) (string, []Secret) {
	made := map[string]Secret{}
	var order []Secret
	var b strings.Builder
	for {
		i := strings.Index(tmpl, "{{")
		if i < 0 {
			b.WriteString(tmpl)
			break
		}
		j := strings.Index(tmpl[i:], "}}")
		if j < 0 {
			panic("fakesecret: unclosed marker in template")
		}
		marker := tmpl[i+2 : i+j]
		b.WriteString(tmpl[:i])
		s, ok := made[marker]
		if !ok {
			kind, _, _ := strings.Cut(marker, "#")
			s = g.Make(kind)
			made[marker] = s
			order = append(order, s)
		}
		q, _ := json.Marshal(s.Text)
		b.Write(q[1 : len(q)-1])
		tmpl = tmpl[i+j+2:]
	}
	return b.String(), order
}

// Leaks returns the values of secrets that out still holds, whole or in
// part: any run of twelve letters and digits from a value counts (so
// escaping, or a value cut in two, does not hide a leak); a value without
// such a run counts only whole.
func Leaks(out []byte, secrets []Secret) []string {
	var leaks []string
	for _, s := range secrets {
		for _, v := range s.Values {
			for _, probe := range probes(v) {
				if bytes.Contains(out, []byte(probe)) {
					leaks = append(leaks, fmt.Sprintf("%s: %q (found %q)", s.Kind, v, probe))
					break
				}
			}
		}
	}
	return leaks
}

// probes returns the pieces of v whose presence shows that v leaked.
func probes(v string) []string {
	const n = 12
	var out []string
	run := 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && isAlnum(v[i]) {
			run++
			continue
		}
		if run >= n {
			start := i - run
			for k := start; k+n <= i; k += n / 2 {
				out = append(out, v[k:k+n])
			}
			out = append(out, v[i-n:i])
		}
		run = 0
	}
	if len(out) == 0 {
		out = append(out, v)
	}
	return out
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
