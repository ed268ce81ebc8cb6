package search

import (
	"unicode/utf8"

	"github.com/rootbound/rootbound/internal/meter"
)

// Sink receives what Search finds, in order, as ripgrep's grep-searcher
// hands it to a printer: matching lines and the context lines around them.
// Its methods return false to stop the search.
type Sink interface {
	// Matched receives a matching line (inverted: a line that does not
	// match), by its 1-based number and its bytes without the '\n'; with
	// Options.Spans, where its matches are in it, and how many matches
	// start in it (a multiline match spans lines: it is in each, and
	// starts in one).
	Matched(number int, line []byte, spans [][2]int, starts int) bool
	// Context receives a line before or after a match (Options.Before,
	// After). Lines never come twice, and always in order; a gap in the
	// numbers is a break between groups.
	Context(number int, line []byte) bool
}

// Options say what Search looks for and sends.
type Options struct {
	Before, After int  // context lines around each matching line
	Invert        bool // the lines that do not match are the matching lines (line search only)
	// MaxCount stops after this many matching lines (multiline: matches)
	// in the file, once their after-context is sent; 0: no bound.
	MaxCount int
	// Spans locates every match in each matching line; without it a sink
	// gets no spans, and Search only says which lines match.
	Spans bool
	// NoNumbers: the sink prints no line numbers (the count modes, files
	// with matches), so none are counted and every number is 0: counting
	// the lines before each match is a pass over the file's text.
	NoNumbers bool
}

// Searcher searches one buffer after another. Its zero value is ready. A
// caller that searches many files keeps one, and Search sets its fields one
// by one: in wasm, a searcher built on the goroutine's stack for each file
// (a local, or a struct literal copied into place) made the CLI row of
// `make bench` for `grep -c [a-z]{20,}` take 2,556 ms against 1,989 ms,
// the cost growing with what the call had searched before.
type Searcher struct{ searcher }

// Search finds what m matches in buf and tells sink, line by line, with
// the context lines asked for. Memory: nothing beyond buf and the spans of
// one line (or of one multiline match). Every loop charges mt.
func (x *Searcher) Search(buf []byte, m Matcher, o Options, mt *meter.Meter, sink Sink) error {
	s := &x.searcher
	s.buf, s.m, s.o, s.mt, s.sink = buf, m, o, mt, sink
	s.numPos, s.num, s.nextMatch, s.nextMatchEnd, s.spans, s.stopped = 0, 1, -2, 0, s.spans[:0], false
	if m.Multiline() {
		return s.multiline() // an inverted search takes lines: its caller refuses Invert here
	}
	return s.lines()
}

type searcher struct {
	buf  []byte
	m    Matcher
	o    Options
	mt   *meter.Meter
	sink Sink

	// Line numbers: the line starting at numPos is number num.
	numPos, num int
	// Inverted search: the next line m matches at or after a position
	// (-2: not looked for yet; -1: none).
	nextMatch, nextMatchEnd int
	spans                   [][2]int
	stopped                 bool
}

// number returns the number of the line that starts at pos (pos at or
// after every position asked before).
func (s *searcher) number(pos int) (int, error) {
	if s.o.NoNumbers {
		return 0, nil
	}
	n, err := meter.CountByte(s.mt, s.buf[s.numPos:pos], '\n')
	if err != nil {
		return 0, err
	}
	s.num += n
	s.numPos = pos
	return s.num, nil
}

// lineEnd returns the end of the line that starts at pos.
func (s *searcher) lineEnd(pos int) (int, error) {
	i, err := meter.IndexByte(s.mt, s.buf[pos:], '\n')
	if err != nil {
		return 0, err
	}
	if i < 0 {
		return len(s.buf), nil
	}
	return pos + i, nil
}

// nextHit returns the next matching line at or after pos (a line start):
// m's next line, or, inverted, the next line m does not match.
func (s *searcher) nextHit(pos int) (int, int, error) {
	if pos >= len(s.buf) {
		return -1, -1, nil
	}
	if !s.o.Invert {
		return s.m.NextLine(s.buf, pos, s.mt)
	}
	for pos < len(s.buf) {
		if s.nextMatch != -1 && s.nextMatch < pos {
			start, end, err := s.m.NextLine(s.buf, pos, s.mt)
			if err != nil {
				return -1, -1, err
			}
			s.nextMatch, s.nextMatchEnd = start, end
		}
		if s.nextMatch == -1 || pos < s.nextMatch {
			end, err := s.lineEnd(pos)
			return pos, end, err
		}
		pos = s.nextMatchEnd + 1 // a matching line: not a hit
	}
	return -1, -1, nil
}

// context sends the lines that start in [from, to) as context, at most
// max of them (from the first), and returns where it stopped.
func (s *searcher) context(from, to, max int) (int, error) {
	for sent := 0; from < to && sent < max && from < len(s.buf); sent++ {
		end, err := s.lineEnd(from)
		if err != nil {
			return from, err
		}
		n, err := s.number(from)
		if err != nil {
			return from, err
		}
		if !s.sink.Context(n, s.buf[from:end]) {
			s.stopped = true
			return from, nil
		}
		from = end + 1
	}
	return from, nil
}

// before returns where the before-context of a hit at start begins: up to
// Before lines back, not before from.
func (s *searcher) before(from, start int) (int, error) {
	p := start
	for range s.o.Before {
		if p <= from {
			break
		}
		i, err := meter.LastIndexByte(s.mt, s.buf[from:p-1], '\n')
		if err != nil {
			return 0, err
		}
		p = from + i + 1
	}
	return max(p, from), nil
}

