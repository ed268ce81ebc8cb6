package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tetratelabs/wazero/sys"

	"github.com/rootbound/rootbound/internal/wire"
	"github.com/rootbound/rootbound/protocol"
)

// Result is the answer to one call: the results and problems in the order
// the module found them, and how it ended.
type Result struct {
	Tool     string     // "glob" or "grep"
	Pattern  string     // the call's pattern and path, for messages
	Path     string     // as given, or the default root's name
	Mode     OutputMode // grep's output mode, resolved
	Items    []Item
	Problems []Problem
	Done     Done
	// Hint, when a glob found nothing, says what would have: a pattern
	// with "/" but no "**" matches the path below the search path, and
	// "**/" before it finds the same at any depth ("" when that finds
	// nothing too).
	Hint string

	// For Text: the search path's root hides hidden files; a glob finds
	// directories or links too; the results skipped before these, at most
	// how many were asked for; the bytes of results this host takes from
	// one call; a grep's arguments (-o, its patterns, and the printer's).
	hides, paths bool
	offset, max  int
	capBytes     int64
	grep         *GrepArgs
}

// Err returns the call's typed error (*Error), or nil when it completed.
func (r *Result) Err() error {
	switch e := r.Done.Error; {
	case e == nil:
		return nil
	case e.Code == CodeInternal && e.Message == closedMessage:
		return closedError{e}
	}
	return r.Done.Error
}

// closedMessage is the message of a call on a closed Runner.
const closedMessage = "the runner is closed"

// closedError is a call's error on a closed Runner: errors.As finds its
// *Error, errors.Is finds ErrClosed.
type closedError struct{ err *Error }

func (c closedError) Error() string   { return c.err.Error() }
func (c closedError) Unwrap() []error { return []error{c.err, ErrClosed} }

// Grace periods past a call's deadline: first the module's own deadline
// check should answer (it looks at its clock at least every millisecond or
// so of work); then the host moves the module's clock past every deadline
// and revokes its mounts, which ends the request at its next look; then the
// host gives up on the call and kills the instance at its next clock read.
// Together they keep an overrun under 100 ms. A cancelled call starts one
// step earlier: its clock is moved (graceAnswer), then its mounts revoked
// (graceRevoke); an instance that answers before its mounts were revoked
// is kept. The index instance, whose index a build of many scans made, is
// not revoked at graceAnswer: the caller has its answer then, and the
// instance is waited for apart (drain).
const (
	graceAnswer = 30 * time.Millisecond
	graceRevoke = 50 * time.Millisecond
)

const during = "before the search finished; results found until then are shown"

// moduleDeadline is the module's words for a deadline that passed during
// a call (internal/server/call.go). The host says the same when it ends
// the call itself (its backstop, graceAnswer past the deadline), as the
// Node and wasmtime hosts do, so an answer never depends on which side
// noticed the deadline first (conformance case deadline).
const moduleDeadline = "deadline reached before the search finished"

// Glob finds files by name or path: PrepareGlob, then Run. The Result is
// never nil; the error is the Result's typed error, if any. The Result
// holds at most WithMaxResultBytes of results; GlobEach holds none.
func (r *Runner) Glob(ctx context.Context, args GlobArgs) (*Result, error) {
	return r.GlobEach(ctx, args, nil)
}

// Grep searches file contents: PrepareGrep, then Run. The Result is never
// nil; the error is the Result's typed error, if any. The Result holds at
// most WithMaxResultBytes of results; GrepEach holds none.
func (r *Runner) Grep(ctx context.Context, args GrepArgs) (*Result, error) {
	return r.GrepEach(ctx, args, nil)
}

// GlobEach is Glob that hands each result to fn as the module sends it,
// in result order, instead of keeping it: memory stays flat whatever the
// number of results. The Result it returns has no Items. With MaxResults
// 0 it hands over every result (up to protocol.MaxResultsCeiling, past
// which the Result says it was truncated), not the default 100 a Result
// holds. If fn returns an error, the call stops; its Result is partial,
// with code cancelled.
func (r *Runner) GlobEach(ctx context.Context, args GlobArgs, fn func(Item) error) (*Result, error) {
	start := time.Now()
	p, err := r.PrepareGlob(args)
	if err != nil {
		return r.prepareFailed("glob", args.Pattern, args.Path, err)
	}
	p.start = start
	return p.run(ctx, fn)
}

