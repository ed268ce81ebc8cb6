// Package host runs the rootbound module with wazero and gives Go programs
// its glob, grep, read, list and stat: typed results, the text an agent reads, and tools.
//
// Confinement is the runtime's: each readable root is a preopen backed by
// a mount of the project's own (package internal/rootfs) that resolves
// every path beneath the root and follows no symbolic link at any
// component, so the module can name nothing outside its roots, and no path
// inside one names what a link points to.
//
// Cost: compiling the module takes seconds, loading it from the on-disk
// compilation cache a tenth of that, so the cache is always on; an instance
// starts in milliseconds, so instances stay warm and are reused, one per
// concurrent call (RATIONALE.md, "Why warm instances and a compilation
// cache?"; `make bench` measures the command's start and a warm call).
//
// Limits: the module enforces a call's deadline and work budget itself: its
// matching is linear in what it matches, and every long loop reads the
// clock every millisecond or so of work (package internal/meter), because
// wazero's WithCloseOnContextDone (which could interrupt it) slows CPU-bound
// guest code 6–7×. The clock is also the host's way in: past the deadline,
// or when the caller's context ends, the host moves the instance's clock
// past the deadline and revokes its mounts, so the module ends the call at
// its next read; should it not, the host kills the instance at the read
// after, and starts another. A module that reaches its memory cap dies and
// is replaced. What a Result holds is capped in bytes (WithMaxResultBytes);
// GlobEach and GrepEach hold nothing.
package host

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/rootbound/rootbound/host/internal/private"
	"github.com/rootbound/rootbound/host/internal/rootfs"
	"github.com/rootbound/rootbound/protocol"
)

// Runner runs calls on warm module instances. It is safe for concurrent use.
type Runner struct {
	cfg      *config
	policy   []protocol.RootPolicy // sent with every request
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	roots    []*rootfs.Dir
	hostDirs [][]string    // by root: its directory's absolute path, and its real one
	slots    chan struct{} // one per call in flight

	mu     sync.Mutex
	idle   []*instance
	live   map[*instance]bool // every instance whose _start has not returned
	closed bool
	exited sync.WaitGroup // one per live instance

	closeOnce sync.Once
	closeErr  error
	warnings  []string

	nextID atomic.Uint64
	split  atomic.Uint64 // calls split across instances, for tests
	ranged atomic.Uint64 // of them, split by ranges
	// interpreted: calls started on the interpreter; handedOff: of
	// them, moved to a compiled instance (for tests).
	interpreted, handedOff atomic.Uint64
	// walked: files the last complete grep of a path walked (by the
	// path as given); a smaller walk than splitMin is not split.
	walked *memo[int64]
	// plans: where the files of the last complete split grep of a walk
	// lay (ranges.go), by planKey.
	plans *memo[*plan]
	// narrowed: whether the index narrows a grep's files (narrows), by
	// its pattern and what compiles it.
	narrowed *memo[bool]
	splitMin int64
	// ix is the index instance (WithIndex, index.go), under mu.
	ix indexer
	// indexCache is WithIndexCache's directory once checked (indexcache.go);
	// "": none.
	indexCache string
	// started is closed once the module is compiled and the first
	// instances started (WithLazyStart: in the background; closed from
	// the start otherwise); startErr then says why not. cancelStart
	// ends a start in the background that Close overtook.
	started     chan struct{}
	startErr    error
	cancelStart context.CancelFunc
	// usable is closed once a call can start: the module compiled, or
	// ready for the interpreter (interp, under mu), whichever is first.
	usable     chan struct{}
	usableOnce sync.Once
	interp     interpreter
}

// interpreter is wazero's interpreter with the module, while the module
// compiles (WithLazyStart): the compiler takes 1–3 s on a fresh install,
// the interpreter a fraction of that, and a first call on a small tree
// then answers within half a second (RATIONALE.md, "Why does a Runner start on
// the interpreter?"). It is closed once the module is compiled and no
// instance of it lives.
type interpreter struct {
	rt   wazero.Runtime
	mod  wazero.CompiledModule
	live int           // instances running on it
	done chan struct{} // closed when its start has ended, ready or not
}

