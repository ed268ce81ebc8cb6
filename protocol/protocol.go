// Package protocol is the wire contract between a rootbound host and the
// rootbound WASI module: JSON lines over the module's stdin and stdout.
//
// A host writes one Request per line. The module answers each request with
// zero or more Line values carrying an Item (a result, streamed in result
// order) or a Problem (a path that could not be read), and then exactly one
// Line carrying Done. Streaming lets a host keep what was found when the
// module dies mid-request (say, at its memory cap); the final line states
// whether the answer is complete, truncated or partial, and why.
//
// The normative description is wit/rootbound.wit; a test keeps these types
// and the WIT in agreement. This package imports nothing of rootbound's.
package protocol

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Version is the protocol version. A request with another version is
// refused with CodeInvalidArgument.
const Version = 1

// MaxLineBytes bounds one request line. A longer line is answered with
// CodeInvalidArgument (ErrLineTooLong, and an empty ID) and the rest of it
// is discarded.
const MaxLineBytes = 1 << 20

// ErrLineTooLong is the error of a request line over MaxLineBytes. Hosts
// that read lines themselves answer with it too, so every host answers an
// over-long line with the same bytes.
func ErrLineTooLong() *Error {
	return NewError(CodeInvalidArgument, fmt.Sprintf("request line longer than %d bytes", MaxLineBytes))
}

// Request is one call: it calls exactly one tool (Call), or, from a host,
// builds the index.
type Request struct {
	V  int    `json:"v"`
	ID string `json:"id"`
	// Call is the tool called and its arguments (generated from the
	// table of options): {"grep": {...}}.
	Call
	Limits *Limits `json:"limits,omitempty"`
	// Policy is set by the host, never by a model: what each root lets a
	// call see.
	Policy []RootPolicy `json:"policy,omitempty"`
	// Shard is set by the host, never by a model: this request is one
	// share of a grep split across instances (shard.go).
	Shard *Shard `json:"shard,omitempty"`
	// Index is set by the host, never by a model, in place of a glob or
	// a grep: build the index of the roots' contents that the module keeps
	// for the greps after it.
	Index *IndexArgs `json:"index,omitempty"`
	// Changes are set by the host, never by a model, on a grep or glob to an
	// instance whose index a change feed follows (IndexArgs.Fed): what
	// changed in each root since the host's last Changes to it.
	Changes []RootChanges `json:"changes,omitempty"`
	// Load is set by the host, never by a model, in place of a tool: a
	// piece of a root's index that a module sent earlier (Line.Saved), in
	// order, for the next index request with IndexArgs.Load to start from.
	Load *Chunk `json:"load,omitempty"`
}

// A Chunk is a piece of a root's saved index: bytes only the module reads
// (base64 in JSON), at most MaxChunkBytes.
type Chunk struct {
	// Root is the root's name.
	Root string `json:"root"`
	// Bytes are the piece, in order after the root's pieces before it.
	Bytes []byte `json:"bytes"`
}

// MaxChunkBytes bounds a Chunk's bytes: its request line stays within
// MaxLineBytes.
const MaxChunkBytes = 512 << 10

// RootChanges are what changed in one root, from the host's change feed.
type RootChanges struct {
	// Root is the root's name.
	Root string `json:"root"`
	// Paths changed, below the root; a directory's path stands for
	// everything below it.
	Paths Strings `json:"paths,omitempty"`
	// All: anything may have changed (the feed lost events).
	All bool `json:"all,omitempty"`
}

// IndexArgs ask the module to build its index of the contents of roots'
// files (a trigram index: RATIONALE.md, "Why a trigram index inside the
// module?"), which the greps it answers after it use to pass over files
// that cannot match, with answers byte for byte the same as without it.
// The build walks each root as a grep with no arguments walks it (ignore
// files, the root's policy) and reads each file once; a file that changes
// after it was indexed is read again by the next grep that takes it (its
// size, times and inode say so) and indexed again. Its Done counts the
// files and bytes read, and Results the files indexed; it is Truncated
// when MaxBytes stopped it, and the files left out are read by every grep.
type IndexArgs struct {
	// Roots are the roots to index, by name; none: every root.
	Roots Strings `json:"roots,omitempty"`
	// MaxBytes caps what a root's index holds (its trigrams and
	// identifiers, its files' entries, and a quarter of it for recorded
	// walks); 0: DefaultIndexBytes. Whatever it allows, the index holds at most three
	// quarters of the text it indexed and 64 MiB: a file past that is
	// left out (read by every grep).
	MaxBytes int64 `json:"max_bytes,omitempty"`
	// Fed: the host watches the roots (it did before this request) and
	// sends what changed with every grep or glob after it
	// (Request.Changes), so a file indexed and not named since is as it
	// was, with no look at it.
	Fed bool `json:"fed,omitempty"`
	// Load: a root starts from the pieces of its saved index that Load
	// requests handed the module since the last index request, when they
	// decode. A file's entry is kept only when a look at the file finds it
	// as it was indexed (its size, times and inode); what changed is read
	// and indexed again, what is gone is forgotten. Pieces that do not
	// decode, or an index that holds more removed files than live ones, are
	// set aside and the root is built from its files.
	Load bool `json:"load,omitempty"`
	// Save: after the build, the module sends each root's index as Saved
	// lines, for the host to keep and hand back with Load requests; none
	// for a root whose index is what was loaded.
	Save bool `json:"save,omitempty"`
}

