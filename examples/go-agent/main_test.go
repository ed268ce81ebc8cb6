package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentLoop runs the scripted agent on a small tree and checks what the
// model was shown.
func TestAgentLoop(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cmd"), 0o755)
	os.WriteFile(filepath.Join(dir, "cmd", "main.go"), []byte("package main\n\n// TODO: flags\nfunc main() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# demo\n"), 0o644)
	var out bytes.Buffer
	if err := run(context.Background(), dir, &scripted{}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"> glob {\"pattern\":\"*.go\",\"max_results\":20}\n1 file matching \"*.go\" in \"/workspace\":\ncmd/main.go\n",
		"cmd/main.go:3:// TODO: flags\n",
		"> read {\"limit\":5,\"offset\":1,\"path\":\"cmd/main.go\"}\nLines 1 to 4 of \"cmd/main.go\" (4 lines):\n     1\tpackage main\n     2\t\n     3\t// TODO: flags\n     4\tfunc main() {}\n",
		"> list {\"depth\":2}\n3 entries in \"/workspace\":\nREADME.md (7 bytes)\ncmd/\ncmd/main.go (44 bytes)",
		"Error (invalid_pattern): invalid regex",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the model was not shown %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), dir) {
		t.Errorf("the model was shown a host path:\n%s", out.String())
	}
}
