package main

import (
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// stdout is the command's standard output. A write to a reader that has
// gone (`rootbound grep x | head -1`) ends the process with status 0, as
// rg and fd end, not with SIGPIPE's 141, which fails a script under
// `set -o pipefail`. It is still the *os.File it wraps for isTerminal.
type stdout struct{ *os.File }

// ignoreSIGPIPE makes a write to a closed pipe an EPIPE error, which
// stdout's Write turns into exit status 0 (Go's runtime otherwise dies of
// the signal when it writes to fd 1 or 2).
func ignoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }

func (s stdout) Write(b []byte) (int, error) {
	n, err := s.File.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		os.Exit(0)
	}
	return n, err
}

// WriteString is Write's, so that io.WriteString does not go around it.
func (s stdout) WriteString(str string) (int, error) { return s.Write([]byte(str)) }