// DefaultIndexBytes is the index's memory cap when IndexArgs gives none.
const DefaultIndexBytes = 96 << 20

// Sort is an order of results.
type Sort string

// Sort orders.
const (
	SortPath  Sort = "path"
	SortMTime Sort = "mtime"
)

// RootPolicy is what a root lets calls see, from the host.
type RootPolicy struct {
	// Root is the root's name.
	Root string `json:"root"`
	// HideHidden leaves out hidden files and directories, whatever a call
	// asks.
	HideHidden bool `json:"hide_hidden,omitempty"`
	// Deny holds patterns in gitignore syntax, relative to the root: what
	// they match is never listed, never opened, and counted as denied.
	Deny Strings `json:"deny,omitempty"`
	// Ignore holds rules from outside the root, which the module cannot
	// read: ignore files of the directories above it, the user's global
	// excludes.
	Ignore []IgnoreRules `json:"ignore,omitempty"`
}

// IgnoreRules are the rules of one ignore file from outside a root.
type IgnoreRules struct {
	// Kind is one of IgnoreKinds: where the rules rank.
	Kind string `json:"kind"`
	// Base is the root's path below the directory the rules belong to
	// ("src" for the rules of the directory above a root "src"); empty
	// for global rules.
	Base string `json:"base,omitempty"`
	// Source names the file in notes (".gitignore of the parent").
	Source string `json:"source,omitempty"`
	// Rules is the file's text.
	Rules string `json:"rules"`
}

// IgnoreKinds are the kinds of IgnoreRules, highest precedence first.
var IgnoreKinds = []string{"rgignore", "ignore", "gitignore", "exclude", "global"}

// Strings is a list of strings; in JSON a single string is also taken, as
// a list of one (the form agents' grep tools use for globs).
type Strings []string

// MaxListItems and MaxListBytes bound each list a call carries (glob,
// exclude, type, type_not, patterns): its items, and their bytes in all.
// Each item is compiled before the call starts and kept while it runs, and
// each glob is tried against every path: a grep with 100,000 globs spent
// 1.1 s compiling them on the host before its deadline even began, and 256
// globs of 3,500 bytes each grew the module's heap past 35 MiB, whose
// garbage collection held a wazero host for 50 ms at a time. No search
// needs more; a longer list is CodeInvalidArgument.
const (
	MaxListItems = 256
	MaxListBytes = 64 << 10
)

// ContextLines returns how many lines of context a grep takes before and
// after each result, as rg reads -A, -B and -C: each of -A and -B wins
// over -C. Only content mode takes any.
func (a *GrepArgs) ContextLines() (before, after int) {
	if a.OutputMode != ModeContent {
		return 0, 0
	}
	before, after = a.Context, a.Context
	if a.BeforeContext > 0 {
		before = a.BeforeContext
	}
	if a.AfterContext > 0 {
		after = a.AfterContext
	}
	return before, after
}

// CheckLists checks the lengths of the lists of a request to index. (A
// tool's CheckLists is generated from the table of options, args.go.)
func (a *IndexArgs) CheckLists() *Error { return checkLists([]string{"roots"}, a.Roots) }

