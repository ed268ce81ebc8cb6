package host

import (
	"cmp"

	"github.com/rootbound/rootbound/internal/page"
	"github.com/rootbound/rootbound/internal/wire"
	"github.com/rootbound/rootbound/protocol"
)

// A merger replays one instance's call over the answers of the shards of a
// split grep or glob (protocol/shard.go, internal/wire/marks.go): it takes their lines in position order
// and has the page the module's call uses (internal/page) decide each
// result's fate (offset, max_results, max_output_bytes), which context
// lines go out and the `--` breaks; it keeps the byte budget, the 20
// problem lines, and the counts at the point where the call ends. Nothing
// in it waits or reads: shards.go feeds it.
type merger struct {
	id       string
	reads    bool // a grep's: a mark is a file read (a glob's, a file found)
	maxBytes int64
	page     page.Page[protocol.Item]
	emit     func(raw []byte, l *protocol.Line) error
	line     []byte
	items    wire.ItemWriter
	enc      *protocol.Encoder
	lineBuf  lineBuffer

	problems int
	end      *protocol.Error // the byte budget, when it ended the call
	ended    bool

	filesRead, bytesRead         int64
	binary, tooLarge, unreadable int64
	walk                         [wire.MarkLen]int64 // the mark of the file being merged
	// base: in a split by ranges, the walk's counts of the ranges merged
	// whole, which a range's own counts come on top of.
	base [wire.MarkLen]int64
}

// walkCounts are the fields of a mark that count what the walk did.
var walkCounts = []int{wire.MarkDirs, wire.MarkFiles, wire.MarkSymlink, wire.MarkSpecial,
	wire.MarkIgnored, wire.MarkHidden, wire.MarkDenied, wire.MarkUnreadable}

// counted is a shard's mark with the walk's counts of the call so far:
// its own, and the ranges' before it.
func (m *merger) counted(mark [wire.MarkLen]int64) [wire.MarkLen]int64 {
	for _, i := range walkCounts {
		mark[i] += m.base[i]
	}
	return mark
}

// rangeDone adds a range walked whole: its final line's counts.
func (m *merger) rangeDone(d *protocol.Done) {
	m.base = m.counted(doneCounts(d))
	m.walk = m.base
}

// doneCounts is a final line's walk counts, as a mark's.
func doneCounts(d *protocol.Done) [wire.MarkLen]int64 {
	return [wire.MarkLen]int64{
		wire.MarkDirs: d.Stats.Dirs, wire.MarkFiles: d.Stats.Files,
		wire.MarkSymlink: d.Skipped.Symlink, wire.MarkSpecial: d.Skipped.Special,
		wire.MarkIgnored: d.Skipped.Ignored, wire.MarkHidden: d.Skipped.Hidden,
		wire.MarkDenied: d.Skipped.Denied, wire.MarkUnreadable: d.Skipped.Unreadable,
	}
}

// lineBuffer is where the encoder writes one line at a time.
type lineBuffer struct{ b []byte }

