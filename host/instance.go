package host

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"

	"github.com/rootbound/rootbound/host/internal/rootfs"
)

// instance is one running module: a long-lived _start that answers request
// lines until its stdin closes. Calls on one instance are serial; the Runner
// keeps one per concurrent call.
type instance struct {
	gate      *rootfs.Gate
	mounts    []*rootfs.FS // its roots' mounts
	clock     *clock
	stdin     *io.PipeWriter
	out       lineQueue     // its response lines, read in chunks (read); its channel closes when stdout ends
	exited    chan struct{} // closed when _start has returned
	abandoned chan struct{} // closed when the host gives up on it
	exitErr   error         // set before exited closes
	stderr    *headBuffer
	abandon   sync.Once
	ready     chan struct{} // closed when the module first reads its stdin
	memory    uint64        // its memory cap
	// interp: it runs on wazero's interpreter, until the module is
	// compiled (WithLazyStart): it serves one call, which moves to a
	// compiled instance when the compile ends (exchangeOn).
	interp bool
}

// send hands the module a request line. The mounts first let go of the
// directories they held open for the last call (the module, between
// calls, holds none: each call opens its tree anew), so a tree changed
// since is opened as it is now.
func (inst *instance) send(line []byte) error {
	for _, m := range inst.mounts {
		m.Close()
	}
	_, err := inst.stdin.Write(append(line, '\n'))
	return err
}

// warm reports whether the module has started and waits for a request.
func (inst *instance) warm() bool { return closed(inst.ready) }

// closed reports whether ch is closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// readyReader closes ready at the module's first read of its stdin: it
// has started.
type readyReader struct {
	r     io.Reader
	ready chan struct{}
	once  sync.Once
}

func (r *readyReader) Read(p []byte) (int, error) {
	r.once.Do(func() { close(r.ready) })
	return r.r.Read(p)
}

// start instantiates the module with the runner's roots mounted through
// rootfs, its memory capped at memory; r.mu must be held. It returns at
// once, while the module starts (5–15 ms from a compiled module).
func (r *Runner) start(memory uint64) *instance {
	inst := &instance{
		gate:      &rootfs.Gate{},
		clock:     &clock{},
		exited:    make(chan struct{}),
		abandoned: make(chan struct{}),
		stderr:    &headBuffer{max: 4 << 10},
		ready:     make(chan struct{}),
		memory:    memory,
	}
	fsc := wazero.NewFSConfig()
	args := []string{"rootbound"}
	for i, root := range r.roots {
		m := rootfs.New(root, inst.gate)
		inst.mounts = append(inst.mounts, m)
		fsc = fsc.(sysfs.FSConfig).WithSysFSMount(m, r.cfg.roots[i].Name)
		args = append(args, "--root", r.cfg.roots[i].Name)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	inst.stdin = inW
	mc := wazero.NewModuleConfig().
		WithName("").
		WithArgs(args...).
		WithStdin(&readyReader{r: inR, ready: inst.ready}).
		WithStdout(outW).
		WithStderr(inst.stderr).
		// A soft limit under the hard cap makes the module's garbage
		// collector work harder near the cap instead of dying at it.
		WithEnv("GOMEMLIMIT", fmt.Sprint(memory/4*3)).
		WithFSConfig(fsc).
		WithSysWalltime().
		WithNanotime(inst.clock.nanotime, 1).
		WithSysNanosleep()
	rt, compiled := r.rt, r.compiled
	if compiled == nil { // not compiled yet: the interpreter's (acquire)
		rt, compiled, inst.interp = r.interp.rt, r.interp.mod, true
		r.interp.live++
	}
	r.live[inst] = true
	r.exited.Add(1)
	go func() {
		defer r.exited.Done()
		mod, err := rt.InstantiateModule(withMemory(context.Background(), memory), compiled, mc)
		if mod != nil {
			_ = mod.Close(context.Background())
		}
		for _, m := range inst.mounts {
			m.Close() // the directories a mount holds open
		}
		inst.exitErr = err
		_ = inR.Close()
		_ = outW.Close()
		r.mu.Lock()
		delete(r.live, inst)
		if inst.interp {
			r.interp.live--
			r.retireInterp()
		}
		r.mu.Unlock()
		close(inst.exited)
	}()
	chunks := make(chan []byte, 64)
	inst.out.ch = chunks
	go inst.read(outR, chunks)
	return inst
}

// read hands the module's stdout to out in chunks of whole lines, as
// the module writes them (its writes are 64 KiB of buffered lines): a
// channel operation per line cost more than the merge of a split grep
// did, and 64 chunks hold far more lines than 64 lines, so the shards of
// a split grep wait less on each other. What the channel holds is bounded
// by 64 of the module's writes.
func (inst *instance) read(r io.Reader, ch chan<- []byte) {
	send := func(b []byte) {
		select {
		case ch <- b:
		case <-inst.abandoned: // nobody listens: drain so the module can finish
		}
	}
	var rest []byte
	for {
		buf := make([]byte, len(rest), max(64<<10, 2*len(rest)))
		copy(buf, rest)
		n, err := r.Read(buf[len(rest):cap(buf)])
		buf = buf[:len(rest)+n]
		rest = buf
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			send(buf[:i+1])
			rest = buf[i+1:]
		}
		if err != nil {
			// A line without its '\n' at the end is one the module was
			// writing when it died (its memory cap): dropped, so the call
			// ends with why it died, not with a line cut short.
			close(ch)
			return
		}
	}
}

