package session

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// A batch is a run of lines decoded together. Decoding JSON is most of
// the cost of loading, so batches are decoded on every core while one
// goroutine reads the file and another takes the results in file order.
type batch struct {
	buf      []byte
	lines    []lineRef
	objects  []object
	warnings []batchWarning
	crlf     bool // a CRLF warning is already in warnings
	done     chan struct{}
	// at and size are the place in the file of the line being decoded,
	// sum its checksum in a lean load (lean.go).
	at   int64
	size int
	sum  uint64
	lean bool
	// maxLine is the loader's bound on a line.
	maxLine int
}

type lineRef struct {
	start, end, number int
	// at and size are the line's place in the file (see object).
	at       int64
	size     int
	complete bool // the line ended in '\n'
	tooLong  bool // the line passed the loader's bound and was skipped
}

type batchWarning struct {
	kind string
	line int
	text string
}

func (b *batch) warn(kind string, line int, format string, args ...any) {
	b.warnings = append(b.warnings, batchWarning{kind, line, fmt.Sprintf(format, args...)})
}

// Batches close at about batchBytes of text, or batchLines lines.
const (
	batchBytes = 1 << 20
	batchLines = 4096
)

// MaxLineBytes bounds what one line may cost: a longer line is skipped,
// with a warning, so that a file of zeros or of random bytes without a
// newline cannot take all memory. Real lines reach tens of megabytes
// (tool output, images); decoding one costs a few times its size.
const MaxLineBytes = 256 << 20

// readLines reads r one line at a time. Lines can be tens of megabytes long
// (tool output), so the reader's buffer is only a window: a line is
// gathered into its batch piece by piece.
func (l *loader) readLines(r *bufio.Reader) error {
	work := make(chan *batch, 4)
	ordered := make(chan *batch, 8)
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for b := range work {
				b.decode()
				close(b.done)
			}
		}()
	}
	var readErr error
	lines := 0
	go func() {
		defer close(work)
		defer close(ordered)
		readErr = readBatches(r, &lines, cmp.Or(l.maxLine, MaxLineBytes), func(b *batch) {
			b.lean = l.lean
			work <- b
			ordered <- b
		})
	}()
	var read int64
	for b := range ordered {
		<-b.done
		for _, w := range b.warnings {
			l.addWarning(w.kind, w.line, w.text)
		}
		l.objects = append(l.objects, b.objects...)
		read += int64(len(b.buf))
		if l.progress != nil {
			l.progress(read, len(l.objects))
		}
		// Decoding copied what the entries keep out of the lines.
		putBatchBuffer(b.buf)
	}
	l.line = lines
	return readErr
}

// readBatches splits r into batches of whole lines and hands each to send.
// lines counts the lines read, for the error of a failed read; a line
// over maxLine bytes is skipped.
func readBatches(r *bufio.Reader, lines *int, maxLine int, send func(*batch)) error {
	b := &batch{buf: getBatchBuffer(), done: make(chan struct{}), maxLine: maxLine}
	var at int64 // the file offset of the line being read
	flush := func() {
		send(b)
		b = &batch{buf: getBatchBuffer(), done: make(chan struct{}), maxLine: maxLine}
	}
	// The last batch is sent if it holds lines; its buffer goes back if
	// not. (Taking a fresh buffer after it would drain the pool by one
	// per file read, and a read of a few lines would then allocate a
	// megabyte.)
	defer func() {
		if len(b.lines) > 0 {
			send(b)
		} else {
			putBatchBuffer(b.buf)
		}
	}()
	for {
		start := len(b.buf)
		chunk, err := r.ReadSlice('\n')
		b.buf = append(b.buf, chunk...)
		size := len(chunk)
		tooLong := false
		for err == bufio.ErrBufferFull {
			chunk, err = r.ReadSlice('\n')
			size += len(chunk)
			if !tooLong && len(b.buf)-start+len(chunk) > maxLine {
				tooLong = true
				b.buf = b.buf[:start]
			}
			if !tooLong {
				b.buf = append(b.buf, chunk...)
			}
		}
		if err != nil && err != io.EOF {
			*lines++
			return err
		}
		if len(b.buf) == start && err == io.EOF && !tooLong {
			return nil
		}
		*lines++
		b.lines = append(b.lines, lineRef{start: start, end: len(b.buf), number: *lines, at: at, size: size, complete: err == nil, tooLong: tooLong})
		at += int64(size)
		if err == io.EOF {
			return nil
		}
		if len(b.buf) >= batchBytes || len(b.lines) >= batchLines {
			flush()
		}
	}
}

// Batch buffers are reused: grown line by line, each would cost a
// loaded session about five times its size in allocation.
var batchBuffers = sync.Pool{New: func() any { return make([]byte, 0, batchBytes+batchBytes/4) }}

func getBatchBuffer() []byte { return batchBuffers.Get().([]byte)[:0] }

func putBatchBuffer(b []byte) {
	// A buffer grown for a huge line is let go.
	if cap(b) <= 4*batchBytes {
		batchBuffers.Put(b[:0])
	}
}
