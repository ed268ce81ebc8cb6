package host

// The doors around the sandbox (issue 49): what the host does for a
// caller outside the module (its caches, the command's PATH, the resident
// server) held to the module's own rules. The cases that need two users
// run only as root, which CI is: they run copies of this test binary as
// throwaway users (uids and gids no account has), as TestHostileUnreadable
// does.

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// Throwaway users: a victim, and another user of the same machine.
const (
	victimID = 65534
	otherID  = 65533
)

// doorsChild names, in a child's environment, what the child does.
const doorsChild = "ROOTBOUND_DOORS_CHILD"

// openToAll makes the test's temporary directory base, and the one the
// testing package made above it, searchable by every user (never anything
// above them), so that a throwaway user can run a copy of this binary.
func openToAll(t *testing.T, base string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// runAs runs test in a copy of this test binary (made in base, which
// openToAll opened) as the user cred, with env (and doorsChild=what), and
// returns what it printed.
func runAs(t *testing.T, base string, cred *syscall.Credential, test, what string, env ...string) (string, error) {
	t.Helper()
	bin := filepath.Join(base, "host.test")
	if _, err := os.Stat(bin); err != nil {
		exe, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, exe, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.v")
	cmd.Dir = base
	// ROOTBOUND_TEST_CACHE: the child's TestMain leaves XDG_CACHE_HOME as
	// env says (unset: the user's cache directory is HOME's).
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "ROOTBOUND_TEST_CACHE=set", doorsChild + "=" + what}, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestHostileCompiledCache: the compiled module's cache is native code
// the process runs, so a directory another user could have written is
// never used. The victim's HOME cannot be written (HOME=/nonexistent, as
// Debian gives system users), so its cache falls back to rootbound-UID in
// the temporary directory, which another user made first, open to all:
// the victim must refuse it (and say so), write nothing in it, and read
// nothing from it; once the directory is the victim's own and closed to
// others, it is used.
func TestHostileCompiledCache(t *testing.T) {
	if os.Getenv(doorsChild) == "compiled cache" {
		r, err := NewRunner(context.Background(), NewConfig().WithRoot("/workspace", os.Getenv("ROOTBOUND_DOORS_TREE")))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(context.Background())
		for _, w := range r.Warnings() {
			fmt.Println("warning:", w)
		}
		if res, err := r.Glob(context.Background(), GlobArgs{Pattern: "*.txt"}); err != nil || len(res.Items) != 1 {
			t.Fatalf("glob: %v", err)
		}
		return
	}
	if os.Geteuid() != 0 {
		record("compiled cache in a directory another user made", "wazero library", "not run: needs root, to be two users", true)
		t.Skip("needs root: the case is two users")
	}
	base := t.TempDir()
	openToAll(t, base)
	tree := filepath.Join(base, "tree")
	testtree.Write(t, tree, map[string]string{"ok.txt": needle + "\n"})
	tmp := filepath.Join(base, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(tmp, 0o777|fs.ModeSticky)
	planted := filepath.Join(tmp, fmt.Sprintf("rootbound-%d", victimID))
	for _, d := range []string{planted, filepath.Join(planted, "wazero")} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o777)
		os.Chown(d, otherID, otherID)
	}
	victim := &syscall.Credential{Uid: victimID, Gid: victimID}
	env := []string{"HOME=/nonexistent", "TMPDIR=" + tmp, "ROOTBOUND_DOORS_TREE=" + tree}

	out, err := runAs(t, base, victim, "TestHostileCompiledCache", "compiled cache", env...)
	var written []string
	filepath.WalkDir(planted, func(p string, d fs.DirEntry, err error) error {
		if info, e := d.Info(); err == nil && e == nil && info.Sys().(*syscall.Stat_t).Uid == victimID {
			written = append(written, p[len(planted):])
		}
		return nil
	})
	ok := err == nil && len(written) == 0 && strings.Contains(out, "no compilation cache") && strings.Contains(out, planted+" can be renamed or replaced by another user")
	record("compiled cache in a directory another user made", "wazero library",
		map[bool]string{true: "refused, with a warning; nothing written there", false: fmt.Sprintf("used: the victim wrote %q", written)}[ok], ok)
	if !ok {
		t.Errorf("another user's directory: %v, the victim wrote %q there\n%s", err, written, out)
	}

	// The same directory, the victim's own and closed to others: used.
	os.RemoveAll(planted)
	if err := os.Mkdir(planted, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chown(planted, victimID, victimID)
	out, err = runAs(t, base, victim, "TestHostileCompiledCache", "compiled cache", env...)
	entries, _ := os.ReadDir(filepath.Join(planted, "wazero"))
	ok = err == nil && len(entries) > 0 && strings.Contains(out, "the compilation cache is in")
	record("compiled cache in the victim's own directory", "wazero library", map[bool]string{true: "used", false: "not used"}[ok], ok)
	if !ok {
		t.Errorf("the victim's own directory: %v, %d entries\n%s", err, len(entries), out)
	}
}

// TestHostileIndexCacheFile: a saved index is data, checked before it is
// trusted and bounded before it is read. In a root's cache file's place:
// a valid header followed by 3 GiB (sparse) of zeros, a FIFO (which an
// open would wait on for ever), a link to a valid file elsewhere. Each is
// refused before a byte is read, with a warning, removed, and the index
// built from the files, whose answers are then right.
func TestHostileIndexCacheFile(t *testing.T) {
	ctx := context.Background()
	tree := testtree.New(t, map[string]string{"a.txt": needle + "\n", "b.txt": "other\n"})
	cache := filepath.Join(t.TempDir(), "cache")
	cfg := NewConfig().WithRoot("/workspace", tree).WithParallelism(1).WithIndex(true, 0).WithIndexCache(cache)
	first, err := NewRunner(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	waitIndex(t, first)
	path, key := first.cacheFile(0)
	first.Close(ctx)
	valid, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "valid.rbix")
	os.WriteFile(elsewhere, valid, 0o600)
	for _, c := range []struct {
		name, want string
		plant      func() error
	}{
		{name: "a valid header, then 3 GiB of zeros", want: "more than an index may", plant: func() error {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if err != nil {
				return err
			}
			defer f.Close()
			if _, err := f.Write(append([]byte(cacheMagic), key[:]...)); err != nil {
				return err
			}
			return f.Truncate(3 << 30)
		}},
		{name: "a FIFO", want: "not a regular file", plant: func() error { return syscall.Mkfifo(path, 0o600) }},
		{name: "a link to a valid file", want: "too many levels of symbolic links", plant: func() error { return os.Symlink(elsewhere, path) }},
	} {
		os.Remove(path)
		if err := c.plant(); err != nil {
			t.Fatal(err)
		}
		r, err := NewRunner(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(strings.Join(r.Warnings(), "\n"), c.want)
		built, found := false, false
		if warned {
			waitIndex(t, r)
			res, err := r.Grep(ctx, GrepArgs{Pattern: needle})
			r.mu.Lock()
			built = r.ix.read == 2 && r.ix.calls > 0
			r.mu.Unlock()
			found = err == nil && len(res.Items) == 1 && res.Items[0].Path == "a.txt"
		}
		r.Close(ctx)
		fi, err := os.Lstat(path)
		rewritten := err == nil && fi.Mode().IsRegular() && fi.Size() < 1<<20
		ok := warned && built && found && rewritten
		record("index cache file: "+c.name, "wazero library, index",
			map[bool]string{true: "refused unread, with a warning; the index built from the files and saved again",
				false: fmt.Sprintf("warned %v, built from the files %v, answer right %v, saved again %v", warned, built, found, rewritten)}[ok], ok)
		if !ok {
			t.Errorf("%s: warnings %q; built from the files %v, answer right %v, saved again %v", c.name, r.Warnings(), built, found, rewritten)
		}
	}
}

// residentServer starts the command's resident server bin in a directory
// of the test's, stopped when the test ends, and returns the environment
// under which the command's calls go through it (with the test's own,
// ROOTBOUND_SERVER=off, they do not). cred, when not nil, is the server's
// user.
func residentServer(t *testing.T, bin, dir string, cred *syscall.Credential, env ...string) []string {
	t.Helper()
	serverEnv := append(slices.DeleteFunc(os.Environ(), func(v string) bool { return strings.HasPrefix(v, "ROOTBOUND_SERVER") }),
		append(env, "ROOTBOUND_SERVER_DIR="+dir)...)
	server := exec.Command(bin, "server")
	server.Env, server.Dir = serverEnv, "/"
	server.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stop := exec.Command(bin, "server", "--stop")
		stop.Env = serverEnv
		stop.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if out, err := stop.CombinedOutput(); err != nil {
			t.Errorf("server --stop: %v %s", err, out)
			server.Process.Kill()
		}
		server.Wait()
	})
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.sock")); len(m) > 0 {
			return serverEnv
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the resident server made no socket")
		}
	}
}

