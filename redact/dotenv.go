package redact

import (
	"regexp"
	"strings"
)

// uuidShape matches a UUID: an id, not a secret, unless its name says so.
var uuidShape = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// Names whose values are identifiers or settings, not secrets, however
// random they look (a commit hash, a tenant UUID).
var settingNames = []string{"id", "ids", "uuid", "name", "host", "hostname", "port", "url", "uri", "endpoint",
	"path", "dir", "file", "region", "zone", "env", "mode", "level", "version", "sha", "hash", "commit",
	"rev", "revision", "branch", "tag", "date", "time", "tz", "lang", "locale", "email", "user", "username",
	"org", "project", "bucket", "table", "queue", "topic", "color", "theme", "account", "model"}

// findDotenv finds secrets in .env-style text: runs of two or more lines of
// NAME=value (comments and blank lines may come between, and an
// `export ` or a line number before). A value is secret when its name says
// so or when it looks random and its name is not that of a setting.
func findDotenv(text string, _ []int) [][2]int {
	if strings.IndexByte(text, '=') < 0 || strings.IndexByte(text, '\n') < 0 {
		return nil
	}
	var out, block [][2]int
	assignments := 0
	flush := func() {
		if assignments >= 2 {
			out = append(out, block...)
		}
		block, assignments = block[:0], 0
	}
	for lineStart := 0; lineStart < len(text); {
		lineEnd := strings.IndexByte(text[lineStart:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += lineStart
		}
		line := text[lineStart:lineEnd]
		switch name, vs, ve, ok := envLine(line); {
		case ok:
			assignments++
			v := line[vs:ve]
			if envSecret(name, v) {
				block = append(block, [2]int{lineStart + vs, lineStart + ve})
			}
		case envFiller(line):
		default:
			flush()
		}
		lineStart = lineEnd + 1
	}
	flush()
	return out
}

// envLine reads `[N| ][export ]NAME=value` and returns the name and the
// value's bytes in line, without quotes.
func envLine(line string) (name string, vs, ve int, ok bool) {
	i := skipBlanks(line, 0)
	// A line number, as some read tools print them: "  12\t", "12| ", "12→".
	if j := i; j < len(line) && isDigit(rune(line[j])) {
		for j < len(line) && isDigit(rune(line[j])) {
			j++
		}
		switch {
		case strings.HasPrefix(line[j:], "\t"), strings.HasPrefix(line[j:], "|"), strings.HasPrefix(line[j:], ":"):
			i = skipBlanks(line, j+1)
		case strings.HasPrefix(line[j:], "→"):
			i = skipBlanks(line, j+len("→"))
		}
	}
	if strings.HasPrefix(line[i:], "export ") {
		i = skipBlanks(line, i+len("export "))
	}
	// Names in capitals, as .env files have them: `timeout=30,` is a
	// keyword argument in code.
	ns := i
	if i >= len(line) || !('A' <= line[i] && line[i] <= 'Z' || line[i] == '_') {
		return "", 0, 0, false
	}
	for i < len(line) && ('A' <= line[i] && line[i] <= 'Z' || '0' <= line[i] && line[i] <= '9' || line[i] == '_' || line[i] == '.') {
		i++
	}
	name = line[ns:i]
	if i >= len(line) || line[i] != '=' {
		return "", 0, 0, false
	}
	vs = i + 1
	ve = len(line)
	for ve > vs && (line[ve-1] == ' ' || line[ve-1] == '\t' || line[ve-1] == '\r') {
		ve--
	}
	if ve-vs >= 2 && (line[vs] == '"' || line[vs] == '\'') && line[ve-1] == line[vs] {
		vs++
		ve--
		return name, vs, ve, true
	}
	if c := strings.Index(line[vs:ve], " #"); c >= 0 {
		ve = vs + c // a comment after an unquoted value
		for ve > vs && line[ve-1] == ' ' {
			ve--
		}
	}
	if v := line[vs:ve]; strings.ContainsAny(v, " ([{") || strings.HasSuffix(v, ",") {
		return "", 0, 0, false // code, not a value
	}
	return name, vs, ve, true
}

// envFiller says whether a line may come between the lines of a .env
// block: blank, or a comment.
func envFiller(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

// envSecret says whether a .env value is secret.
func envSecret(name, v string) bool {
	if placeholder(v) {
		return false
	}
	switch nameStrength(name) {
	case 2:
		return len(v) >= 3
	case 1:
		return len(v) >= 8
	}
	lowerName := strings.ToLower(name)
	for _, s := range settingNames {
		if lowerName == s || strings.HasSuffix(lowerName, "_"+s) || strings.HasSuffix(lowerName, "."+s) {
			return false
		}
	}
	if len(v) < 16 || strings.Contains(v, "://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~") || uuidShape.MatchString(v) {
		return false
	}
	return entropy(v) >= 3.5 && looksRandom(v)
}
