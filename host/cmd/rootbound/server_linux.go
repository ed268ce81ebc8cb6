package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	flag "github.com/spf13/pflag"
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
	// Paths are the PATHs the client opened (openPath), in the order of
	// the descriptors that come with the request (SCM_RIGHTS): the server
	// searches what the client opened, never a name it resolves again.
	Paths []sentPath `json:"paths,omitempty"`
}

// sentPath is one PATH a client opened: the argument that names it (""
// the client's working directory), the absolute name of the directory
// sent (which only the runner's redaction of host paths reads), and the
// file in it when the argument names a file.
type sentPath struct {
	Arg  string `json:"arg"`
	Name string `json:"name,omitempty"`
	File string `json:"file,omitempty"`
	// Err: the argument did not open (no descriptor comes for it): what
	// openPath said, which the server says as the client would.
	Err string `json:"err,omitempty"`
}

// maxSentPaths bounds the PATHs a client sends (SCM_RIGHTS carries at most
// 253 descriptors a message): a call with more runs in its own process.
const maxSentPaths = 64

// Frames of the server's answer: a kind, a length, the bytes.
const (
	frameStdout   = 'o'
	frameStderr   = 'e'
	frameExit     = 'x' // one byte: the exit status
	frameFallback = 'f' // run the call in the client's own process
)