// outputs runs cmd and returns what it printed on stdout and stderr, and
// its exit status.
func outputs(cmd *exec.Cmd) (stdout, stderr string, code int) {
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if ee, ok := cmd.Run().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code
}

// commandMode is a way the command runs a call: in its own process
// (--no-server), or through its resident server (the environment
// residentServer returned).
type commandMode struct {
	name string
	env  []string
	flag []string
}

func commandModes(serverEnv []string) []commandMode {
	return []commandMode{
		{name: "wazero CLI", env: os.Environ(), flag: []string{"--no-server"}},
		{name: "wazero CLI, server", env: serverEnv},
	}
}

// TestHostileForgedNames: a file name cannot forge a line of the command's
// output. `x\nfake.go:1:FORGED` and names with a carriage return, an
// escape and a bidi override, listed by glob, grep -l and grep --files to
// a pipe (a program's, and what an agent reads), in the command's own
// process, through its resident server, and by the Node host's command:
// no line is a forged one or holds a raw control; each line reads back to
// a name of the tree.
func TestHostileForgedNames(t *testing.T) {
	bin, _ := buildCLI(t)
	names := []string{"x\nfake.go:1:FORGED", "cr\rhidden.txt", "esc\x1b[2Jclear.txt", "evil\u202egpj.exe", "plain.txt"}
	tree := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(tree, n), []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	serverEnv := residentServer(t, bin, filepath.Join(t.TempDir(), "server"), nil)
	hosts := []struct {
		name string
		argv []string
		env  []string
	}{
		{name: "wazero CLI", argv: []string{bin}, env: os.Environ()},
		{name: "wazero CLI, server", argv: []string{bin}, env: serverEnv},
	}
	if _, err := exec.LookPath("node"); err == nil {
		hosts = append(hosts, struct {
			name string
			argv []string
			env  []string
		}{name: "node", argv: []string{"node", "../examples/node/rootbound.mjs"}, env: os.Environ()})
	}
	for _, h := range hosts {
		for _, args := range [][]string{{"glob", "*"}, {"grep", "-l", "needle"}, {"grep", "--files"}} {
			if h.name == "node" && args[1] == "--files" {
				continue // the Node command has no --files
			}
			argv := append(append(slices.Clone(h.argv), args...), tree)
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = h.env
			out, err := cmd.Output()
			var bad []string
			var read []string
			for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				if strings.HasPrefix(l, `"`) {
					if u, err := strconv.Unquote(l); err == nil {
						l = u
					}
				} else if l == "fake.go:1:FORGED" || strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\u202e' }) {
					bad = append(bad, l)
				}
				read = append(read, strings.TrimPrefix(l, tree+"/"))
			}
			slices.Sort(read)
			want := slices.Sorted(slices.Values(names))
			ok := err == nil && len(bad) == 0 && slices.Equal(read, want)
			what := fmt.Sprintf("%s to a pipe, names forging lines", strings.Join(args, " "))
			record(what, h.name, map[bool]string{true: "each name on one line, quoted where it would break it; none forged", false: fmt.Sprintf("forged or raw lines %q; read back %q", bad, read)}[ok], ok)
			if !ok {
				t.Errorf("%s: %s: %v, lines forged or raw: %q, read back %q\n%q", h.name, what, err, bad, read, out)
			}
		}
	}
}