// NewRunner validates cfg, compiles the module (from the compilation cache
// when it can) and starts its warm instances; with WithLazyStart it
// returns once cfg is checked and the roots open, and does the rest in the
// background.
func NewRunner(ctx context.Context, cfg Config) (*Runner, error) {
	c, ok := cfg.(*config)
	if !ok {
		return nil, errors.New("host: Config must come from NewConfig")
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, notReady(ctx)
	}
	c = c.clone()
	if c.parallelism == 0 {
		c.parallelism = c.defaultParallelism()
	}
	r := &Runner{cfg: c, slots: make(chan struct{}, c.instances), live: map[*instance]bool{}, policy: c.wirePolicy(), splitMin: splitMinFiles,
		walked: newMemo[int64](maxWalked), plans: newMemo[*plan](maxPlans), narrowed: newMemo[bool](maxPlans)}
	for _, root := range c.roots {
		dir, dirs, err := openRoot(root)
		if err != nil {
			r.closeRoots()
			return nil, fmt.Errorf("host: root %s: %w", root.Name, err)
		}
		r.roots = append(r.roots, dir)
		r.hostDirs = append(r.hostDirs, dirs)
	}
	rc := wazero.NewRuntimeConfig().WithMemoryLimitPages(uint32(c.runtimeMemory() >> 16)).
		WithCloseOnContextDone(c.closeOnContextDone)
	cache, cacheDir, warning := c.compilationCache()
	if warning != "" {
		r.warnings = append(r.warnings, warning)
	}
	if cache != nil {
		rc = rc.WithCompilationCache(cache)
	}
	r.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, r.rt); err != nil {
		r.Close(ctx)
		return nil, fmt.Errorf("host: WASI: %w", err)
	}
	if c.index && c.indexCache != "" {
		if err := private.Dir(c.indexCache); err != nil {
			r.warnings = append(r.warnings, "no index cache (every Runner builds the index from the files): "+err.Error())
		} else {
			r.indexCache = c.indexCache
			removeStale(r.indexCache)
			r.checkCacheFiles()
		}
	}
	r.started, r.usable = make(chan struct{}), make(chan struct{})
	if c.lazyStart {
		var start context.Context
		start, r.cancelStart = context.WithCancel(context.Background())
		r.interp.done = make(chan struct{})
		if cached(cacheDir) {
			close(r.interp.done)
		} else {
			// A compile, not a load from the cache: the interpreter
			// answers meanwhile.
			go r.startInterp(start)
		}
		go func() {
			r.startErr = r.compileAndStart(start)
			if r.startErr == nil && cacheDir != "" {
				if f, err := os.OpenFile(compiledMark(cacheDir), os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
					f.Close()
				}
			}
			close(r.started)
			r.usableOnce.Do(func() { close(r.usable) })
		}()
		return r, nil
	}
	r.startErr = r.compileAndStart(ctx)
	close(r.started)
	close(r.usable)
	if r.startErr != nil {
		r.Close(context.Background())
		return nil, r.startErr
	}
	return r, nil
}

// startInterp makes the module ready for wazero's interpreter (the
// Runner's memory cap; no compilation cache: there is nothing to compile),
// and lets calls start on it unless the compile was quicker.
func (r *Runner) startInterp(ctx context.Context) {
	defer close(r.interp.done)
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter().
		WithMemoryLimitPages(uint32(r.cfg.runtimeMemory()>>16)))
	mod, err := func() (wazero.CompiledModule, error) {
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
			return nil, err
		}
		return rt.CompileModule(ctx, moduleWasm)
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil || r.closed || r.compiled != nil {
		_ = rt.Close(context.Background())
		return
	}
	r.interp.rt, r.interp.mod = rt, mod
	r.usableOnce.Do(func() { close(r.usable) })
}

// retireInterp closes the interpreter once the module is compiled (or
// the Runner closed) and no instance runs on it; r.mu is held.
func (r *Runner) retireInterp() {
	if r.interp.rt == nil || r.interp.live > 0 || r.compiled == nil && !r.closed {
		return
	}
	rt := r.interp.rt
	r.interp.rt, r.interp.mod = nil, nil
	go rt.Close(context.Background())
}

// compiledNow reports whether the module is compiled: until it is, every
// call runs whole on one instance (the interpreter's).
func (r *Runner) compiledNow() bool {
	select {
	case <-r.started:
		return r.startErr == nil
	default:
		return false
	}
}

