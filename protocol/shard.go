package protocol

import "fmt"

// A grep can be split across instances of the module, each searching a
// share of the files, and the answers merged by the host into exactly the
// answer one instance gives (RATIONALE.md, "Why split a grep by files?").
// So can a glob of files in walk order (no sort, no directories or links):
// the files it finds are what a grep's search takes, and none is read. A
// file it finds has a mark only where the walk's counts other than files
// changed since the shard's last mark or walk line: a found file's count
// of files is its position in its share plus one. The host splits a glob by range only (by position,
// each shard would walk the whole tree for nothing), and sends a glob with
// no plan yet as the one shard of its call (count 1), whose samples cut
// the next.
//
// A share is one of two kinds:
//
//   - By position (no From or To): every shard walks the whole tree in the
//     same order and counts what the walk passes over, as one instance
//     does; of the files the walk hands to the search (in walk order, or
//     newest first when sorted by time), the shard with index i searches
//     those whose position p has p % count == i.
//   - By range (From or To set; never with a sort): shard i walks only the
//     range of the walk's order from From up to To (not included; "" for
//     the start and the end), where the host cut the files of an earlier
//     call on the same path (its shards' Samples), and searches every file
//     of it; it enters the directories above From only to reach it, and
//     counts nothing of them. Its positions are RangeSeq(i) and on; its
//     counts, and its Done's, are its range's alone, which the host adds
//     to those of the ranges before it (a range that ends complete, not
//     within a file, lets the merge go on to the next). Its walk reads,
//     and the problems about no file, are its own to send. Entries is the
//     directory entries one instance visits before From (by the earlier
//     call), where its entry budget starts.
// Its answer says, besides its items and problems, where each line belongs
// and what each of its files cost, so the host can replay one instance's
// call: its offset, max_results and max_output_bytes, the byte budget, the
// counts at the result where it stopped, and the 20 problem lines.
//
//   - An item or problem line carries Seq: the position of the file it is
//     about. A problem about no file (a directory that could not be read,
//     an ignore file not applied) has the position of the next file, and
//     only shard 0 sends it (every shard counts it; by range, the range's
//     own shard sends and counts it).
//   - Before a file's own lines, its mark: [position, bytes read, then the
//     walk's counts when the search took the file: dirs, files, symlink,
//     special, ignored, hidden, denied, unreadable; then 1 if the file was
//     skipped when read as binary, 1 if as too large]; a Mark line holds
//     the marks of up to MarkBatch files, sent before any other line.
//   - After them, when the file was skipped later (a NUL past the first
//     8 KiB, a read that failed): a Skip, [position, binary, too_large,
//     unreadable].
//   - When the walk reads an ignore file: a Walk, as a Mark with the
//     position of the next file and the bytes read; only shard 0 (by
//     range, the range's own) sends it.
//   - Done counts the walk's share only (Mark's order), with no files read
//     and no bytes, and Shard says where the shard stopped, and, when it
//     walked its share whole, its Samples.
//
// A shard applies no offset and no output cap: it sends results until
// offset+max_results+1, the last of which truncates it. Its byte budget is
// the call's: a shard never reaches it before the whole call does.
//
// The mark, skip and walk lines are written and read by this module's
// own host and module only (internal/wire/marks.go): no other host splits
// a grep.

// MaxShards bounds Shard.Count.
const MaxShards = 256

// Shard is one share of a split grep or glob.
type Shard struct {
	Index   int   `json:"index"`
	Count   int   `json:"count"`
	From    Data  `json:"from,omitempty"`
	To      Data  `json:"to,omitempty"`
	Entries int64 `json:"entries,omitempty"`
}

// Check validates a shard.
func (s *Shard) Check() *Error {
	if s.Count < 1 || s.Count > MaxShards || s.Index < 0 || s.Index >= s.Count {
		return NewError(CodeInvalidArgument, fmt.Sprintf("shard %d of %d, want a count of 1 to %d and an index below it", s.Index, s.Count, MaxShards))
	}
	if s.Entries < 0 {
		return NewError(CodeInvalidArgument, fmt.Sprintf("shard entries %d, want 0 or more", s.Entries))
	}
	return nil
}

// FilesInWalkOrder reports whether the glob finds files alone, in the
// walk's order (no sort, no directories or links): the glob that is split.
func (g *GlobArgs) FilesInWalkOrder() bool {
	files := len(g.EntryType) == 0 || len(g.EntryType) == 1 && g.EntryType[0] == "file"
	return files && g.Sort == "" && !g.IncludeDirs
}

// Ranged reports whether the shard's share is a range of the walk.
func (s *Shard) Ranged() bool { return s.From != "" || s.To != "" }

// Owns reports whether the shard searches the file at position seq: in a
// range, every one it walks to.
func (s *Shard) Owns(seq int64) bool {
	return s.Ranged() || seq%int64(s.Count) == int64(s.Index)
}

// RangeSeq is the first position of the range shard i walks: each range's
// positions are apart from the others', in the ranges' order.
func RangeSeq(i int) int64 { return int64(i) << 40 }

// ShardEnd is where a shard stopped: before the file at position At, or,
// Within, while searching it. A shard that walked its share whole also
// sends Samples, every so many of the files it took, in order, and Bytes,
// what it read (the files it searched, the ignore files its walk read).
type ShardEnd struct {
	At      int64    `json:"at"`
	Within  bool     `json:"within,omitempty"`
	Samples []Sample `json:"samples,omitempty"`
	Bytes   int64    `json:"bytes,omitempty"`
}

// Sample is a file a shard's walk took: its path (relative to the grep's
// path), its position in the shard's share (from 0), the directory
// entries the walk had visited, that file included, and the bytes the
// shard had read before it (as ShardEnd.Bytes counts them).
type Sample struct {
	Path    Data  `json:"path"`
	Seq     int64 `json:"seq"`
	Entries int64 `json:"entries"`
	Bytes   int64 `json:"bytes"`
}
