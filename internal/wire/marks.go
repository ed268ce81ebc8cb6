package wire

import (
	"fmt"
	"strconv"

	"github.com/rootbound/rootbound/protocol"
)

// Mark's fields, by index.
const (
	MarkSeq = iota
	MarkBytes
	MarkDirs
	MarkFiles
	MarkSymlink
	MarkSpecial
	MarkIgnored
	MarkHidden
	MarkDenied
	MarkUnreadable
	MarkBinary   // 1: skipped as binary when read (a NUL in its first 8 KiB)
	MarkTooLarge // 1: skipped as over max_file_size
	MarkLen
)

// Skip's fields, by index.
const (
	SkipSeq = iota
	SkipBinary
	SkipTooLarge
	SkipUnreadable
	SkipLen
)

// ErrEntryBudget and ErrByteBudget are the errors of a spent work budget.
func ErrEntryBudget(max int64) *protocol.Error {
	return protocol.NewError(protocol.CodeBudget, fmt.Sprintf("work budget spent: %d directory entries visited", max))
}

func ErrByteBudget(max int64) *protocol.Error {
	return protocol.NewError(protocol.CodeBudget, fmt.Sprintf("work budget spent: %d bytes read", max))
}

// AppendMarkLine appends a shard's Walk line, as Encoder.Encode writes it.
func AppendWalkLine(dst []byte, id string, mark *[MarkLen]int64) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendString(dst, id)
	dst = append(dst, `,"walk":`...)
	return append(AppendMark(dst, mark), "}\n"...)
}

// Marks are sent in batches, a Mark line holding the marks of up to
// MarkBatch files in order: a line per file cost a shard more than its
// share of the search saved (a host's channel and a parse for each).
const MarkBatch = 256

// StartMarkLine, AppendMark and EndMarkLine write a Mark line of several
// marks, as Encoder.Encode writes it: start, then each mark (with a comma
// before all but the first), then end.
func StartMarkLine(dst []byte, id string) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendString(dst, id)
	return append(dst, `,"mark":[`...)
}

// AppendMark appends one mark, a JSON array.
func AppendMark(dst []byte, mark *[MarkLen]int64) []byte {
	dst = append(dst, '[')
	for i, v := range mark {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, v, 10)
	}
	return append(dst, ']')
}

func EndMarkLine(dst []byte) []byte { return append(dst, "]}\n"...) }

// ParseMarkLine reads a Mark line (walk false) or a Walk line (walk true,
// one mark) as they are written here, appending the marks to marks; ok is
// false for any other line.
func ParseMarkLine(line []byte, marks [][MarkLen]int64) (id string, walk bool, out [][MarkLen]int64, ok bool) {
	p := parser{b: line}
	if !p.lit(`{"id":`) {
		return "", false, marks, false
	}
	if id, ok = p.str(); !ok {
		return "", false, marks, false
	}
	walk = p.lit(`,"walk":`)
	if !walk && !p.lit(`,"mark":[`) {
		return "", false, marks, false
	}
	for first := true; ; first = false {
		if !walk && !first && !p.lit(",") {
			break
		}
		var m [MarkLen]int64
		if !p.lit("[") {
			return "", false, marks, false
		}
		for i := range m {
			if i > 0 && !p.lit(",") {
				return "", false, marks, false
			}
			n, ok := p.int()
			if !ok {
				return "", false, marks, false
			}
			m[i] = int64(n)
		}
		if !p.lit("]") {
			return "", false, marks, false
		}
		marks = append(marks, m)
		if walk {
			break
		}
	}
	if !walk && !p.lit("]") {
		return "", false, marks, false
	}
	if !p.lit("}") || !(p.i == len(p.b) || (p.i == len(p.b)-1 && p.b[p.i] == '\n')) {
		return "", false, marks, false
	}
	return id, walk, marks, true
}
