package host

import (
	"github.com/rootbound/rootbound/protocol"
)

// A merger replays one instance's call over the answers of the shards of a
// split grep (protocol/shard.go): it takes their lines in position order
// and decides, as the module's call does, each result's fate (offset,
// max_results, max_output_bytes), which context lines go out, the `--`
// breaks, the byte budget, the 20 problem lines, and the counts at the
// point where the call ends. Nothing in it waits or reads: shards.go feeds
// it.
type merger struct {
	id        string
	offset    int
	max       int
	maxOutput int64
	maxBytes  int64
	groups    bool // context lines were asked for
	before    int
	after     int
	emit      func(raw []byte, l *protocol.Line) error
	line      []byte
	items     protocol.ItemWriter
	enc       *protocol.Encoder
	lineBuf   lineBuffer

	skip      int
	results   int
	output    int64
	problems  int
	truncated bool
	capped    bool
	end       *protocol.Error // the byte budget, when it ended the call
	ended     bool

	filesRead, bytesRead         int64
	binary, tooLarge, unreadable int64
	walk                         [protocol.MarkLen]int64 // the mark of the file being merged

	// The file being merged: its last result sent, and context lines held
	// until the next result says whether they go out.
	last int
	held []protocol.Item
	// Breaks: the last item line written.
	written  bool
	lastPath protocol.Data
	lastLine int
}

// lineBuffer is where the encoder writes one line at a time.
type lineBuffer struct{ b []byte }

func (w *lineBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func newMerger(id string, g *protocol.GrepArgs, l *protocol.Limits, emit func(raw []byte, l *protocol.Line) error) *merger {
	m := &merger{id: id, offset: g.Offset, max: g.MaxResults, emit: emit}
	if m.max == 0 {
		m.max = protocol.DefaultMaxResults
	}
	m.skip = m.offset
	if l != nil {
		m.maxOutput, m.maxBytes = l.MaxOutputBytes, l.MaxBytes
	}
	m.before, m.after = g.ContextLines()
	m.groups = m.before > 0 || m.after > 0
	m.enc = protocol.NewEncoder(&m.lineBuf)
	return m
}

// mark starts a file: it was read; the walk's counts are where it was.
// It ends the call when the byte budget is spent.
func (m *merger) mark(mark [protocol.MarkLen]int64) {
	m.walk = mark
	m.filesRead++
	m.bytesRead += mark[protocol.MarkBytes]
	m.last, m.held = 0, m.held[:0]
	if m.maxBytes > 0 && m.bytesRead > m.maxBytes {
		m.end, m.ended = protocol.ErrByteBudget(m.maxBytes), true
		return // the budget ends the call before the file is looked at
	}
	m.binary += mark[protocol.MarkBinary]
	m.tooLarge += mark[protocol.MarkTooLarge]
}

// walkRead counts bytes the walk read (an ignore file), at the walk's
// counts then; it ends the call when the byte budget is spent.
func (m *merger) walkRead(mark [protocol.MarkLen]int64) {
	m.walk = mark
	m.bytesRead += mark[protocol.MarkBytes]
	if m.maxBytes > 0 && m.bytesRead > m.maxBytes {
		m.end, m.ended = protocol.ErrByteBudget(m.maxBytes), true
	}
}

// skipped counts a file passed over.
func (m *merger) skipped(skip []int64) {
	if len(skip) == protocol.SkipLen {
		m.binary += skip[protocol.SkipBinary]
		m.tooLarge += skip[protocol.SkipTooLarge]
		m.unreadable += skip[protocol.SkipUnreadable]
	}
}

// item takes an item line of a shard's: a result, whose fate is the
// call's to decide, or a context line, which goes out after the last result
// sent or before the next one, as the module's sink sends them.
func (m *merger) item(it *protocol.Item) error {
	if it.Context {
		switch {
		case m.last > 0 && it.LineNumber <= m.last+m.after:
			return m.write(it)
		case m.before == 0:
			return nil
		case len(m.held) == m.before:
			m.held = append(m.held[:0], m.held[1:]...)
		}
		m.held = append(m.held, *it)
		return nil
	}
	switch {
	case m.skip > 0:
		m.skip--
		m.held = m.held[:0]
		return nil
	case m.results == m.max:
		m.truncated, m.ended = true, true
		return nil
	}
	for i := range m.held {
		if h := &m.held[i]; h.LineNumber >= it.LineNumber-m.before {
			if err := m.write(h); err != nil || m.ended {
				return err
			}
		}
	}
	m.held = m.held[:0]
	if err := m.write(it); err != nil || m.ended {
		return err
	}
	m.results++
	if it.LineNumber > 0 {
		m.last = it.LineNumber
	}
	return nil
}

// write sends an item line, or ends the call when it would take the
// answer's item lines past maxOutput bytes.
func (m *merger) write(it *protocol.Item) error {
	grouped := m.groups && it.LineNumber > 0
	it.Break = false
	if grouped {
		it.Break = m.written && (it.Path != m.lastPath || it.LineNumber > m.lastLine+1)
	}
	m.line = m.items.Append(m.line[:0], m.id, it)
	if m.maxOutput > 0 && m.output+int64(len(m.line)) > m.maxOutput {
		m.truncated, m.capped, m.ended = true, true, true
		return nil
	}
	m.output += int64(len(m.line))
	if grouped {
		m.lastPath, m.lastLine, m.written = it.Path, it.LineNumber, true
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
// mark of the file it ended in), the files' own, and the notice of a
// truncated answer (w); ignoredBy is every shard's.
func (m *merger) done(end *protocol.Done, ignoredBy string, w protocol.Wording) protocol.Done {
	walk := m.walk
	d := protocol.Done{Status: protocol.StatusComplete, Results: m.results, Truncated: m.truncated, IgnoredBy: ignoredBy}
	if end != nil {
		d.Status, d.Error = end.Status, end.Error
		walk = [protocol.MarkLen]int64{
			protocol.MarkDirs: end.Stats.Dirs, protocol.MarkFiles: end.Stats.Files,
			protocol.MarkSymlink: end.Skipped.Symlink, protocol.MarkSpecial: end.Skipped.Special,
			protocol.MarkIgnored: end.Skipped.Ignored, protocol.MarkHidden: end.Skipped.Hidden,
			protocol.MarkDenied: end.Skipped.Denied, protocol.MarkUnreadable: end.Skipped.Unreadable,
		}
	}
	if m.end != nil {
		d.Status, d.Error = protocol.StatusPartial, m.end
	}
	d.Skipped = protocol.Skipped{
		Binary: m.binary, TooLarge: m.tooLarge, Unreadable: walk[protocol.MarkUnreadable] + m.unreadable,
		Symlink: walk[protocol.MarkSymlink], Special: walk[protocol.MarkSpecial], Ignored: walk[protocol.MarkIgnored],
		Hidden: walk[protocol.MarkHidden], Denied: walk[protocol.MarkDenied],
	}
	d.Stats = protocol.Stats{Dirs: walk[protocol.MarkDirs], Files: walk[protocol.MarkFiles], FilesRead: m.filesRead, BytesRead: m.bytesRead}
	if m.truncated {
		d.Narrow, d.NextOffset = w.Narrow(m.offset, m.max, m.results, m.capped, m.maxOutput)
	}
	return d
}
