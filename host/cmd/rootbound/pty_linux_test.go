package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: what is written to tty is read
// from ptmx, as a terminal shows it (each "\n" as "\r\n").
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ptmx, tty
}

// onTerminal runs fn with a terminal for its standard output and returns
// what it wrote there, "\r\n" read back as "\n".
func onTerminal(t *testing.T, fn func(tty *os.File)) string {
	t.Helper()
	ptmx, tty := openPTY(t)
	defer ptmx.Close()
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&out, ptmx) // ends with EIO once tty is closed
		close(read)
	}()
	fn(tty)
	tty.Close()
	<-read
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}

// commandOnTerminal runs cmd with a terminal for its standard output.
func commandOnTerminal(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	code := 0
	out := onTerminal(t, func(tty *os.File) {
		cmd.Stdout = tty
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
	})
	return out, code
}
