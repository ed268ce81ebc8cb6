package host

import (
	"github.com/rootbound/rootbound/internal/ignore"
	"github.com/rootbound/rootbound/protocol"
)

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
	// ModeFilesWithout lists the files searched that hold no match.
	ModeFilesWithout = protocol.ModeFilesWithout
)

// Item is one result, the protocol's: glob and ModeFiles set Path;
// ModeContent sets Path, LineNumber and Text (a line over 300 bytes is cut
// to a window around the match, with "…" where it was cut) and
// Submatches, or, for a context line (not a result), Context; the count
// modes set Path and Count. Path is relative to the default root, or
// starts with another root's name: it works when given back as a Path or
// in a pattern.
type Item = protocol.Item

// Kinds of listed entries (Item.Kind).
const (
	KindFile    = protocol.KindFile
	KindDir     = protocol.KindDir
	KindSymlink = protocol.KindSymlink
)

// Span is where a match is in an item's Text: byte offsets, End exclusive.
type Span = protocol.Span

// Data is the bytes of a path or a line, as found: not always UTF-8. Print
// it with Result.Text, which escapes what must not reach a terminal or a
// model raw. In JSON it is {"text": "..."} when it is UTF-8 and {"bytes":
// "<base64>"} when it is not.
type Data = protocol.Data

// Problem is a path that could not be searched, the protocol's: the
// search went on. At most 20 are sent per call; all are counted in
// Skipped.Unreadable. Code is "unreadable", or "binary" (a NUL past the
// first 8 KiB); Message is the cause, without any host path.
type Problem = protocol.Problem

// Done says how a call ended (the protocol's final line): its Status, the
// Error of a partial or failed call, how many Results, whether it was
// Truncated (Capped when by the result bytes, not MaxResults; NextOffset
// where the next page starts; Result.Text words how to get the rest), what
// was Skipped, the Stats of its work, IgnoredBy when
// the path named is itself ignored, and a read's Lines. Shard is the
// module's own, between it and this host: never set in a Result.
type Done = protocol.Done

// How a call ended.
const (
	StatusComplete = protocol.StatusComplete // every file in scope was considered
	StatusPartial  = protocol.StatusPartial  // stopped early by Error; the results found so far are there
	StatusFailed   = protocol.StatusFailed   // nothing ran: Error says why
)

// Skipped counts what a call passed over, by reason (the protocol's).
type Skipped = protocol.Skipped

// Stats says how much work a call did; it is the same for a tree on every
// host (the protocol's).
type Stats = protocol.Stats

// Error is a call's typed failure (the protocol's): Code is one of the
// Code constants, Message says what was wrong and what is wanted, in the
// caller's terms.
type Error = protocol.Error

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
	CodeBinary          = protocol.CodeBinary          // read: the file is binary (a NUL byte)
	CodeTooLarge        = protocol.CodeTooLarge        // read: the file is over the size cap
	CodeNotAFile        = protocol.CodeNotAFile        // read: a directory, FIFO, socket or device
	CodeUnreadable      = protocol.CodeUnreadable      // the path exists and could not be opened or read
)

func newError(code, message string) *Error { return protocol.NewError(code, message) }

// TypeNames lists the file types GlobArgs.Type and GrepArgs.Type know:
// ripgrep 13's, by the same names.
func TypeNames() []string { return ignore.TypeNames() }

// TypeGlobs returns the globs of a file type (nil for an unknown name),
// matched against base names.
func TypeGlobs(name string) []string { return ignore.TypeGlobs(name) }
