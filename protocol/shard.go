package protocol

import (
	"fmt"
	"strconv"
)

// A grep can be split across instances of the module, each searching a
// share of the files, and the answers merged by the host into exactly the
// answer one instance gives (RATIONALE.md, "Why split a grep by files?").
//
// Every shard walks the whole tree in the same order and counts what the
// walk passes over, as one instance does; of the files the walk hands to
// the search (in walk order, or newest first when sorted by time), the
// shard with index i searches those whose position p has p % count == i.
// Its answer says, besides its items and problems, where each line belongs
// and what each of its files cost, so the host can replay one instance's
// call: its offset, max_results and max_output_bytes, the byte budget, the
// counts at the result where it stopped, and the 20 problem lines.
//
//   - An item or problem line carries Seq: the position of the file it is
//     about. A problem about no file (a directory that could not be read,
//     an ignore file not applied) has the position of the next file, and
//     only shard 0 sends it (every shard counts it).
//   - Before a file's own lines, its mark: [position, bytes read, then the
//     walk's counts when the search took the file: dirs, files, symlink,
//     special, ignored, hidden, denied, unreadable; then 1 if the file was
//     skipped when read as binary, 1 if as too large]; a Mark line holds
//     the marks of up to MarkBatch files, sent before any other line.
//   - After them, when the file was skipped later (a NUL past the first
//     8 KiB, a read that failed): a Skip, [position, binary, too_large,
//     unreadable].
//   - When the walk reads an ignore file: a Walk, as a Mark with the
//     position of the next file and the bytes read; only shard 0 sends it.
//   - Done counts the walk's share only (Mark's order), with no files read
//     and no bytes, and Shard says where the shard stopped.
//
// A shard applies no offset and no output cap: it sends results until
// offset+max_results+1, the last of which truncates it. Its byte budget is
// the call's: a shard never reaches it before the whole call does.

// MaxShards bounds Shard.Count.
const MaxShards = 256

// Shard is one share of a split grep.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Check validates a shard.
func (s *Shard) Check() *Error {
	if s.Count < 1 || s.Count > MaxShards || s.Index < 0 || s.Index >= s.Count {
		return NewError(CodeInvalidArgument, fmt.Sprintf("shard %d of %d, want a count of 1 to %d and an index below it", s.Index, s.Count, MaxShards))
	}
	return nil
}

// Owns reports whether the shard searches the file at position seq.
func (s *Shard) Owns(seq int64) bool { return seq%int64(s.Count) == int64(s.Index) }

// ShardEnd is where a shard stopped: before the file at position At, or,
// Within, while searching it.
type ShardEnd struct {
	At     int64 `json:"at"`
	Within bool  `json:"within,omitempty"`
}

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
func ErrEntryBudget(max int64) *Error {
	return NewError(CodeBudget, fmt.Sprintf("work budget spent: %d directory entries visited", max))
}

func ErrByteBudget(max int64) *Error {
	return NewError(CodeBudget, fmt.Sprintf("work budget spent: %d bytes read", max))
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
