// Command wasmtime runs the rootbound module on wasmtime, through wasmtime-go:
// the same bytes as the Go host embeds, confined by wasmtime's own WASI
// (cap-std, openat2 RESOLVE_BENEATH), with wasmtime's fuel and epoch
// interruption as the work budget and the deadline.
//
//	go run ./examples/wasmtime --root /workspace=DIR [--fuel N] [--timeout 20s] < requests.jsonl
//
// It reads protocol request lines on stdin and writes the answer lines on
// stdout. A request that runs out of fuel or time ends with the module's own
// partial results and a final line with the "budget" or "deadline" error, as
// on the wazero host. wasmtime-go takes stdio only as files, so each request
// runs in a fresh instance over temporary files; the compiled module is
// cached on disk by wasmtime.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

type rootsFlag []string

func (r *rootsFlag) String() string     { return strings.Join(*r, ",") }
func (r *rootsFlag) Set(v string) error { *r = append(*r, v); return nil }

func main() {
	var roots rootsFlag
	flag.Var(&roots, "root", "NAME=DIR, a readable root (repeat; the first is the default)")
	fuel := flag.Uint64("fuel", 0, "wasmtime fuel per request (0: unlimited)")
	timeout := flag.Duration("timeout", 20*time.Second, "deadline per request")
	flag.Parse()
	if len(roots) == 0 {
		fmt.Fprintln(os.Stderr, "usage: wasmtime --root NAME=DIR [--root ...] [--fuel N] [--timeout D] < requests.jsonl")
		os.Exit(2)
	}
	r, err := newRunner(roots, *fuel, *timeout)
	if err == nil {
		err = r.serve(os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmtime:", err)
		os.Exit(1)
	}
}

type runner struct {
	engine  *wasmtime.Engine
	module  *wasmtime.Module
	linker  *wasmtime.Linker
	roots   []root
	fuel    uint64
	timeout time.Duration
}

// root is a readable root, its directory opened once, at start: every
// request preopens that directory (by /proc/self/fd/N, which names the
// open directory, not a path), so a root directory renamed or swapped for
// another after start is never served, as the wazero host does.
type root struct {
	name string
	dir  *os.File
}

// openRoot opens dir, refusing one that is, or is inside, a .git.
func openRoot(dir string) (*os.File, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(strings.Split(filepath.ToSlash(real), "/"), protocol.IsDotGit) {
		return nil, fmt.Errorf("%s is inside .git, which is never read", dir)
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// path names the open directory for wasmtime, which preopens by path.
func (rt root) path() string { return fmt.Sprintf("/proc/self/fd/%d", rt.dir.Fd()) }

func newRunner(roots []string, fuel uint64, timeout time.Duration) (*runner, error) {
	cfg := wasmtime.NewConfig()
	cfg.SetConsumeFuel(fuel > 0)
	cfg.SetEpochInterruption(true)
	_ = cfg.CacheConfigLoadDefault() // compile once, then load from wasmtime's cache
	engine := wasmtime.NewEngineWithConfig(cfg)
	module, err := wasmtime.NewModule(engine, host.Module())
	if err != nil {
		return nil, err
	}
	linker := wasmtime.NewLinker(engine)
	if err := linker.DefineWasi(); err != nil {
		return nil, err
	}
	r := &runner{engine: engine, module: module, linker: linker, fuel: fuel, timeout: timeout}
	for _, arg := range roots {
		name, dir, ok := strings.Cut(arg, "=")
		if !ok {
			return nil, fmt.Errorf("--root %q, want NAME=DIR", arg)
		}
		f, err := openRoot(dir)
		if err != nil {
			return nil, fmt.Errorf("--root %s: %w", name, err)
		}
		r.roots = append(r.roots, root{name: name, dir: f})
	}
	// The epoch is the clock of deadlines: one tick every epochTick.
	go func() {
		for range time.Tick(epochTick) {
			engine.IncrementEpoch()
		}
	}()
	return r, nil
}

const epochTick = 10 * time.Millisecond

// serve answers each request line of in. It reads lines itself, so no
// input stops it: a line over protocol.MaxLineBytes is cut to one byte over
// (the module then refuses it with the answer every host gives), and blank
// lines are skipped, as the module skips them.
func (r *runner) serve(in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := protocol.ReadLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			if cerr := r.call(line, out); cerr != nil {
				return cerr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// call runs one request line in a fresh instance and writes its answer to
// out. The epoch deadline is the request's own (limits.deadline_ms) or
// --timeout, whichever is sooner, plus deadlineGrace: the module ends a
// request at its deadline by itself; the epoch stops one that does not.
//
// The epoch fires only in wasm code. wasmtime opens files without
// O_NONBLOCK whatever the module asks (its preview 1 layer keeps the flag
// for reads only), so a FIFO that replaced a listed file between the
// module's listing and its open blocks the store inside that open, where
// nothing interrupts it. So the store runs in a goroutine, and a request
// still running stuckGrace past its epoch deadline is answered without it:
// the results it wrote so far and a deadline error. The blocked open uses
// no CPU; it returns when the FIFO gets a writer (the epoch then stops the
// module at once) or when the process exits. SECURITY.md gives the figures.
func (r *runner) call(line []byte, out io.Writer) error {
	var req struct {
		ID     string `json:"id"`
		Limits struct {
			DeadlineMS int64 `json:"deadline_ms"`
		} `json:"limits"`
	}
	_ = json.Unmarshal(line, &req)
	deadline := r.timeout
	if d := time.Duration(req.Limits.DeadlineMS) * time.Millisecond; d > 0 && d < deadline {
		deadline = d
	}
	dir, err := os.MkdirTemp("", "rootbound-wasmtime")
	if err != nil {
		return err
	}
	inPath, outPath := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	if err := os.WriteFile(inPath, append(line, '\n'), 0o600); err != nil {
		os.RemoveAll(dir)
		return err
	}
	ran := make(chan error, 1)
	go func() { ran <- r.run(inPath, outPath, deadline) }()
	select {
	case err := <-ran:
		defer os.RemoveAll(dir)
		items, cerr := copyLines(out, outPath)
		if cerr != nil || err == nil {
			return cerr
		}
		_, werr := out.Write(trapped(req.ID, items, err))
		return werr
	case <-time.After(deadline + deadlineGrace + stuckGrace):
		items, cerr := copyLines(out, outPath)
		// Removed now, not when the store lets go of it: a store blocked on
		// a FIFO may hold it until the process exits, which left the
		// directory behind; its open files stay valid once unlinked.
		os.RemoveAll(dir)
		if cerr != nil {
			return cerr
		}
		_, werr := out.Write(trapped(req.ID, items, errStuck))
		return werr
	}
}

// stuckGrace is how long past its epoch deadline a store may go on before
// the host answers without it: the epoch ticks every epochTick.
const stuckGrace = 3 * epochTick

var errStuck = errors.New("deadline reached while the runtime was blocked in a file system call (a FIFO opened where a file was listed: wasmtime cannot open without blocking); results found until then are shown")

// run runs the module in a fresh store on the request in inPath, its answer
// going to outPath. A nil error is a normal exit; otherwise the trap.
func (r *runner) run(inPath, outPath string, deadline time.Duration) error {
	wasi := wasmtime.NewWasiConfig()
	args := []string{"rootbound"}
	for _, rt := range r.roots {
		if err := wasi.PreopenDir(rt.path(), rt.name, wasmtime.DIR_READ, wasmtime.FILE_READ); err != nil {
			return fmt.Errorf("preopen %s: %w", rt.name, err)
		}
		args = append(args, "--root", rt.name)
	}
	wasi.SetArgv(args)
	if err := wasi.SetStdinFile(inPath); err != nil {
		return err
	}
	if err := wasi.SetStdoutFile(outPath); err != nil {
		return err
	}
	wasi.InheritStderr()

	store := wasmtime.NewStore(r.engine)
	defer store.Close()
	store.SetWasi(wasi)
	if r.fuel > 0 {
		if err := store.SetFuel(r.fuel); err != nil {
			return err
		}
	}
	store.SetEpochDeadline(uint64((deadline+deadlineGrace)/epochTick) + 1)
	inst, err := r.linker.Instantiate(store, r.module)
	if err == nil {
		_, err = inst.GetFunc(store, "_start").Call(store)
	}
	var exit *wasmtime.Error
	if errors.As(err, &exit) {
		if code, ok := exit.ExitStatus(); ok && code == 0 {
			err = nil
		}
	}
	return err
}

// deadlineGrace is how long past its deadline a request may run before the
// epoch stops it: the module answers at its deadline by itself, looking at
// its clock at least every millisecond or so of work.
const deadlineGrace = 30 * time.Millisecond

// outOfFuel is the C API's code of a trap out of fuel
// (WASMTIME_TRAP_CODE_OUT_OF_FUEL). wasmtime-go's constant for it is one
// less: the C enum has ALWAYS_TRAP_ADAPTER before it, the Go one does not.
// Interrupt, before that, agrees.
const outOfFuel wasmtime.TrapCode = 12

// copyLines copies the complete lines of the answer file to out (a module
// stopped by the runtime may have left half a line) and counts the item
// results among them (items that are not context lines). It streams: an
// answer of a million lines is never held.
func copyLines(out io.Writer, name string) (items int, err error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil // a store stopped before it made its output file
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	bw := bufio.NewWriterSize(out, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return items, bw.Flush() // a partial last line is dropped
		}
		if err != nil {
			return items, err
		}
		if bytes.Contains(line, []byte(`","item":{`)) {
			var l protocol.Line
			if json.Unmarshal(line, &l) == nil && l.Item != nil && !l.Item.Context {
				items++
			}
		}
		if _, err := bw.Write(line); err != nil {
			return items, err
		}
	}
}

// trapped is the final line of a request the runtime stopped: out of fuel is
// the work budget, an epoch interrupt the deadline. The trap's code decides:
// its message carries a symbolized backtrace of the Go module that takes
// tens of milliseconds to format, which a stopped call's answer would wait on.
func trapped(id string, items int, err error) []byte {
	var tc wasmtime.TrapCode = 255 // none
	if trap := (*wasmtime.Trap)(nil); errors.As(err, &trap) && trap.Code() != nil {
		tc = *trap.Code()
	}
	var code, msg string
	switch {
	case err == errStuck:
		code, msg = protocol.CodeDeadline, err.Error()
	case tc == wasmtime.Interrupt:
		code, msg = protocol.CodeDeadline, "deadline reached before the search finished" // the module's words
	case tc == outOfFuel:
		code, msg = protocol.CodeBudget, "work budget spent: the module ran out of fuel"
	default:
		code, msg = protocol.CodeInternal, "the module stopped: "+err.Error()
	}
	done := protocol.Done{Status: protocol.StatusPartial, Error: protocol.NewError(code, msg), Results: items}
	var buf bytes.Buffer
	_ = protocol.NewEncoder(&buf).Encode(&protocol.Line{ID: id, Done: &done})
	return buf.Bytes()
}