// checkLists refuses the first of lists (names[i] names lists[i]) with
// more than MaxListItems items or MaxListBytes bytes.
func checkLists(names []string, lists ...Strings) *Error {
	for i, l := range lists {
		if len(l) > MaxListItems {
			return NewError(CodeInvalidArgument, fmt.Sprintf("%s has %d items, want at most %d", names[i], len(l), MaxListItems))
		}
		n := 0
		for _, s := range l {
			n += len(s)
		}
		if n > MaxListBytes {
			return NewError(CodeInvalidArgument, fmt.Sprintf("%s holds %d bytes, want at most %d", names[i], n, MaxListBytes))
		}
	}
	return nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (g *Strings) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil // as encoding/json leaves other values: unchanged
	}
	if len(b) > 0 && b[0] == '"' {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*g = Strings{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("want a string or a list of strings")
	}
	if len(many) == 0 {
		many = nil // an empty list is none, as it is written back (omitempty)
	}
	*g = many
	return nil
}

// Case is how letter case is matched.
type Case string

// Case modes.
const (
	CaseSensitive   Case = "sensitive"
	CaseInsensitive Case = "insensitive"
	CaseSmart       Case = "smart"
)

// OutputMode is what grep returns.
type OutputMode string

// Output modes of grep.
const (
	ModeFiles   OutputMode = "files_with_matches"
	ModeContent OutputMode = "content"
	ModeCount   OutputMode = "count"
	// ModeCountMatches counts matches, not lines, per file (rg
	// --count-matches).
	ModeCountMatches OutputMode = "count_matches"
	// ModeFilesWithout lists the files searched that hold no match (rg
	// --files-without-match): binary files are not among them.
	ModeFilesWithout OutputMode = "files_without_match"
)

// Read's and list's bounds: the lines one read returns at most (and by
// default, as agents' read tools take them), the bytes of those lines by
// default and at most, and how deep a list goes.
const (
	MaxReadLines     = 2000
	DefaultReadBytes = 100_000
	MaxReadBytes     = 1 << 20
	MaxListDepth     = 10
)

// MaxContext bounds the context lines asked for on either side of a match.
const MaxContext = 1000

// Result bounds. Tools handed to models allow 1..MaxResultsTool; a host may
// ask for up to MaxResultsCeiling (the CLI does, to list a whole tree).
const (
	DefaultMaxResults = 100
	MaxResultsTool    = 1000
	MaxResultsCeiling = 1_000_000
)

// Limits are set by the host, not by the model. Zero means the default:
// no deadline, no budget, DefaultMaxFileSize.
type Limits struct {
	// DeadlineMS is how long the call may run, counted from when the module
	// reads the request; at most MaxDeadlineMS.
	DeadlineMS int64 `json:"deadline_ms,omitempty"`
	// MaxEntries bounds directory entries visited.
	MaxEntries int64 `json:"max_entries,omitempty"`
	// MaxBytes bounds file bytes read.
	MaxBytes int64 `json:"max_bytes,omitempty"`
	// MaxFileSize: larger files are skipped (SkippedTooLarge); at most
	// MaxFileSizeCeiling.
	MaxFileSize int64 `json:"max_file_size,omitempty"`
	// MaxTextBytes is the longest line an item carries whole; a longer one
	// is cut to a window around its first match ("…" where bytes were
	// cut). 0: DefaultMaxTextBytes. A command that prints whole lines, as
	// rg does, sets it to its file size cap.
	MaxTextBytes int64 `json:"max_text_bytes,omitempty"`
	// MaxOutputBytes bounds the bytes of the item lines of one answer: a
	// host that holds a call's results holds at most this much (Truncated
	// and Capped say so when it is reached).
	MaxOutputBytes int64 `json:"max_output_bytes,omitempty"`
	// ProgressMS, if positive, asks for a Progress line at most this
	// often while the call runs (a host that shows progress; answers
	// then depend on timing, so conformance never asks).
	ProgressMS int64 `json:"progress_ms,omitempty"`
}

// MaxDeadlineMS bounds Limits.DeadlineMS: a year, far past any call, and
// far from overflowing a time.Duration (which a deadline of 2^63/10^6 ms
// or more did, into a deadline already passed).
const MaxDeadlineMS = 365 * 24 * 3600 * 1000

// DefaultMaxFileSize is the size above which grep skips a file: larger than
// nearly every source file, small enough that one file cannot hold a call
// for long (wasm byte loops run at 0.2-0.4 GB/s), and within what every host
// runs: Node 20's node:wasi aborts the process when the module's read buffer
// grows to 16 MiB.
const DefaultMaxFileSize = 8 << 20

// MaxFileSizeCeiling is the largest size cap a call may ask for: the module
// reads a file whole into memory of at most 4 GiB, and a cap of 5 GiB made
// it allocate a 4.4 GB file's buffer and panic. A larger MaxFileSize is
// CodeInvalidArgument.
const MaxFileSizeCeiling = 1 << 30

