package sessiongen

import (
	"strconv"
	"strings"
)

// Code is generated from per-language line templates. A template is compiled
// once into literal pieces and placeholders:
//
//	{i} identifier in the language's style   {I} type-style identifier
//	{t} a type name of the language          {n} small integer, {N} large
//	{w} a word   {s} a short phrase   {S} a sentence   {p} a file path
//	{k} snake_case key   {u} URL   {v} a verb   {a} an adjective
//
// A line ending in the language's opener starts a nested block; see
// language.close.

type seg struct {
	lit  string
	kind byte // 0: literal only
}

type tmpl struct {
	segs   []seg
	opener bool
	fields bool // opens a struct, interface, enum or dataclass: its body is fields
}

func compile(lines []string, opener string) []tmpl {
	out := make([]tmpl, 0, len(lines))
	for _, s := range lines {
		t := tmpl{opener: opener != "" && strings.HasSuffix(s, opener)}
		for _, k := range []string{"struct {", "interface {", "enum {", "@dataclass", "CREATE TABLE", "export interface"} {
			t.fields = t.fields || strings.Contains(s, k)
		}
		for s != "" {
			i := strings.IndexByte(s, '{')
			if i < 0 || i+2 >= len(s) || s[i+2] != '}' || !strings.ContainsRune("iItnNwsSpkuva", rune(s[i+1])) {
				if i < 0 {
					t.segs = append(t.segs, seg{lit: s})
					break
				}
				t.segs = append(t.segs, seg{lit: s[:i+1]})
				s = s[i+1:]
				continue
			}
			t.segs = append(t.segs, seg{lit: s[:i], kind: s[i+1]})
			s = s[i+3:]
		}
		out = append(out, t)
	}
	return out
}

type language struct {
	name   string // name used in file extensions and fences
	fence  string
	ext    string
	indent string
	style  identStyle
	types  []string
	// close is the line that ends a block opened at the given depth; empty
	// means the language closes blocks by dedenting.
	close   string
	header  func(g *gen, b []byte) []byte
	decls   []tmpl // top-level openers
	body    []tmpl
	fields  []tmpl // body lines of decls marked fields
	comment string
}

func (g *gen) expand(b []byte, l *language, t *tmpl) []byte {
	for _, s := range t.segs {
		b = append(b, s.lit...)
		switch s.kind {
		case 'i':
			b = g.ident(b, l.style)
		case 'I':
			b = g.ident(b, pascal)
		case 't':
			b = append(b, pick(&g.r, l.types)...)
		case 'n':
			b = strconv.AppendInt(b, int64(g.r.intn(100)), 10)
		case 'N':
			b = strconv.AppendInt(b, int64(g.r.intn(100000)), 10)
		case 'w':
			b = append(b, pick(&g.r, nouns)...)
		case 's':
			b = g.phrase(b, g.r.between(2, 4))
		case 'S':
			b = g.sentence(b, false)
		case 'p':
			b = append(b, g.proj.randFile(&g.r).path...)
		case 'k':
			b = g.ident(b, snake)
		case 'u':
			b = append(b, "https://"...)
			b = append(b, pick(&g.r, domains)...)
		case 'v':
			b = append(b, pick(&g.r, verbs)...)
		case 'a':
			b = append(b, pick(&g.r, adjectives)...)
		}
	}
	return b
}

func appendIndent(b []byte, ind string, depth int) []byte {
	for i := 0; i < depth; i++ {
		b = append(b, ind...)
	}
	return b
}

// code appends about lines lines of source in language l, ending in a newline.
func (g *gen) code(b []byte, l *language, lines int) []byte {
	if l.name == "json" {
		return g.jsonDoc(b, lines)
	}
	if l.name == "markdown" {
		return g.markdownDoc(b, lines)
	}
	n := 0
	if lines > 12 || g.r.pct(30) {
		before := len(b)
		b = l.header(g, b)
		n += countLines(b[before:])
	}
	for n < lines {
		d := &l.decls[g.r.intn(len(l.decls))]
		b = g.expand(b, l, d)
		b = append(b, '\n')
		n++
		if d.opener && d.fields && l.fields != nil {
			for k := g.r.between(2, 12); k > 0; k-- {
				b = append(b, l.indent...)
				b = g.expand(b, l, &l.fields[g.r.intn(len(l.fields))])
				b = append(b, '\n')
				n++
			}
			if l.close != "" {
				b = append(b, l.close...)
				b = append(b, '\n')
				n++
			}
		} else if d.opener {
			n += g.block(&b, l, 1, min(lines-n, g.r.between(3, 30)))
			if l.close != "" {
				b = append(b, l.close...)
				b = append(b, '\n')
				n++
			}
		}
		if n < lines {
			b = append(b, '\n')
			n++
		}
	}
	return b
}