// lines is the search of a line matcher.
func (s *searcher) lines() error {
	pos, afterLeft, hits := 0, 0, 0
	for !s.stopped {
		start, end := -1, -1
		if s.o.MaxCount == 0 || hits < s.o.MaxCount {
			var err error
			if start, end, err = s.nextHit(pos); err != nil {
				return err
			}
		}
		limit := start
		if start < 0 {
			limit = len(s.buf)
		}
		if afterLeft > 0 {
			next, err := s.context(pos, limit, afterLeft)
			if err != nil || s.stopped {
				return err
			}
			pos = next
		}
		if start < 0 {
			return nil
		}
		if s.o.Before > 0 {
			from, err := s.before(pos, start)
			if err != nil {
				return err
			}
			if _, err := s.context(from, start, s.o.Before); err != nil || s.stopped {
				return err
			}
		}
		n, err := s.number(start)
		if err != nil {
			return err
		}
		line := s.buf[start:end]
		var spans [][2]int
		if s.o.Spans && !s.o.Invert {
			if spans, err = s.locate(line); err != nil {
				return err
			}
		}
		hits++
		if !s.sink.Matched(n, line, spans, len(spans)) {
			return nil
		}
		pos, afterLeft = end+1, s.o.After
		if pos > len(s.buf) {
			return nil
		}
	}
	return nil
}

// locate returns every match in line, leftmost-first, one after another;
// an empty match moves the search on by a character.
func (s *searcher) locate(line []byte) ([][2]int, error) {
	spans := s.spans[:0]
	for from := 0; from <= len(line); {
		st, en, err := s.m.LocateAt(line, from, s.mt)
		if err != nil {
			return nil, err
		}
		if st < 0 {
			break
		}
		spans = append(spans, [2]int{st, en})
		from = en
		if en == st {
			from = st + runeLen(line[st:])
		}
	}
	s.spans = spans
	return spans, nil
}

// runeLen is the length of the character at the start of b (1 at its end,
// to move past it).
func runeLen(b []byte) int {
	if len(b) == 0 {
		return 1
	}
	_, size := utf8.DecodeRune(b)
	return size
}

// multiline is the search of a multiline matcher: each match, and the
// matches that start on its last line, make a block of lines, each sent
// once with the parts of the matches in it.
func (s *searcher) multiline() error {
	pos, afterLeft, taken, from := 0, 0, 0, 0
	peeked := false
	var next [2]int
	// peek returns the next match, without taking it.
	peek := func() ([2]int, error) {
		if peeked {
			return next, nil
		}
		next = [2]int{-1, -1}
		if from <= len(s.buf) && (s.o.MaxCount == 0 || taken < s.o.MaxCount) {
			st, en, err := s.m.LocateAt(s.buf, from, s.mt)
			if err != nil {
				return next, err
			}
			if st == len(s.buf) && st > 0 && s.buf[st-1] == '\n' {
				st = -1 // an empty match after the final '\n': no line there
			}
			if st >= 0 {
				next, from = [2]int{st, en}, en
				if en == st {
					from = st + runeLen(s.buf[st:])
				}
			}
		}
		peeked = true
		return next, nil
	}
	// lastLine returns the end of the last line a match is in.
	lastLine := func(mt [2]int) (int, error) { return s.lineEnd(max(mt[0], mt[1]-1)) }
	for !s.stopped {
		first, err := peek()
		if err != nil {
			return err
		}
		blockStart := len(s.buf)
		if first[0] >= 0 {
			back, err := meter.LastIndexByte(s.mt, s.buf[pos:first[0]], '\n')
			if err != nil {
				return err
			}
			blockStart = pos + back + 1
		}
		if afterLeft > 0 {
			next, err := s.context(pos, blockStart, afterLeft)
			if err != nil || s.stopped {
				return err
			}
			pos = next
		}
		if first[0] < 0 {
			return nil
		}
		if s.o.Before > 0 {
			b, err := s.before(pos, blockStart)
			if err != nil {
				return err
			}
			if _, err := s.context(b, blockStart, s.o.Before); err != nil || s.stopped {
				return err
			}
		}
		// The block: this match, and the next ones that start in it.
		var matches [][2]int
		blockEnd := -1
		for {
			mt, err := peek()
			if err != nil {
				return err
			}
			if mt[0] < 0 || len(matches) > 0 && mt[0] > blockEnd {
				break
			}
			peeked = false
			taken++
			matches = append(matches, mt)
			e, err := lastLine(mt)
			if err != nil {
				return err
			}
			blockEnd = max(blockEnd, e)
		}
		for ls := blockStart; ls <= blockEnd; {
			le, err := s.lineEnd(ls)
			if err != nil {
				return err
			}
			var spans [][2]int
			starts := 0
			for _, mt := range matches {
				if mt[0] >= ls && mt[0] <= le {
					starts++
				}
				if a, b := max(mt[0], ls), min(mt[1], le); a < b || mt[0] == mt[1] && mt[0] >= ls && mt[0] <= le {
					spans = append(spans, [2]int{a - ls, max(a, b) - ls})
				}
			}
			n, err := s.number(ls)
			if err != nil {
				return err
			}
			if !s.o.Spans {
				spans = nil
			}
			if !s.sink.Matched(n, s.buf[ls:le], spans, starts) {
				return nil
			}
			ls = le + 1
		}
		pos, afterLeft = blockEnd+1, s.o.After
		if pos > len(s.buf) {
			return nil
		}
	}
	return nil
}