// Line is one line of a response. Exactly one of Item, Problem, Progress,
// Done is set.
type Line struct {
	ID string `json:"id"`
	// Seq, in a shard's answer, is the position of an item or problem
	// line (shard.go); nil otherwise.
	Seq      *int64    `json:"seq,omitempty"`
	Item     *Item     `json:"item,omitempty"`
	Problem  *Problem  `json:"problem,omitempty"`
	Progress *Progress `json:"progress,omitempty"`
	Done     *Done     `json:"done,omitempty"`
	// Mark and Skip are a shard's records of its own files, Walk of the
	// bytes its walk read (shard.go).
	Mark [][]int64 `json:"mark,omitempty"`
	Walk []int64   `json:"walk,omitempty"`
	Skip []int64   `json:"skip,omitempty"`
	// Saved is a piece of a root's index, in an index request's answer
	// (IndexArgs.Save).
	Saved *Chunk `json:"saved,omitempty"`
}

// Progress is how far a running call got (Limits.ProgressMS).
type Progress struct {
	Entries   int64 `json:"entries"`    // directory entries visited
	FilesRead int64 `json:"files_read"` // files searched
	Results   int   `json:"results"`    // results sent
}

// Item is one result. Glob and files_with_matches set Path; content sets
// Path, LineNumber, Text, and Submatches (where the matches are in Text) or
// Context (a context line, not a result); count sets Path and Count; read
// sets Path, LineNumber and Text (a line of the file); list sets Path,
// Kind and, for a file, Size.
type Item struct {
	Path       Data   `json:"path"`
	LineNumber int    `json:"line_number,omitempty"`
	Text       *Data  `json:"text,omitempty"`
	Submatches []Span `json:"submatches,omitempty"`
	// Break: context lines were asked for, and this line does not follow
	// the one sent before it (another file, or lines between): printers
	// write "--" before it, as ripgrep does.
	Break   bool `json:"break,omitempty"`
	Context bool `json:"context,omitempty"`
	Count   int  `json:"count,omitempty"`
	// Kind is a listed entry's kind: KindFile, KindDir (its Path ends in
	// "/") or KindSymlink (listed, never followed).
	Kind string `json:"kind,omitempty"`
	// Size is a listed file's size in bytes (0, left out of JSON, for an empty
	// file).
	Size int64 `json:"size,omitempty"`
}

// Kinds of listed entries.
const (
	KindFile    = "file"
	KindDir     = "directory"
	KindSymlink = "symlink"
)

// Span is where a match is in an item's Text: byte offsets, End exclusive.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Problem is a path that could not be searched. The search goes on.
type Problem struct {
	Path    Data   `json:"path"`
	Code    string `json:"code"` // a Skipped* reason
	Message string `json:"message"`
}

// Status of a finished call.
const (
	StatusComplete = "complete" // every file in scope was considered
	StatusPartial  = "partial"  // stopped early by Error; the results found so far were sent
	StatusFailed   = "failed"   // nothing ran: Error says why
)

// Done ends the answer to one request.
type Done struct {
	Status  string `json:"status"`
	Error   *Error `json:"error,omitempty"`
	Results int    `json:"results"`
	// Truncated is true when more results existed than MaxResults, or
	// when their item lines would have passed MaxOutputBytes (Capped).
	// The module sends these facts; a host words them for its reader.
	Truncated bool `json:"truncated"`
	Capped    bool `json:"capped,omitempty"`
	// NextOffset, when truncated, is the offset of the next page: the same
	// call with it continues where this one stopped.
	NextOffset int     `json:"next_offset,omitempty"`
	Skipped    Skipped `json:"skipped"`
	Stats      Stats   `json:"stats"`
	// IgnoredBy, when the search path is itself ignored, names the rule
	// (`.gitignore:3 "build/"`): the path was searched because it was
	// named, as ripgrep searches a path it is given.
	IgnoredBy string `json:"ignored_by,omitempty"`
	// Shard, in a shard's answer, is where it stopped and the words of a
	// truncation notice (shard.go).
	Shard *ShardEnd `json:"shard,omitempty"`
	// Lines, in a read's answer, is how many lines the file has.
	Lines int `json:"lines,omitempty"`
}