// block writes up to budget body lines at depth and returns how many it wrote.
func (g *gen) block(bp *[]byte, l *language, depth, budget int) int {
	b := *bp
	n := 0
	for n < budget || n == 0 {
		t := &l.body[g.r.intn(len(l.body))]
		b = appendIndent(b, l.indent, depth)
		b = g.expand(b, l, t)
		b = append(b, '\n')
		n++
		if t.opener {
			if depth >= 4 {
				// Too deep for another level: give the opener a one-line body.
				b = appendIndent(b, l.indent, depth+1)
				b = append(b, l.comment...)
				b = append(b, " TODO: "...)
				b = g.phrase(b, 3)
				b = append(b, '\n')
				n++
			} else {
				*bp = b
				n += g.block(bp, l, depth+1, g.r.between(1, 5))
				b = *bp
			}
			if l.close != "" {
				b = appendIndent(b, l.indent, depth)
				b = append(b, l.close...)
				b = append(b, '\n')
				n++
			}
		}
	}
	*bp = b
	return n
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// jsonDoc appends a pretty-printed JSON document of about lines lines.
func (g *gen) jsonDoc(b []byte, lines int) []byte {
	n := 1
	b = append(b, "{\n"...)
	g.jsonObject(&b, 1, &n, lines)
	return append(b, "}\n"...)
}

func (g *gen) jsonObject(bp *[]byte, depth int, n *int, lines int) {
	b := *bp
	first := true
	for first || (*n < lines && g.r.pct(93)) {
		if !first {
			b = append(b, ",\n"...)
		}
		first = false
		b = appendIndent(b, "  ", depth)
		b = append(b, '"')
		b = g.ident(b, camel)
		b = append(b, "\": "...)
		*n++
		switch k := g.r.intn(10); {
		case k < 2 && depth < 5:
			b = append(b, "{\n"...)
			*bp = b
			g.jsonObject(bp, depth+1, n, lines)
			b = *bp
			b = append(b, '\n')
			b = appendIndent(b, "  ", depth)
			b = append(b, '}')
			*n++
		case k < 3:
			b = append(b, '[')
			m := g.r.between(0, 4)
			for i := 0; i < m; i++ {
				if i > 0 {
					b = append(b, ", "...)
				}
				b = append(b, '"')
				b = append(b, pick(&g.r, nouns)...)
				b = append(b, '"')
			}
			b = append(b, ']')
		case k < 5:
			b = strconv.AppendInt(b, int64(g.r.intn(100000)), 10)
		case k < 6:
			b = append(b, pick(&g.r, []string{"true", "false", "null"})...)
		default:
			b = append(b, '"')
			if g.r.pct(30) {
				b = append(b, g.proj.randFile(&g.r).path...)
			} else {
				b = g.phrase(b, g.r.between(1, 4))
			}
			b = append(b, '"')
		}
	}
	b = append(b, '\n')
	*bp = b[:len(b)-1]
}

// markdownDoc appends a README-like document of about lines lines.
func (g *gen) markdownDoc(b []byte, lines int) []byte {
	b = append(b, "# "...)
	b = appendTitle(b, pick(&g.r, nouns))
	b = append(b, ' ')
	b = g.phrase(b, 2)
	b = append(b, "\n\n"...)
	start := len(b)
	for countLines(b[start:]) < lines {
		b = g.markdown(b, 600, 20)
		b = append(b, "\n\n"...)
	}
	return b
}

var (
	langGo = &language{
		name: "go", fence: "go", ext: ".go", indent: "\t", style: camel, types: goTypes,
		close: "}", comment: "//",
		header: func(g *gen, b []byte) []byte {
			b = append(b, "package "...)
			b = append(b, pick(&g.r, langWords)...)
			b = append(b, "\n\nimport (\n"...)
			k := g.r.between(2, 7)
			o := g.r.intn(len(goImports))
			for i := 0; i < k; i++ {
				b = append(b, '\t')
				b = append(b, goImports[(o+i)%len(goImports)]...)
				b = append(b, '\n')
			}
			if g.r.pct(50) {
				b = append(b, "\n\t\"github.com/"...)
				b = append(b, pick(&g.r, langWords)...)
				b = append(b, '/')
				b = append(b, g.proj.name...)
				b = append(b, "/internal/"...)
				b = append(b, pick(&g.r, langWords)...)
				b = append(b, "\"\n"...)
			}
			return append(b, ")\n\n"...)
		},
		decls: compile([]string{
			"func {I}(ctx context.Context, {i} {t}) error {",
			"func ({i} *{I}) {I}({i} {t}, {i} {t}) ({t}, error) {",
			"func {i}({i} []{I}) map[string]{I} {",
			"type {I} struct {",
			"// {I} {S}\nfunc (s *{I}) {I}() {t} {",
			"var err{I} = errors.New(\"{s}\")",
			"const default{I} = {N}",
			"func Test{I}(t *testing.T) {",
		}, "{"),
		body: compile([]string{
			"{i} := {i}.{I}({i})",
			"{i}, err := {i}.{I}(ctx, {i})",
			"if err != nil {",
			"return fmt.Errorf(\"{s}: %w\", err)",
			"for _, {i} := range {i}.{I} {",
			"if {i} == nil || len({i}) == 0 {",
			"// {S}",
			"{i}.{I} = append({i}.{I}, {i})",
			"return {i}, nil",
			"slog.Info(\"{s}\", \"{k}\", {i})",
			"defer {i}.Close()",
			"{i} := make(map[string]{t}, {n})",
			"switch {i}.{I} {",
			"case {n}, {n}:",
			"{i}.mu.Lock()",
			"{i} += {n}",
			"if {i} > {N} {",
			"t.Fatalf(\"{s}: got %v, want %v\", {i}, {i})",
			"select {",
			"case <-ctx.Done():",
			"return nil, ctx.Err()",
			"go func() { {i} <- {i}.{I}() }()",
		}, "{"),
		fields: compile([]string{
			"{I} {t} `json:\"{k},omitempty\"`",
			"{I} {t} `json:\"{k}\"`",
			"{i} {t}",
			"// {I} {S}",
			"{i}, {i} {t}",
		}, ""),
	}
	langPython = &language{
		name: "python", fence: "python", ext: ".py", indent: "    ", style: snake, types: pyTypes,
		comment: "#",
		header: func(g *gen, b []byte) []byte {
			b = append(b, "\"\"\""...)
			b = g.sentence(b, false)
			b = append(b, "\"\"\"\n\n"...)
			k := g.r.between(2, 6)
			o := g.r.intn(len(pyImports))
			for i := 0; i < k; i++ {
				b = append(b, pyImports[(o+i)%len(pyImports)]...)
				b = append(b, '\n')
			}
			return append(b, "\n\n"...)
		},
		decls: compile([]string{
			"def {i}({i}: {t}, {i}: {t} = None) -> {t}:",
			"class {I}:",
			"@dataclass\nclass {I}:",
			"async def {i}(self, {i}: {t}) -> {t}:",
			"def test_{i}({i}):",
			"{k} = {N}",
		}, ":"),
		body: compile([]string{
			"{i} = {i}.{i}({i})",
			"if {i} is None:",
			"return {i}",
			"for {i} in {i}.{i}:",
			"# {S}",
			"{i}.append({i})",
			"logger.info(\"{s}: %s\", {i})",
			"raise ValueError(f\"{s}: {{i}}\")",
			"with open({i}, \"r\", encoding=\"utf-8\") as fh:",
			"try:",
			"except KeyError as exc:",
			"{i} = await self.{i}({i}, timeout={n})",
			"assert {i} == {n}, \"{s}\"",
			"{i}[\"{k}\"] = {i}.get(\"{k}\", {n})",
			"elif {i} > {N}:",
			"yield {i}",
		}, ":"),
		fields: compile([]string{
			"{i}: {t}",
			"{i}: {t} = {n}",
			"{i}: {t} = field(default_factory=list)",
			"{i}: Optional[{t}] = None",
		}, ""),
	}
	langTS = &language{
		name: "typescript", fence: "typescript", ext: ".ts", indent: "  ", style: camel, types: tsTypes,
		close: "}", comment: "//",
		header: func(g *gen, b []byte) []byte {
			k := g.r.between(1, 4)
			o := g.r.intn(len(tsImports))
			for i := 0; i < k; i++ {
				b = append(b, tsImports[(o+i)%len(tsImports)]...)
				b = append(b, '\n')
			}
			b = append(b, "import { "...)
			b = g.ident(b, camel)
			b = append(b, ", "...)
			b = g.ident(b, pascal)
			b = append(b, " } from \"./"...)
			b = append(b, pick(&g.r, fileStems)...)
			return append(b, ".js\";\n\n"...)
		},
		decls: compile([]string{
			"export async function {i}({i}: {t}, {i}?: {t}): Promise<{I}> {",
			"export interface {I} {",
			"export class {I} implements {I} {",
			"export const {i} = ({i}: {t}): {t} => {",
			"describe(\"{s}\", () => {",
			"type {I} = {t} | {t};",
		}, "{"),
		body: compile([]string{
			"const {i} = await {i}.{i}({i});",
			"if (!{i}) {",
			"return {i};",
			"for (const {i} of {i}.{i}) {",
			"// {S}",
			"{i}.push({i});",
			"throw new Error(`{s}: ${{i}}`);",
			"let {i} = {n};",
			"console.log(\"{s}\", {i});",
			"expect({i}).toEqual({n});",
			"it(\"{s}\", async () => {",
			"} else if ({i} > {N}) {",
			"this.{i} = new Map<string, {I}>();",
			"const { {i}, {i} } = {i};",
		}, "{"),
		fields: compile([]string{
			"{i}: {t};",
			"readonly {i}?: {t};",
			"/** {S} */",
			"{i}({i}: {t}): Promise<{t}>;",
		}, ""),
	}
	langRust = &language{
		name: "rust", fence: "rust", ext: ".rs", indent: "    ", style: snake, types: rustTypes,
		close: "}", comment: "//",
		header: func(g *gen, b []byte) []byte {
			k := g.r.between(1, 5)
			o := g.r.intn(len(rustUses))
			for i := 0; i < k; i++ {
				b = append(b, rustUses[(o+i)%len(rustUses)]...)
				b = append(b, '\n')
			}
			return append(b, '\n')
		},
		decls: compile([]string{
			"pub fn {i}({i}: {t}, {i}: &mut {I}) -> Result<{t}> {",
			"impl {I} {",
			"#[derive(Debug, Clone, Serialize, Deserialize)]\npub struct {I} {",
			"pub enum {I} {",
			"fn {i}(&self) -> {t} {",
			"#[test]\nfn {i}() {",
		}, "{"),
		body: compile([]string{
			"let {i} = {i}.{i}(&{i})?;",
			"if {i}.is_empty() {",
			"return Ok({i});",
			"for {i} in {i}.iter() {",
			"// {S}",
			"{i}.push({i}.clone());",
			"match {i} {",
			"Some({i}) => {i},",
			"None => return Err(anyhow::anyhow!(\"{s}\")),",
			"let mut {i} = HashMap::with_capacity({n});",
			"assert_eq!({i}, {n});",
			"tracing::debug!({k} = %{i}, \"{s}\");",
			"{I}::{I} => {n},",
			"let {i}: {t} = {i}.parse().context(\"{s}\")?;",
		}, "{"),
		fields: compile([]string{
			"pub {i}: {t},",
			"{i}: {t},",
			"/// {S}",
			"#[serde(default)]\n    pub {i}: {t},",
		}, ""),
	}
	langBash = &language{
		name: "bash", fence: "bash", ext: ".sh", indent: "  ", style: snake, types: []string{"string"},
		close: "}", comment: "#",
		header: func(g *gen, b []byte) []byte {
			return append(b, "#!/usr/bin/env bash\nset -euo pipefail\n\n"...)
		},
		decls: compile([]string{
			"{k}() {",
			"{I}_DIR=\"${{I}_DIR:-/var/lib/{w}}\"",
			"export {I}_URL=\"{u}\"",
		}, "{"),
		body: compile([]string{
			"local {k}=\"$1\"",
			"echo \"{s}: ${{k}}\"",
			"if [[ -z \"${{k}:-}\" ]]; then echo \"missing {w}\" >&2; exit 1; fi",
			"for {k} in \"$@\"; do echo \"$({k})\"; done",
			"# {S}",
			"go test ./... -run '{I}' -count=1",
			"curl -fsSL \"{u}\" -o \"/tmp/{k}.json\"",
			"grep -rn \"{i}\" {p} | head -{n}",
			"mkdir -p \"$({k})/{w}\"",
			"jq '.{k}' \"{p}\" > \"/tmp/{k}.out\"",
			"docker compose up -d {w}",
			"npm run {w} -- --port {N}",
		}, ""),
	}
	langSQL = &language{
		name: "sql", fence: "sql", ext: ".sql", indent: "  ", style: snake, types: sqlTypes,
		close: ");", comment: "--",
		header: func(g *gen, b []byte) []byte {
			b = append(b, "-- "...)
			b = g.sentence(b, false)
			return append(b, "\nBEGIN;\n\n"...)
		},
		decls: compile([]string{
			"CREATE TABLE IF NOT EXISTS {k} (",
			"INSERT INTO {k} ({k}, {k}, {k}) VALUES (",
			"CREATE INDEX idx_{k} ON {k} ({k}, {k}) WHERE {k} IS NOT NULL;",
			"SELECT {k}.{k}, count(*) AS {k}\nFROM {k}\nJOIN {k} ON {k}.id = {k}.{k}_id\nWHERE {k}.{k} > {N}\nGROUP BY 1\nORDER BY 2 DESC\nLIMIT {n};",
			"UPDATE {k} SET {k} = {k} + {n}, updated_at = now() WHERE id = ${n};",
			"ALTER TABLE {k} ADD COLUMN {k} {t} DEFAULT {n};",
			"DELETE FROM {k} WHERE created_at < now() - interval '{n} days';",
		}, "("),
		body: compile([]string{
			"'{s}', {N}, {n}, now()",
			"({N}, '{w}', '{s}'),",
		}, ""),
		fields: compile([]string{
			"{k} {t} NOT NULL,",
			"{k} {t},",
			"{k} {t} REFERENCES {k}(id) ON DELETE CASCADE,",
			"{k} {t} NOT NULL DEFAULT {n},",
		}, ""),
	}
	langYAML = &language{
		name: "yaml", fence: "yaml", ext: ".yaml", indent: "  ", style: snake, types: []string{"string"},
		comment: "#",
		header: func(g *gen, b []byte) []byte {
			b = append(b, "# "...)
			b = g.sentence(b, false)
			return append(b, "\nversion: \"3.9\"\n"...)
		},
		decls: compile([]string{
			"{k}:",
			"services:",
			"jobs:",
		}, ":"),
		body: compile([]string{
			"{k}: {w}",
			"{k}: {N}",
			"{k}: \"{s}\"",
			"- {w}",
			"- name: {s}",
			"{k}:",
			"image: ghcr.io/{w}/{w}:{n}.{n}",
			"run: go test ./... -run {I}",
			"{k}: ${{ secrets.{I} }}",
			"# {S}",
			"enabled: true",
			"path: {p}",
		}, ":"),
	}
	langJSON = &language{name: "json", fence: "json", ext: ".json"}
	langMD   = &language{name: "markdown", fence: "markdown", ext: ".md"}

	// languages are the ones used for fenced blocks in assistant text.
	languages = []*language{langGo, langPython, langTS, langRust, langBash, langJSON, langSQL, langYAML}
)
