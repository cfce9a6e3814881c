package sessiongen

import (
	"strconv"
)

// Shell commands and what they print: test runs, builds, git, listings and
// service logs, some with ANSI colour codes, some thousands of lines long.

const (
	bashGoTest = iota
	bashBuild
	bashGitLog
	bashGitDiff
	bashLs
	bashCargo
	bashPytest
	bashLogs
	bashGrep
	bashCat
	bashTsc
	bashMisc
	numBashKinds
)

var bashWeights = []int{14, 8, 7, 7, 6, 5, 7, 8, 7, 10, 6, 15}

// longBash are the kinds that plausibly print thousands of lines.
var longBash = map[int]bool{bashGoTest: true, bashBuild: true, bashLogs: true, bashPytest: true, bashCat: true, bashGitLog: true}

const (
	esc    = "\x1b["
	reset  = "\x1b[0m"
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	cyan   = "\x1b[36m"
	bold   = "\x1b[1m"
	dim    = "\x1b[2m"
)

// bashCommand appends a command line and returns the kind of output it
// prints.
func (g *gen) bashCommand(b []byte) ([]byte, int) {
	k := g.r.weighted(g.sh.bashWeights)
	switch k {
	case bashGoTest:
		b = append(b, pick(&g.r, []string{"go test ./...", "go test -v ./...", "go test -race ./internal/...", "go test -count=1 -run Test"})...)
		if g.r.pct(40) {
			b = append(b, " 2>&1 | tail -"...)
			b = strconv.AppendInt(b, int64(pick(&g.r, []int{20, 40, 80})), 10)
		}
	case bashBuild:
		b = append(b, pick(&g.r, []string{"npm run build", "pnpm build", "npm install", "npx vite build", "make build"})...)
	case bashGitLog:
		b = append(b, "git log --oneline -n "...)
		b = strconv.AppendInt(b, int64(pick(&g.r, []int{10, 20, 50, 200})), 10)
	case bashGitDiff:
		b = append(b, pick(&g.r, []string{"git diff", "git diff --color=always", "git diff HEAD~1 -- ", "git show --stat HEAD"})...)
	case bashLs:
		b = append(b, "ls -la "...)
		b = append(b, pick(&g.r, g.proj.dirs)...)
	case bashCargo:
		b = append(b, pick(&g.r, []string{"cargo build", "cargo test", "cargo clippy --all-targets", "cargo build --release 2>&1"})...)
	case bashPytest:
		b = append(b, pick(&g.r, []string{"pytest -q", "pytest -x --color=yes", "python -m pytest tests/", "uv run pytest -v"})...)
	case bashLogs:
		b = append(b, pick(&g.r, []string{"docker compose logs --tail 3000 ", "kubectl logs deploy/", "journalctl -u ", "tail -n 5000 /var/log/"})...)
		b = append(b, pick(&g.r, fileStems)...)
	case bashGrep:
		b = append(b, "grep -rn \""...)
		b = g.ident(b, g.proj.lang.style)
		b = append(b, "\" "...)
		b = append(b, pick(&g.r, g.proj.dirs)...)
	case bashCat:
		b = append(b, pick(&g.r, []string{"cat ", "head -n 400 ", "sed -n '1,300p' "})...)
		b = append(b, g.proj.randFile(&g.r).path...)
	case bashTsc:
		b = append(b, pick(&g.r, []string{"npx tsc --noEmit", "npm run lint", "go vet ./...", "npx eslint src --ext .ts"})...)
	default:
		b = append(b, pick(&g.r, []string{"git status", "wc -l ", "pwd && ls", "which node go python3", "cd "})...)
		if b[len(b)-1] == ' ' {
			b = append(b, g.proj.randFile(&g.r).path...)
		}
	}
	return b, k
}

