// Package page decides a result's fate: whether it is skipped (before the
// offset), sent, or past the page (max results reached: the answer is
// truncated and ends); which context lines go out with the results sent;
// where a group of lines breaks (rg's `--`); and where the answer's bytes
// run out. The module's call decides one instance's answer with it, and
// the host replays the same decisions over the shards of a split grep, so
// the two cannot decide differently.
//
// A Page only decides: its caller writes what it is told to, in order.
// It holds a line's content, of type T, only while the line waits to be
// told whether it is before-context of a result to come.
package page

// Fate is what becomes of a result.
type Fate uint8

const (
	Skipped Fate = iota // before the offset: not sent
	Sent                // sent, after the context lines Held returns
	Past                // past the page: the answer is truncated, and ends
)

// Limits are what a Page is made of.
type Limits struct {
	Offset int // results skipped before the first sent
	Max    int // results sent before the next one truncates the answer
	// Before and After are the context lines around a result (rg's -B,
	// -A): either above 0 also groups lines, with a break where a line
	// does not follow the last one written.
	Before, After int
	// MaxOutput bounds the bytes of item lines written; 0: no bound.
	MaxOutput int64
}

// Held is a context line waiting for the result it may come before.
type Held[T any] struct {
	Line int
	V    T
}

// A Page decides one answer's results; its zero value has room for none.
type Page[T any] struct {
	l    Limits
	skip int

	results   int
	truncated bool
	capped    bool
	output    int64

	last int // the line of the file's last result sent; 0: none yet
	// held: context lines waiting for the next result, in line order;
	// the last Before of them are live (the older half is dropped when
	// it fills, so holding a line costs O(1), whatever Before is).
	held []Held[T]

	written  bool // a grouped line was written: lastPath, lastLine
	lastPath string
	lastLine int
}

// New returns a page of the results past l.Offset, at most l.Max of them.
func New[T any](l Limits) Page[T] {
	return Page[T]{l: l, skip: l.Offset}
}

// File starts the next file: context lines do not cross files.
func (p *Page[T]) File() { p.last, p.held = 0, p.held[:0] }

// Next decides the fate of the next result. A Sent result is counted
// when the caller has written it (Sent); Past marks the answer truncated.
func (p *Page[T]) Next() Fate {
	switch {
	case p.skip > 0:
		// Held lines stay: within Before of the next result, they are
		// its context too.
		p.skip--
		return Skipped
	case p.results == p.l.Max:
		p.truncated = true
		return Past
	}
	return Sent
}

// Held returns the held context lines that go out before a result on line
// n, in order: those within Before lines of it. Valid until the next call.
func (p *Page[T]) Held(n int) []Held[T] {
	i := max(0, len(p.held)-p.l.Before)
	for i < len(p.held) && p.held[i].Line < n-p.l.Before {
		i++
	}
	return p.held[i:]
}

// Sent counts a result, on line n (0: not a line), that was written.
func (p *Page[T]) Sent(n int) {
	p.results++
	p.held = p.held[:0]
	if n > 0 {
		p.last = n
	}
}

// Context decides a context line, on line n, whose content is v: true,
// it follows the file's last result sent closely enough and goes out now;
// false, it is held as before-context of the next result (the last
// Before of them), or, when none is asked for, dropped.
func (p *Page[T]) Context(n int, v T) bool {
	switch {
	case p.last > 0 && n <= p.last+p.l.After:
		return true
	case p.l.Before == 0:
		return false
	case len(p.held) == 2*p.l.Before:
		p.held = append(p.held[:0], p.held[p.l.Before:]...)
	}
	p.held = append(p.held, Held[T]{n, v})
	return false
}

// grouped reports whether a line n is grouped: context was asked for
// and it is a line.
func (p *Page[T]) grouped(n int) bool { return n > 0 && (p.l.Before > 0 || p.l.After > 0) }

// Break reports whether an item line for line n of path starts a new
// group: it does not follow the last grouped line written.
func (p *Page[T]) Break(path string, n int) bool {
	return p.grouped(n) && p.written && (path != p.lastPath || n > p.lastLine+1)
}

// Fits accounts an item line of size bytes for line n of path (as Break
// took it): false, it would take the item lines past MaxOutput bytes, and
// the answer is truncated there, without it.
func (p *Page[T]) Fits(size int, path string, n int) bool {
	if p.l.MaxOutput > 0 && p.output+int64(size) > p.l.MaxOutput {
		p.truncated, p.capped = true, true
		return false
	}
	p.output += int64(size)
	if p.grouped(n) {
		p.lastPath, p.lastLine, p.written = path, n, true
	}
	return true
}

// NextOffset is the offset of the page after this one: past the results
// skipped and sent.
func (p *Page[T]) NextOffset() int { return p.l.Offset + p.results }

// Results is how many results were sent.
func (p *Page[T]) Results() int { return p.results }

// Truncated reports whether the answer ends before its last result:
// Next said Past, or Fits said no.
func (p *Page[T]) Truncated() bool { return p.truncated }

// Capped reports whether MaxOutput truncated the answer.
func (p *Page[T]) Capped() bool { return p.capped }
