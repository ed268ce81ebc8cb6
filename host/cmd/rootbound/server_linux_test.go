package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rootbound/rootbound/host/internal/private"
	"github.com/rootbound/rootbound/internal/testtree"
)

// startServer runs a resident server in dir (a temporary directory of the
// test's) until the test ends, and waits for its socket.
func startTestServer(t *testing.T, idle time.Duration) (dir string, s *testServer) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "server")
	ctx, cancel := context.WithCancel(context.Background())
	s = &testServer{done: make(chan struct{})}
	go func() {
		s.err = runServer(ctx, dir, idle)
		close(s.done)
	}()
	t.Cleanup(func() {
		cancel()
		<-s.done
	})
	sock := filepath.Join(dir, serverName()+".sock")
	for range 500 {
		if _, err := os.Stat(sock); err == nil {
			return dir, s
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the server made no socket")
	return "", nil
}

// testServer is a server a test runs: done closes when it returned err.
type testServer struct {
	done chan struct{}
	err  error
}

// TestServerMatchesInProcess: a call through the resident server prints
// what the same call in the command's own process prints, byte for byte,
// and exits the same, with relative and absolute paths, every output form
// and the errors; and a second call reuses the first's runner.
func TestServerMatchesInProcess(t *testing.T) {
	tree := testtree.New(t, map[string]string{
		"src/main.go":   "package main\nfunc main() {}\n// TODO: needle\n",
		"src/lib.go":    "package main\n// TODO later\n",
		"notes.txt":     "TODO: nothing\nneedle\n",
		".gitignore":    "*.log\n",
		"x.log":         "needle\n",
		"bin.dat":       "needle\x00\x01",
		".hidden/a.txt": "needle\n",
	})
	dir, _ := startTestServer(t, time.Hour)
	t.Chdir(tree)
	for _, args := range [][]string{
		{"grep", "-n", "needle"},
		{"grep", "needle", "src"},
		{"grep", "-n", "TODO", tree},
		{"grep", "-l", "needle", "src", "notes.txt"},
		{"grep", "-c", "-g", "*.go", "package"},
		{"grep", "--json", "needle"},
		{"grep", "--stats", "needle"},
		{"grep", "-C", "1", "--heading", "needle"},
		{"grep", "nothing-here"},
		{"grep", "-n", "needle", "nosuch"},
		{"grep", "("},
		{"grep", "--no-such-flag", "x"},
		{"grep", "-L", "x"},
		{"glob", "*.go"},
		{"glob", "-e", "txt"},
		{"glob", "--json", "*.txt", "src"},
		{"glob", "--max-results", "1", "*.go"},
		{"read", "notes.txt"},
		{"read", "src/main.go:2-3"},
		{"read", "-n", "1", tree + "/src/lib.go"},
		{"read", "bin.dat"},
		{"read", "src"},
		{"read", "--json", "notes.txt"},
		{"list"},
		{"list", "-d", "2", "src"},
		{"list", "--no-ignore", "--json"},
		{"list", "/proc/self/cwd"}, // the server's own, were it followed
		{"grep", "needle", "/proc/self/cwd/src"},
		{"grep", "-n", "needle"}, // again: the runner kept
	} {
		var want, wantErr bytes.Buffer
		wantCode := run(args, nil, &want, &wantErr)
		var got, gotErr bytes.Buffer
		code, ok := clientCall(dir, clientRequest{Args: args, Cwd: tree}, &got, &gotErr)
		if !ok {
			t.Fatalf("%q: the server took no call", args)
		}
		if code != wantCode || seconds(got.String()) != seconds(want.String()) || gotErr.String() != wantErr.String() {
			t.Errorf("%q through the server: exit %d\n%s\nstderr:\n%s\nin process: exit %d\n%s\nstderr:\n%s",
				args, code, got.String(), gotErr.String(), wantCode, want.String(), wantErr.String())
		}
	}
}

// seconds is out without the time --stats says the search took.
func seconds(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, " seconds") {
			lines[i] = "N seconds"
		}
	}
	return strings.Join(lines, "\n")
}

// TestThroughServer runs the command's tests of glob, grep and read again, each
// call through a resident server: their answers, held to rg's and fd's,
// must not change.
func TestThroughServer(t *testing.T) {
	dir, _ := startTestServer(t, time.Hour)
	throughServer = func(args []string, stdout, stderr io.Writer) (int, bool) {
		cwd, err := os.Getwd() // the test's, which may have moved
		if err != nil {
			return 0, false
		}
		return clientCall(dir, clientRequest{Args: args, Cwd: cwd}, stdout, stderr)
	}
	defer func() { throughServer = nil }()
	t.Run("CLI", TestCLI)
	t.Run("AgreesWithRipgrepAndFd", TestAgreesWithRipgrepAndFd)
	t.Run("IgnoreAgreesWithRipgrepAndFd", TestIgnoreAgreesWithRipgrepAndFd)
	t.Run("FlagsAgreeWithRipgrep", TestFlagsAgreeWithRipgrep)
	t.Run("FlagsAgreeWithFd", TestFlagsAgreeWithFd)
	t.Run("FlagsRefused", TestFlagsRefused)
	t.Run("GrepOptionsAgreeWithRipgrep", TestGrepOptionsAgreeWithRipgrep)
	t.Run("ReadIsCatN", TestReadIsCatN)
}

