package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tetratelabs/wazero/sys"

	"github.com/rootbound/rootbound/guest/protocol"
)

// The protocol's types are the host's: a result is what the module said.
type (
	GlobArgs = protocol.GlobArgs
	GrepArgs = protocol.GrepArgs
	Item     = protocol.Item
	Problem  = protocol.Problem
	Done     = protocol.Done
	Error    = protocol.Error
	Data     = protocol.Data
)

// Result is the answer to one call: the results and problems in the order
// the module found them, and its final line.
type Result struct {
	Tool     string // "glob" or "grep"
	Pattern  string // the call's pattern and path, for messages
	Path     string // as given, or the default root's name
	Mode     string // grep's output mode, resolved
	Items    []Item
	Problems []Problem
	Done     Done
}

// Err returns the call's typed error (*Error), or nil when it completed.
func (r *Result) Err() error {
	if r.Done.Error == nil {
		return nil
	}
	return r.Done.Error
}

// Grace periods past a call's deadline: first the module's own deadline
// check should answer (it looks at its clock at least every millisecond or
// so of work); then the host moves the module's clock past every deadline
// and revokes its mounts, which ends the request at its next look; then the
// host gives up on the call and kills the instance at its next clock read.
// Together they keep an overrun under 100 ms.
const (
	graceAnswer = 30 * time.Millisecond
	graceRevoke = 50 * time.Millisecond
)

const during = "before the search finished; results found until then are shown"

// Glob finds files by name or path. The Result is never nil; the error is
// the Result's typed error, if any. The Result holds at most
// WithMaxResultBytes of results; GlobEach holds none.
func (r *Runner) Glob(ctx context.Context, args GlobArgs) (*Result, error) {
	res := &Result{Tool: "glob", Pattern: args.Pattern, Path: r.where(args.Path)}
	return r.do(ctx, res, protocol.Request{Glob: &args}, nil)
}

// Grep searches file contents. The Result is never nil; the error is the
// Result's typed error, if any. The Result holds at most
// WithMaxResultBytes of results; GrepEach holds none.
func (r *Runner) Grep(ctx context.Context, args GrepArgs) (*Result, error) {
	return r.do(ctx, r.grepResult(args), protocol.Request{Grep: &args}, nil)
}

// GlobEach is Glob that hands each result to fn as the module sends it,
// in result order, instead of keeping it: memory stays flat whatever the
// number of results. The Result it returns has no Items. If fn returns an
// error, the call stops; its Result is partial, with code cancelled.
func (r *Runner) GlobEach(ctx context.Context, args GlobArgs, fn func(Item) error) (*Result, error) {
	res := &Result{Tool: "glob", Pattern: args.Pattern, Path: r.where(args.Path)}
	return r.do(ctx, res, protocol.Request{Glob: &args}, fn)
}

// GrepEach is Grep that hands each result to fn as it arrives, as GlobEach
// does.
func (r *Runner) GrepEach(ctx context.Context, args GrepArgs, fn func(Item) error) (*Result, error) {
	return r.do(ctx, r.grepResult(args), protocol.Request{Grep: &args}, fn)
}

func (r *Runner) grepResult(args GrepArgs) *Result {
	res := &Result{Tool: "grep", Pattern: args.Pattern, Path: r.where(args.Path), Mode: args.OutputMode}
	if res.Mode == "" {
		res.Mode = protocol.ModeFiles
	}
	return res
}

// where names a call's search root for messages.
func (r *Runner) where(path string) string {
	if path == "" {
		return r.cfg.roots[0].Name
	}
	return path
}

