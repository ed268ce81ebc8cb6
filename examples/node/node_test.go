// Package node holds the Node.js host, rootbound.mjs; this test runs it as a
// person would and holds its output to the Go command's.
package node

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	// No VCS revision in its version: the Node CLI's has none.
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bin, "../../host/cmd/rootbound").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// A line longer than a model's cut (protocol.DefaultMaxTextBytes),
	// printed whole by both, as rg prints it.
	long := filepath.Join(t.TempDir(), "long.txt")
	if err := os.WriteFile(long, []byte(strings.Repeat("a", 2000)+"needle"+strings.Repeat("b", 2000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A link in a PATH: refused by both (exit 2, nothing printed).
	link := filepath.Join(filepath.Dir(long), "netdir")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"grep", "-c", "Dial", link},
		{"read", filepath.Join(link, "dial.go")},
		{"grep", "needle", filepath.Dir(long)},
		{"grep", "-n", "needle", long},
		{"grep", "-n", "func Dial", filepath.Join(dir, "dial.go")},
		{"grep", "-n", "-C", "1", "-M", "30", "--max-columns-preview", "func Dial", filepath.Join(dir, "dial.go")},
		{"grep", "-o", "-M", "6", "--max-columns-preview", `func Dial\w*`, filepath.Join(dir, "dial.go")},
		{"grep", "-l", "CanonicalMIMEHeaderKey", dir},
		{"grep", "-c", "-i", `deadline\s+exceeded`, dir},
		{"grep", "-F", "func (c *Conn) Close", dir},
		{"glob", "*_test.go", dir},
		{"glob", "nothing-matches-this", dir},
		{"glob", "--rg-type", "go", "--rg-type-not", "md", "-E", "testdata", "-d", "2", "*", dir},
		{"glob", "-t", "d", "-s", "*", dir},
		{"glob", "--include-dirs", "-i", "HTTP*", dir},
		{"grep", "-l", "-g", "*.go", "-g", "!*_test.go", "--no-hidden", "--no-ignore", "Dial", dir},
		{"grep", "-C", "2", "-w", "-e", "ErrWriteToConnected", "-e", "errNoSuchHost", dir},
		{"grep", "-A", "1", "-B", "3", "-m", "1", "-t", "go", "func Listen", dir},
		{"grep", "-U", "-o", `func \(c \*conn\) Close\(\) error \{\n\s+if`, dir},
		{"grep", "-v", "--count-matches", "--crlf", "e$", dir},
		{"grep", "--max-results", "7", "--offset", "14", "-C", "1", "Dial", dir},
		{"glob", "--max-results", "5", "--offset", "5", "*.go", dir},
		{"read", filepath.Join(dir, "http", "server.go")}, // more than 2,000 lines: more than one call
		{"read", filepath.Join(dir, "dial.go") + ":20-40"},
		{"read", filepath.Join(dir, "dial.go") + ":20"},
		{"read", filepath.Join(dir, "dial.go") + ":20-"},
		{"read", filepath.Join(dir, "dial.go") + ":40-20"},
		{"read", filepath.Join(dir, "dial.go") + ":0"},
		{"read", filepath.Join(dir, "dial.go") + ":99999"},
		{"read", "--offset", "3", "-n", "4", filepath.Join(dir, "net.go")},
		{"read", filepath.Join(dir, "http")},
		{"read", filepath.Join(dir, "no-such-file.go")},
		{"list", dir},
		{"list", "-d", "2", "--max-results", "30", filepath.Join(dir, "http")},
		{"list", "--no-hidden", "--offset", "10", filepath.Join(dir, "mail")},
		{"list", filepath.Join(dir, "net.go")},
		{"stat", filepath.Join(dir, "net.go")},
		{"stat", filepath.Join(dir, "http")},
		{"stat", dir},
		{"stat"},
		{"--version"},
		{"grep", "-V"},
		// The command's own flags (options.CommandFlags), from flags.json.
		{"glob", "-0", "*.go", filepath.Join(dir, "http")},
		{"grep", "-0", "-n", "func Dial", dir},
		{"grep", "-l", "-0", "CanonicalMIMEHeaderKey", dir},
		{"grep", "-c", "-0", "func Dial", dir},
		{"grep", "-x", "-n", "}", filepath.Join(dir, "dial.go")},
		{"grep", "-x", "-F", "-c", "import (", dir},
		{"glob", "-F", "dial", dir},
		{"glob", "-s", "*.GO", dir},
		{"grep", "--files", "-g", "*_test.go", filepath.Join(dir, "http")},
		{"grep", "--files", "--iglob", "SERVER*", filepath.Join(dir, "http")},
		{"grep", "-e", "nothing-here", "-e", "func Listen", "-n", dir},
		{"grep", "--timeout", "30s", "-l", "func Listen", dir},
		// Refused in the Go command's words (rg's and fd's flags).
		{"grep", "-P", "x", dir},
		{"grep", "--sort", "modified", "x", dir},
		{"grep", "--sort=modified", "x", dir},
		{"glob", "-x", "echo", "*", dir},
		{"glob", "--full-path", "*", dir},
	} {
		t.Run(strings.ReplaceAll(strings.ReplaceAll(strings.Join(args, " "), dir, "$GOROOT/src/net"), filepath.Dir(long), "TMP"), func(t *testing.T) {
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

// TestEscapeTable holds the Node printer to the table every rootbound
// printer is held to (testdata/escape/cases.json).
func TestEscapeTable(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	out, err := exec.Command("node", "escape_test.mjs").CombinedOutput()
	if err != nil {
		t.Errorf("%v\n%s", err, out)
	}
}

// TestServeSurvivesAnyLine writes to the Node host's stdin slowly, in
// pieces (a pipe that is briefly empty), with lines that are not requests
// and one of 2 MiB: each gets a typed error and the host goes on serving.
func TestServeSurvivesAnyLine(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	cmd := exec.Command("node", "rootbound.mjs", "serve", "--root", "/workspace="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	long := `{"v":1,"id":"long","glob":{"pattern":"` + strings.Repeat("a", 2<<20) + `"}}` + "\n"
	for _, piece := range []string{"garb", "age\n", "\n  \n{}\n", long[:1<<20], long[1<<20:], `{"v":1,"id":"ok",`, `"glob":{"pattern":"*"}}` + "\n"} {
		if _, err := io.WriteString(stdin, piece); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the host exited: %v\n%s", err, errb.String())
	}
	var codes []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		switch {
		case strings.Contains(l, `"code":"invalid_argument"`):
			codes = append(codes, "invalid_argument")
		case strings.Contains(l, `"status":"complete"`):
			codes = append(codes, "ok")
		default:
			codes = append(codes, l)
		}
	}
	want := "invalid_argument invalid_argument invalid_argument ok"
	if strings.Join(codes, " ") != want {
		t.Errorf("answers %q, want %s", codes, want)
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
