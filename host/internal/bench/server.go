package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"time"
)

// serverTable times the command through its resident server (issue 20):
// a call on a one-file tree, where the command's start is all of it,
// repeat greps of the Go tree, which the server's index answers, and a read
// and a list (issue 21); beside the command in its own process, and rg
// (cat -n for the read, fd for the list). The server runs in a directory
// of the bench's, and is stopped at the end.
func serverTable(keep *regexp.Regexp, cli, tmp string, trees map[string]string) error {
	if !keep.MatchString("server") {
		return nil
	}
	one := filepath.Join(tmp, "onefile")
	if err := os.MkdirAll(one, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(one, "a.txt"), []byte("a line with the needle\n"), 0o644); err != nil {
		return err
	}
	dir := filepath.Join(tmp, "server")
	env := append(slices.DeleteFunc(os.Environ(), func(v string) bool { return v == "ROOTBOUND_SERVER=off" }), "ROOTBOUND_SERVER_DIR="+dir)
	command := func(args ...string) func() error {
		return func() error {
			cmd := exec.Command(cli, args...)
			cmd.Env = env
			return runDiscard(cmd)
		}
	}
	defer command("server", "--stop", "--dir", dir)()
	// The first call runs in its process and starts the server.
	start := time.Now()
	if err := command("grep", "-n", "needle", one)(); err != nil {
		return err
	}
	firstCall := time.Since(start)
	sock := ""
	for range 200 {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.sock")); len(m) > 0 {
			sock = m[0]
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if sock == "" {
		return fmt.Errorf("the resident server did not start")
	}
	fmt.Printf("\nThe command through its resident server (%d interleaved rounds, median; the first call ran in its own process and started the server, in %s)\n\n", Runs, firstCall.Round(time.Millisecond))
	fmt.Println("| case | tree | rg | command, own process | command, through the server | server ÷ rg | goal |")
	fmt.Println("|---|---|---|---|---|---|---|")
	rows := []struct {
		name, tree string
		args       []string
		rg         []string
		goal       time.Duration
	}{
		{"grep -n literal", "one file", []string{"grep", "-n", "needle", one}, []string{"rg", "-n", "needle", one}, 30 * time.Millisecond},
		{"grep -l rare literal", "go", []string{"grep", "-l", "-F", "flash_probe_gpio_init", trees["go"]}, []string{"rg", "-l", "--hidden", "--no-require-git", "-F", "flash_probe_gpio_init", trees["go"]}, 0},
		{"grep -l TODO|FIXME", "go", []string{"grep", "-l", "TODO|FIXME", trees["go"]}, []string{"rg", "-l", "--hidden", "--no-require-git", "TODO|FIXME", trees["go"]}, 0},
		// read against cat -n (the "rg" column): a file of 4,000 lines,
		// which takes the command two calls of 2,000.
		{"read (cat -n), 4,000 lines", "go", []string{"read", filepath.Join(trees["go"], "src", "net", "http", "server.go")}, []string{"cat", "-n", filepath.Join(trees["go"], "src", "net", "http", "server.go")}, 0},
		{"list -d 2 (fd -d 2)", "go", []string{"list", "-d", "2", filepath.Join(trees["go"], "src", "net")}, []string{"fdfind", "-H", "-I", "-d", "2", ".", filepath.Join(trees["go"], "src", "net")}, 0},
	}
	for _, r := range rows {
		// A first call on the tree through the server, then time for its
		// index to be built in the background.
		if err := command(r.args...)(); err != nil {
			return err
		}
		if r.tree != "one file" && r.args[0] == "grep" {
			time.Sleep(8 * time.Second)
		}
		own := append([]string{r.args[0], "--no-server"}, r.args[1:]...)
		t := interleaved(func() error { return refRun(r.rg, "") }, command(own...), command(r.args...))
		goal := "–"
		if r.goal > 0 {
			goal = fmt.Sprintf("≤ %d ms (met)", r.goal.Milliseconds())
			if t[2].err != nil || t[2].d > r.goal {
				goal = fmt.Sprintf("≤ %d ms (missed)", r.goal.Milliseconds())
			}
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %.1f× | %s |\n", r.name, r.tree, ms(t[0]), ms(t[1]), ms(t[2]), ratio(t[2], t[0]), goal)
	}
	return nil
}