// do runs one request on a warm instance. Items go to each, or into res
// when each is nil.
func (r *Runner) do(ctx context.Context, res *Result, req protocol.Request, each func(Item) error) (*Result, error) {
	fail := func(code, msg string, partial bool) (*Result, error) {
		res.Done.Status = protocol.StatusFailed
		if partial {
			res.Done.Status = protocol.StatusPartial
		}
		res.Done.Error = protocol.NewError(code, msg)
		return res, res.Done.Error
	}
	if ctx.Err() != nil {
		code, msg := stopped(ctx, "before it started")
		return fail(code, msg, false)
	}
	deadline := time.Now().Add(r.cfg.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	inst, err := r.acquire(ctx)
	if err != nil {
		if errors.Is(err, ErrClosed) {
			return fail(protocol.CodeInternal, err.Error(), false)
		}
		code, msg := stopped(ctx, "while it waited for an instance")
		return fail(code, msg, false)
	}
	req.V = protocol.Version
	req.ID = strconv.FormatUint(r.nextID.Add(1), 10)
	req.Limits = &protocol.Limits{
		DeadlineMS:  max(1, time.Until(deadline).Milliseconds()),
		MaxEntries:  r.cfg.maxEntries,
		MaxBytes:    r.cfg.maxBytes,
		MaxFileSize: r.cfg.maxFileSize,
	}
	if each == nil {
		req.Limits.MaxOutputBytes = r.cfg.maxResultBytes
	}
	line, err := json.Marshal(req)
	if err != nil {
		r.release(inst)
		return fail(protocol.CodeInvalidArgument, "host: "+err.Error(), false)
	}
	if _, err := inst.stdin.Write(append(line, '\n')); err != nil {
		<-inst.exited
		r.discard(inst)
		return fail(protocol.CodeInternal, "host: the module is gone: "+exitText(inst), false)
	}

	timer := time.NewTimer(time.Until(deadline) + graceAnswer)
	defer timer.Stop()
	ctxDone := ctx.Done()
	revoked := false
	var eachErr error
	revoke := func() {
		if !revoked {
			revoked = true
			inst.revoke(req.Limits.DeadlineMS)
			timer.Reset(graceRevoke)
		}
	}
	held := int64(0) // bytes of item lines held in res
	for {
		select {
		case l, ok := <-inst.lines:
			if !ok {
				<-inst.exited
				r.discard(inst)
				code, msg := crashError(inst, r.cfg.memory)
				return fail(code, msg, true)
			}
			var rl protocol.Line
			if err := json.Unmarshal(l, &rl); err != nil || rl.ID != req.ID {
				r.discard(inst)
				return fail(protocol.CodeInternal, fmt.Sprintf("host: unexpected line from the module: %.200q", l), true)
			}
			switch {
			case rl.Item != nil && each != nil:
				if eachErr == nil {
					if eachErr = each(*rl.Item); eachErr != nil {
						revoke()
					}
				}
			case rl.Item != nil:
				// The module keeps to MaxOutputBytes; a module that did
				// not would still not grow the host past it.
				if held += int64(len(l)); held <= r.cfg.maxResultBytes {
					res.Items = append(res.Items, *rl.Item)
				}
			case rl.Problem != nil:
				res.Problems = append(res.Problems, *rl.Problem)
			case rl.Done != nil:
				res.Done = *rl.Done
				switch {
				case eachErr != nil:
					res.Done.Status = protocol.StatusPartial
					res.Done.Error = protocol.NewError(protocol.CodeCancelled, "the caller stopped taking results: "+eachErr.Error())
				case revoked:
					// The module answered only because its clock and
					// mounts were taken away: say why they were.
					res.Done.Status = protocol.StatusPartial
					res.Done.Error = protocol.NewError(stopped(ctx, during))
				case held > r.cfg.maxResultBytes:
					res.Done.Truncated = true
					res.Done.Narrow = fmt.Sprintf("the results passed the %d bytes this host keeps from one call: narrow the pattern or the path", r.cfg.maxResultBytes)
				}
				r.release(inst)
				return res, res.Err()
			}
		case <-ctxDone:
			ctxDone = nil
			revoke()
		case <-timer.C:
			if !revoked {
				revoke()
				continue
			}
			r.discard(inst)
			if eachErr != nil {
				return fail(protocol.CodeCancelled, "the caller stopped taking results: "+eachErr.Error(), true)
			}
			code, msg := stopped(ctx, during)
			return fail(code, msg, true)
		}
	}
}

// stopped says why the host ended a call early, before it started (when)
// or during it: the caller cancelled it, or its deadline passed.
func stopped(ctx context.Context, when string) (code, msg string) {
	if errors.Is(ctx.Err(), context.Canceled) {
		return protocol.CodeCancelled, "the call was cancelled " + when
	}
	return protocol.CodeDeadline, "the deadline passed " + when
}

// crashError turns a module's death into a typed error. Go's wasm runtime
// reports a failed memory grow as "out of memory" with exit code 2.
func crashError(inst *instance, limit uint64) (string, string) {
	if strings.Contains(inst.stderr.String(), "out of memory") {
		first, _, _ := strings.Cut(inst.stderr.String(), "\n")
		return protocol.CodeMemory, fmt.Sprintf("the module reached its memory cap (%d MiB: %s); results found until then are shown", limit>>20, first)
	}
	return protocol.CodeInternal, "the module stopped: " + exitText(inst)
}

func exitText(inst *instance) string {
	var ee *sys.ExitError
	msg := "no exit status"
	if errors.As(inst.exitErr, &ee) {
		msg = fmt.Sprintf("exit code %d", ee.ExitCode())
	} else if inst.exitErr != nil {
		msg = inst.exitErr.Error()
	}
	if first, _, _ := strings.Cut(inst.stderr.String(), "\n"); first != "" {
		msg += ": " + first
	}
	return msg
}
