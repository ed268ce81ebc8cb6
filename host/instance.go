package host

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental/sysfs"

	"github.com/rootbound/rootbound/host/internal/rootfs"
)

// instance is one running module: a long-lived _start that answers request
// lines until its stdin closes. Calls on one instance are serial; the Runner
// keeps one per concurrent call.
type instance struct {
	gate      *rootfs.Gate
	stdin     *io.PipeWriter
	lines     chan []byte   // response lines; closed when stdout ends
	exited    chan struct{} // closed when _start has returned
	abandoned chan struct{} // closed when the host gives up on it
	exitErr   error         // set before exited closes
	stderr    *headBuffer
	abandon   sync.Once
}

// start instantiates the module with the runner's roots mounted through
// rootfs; r.mu must be held. It returns at once, while the module starts
// (5–15 ms from a compiled module).
func (r *Runner) start() *instance {
	inst := &instance{
		gate:      &rootfs.Gate{},
		lines:     make(chan []byte, 64),
		exited:    make(chan struct{}),
		abandoned: make(chan struct{}),
		stderr:    &headBuffer{max: 4 << 10},
	}
	fsc := wazero.NewFSConfig()
	args := []string{"rootbound"}
	for i, root := range r.roots {
		fsc = fsc.(sysfs.FSConfig).WithSysFSMount(rootfs.New(root, inst.gate), r.cfg.roots[i].Name)
		args = append(args, "--root", r.cfg.roots[i].Name)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	inst.stdin = inW
	mc := wazero.NewModuleConfig().
		WithName("").
		WithArgs(args...).
		WithStdin(inR).
		WithStdout(outW).
		WithStderr(inst.stderr).
		// A soft limit under the hard cap makes the module's garbage
		// collector work harder near the cap instead of dying at it.
		WithEnv("GOMEMLIMIT", fmt.Sprint(r.cfg.memory/4*3)).
		WithFSConfig(fsc).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep()
	r.live[inst] = true
	r.exited.Add(1)
	go func() {
		defer r.exited.Done()
		mod, err := r.rt.InstantiateModule(withReservedMemory(context.Background()), r.compiled, mc)
		if mod != nil {
			_ = mod.Close(context.Background())
		}
		inst.exitErr = err
		_ = inR.Close()
		_ = outW.Close()
		r.mu.Lock()
		delete(r.live, inst)
		r.mu.Unlock()
		close(inst.exited)
	}()
	go func() {
		br := bufio.NewReaderSize(outR, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				select {
				case inst.lines <- line:
				case <-inst.abandoned: // nobody listens: drain so the module can finish
				}
			}
			if err != nil {
				close(inst.lines)
				return
			}
		}
	}()
	return inst
}

// dead reports whether the module has exited.
func (inst *instance) dead() bool {
	select {
	case <-inst.exited:
		return true
	default:
		return false
	}
}

// stop ends the instance without waiting for it: its mounts stay revoked
// and its stdin closes, so a module still running finishes its current
// request quickly (every file system call fails) and then exits.
func (inst *instance) stop() {
	inst.abandon.Do(func() {
		inst.gate.Revoke()
		close(inst.abandoned)
		_ = inst.stdin.Close()
	})
}

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
