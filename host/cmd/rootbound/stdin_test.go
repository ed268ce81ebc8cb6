package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestPiecer: a stream cut into pieces of whole lines gives back every
// byte, in order, but the part past the cap of a line longer than it;
// each piece but the last ends a line.
func TestPiecer(t *testing.T) {
	defer func(n int) { stdinPiece = n }(stdinPiece)
	stdinPiece = 16
	long := strings.Repeat("L", 40)
	for _, tc := range []struct {
		name, in, want string
		maxSize        int64
	}{
		{name: "short lines", in: "a\nbb\nccc\ndddd\neeeee\nffffff\nggggggg\n", maxSize: 100},
		{name: "no last line end", in: "a\nbb\nccc\ndddd\neeeee\nffffff\nggg", maxSize: 100},
		{name: "a line longer than a piece", in: "a\n" + long + "\nb\n", maxSize: 100},
		{name: "a line past the cap: cut after the cap and a byte", in: "a\n" + long + "\nb\n", maxSize: 20,
			want: "a\n" + long[:21] + "b\n"},
		{name: "empty", in: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := piecer{r: bufio.NewReaderSize(strings.NewReader(tc.in), 16)}
			var got strings.Builder
			n := 0
			for {
				piece, ok := p.next(tc.maxSize)
				if !ok {
					break
				}
				if n++; n > 100 {
					t.Fatal("no end")
				}
				got.Write(piece)
				if !bytes.HasSuffix(piece, []byte("\n")) && !p.eof && int64(len(piece)) <= tc.maxSize {
					t.Errorf("piece %d %q does not end a line", n, piece)
				}
			}
			want := tc.in
			if tc.want != "" {
				want = tc.want
			}
			if got.String() != want || p.err != nil {
				t.Errorf("pieces joined:\n%q\nwant\n%q (err %v)", got.String(), want, p.err)
			}
		})
	}
}

// TestGrepStdinStreams: standard input is searched a piece at a time, as
// rg streams it, with no size cap (seq 3000000 is 20 MB, over the 8 MiB
// cap a file has); held to rg's output and exit status, with pieces made
// small, so that matches, context, counts and caps cross their edges.
func TestGrepStdinStreams(t *testing.T) {
	rg := needTool(t, "rg")
	defer func(n int) { stdinPiece = n }(stdinPiece)
	stdinPiece = 4000
	var in strings.Builder
	for i := 1; i <= 30000; i++ {
		fmt.Fprintln(&in, i)
	}
	for _, args := range [][]string{
		{"7"},
		{"-n", "7"},
		{"-c", "7"},
		{"-c", "-v", "7"},
		{"--count-matches", "7"},
		{"-l", "7"},
		{"--files-without-match", "7"},
		{"--files-without-match", "nothing"},
		{"-n", "-m", "1000", "7"},
		{"-n", "-C", "2", "2999[0-9]"},
		{"-n", "-B", "3", "-A", "1", "99[0-9]"},
		{"-n", "-o", "-C", "1", "77"},
		{"--column", "777"},
		{"-n", "--max-results", "500", "5"},
		{"-q", "7"},
		{"nothing"},
		{"--max-filesize", "1K", "-c", "7"}, // no cap on a stream, as rg has none
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ours, errs, code := rootboundIn(t, in.String(), append([]string{"grep"}, args...)...)
			cmd := exec.Command(rg, args...)
			cmd.Stdin = strings.NewReader(in.String())
			want, _ := cmd.Output()
			if len(args) > 1 && args[1] == "--max-results" {
				cmd = exec.Command(rg, "-n", "5")
				cmd.Stdin = strings.NewReader(in.String())
				all, _ := cmd.Output()
				lines := strings.SplitAfter(string(all), "\n")
				want, cmd = []byte(strings.Join(lines[:500], "")), nil
				if !strings.Contains(errs, "truncated at 500") {
					t.Errorf("no truncation said: %q", errs)
				}
			}
			refCode := 0
			if cmd != nil && cmd.ProcessState != nil {
				refCode = cmd.ProcessState.ExitCode()
			}
			if ours != string(want) || code != refCode {
				t.Errorf("rootbound grep %q: exit %d (stderr %q), %d bytes\nrg: exit %d, %d bytes\n%s", args, code, errs, len(ours), refCode, len(want), firstDiff(ours, string(want)))
			}
		})
	}
}

// firstDiff shows where two outputs part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-40)
	return fmt.Sprintf("at byte %d: %q\nwant %q", i, a[from:min(len(a), i+40)], b[from:min(len(b), i+40)])
}
