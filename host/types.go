package host

import (
	"github.com/rootbound/rootbound/internal/ignore"
	"github.com/rootbound/rootbound/protocol"
)

// GlobArgs finds regular files (and, with IncludeDirs, directories) by name
// or path. Contents are never read.
type GlobArgs struct {
	// Pattern is the glob. Without "/" it matches base names at any depth
	// ("*.go"); with "/" it matches the path below the search root
	// ("src/**/*_test.go"; a leading "/" only anchors) or the path as
	// results show it: "./src/*.go", "/workspace/src/*.go" and "src/" (all
	// below src) work. Syntax: * and ? (never crossing /), ** (any number
	// of directories), [a-z], [!a-z], [[:digit:]], {a,b} (nested too), \
	// escapes. A pattern that can never match (a ".." component, a host
	// path) is CodeInvalidPattern.
	Pattern string `json:"pattern"`
	// Path is the search root: a directory or a single file, relative to
	// the default root or under a root's name ("/docs/api"). Empty means
	// the default root. ".." that leaves a root, and any path into .git,
	// is CodeOutsideRoot.
	Path string `json:"path,omitempty"`
	// MaxResults caps the results; 0 means the default, 100. Tools handed
	// to models take 1 to 1000; the module takes up to 1,000,000.
	MaxResults int `json:"max_results,omitempty"`
	// Exclude leaves out what these globs match, a directory with all it
	// holds (fd's --exclude).
	Exclude Strings `json:"exclude,omitempty"`
	// CaseInsensitive matches Pattern and Exclude without regard to case.
	CaseInsensitive bool `json:"case_insensitive,omitempty"`
	// IncludeDirs lists matching directories too, with a trailing "/".
	IncludeDirs bool `json:"include_dirs,omitempty"`
	// Type keeps only files of these types, ripgrep's names ("go", "py",
	// "ts", "md"; TypeNames lists them); TypeNot leaves them out.
	Type    Strings `json:"type,omitempty"`
	TypeNot Strings `json:"type_not,omitempty"`
	// Sort is SortPath (the default: directory order) or SortMTime (newest
	// first, ties in directory order).
	Sort Sort `json:"sort,omitempty"`
	// MaxDepth, if positive, bounds how deep below the search root a call
	// looks: 1 is the search root's own entries.
	MaxDepth int `json:"max_depth,omitempty"`
	// NoIgnore turns ignore files off: .gitignore, .ignore, .rgignore,
	// .git/info/exclude and a root's RootPolicy.Ignore. A root's deny list
	// always applies.
	NoIgnore bool `json:"no_ignore,omitempty"`
	// Hidden set to false leaves hidden files and directories out (names
	// starting with "."). Nil means true: hidden files are looked at,
	// unless the root hides them (RootPolicy.HideHidden).
	Hidden *bool `json:"hidden,omitempty"`
	// Offset skips the first results, for paging: a truncated answer's
	// Narrow gives the offset of the next page, and the same call with it
	// continues exactly where the last one stopped.
	Offset int `json:"offset,omitempty"`
}

