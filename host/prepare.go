package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rootbound/rootbound/host/internal/escape"
	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/protocol"
)

// Read is what a prepared call will read: a root and a path below it, as a
// permission layer grants or denies filesystem.read.
type Read struct {
	// Root is the root's name ("/workspace").
	Root string
	// Path is the search path below the root, slash-separated and clean
	// ("src/app"); empty for the whole root.
	Path string
	// Dir is the host directory or file behind it, for a permission layer
	// on the host; never shown to a model.
	Dir string
}

// String writes the read as calls and results name it: the root's name
// and the path below it.
func (rd Read) String() string {
	if rd.Path == "" {
		return rd.Root
	}
	return rd.Root + "/" + rd.Path
}

// ReadGuard is consulted before every call (Config.WithReadGuard) with the
// tool and what it will read. An error denies the call: it fails with
// CodeDenied, whose message carries the error's text, and reads nothing.
type ReadGuard func(ctx context.Context, tool string, reads []Read) error

// Prepared is a call validated once, its reads resolved: Reads says what
// it will read before it runs, and Run runs exactly it (the arguments were
// copied when it was prepared). It may run more than once.
type Prepared struct {
	r     *Runner
	start time.Time // when the timeout started; zero: when it runs
	tool  string
	call  protocol.Call // the call's arguments, one tool's set
	path  string        // its path argument
	reads []Read
	// description is what the model said the call is for (Tools.Call's
	// "description"), for the audit record.
	description string
}

// Tool is "glob", "grep", "read" or "list".
func (p *Prepared) Tool() string { return p.tool }

// Reads returns what the call will read.
func (p *Prepared) Reads() []Read { return append([]Read(nil), p.reads...) }

// PrepareGlob validates a glob call (its pattern and path) and resolves
// what it will read. The error is an *Error: CodeInvalidPattern or
// CodeOutsideRoot. Arguments the module checks (ranges, names of types) are
// checked again when it runs.
func (r *Runner) PrepareGlob(args GlobArgs) (*Prepared, error) {
	args.Path, args.Pattern = r.hostPath(args.Path, false), r.hostPath(args.Pattern, true)
	if err := args.CheckLists(); err != nil {
		return nil, err
	}
	if _, err := match.CompileGlob(args.Pattern, args.CaseInsensitive); err != nil {
		return nil, patternError(err)
	}
	rd, err := r.resolve(args.Path)
	if err != nil {
		return nil, err
	}
	args.Exclude, args.Type, args.TypeNot = slices.Clone(args.Exclude), slices.Clone(args.Type), slices.Clone(args.TypeNot)
	return &Prepared{r: r, tool: "glob", call: protocol.Call{Glob: &args}, path: args.Path, reads: []Read{rd}}, nil
}

// PrepareGrep validates a grep call (its patterns, globs and path) and
// resolves what it will read, as PrepareGlob does.
func (r *Runner) PrepareGrep(args GrepArgs) (*Prepared, error) {
	args.Path = r.hostPath(args.Path, false)
	if err := args.CheckLists(); err != nil {
		return nil, err
	}
	if _, err := match.Compile(append([]string{args.Pattern}, args.Patterns...), match.Options{
		Literal: args.Literal, Case: string(args.Case), Word: args.Word, CRLF: args.CRLF, Multiline: args.Multiline}); err != nil {
		return nil, patternError(err)
	}
	if _, err := match.CompileFilter(args.Glob, false, nil); err != nil {
		return nil, patternError(err)
	}
	rd, err := r.resolve(args.Path)
	if err != nil {
		return nil, err
	}
	args.Glob, args.Type, args.TypeNot, args.Patterns = slices.Clone(args.Glob), slices.Clone(args.Type), slices.Clone(args.TypeNot), slices.Clone(args.Patterns)
	return &Prepared{r: r, tool: "grep", call: protocol.Call{Grep: &args}, path: args.Path, reads: []Read{rd}}, nil
}