// TestHostileCommandPath: the command's PATH is opened once, a component
// at a time, with no link followed wherever it stands, "links/out/.."
// included (the kernel goes through out before it climbs), and the
// answer is the same in the command's own process and through its
// resident server: SECURITY.md's rule, whichever way a call goes.
func TestHostileCommandPath(t *testing.T) {
	bin, _ := buildCLI(t)
	base := t.TempDir()
	testtree.Write(t, base, map[string]string{
		"outside/secret.txt":      outsideMarker + "\n",
		"work/outside/inside.txt": needle + "\n",
		"work/real/inside.txt":    needle + "\n",
		"work/links/out":          "->../../outside",
		"work/links/in":           "->../real",
	})
	work := filepath.Join(base, "work")
	serverEnv := residentServer(t, bin, filepath.Join(t.TempDir(), "server"), nil)
	for _, c := range []struct {
		path string
		link string // the link named in the refusal; "" when the PATH is taken
	}{
		{path: "links/out/../outside", link: "links/out is a link"},
		{path: "links/out/../outside/inside.txt", link: "links/out is a link"},
		{path: "links/in/../real", link: "links/in is a link"},
		{path: "links/out", link: "a link"},
		{path: work + "/links/out/../outside", link: work + "/links/out is a link"}, // not Join: it cleans
		{path: "real/../real"},
		{path: "outside"},
	} {
		var answers []string
		for _, mode := range commandModes(serverEnv) {
			for _, tool := range []string{"grep", "list"} {
				args := []string{tool}
				if tool == "grep" {
					args = append(args, "-rn", "ROOTBOUND-OUTSIDE-7f3[a]|"+needle)
				}
				cmd := exec.Command(bin, append(append(args, mode.flag...), c.path)...)
				cmd.Dir, cmd.Env = work, mode.env
				out, errs, code := outputs(cmd)
				answer := fmt.Sprintf("exit %d\n%s%s", code, out, strings.ReplaceAll(errs, "rootbound: started a resident server", ""))
				answers = append(answers, answer)
				var why string
				switch {
				case strings.Contains(out+errs, outsideMarker):
					why = "an outside byte in the answer"
				case c.link != "" && (code != 2 || !strings.Contains(errs, c.path+": "+c.link)):
					why = fmt.Sprintf("not refused naming the link: %s", answer)
				case c.link == "" && (code != 0 || !strings.Contains(out, "inside.txt")):
					why = fmt.Sprintf("not taken: %s", answer)
				}
				verdict := map[bool]string{true: "taken", false: "refused, naming the link"}[c.link == ""]
				if why != "" {
					verdict = why
					t.Errorf("%s %s %s: %s", mode.name, tool, c.path, why)
				}
				record(fmt.Sprintf("command PATH %s (%s)", strings.Replace(c.path, work, "WORK", 1), tool), mode.name, verdict, why == "")
			}
		}
		if answers[0] != answers[2] || answers[1] != answers[3] {
			t.Errorf("%s: the command's own process and its server answer differently:\n%q\n%q", c.path, answers[:2], answers[2:])
		}
	}
}

