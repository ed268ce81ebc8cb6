package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootbound/rootbound/internal/testtree"
	"github.com/rootbound/rootbound/protocol"
)

// TestHostileWaitingFile puts a file that says it is regular and waits for
// data (/proc/kmsg, bound over a file of the test's tree in a mount
// namespace of its own) in a root, then reads it and greps the tree on
// each host that runs the module in a process of its own, and in the
// library: the file is unreadable, the rest is searched, and each process
// exits once its input ends. Node's host let the module make the file
// blocking, so its worker's thread stayed in a read no terminate() stops,
// and the process never exited.
//
// It runs only as root (binding /proc/kmsg, reading it), and only while
// the kernel log holds no unread message: a read of /proc/kmsg takes what
// it reads from other readers of that file.
func TestHostileWaitingFile(t *testing.T) {
	const childEnv = "ROOTBOUND_WAITING_TREE"
	if tree := os.Getenv(childEnv); tree != "" {
		waitingChild(t, tree)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("binds /proc/kmsg into the tree: root only")
	}
	if st, err := os.Stat("/proc/kmsg"); err != nil || !st.Mode().IsRegular() {
		t.Skipf("/proc/kmsg is not a regular file here (%v)", err)
	}
	tree := testtree.New(t, map[string]string{"ok.txt": needle + "\n", "kmsg": ""})
	cmd := exec.Command("unshare", "-m", os.Args[0], "-test.run=^TestHostileWaitingFile$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+tree)
	out, err := cmd.CombinedOutput()
	switch {
	case bytes.Contains(out, []byte("SKIP")):
		t.Skipf("%s", out)
	case err != nil:
		t.Errorf("%v\n%s", err, out)
	}
}

func waitingChild(t *testing.T, tree string) {
	if err := syscall.Mount("/proc/kmsg", filepath.Join(tree, "kmsg"), "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("mount: %v", err)
	}
	if n, err := syscall.Klogctl(9, nil); err != nil || n != 0 { // SYSLOG_ACTION_SIZE_UNREAD
		t.Skipf("the kernel log holds %d unread bytes (%v): a read would take them", n, err)
	}
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/workspace", tree).WithCacheDir(""))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	if _, err := r.Read(ctx, ReadArgs{Path: "kmsg"}); err == nil || protocol.AsError(err).Code != CodeUnreadable {
		t.Errorf("wazero library: read kmsg: %v, want %s", err, CodeUnreadable)
	}
	if res, err := r.Grep(ctx, GrepArgs{Pattern: needle, OutputMode: "files_with_matches"}); err != nil || !hasAll(paths(res), "ok.txt") || res.Done.Skipped.Unreadable != 1 {
		t.Errorf("wazero library: grep: %v %q, unreadable %d; want ok.txt, and kmsg unreadable", err, paths(res), res.Done.Skipped.Unreadable)
	}
	for _, rt := range processRuntimes(t) {
		for _, c := range []struct {
			name    string
			call    call
			code    string
			results bool
		}{
			{name: "read kmsg", call: call{read: &ReadArgs{Path: "kmsg"}}, code: CodeUnreadable},
			{name: "grep", call: call{grep: &GrepArgs{Pattern: needle, OutputMode: "files_with_matches"}}, results: true},
		} {
			line, _ := json.Marshal(c.call.request(timeout))
			// The answer comes before the deadline; the process then
			// has its input end. One still there a minute on never exits.
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			argv := append(serveArgv(rt), "--root", "/workspace="+tree)
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Stdin = bytes.NewReader(append(line, '\n'))
			var errb bytes.Buffer
			cmd.Stderr = &errb
			out, err := cmd.Output()
			cancel()
			o := fromLines(out, 0)
			switch {
			case errors.Is(ctx.Err(), context.DeadlineExceeded):
				t.Errorf("%s: %s: the process did not exit once its input ended\n%s", rt, c.name, out)
			case err != nil:
				t.Errorf("%s: %s: %v %s", rt, c.name, err, errb.String())
			case o.code != c.code || c.results && !hasAll(o.items, "ok.txt"):
				t.Errorf("%s: %s: code %q items %q, want %q\n%s", rt, c.name, o.code, o.items, c.code, out)
			case strings.Contains(string(out), tree):
				t.Errorf("%s: %s: the root's host path is in the answer\n%s", rt, c.name, out)
			}
		}
	}
}