// rootNames are the roots' names, the default first.
func (r *Runner) rootNames() []string {
	names := make([]string, len(r.cfg.roots))
	for i, rt := range r.cfg.roots {
		names[i] = rt.Name
	}
	return names
}

// hostPath takes a path argument written as a path of the host (agents
// that see the real file system write them so): one inside a root's
// directory becomes the root's name and the path below it, as results show
// paths; any other is returned as it is, for the module to judge. The
// caller named the directory, so nothing is told that it did not know. A
// root's name wins over a directory of the same spelling. With pattern
// set, p is a glob, and only its directory prefix is mapped.
func (r *Runner) hostPath(p string, pattern bool) string {
	if !strings.HasPrefix(p, "/") {
		return p
	}
	clean := path.Clean(p)
	if pattern {
		clean = p
	}
	for _, rt := range r.cfg.roots {
		if clean == rt.Name || strings.HasPrefix(clean, rt.Name+"/") {
			return p
		}
	}
	for i, dirs := range r.hostDirs {
		for _, d := range dirs {
			switch {
			case !pattern && clean == d:
				return r.cfg.roots[i].Name
			case strings.HasPrefix(clean, d+"/"):
				return r.cfg.roots[i].Name + clean[len(d):]
			}
		}
	}
	return p
}

// patternError types a pattern's error as the module does: a pattern that
// does not compile is CodeInvalidPattern, any other argument
// CodeInvalidArgument.
func patternError(err error) *Error {
	var pe *match.PatternError
	if errors.As(err, &pe) {
		return newError(CodeInvalidPattern, err.Error())
	}
	return newError(CodeInvalidArgument, err.Error())
}

// resolve finds the root and the path below it that a path argument
// names, as the module does (protocol.ResolvePath, whose errors it gives),
// and refuses a path with a symbolic link at any component, as the module
// would: what a read guard is shown is what will be opened.
func (r *Runner) resolve(p string) (Read, *Error) {
	i, rel, err := protocol.ResolvePath(r.rootNames(), p)
	if err != nil {
		return Read{}, err
	}
	root := r.cfg.roots[i]
	if link := r.link(i, rel); link != "" {
		shown := link
		switch {
		case link == rel:
			shown = ""
		case i > 0:
			shown = root.Name + "/" + link
		}
		return Read{}, protocol.SymlinkError(p, shown)
	}
	return Read{Root: root.Name, Path: rel, Dir: filepath.Join(root.Dir, filepath.FromSlash(rel))}, nil
}

// link is the first component of rel, below root i, that is a symbolic
// link ("" for none, or once the runner is closed: the call then fails as
// closed).
func (r *Runner) link(i int, rel string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ""
	}
	return r.roots[i].Link(rel)
}

// Run runs the prepared call, after the read guard allows it. The Result
// is never nil; the error is its typed error, if any.
func (p *Prepared) Run(ctx context.Context) (*Result, error) { return p.run(ctx, nil) }

// RunEach runs the prepared call handing each result to fn as it arrives,
// as GlobEach and GrepEach do.
func (p *Prepared) RunEach(ctx context.Context, fn func(Item) error) (*Result, error) {
	return p.run(ctx, fn)
}

