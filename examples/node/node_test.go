// Package node holds the Node.js host, rootbound.mjs; this test runs it as a
// person would and holds its output to the Go command's.
package node

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSameAsTheGoCommand(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("ROOTBOUND_ALL_RUNNERS") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src", "net")
	bin := filepath.Join(t.TempDir(), "rootbound")
	if out, err := exec.Command("go", "build", "-o", bin, "../../host/cmd/rootbound").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"grep", "-l", "CanonicalMIMEHeaderKey", dir},
		{"grep", "-c", "-i", `deadline\s+exceeded`, dir},
		{"grep", "-F", "func (c *Conn) Close", dir},
		{"glob", "*_test.go", dir},
		{"glob", "nothing-matches-this", dir},
	} {
		t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
			node := exec.Command("node", append([]string{"rootbound.mjs"}, args...)...)
			var nodeOut, nodeErr bytes.Buffer
			node.Stdout, node.Stderr = &nodeOut, &nodeErr
			nodeRun := node.Run()
			goCmd := exec.Command(bin, args...)
			var goOut bytes.Buffer
			goCmd.Stdout = &goOut
			goRun := goCmd.Run()
			if nodeOut.String() != goOut.String() {
				t.Errorf("node printed %d bytes, rootbound %d; stderr %s", nodeOut.Len(), goOut.Len(), nodeErr.String())
			}
			if exitCode(nodeRun) != exitCode(goRun) {
				t.Errorf("exit %d, rootbound %d", exitCode(nodeRun), exitCode(goRun))
			}
		})
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