// Skipped counts what was passed over, by reason.
type Skipped struct {
	Binary     int64 `json:"binary"`     // a NUL byte (one past BinarySniffBytes is also a Problem, with its offset)
	TooLarge   int64 `json:"too_large"`  // over Limits.MaxFileSize
	Unreadable int64 `json:"unreadable"` // open, read or readdir failed (see Problems)
	Symlink    int64 `json:"symlink"`    // never followed
	Special    int64 `json:"special"`    // FIFOs, sockets, devices: never opened
	Ignored    int64 `json:"ignored"`    // left out by ignore files (a directory counts once)
	Hidden     int64 `json:"hidden"`     // hidden, and hidden files were not asked for or not allowed
	Denied     int64 `json:"denied"`     // matched a root's deny list
}

// Add adds o's counts to s's.
func (s *Skipped) Add(o Skipped) {
	s.Binary += o.Binary
	s.TooLarge += o.TooLarge
	s.Unreadable += o.Unreadable
	s.Symlink += o.Symlink
	s.Special += o.Special
	s.Ignored += o.Ignored
	s.Hidden += o.Hidden
	s.Denied += o.Denied
}

// Problem codes (the reasons of Skipped that come with a path).
const (
	SkippedUnreadable = "unreadable"
	SkippedBinary     = "binary"
)

// BinarySniffBytes is how much of a file is checked for a NUL byte before
// it is searched; the rest is checked when the file has a first match, so
// a NUL anywhere makes a file binary.
const BinarySniffBytes = 8 << 10

// DefaultMaxTextBytes is the longest line an item carries whole unless
// Limits.MaxTextBytes says otherwise: so one minified line cannot flood an
// agent's context.
const DefaultMaxTextBytes = 300

// Stats says how much work a call did. It is deterministic for a tree.
type Stats struct {
	Dirs      int64 `json:"dirs"`
	Files     int64 `json:"files"`
	FilesRead int64 `json:"files_read"`
	BytesRead int64 `json:"bytes_read"`
}

// Error codes.
const (
	CodeInvalidPattern  = "invalid_pattern"
	CodeInvalidArgument = "invalid_argument"
	CodeNotFound        = "not_found"
	CodeNotADirectory   = "not_a_directory"
	CodeOutsideRoot     = "outside_root"
	CodeSymlink         = "symlink"
	CodeDeadline        = "deadline"
	CodeBudget          = "budget"
	CodeCancelled       = "cancelled"
	CodeMemory          = "memory"
	CodeDenied          = "denied"
	CodeInternal        = "internal"
	// Read's: a file that is binary (a NUL byte), over the size cap, or
	// not a regular file (a directory, FIFO, socket or device).
	CodeBinary   = "binary"
	CodeTooLarge = "too_large"
	CodeNotAFile = "not_a_file"
	// CodeUnreadable: the path exists and could not be opened or read;
	// the message gives the system's reason (permission denied, resource
	// temporarily unavailable, an I/O error).
	CodeUnreadable = "unreadable"
)

// Codes lists every error code, in the order of the WIT enum.
var Codes = []string{
	CodeInvalidPattern, CodeInvalidArgument, CodeNotFound, CodeNotADirectory,
	CodeOutsideRoot, CodeSymlink, CodeDeadline, CodeBudget, CodeCancelled, CodeMemory, CodeDenied, CodeInternal,
	CodeBinary, CodeTooLarge, CodeNotAFile, CodeUnreadable,
}

// Error is a typed failure of a whole call.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// NewError returns an *Error with code and message.
func NewError(code, message string) *Error { return &Error{Code: code, Message: message} }

// AsError returns err as an *Error, or a CodeInternal one.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// Data is a path or a line as raw bytes. In JSON it is {"text": "..."} when
// the bytes are valid UTF-8 and {"bytes": "<base64>"} when they are not, as
// ripgrep's JSON printer does.
type Data string

type dataJSON struct {
	Text  *string `json:"text,omitempty"`
	Bytes *string `json:"bytes,omitempty"`
}

// MarshalJSON implements json.Marshaler.
func (d Data) MarshalJSON() ([]byte, error) {
	s := string(d)
	v := dataJSON{Text: &s}
	if !utf8.ValidString(s) {
		b := base64.StdEncoding.EncodeToString([]byte(s))
		v = dataJSON{Bytes: &b}
	}
	// Not json.Marshal: it would escape <, > and & for HTML.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *Data) UnmarshalJSON(b []byte) error {
	var v dataJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch {
	case v.Text != nil && v.Bytes == nil:
		*d = Data(*v.Text)
	case v.Bytes != nil && v.Text == nil:
		raw, err := base64.StdEncoding.DecodeString(*v.Bytes)
		if err != nil {
			return errors.New("data.bytes is not base64")
		}
		*d = Data(raw)
	default:
		return errors.New("data wants exactly one of text and bytes")
	}
	return nil
}
