// Package sessiongen writes synthetic pi coding-agent sessions (JSONL,
// version 3) for benchmarks and tests.
//
// The output follows the shapes pi's SessionManager writes (see
// shared/corpus/pi-v3-sdk-*.jsonl): a session header, model and thinking
// level changes, user, assistant and toolResult messages, bashExecution
// messages, custom and custom_message entries, compactions, branch summaries,
// labels and session names. Text comes from word lists and code templates
// driven by a seeded generator, so the same Options give the same bytes on
// every run and every platform, while the text itself varies enough that
// compression does not flatter a benchmark. Options.Profile chooses the
// session's shape (see Profile): mostly tool output, talk, code or tool
// calls.
package sessiongen

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/piexport/piexport/internal/atomicfile"
)

// Options says what to generate.
type Options struct {
	// Seed selects the content; the same Options give the same bytes.
	Seed int64
	// TargetBytes stops generation once the file is at least this big. The
	// turn under way still completes, with its remaining parts shrunk so the
	// file ends close to the target. Zero means 1 MB.
	TargetBytes int64
	// Branches occasionally goes back to an earlier user message, as pi's
	// /tree does, and continues from there, usually after a branch_summary.
	Branches bool
	// Images adds a few base64 PNG images (5–80 KB) to user messages and to
	// read results.
	Images bool
	// Compactions adds a compaction entry every few turns, with
	// details.readFiles and details.modifiedFiles.
	Compactions bool
	// Labels adds a session_info name and a few label entries.
	Labels bool
	// Chain, if positive, ignores TargetBytes and the flags above and writes
	// exactly Chain entries after the header: short user and assistant
	// messages alternating in one linear chain, for depth tests.
	Chain int
	// Cwd is the session's working directory; empty means
	// "/home/dev/projects/demo".
	Cwd string
	// Profile is the session's shape; empty means ProfileMixed.
	Profile Profile
}

const (
	defaultCwd    = "/home/dev/projects/demo"
	defaultTarget = 1_000_000
	// piMaxBytes and piMaxLines are pi's limits for read and bash output.
	piMaxBytes = 50 * 1024
	piMaxLines = 2000
)

// Write writes one v3 session (header first) to w.
func Write(w io.Writer, opt Options) error {
	return write(w, opt, defaultStart(opt.Seed))
}

// WriteFile writes a session to path atomically: a temporary file in the
// same directory is written and renamed over path, so a reader never sees
// half a session. It does not fsync: these are benchmark inputs that can be
// made again, and syncing hundreds of megabytes would cost more than making
// them.
func WriteFile(path string, opt Options) error {
	return writeFile(path, opt, defaultStart(opt.Seed))
}

func writeFile(path string, opt Options, start int64) error {
	return atomicfile.Write(path, func(w io.Writer) error { return write(w, opt, start) })
}

// defaultStart places a session somewhere in 2026, decided by the seed.
func defaultStart(seed int64) int64 {
	r := newRNG(seed ^ 0x5eed)
	base := time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC).UnixMilli()
	return base + int64(r.intn(300*24*3600))*1000 + int64(r.intn(1000))
}