// viaServer runs a glob, grep, read or list through the resident server, and reports
// whether it did; when it did not, the caller runs it in its own process,
// and a server is started for the calls after it (not by a process under
// no_new_privs, for which a server never reads).
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
		paths, files, ok := openForServer("", args)
		defer func() {
			for _, f := range files {
				f.Close()
			}
		}()
		if !ok {
			return 0, false
		}
		if code, ok := callServer(dir, clientRequest{Args: args, Cwd: cwd, TTY: isTerminal(stdout), Stdin: searchable(os.Stdin), Paths: paths}, files, stdout, stderr); ok {
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

// openForServer opens, as this process would (openPath, from cwd: ""
// this process's working directory), each argument
// of a call that may be a PATH (pathArgs), and returns what opened, in
// order, with their directories. !ok: too many to send; the call runs in
// this process. An argument that does not open is sent with why (it may
// be the pattern; if it is a PATH, the server says why as this process
// would).
func openForServer(cwd string, args []string) (paths []sentPath, files []*os.File, ok bool) {
	cands := pathArgs(args)
	if len(cands) > maxSentPaths {
		return nil, nil, false
	}
	for _, a := range cands {
		dir, file, err := openPath(cwd, cmp.Or(a, "."))
		if err != nil {
			paths = append(paths, sentPath{Arg: a, Err: err.Error()})
			continue
		}
		paths, files = append(paths, sentPath{Arg: a, Name: dir.Name(), File: file}), append(files, dir)
	}
	return paths, files, true
}

// pathArgs are the arguments of a tool's call (args[0] names the tool)
// that may be PATHs: "" (the working directory, where none is given), the
// arguments after the flags as the tool's own flag set parses them, and
// for read, the PATH of a PATH:A-B.
func pathArgs(args []string) []string {
	var fs *flag.FlagSet
	describeMu.Lock()
	describer = func(f *flag.FlagSet, _ string) { fs = f }
	run([]string{args[0], describeArg}, nil, io.Discard, io.Discard)
	describer = nil
	describeMu.Unlock()
	if fs == nil || fs.Parse(args[1:]) != nil {
		return nil
	}
	out := append([]string{""}, fs.Args()...)
	if args[0] == "read" {
		for _, a := range fs.Args() {
			if m := rangeSuffix.FindStringSubmatch(a); m != nil {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// callServer sends req, and the descriptors of its PATHs, to the server in
// dir and relays its answer. It reports false when there is no server to
// take the call, or it took none: nothing was printed then (but the line
// that says why a server handed a call back).
func callServer(dir string, req clientRequest, files []*os.File, stdout, stderr io.Writer) (int, bool) {
	c, err := net.DialTimeout("unix", filepath.Join(dir, serverName()+".sock"), time.Second)
	if err != nil {
		return 0, false
	}
	conn := c.(*net.UnixConn)
	defer conn.Close()
	req.Version, req.Home, req.Config, req.Colors = buildID(), os.Getenv("HOME"), os.Getenv("XDG_CONFIG_HOME"), colorsAllowed()
	line, _ := json.Marshal(req)
	line = append(line, '\n')
	var rights []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		rights = unix.UnixRights(fds...)
	}
	// The descriptors ride with the first byte; the rest of a long line
	// follows.
	n, _, err := conn.WriteMsgUnix(line, rights, nil)
	if err == nil && n < len(line) {
		_, err = conn.Write(line[n:])
	}
	if err != nil {
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
			_ = conn.CloseWrite()
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
			if len(body) > 0 { // why the server would not take it
				fmt.Fprintf(stderr, "rootbound: %s; this call runs in this process\n", body)
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
	if err != nil || goRunBuild(exe) || underNoNewPrivs() {
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

// underNoNewPrivs reports whether this process runs under no_new_privs: a
// server it started would read for no caller (otherCredentials).
func underNoNewPrivs() bool {
	st, err := procStatus("self")
	return err != nil || st["NoNewPrivs"] != "0"
}

// goRunBuild reports whether exe is where `go run` puts what it builds:
// go-build*/…/exe/NAME in the temporary directory, or, since Go 1.24, the
// executable it keeps in its build cache for the runs after the first,
// GOCACHE/XX/HASH-d/NAME (64 hex digits of HASH, XX its first two).
func goRunBuild(exe string) bool {
	d := filepath.Dir(exe)
	if h, ok := strings.CutSuffix(filepath.Base(d), "-d"); ok && len(h) == 64 && isHex(h) &&
		filepath.Base(filepath.Dir(d)) == h[:2] {
		return true
	}
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

// isHex reports whether s is lower-case hex digits, as the build cache
// names its files.
func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
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
	clearCache := fs.Bool("clear-cache", false, "stop the server running, remove the command's caches (each root's index, the compiled module), and exit")
	idle := fs.Duration("idle", serverIdle, "exit after this long without a call")
	if done, code := parse(fs, args, "usage: rootbound server [--dir DIR] [--stop] [--clear-cache]\n"+
		"The resident server that the tools (glob, grep, read, list, stat) start on their first call and hand their calls to.\n", stdout, stderr); done {
		return code
	}
	if *stop || *clearCache {
		n := stopServers(*dir)
		if *clearCache {
			return clearCommand(stderr)
		}
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
		cfg, err := withIndexCache(cfg.WithIndex(true, 0))
		if err != nil {
			return nil, nil, err
		}
		r, err := host.NewRunner(context.Background(), cfg)
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
	// The request's first bytes, with the descriptors of its PATHs.
	first := make([]byte, 64<<10)
	oob := make([]byte, unix.CmsgSpace(4*(maxSentPaths+1)))
	n, oobn, _, _, err := conn.ReadMsgUnix(first, oob)
	fds := receivedFDs(oob[:oobn]) // closed here unless paired with PATHs
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	if err != nil {
		return
	}
	br := bufio.NewReaderSize(io.LimitReader(io.MultiReader(bytes.NewReader(first[:n]), conn), maxRequest), 64<<10)
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
	// A server acting for a caller is that caller: one that may read
	// other files than the server (other groups, capabilities, a
	// confinement) runs its call itself, and is told why.
	if why := otherCredentials(pid); why != "" {
		w.send(frameFallback, []byte(why))
		return
	}
	paths, ok := openedPaths(req.Paths, fds)
	if !ok {
		w.send(frameFallback, nil)
		return
	}
	fds = nil // the files of paths hold them now
	defer func() {
		for _, p := range paths {
			if p.dir != nil {
				p.dir.Close()
			}
		}
	}()
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
	e := env{ctx: ctx, cwd: req.Cwd, tty: req.TTY, colors: req.Colors, piped: req.Stdin, paths: paths, runner: s.runner}
	code := command(req.Args[0]).in(e, req.Args[0], req.Args[1:], w.writer(frameStdout), w.writer(frameStderr))
	if code == fallback {
		w.send(frameFallback, nil)
		return
	}
	w.send(frameExit, []byte{byte(code)})
}

// receivedFDs are the descriptors a message's control data carried.
func receivedFDs(oob []byte) []int {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var fds []int
	for _, m := range msgs {
		if got, err := unix.ParseUnixRights(&m); err == nil {
			fds = append(fds, got...)
		}
	}
	return fds
}

// openedPaths pairs the PATHs a client says it opened with the
// descriptors that came, a directory each, in order, and makes each a file
// named as the client names it (which the caller closes); a PATH that did
// not open is its error. !ok: they do not pair, the call is handed back,
// and the descriptors are still the caller's.
func openedPaths(sent []sentPath, fds []int) (map[string]openedPath, bool) {
	n := 0
	for _, p := range sent {
		if p.Err != "" {
			continue
		}
		var st unix.Stat_t
		if n >= len(fds) || unix.Fstat(fds[n], &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || !filepath.IsAbs(p.Name) ||
			p.File != "" && (strings.Contains(p.File, "/") || p.File == "." || p.File == "..") {
			return nil, false
		}
		n++
	}
	if n != len(fds) {
		return nil, false
	}
	out := make(map[string]openedPath, len(sent))
	n = 0
	for _, p := range sent {
		if prev, ok := out[p.Arg]; ok && prev.dir != nil {
			prev.dir.Close() // the same argument twice: the last one's
		}
		if p.Err != "" {
			out[p.Arg] = openedPath{err: errors.New(p.Err)}
			continue
		}
		out[p.Arg] = openedPath{dir: os.NewFile(uintptr(fds[n]), p.Name), file: p.File}
		n++
	}
	return out, true
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

// credentials are the lines of /proc/PID/status that say what a process
// may open, and how a difference is said: its user and group IDs (real,
// effective, saved, file system), supplementary groups, capabilities, and
// the confinements the kernel shows another process (no_new_privs,
// seccomp).
var credentials = []struct{ field, what string }{
	{"Uid", "user IDs"}, {"Gid", "group IDs"}, {"Groups", "supplementary groups"},
	{"CapInh", "inheritable capabilities"}, {"CapPrm", "permitted capabilities"}, {"CapEff", "effective capabilities"},
	{"CapBnd", "bounding capabilities"}, {"CapAmb", "ambient capabilities"},
	{"NoNewPrivs", "no_new_privs"}, {"Seccomp", "seccomp mode"}, {"Seccomp_filters", "seccomp filters"},
}

// otherCredentials says why the process pid (a caller) may open other
// files than this one (the server), or "" when nothing the kernel shows
// of both differs: the credentials above, its user namespace, its LSM
// label (AppArmor, SELinux). The kernel shows no process's Landlock
// domain to another; one without privilege can take one only under
// no_new_privs, so a caller under no_new_privs is never served: whatever
// confines it may be what the server does not share.
func otherCredentials(pid int) string {
	theirs, err1 := procStatus(strconv.Itoa(pid))
	ours, err2 := procStatus("self")
	if err1 != nil || err2 != nil {
		return "the caller's credentials could not be read"
	}
	for _, c := range credentials {
		if theirs[c.field] != ours[c.field] {
			return "the resident server runs with other " + c.what + " than this process, and reads only for a caller with its own"
		}
	}
	if theirs["NoNewPrivs"] != "0" {
		return "this process runs under no_new_privs, which may come with a confinement the kernel does not show (Landlock), so the resident server does not read for it"
	}
	for _, a := range []struct {
		file, what string
		link       bool
	}{{"ns/user", "user namespace", true}, {"attr/current", "security label", false}} {
		theirs, errT := procFile(strconv.Itoa(pid), a.file, a.link)
		ours, errO := procFile("self", a.file, a.link)
		if (errT == nil) != (errO == nil) || theirs != ours {
			return "the resident server runs in another " + a.what + " than this process"
		}
	}
	return ""
}

// procFile reads /proc/ID/FILE, or the link it is.
func procFile(id, file string, link bool) (string, error) {
	if link {
		return os.Readlink("/proc/" + id + "/" + file)
	}
	b, err := os.ReadFile("/proc/" + id + "/" + file)
	return string(b), err
}

// procStatus reads /proc/ID/status as its fields, each value with its
// white space made single spaces.
func procStatus(id string) (map[string]string, error) {
	b, err := os.ReadFile("/proc/" + id + "/status")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			out[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	return out, nil
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