// TestHostileCommandPathSwap: another process exchanges a directory of
// the command's PATH (ROOT/a/swap) with a link out of the tree, atomically
// (renameat2 RENAME_EXCHANGE), while grep, glob, read, list and stat run
// on ROOT/a/swap/b: in the command's own process and through its resident
// server, at least 2,000 calls each. The PATH is opened once, with no link
// followed, and the server searches the descriptor its client opened:
// nothing from outside may ever be printed.
func TestHostileCommandPathSwap(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command 4,000 times")
	}
	bin, _ := buildCLI(t)
	base := t.TempDir()
	testtree.Write(t, base, map[string]string{
		"outside/b/file.txt":     outsideMarker + "\n",
		"root/a/swap/b/file.txt": "inside " + needle + "\n",
		"root/a/link":            "->../../outside",
	})
	swap, link := filepath.Join(base, "root/a/swap"), filepath.Join(base, "root/a/link")
	serverEnv := residentServer(t, bin, filepath.Join(t.TempDir(), "server"), nil)
	target := filepath.Join(swap, "b")
	calls := [][]string{
		{"grep", "-rn", "ROOTBOUND-OUTSIDE-7f3[a]|inside", target},
		{"glob", "*", target},
		{"read", filepath.Join(target, "file.txt")},
		{"list", target},
		{"stat", filepath.Join(target, "file.txt")},
	}
	for _, mode := range commandModes(serverEnv) {
		var stop atomic.Bool
		var swaps, runs, leaks, found atomic.Int64
		var wg sync.WaitGroup
		wg.Go(func() {
			runtime.LockOSThread()
			for !stop.Load() {
				if err := unix.Renameat2(unix.AT_FDCWD, swap, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
					t.Errorf("exchange: %v", err)
					return
				}
				swaps.Add(1)
			}
		})
		var leaked sync.Once
		const want = 2000
		for range 2 {
			wg.Go(func() {
				for {
					i := runs.Add(1)
					if i > want {
						return
					}
					c := calls[i%int64(len(calls))]
					cmd := exec.Command(bin, append(append(c[:1:1], mode.flag...), c[1:]...)...)
					cmd.Env = mode.env
					out, _ := cmd.CombinedOutput()
					if bytes.Contains(out, []byte(outsideMarker)) || bytes.Contains(out, []byte(filepath.Join(base, "outside"))) {
						leaks.Add(1)
						leaked.Do(func() { t.Logf("%s: leak: %s: %.300s", mode.name, c, out) })
					}
					if bytes.Contains(out, []byte("file.txt")) {
						found.Add(1)
					}
				}
			})
		}
		for runs.Load() < want {
			time.Sleep(10 * time.Millisecond)
		}
		stop.Store(true)
		wg.Wait()
		// The exchange leaves the tree either way round; put it back.
		if fi, err := os.Lstat(swap); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			unix.Renameat2(unix.AT_FDCWD, swap, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
		}
		note := fmt.Sprintf("%d calls during %d exchanges (%d found the file inside), %d leaks", want, swaps.Load(), found.Load(), leaks.Load())
		ok := leaks.Load() == 0 && swaps.Load() > want && found.Load() > 0
		record("command PATH's directory exchanged with a link out", mode.name, note, ok)
		if !ok {
			t.Errorf("%s: %s", mode.name, note)
		}
	}
}