func write(w io.Writer, opt Options, start int64) error {
	if opt.Cwd == "" {
		opt.Cwd = defaultCwd
	}
	if opt.TargetBytes <= 0 {
		opt.TargetBytes = defaultTarget
	}
	if opt.Chain < 0 {
		return errors.New("sessiongen: negative Chain")
	}
	if opt.Profile == "" {
		opt.Profile = ProfileMixed
	}
	sh, ok := shapes[opt.Profile]
	if !ok {
		return fmt.Errorf("sessiongen: unknown profile %q", opt.Profile)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &gen{
		opt:   opt,
		r:     newRNG(opt.Seed),
		w:     bw,
		clock: start,
		used:  make(map[uint32]struct{}, 1024),
		sh:    sh,
	}
	g.proj = newProject(&g.r, opt.Cwd, sh)
	g.run()
	if g.err != nil {
		return g.err
	}
	return bw.Flush()
}

// gen holds the state of one session being written.
type gen struct {
	opt   Options
	sh    *shape
	r     rng
	w     *bufio.Writer
	err   error
	n     int64  // bytes handed to w so far
	line  []byte // the entry being built
	tmp   []byte // raw text before escaping
	tmp2  []byte
	clock int64 // unix ms of the latest entry
	used  map[uint32]struct{}
	leaf  string // id of the entry new entries hang under; "" is null
	ids   []string

	proj          project
	model         *model
	thinkingLevel string
	callSeq       int

	// Context size in tokens as the model would see it; drives usage.
	ctxTokens, cached int

	users    []userRec // user messages on the current path
	keepFrom int       // branches go back no further than users[keepFrom]
	kept     int       // index in users of the last compaction's first kept entry
	turns    int

	nextBranch, nextCompact, nextLabel int

	readFiles, modFiles []string
	fileSeen            map[string]uint8 // 1 read, 2 modified
	named               bool
	fenceTurn           int // the language of codeAnswer's next block
}

type userRec struct {
	id, parent string
	ctxTokens  int
}

func (g *gen) full() bool { return g.n >= g.opt.TargetBytes }

// remaining is how many bytes may still be written before the target.
func (g *gen) remaining() int {
	return int(g.opt.TargetBytes - g.n - int64(len(g.line)))
}

// budget shrinks a wanted size so that the file does not run far past its
// target; near the end every part becomes small rather than disappearing. It
// keeps back room for the JSON around the part and the answer that closes
// the turn.
func (g *gen) budget(want int) int {
	const reserve = 1500
	// Escaping makes text about a tenth longer in JSON.
	if rem := (g.remaining() - reserve) * 9 / 10; rem < want {
		return max(rem, 200)
	}
	return want
}

func (g *gen) run() {
	g.header()
	if g.opt.Chain > 0 {
		g.chain()
		return
	}
	g.model = pickModel(&g.r)
	g.thinkingLevel = pick(&g.r, []string{"medium", "medium", "high", "low", "off", "minimal"})
	g.modelChange()
	g.thinkingChange()
	g.nextBranch = g.r.between(2, 3) + g.sh.firstBranch
	g.nextCompact = g.r.between(3, 5)
	g.nextLabel = 2
	g.fileSeen = map[string]uint8{}
	for g.err == nil && (g.turns == 0 || !g.full()) {
		if g.turns > 0 {
			g.betweenTurns()
		}
		g.turn()
		g.turns++
	}
}

// tick advances the clock by lo to hi milliseconds (at least 1, so entry
// timestamps strictly increase).
func (g *gen) tick(lo, hi int) int64 {
	g.clock += int64(max(1, g.r.between(lo, hi)))
	return g.clock
}

func appendISO(b []byte, ms int64) []byte {
	return time.UnixMilli(ms).UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
}

func (g *gen) newID() string {
	for {
		v := uint32(g.r.u64())
		if _, ok := g.used[v]; ok {
			continue
		}
		g.used[v] = struct{}{}
		var b [4]byte
		b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
		id := hex.EncodeToString(b[:])
		g.ids = append(g.ids, id)
		return id
	}
}

// begin starts an entry with its type and the tree fields, which pi writes
// right after the type for most entries.
func (g *gen) begin(typ string) string {
	g.line = append(g.line[:0], `{"type":`...)
	g.line = appendQuoted(g.line, typ)
	return g.treeFields()
}

// beginTail starts an entry whose tree fields come last (custom and
// custom_message, as pi writes them); call treeFields before end.
func (g *gen) beginTail(typ string) {
	g.line = append(g.line[:0], `{"type":`...)
	g.line = appendQuoted(g.line, typ)
}

func (g *gen) treeFields() string {
	id := g.newID()
	g.line = appendStrField(g.line, "id", id)
	g.line = appendKey(g.line, "parentId")
	if g.leaf == "" {
		g.line = append(g.line, "null"...)
	} else {
		g.line = appendQuoted(g.line, g.leaf)
	}
	g.line = appendKey(g.line, "timestamp")
	g.line = append(g.line, '"')
	g.line = appendISO(g.line, g.clock)
	g.line = append(g.line, '"')
	g.leaf = id
	return id
}

// end closes the entry with n closing braces and writes it out.
func (g *gen) end(n int) {
	for ; n > 0; n-- {
		g.line = append(g.line, '}')
	}
	g.line = append(g.line, '\n')
	if g.err == nil {
		_, g.err = g.w.Write(g.line)
	}
	g.n += int64(len(g.line))
	g.line = g.line[:0]
}

func (g *gen) header() {
	r := newRNG(g.opt.Seed ^ 0x4eade5)
	g.line = append(g.line[:0], `{"type":"session","version":3,"id":"`...)
	g.line = appendUUIDv7(g.line, &r, g.clock)
	g.line = append(g.line, `","timestamp":"`...)
	g.line = appendISO(g.line, g.clock)
	g.line = append(g.line, '"')
	g.line = appendStrField(g.line, "cwd", g.opt.Cwd)
	g.end(1)
}

// appendUUIDv7 appends a version 7 UUID for unix time ms, as pi uses for
// session ids.
func appendUUIDv7(b []byte, r *rng, ms int64) []byte {
	var u [16]byte
	u[0], u[1], u[2], u[3], u[4], u[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	x, y := r.u64(), r.u64()
	for i := 6; i < 16; i++ {
		if i < 11 {
			u[i] = byte(x >> (8 * (i - 6)))
		} else {
			u[i] = byte(y >> (8 * (i - 11)))
		}
	}
	u[6] = u[6]&0x0f | 0x70
	u[8] = u[8]&0x3f | 0x80
	var h [36]byte
	hex.Encode(h[0:8], u[0:4])
	h[8] = '-'
	hex.Encode(h[9:13], u[4:6])
	h[13] = '-'
	hex.Encode(h[14:18], u[6:8])
	h[18] = '-'
	hex.Encode(h[19:23], u[8:10])
	h[23] = '-'
	hex.Encode(h[24:36], u[10:16])
	return append(b, h[:]...)
}

// ParseSize parses a byte count such as "50MB", "1.5GB", "512KiB" or
// "1000". KB, MB and GB are powers of 1000; KiB, MiB and GiB powers of 1024.
func ParseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
		{"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"B", 1},
	}
	num, mult := s, 1.0
	for _, u := range units {
		if len(s) > len(u.suffix) && equalFold(s[len(s)-len(u.suffix):], u.suffix) {
			num, mult = s[:len(s)-len(u.suffix)], u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f*mult > 1<<62 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return int64(f * mult), nil
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