// GrepArgs searches file contents, line by line: a match never spans lines
// unless Multiline is set.
type GrepArgs struct {
	// Pattern is an RE2 regular expression, or a literal string when
	// Literal is set. As in ripgrep, \w \d \s and \b are Unicode-aware
	// ("(?-u)" makes them ASCII), and a file that starts with a UTF-16
	// byte order mark is searched as its text.
	Pattern string `json:"pattern"`
	// Literal takes Pattern as a literal string.
	Literal bool `json:"literal,omitempty"`
	// Path is the search root, as in GlobArgs.
	Path string `json:"path,omitempty"`
	// Glob picks the files searched, as ripgrep's -g: "*.go" only Go files,
	// "!*_test.go" all but Go tests; the last glob that matches a file
	// decides, and a file none matches is searched unless some glob is an
	// inclusion.
	Glob Strings `json:"glob,omitempty"`
	// Case is CaseSensitive (the default), CaseInsensitive or CaseSmart.
	Case Case `json:"case,omitempty"`
	// OutputMode is ModeFiles (the default), ModeContent, ModeCount or
	// ModeCountMatches.
	OutputMode OutputMode `json:"output_mode,omitempty"`
	// MaxResults caps the files (ModeFiles, ModeCount) or lines
	// (ModeContent), as in GlobArgs.
	MaxResults int `json:"max_results,omitempty"`
	// Type, TypeNot, Sort (the order files are searched in), MaxDepth,
	// NoIgnore and Hidden are as in GlobArgs.
	Type     Strings `json:"type,omitempty"`
	TypeNot  Strings `json:"type_not,omitempty"`
	Sort     Sort    `json:"sort,omitempty"`
	MaxDepth int     `json:"max_depth,omitempty"`
	NoIgnore bool    `json:"no_ignore,omitempty"`
	Hidden   *bool   `json:"hidden,omitempty"`
	// Offset skips the first results (lines in ModeContent, files
	// otherwise), as in GlobArgs.
	Offset int `json:"offset,omitempty"`
	// Patterns are more patterns, as rg's -e: a line matches when any of
	// Pattern and Patterns does.
	Patterns Strings `json:"patterns,omitempty"`
	// AfterContext, BeforeContext and Context (both, unless the other is
	// set) add lines around each matching line in ModeContent, as rg's
	// -A, -B and -C; they come as items with Context set. At most 1000.
	AfterContext  int `json:"after_context,omitempty"`
	BeforeContext int `json:"before_context,omitempty"`
	Context       int `json:"context,omitempty"`
	// Multiline lets a match span lines (rg -U): "." matches "\n" too, and
	// each line of a match is a matching line. Files stay bounded by the
	// size cap.
	Multiline bool `json:"multiline,omitempty"`
	// MaxCount, if positive, takes at most this many matching lines from
	// each file (rg -m).
	MaxCount int `json:"max_count,omitempty"`
	// Word keeps matches that are whole words: a non-word character or
	// the line's edge on each side (rg -w).
	Word bool `json:"word,omitempty"`
	// Invert takes the lines that do not match (rg -v).
	Invert bool `json:"invert,omitempty"`
	// OnlyMatching makes each match an item of its own, its text the
	// match alone (rg -o).
	OnlyMatching bool `json:"only_matching,omitempty"`
	// CRLF reads "\r\n" as a line end: "$" matches before the "\r" (rg
	// --crlf). A "\r" that ends a line is never part of an item's text.
	CRLF bool `json:"crlf,omitempty"`
}

// Sort is an order of results (GlobArgs.Sort, GrepArgs.Sort).
type Sort = protocol.Sort

// Orders of GlobArgs.Sort and GrepArgs.Sort.
const (
	SortPath  = protocol.SortPath
	SortMTime = protocol.SortMTime
)

// RootPolicy is what a root lets calls see (Config.WithRootPolicy).
type RootPolicy struct {
	// HideHidden leaves hidden files and directories out of every call,
	// whatever it asks; they are counted in Skipped.Hidden, and a path
	// argument that names one is CodeOutsideRoot.
	HideHidden bool
	// Deny lists patterns in gitignore syntax relative to the root
	// ("*.pem", "secrets/", "/config/prod.env", "!" to take back): what
	// they match is never listed and never opened, even with NoIgnore; it
	// is counted in Skipped.Denied, and a path argument in it is
	// CodeOutsideRoot.
	Deny []string
	// Ignore holds ignore rules from outside the root, which the module
	// cannot read: OutsideIgnoreRules finds them as ripgrep does.
	Ignore []IgnoreRules
}

// IgnoreRules are the rules of one ignore file from outside a root.
type IgnoreRules struct {
	// Kind ranks the rules, highest first: "rgignore", "ignore",
	// "gitignore", "exclude" (a repository's info/exclude), "global" (the
	// user's core.excludesFile).
	Kind string `json:"kind"`
	// Base is the root's path below the directory the rules belong to
	// ("src" when they are those of the root's parent and the root is
	// its "src"); empty for global rules.
	Base string `json:"base,omitempty"`
	// Source names the file in notes (never a host path: the CLI writes
	// "../.gitignore").
	Source string `json:"source,omitempty"`
	// Rules is the file's text.
	Rules string `json:"rules"`
}

