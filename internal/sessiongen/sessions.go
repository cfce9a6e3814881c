package sessiongen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// sessionCwds are the projects Sessions spreads its files over, including a
// Windows one, whose directory name pi encodes differently.
var sessionCwds = []string{
	"/home/dev/projects/webapp",
	"/home/dev/projects/api-server",
	"/home/dev/projects/cli",
	"/home/dev/src/ml-pipeline",
	"/Users/sam/work/billing-service",
	"/Users/sam/work/docs site",
	"/srv/infra",
	`C:\Users\dev\src\tooling`,
}

// SessionDir returns the directory pi keeps the sessions of cwd in, relative
// to its sessions root: "--" + cwd without its leading separator, with
// separators and colons turned into "-", + "--".
func SessionDir(cwd string) string {
	s := strings.TrimLeft(cwd, `/\`)
	s = strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(s)
	return "--" + s + "--"
}

// Sessions writes n small, varied sessions under dir in pi's layout,
// dir/--<cwd encoded>--/<timestamp>_<uuid>.jsonl, across several cwds, and
// returns their paths in the order written (oldest first). Sizes run from a
// few KB to a few hundred KB, about 30 KB on average; branches, images,
// compactions and names are switched on per session.
func Sessions(dir string, n int, seed int64) ([]string, error) {
	r := newRNG(seed ^ 0x5e55)
	t := time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC).UnixMilli()
	made := map[string]bool{}
	paths := make([]string, 0, n)
	for i := 0; i < n; i++ {
		t += int64(r.between(60, 6*3600))*1000 + int64(r.intn(1000))
		var size int
		switch k := r.intn(100); {
		case k < 75:
			size = r.between(3<<10, 25<<10)
		case k < 97:
			size = r.between(25<<10, 100<<10)
		default:
			size = r.between(100<<10, 400<<10)
		}
		opt := Options{
			Seed:        int64(r.u64() >> 1),
			TargetBytes: int64(size),
			Branches:    r.pct(30),
			Images:      r.pct(10),
			Compactions: r.pct(20),
			Labels:      r.pct(50),
			Cwd:         sessionCwds[r.weighted([]int{20, 18, 14, 12, 12, 8, 10, 6})],
		}
		sub := filepath.Join(dir, SessionDir(opt.Cwd))
		if !made[sub] {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return paths, err
			}
			made[sub] = true
		}
		hr := newRNG(opt.Seed ^ 0x4eade5) // the header's uuid, as write draws it
		var name []byte
		name = appendISO(name, t)
		for j, c := range name {
			if c == ':' || c == '.' {
				name[j] = '-'
			}
		}
		name = append(name, '_')
		name = appendUUIDv7(name, &hr, t)
		name = append(name, ".jsonl"...)
		p := filepath.Join(sub, string(name))
		if err := writeFile(p, opt, t); err != nil {
			return paths, fmt.Errorf("sessiongen: %s: %w", p, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