// TestServerConcurrentCalls: calls at once each get their own answer.
func TestServerConcurrentCalls(t *testing.T) {
	tree := testtree.New(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	dir, _ := startTestServer(t, time.Hour)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			word := []string{"alpha", "beta"}[i%2]
			var out, errb bytes.Buffer
			code, ok := clientCall(dir, clientRequest{Args: []string{"grep", "-l", word}, Cwd: tree}, &out, &errb)
			want := map[string]string{"alpha": "a.txt\n", "beta": "b.txt\n"}[word]
			if !ok || code != 0 || out.String() != want {
				t.Errorf("grep -l %s: %v exit %d %q %q", word, ok, code, out.String(), errb.String())
			}
		})
	}
	wg.Wait()
}

// TestServerRefuses: a call the server must not take comes back to the
// client unrun: another build's, another home's or configuration's (the
// global git excludes are read from them), a command other than glob and
// grep, a relative cwd, PATHs that were not sent or do not pair with the
// descriptors that came; and one it takes, for contrast.
func TestServerRefuses(t *testing.T) {
	tree := testtree.New(t, map[string]string{"a.txt": "alpha\n"})
	dir, _ := startTestServer(t, time.Hour)
	good := clientRequest{Version: buildID(), Args: []string{"grep", "alpha"}, Cwd: tree, Home: os.Getenv("HOME"), Config: os.Getenv("XDG_CONFIG_HOME")}
	for _, c := range []struct {
		name string
		edit func(*clientRequest)
		kind byte
	}{
		{name: "taken", edit: func(*clientRequest) {}, kind: frameStdout},
		{name: "another build", edit: func(r *clientRequest) { r.Version = "other" }, kind: frameFallback},
		{name: "another home", edit: func(r *clientRequest) { r.Home = "/elsewhere" }, kind: frameFallback},
		{name: "another configuration", edit: func(r *clientRequest) { r.Config = "/elsewhere" }, kind: frameFallback},
		{name: "a command", edit: func(r *clientRequest) { r.Args = []string{"serve", "--root", tree} }, kind: frameFallback},
		{name: "no command", edit: func(r *clientRequest) { r.Args = nil }, kind: frameFallback},
		{name: "relative cwd", edit: func(r *clientRequest) { r.Cwd = "." }, kind: frameFallback},
		{name: "no PATH sent", edit: func(r *clientRequest) { r.Paths = nil }, kind: frameFallback},
		{name: "a PATH said sent, none came", edit: func(r *clientRequest) { r.Paths = append(r.Paths, sentPath{Arg: "x", Name: "/x"}) }, kind: frameFallback},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := good
			var files []*os.File
			req.Paths, files, _ = openForServer(tree, req.Args)
			defer func() {
				for _, f := range files {
					f.Close()
				}
			}()
			c.edit(&req)
			conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: filepath.Join(dir, serverName()+".sock"), Net: "unix"})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			line, _ := json.Marshal(req)
			fds := []int{int(files[0].Fd())}
			if _, _, err := conn.WriteMsgUnix(append(line, '\n'), unix.UnixRights(fds...), nil); err != nil {
				t.Fatal(err)
			}
			var head [5]byte
			if _, err := io.ReadFull(conn, head[:]); err != nil || head[0] != c.kind {
				t.Errorf("first frame %q (%v), want %q", head[0], err, c.kind)
			}
		})
	}
}