// lineQueue splits chunks of whole lines into lines. One reader at a time:
// a call on one instance, or the shard of a split call that holds it.
type lineQueue struct {
	ch      <-chan []byte // chunks, each of whole lines
	pending []byte
}

// next returns the next line of the chunk read last, if any is left.
func (q *lineQueue) next() ([]byte, bool) {
	if len(q.pending) == 0 {
		return nil, false
	}
	i := bytes.IndexByte(q.pending, '\n')
	if i < 0 {
		i = len(q.pending) - 1
	}
	l := q.pending[:i+1]
	q.pending = q.pending[i+1:]
	return l, true
}

// wait returns the next line, waiting for a chunk if it must; false when
// the channel is closed.
func (q *lineQueue) wait() ([]byte, bool) {
	l, ok, _ := q.waitUntil(nil)
	return l, ok
}

// waitUntil is wait that gives up (late) when stop fires first.
func (q *lineQueue) waitUntil(stop <-chan time.Time) (l []byte, ok, late bool) {
	for {
		if l, ok := q.next(); ok {
			return l, true, false
		}
		select {
		case c, open := <-q.ch:
			if !open {
				return nil, false, false
			}
			q.pending = c
		case <-stop:
			return nil, false, true
		}
	}
}

// dead reports whether the module has exited.
func (inst *instance) dead() bool { return closed(inst.exited) }

// revoke ends the instance's current request: its mounts fail every call,
// and its clock jumps past the request's deadline (deadlineMS from when it
// was sent), which the module notices at its next look, however busy it
// is. The jump is never undone (the module's clock must not go back), so a
// revoked instance is not used again.
func (inst *instance) revoke(deadlineMS int64) {
	inst.gate.Revoke()
	inst.clock.shift.Add(int64(time.Duration(deadlineMS)*time.Millisecond + time.Second))
}

// interrupt ends the instance's current request, as revoke does, but
// leaves its mounts: a shard whose share is no longer needed answers at its
// next look at the clock and takes the next request. The module computes
// every deadline from its own clock, so one moved forward serves as well.
func (inst *instance) interrupt(deadlineMS int64) {
	inst.clock.shift.Add(int64(time.Duration(deadlineMS)*time.Millisecond + time.Second))
}

// stop ends the instance without waiting for it: its mounts are revoked,
// its stdin closes (an idle module exits), and a module still running is
// killed at its next clock read, which the module makes at least every
// millisecond or so of work.
func (inst *instance) stop() {
	inst.abandon.Do(func() {
		inst.gate.Revoke()
		inst.clock.kill()
		close(inst.abandoned)
		_ = inst.stdin.Close()
	})
}

// clock is an instance's monotonic clock (WASI's CLOCK_MONOTONIC, which
// Go's runtime reads for time.Now and its timers). It is the one host call
// the module is sure to make often, so it is where the host reaches into a
// running module: to move its time past a deadline (a cancellation the
// module cannot miss, and no file's error can imitate) or to kill it.
//
// Why not wazero's WithCloseOnContextDone: it makes compiled code check for
// cancellation at every loop header, which measured 4–17× slower on the
// module's CPU-bound work; a clock read every millisecond costs nothing
// measurable (RATIONALE.md).
type clock struct {
	shift  atomic.Int64 // added to the real clock
	killed atomic.Bool
	held   atomic.Pointer[func() bool] // while it returns true, a read waits
}

// holdPoll is how often a held clock looks whether it may go on.
const holdPoll = 2 * time.Millisecond

// hold makes each read of the clock wait while wait returns true (nil:
// never): the host's way to pause a module between two of its looks at the
// clock, as the index instance's build pauses while calls run.
func (c *clock) hold(wait func() bool) {
	if wait == nil {
		c.held.Store(nil)
		return
	}
	c.held.Store(&wait)
}

// epoch is where instance clocks start; only differences matter.
var epoch = time.Now()

func (c *clock) nanotime() int64 {
	if w := c.held.Load(); w != nil {
		for (*w)() && !c.killed.Load() {
			time.Sleep(holdPoll)
		}
	}
	if c.killed.Load() {
		// Unwinds the module's call stack: _start returns this exit error,
		// as it does for proc_exit.
		panic(sys.NewExitError(exitKilled))
	}
	return int64(time.Since(epoch)) + c.shift.Load()
}

func (c *clock) kill() { c.killed.Store(true) }

// exitKilled is the exit code of an instance the host killed.
const exitKilled = 137

// headBuffer keeps the first max bytes written to it: enough of a dying
// module's stderr to tell out-of-memory from other crashes.
type headBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - len(h.buf); room > 0 {
		h.buf = append(h.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.buf)
}