// bashOutput appends about lines lines (never much more than maxBytes) of
// what a command of kind k prints, ending in a newline, and returns its exit
// code.
func (g *gen) bashOutput(b []byte, k, lines, maxBytes int) ([]byte, int) {
	start := len(b)
	ansi := g.r.pct(35)
	more := func(n int) bool { return n < lines && len(b)-start < maxBytes }
	exit := 0
	switch k {
	case bashGoTest:
		fail := g.r.pct(25)
		for n := 0; more(n); n++ {
			switch g.r.intn(9) {
			case 0, 1, 2:
				b = append(b, "=== RUN   Test"...)
				b = g.ident(b, pascal)
			case 3, 4:
				if ansi {
					b = append(b, green...)
				}
				b = append(b, "--- PASS: Test"...)
				b = g.ident(b, pascal)
				b = append(b, " (0."...)
				b = strconv.AppendInt(b, int64(g.r.between(10, 99)), 10)
				b = append(b, "s)"...)
				if ansi {
					b = append(b, reset...)
				}
			case 5:
				b = append(b, "    "...)
				b = append(b, pick(&g.r, fileStems)...)
				b = append(b, "_test.go:"...)
				b = strconv.AppendInt(b, int64(g.r.between(10, 400)), 10)
				b = append(b, ": "...)
				b = g.sentence(b, false)
			case 6:
				b = append(b, "ok  \tgithub.com/"...)
				b = append(b, g.proj.name...)
				b = append(b, "/internal/"...)
				b = append(b, pick(&g.r, langWords)...)
				b = append(b, "\t0."...)
				b = strconv.AppendInt(b, int64(g.r.between(100, 999)), 10)
				b = append(b, 's')
			case 7:
				b = append(b, "?   \tgithub.com/"...)
				b = append(b, g.proj.name...)
				b = append(b, "/cmd/"...)
				b = append(b, pick(&g.r, langWords)...)
				b = append(b, "\t[no test files]"...)
			default:
				b = append(b, "    --- PASS: Test"...)
				b = g.ident(b, pascal)
				b = append(b, '/')
				b = g.ident(b, snake)
				b = append(b, " (0.00s)"...)
			}
			b = append(b, '\n')
		}
		if fail {
			if ansi {
				b = append(b, red...)
			}
			b = append(b, "--- FAIL: Test"...)
			b = g.ident(b, pascal)
			b = append(b, " (0.01s)\n    "...)
			b = append(b, pick(&g.r, fileStems)...)
			b = append(b, "_test.go:"...)
			b = strconv.AppendInt(b, int64(g.r.between(10, 400)), 10)
			b = append(b, ": got "...)
			b = strconv.AppendInt(b, int64(g.r.intn(100)), 10)
			b = append(b, ", want "...)
			b = strconv.AppendInt(b, int64(g.r.intn(100)), 10)
			b = append(b, "\nFAIL"...)
			if ansi {
				b = append(b, reset...)
			}
			b = append(b, '\n')
			exit = 1
		}
	case bashBuild:
		b = append(b, "\n> "...)
		b = append(b, g.proj.name...)
		b = append(b, "@0."...)
		b = strconv.AppendInt(b, int64(g.r.intn(20)), 10)
		b = append(b, ".0 build\n> vite build\n\n"...)
		if ansi {
			b = append(b, cyan+"vite v5.4.2 "+green+"building for production..."+reset+"\n"...)
		} else {
			b = append(b, "vite v5.4.2 building for production...\n"...)
		}
		for n := 4; more(n); n++ {
			switch g.r.intn(5) {
			case 0:
				b = append(b, "npm warn deprecated "...)
				b = g.ident(b, kebab)
				b = append(b, "@"...)
				b = strconv.AppendInt(b, int64(g.r.intn(9)), 10)
				b = append(b, ".0.0: "...)
				b = g.sentence(b, false)
			case 1:
				b = append(b, "transforming ("...)
				b = strconv.AppendInt(b, int64(n*7), 10)
				b = append(b, ") "...)
				b = append(b, g.proj.randFile(&g.r).path...)
			default:
				if ansi {
					b = append(b, dim+"dist/"+reset+cyan...)
				} else {
					b = append(b, "dist/"...)
				}
				b = append(b, "assets/"...)
				b = g.ident(b, kebab)
				b = append(b, '-')
				b = g.appendRandom(b, hexDigits, 8)
				b = append(b, ".js"...)
				if ansi {
					b = append(b, reset...)
				}
				b = append(b, "   "...)
				b = strconv.AppendInt(b, int64(g.r.intn(400)), 10)
				b = append(b, '.')
				b = strconv.AppendInt(b, int64(g.r.between(10, 99)), 10)
				b = append(b, " kB │ gzip: "...)
				b = strconv.AppendInt(b, int64(g.r.intn(120)), 10)
				b = append(b, ".42 kB"...)
			}
			b = append(b, '\n')
		}
		if g.r.pct(10) {
			b = append(b, "error during build:\n"...)
			b = g.sentence(b, false)
			b = append(b, '\n')
			exit = 1
		} else {
			if ansi {
				b = append(b, green...)
			}
			b = append(b, "✓ built in "...)
			b = strconv.AppendInt(b, int64(g.r.between(1, 30)), 10)
			b = append(b, ".21s"...)
			if ansi {
				b = append(b, reset...)
			}
			b = append(b, '\n')
		}
	case bashGitLog:
		for n := 0; more(n); n++ {
			if ansi {
				b = append(b, yellow...)
			}
			b = g.appendRandom(b, hexDigits, 7)
			if ansi {
				b = append(b, reset...)
			}
			b = append(b, ' ')
			b = append(b, pick(&g.r, []string{"feat", "fix", "chore", "refactor", "test", "docs", "perf"})...)
			b = append(b, '(')
			b = append(b, pick(&g.r, langWords)...)
			b = append(b, "): "...)
			b = append(b, pick(&g.r, verbs)...)
			b = append(b, ' ')
			b = g.phrase(b, g.r.between(1, 5))
			b = append(b, '\n')
		}
	case bashGitDiff:
		for n := 0; more(n); {
			f := g.proj.randFile(&g.r)
			if ansi {
				b = append(b, bold...)
			}
			b = append(b, "diff --git a/"...)
			b = append(b, f.path...)
			b = append(b, " b/"...)
			b = append(b, f.path...)
			b = append(b, "\nindex "...)
			b = g.appendRandom(b, hexDigits, 7)
			b = append(b, ".."...)
			b = g.appendRandom(b, hexDigits, 7)
			b = append(b, " 100644\n--- a/"...)
			b = append(b, f.path...)
			b = append(b, "\n+++ b/"...)
			b = append(b, f.path...)
			if ansi {
				b = append(b, reset...)
			}
			b = append(b, '\n')
			n += 4
			for h := g.r.between(1, 4); h > 0 && more(n); h-- {
				l := g.r.between(1, max(1, f.lines))
				if ansi {
					b = append(b, cyan...)
				}
				b = append(b, "@@ -"...)
				b = strconv.AppendInt(b, int64(l), 10)
				b = append(b, ",7 +"...)
				b = strconv.AppendInt(b, int64(l), 10)
				b = append(b, ",9 @@"...)
				if ansi {
					b = append(b, reset...)
				}
				b = append(b, '\n')
				n++
				for i := g.r.between(4, 16); i > 0; i-- {
					mark := pick(&g.r, []byte{' ', ' ', ' ', '-', '+', '+'})
					if ansi && mark == '-' {
						b = append(b, red...)
					} else if ansi && mark == '+' {
						b = append(b, green...)
					}
					b = append(b, mark)
					b = g.codeLine(b, f.lang)
					if ansi && mark != ' ' {
						b = append(b, reset...)
					}
					b = append(b, '\n')
					n++
				}
			}
		}
	case bashLs:
		b = append(b, "total "...)
		b = strconv.AppendInt(b, int64(g.r.between(8, 400)), 10)
		b = append(b, '\n')
		for n := 1; more(n); n++ {
			dir := g.r.pct(25)
			if dir {
				b = append(b, "drwxr-xr-x "...)
			} else {
				b = append(b, "-rw-r--r-- "...)
			}
			b = strconv.AppendInt(b, int64(g.r.between(1, 9)), 10)
			b = append(b, " dev dev "...)
			b = strconv.AppendInt(b, int64(g.r.between(100, 90000)), 10)
			b = append(b, pick(&g.r, []string{" Mar  1 09:00 ", " Feb 27 17:42 ", " Jan 12 11:03 "})...)
			if dir {
				b = append(b, pick(&g.r, dirNames)...)
			} else {
				f := g.proj.randFile(&g.r)
				b = append(b, f.path[lastSlash(f.path)+1:]...)
			}
			b = append(b, '\n')
		}
	case bashCargo:
		for n := 0; more(n); n++ {
			if g.r.pct(75) {
				if ansi {
					b = append(b, reset+bold+green...)
				}
				b = append(b, "   Compiling"...)
				if ansi {
					b = append(b, reset...)
				}
				b = append(b, ' ')
				b = g.ident(b, kebab)
				b = append(b, " v0."...)
				b = strconv.AppendInt(b, int64(g.r.intn(30)), 10)
				b = append(b, '.')
				b = strconv.AppendInt(b, int64(g.r.intn(10)), 10)
				b = append(b, '\n')
				continue
			}
			if ansi {
				b = append(b, bold+yellow+"warning"+reset+bold...)
			} else {
				b = append(b, "warning"...)
			}
			b = append(b, ": unused variable: `"...)
			b = g.ident(b, snake)
			b = append(b, "`\n"...)
			if ansi {
				b = append(b, reset...)
			}
			b = append(b, "  --> src/"...)
			b = append(b, pick(&g.r, fileStems)...)
			b = append(b, ".rs:"...)
			b = strconv.AppendInt(b, int64(g.r.between(1, 500)), 10)
			b = append(b, ":9\n   |\n"...)
			b = g.codeLine(b, langRust)
			b = append(b, "\n   |         ^ help: if this is intentional, prefix it with an underscore\n\n"...)
			n += 5
		}
		if g.r.pct(15) {
			b = append(b, "error: could not compile `"...)
			b = append(b, g.proj.name...)
			b = append(b, "` (bin \""...)
			b = append(b, g.proj.name...)
			b = append(b, "\") due to 2 previous errors\n"...)
			exit = 101
		} else {
			b = append(b, "    Finished `dev` profile [unoptimized + debuginfo] target(s) in "...)
			b = strconv.AppendInt(b, int64(g.r.between(1, 90)), 10)
			b = append(b, ".07s\n"...)
		}
	case bashPytest:
		passed, failed := 0, 0
		for n := 0; more(n); n++ {
			b = append(b, "tests/test_"...)
			b = append(b, pick(&g.r, fileStems)...)
			b = append(b, ".py::test_"...)
			b = g.ident(b, snake)
			if g.r.pct(6) {
				failed++
				if ansi {
					b = append(b, " "+red+"FAILED"+reset...)
				} else {
					b = append(b, " FAILED"...)
				}
			} else {
				passed++
				if ansi {
					b = append(b, " "+green+"PASSED"+reset...)
				} else {
					b = append(b, " PASSED"...)
				}
			}
			b = append(b, "  ["...)
			b = strconv.AppendInt(b, int64(min(100, (n+1)*100/max(lines, 1))), 10)
			b = append(b, "%]\n"...)
		}
		b = append(b, "========== "...)
		b = strconv.AppendInt(b, int64(passed), 10)
		b = append(b, " passed"...)
		if failed > 0 {
			b = append(b, ", "...)
			b = strconv.AppendInt(b, int64(failed), 10)
			b = append(b, " failed"...)
			exit = 1
		}
		b = append(b, " in 3.21s ==========\n"...)
	case bashLogs:
		b = g.logLines(b, lines, ansi, maxBytes)
	case bashGrep:
		n := 0
		for ; more(n) && g.r.pct(96); n++ {
			f := g.proj.randFile(&g.r)
			b = append(b, f.path...)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(g.r.between(1, f.lines)), 10)
			b = append(b, ':')
			b = g.codeLine(b, f.lang)
			b = append(b, '\n')
		}
		if n == 0 {
			exit = 1
		}
	case bashCat:
		f := g.proj.randFile(&g.r)
		b = g.code(b, f.lang, min(lines, f.lines))
		if cut := cutBytes(b[start:], maxBytes); len(cut) < len(b)-start {
			b = b[:start+len(cut)+1] // through the newline after the cut
		}
	case bashTsc:
		fail := g.r.pct(45)
		for n := 0; fail && more(n); n++ {
			f := g.proj.randFile(&g.r)
			b = append(b, f.path...)
			b = append(b, '(')
			b = strconv.AppendInt(b, int64(g.r.between(1, f.lines)), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(g.r.between(1, 60)), 10)
			b = append(b, "): "...)
			if ansi {
				b = append(b, red+"error"+reset...)
			} else {
				b = append(b, "error"...)
			}
			b = append(b, " TS"...)
			b = strconv.AppendInt(b, int64(g.r.between(2000, 7999)), 10)
			b = append(b, ": Type '"...)
			b = append(b, pick(&g.r, tsTypes)...)
			b = append(b, "' is not assignable to type '"...)
			b = append(b, pick(&g.r, tsTypes)...)
			b = append(b, "'.\n"...)
		}
		if fail {
			b = append(b, "\nFound "...)
			b = strconv.AppendInt(b, int64(lines), 10)
			b = append(b, " errors.\n"...)
			exit = 2
		}
	default:
		for n := 0; more(n) && n < 12; n++ {
			switch g.r.intn(3) {
			case 0:
				b = append(b, "\tmodified:   "...)
				b = append(b, g.proj.randFile(&g.r).path...)
			case 1:
				b = append(b, "  "...)
				b = strconv.AppendInt(b, int64(g.r.between(10, 3000)), 10)
				b = append(b, ' ')
				b = append(b, g.proj.randFile(&g.r).path...)
			default:
				b = append(b, g.proj.cwd...)
			}
			b = append(b, '\n')
		}
		if g.r.pct(5) {
			exit = 127
			b = append(b[:start], "bash: line 1: "...)
			b = append(b, pick(&g.r, nouns)...)
			b = append(b, ": command not found\n"...)
		}
	}
	return b, exit
}