// TestHostileServerCredentials: the resident server reads for a caller
// only what the caller could: a caller whose credentials are not the
// server's runs its call in its own process, and is told why on stderr.
// Root with cap_dac_override and cap_dac_read_search dropped from its
// bounding set, a user whose supplementary groups were cleared, and a
// process under no_new_privs (which a Landlock domain needs, and which
// the kernel does not show) each get, through the server, what their own
// process gets: Permission denied (or, for no_new_privs, the file by
// their own read); a caller with the server's credentials is served.
func TestHostileServerCredentials(t *testing.T) {
	if os.Geteuid() != 0 {
		record("resident server and a narrower caller", "wazero CLI, server", "not run: needs root, to be two users", true)
		t.Skip("needs root: drops capabilities and becomes throwaway users")
	}
	setpriv := testtree.Tool(t, "setpriv")
	base := t.TempDir()
	openToAll(t, base)
	built, _ := buildCLI(t)
	bin := filepath.Join(base, "rootbound")
	if exe, err := os.ReadFile(built); err != nil || os.WriteFile(bin, exe, 0o755) != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(base, "tree")
	testtree.Write(t, tree, map[string]string{"dac.txt": "DAC-SECRET\n", "group.txt": "GROUP-SECRET\n", "ok.txt": "ok\n"})
	os.Chmod(tree, 0o755)
	os.Chown(filepath.Join(tree, "dac.txt"), otherID, otherID)
	os.Chmod(filepath.Join(tree, "dac.txt"), 0o600)
	const group = 4242
	os.Chown(filepath.Join(tree, "group.txt"), 0, group)
	os.Chmod(filepath.Join(tree, "group.txt"), 0o640)
	tmp := filepath.Join(base, "tmp")
	os.Mkdir(tmp, 0o755)
	os.Chmod(tmp, 0o777|fs.ModeSticky)

	// The servers: root's, and a user's with a supplementary group.
	rootEnv := residentServer(t, bin, filepath.Join(base, "server-root"), nil)
	userDir := filepath.Join(base, "server-user")
	os.Mkdir(userDir, 0o700)
	os.Chown(userDir, victimID, victimID)
	userEnv := []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "TMPDIR=" + tmp}
	userEnv = residentServer(t, bin, userDir, &syscall.Credential{Uid: victimID, Gid: victimID, Groups: []uint32{group}}, userEnv...)
	userEnv = slices.DeleteFunc(userEnv, func(v string) bool { return strings.HasPrefix(v, "XDG_") })

	run := func(env []string, cred *syscall.Credential, argv ...string) (string, string, int) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env, cmd.Dir = env, base
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		return outputs(cmd)
	}
	user := &syscall.Credential{Uid: victimID, Gid: victimID, Groups: []uint32{group}}
	cleared := &syscall.Credential{Uid: victimID, Gid: victimID, Groups: []uint32{}}
	for _, c := range []struct {
		name   string
		env    []string
		cred   *syscall.Credential
		prefix []string // what runs the command
		file   string
		secret string // printed only when the caller may read it
		served bool   // the server takes the call
		why    string // what the caller is told when it does not
	}{
		{name: "root, as the server", env: rootEnv, file: "dac.txt", secret: "DAC-SECRET", served: true},
		{name: "root without cap_dac_override and cap_dac_read_search", env: rootEnv, prefix: []string{setpriv, "--bounding-set", "-dac_override,-dac_read_search"},
			file: "dac.txt", why: "capabilities"},
		{name: "root under no_new_privs", env: rootEnv, prefix: []string{setpriv, "--no-new-privs"}, file: "dac.txt", secret: "DAC-SECRET", why: "no_new_privs"},
		{name: "a user in the server's groups", env: userEnv, cred: user, file: "group.txt", secret: "GROUP-SECRET", served: true},
		{name: "a user with its groups cleared", env: userEnv, cred: cleared, file: "group.txt", why: "supplementary groups"},
	} {
		argv := append(slices.Clone(c.prefix), bin, "read", filepath.Join(tree, c.file))
		out, errs, code := run(c.env, c.cred, argv...)
		own, ownErrs, ownCode := run(c.env, c.cred, append(argv, "--no-server")...)
		var why string
		switch {
		case c.secret == "" && strings.Contains(out, "SECRET"):
			why = "the server read for it what it cannot: " + out
		case c.secret != "" && !strings.Contains(out, c.secret):
			why = fmt.Sprintf("not read: exit %d %q %q", code, out, errs)
		case out != own || code != ownCode:
			why = fmt.Sprintf("through the server %d %q, in its own process %d %q %q", code, out, ownCode, own, ownErrs)
		case c.served == strings.Contains(errs, "this call runs in this process"):
			why = fmt.Sprintf("served %v, want %v: %q", !c.served, c.served, errs)
		case !c.served && !strings.Contains(errs, c.why):
			why = fmt.Sprintf("not told why (%s): %q", c.why, errs)
		}
		verdict := map[bool]string{true: "served, as the server's own", false: "run in its own process, told why: " + c.why}[c.served]
		if why != "" {
			verdict = why
			t.Errorf("%s: %s", c.name, why)
		}
		record("resident server: "+c.name, "wazero CLI, server", verdict, why == "")
	}
}

