package host

import (
	"context"
	"time"
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
	return &Prepared{r: r, tool: "read", read: &args, reads: []Read{rd}}, nil
}

// PrepareList validates a list call and resolves the directory it will
// list, as PrepareGlob does; the error is an *Error.
func (r *Runner) PrepareList(args ListArgs) (*Prepared, error) {
	args.Path = r.hostPath(args.Path, false)
	rd, err := r.resolve(args.Path)
	if err != nil {
		return nil, err
	}
	return &Prepared{r: r, tool: "list", list: &args, reads: []Read{rd}}, nil
}