// compileAndStart compiles the module and starts the first instances
// (the index instance among them), and waits until they are ready: an
// instance starting while a call runs holds a core its first milliseconds
// (the module's runtime starting), beside the call's, and the program's
// own goroutines would wait.
func (r *Runner) compileAndStart(ctx context.Context) error {
	compiled, err := r.rt.CompileModule(ctx, moduleWasm)
	if err != nil {
		if ctx.Err() != nil {
			return notReady(ctx)
		}
		return fmt.Errorf("host: compile module: %w", err)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrClosed
	}
	r.compiled = compiled
	r.retireInterp()
	for range r.cfg.parallelism { // a split grep's shards, started at once
		r.idle = append(r.idle, r.start(r.cfg.memory))
	}
	starting := slices.Clone(r.idle)
	if r.cfg.index {
		r.startIndex()
	}
	r.mu.Unlock()
	for _, inst := range starting {
		select {
		case <-inst.ready:
		case <-inst.exited:
		case <-ctx.Done():
			return notReady(ctx)
		}
	}
	return nil
}

// openRoot opens a root's directory (WithRoot's by its name, WithRootDir's
// through the descriptor) and returns it with the host paths that name it
// (its absolute path, and its real one when another), which no answer
// shows.
func openRoot(root root) (*rootfs.Dir, []string, error) {
	var dir *rootfs.Dir
	var err error
	var real string
	if root.File != nil {
		dir, err = rootfs.FromFile(root.File)
		if err == nil {
			real = dir.RealPath(root.Dir)
		}
	} else {
		dir, err = rootfs.OpenDir(root.Dir)
		if r, err := filepath.EvalSymlinks(root.Dir); err == nil {
			real, _ = filepath.Abs(r)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	abs, err := filepath.Abs(root.Dir)
	if err != nil {
		dir.Close()
		return nil, nil, err
	}
	dirs := []string{abs}
	if real != "" && real != abs {
		dirs = append(dirs, real)
	}
	return dir, dirs, nil
}

// notReady is the error of a NewRunner whose ctx ended before its module
// was compiled and its instances started: typed as a call's, since a
// command's one call is given the same deadline.
func notReady(ctx context.Context) *Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return newError(protocol.CodeDeadline, "deadline reached before the module was ready (its first run on a machine compiles it, which takes seconds, and caches it)")
	}
	return newError(protocol.CodeCancelled, "cancelled before the module was ready")
}

func (c *config) validate() error {
	if len(c.roots) == 0 {
		return errors.New("host: no roots: add one with WithRoot")
	}
	names := make([]string, len(c.roots))
	for i, root := range c.roots {
		names[i] = root.Name
	}
	if err := protocol.CheckRootNames(names); err != nil {
		return fmt.Errorf("host: %w", err)
	}
	switch {
	case c.timeout <= 0:
		return fmt.Errorf("host: timeout %v, want > 0", c.timeout)
	case c.instances < 1:
		return fmt.Errorf("host: %d instances, want >= 1", c.instances)
	case c.parallelism < 0 || c.parallelism > protocol.MaxShards:
		return fmt.Errorf("host: parallelism %d, want 1 to %d (0: the default)", c.parallelism, protocol.MaxShards)
	case c.memory < 32<<20 || c.memory > 4<<30:
		return fmt.Errorf("host: memory limit %d bytes, want 32 MiB to 4 GiB", c.memory)
	case c.maxEntries < 0 || c.maxBytes < 0 || c.maxFileSize < 0:
		return errors.New("host: budget and file size must not be negative")
	case c.maxFileSize > protocol.MaxFileSizeCeiling:
		return fmt.Errorf("host: file size cap %d bytes, want at most 1 GiB (a file is read whole into the module's memory)", c.maxFileSize)
	case c.maxResultBytes < 1<<10:
		return fmt.Errorf("host: max result bytes %d, want at least 1 KiB", c.maxResultBytes)
	case c.maxTextBytes < 0:
		return fmt.Errorf("host: max text bytes %d, want 0 (the default) or more", c.maxTextBytes)
	case c.indexBytes < 0 || c.indexBytes > IndexCeiling:
		return fmt.Errorf("host: index memory %d bytes, want 0 (sized from the tree) to %d (IndexCeiling)", c.indexBytes, IndexCeiling)
	}
	if pol, _ := json.Marshal(c.wirePolicy()); len(pol) > MaxPolicyBytes {
		return fmt.Errorf("host: the roots' policies hold %d bytes, want at most %d: every request carries them", len(pol), MaxPolicyBytes)
	}
	for name, p := range c.policies {
		if !slices.Contains(names, name) {
			return fmt.Errorf("host: a policy for %s, which is not a root", name)
		}
		for _, r := range p.Ignore {
			if !slices.Contains(protocol.IgnoreKinds, r.Kind) {
				return fmt.Errorf("host: ignore rules of kind %q for %s, want one of %s", r.Kind, name, strings.Join(protocol.IgnoreKinds, ", "))
			}
		}
	}
	return nil
}

