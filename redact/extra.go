package redact

import (
	"regexp"
	"strings"
)

// This package's own rules, for what gitleaks' rule set leaves to context
// a repository scanner has (file names) or to the value's shape alone:
// values that an assignment names as secret, Authorization headers, URLs
// with a password, private key blocks cut short, and .env files.

// ownRules returns this package's rules.
func ownRules() ([]*rule, error) {
	rules := []*rule{
		{id: "private-key", keywords: []string{"-----begin"}, find: findPrivateKeys, rank: rankSpecific},
		{id: "authorization-header", keywords: []string{"authorization", "bearer"}, find: findAuthorization, rank: rankShaped},
		{id: "url-password", keywords: []string{"://"}, find: findURLPasswords, rank: rankShaped},
		{id: "secret-assignment", keywords: secretWordKeywords, find: findAssignments, rank: rankNamed},
		{id: "url-signature", keywords: signatureParams, find: findSignatures, rank: rankShaped},
		{id: "dotenv-secret", find: findDotenv, rank: rankNamed},
	}
	rules = append(rules, pairedRules()...)
	return append(rules, prefixedRules()...), nil
}

var privateKeyHead = regexp.MustCompile(`^-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`)

// findPrivateKeys finds private key blocks, PEM and OpenSSH, whole: from
// the BEGIN line to the END line, or, for a block cut short (a truncated
// tool output, a partial paste), to the end of its base64 body. Newlines
// may be real or written as \n (a key inside JSON shown as text).
func findPrivateKeys(text string, hits []int) [][2]int {
	var out [][2]int
	next := 0
	for _, p := range hits {
		if p < next {
			continue
		}
		head := privateKeyHead.FindStringIndex(text[p:])
		if head == nil {
			continue
		}
		i := p + head[1]
		for i < len(text) {
			switch c := text[i]; {
			case isBase64Byte(c) || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':' || c == '.':
				i++
			case c == '\\' && i+1 < len(text) && (text[i+1] == 'n' || text[i+1] == 'r'):
				i += 2
			case c == '-' && strings.HasPrefix(text[i:], "-----END"):
				end := strings.Index(text[i+8:], "-----")
				if end >= 0 && end < 120 {
					i += 8 + end + 5
				}
				goto done
			case c == '-':
				i++ // DEK-Info and Proc-Type headers
			default:
				goto done
			}
		}
	done:
		end := i
		for end > p && strings.ContainsRune(" \t\r\n", rune(text[end-1])) {
			end--
		}
		out = append(out, [2]int{p, end})
		next = end
	}
	return out
}

func isBase64Byte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}

var (
	authorizationValue = regexp.MustCompile(`^(?i)(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*\\?["']?[ \t]*(?:(?:bearer|basic|token|digest|apikey|api-key|negotiate|ntlm|sso-key|key)[ \t]+)?([^\s"'\x60,;\\]+)`)
	bearerValue        = regexp.MustCompile(`^(?i)bearer[ \t]+([A-Za-z0-9\-._~+/]{16,}=*)`)
)

// findAuthorization finds the credentials of Authorization headers
// (`Authorization: Bearer …`, `authorization="token …"`) and of bare
// `Bearer …` tokens.
func findAuthorization(text string, hits []int) [][2]int {
	var out [][2]int
	for _, p := range hits {
		if p > 0 && isWordByte(text[p-1]) && !isSeparator(text[p-1]) {
			continue
		}
		re := authorizationValue
		if lower(text[p]) == 'b' {
			re = bearerValue
		}
		m := re.FindStringSubmatchIndex(text[p:min(len(text), p+1024)])
		if m == nil || m[2] < 0 {
			continue
		}
		v := text[p+m[2] : p+m[3]]
		if placeholder(v) || !looksRandom(v) {
			continue
		}
		out = append(out, [2]int{p + m[2], p + m[3]})
	}
	return out
}

