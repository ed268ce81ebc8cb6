// Package host runs the rootbound module with wazero and gives Go programs
// its glob and grep: typed results, the text an agent reads, and tools.
//
// Confinement is the runtime's: each readable root is a preopen backed by
// os.Root (package internal/rootfs), so the module can name nothing outside
// its roots, through any path or symbolic link.
//
// Cost, as measured on 2 cores: compiling the module takes about 3 s, about
// 80 ms from the on-disk compilation cache, which is therefore always on;
// instantiating takes 5–10 ms, so instances stay warm and are reused, one per
// concurrent call; a call on a warm instance costs about 0.6 ms.
//
// Limits: the module enforces a call's deadline and work budget itself: its
// matching is linear in what it matches, and every long loop reads the
// clock every millisecond or so of work (package guest/meter), because
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
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/rootbound/rootbound/host/internal/rootfs"
)

// Runner runs calls on warm module instances. It is safe for concurrent use.
type Runner struct {
	cfg      *config
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	roots    []*rootfs.Dir
	slots    chan struct{} // one per call in flight

	mu     sync.Mutex
	idle   []*instance
	live   map[*instance]bool // every instance whose _start has not returned
	closed bool
	exited sync.WaitGroup // one per live instance

	nextID atomic.Uint64
}

// NewRunner validates cfg, compiles the module (from the compilation cache
// when it can) and starts one warm instance.
func NewRunner(ctx context.Context, cfg Config) (*Runner, error) {
	c, ok := cfg.(*config)
	if !ok {
		return nil, errors.New("host: Config must come from NewConfig")
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	r := &Runner{cfg: c, slots: make(chan struct{}, c.instances), live: map[*instance]bool{}}
	for _, root := range c.roots {
		dir, err := rootfs.OpenDir(root.Dir)
		if err != nil {
			r.closeRoots()
			return nil, fmt.Errorf("host: root %s: %w", root.Name, err)
		}
		r.roots = append(r.roots, dir)
	}
	rc := wazero.NewRuntimeConfig().WithMemoryLimitPages(uint32(c.memory >> 16)).
		WithCloseOnContextDone(c.closeOnContextDone)
	if cache, err := c.compilationCache(); err == nil && cache != nil {
		rc = rc.WithCompilationCache(cache)
	}
	r.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	wasi_snapshot_preview1.MustInstantiate(ctx, r.rt)
	compiled, err := r.rt.CompileModule(ctx, moduleWasm)
	if err != nil {
		r.Close(ctx)
		return nil, fmt.Errorf("host: compile module: %w", err)
	}
	r.compiled = compiled
	r.mu.Lock()
	r.idle = append(r.idle, r.start())
	r.mu.Unlock()
	return r, nil
}

func (c *config) validate() error {
	if len(c.roots) == 0 {
		return errors.New("host: no roots: add one with WithRoot")
	}
	seen := map[string]bool{}
	for _, root := range c.roots {
		if len(root.Name) < 2 || root.Name[0] != '/' || path.Clean(root.Name) != root.Name {
			return fmt.Errorf("host: root name %q, want a clean absolute path such as /workspace", root.Name)
		}
		if seen[root.Name] {
			return fmt.Errorf("host: root name %q given twice", root.Name)
		}
		seen[root.Name] = true
	}
	switch {
	case c.timeout <= 0:
		return fmt.Errorf("host: timeout %v, want > 0", c.timeout)
	case c.instances < 1:
		return fmt.Errorf("host: %d instances, want >= 1", c.instances)
	case c.memory < 32<<20 || c.memory > 4<<30:
		return fmt.Errorf("host: memory limit %d bytes, want 32 MiB to 4 GiB", c.memory)
	case c.maxEntries < 0 || c.maxBytes < 0 || c.maxFileSize < 0:
		return errors.New("host: budget and file size must not be negative")
	case c.maxResultBytes < 1<<10:
		return fmt.Errorf("host: max result bytes %d, want at least 1 KiB", c.maxResultBytes)
	}
	return nil
}

func (c *config) compilationCache() (wazero.CompilationCache, error) {
	dir := ""
	if c.cacheDir != nil {
		dir = *c.cacheDir
	} else if base, err := os.UserCacheDir(); err == nil {
		dir = filepath.Join(base, "rootbound", "wazero")
	}
	if dir == "" {
		return nil, nil
	}
	return wazero.NewCompilationCacheWithDir(dir)
}

// acquire takes a slot and a warm instance, starting one if none is idle.
func (r *Runner) acquire(ctx context.Context) (*instance, error) {
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
	return r.start(), nil
}

// release returns an instance that finished its call cleanly.
func (r *Runner) release(inst *instance) {
	r.mu.Lock()
	if r.closed || inst.dead() {
		inst.stop()
	} else {
		inst.gate.Restore()
		r.idle = append(r.idle, inst)
	}
	r.mu.Unlock()
	<-r.slots
}

// discard gives up on an instance and frees its slot.
func (r *Runner) discard(inst *instance) {
	inst.stop()
	<-r.slots
}

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
// says so.
func (r *Runner) Close(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	r.idle = nil
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
	err := r.rt.Close(ctx)
	r.closeRoots()
	return err
}

func (r *Runner) closeRoots() {
	for _, root := range r.roots {
		_ = root.Close()
	}
}