func (p *Prepared) run(ctx context.Context, each func(Item) error) (*Result, error) {
	if p == nil || p.r == nil || len(p.reads) == 0 {
		// A Prepared not made by a Runner's Prepare methods reads nothing.
		res := failedResult("", newError(CodeInvalidArgument, "this call was not prepared (a Prepared comes from Runner.PrepareGlob, PrepareGrep, PrepareRead, PrepareList or Tools.Prepare)"))
		return res, res.Err()
	}
	start := time.Now()
	// Each result handed over (each), none held: every one, unless the
	// call caps them.
	every := func(max *int) {
		if each != nil && *max == 0 {
			*max = protocol.MaxResultsCeiling
		}
	}
	var res *Result
	req := protocol.Request{Call: p.call}
	switch a := &req.Call; {
	case a.Glob != nil:
		res = p.r.globResult(*a.Glob)
		wire := *a.Glob
		every(&wire.MaxResults)
		res.max, a.Glob = wire.MaxResults, &wire
	case a.Grep != nil:
		res = p.r.grepResult(*a.Grep)
		wire := *a.Grep
		every(&wire.MaxResults)
		res.max, a.Grep = wire.MaxResults, &wire
	case a.Read != nil:
		res = &Result{Tool: "read", Path: a.Read.Path, offset: a.Read.Offset}
	case a.List != nil:
		wire := *a.List
		every(&wire.MaxResults)
		res, a.List = &Result{Tool: "list", Path: p.r.where(wire.Path), offset: wire.Offset, max: wire.MaxResults}, &wire
	default:
		res = &Result{Tool: p.tool, Path: p.r.where(p.path)}
	}
	res.hides = p.r.cfg.policies[p.reads[0].Root].HideHidden
	res.max = cmp.Or(res.max, protocol.DefaultMaxResults)
	res.capBytes = p.r.cfg.maxResultBytes
	if guard := p.r.cfg.guard; guard != nil {
		if err := guard(ctx, p.tool, p.Reads()); err != nil {
			res.Done = failed(CodeDenied, fmt.Sprintf("reading %s was denied: %v (the readable roots: %s)", readsText(p.reads), err, strings.Join(p.r.rootNames(), ", ")))
		}
	}
	if res.Done.Error == nil {
		// A call prepared apart (a permission layer approved it in
		// between) starts its timeout when it runs; Glob, Grep and
		// Tools.Call count their preparing in it.
		begun := p.start
		if begun.IsZero() {
			begun = time.Now()
		}
		p.r.do(ctx, begun, res, req, each)
		if p.call.Glob != nil && res.Done.Status == StatusComplete && res.Done.Results == 0 {
			res.Hint = p.r.globHint(ctx, begun, req)
		}
	}
	if audit := p.r.cfg.audit; audit != nil {
		audit(p.audit(res, time.Since(start)))
	}
	return res, res.Err()
}

// globHint is Result.Hint for a glob request that found nothing: when its
// pattern has a "/" and no "**", the same call with "**/" before the
// pattern runs, within what is left of the call's timeout, for one result.
func (r *Runner) globHint(ctx context.Context, begun time.Time, req protocol.Request) string {
	g := *req.Glob
	p := strings.TrimLeft(g.Pattern, "/")
	for strings.HasPrefix(p, "./") {
		p = strings.TrimLeft(p[2:], "/")
	}
	if !strings.Contains(p, "/") || strings.Contains(p, "**") || strings.HasPrefix(g.Pattern, "/") {
		return ""
	}
	g.Pattern, g.MaxResults, g.Offset = "**/"+p, 1, 0
	req.Glob = &g
	res := r.globResult(g)
	r.do(ctx, begun, res, req, nil)
	if len(res.Items) == 0 {
		return ""
	}
	return fmt.Sprintf("a pattern with / matches the path from the search path, and * never crosses a /: %s matches %s",
		match.Quote(g.Pattern), escape.Path(string(res.Items[0].Path)))
}

func readsText(reads []Read) string {
	s := make([]string, len(reads))
	for i, rd := range reads {
		s[i] = rd.String()
	}
	return strings.Join(s, ", ")
}

// prepareFailed is the Result of a call that could not be prepared.
func (r *Runner) prepareFailed(tool, pattern, p string, err error) (*Result, error) {
	res := &Result{Tool: tool, Pattern: pattern, Path: r.where(p), Done: Done{Status: StatusFailed, Error: err.(*Error)}}
	if audit := r.cfg.audit; audit != nil {
		audit(AuditRecord{Tool: tool, Pattern: pattern, Path: res.Path, Status: StatusFailed, Code: res.Done.Error.Code})
	}
	return res, res.Err()
}
