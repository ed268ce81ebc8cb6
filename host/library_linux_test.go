package host_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestReservationRefused runs a runner whose instance memory cannot be
// reserved (a ulimit on address space): it must fall back to growing
// memory, not crash.
func TestReservationRefused(t *testing.T) {
	if os.Getenv("ROOTBOUND_RLIMIT_CHILD") != "" {
		// Leave room for what is mapped already, not for a 4 GiB
		// reservation.
		var vsize uint64
		b, _ := os.ReadFile("/proc/self/stat")
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		fmt.Sscan(f[20], &vsize)
		limit := vsize + 2<<30
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			t.Skip(err)
		}
		dir := testtree.New(t, map[string]string{"a.txt": "needle\n"})
		r, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", dir).WithMemoryLimit(4<<30))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close(context.Background())
		res, err := r.Grep(context.Background(), host.GrepArgs{Pattern: "needle"})
		if err != nil || len(res.Items) != 1 {
			t.Fatalf("grep under the limit: %v, %d items", err, len(res.Items))
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReservationRefused$", "-test.v")
	cmd.Env = append(os.Environ(), "ROOTBOUND_RLIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestReservationRefused")) {
		t.Fatalf("under an address-space limit: %v\n%s", err, out)
	}
}