// TestServerDir: the server and the client use only a directory of this
// user's that no one else can open.
func TestServerDir(t *testing.T) {
	open := t.TempDir()
	if err := os.Chmod(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := runServer(context.Background(), open, time.Hour); err == nil || !strings.Contains(err.Error(), "other users") {
		t.Errorf("a directory others can open: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	if err := private.Dir(link); err == nil {
		t.Error("a link to a directory was taken")
	}
	made := filepath.Join(t.TempDir(), "new")
	if err := private.Dir(made); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(made); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("made %v %v", fi.Mode(), err)
	}
}

// TestServerStops: the server exits when asked, and when it has had no
// call for its idle time, and leaves no socket.
func TestServerStops(t *testing.T) {
	t.Run("asked", func(t *testing.T) {
		dir, done := startTestServer(t, time.Hour)
		var out bytes.Buffer
		if code := serverCommand([]string{"--dir", dir, "--stop"}, &out, &out); code != 0 {
			t.Fatalf("--stop: exit %d %s", code, out.String())
		}
		waitStopped(t, dir, done)
	})
	t.Run("idle", func(t *testing.T) {
		dir, done := startTestServer(t, 1500*time.Millisecond)
		waitStopped(t, dir, done)
	})
}

func waitStopped(t *testing.T, dir string, s *testServer) {
	t.Helper()
	select {
	case <-s.done:
		if s.err != nil {
			t.Fatal(s.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the server did not stop")
	}
	if _, err := os.Stat(filepath.Join(dir, serverName()+".sock")); err == nil {
		t.Error("the socket is left")
	}
}

// TestViaServer: the command's way to its server: with none, or only the
// socket a dead one left, the call runs in its process and a server is
// started; with one, the call goes to it; --no-server and
// ROOTBOUND_SERVER=off keep it in the process and start nothing.
func TestViaServer(t *testing.T) {
	tree := testtree.New(t, map[string]string{"a.txt": "alpha\n"})
	t.Chdir(tree)
	saved := startServer
	t.Cleanup(func() { startServer = saved })
	started := 0
	startServer = func(string) int { started++; return 4242 }
	call := func(args ...string) (string, int, bool) {
		var out bytes.Buffer
		code, ok := viaServer(args, &out, &out)
		return out.String(), code, ok
	}
	t.Setenv("ROOTBOUND_SERVER", "")
	t.Setenv("ROOTBOUND_SERVER_DIR", filepath.Join(t.TempDir(), "none"))
	if out, _, ok := call("grep", "alpha"); ok || started != 1 || !strings.Contains(out, serverStarted(4242)) {
		t.Errorf("no server: taken %v, %d started, printed %q; want the start said", ok, started, out)
	}
	// A socket left by a server that died.
	stale := filepath.Join(t.TempDir(), "stale")
	if err := private.Dir(stale); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(stale, serverName()+".sock"))
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	t.Setenv("ROOTBOUND_SERVER_DIR", stale)
	if _, _, ok := call("grep", "alpha"); ok || started != 2 {
		t.Errorf("a dead server's socket: taken %v, %d started", ok, started)
	}
	dir, _ := startTestServer(t, time.Hour)
	t.Setenv("ROOTBOUND_SERVER_DIR", dir)
	if out, code, ok := call("grep", "alpha"); !ok || code != 0 || out != "a.txt:alpha\n" || started != 2 {
		t.Errorf("a server: taken %v, exit %d, %q, %d started", ok, code, out, started)
	}
	if _, _, ok := call("grep", "--no-server", "alpha"); ok || started != 2 {
		t.Errorf("--no-server: taken %v, %d started", ok, started)
	}
	t.Setenv("ROOTBOUND_SERVER", "off")
	if _, _, ok := call("grep", "alpha"); ok || started != 2 {
		t.Errorf("ROOTBOUND_SERVER=off: taken %v, %d started", ok, started)
	}
}

// TestServerStopStopsEveryBuild: `rootbound server --stop` stops the
// servers of every build of the command (an installed one, one just built)
// in the directory, and each server removes its socket and its lock as it
// exits, so nothing is left behind.
func TestServerStopStopsEveryBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "rootbound")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// A copy is another file: another build, with a server of its own.
	other := filepath.Join(tmp, "rootbound-other")
	if data, err := os.ReadFile(bin); err != nil || os.WriteFile(other, data, 0o755) != nil {
		t.Fatal("copy:", err)
	}
	dir := filepath.Join(tmp, "server")
	var servers []*exec.Cmd
	for _, b := range []string{bin, other} {
		cmd := exec.Command(b, "server", "--dir", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		servers = append(servers, cmd)
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
	for i := 0; ; i++ {
		if socks, _ := filepath.Glob(filepath.Join(dir, "*.sock")); len(socks) == 2 {
			break
		}
		if i == 1000 {
			t.Fatal("the two servers made no sockets")
		}
		time.Sleep(10 * time.Millisecond)
	}
	out, err := exec.Command(bin, "server", "--dir", dir, "--stop").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "stopped 2 server(s)") {
		t.Fatalf("--stop: %v %s", err, out)
	}
	for _, cmd := range servers {
		if err := cmd.Wait(); err != nil {
			t.Errorf("a server: %v", err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in the server's directory: %v", left)
	}
	if out, err := exec.Command(bin, "server", "--dir", dir, "--stop").CombinedOutput(); err == nil || !strings.Contains(string(out), "no server running") {
		t.Errorf("--stop with none running: %v %s", err, out)
	}
}

// TestGoRunBuild: an executable `go run` built starts no server.
func TestGoRunBuild(t *testing.T) {
	for _, tc := range []struct {
		exe  string
		want bool
	}{
		{exe: "/tmp/go-build1234/b001/exe/rootbound", want: true},
		{exe: "/var/folders/x/T/go-build99/b001/exe/rootbound", want: true},
		{exe: "/usr/local/bin/rootbound", want: false},
		{exe: "/home/u/go/bin/rootbound", want: false},
		{exe: "/opt/exe/rootbound", want: false},
		// go run's second run, from the build cache (Go 1.24 on).
		{exe: "/root/.cache/go-build/d5/d55892dce3a865c20997d4eb3fe3af5191f51ff7ff51d273e5f63173c1966f6c-d/rootbound", want: true},
		{exe: "/home/u/Library/Caches/go-build/0a/0a" + strings.Repeat("1", 62) + "-d/rootbound", want: true},
		{exe: "/home/u/go-cache/ab/0a" + strings.Repeat("1", 62) + "-d/rootbound", want: false}, // not under its first two digits
		{exe: "/home/u/bin/0a" + strings.Repeat("1", 62) + "-d/rootbound", want: false},
		{exe: "/srv/ab/ab" + strings.Repeat("G", 62) + "-d/rootbound", want: false},
	} {
		if got := goRunBuild(tc.exe); got != tc.want {
			t.Errorf("goRunBuild(%q) = %v, want %v", tc.exe, got, tc.want)
		}
	}
}

// TestServerSeesWhatTheCallerSees: the server answers what the caller's
// own process would. A PATH that names another directory than at the
// last call (moved, and another made in its place) is searched as it is
// now, not through the runner of the one it named before; a caller in
// another mount namespace (unshare -m, with a tmpfs over a directory)
// has its call back, to run in its own process.
func TestServerSeesWhatTheCallerSees(t *testing.T) {
	const childEnv = "ROOTBOUND_NAMESPACE_CHILD"
	if v := os.Getenv(childEnv); v != "" {
		// The server takes a call only from a caller of its HOME and
		// XDG_CONFIG_HOME (TestMain gives this process a HOME of its own).
		f := strings.Split(v, "\n")
		dir, tree := f[0], f[1]
		t.Setenv("HOME", f[2])
		t.Setenv("XDG_CONFIG_HOME", f[3])
		if err := syscall.Mount("tmpfs", filepath.Join(tree, "private"), "tmpfs", 0, ""); err != nil {
			t.Fatalf("mount: %v", err)
		}
		var out, errb bytes.Buffer
		code, ok := clientCall(dir, clientRequest{Args: []string{"grep", "-l", "SECRET"}, Cwd: tree}, &out, &errb)
		t.Logf("taken=%v exit=%d out=%q", ok, code, out.String())
		return
	}
	tree := testtree.New(t, map[string]string{"proj/old.txt": "old-token\n", "private/k.txt": "SECRET\n"})
	dir, _ := startTestServer(t, time.Hour)
	grep := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code, ok := clientCall(dir, clientRequest{Args: args, Cwd: tree}, &out, &errb)
		if !ok {
			t.Fatalf("%q: the server took no call", args)
		}
		return code, out.String()
	}
	if code, out := grep("grep", "-l", "old-token", "proj"); code != 0 {
		t.Fatalf("before the move: exit %d %q", code, out)
	}
	if err := os.Rename(filepath.Join(tree, "proj"), filepath.Join(tree, "proj.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(tree, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out := grep("grep", "-l", "old-token", "proj"); code != 1 || out != "" {
		t.Errorf("proj moved and another made: exit %d %q, want 1 and nothing (what is there now)", code, out)
	}

	cmd := exec.Command("unshare", "-m", os.Args[0], "-test.run=^TestServerSeesWhatTheCallerSees$", "-test.v")
	if os.Geteuid() != 0 {
		cmd = exec.Command("unshare", "-rm", os.Args[0], "-test.run=^TestServerSeesWhatTheCallerSees$", "-test.v")
	}
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{dir, tree, os.Getenv("HOME"), os.Getenv("XDG_CONFIG_HOME")}, "\n"))
	out, err := cmd.CombinedOutput()
	switch {
	case bytes.Contains(out, []byte("mount: ")) || err != nil && !bytes.Contains(out, []byte("taken=")):
		t.Skipf("no mount namespace here: %v\n%s", err, out)
	case !bytes.Contains(out, []byte("taken=false")):
		t.Errorf("a caller in another mount namespace: the server took its call\n%s", out)
	}
}

// clientCall is callServer as a client in req.Cwd calls it: the PATHs of
// its arguments opened from there and sent with it.
func clientCall(dir string, req clientRequest, stdout, stderr io.Writer) (int, bool) {
	paths, files, _ := openForServer(req.Cwd, req.Args)
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	req.Paths = paths
	return callServer(dir, req, files, stdout, stderr)
}