// findURLPasswords finds the password of URLs that carry one:
// postgres://user:PASSWORD@host, https://x-token:PASSWORD@github.com, and
// a token given as the user, https://TOKEN@github.com.
func findURLPasswords(text string, hits []int) [][2]int {
	var out [][2]int
	for _, p := range hits {
		// a scheme before ://
		s := p
		for s > 0 && (isWordByte(text[s-1]) || text[s-1] == '+' || text[s-1] == '.' || text[s-1] == '-') {
			s--
		}
		if s == p {
			continue
		}
		rest := text[p+3 : min(len(text), p+3+512)]
		stop := strings.IndexAny(rest, "/?#\"'`<>\\ \t\r\n")
		if stop >= 0 {
			rest = rest[:stop]
		}
		at := strings.LastIndexByte(rest, '@')
		if at < 0 {
			continue
		}
		colon := strings.IndexByte(rest[:at], ':')
		if colon < 0 {
			// https://TOKEN@github.com: a token as the user.
			if user := rest[:at]; len(user) >= 16 && (looksRandom(user) || mixedCaseRandom(user)) {
				out = append(out, [2]int{p + 3, p + 3 + at})
			}
			continue
		}
		pw := rest[colon+1 : at]
		if pw == "" || variableRef.MatchString(pw) || strings.HasPrefix(pw, "<") || strings.HasPrefix(pw, "{{") || pw == strings.Repeat("*", len(pw)) || strings.HasPrefix(pw, "[REDACTED") {
			continue // postgres://u:${PGPASSWORD}@…; but user:password@ is a password
		}
		start := p + 3 + colon + 1
		out = append(out, [2]int{start, start + len(pw)})
	}
	return out
}

// Tokens that announce themselves by a prefix, of services gitleaks' rule
// set (as copied) does not know: each is masked wherever it stands as a
// word and looks random after its prefix.
var prefixed = []struct {
	id, prefix string
	minBody    int
}{
	{"sk-api-key", "sk-", 20}, // OpenAI without T3BlbkFJ, OpenRouter, DeepSeek and others
	{"google-oauth-client-secret", "GOCSPX-", 24},
	{"google-oauth-access-token", "ya29.", 40},
	{"groq-api-key", "gsk_", 40},
	{"replicate-api-token", "r8_", 30},
	{"xai-api-key", "xai-", 40},
	{"langsmith-api-key", "lsv2_", 40},
	{"nvidia-api-key", "nvapi-", 40},
	{"tavily-api-key", "tvly-", 24},
}

func prefixedRules() []*rule {
	var rules []*rule
	for _, p := range prefixed {
		rules = append(rules, &rule{id: p.id, keywords: []string{strings.ToLower(p.prefix)}, rank: rankShaped,
			find: func(text string, hits []int) [][2]int {
				var out [][2]int
				for _, h := range hits {
					if h > 0 && (isAlnum(text[h-1]) || text[h-1] == '-' || text[h-1] == '_') || !strings.HasPrefix(text[h:], p.prefix) {
						continue // inside a word, or another case
					}
					end := h + len(p.prefix)
					for end < len(text) && (isAlnum(text[end]) || text[end] == '-' || text[end] == '_') {
						end++
					}
					if body := text[h+len(p.prefix) : end]; len(body) >= p.minBody && looksRandom(body) {
						out = append(out, [2]int{h, end})
					}
				}
				return out
			}})
	}
	return rules
}

// signatureParams are the query parameters that sign a URL: Azure SAS,
// S3 and GCS presigned URLs.
var signatureParams = []string{"sig=", "signature=", "x-amz-signature=", "x-goog-signature=", "x-amz-security-token="}

// findSignatures finds the values of a URL's signing parameters.
func findSignatures(text string, hits []int) [][2]int {
	var out [][2]int
	for _, h := range hits {
		if h == 0 || (text[h-1] != '?' && text[h-1] != '&') {
			continue
		}
		start := h + strings.IndexByte(text[h:], '=') + 1
		end := start
		for end < len(text) && !strings.ContainsRune("&#\"'` \t\r\n<>", rune(text[end])) {
			end++
		}
		if end-start >= 16 {
			out = append(out, [2]int{start, end})
		}
	}
	return out
}

// mixedCaseRandom says whether v looks like a token of letters alone
// (hf_…): long, both cases, high entropy.
func mixedCaseRandom(v string) bool {
	return len(v) >= 24 && entropy(v) >= 3.8 && strings.ContainsAny(v, upperLetters) && strings.ContainsAny(v, lowerLetters)
}

const (
	upperLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowerLetters = "abcdefghijklmnopqrstuvwxyz"
)
