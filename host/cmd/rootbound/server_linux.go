package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/private"
)

// The resident server: `rootbound glob` and `grep` start in about 100 ms,
// most of it loading the compiled module and starting an instance, and
// rg in 3. So the command hands its call to a server of the same binary,
// over a Unix socket in a directory only its user can open, and prints
// what it sends back: the bytes the command would have printed, and its
// exit status. The server keeps a runner for each root it was asked about
// (warm instances, and the index of the root's contents), and exits when
// it has had no call for serverIdle. The first call starts it and runs in
// its own process, as every call does when there is no server, or the
// server is of another build, or `--no-server` or ROOTBOUND_SERVER=off say
// so (RATIONALE.md, "Why a resident server for the command?").

// serverIdle is how long the server waits for a call before it exits.
const serverIdle = 5 * time.Minute

// maxRunners bounds the runners the server keeps; the one unused longest
// goes first.
const maxRunners = 4

// maxRequest bounds a client's request line.
const maxRequest = 1 << 20

// serverDir is where the server's socket is: ROOTBOUND_SERVER_DIR, or
// rootbound/ in XDG_RUNTIME_DIR, or rootbound-UID in the temporary
// directory.
func serverDir() string {
	if d := os.Getenv("ROOTBOUND_SERVER_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "rootbound")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("rootbound-%d", os.Getuid()))
}

// serverName is the base name of the socket and lock of this build's
// server: a client talks only to a server of the same executable.
func serverName() string { return "server-" + buildID() }

// buildID names this executable: its file's device, inode, size and time.
// A rebuilt or replaced binary is another file, so its calls go to a
// server of its own. Why not the module's hash, as version prints: hashing
// 5 MB took 10 ms of every call.
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "" // no server then
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st == nil {
		return ""
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d %d %d", st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano())
	return fmt.Sprintf("%016x", h.Sum64())
})

