package redact

import (
	"regexp"
	"slices"
	"strings"
)

// secretWordKeywords find the names findAssignments looks at.
var secretWordKeywords = []string{"secret", "token", "pass", "pwd", "pw", "psw", "psk", "key", "credential", "creds", "auth"}

// Names that say their value is secret. A strong name is believed for
// any value that is not a placeholder; a weak one only for a value that
// looks random (`sort_key: "created_at"` is not a secret).
var (
	strongSecretWords = []string{"password", "passwd", "passphrase", "passcode", "pass", "pswd", "psw", "pw", "psk",
		"secret", "credential", "creds"}
	// pwd is weak: in code it is as often the working directory.
	weakSecretWords = []string{"apikey", "key", "token", "auth", "pwd"}
	nameSuffixes    = []string{"s", "_base", "_value", "_b64", "_base64", "_live", "_prod"}
)

// Most words must begin a part of the name (api_key, apiKey), but names
// are also written run together in lower case: dbpassword, clientsecret,
// accesstoken. The long words stand at the end of such a name as they
// are; the short ones end too many other words (bypass, monkey, oldpwd),
// and count run together only after a word that says whose secret it is.
var (
	runTogetherWords  = []string{"password", "passwd", "passphrase", "passcode", "secret", "credential", "token"}
	runTogetherOwners = []string{"db", "admin", "root", "user", "login", "master", "app", "api", "auth", "access",
		"secret", "private", "priv", "signing", "encryption", "hmac", "session", "client", "ssh", "smtp", "ftp",
		"sql", "mysql", "pg", "postgres", "redis", "mongo", "wifi", "wpa", "vnc", "license", "service", "account"}
)

// nameStrength says how strongly name says that its value is secret: 2
// strong, 1 weak, 0 not at all. The word must end the name (after it only
// a plural s or a suffix such as _BASE) and begin a part of it, or end a
// name written run together (see runTogetherWords): `api_key`, `apiKey`,
// `SECRET_KEY`, `X-Api-Key`, `pw` and `dbpassword` qualify, `monkey`,
// `bypass` and `key_id` do not.
func nameStrength(name string) int {
	lowerName := strings.ToLower(name)
	for _, suffix := range append([]string{""}, nameSuffixes...) {
		base, ok := strings.CutSuffix(lowerName, suffix)
		if !ok {
			continue
		}
		for strength, words := range [][]string{weakSecretWords, strongSecretWords} {
			for _, w := range words {
				if !strings.HasSuffix(base, w) {
					continue
				}
				at := len(base) - len(w)
				if !partStart(name, at) && !runTogether(base[:at], w) {
					continue
				}
				if w == "pass" && len(base) == len(w) {
					continue // "--- PASS: TestX" is a test run, DB_PASS a password
				}
				return strength + 1
			}
		}
	}
	return 0
}

// runTogether says whether word, after before in a name written without
// separators, ends a name of a secret (see runTogetherWords).
func runTogether(before, word string) bool {
	if slices.Contains(runTogetherWords, word) {
		return true
	}
	for _, o := range runTogetherOwners {
		if strings.HasSuffix(before, o) && partStart(before, len(before)-len(o)) {
			return true
		}
	}
	return false
}

// partStart says whether a part of an identifier starts at i: at its
// start, after a separator, or at a capital after a small letter.
func partStart(name string, i int) bool {
	if i == 0 {
		return true
	}
	prev, c := name[i-1], name[i]
	return isSeparator(prev) || !isWordByte(prev) || ('a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9') && 'A' <= c && c <= 'Z'
}

func isSeparator(c byte) bool { return c == '_' || c == '-' || c == '.' }

// findAssignments finds values assigned to names that say secret:
// `DB_PASSWORD=…`, `api_key: "…"`, `"clientSecret": "…"`, `--token …`
// is not one (no operator), `password := "…"` is.
func findAssignments(text string, hits []int) [][2]int {
	var out [][2]int
	lastName := -1
	for _, p := range hits {
		// The identifier the keyword is in.
		ns := p
		for ns > 0 && isNameByte(text[ns-1]) {
			ns--
		}
		ne := p
		for ne < len(text) && isNameByte(text[ne]) {
			ne++
		}
		if ns == lastName {
			continue // another keyword of the same name
		}
		if ns >= 3 && text[ns-3:ns] == "://" {
			continue // a URL's user: findURLPasswords reads its password
		}
		lastName = ns
		name := strings.TrimLeft(text[ns:ne], "-.")
		strength := nameStrength(name)
		if strength == 0 {
			continue
		}
		start, end, quoted, ok := assignedValue(text, ne)
		if !ok {
			continue
		}
		// A line of its own (YAML, INI, properties): `password: hunter`.
		lineStart := strings.LastIndexByte(text[:ns], '\n') + 1
		lineEnd := strings.IndexByte(text[end:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text) - end
		}
		ownLine := strings.TrimLeft(text[lineStart:ns], " \t-\"'") == "" && strings.TrimRight(text[end:end+lineEnd], " \t\r\"'`,;") == ""
		if acceptValue(text[start:end], quoted, ownLine, strength, name) {
			out = append(out, [2]int{start, end})
		}
	}
	return out
}

func isNameByte(c byte) bool { return isWordByte(c) || c == '-' || c == '.' }

// assignedValue reads `["']? OP VALUE` at i, where OP is =, :=, :, => or
// ->, and VALUE is quoted (the quotes left out) or runs to a space or
// punctuation. It returns the value's bytes.
func assignedValue(text string, i int) (start, end int, quoted, ok bool) {
	if i < len(text) && (text[i] == '"' || text[i] == '\'') {
		i++
	} else if i+1 < len(text) && text[i] == '\\' && text[i+1] == '"' {
		i += 2
	}
	i = skipBlanks(text, i)
	switch {
	case strings.HasPrefix(text[i:], ":="), strings.HasPrefix(text[i:], "=>"), strings.HasPrefix(text[i:], "->"):
		i += 2
	case strings.HasPrefix(text[i:], "=="), strings.HasPrefix(text[i:], "::"):
		return 0, 0, false, false
	case i < len(text) && (text[i] == '=' || text[i] == ':'):
		i++
	default:
		return 0, 0, false, false
	}
	i = skipBlanks(text, i)
	if i >= len(text) {
		return 0, 0, false, false
	}
	if q := quoteAt(text, i); q != "" {
		start = i + len(q)
		limit := min(len(text), start+1024)
		close := strings.Index(text[start:limit], q)
		if close < 0 {
			return 0, 0, false, false
		}
		if nl := strings.IndexByte(text[start:start+close], '\n'); nl >= 0 {
			return 0, 0, false, false
		}
		return start, start + close, true, true
	}
	start = i
	for i < len(text) && i-start < 1024 && !strings.ContainsRune(" \t\r\n\"'`,;)}]\\", rune(text[i])) {
		i++
	}
	return start, i, false, i > start
}

// quoteAt returns the quote that opens a string at i: ", ', ` or \".
func quoteAt(text string, i int) string {
	switch {
	case text[i] == '"' || text[i] == '\'' || text[i] == '`':
		return text[i : i+1]
	case strings.HasPrefix(text[i:], `\"`):
		return `\"`
	}
	return ""
}

func skipBlanks(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

// acceptValue says whether v, assigned to a name of the given strength,
// is a secret rather than a placeholder, a reference or code. ownLine says
// the assignment is a line of its own, as in YAML or a properties file.
func acceptValue(v string, quoted, ownLine bool, strength int, name string) bool {
	if placeholder(v) || strings.EqualFold(v, name) {
		return false
	}
	if !quoted && !ownLine && !strings.ContainsAny(v, "0123456789!@#%^&*+=~?") {
		// An unquoted word inside a line is more often code
		// (`password = userPassword`) than a secret.
		return false
	}
	if !quoted && looksLikeCode(v) {
		return false
	}
	if assignmentLike.MatchString(v) {
		return false // "secret: request_id=a81d…" names another value
	}
	if strength == 2 {
		return len(v) >= 4
	}
	return looksRandom(v)
}

var assignmentLike = regexp.MustCompile(`^[A-Za-z_][\w.-]*=`)

// looksRandom says whether v looks like a generated token rather than a
// word, a number, a slug or a path.
func looksRandom(v string) bool {
	if len(v) < 10 || strings.ContainsAny(v, " \t") {
		return false
	}
	letters, digits := 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			letters++
		case '0' <= c && c <= '9':
			digits++
		}
	}
	if letters == 0 || digits == 0 || entropy(v) < 3.3 {
		return false
	}
	// A slug: parts that are each only letters or only digits.
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' || r == ':' })
	if len(parts) > 1 {
		mixed := false
		for _, p := range parts {
			if strings.IndexFunc(p, isLetter) >= 0 && strings.IndexFunc(p, isDigit) >= 0 {
				mixed = true
				break
			}
		}
		if !mixed {
			return false
		}
	}
	return true
}

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }
func isDigit(r rune) bool  { return '0' <= r && r <= '9' }

// looksLikeCode says whether an unquoted value is an expression: a call,
// an index, a member of something.
func looksLikeCode(v string) bool {
	if strings.ContainsAny(v, "([") {
		return true
	}
	if strings.Contains(v, ".") && !strings.ContainsAny(v, "0123456789") {
		return true
	}
	return false
}

// placeholderWords are values that stand for a secret rather than being
// one.
var placeholderWords = map[string]bool{
	"true": true, "false": true, "null": true, "none": true, "nil": true, "undefined": true,
	"string": true, "str": true, "int": true, "bool": true, "boolean": true, "number": true,
	"bytes": true, "any": true, "object": true, "required": true, "optional": true,
	"secret": true, "password": true, "token": true, "key": true, "redacted": true,
	"changeme": true, "example": true, "placeholder": true, "dummy": true,
}

// placeholder says whether v stands for a secret instead of being one: a
// variable ($TOKEN, ${{ secrets.X }}, %PASSWORD%, process.env.X), a type,
// a mask (****, xxxx), a template (<your-token>), an earlier redaction.
func placeholder(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return true
	}
	lowerV := strings.ToLower(v)
	if placeholderWords[lowerV] || variableRef.MatchString(v) {
		return true
	}
	for _, p := range []string{"{{", "[redacted", "process.env", "os.environ", "os.getenv", "getenv(",
		"env(", "env[", "env.", "secrets.", "vars.", "import.meta.env", "your-", "your_", "your ", "yourapi", "my-", "my_"} {
		if strings.HasPrefix(lowerV, p) {
			return true
		}
	}
	if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") {
		return true
	}
	if strings.Contains(v, "${") || strings.Contains(v, "op://") || strings.HasPrefix(v, "!op ") {
		return true // a template, or a 1Password reference
	}
	for _, mask := range []string{"redacted", "example", "masked", "***", "xxxx", "…", "..."} {
		if strings.Contains(lowerV, mask) {
			return true // an earlier mask, or an elided value
		}
	}
	// The same character over and over: ****, xxxx, ....
	same := true
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			same = false
			break
		}
	}
	return same
}

// variableRef matches a value that names a variable instead of holding
// one: $TOKEN, ${TOKEN}, ${TOKEN:-x}, $(cmd …), %TOKEN%.
var variableRef = regexp.MustCompile(`^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^}]*\}|\$\(.*\)|%[A-Za-z_][A-Za-z0-9_]*%)$`)