// Strings is a list of strings (globs, type names). In JSON a single
// string is taken as a list of one, as agents' tools send it.
type Strings = protocol.Strings

// Case is how letter case is matched (GrepArgs.Case).
type Case = protocol.Case

// Letter case of GrepArgs.Case.
const (
	CaseSensitive   = protocol.CaseSensitive
	CaseInsensitive = protocol.CaseInsensitive
	// CaseSmart is insensitive when the pattern has literal letters and
	// none of them is upper case, as ripgrep's --smart-case.
	CaseSmart = protocol.CaseSmart
)

// OutputMode is what grep returns (GrepArgs.OutputMode).
type OutputMode = protocol.OutputMode

// Output modes of GrepArgs.OutputMode.
const (
	ModeFiles   = protocol.ModeFiles   // paths of files with a matching line
	ModeContent = protocol.ModeContent // each matching line, with its path and number
	ModeCount   = protocol.ModeCount   // matching lines per file
	// ModeCountMatches counts matches per file, not lines.
	ModeCountMatches = protocol.ModeCountMatches
)

// Item is one result. Glob and ModeFiles set Path; ModeContent sets Path,
// LineNumber and Text (a line over 300 bytes is cut to a window around the
// match, with "…" where it was cut) and Submatches, or, for a context line
// (not a result), Context; the count modes set Path and Count.
type Item struct {
	// Path is relative to the default root, or starts with another root's
	// name. It works when given back as a Path or in a pattern.
	Path       Data  `json:"path"`
	LineNumber int   `json:"line_number,omitempty"`
	Text       *Data `json:"text,omitempty"`
	// Submatches are where the matches are in Text, in bytes.
	Submatches []Span `json:"submatches,omitempty"`
	// Break: context lines were asked for, and this line does not follow
	// the one before it (another file, or lines between); Result.Text and
	// the command write "--" before it, as ripgrep does.
	Break bool `json:"break,omitempty"`
	// Context marks a line around a match (GrepArgs.Context).
	Context bool `json:"context,omitempty"`
	Count   int  `json:"count,omitempty"`
}

// Span is where a match is in an item's Text: byte offsets, End exclusive.
type Span = protocol.Span

// Data is the bytes of a path or a line, as found: not always UTF-8. Print
// it with Result.Text, which escapes what must not reach a terminal or a
// model raw. In JSON it is {"text": "..."} when it is UTF-8 and {"bytes":
// "<base64>"} when it is not.
type Data string

// MarshalJSON implements json.Marshaler.
func (d Data) MarshalJSON() ([]byte, error) { return protocol.Data(d).MarshalJSON() }

// UnmarshalJSON implements json.Unmarshaler.
func (d *Data) UnmarshalJSON(b []byte) error { return (*protocol.Data)(d).UnmarshalJSON(b) }

// Problem is a path that could not be searched; the search went on. At most
// 20 are sent per call; all are counted in Skipped.Unreadable.
type Problem struct {
	Path    Data   `json:"path"`
	Code    string `json:"code"`    // "unreadable"
	Message string `json:"message"` // the cause, without any host path
}

// Done says how a call ended.
type Done struct {
	// Status is StatusComplete, StatusPartial or StatusFailed.
	Status string `json:"status"`
	// Error says why a call is partial or failed.
	Error *Error `json:"error,omitempty"`
	// Results is how many results were sent: items that are not context
	// lines.
	Results int `json:"results"`
	// Truncated is true when there were more results than MaxResults (or
	// than the host keeps); Narrow then says how to get fewer.
	Truncated bool   `json:"truncated"`
	Narrow    string `json:"narrow,omitempty"`
	// NextOffset, when truncated, is the offset of the next page: the same
	// call with it continues where this one stopped.
	NextOffset int     `json:"next_offset,omitempty"`
	Skipped    Skipped `json:"skipped"`
	Stats      Stats   `json:"stats"`
	// IgnoredBy, when the search path is itself ignored, names the rule
	// (`.gitignore:3 "build/"`): it was searched because it was named.
	IgnoredBy string `json:"ignored_by,omitempty"`
}