// GrepEach is Grep that hands each result to fn as it arrives, as GlobEach
// does.
func (r *Runner) GrepEach(ctx context.Context, args GrepArgs, fn func(Item) error) (*Result, error) {
	start := time.Now()
	p, err := r.PrepareGrep(args)
	if err != nil {
		return r.prepareFailed("grep", args.Pattern, args.Path, err)
	}
	p.start = start
	return p.run(ctx, fn)
}

func (r *Runner) globResult(args GlobArgs) *Result {
	return &Result{Tool: "glob", Pattern: args.Pattern, Path: r.where(args.Path), offset: args.Offset,
		paths: args.IncludeDirs || slices.ContainsFunc(args.EntryType, func(t string) bool { return t != "file" })}
}

func (r *Runner) grepResult(args GrepArgs) *Result {
	res := &Result{Tool: "grep", Pattern: args.Pattern, Path: r.where(args.Path), Mode: args.OutputMode,
		offset: args.Offset, grep: &args}
	if res.Mode == "" {
		res.Mode = ModeFiles
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

// do runs one typed request, whose timeout started at start. Items go to
// each, or into res when each is nil.
func (r *Runner) do(ctx context.Context, start time.Time, res *Result, req protocol.Request, each func(Item) error) (*Result, error) {
	deadline := r.deadline(ctx, start, 0)
	req.V = protocol.Version
	req.ID = strconv.FormatUint(r.nextID.Add(1), 10)
	req.Limits = &protocol.Limits{
		DeadlineMS:   max(1, time.Until(deadline).Milliseconds()),
		MaxEntries:   r.cfg.maxEntries,
		MaxBytes:     r.cfg.maxBytes,
		MaxFileSize:  r.cfg.maxFileSize,
		MaxTextBytes: r.cfg.maxTextBytes,
	}
	if each == nil {
		req.Limits.MaxOutputBytes = r.cfg.maxResultBytes
	}
	progress, showProgress := progressOf(ctx)
	if showProgress {
		req.Limits.ProgressMS = max(1, progress.every.Milliseconds())
	}
	req.Policy = r.policy
	line, err := json.Marshal(req)
	if err != nil {
		res.Done = failed(protocol.CodeInvalidArgument, err.Error())
		return res, res.Done.Error
	}
	if len(line) > protocol.MaxLineBytes {
		res.Done = failed(protocol.CodeInvalidArgument, fmt.Sprintf(
			"the call's arguments make a request of %d bytes, over the protocol's %d: shorten the path or the patterns", len(line), protocol.MaxLineBytes))
		return res, res.Done.Error
	}
	held := int64(0) // bytes of item lines held in res
	var eachErr error
	res.Done, _ = r.run(ctx, &req, line, req.ID, deadline, req.Limits.DeadlineMS, func(raw []byte, l *protocol.Line) error {
		switch {
		case l.Item != nil && each != nil:
			if eachErr = each(*l.Item); eachErr != nil {
				return eachErr
			}
		case l.Item != nil:
			// The module keeps to MaxOutputBytes; a module that did not
			// would still not grow the host past it.
			if held += int64(len(raw)); held <= r.cfg.maxResultBytes {
				res.Items = append(res.Items, *l.Item)
			}
		case l.Problem != nil:
			res.Problems = append(res.Problems, *l.Problem)
		case l.Progress != nil && showProgress:
			progress.fn(*l.Progress)
		}
		return nil
	})
	if held > r.cfg.maxResultBytes && res.Done.Error == nil {
		// A module that did not keep to MaxOutputBytes: the page ends
		// at the last result kept.
		kept := 0
		for _, it := range res.Items {
			if !it.Context {
				kept++
			}
		}
		res.Done.Truncated, res.Done.Capped, res.Done.NextOffset = true, true, res.offset+kept
	}
	return res, res.Err()
}

// deadline is when a call must end: the runner's timeout from start, or
// sooner when ctx says so or the request asks for less (requested, 0 for
// none).
func (r *Runner) deadline(ctx context.Context, start time.Time, requested time.Duration) time.Time {
	timeout := r.cfg.timeout
	if requested > 0 {
		timeout = min(timeout, requested)
	}
	deadline := start.Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	return deadline
}

// failed is the Done of a call that did not run.
func failed(code, msg string) Done {
	return Done{Status: StatusFailed, Error: newError(code, msg)}
}

// exchange sends one request line to a warm instance and hands each answer
// line to onLine, raw and decoded, up to the final line, whose Done it
// returns, with the line as the module wrote it when the host did not
// change it. It enforces the deadline (and ctx): past it, the host moves the
// module's clock past the deadline the request gave the module (moduleMS;
// 0 for none) and revokes its mounts, then gives up on the instance; the
// Done it returns then says why. An error from onLine stops the call the
// same way (code cancelled). When id is not empty, every line must carry
// it. An instance whose clock was moved is not used again, so a clock is
// moved at most once.
func (r *Runner) exchange(ctx context.Context, line []byte, id string, deadline time.Time, moduleMS int64,
	onLine func(raw []byte, l *protocol.Line) error) (Done, []byte) {
	if ctx.Err() != nil {
		return notStarted(ctx, "before it started"), nil
	}
	inst, err := r.acquire(ctx)
	if err != nil {
		return acquireFailed(ctx, err), nil
	}
	return r.exchangeOn(ctx, inst, line, id, deadline, moduleMS, onLine)
}

// acquireFailed is the final line of a call that got no instance.
func acquireFailed(ctx context.Context, err error) Done {
	if errors.Is(err, ErrClosed) {
		return Done{Status: StatusFailed, Error: newError(CodeInternal, closedMessage)}
	}
	return notStarted(ctx, "while it waited for an instance")
}

// exchangeOn is exchange on an instance acquired, which it releases.
func (r *Runner) exchangeOn(ctx context.Context, inst *instance, line []byte, id string, deadline time.Time, moduleMS int64,
	onLine func(raw []byte, l *protocol.Line) error) (Done, []byte) {
	if err := inst.send(line); err != nil {
		<-inst.exited
		r.discard(inst)
		return failed(protocol.CodeInternal, "the module is gone: "+exitText(inst)), nil
	}
	// results counts the results handed on, for an answer the host ends
	// itself: the module's own count is lost with it.
	results := 0
	partial := func(code, msg string) Done {
		return Done{Status: StatusPartial, Results: results, Error: newError(code, msg)}
	}
	timer := time.NewTimer(time.Until(deadline) + graceAnswer)
	defer timer.Stop()
	ctxDone := ctx.Done()
	interrupted, revoked := false, false
	var lineErr error
	var items wire.ItemReader
	revoke := func() {
		if !revoked {
			revoked = true
			inst.revoke(moduleMS)
			timer.Reset(graceRevoke)
		}
	}
	// A call its caller stopped is first interrupted: the module's clock
	// moves past its deadline, and it answers at its next look at it
	// (within a millisecond or so of work) with its state whole, so the
	// instance is kept (and with it, on the index instance, the index).
	// One that does not answer in graceAnswer is revoked, then given up
	// (the index instance: drained).
	interrupt := func() {
		if !interrupted && !revoked {
			interrupted = true
			inst.interrupt(moduleMS)
			timer.Reset(graceAnswer)
		}
	}
	stoppedDone := func() Done {
		if lineErr != nil {
			return partial(protocol.CodeCancelled, "the caller stopped taking results: "+lineErr.Error())
		}
		return partial(stopped(ctx, during))
	}
	// An instance on the interpreter hands its call to a compiled one
	// once the module is compiled: the call runs again there, and the
	// lines the interpreter's sent (an answer is the same on every run)
	// are not sent again.
	var compiled <-chan struct{}
	if inst.interp {
		compiled = r.started
		r.interpreted.Add(1)
	}
	sent := 0 // lines handed to onLine, but progress lines
	for {
		raw, ok := inst.out.next()
		if !ok {
			select {
			case <-compiled:
				compiled = nil
				if !r.compiledNow() || interrupted || revoked || lineErr != nil {
					continue
				}
				r.discard(inst)
				r.handedOff.Add(1)
				skip := sent
				return r.exchange(ctx, line, id, deadline, moduleMS, func(raw []byte, l *protocol.Line) error {
					if skip > 0 && l.Progress == nil {
						skip--
						return nil
					}
					return onLine(raw, l)
				})
			case chunk, open := <-inst.out.ch:
				if !open {
					<-inst.exited
					r.discard(inst)
					return partial(crashError(inst)), nil
				}
				inst.out.pending = chunk
			case <-ctxDone:
				ctxDone = nil
				interrupt()
			case <-timer.C:
				if !revoked && r.holdsIndex(inst) {
					// Its index is worth more than a wait: the caller
					// has its answer now, and the instance is waited
					// for apart (a cancel on a busy machine lost it).
					if !interrupted {
						inst.interrupt(moduleMS)
					}
					go r.drain(inst, id, moduleMS)
					return stoppedDone(), nil
				}
				if !revoked {
					revoke()
					continue
				}
				r.discard(inst)
				return stoppedDone(), nil
			}
			continue
		}
		l, err := decodeLine(&items, raw)
		if err != nil || (id != "" && l.ID != id) {
			r.discard(inst)
			return partial(protocol.CodeInternal, fmt.Sprintf("unexpected line from the module: %.200q", raw)), nil
		}
		if l.Done != nil {
			done := *l.Done
			if interrupted || revoked {
				// The module answered because its clock (and, revoked,
				// its mounts) were taken away: say why they were. A
				// module whose mounts failed under it may have kept
				// what it saw (an ignore file unreadable, a walk's
				// record): it is given up.
				stopped := stoppedDone()
				done.Status, done.Error = stopped.Status, stopped.Error
				if revoked {
					r.discard(inst)
				} else {
					r.release(inst)
				}
				return done, nil
			}
			r.release(inst)
			return done, raw
		}
		if l.Progress == nil {
			sent++
		}
		if lineErr == nil {
			if lineErr = onLine(raw, &l); lineErr != nil {
				interrupt()
			} else if l.Item != nil && !l.Item.Context {
				results++
			}
		}
	}
}

// drainWait is how long the index instance is waited for, after its
// caller had its answer, to end a call whose clock was moved: past it, its
// mounts are revoked, and it is given up graceRevoke later.
const drainWait = 2 * time.Second

// holdsIndex reports whether inst is the index instance.
func (r *Runner) holdsIndex(inst *instance) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return inst == r.ix.inst
}

// drain reads what the index instance still sends of call id, whose
// answer its caller already has, and releases it at its final line, or
// gives it up when it sends none in time (drainWait) or sends another
// call's. Until then it stays busy and the calls go to other instances.
func (r *Runner) drain(inst *instance, id string, moduleMS int64) {
	timer := time.NewTimer(drainWait)
	defer timer.Stop()
	var items wire.ItemReader
	revoked := false
	for {
		raw, more, late := inst.out.waitUntil(timer.C)
		switch {
		case late && !revoked:
			revoked = true
			inst.revoke(moduleMS)
			timer.Reset(graceRevoke)
			continue
		case !more:
			if !late {
				<-inst.exited // it ended by itself
			}
			r.discard(inst)
			return
		}
		l, err := decodeLine(&items, raw)
		switch {
		case err != nil || (id != "" && l.ID != id):
			r.discard(inst)
			return
		case l.Done != nil && revoked:
			r.discard(inst) // its mounts failed under it: see exchangeOn
			return
		case l.Done != nil:
			r.release(inst)
			return
		}
	}
}

// decodeLine decodes a line of the module's: an item line by hand (most
// lines are; r keeps what the last shared with it), any other as
// protocol.DecodeLine does.
func decodeLine(r *wire.ItemReader, raw []byte) (protocol.Line, error) {
	if id, seq, it, ok := r.Parse(raw); ok && seq < 0 {
		return protocol.Line{ID: id, Item: &it}, nil
	}
	return protocol.DecodeLine(raw)
}

// stopped says why the host ended a call early, before it started (when)
// or during it: the caller cancelled it, or its deadline passed.
func stopped(ctx context.Context, when string) (code, msg string) {
	if errors.Is(ctx.Err(), context.Canceled) {
		return protocol.CodeCancelled, "the call was cancelled " + when
	}
	return protocol.CodeDeadline, moduleDeadline
}

// notStarted is the final line of a call the host stopped before the
// module searched: a cancelled call failed; a deadline reads as the module's
// own at its first look at its clock (partial, with nothing found), so a
// short deadline ends the same way whether it passed before or after the
// host handed the call over, which a busy machine decides.
func notStarted(ctx context.Context, when string) Done {
	code, msg := stopped(ctx, when)
	if code == protocol.CodeDeadline {
		return Done{Status: StatusPartial, Error: newError(code, msg)}
	}
	return failed(code, msg)
}

// crashError turns a module's death into a typed error. Go's wasm runtime
// reports a failed memory grow as "out of memory" with exit code 2.
func crashError(inst *instance) (string, string) {
	if strings.Contains(inst.stderr.String(), "out of memory") {
		first, _, _ := strings.Cut(inst.stderr.String(), "\n")
		return protocol.CodeMemory, fmt.Sprintf("the module reached its memory cap (%d MiB: %s); results found until then are shown", inst.memory>>20, first)
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