// compilationCache returns the on-disk cache of compiled modules: the
// configured directory, or rootbound/wazero under the user's cache
// directory, or, when that cannot be written, one under the system's
// temporary directory. What the cache holds is run as native code, so a
// directory is used only when no other user could have written a file in
// it (private.Dir: this user's, 0700, no other user able to rename or
// replace a directory on the way, no link but the system's own).
// Without any, each runner compiles the module again (1–3 s), so what
// was given up is returned as a warning, not dropped.
func (c *config) compilationCache() (cache wazero.CompilationCache, dir, warning string) {
	dirs := DefaultCacheDirs()
	if c.cacheDir != nil {
		if *c.cacheDir == "" {
			return nil, "", "" // asked for none
		}
		dirs = []string{*c.cacheDir}
	}
	var failures []string
	for i, dir := range dirs {
		if err := writable(dir); err != nil {
			failures = append(failures, err.Error())
			continue
		}
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			failures = append(failures, err.Error())
			continue
		}
		if i == 0 {
			return cache, dir, ""
		}
		return cache, dir, fmt.Sprintf("the compilation cache is in %s: %s", dir, strings.Join(failures, "; "))
	}
	return nil, "", "no compilation cache (each runner compiles the module, 1–3 s): " + strings.Join(failures, "; ")
}

// cached reports whether the compilation cache dir holds the module, as
// its compiledMark says.
func cached(dir string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Lstat(compiledMark(dir))
	return err == nil
}

// compiledMark is the file a Runner leaves in its compilation cache once
// the module compiled there: while it is there, the module is taken to be
// in the cache (a load, not a compile), and no Runner starts on the
// interpreter.
// It is a hint, never trusted for more: a cache emptied under it costs a
// first call the compile.
func compiledMark(dir string) string {
	sum := moduleSum()
	return filepath.Join(dir, "compiled-"+hex.EncodeToString(sum[:8]))
}

// DefaultCacheDirs are where a Runner keeps its compiled module unless
// WithCacheDir names a place: rootbound/wazero under the user's cache
// directory, or, when that cannot be used, rootbound-UID/wazero in the
// temporary directory. A program that clears its caches removes them.
func DefaultCacheDirs() []string {
	var dirs []string
	if base, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(base, "rootbound", "wazero"))
	}
	return append(dirs, filepath.Join(os.TempDir(), fmt.Sprintf("rootbound-%d", os.Getuid()), "wazero"))
}

// writable makes dir, checks that no other user can write in it
// (private.Dir), and that a file can be written in it.
func writable(dir string) error {
	if err := private.Dir(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "probe")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// Warnings says what the runner had to give up when it started (today: a
// compilation cache it could not write, so runners start slowly). Library
// code never prints: a program shows these as it wishes.
func (r *Runner) Warnings() []string { return slices.Clone(r.warnings) }

// acquire takes a slot and a warm instance, starting one if none is idle;
// it waits for the module to be compiled first, or ready for the
// interpreter (WithLazyStart), whose instance then serves this call alone.
func (r *Runner) acquire(ctx context.Context) (*instance, error) {
	select {
	case <-r.usable:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case <-r.started:
		if r.startErr != nil {
			return nil, r.startErr
		}
	default:
	}
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		<-r.slots
		return nil, ErrClosed
	}
	for len(r.idle) > 0 {
		inst := r.idle[len(r.idle)-1]
		r.idle = r.idle[:len(r.idle)-1]
		if !inst.dead() {
			return inst, nil
		}
	}
	return r.start(r.cfg.memory), nil
}