// TestHostileDeepPath: a call on a path 2,000 directories deep (3,999
// bytes, under PATH_MAX, so resolvable whole) costs what is linear in its
// depth. The module walks such a path a component at a time and wazero
// hands the mount each step as a path from the root: resolved whole, each
// open cost the kernel the whole path, and the calls d lookups each (a
// list 1,365 deep took 6.4 s). The mount's count of components the kernel
// resolved must stay within 32 a level for each call (15.5 measured;
// resolved whole, about d/2 × 5 a level), and each call end
// well within its deadline, through the library and the command.
func TestHostileDeepPath(t *testing.T) {
	const depth = 2000
	base := t.TempDir()
	root := filepath.Join(base, "root")
	os.Mkdir(root, 0o755)
	d, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	for range depth {
		if err := d.Mkdir("d", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := d.OpenRoot("d")
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		d = next
	}
	if err := d.WriteFile("f.txt", []byte(needle+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.Close()
	deep := strings.Repeat("d/", depth)[:2*depth-1]
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", root).WithTimeout(timeout).WithParallelism(1))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	bin, _ := buildCLI(t)
	for _, c := range []struct {
		name string
		call call
		cli  []string // the same as the command runs it, PATH the deep directory
	}{
		{name: "list", call: call{list: &ListArgs{Path: deep}}, cli: []string{"list"}},
		{name: "grep", call: call{grep: &GrepArgs{Pattern: needle, Path: deep}}, cli: []string{"grep", "-l", needle}},
		{name: "glob", call: call{glob: &GlobArgs{Pattern: "*.txt", Path: deep}}, cli: []string{"glob", "*.txt"}},
		{name: "read", call: call{read: &ReadArgs{Path: deep + "/f.txt"}}, cli: []string{"read", "f.txt"}},
		{name: "stat", call: call{other: protocol.Call{Stat: &protocol.StatArgs{Path: deep + "/f.txt"}}}, cli: []string{"stat", "f.txt"}},
	} {
		before := r.roots[0].Lookups()
		o := c.call.library(ctx, r)
		lookups := r.roots[0].Lookups() - before
		ok := o.code == "" && len(o.items) > 0 && lookups <= 32*depth && o.took < timeout/2
		note := fmt.Sprintf("%v, %d lookups (%.1f a level)", o.took.Round(time.Millisecond), lookups, float64(lookups)/depth)
		record(fmt.Sprintf("%s %d directories deep", c.name, depth), "wazero library", note, ok)
		if !ok {
			t.Errorf("%s: code %q, %d items, %s", c.name, o.code, len(o.items), note)
		}
		// The command, on the deep directory as its PATH (opened a
		// component at a time, its ignore files above read by "..").
		args := append(slices.Clone(c.cli), "--no-server")
		if c.name != "read" && c.name != "stat" {
			args = append(args, filepath.Join(root, deep))
		} else {
			args[len(args)-2] = filepath.Join(root, deep, args[len(args)-2])
		}
		start := time.Now()
		out, err := exec.Command(bin, args...).CombinedOutput()
		took := time.Since(start)
		ok = err == nil && bytes.Contains(out, []byte("f.txt")) || c.name == "read" && err == nil && bytes.Contains(out, []byte(needle))
		ok = ok && took < timeout/2
		record(fmt.Sprintf("%s %d directories deep", c.name, depth), "wazero CLI", took.Round(time.Millisecond).String(), ok)
		if !ok {
			t.Errorf("command %s: %v, %v\n%.300s", c.name, err, took, out)
		}
	}
}

// TestHostileSearchOnly: a readable file in a directory this user may
// search but not list (mode 0711: cat reads dir/file, ls dir fails) is
// read, and grepped when named; a listing of the directory is unreadable,
// with the system's reason. Run as a throwaway user (permissions do not
// bind root).
func TestHostileSearchOnly(t *testing.T) {
	if tree := os.Getenv("ROOTBOUND_DOORS_TREE"); os.Getenv(doorsChild) == "search only" {
		ctx := context.Background()
		r, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", tree).WithCacheDir(""))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(ctx)
		if res, err := r.Read(ctx, ReadArgs{Path: "search/x.txt"}); err != nil || len(res.Items) != 1 {
			t.Errorf("read search/x.txt: %v", err)
		}
		if res, err := r.Grep(ctx, GrepArgs{Pattern: needle, Path: "search/x.txt"}); err != nil || len(res.Items) != 1 {
			t.Errorf("grep in search/x.txt: %v", err)
		}
		res, err := r.List(ctx, ListArgs{Path: "search"})
		if err == nil && (len(res.Problems) != 1 || !strings.Contains(strings.ToLower(res.Problems[0].Message), "permission denied")) {
			t.Errorf("list search: %v %+v, want it unreadable (permission denied)", err, res.Problems)
		}
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root: a throwaway user, whom permissions bind")
	}
	base := t.TempDir()
	openToAll(t, base)
	tree := filepath.Join(base, "tree")
	testtree.Write(t, tree, map[string]string{"search/x.txt": needle + "\n"})
	os.Chmod(tree, 0o755)
	os.Chmod(filepath.Join(tree, "search"), 0o711)
	out, err := runAs(t, base, &syscall.Credential{Uid: victimID, Gid: victimID}, "TestHostileSearchOnly", "search only",
		"HOME=/nonexistent", "ROOTBOUND_DOORS_TREE="+tree)
	ok := err == nil && strings.Contains(out, "PASS")
	record("a file in a directory that can be searched, not listed (0711)", "wazero library",
		map[bool]string{true: "read and grepped; the listing unreadable (permission denied)", false: "not read"}[ok], ok)
	if !ok {
		t.Errorf("%v\n%s", err, out)
	}
}
