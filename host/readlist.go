package host

import (
	"context"
	"time"

	"github.com/rootbound/rootbound/protocol"
)

// Read reads lines of one file (PrepareRead, then Run): numbered items,
// from args.Offset, at most args.Limit lines (2,000) and args.MaxBytes of
// them; Result.Done.Lines is the file's line count, and a truncated Result
// gives the offset to read on from (Done.NextOffset). The file is picked
// as a grep of it would be (no link at any component, .git never, the
// root's policy, the read guard); a binary file is CodeBinary, one over
// the size cap CodeTooLarge, anything but a regular file CodeNotAFile.
func (r *Runner) Read(ctx context.Context, args ReadArgs) (*Result, error) {
	start := time.Now()
	p, err := r.PrepareRead(args)
	if err != nil {
		return r.prepareFailed("read", "", args.Path, err)
	}
	p.start = start
	return p.run(ctx, nil)
}

// List lists a directory's entries, args.Depth levels deep (1 by
// default), each with its Kind and a file's Size, as a glob picks them
// (PrepareList, then Run).
func (r *Runner) List(ctx context.Context, args ListArgs) (*Result, error) {
	start := time.Now()
	p, err := r.PrepareList(args)
	if err != nil {
		return r.prepareFailed("list", "", args.Path, err)
	}
	p.start = start
	return p.run(ctx, nil)
}

// PrepareRead validates a read call and resolves the file it will read,
// as PrepareGrep does; the error is an *Error.
func (r *Runner) PrepareRead(args ReadArgs) (*Prepared, error) {
	args.Path = r.hostPath(args.Path, false)
	if args.Path == "" {
		return nil, newError(CodeInvalidArgument, "read needs a path: the file to read")
	}
	rd, err := r.resolve(args.Path)
	if err != nil {
		return nil, err
	}
	return &Prepared{r: r, tool: "read", call: protocol.Call{Read: &args}, path: args.Path, reads: []Read{rd}}, nil
}

// PrepareList validates a list call and resolves the directory it will
// list, as PrepareGlob does; the error is an *Error.
func (r *Runner) PrepareList(args ListArgs) (*Prepared, error) {
	return r.preparePath("list", protocol.Call{List: &args}, &args.Path)
}

// preparePath prepares the call of a tool whose one read is its path
// argument (*path, in call's arguments): a host path in it becomes the
// root's name, and it is resolved as PrepareGlob resolves its path. A tool
// the module has and the host knows no more of (its row in tools) needs
// nothing else to be run.
func (r *Runner) preparePath(tool string, call protocol.Call, path *string) (*Prepared, error) {
	if err := call.CheckLists(); err != nil {
		return nil, err
	}
	*path = r.hostPath(*path, false)
	rd, err := r.resolve(*path)
	if err != nil {
		return nil, err
	}
	return &Prepared{r: r, tool: tool, call: call, path: *path, reads: []Read{rd}}, nil
}