// more takes up to n more instances for a call that holds a slot (a split
// grep): idle ones that have started, never one still starting (5–15 ms, a
// call's whole deadline at times); it starts what it lacks for the calls
// to come. They go back with giveBack or stop.
func (r *Runner) more(n int) []*instance {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.compiled == nil {
		return nil
	}
	var out []*instance
	starting := 0
	for i := len(r.idle) - 1; i >= 0 && len(out) < n; i-- {
		inst := r.idle[i]
		switch {
		case inst.dead():
			r.idle = slices.Delete(r.idle, i, i+1)
		case inst.warm():
			out = append(out, inst)
			r.idle = slices.Delete(r.idle, i, i+1)
		default:
			starting++
		}
	}
	for range n - len(out) - starting {
		r.idle = append(r.idle, r.start(r.cfg.memory))
	}
	return out
}

// giveBack returns an instance from more that finished its share cleanly.
func (r *Runner) giveBack(inst *instance) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || inst.dead() {
		inst.stop()
		return
	}
	inst.gate.Restore()
	r.idle = append(r.idle, inst)
}

// release returns an instance that finished its call cleanly.
func (r *Runner) release(inst *instance) {
	r.mu.Lock()
	switch {
	case inst.interp: // it served its call
		inst.stop()
	case inst == r.ix.inst:
		r.ix.busy = false
		if r.closed || inst.dead() {
			r.lostIndex(inst)
		} else {
			inst.gate.Restore()
		}
	case r.closed || inst.dead():
		inst.stop()
	default:
		inst.gate.Restore()
		r.idle = append(r.idle, inst)
	}
	r.mu.Unlock()
	<-r.slots
}

// discard gives up on an instance and frees its slot.
func (r *Runner) discard(inst *instance) {
	inst.stop()
	r.mu.Lock()
	if inst == r.ix.inst {
		r.lostIndex(inst)
	}
	r.mu.Unlock()
	<-r.slots
}

// MaxPolicyBytes bounds the roots' policies (WithRootPolicy: deny lists,
// ignore rules from outside the roots), as JSON: every request carries
// them, and a request line may hold protocol.MaxLineBytes (1 MiB); half of
// it is left to a call's own arguments.
const MaxPolicyBytes = protocol.MaxLineBytes / 2

// ErrClosed is returned by calls on a closed Runner.
var ErrClosed = errors.New("host: runner closed")

// closeWait bounds how long Close waits for instances to exit. An idle
// instance exits at once when its stdin closes; a busy one is killed at its
// next clock read, within milliseconds.
const closeWait = 2 * time.Second

// Close stops every instance, waits for them to exit, and releases the
// runtime and the roots. The runtime and the roots are released only once no
// module runs: freeing a running module's memory, or closing a descriptor a
// mount still resolves paths against, is unsafe. If an instance is still
// running after closeWait (or ctx ends first), Close leaves them to it and
// says so. Calling Close again returns what the first call returned, and
// releases nothing twice.
func (r *Runner) Close(ctx context.Context) error {
	r.closeOnce.Do(func() { r.closeErr = r.close(ctx) })
	return r.closeErr
}

func (r *Runner) close(ctx context.Context) error {
	if r.cancelStart != nil {
		// A start in the background ends first: a runtime is not closed
		// under a compile.
		r.cancelStart()
		for _, started := range []chan struct{}{r.started, r.interp.done} {
			select {
			case <-started:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	r.mu.Lock()
	r.closed = true
	r.idle = nil
	r.closeFeeds()
	for inst := range r.live {
		inst.stop()
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() { r.exited.Wait(); close(done) }()
	timer := time.NewTimer(closeWait)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		return errors.New("host: a module instance is still running; the runtime was left open")
	case <-ctx.Done():
		return ctx.Err()
	}
	var err error
	if r.rt != nil {
		err = r.rt.Close(ctx)
	}
	r.mu.Lock()
	r.retireInterp() // no instance lives: it closes
	r.mu.Unlock()
	r.closeRoots()
	return err
}

func (r *Runner) closeRoots() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, root := range r.roots {
		_ = root.Close()
	}
	r.roots = nil
}