// How a call ended.
const (
	StatusComplete = protocol.StatusComplete // every file in scope was considered
	StatusPartial  = protocol.StatusPartial  // stopped early by Error; the results found so far are there
	StatusFailed   = protocol.StatusFailed   // nothing ran: Error says why
)

// Skipped counts what a call passed over, by reason.
type Skipped struct {
	Binary     int64 `json:"binary"`     // a NUL byte in the first 8 KiB
	TooLarge   int64 `json:"too_large"`  // over the size cap (WithMaxFileSize)
	Unreadable int64 `json:"unreadable"` // open, read or listing failed (see Problems)
	Symlink    int64 `json:"symlink"`    // symbolic links are never followed
	Special    int64 `json:"special"`    // FIFOs, sockets and devices are never read
	Ignored    int64 `json:"ignored"`    // left out by ignore files (NoIgnore takes them in); a directory counts once
	Hidden     int64 `json:"hidden"`     // hidden, when Hidden is false or the root hides them
	Denied     int64 `json:"denied"`     // matched the root's deny list
}

// Stats says how much work a call did; it is the same for a tree on every
// host.
type Stats struct {
	Dirs      int64 `json:"dirs"`
	Files     int64 `json:"files"`
	FilesRead int64 `json:"files_read"`
	BytesRead int64 `json:"bytes_read"`
}

// Error is a call's typed failure.
type Error struct {
	// Code is one of the Code constants.
	Code string `json:"code"`
	// Message starts with the package that failed and says what was wanted.
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Error codes. "No matches" is not an error.
const (
	CodeInvalidPattern  = protocol.CodeInvalidPattern  // a glob or regular expression that does not compile
	CodeInvalidArgument = protocol.CodeInvalidArgument // any other bad argument
	CodeNotFound        = protocol.CodeNotFound        // the path does not exist
	CodeNotADirectory   = protocol.CodeNotADirectory   // the path is neither a directory nor a regular file
	CodeOutsideRoot     = protocol.CodeOutsideRoot     // the path is outside every root, or inside .git
	CodeSymlink         = protocol.CodeSymlink         // a component of the path is a symbolic link (never followed)
	CodeDeadline        = protocol.CodeDeadline        // the deadline passed
	CodeBudget          = protocol.CodeBudget          // the work budget was spent
	CodeCancelled       = protocol.CodeCancelled       // the caller cancelled the call
	CodeMemory          = protocol.CodeMemory          // the module reached its memory cap
	CodeDenied          = protocol.CodeDenied          // the read guard refused the call
	CodeInternal        = protocol.CodeInternal        // a bug, or a module that stopped
)

// fromItem, fromProblem, fromDone and fromError convert the module's wire
// types, which have the same fields.
func fromItem(it *protocol.Item) Item {
	return Item{Path: Data(it.Path), LineNumber: it.LineNumber, Text: (*Data)(it.Text),
		Submatches: it.Submatches, Break: it.Break, Context: it.Context, Count: it.Count}
}

func fromProblem(p *protocol.Problem) Problem {
	return Problem{Path: Data(p.Path), Code: p.Code, Message: p.Message}
}

func fromDone(d *protocol.Done) Done {
	return Done{Status: d.Status, Error: fromError(d.Error), Results: d.Results, Truncated: d.Truncated,
		Narrow: d.Narrow, NextOffset: d.NextOffset, Skipped: Skipped(d.Skipped), Stats: Stats(d.Stats), IgnoredBy: d.IgnoredBy}
}

func fromError(e *protocol.Error) *Error {
	if e == nil {
		return nil
	}
	return &Error{Code: e.Code, Message: e.Message}
}

func newError(code, message string) *Error { return &Error{Code: code, Message: message} }

// TypeNames lists the file types GlobArgs.Type and GrepArgs.Type know:
// ripgrep 13's, by the same names.
func TypeNames() []string { return ignore.TypeNames() }

// TypeGlobs returns the globs of a file type (nil for an unknown name),
// matched against base names.
func TypeGlobs(name string) []string { return ignore.TypeGlobs(name) }