func (w *lineBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// newMerger is the merger of a split grep or glob.
func newMerger(req *protocol.Request, emit func(raw []byte, l *protocol.Line) error) *merger {
	m := &merger{id: req.ID, emit: emit, reads: req.Grep != nil}
	var pl page.Limits
	if g := req.Grep; g != nil {
		pl = page.Limits{Offset: g.Offset, Max: cmp.Or(g.MaxResults, protocol.DefaultMaxResults)}
		pl.Before, pl.After = g.ContextLines()
	} else {
		pl = page.Limits{Offset: req.Glob.Offset, Max: cmp.Or(req.Glob.MaxResults, protocol.DefaultMaxResults)}
	}
	if l := req.Limits; l != nil {
		pl.MaxOutput, m.maxBytes = l.MaxOutputBytes, l.MaxBytes
	}
	m.page = page.New[protocol.Item](pl)
	m.enc = protocol.NewEncoder(&m.lineBuf)
	return m
}

// mark starts a file: it was read; the walk's counts are where it was.
// It ends the call when the byte budget is spent.
func (m *merger) mark(mark [wire.MarkLen]int64) {
	m.walk = m.counted(mark)
	if m.reads {
		m.filesRead++
	}
	m.bytesRead += mark[wire.MarkBytes]
	m.page.File()
	if m.maxBytes > 0 && m.bytesRead > m.maxBytes {
		m.end, m.ended = wire.ErrByteBudget(m.maxBytes), true
		return // the budget ends the call before the file is looked at
	}
	m.binary += mark[wire.MarkBinary]
	m.tooLarge += mark[wire.MarkTooLarge]
}

// found starts a file a glob's shard found at position seq: the walk's
// counts are those of the last mark or walk line (a glob's shard marks a
// file only where they changed), and its files the position's.
func (m *merger) found(seq int64) {
	if m.reads {
		return
	}
	m.walk[wire.MarkFiles] = m.base[wire.MarkFiles] + seq - protocol.RangeSeq(int(seq>>40)) + 1
}

// walkRead counts bytes the walk read (an ignore file), at the walk's
// counts then; it ends the call when the byte budget is spent.
func (m *merger) walkRead(mark [wire.MarkLen]int64) {
	m.walk = m.counted(mark)
	m.bytesRead += mark[wire.MarkBytes]
	if m.maxBytes > 0 && m.bytesRead > m.maxBytes {
		m.end, m.ended = wire.ErrByteBudget(m.maxBytes), true
	}
}

// skipped counts a file passed over.
func (m *merger) skipped(skip []int64) {
	if len(skip) == wire.SkipLen {
		m.binary += skip[wire.SkipBinary]
		m.tooLarge += skip[wire.SkipTooLarge]
		m.unreadable += skip[wire.SkipUnreadable]
	}
}

// item takes an item line of a shard's: a result, or a context line,
// whose fate the page decides as the module's call does.
func (m *merger) item(it *protocol.Item) error {
	p := &m.page
	if it.Context {
		if p.Context(it.LineNumber, *it) {
			return m.write(it)
		}
		return nil
	}
	switch p.Next() {
	case page.Skipped:
		return nil
	case page.Past:
		m.ended = true
		return nil
	}
	for _, h := range p.Held(it.LineNumber) {
		if err := m.write(&h.V); err != nil || m.ended {
			return err
		}
	}
	if err := m.write(it); err != nil || m.ended {
		return err
	}
	p.Sent(it.LineNumber)
	return nil
}

// write sends an item line, or ends the call when it would take the
// answer's item lines past maxOutput bytes.
func (m *merger) write(it *protocol.Item) error {
	it.Break = m.page.Break(string(it.Path), it.LineNumber)
	m.line = m.items.Append(m.line[:0], m.id, it)
	if !m.page.Fits(len(m.line), string(it.Path), it.LineNumber) {
		m.ended = true
		return nil
	}
	return m.emit(m.line, &protocol.Line{ID: m.id, Item: it})
}

// problem sends a problem line, the first 20 of the call.
func (m *merger) problem(p *protocol.Problem) error {
	if m.problems >= maxProblemLines {
		return nil
	}
	m.problems++
	l := &protocol.Line{ID: m.id, Problem: p}
	m.lineBuf.b = m.lineBuf.b[:0]
	if err := m.enc.Encode(l); err != nil {
		return err
	}
	return m.emit(m.lineBuf.b, l)
}

// maxProblemLines is the module's bound on problem lines in one answer.
const maxProblemLines = 20

// done is the call's final line: the walk's counts where it ended (end,
// the shard's final line that ended it, or, when the merger ended it, the
// mark of the file it ended in), the files' own, and where a truncated
// answer's next page starts; ignoredBy is every shard's.
func (m *merger) done(end *protocol.Done, ignoredBy string) protocol.Done {
	walk := m.walk
	d := protocol.Done{Status: protocol.StatusComplete, Results: m.page.Results(), Truncated: m.page.Truncated(), IgnoredBy: ignoredBy}
	if end != nil {
		d.Status, d.Error = end.Status, end.Error
		walk = m.counted(doneCounts(end))
	}
	if m.end != nil {
		d.Status, d.Error = protocol.StatusPartial, m.end
	}
	d.Skipped = protocol.Skipped{
		Binary: m.binary, TooLarge: m.tooLarge, Unreadable: walk[wire.MarkUnreadable] + m.unreadable,
		Symlink: walk[wire.MarkSymlink], Special: walk[wire.MarkSpecial], Ignored: walk[wire.MarkIgnored],
		Hidden: walk[wire.MarkHidden], Denied: walk[wire.MarkDenied],
	}
	d.Stats = protocol.Stats{Dirs: walk[wire.MarkDirs], Files: walk[wire.MarkFiles], FilesRead: m.filesRead, BytesRead: m.bytesRead}
	if d.Truncated {
		d.Capped, d.NextOffset = m.page.Capped(), m.page.NextOffset()
	}
	return d
}