// clientRequest is what a command sends the server.
type clientRequest struct {
	Version string   `json:"version"`
	Args    []string `json:"args,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	TTY     bool     `json:"tty,omitempty"`
	// Colors: the client's environment lets its terminal be coloured
	// (colorsAllowed: TERM, NO_COLOR).
	Colors bool `json:"colors,omitempty"`
	// Stdin: the client's standard input is a pipe or a file, which a grep
	// with no PATH searches, in the client's process (fallback).
	Stdin bool `json:"stdin,omitempty"`
	// Home and Config are the client's HOME and XDG_CONFIG_HOME, where the
	// global git excludes are read from: the server takes a call only
	// when they are its own.
	Home   string `json:"home,omitempty"`
	Config string `json:"config,omitempty"`
	Stop   bool   `json:"stop,omitempty"`
}

// Frames of the server's answer: a kind, a length, the bytes.
const (
	frameStdout   = 'o'
	frameStderr   = 'e'
	frameExit     = 'x' // one byte: the exit status
	frameFallback = 'f' // run the call in the client's own process
)

// viaServer runs a glob, grep, read or list through the resident server, and reports
// whether it did; when it did not, the caller runs it in its own process,
// and a server is started for the calls after it.
func viaServer(args []string, stdout, stderr io.Writer) (int, bool) {
	if len(args) == 0 || !served(args[0]) || os.Getenv("ROOTBOUND_SERVER") == "off" {
		return 0, false
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		switch a {
		case "--no-server", "--help", "-h", "--version", "-V":
			return 0, false // nothing to serve, or asked not to: no server started
		}
	}
	dir := serverDir()
	cwd, err := os.Getwd()
	if err != nil || buildID() == "" || private.Dir(dir) != nil {
		return 0, false
	}
	sock := filepath.Join(dir, serverName()+".sock")
	if _, err := os.Stat(sock); err == nil {
		if code, ok := callServer(dir, clientRequest{Args: args, Cwd: cwd, TTY: isTerminal(stdout), Stdin: searchable(os.Stdin)}, stdout, stderr); ok {
			return code, true
		}
		if conn, err := net.Dial("unix", sock); err == nil {
			conn.Close()
			return 0, false // it is there, and left this call to this process
		}
	}
	// None, or a socket a dead one left: one for the calls after this one.
	if pid := startServer(dir); pid != 0 {
		fmt.Fprintln(stderr, serverStarted(pid))
	}
	return 0, false
}

// callServer sends req to the server in dir and relays its answer. It
// reports false when there is no server to take the call, or it took
// none: nothing was printed then.
func callServer(dir string, req clientRequest, stdout, stderr io.Writer) (int, bool) {
	conn, err := net.DialTimeout("unix", filepath.Join(dir, serverName()+".sock"), time.Second)
	if err != nil {
		return 0, false
	}
	defer conn.Close()
	req.Version, req.Home, req.Config, req.Colors = buildID(), os.Getenv("HOME"), os.Getenv("XDG_CONFIG_HOME"), colorsAllowed()
	line, _ := json.Marshal(req)
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return 0, false
	}
	// Ctrl-C ends the call as it would in this process: the server sees
	// the request's end, cancels the call, and answers what it printed.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt)
	answered := make(chan struct{})
	defer func() {
		signal.Stop(interrupted)
		close(answered)
	}()
	go func() {
		select {
		case <-interrupted:
			_ = conn.(*net.UnixConn).CloseWrite()
		case <-answered:
		}
	}()
	br := bufio.NewReaderSize(conn, 64<<10)
	printed := false
	for {
		var head [5]byte
		if _, err := io.ReadFull(br, head[:]); err != nil {
			if !printed {
				return 0, false // the server went away before it took the call
			}
			fmt.Fprintln(stderr, "rootbound: the resident server stopped during the call:", err)
			return 2, true
		}
		n := binary.BigEndian.Uint32(head[1:])
		if n > 16<<20 {
			fmt.Fprintln(stderr, "rootbound: the resident server sent a frame too large")
			return 2, true
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			fmt.Fprintln(stderr, "rootbound: the resident server stopped during the call:", err)
			return 2, true
		}
		switch head[0] {
		case frameStdout:
			printed = true
			if _, err := stdout.Write(body); err != nil {
				return 2, true // as a closed pipe ends a call in this process
			}
		case frameStderr:
			printed = true
			_, _ = stderr.Write(body)
		case frameExit:
			if len(body) != 1 {
				return 2, true
			}
			return int(body[0]), true
		case frameFallback:
			if printed {
				return 2, true
			}
			return 0, false
		default:
			fmt.Fprintln(stderr, "rootbound: the resident server sent a frame of unknown kind")
			return 2, true
		}
	}
}

// startServer starts a server in the background, for the calls after this
// one, does not wait for it, and returns its process id (0: none started).
// An executable `go run` built is not a server's: it is deleted when the
// command exits, and the next `go run` builds another, which would start a
// server of its own.
var startServer = func(dir string) int {
	exe, err := os.Executable()
	if err != nil || goRunBuild(exe) {
		return 0
	}
	cmd := exec.Command(exe, "server", "--dir", dir)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() != nil {
		return 0
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Release()
	return pid
}

// goRunBuild reports whether exe is where `go run` puts what it builds:
// go-build*/…/exe/NAME in the temporary directory.
func goRunBuild(exe string) bool {
	d := filepath.Dir(exe)
	if filepath.Base(d) != "exe" {
		return false
	}
	for ; d != filepath.Dir(d); d = filepath.Dir(d) {
		if strings.HasPrefix(filepath.Base(d), "go-build") {
			return true
		}
	}
	return false
}

// serverStarted is what a command that started a server says on stderr.
func serverStarted(pid int) string {
	return fmt.Sprintf("rootbound: started a resident server (pid %d) that answers this user's later calls of this executable; "+
		"it exits after %v without one; `rootbound server --stop` stops it; --no-server or ROOTBOUND_SERVER=off runs without it", pid, serverIdle)
}

// serverCommand is `rootbound server`: run the resident server, or stop
// the one running.
func serverCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("rootbound server")
	dir := fs.String("dir", serverDir(), "the `DIR` of the socket (made 0700 if missing; refused if others can open it)")
	stop := fs.Bool("stop", false, "stop the server running, and exit")
	idle := fs.Duration("idle", serverIdle, "exit after this long without a call")
	if done, code := parse(fs, args, "usage: rootbound server [--dir DIR] [--stop]\n"+
		"The resident server that the tools (glob, grep, read, list, stat) start on their first call and hand their calls to.\n", stdout, stderr); done {
		return code
	}
	if *stop {
		n := stopServers(*dir)
		if n == 0 {
			fmt.Fprintln(stderr, "rootbound server: no server running in", *dir)
			return 1
		}
		fmt.Fprintf(stderr, "rootbound server: stopped %d server(s) in %s\n", n, *dir)
		return 0
	}
	if err := runServer(context.Background(), *dir, *idle); err != nil {
		fmt.Fprintln(stderr, "rootbound server:", err)
		return 2
	}
	return 0
}

// stopServers asks every server in dir to stop (a server of any build of
// rootbound: one per executable), removes the locks no server holds, and
// returns how many servers took the request.
func stopServers(dir string) int {
	socks, _ := filepath.Glob(filepath.Join(dir, "server-*.sock"))
	n := 0
	for _, sock := range socks {
		if sendStop(sock) {
			n++
		}
	}
	locks, _ := filepath.Glob(filepath.Join(dir, "server-*.lock"))
	for _, name := range locks {
		if f, ok := lockFile(name); ok {
			removeLock(name, f)
		}
	}
	return n
}

// sendStop asks the server listening on sock to stop.
func sendStop(sock string) bool {
	conn, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	line, _ := json.Marshal(clientRequest{Stop: true})
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return false
	}
	var head [5]byte
	_, err = io.ReadFull(conn, head[:])
	return err == nil && head[0] == frameExit
}

// lockFile opens and locks the lock file name, if no server holds it, and
// it is still the file of that name (a server that removed it on its way
// out may have done so after this opened it).
func lockFile(name string) (*os.File, bool) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, false
	}
	var held, named unix.Stat_t
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil ||
		unix.Fstat(int(f.Fd()), &held) != nil || unix.Lstat(name, &named) != nil || held.Dev != named.Dev || held.Ino != named.Ino {
		f.Close()
		return nil, false
	}
	return f, true
}

// removeLock removes a lock file while it is held, then lets it go.
func removeLock(name string, f *os.File) {
	_ = os.Remove(name)
	f.Close()
}

// server is the resident server's state.
type server struct {
	mu      sync.Mutex
	runners map[string]*keptRunner
	calls   int       // calls running
	last    time.Time // when the last call ended
	stop    chan struct{}
	stopped sync.Once
}

type keptRunner struct {
	r    *host.Runner
	busy int
	last time.Time
}

// runServer serves calls on the socket in dir until it has had none for
// idle, or a client asks it to stop. Another server of this build there
// already: it returns at once.
func runServer(ctx context.Context, dir string, idle time.Duration) error {
	if err := private.Dir(dir); err != nil {
		return err
	}
	lockName := filepath.Join(dir, serverName()+".lock")
	lock, ok := lockFile(lockName)
	if !ok {
		return nil // one is running (or just removed its lock on its way out)
	}
	defer removeLock(lockName, lock)
	sock := filepath.Join(dir, serverName()+".sock")
	_ = os.Remove(sock) // a socket left by a server that died
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return err
	}
	l.SetUnlinkOnClose(true)
	defer l.Close()
	s := &server{runners: map[string]*keptRunner{}, last: time.Now(), stop: make(chan struct{})}
	defer s.closeRunners()
	stop := context.AfterFunc(ctx, func() { s.stopped.Do(func() { close(s.stop) }) })
	defer stop()
	for {
		// Accept wakes each second to see whether to stop.
		_ = l.SetDeadline(time.Now().Add(time.Second))
		conn, err := l.AcceptUnix()
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				if s.stopping() || s.idleFor() > idle {
					return nil
				}
				s.sweep(idle)
				continue
			}
			return err
		}
		go s.handle(conn)
	}
}

func (s *server) stopping() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// idleFor is how long the server has had no call running.
func (s *server) idleFor() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls > 0 {
		return 0
	}
	return time.Since(s.last)
}

// sweep closes the runners unused for idle.
func (s *server) sweep(idle time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, kr := range s.runners {
		if kr.busy == 0 && time.Since(kr.last) > idle {
			kr.r.Close(context.Background())
			delete(s.runners, k)
		}
	}
}

func (s *server) closeRunners() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, kr := range s.runners {
		kr.r.Close(context.Background())
		delete(s.runners, k)
	}
}

// runner is the env's runner of a call on the server: the one kept for
// key, or a new one (with the index of its root), kept for the calls
// after.
func (s *server) runner(_ context.Context, key string, cfg host.Config) (*host.Runner, func(), error) {
	s.mu.Lock()
	kr := s.runners[key]
	if kr == nil {
		s.mu.Unlock()
		r, err := host.NewRunner(context.Background(), cfg.WithIndex(true, 0).WithIndexCache(indexCacheDir()))
		if err != nil {
			return nil, nil, err
		}
		s.mu.Lock()
		if other := s.runners[key]; other != nil { // another call made one meanwhile
			r.Close(context.Background())
			kr = other
		} else {
			kr = &keptRunner{r: r}
			s.runners[key] = kr
		}
	}
	kr.busy++
	s.evict() // never the one just taken: it is busy
	s.mu.Unlock()
	return kr.r, func() {
		s.mu.Lock()
		kr.busy--
		kr.last = time.Now()
		s.mu.Unlock()
	}, nil
}

// evict closes the runners unused longest past maxRunners.
func (s *server) evict() {
	if len(s.runners) <= maxRunners {
		return
	}
	var idle []string
	for k, kr := range s.runners {
		if kr.busy == 0 {
			idle = append(idle, k)
		}
	}
	sort.Slice(idle, func(i, j int) bool { return s.runners[idle[i]].last.Before(s.runners[idle[j]].last) })
	for _, k := range idle[:max(0, min(len(idle), len(s.runners)-maxRunners))] {
		s.runners[k].r.Close(context.Background())
		delete(s.runners, k)
	}
}

// handle answers one client.
func (s *server) handle(conn *net.UnixConn) {
	defer conn.Close()
	pid := peer(conn)
	if pid == 0 {
		return
	}
	br := bufio.NewReaderSize(io.LimitReader(conn, maxRequest), 64<<10)
	line, err := br.ReadBytes('\n')
	if err != nil {
		return
	}
	var req clientRequest
	if json.Unmarshal(line, &req) != nil {
		return
	}
	w := &frames{w: bufio.NewWriterSize(conn, 64<<10)}
	defer w.w.Flush()
	if req.Stop { // from any build's `server --stop` of this user
		s.stopped.Do(func() { close(s.stop) })
		w.send(frameExit, []byte{0})
		return
	}
	if req.Version == "" || req.Version != buildID() || !sameView(pid) || req.Home != os.Getenv("HOME") || req.Config != os.Getenv("XDG_CONFIG_HOME") ||
		len(req.Args) == 0 || !served(req.Args[0]) || !filepath.IsAbs(req.Cwd) || s.stopping() {
		w.send(frameFallback, nil)
		return
	}
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.calls--
		s.last = time.Now()
		s.mu.Unlock()
	}()
	// The client's end of its request ends the call (Ctrl-C, or it died).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, br)
		cancel()
	}()
	e := env{ctx: ctx, cwd: req.Cwd, tty: req.TTY, colors: req.Colors, piped: req.Stdin, runner: s.runner}
	code := command(req.Args[0]).in(e, req.Args[0], req.Args[1:], w.writer(frameStdout), w.writer(frameStderr))
	if code == fallback {
		w.send(frameFallback, nil)
		return
	}
	w.send(frameExit, []byte{byte(code)})
}

// peer returns the process ID of conn's peer when it runs as this
// process's user, else 0.
func peer(conn *net.UnixConn) int {
	raw, err := conn.SyscallConn()
	if err != nil {
		return 0
	}
	pid := 0
	_ = raw.Control(func(fd uintptr) {
		cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
		if err == nil && cred.Uid == uint32(os.Getuid()) {
			pid = int(cred.Pid)
		}
	})
	return pid
}

// sameView reports whether process pid sees the files this process sees:
// the same mount namespace and the same root directory. A caller in
// another (unshare -m, a container, a chroot) may see other files under
// the same names; its call runs in its own process.
func sameView(pid int) bool {
	theirs, err1 := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", pid))
	ours, err2 := os.Readlink("/proc/self/ns/mnt")
	if err1 != nil || err2 != nil || theirs != ours {
		return false
	}
	var a, b unix.Stat_t
	return unix.Stat(fmt.Sprintf("/proc/%d/root", pid), &a) == nil && unix.Stat("/", &b) == nil && a.Dev == b.Dev && a.Ino == b.Ino
}

// frames writes an answer's frames; its writers are safe for concurrent
// use (a search writes its results and its messages from one goroutine,
// but nothing here relies on it).
type frames struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
}

func (f *frames) send(kind byte, b []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	var head [5]byte
	head[0] = kind
	binary.BigEndian.PutUint32(head[1:], uint32(len(b)))
	if _, f.err = f.w.Write(head[:]); f.err == nil {
		_, f.err = f.w.Write(b)
	}
	if f.err == nil && kind != frameStdout {
		f.err = f.w.Flush()
	}
	return f.err
}

// writer is an io.Writer of frames of one kind; each Write is sent whole
// (in frames of at most 1 MiB) and reaches the client at once.
func (f *frames) writer(kind byte) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		for rest := p; len(rest) > 0; {
			n := min(len(rest), 1<<20)
			if err := f.send(kind, rest[:n]); err != nil {
				return len(p) - len(rest), err
			}
			rest = rest[n:]
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.err == nil {
			f.err = f.w.Flush()
		}
		return len(p), f.err
	})
}

type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }
