package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rootbound/rootbound/host"
)

func TestCacheLimit(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int64
		bad  bool
	}{
		{env: "", want: 0},
		{env: "1048576", want: 1 << 20},
		{env: "512M", want: 512 << 20},
		{env: "512MiB", want: 512 << 20},
		{env: "2g", want: 2 << 30},
		{env: "64KB", want: 64 << 10},
		{env: "0", bad: true},
		{env: "-1", bad: true},
		{env: "1T", bad: true},
		{env: "lots", bad: true},
		{env: "9999999999G", bad: true},
	} {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv(cacheLimitEnv, tc.env)
			got, err := cacheLimit()
			if (err != nil) != tc.bad || got != tc.want {
				t.Fatalf("%s=%q: %d, %v; want %d (refused: %v)", cacheLimitEnv, tc.env, got, err, tc.want, tc.bad)
			}
		})
	}
}

// TestClearCache: `rootbound server --clear-cache` removes the index and
// compiled-module caches, and a link in a cache's place is removed, not
// followed.
func TestClearCache(t *testing.T) {
	cache, tmp, outside := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache) // the user cache directory elsewhere than Linux
	t.Setenv("TMPDIR", tmp)
	base, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache directory:", err)
	}
	kept := filepath.Join(outside, "kept.rbix")
	for _, p := range []string{filepath.Join(base, "rootbound", "wazero", "compiled"), kept,
		filepath.Join(tmp, fmt.Sprintf("rootbound-%d", os.Getuid()), "wazero", "compiled")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(base, "rootbound", "index")); err != nil && runtime.GOOS != "windows" {
		t.Fatal(err)
	}
	args := []string{"server", "--clear-cache"}
	if runtime.GOOS == "linux" {
		args = append(args, "--dir", t.TempDir())
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, p := range append([]string{filepath.Join(base, "rootbound", "index")}, host.DefaultCacheDirs()...) {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there:\n%s", p, stderr.String())
		}
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the link's target lost its file: %v", err)
	}
	stderr.Reset()
	if code := run(args, nil, &stdout, &stderr); code != 0 || !bytes.Contains(stderr.Bytes(), []byte("no cache to remove")) {
		t.Errorf("again: exit %d: %s", code, stderr.String())
	}
}
