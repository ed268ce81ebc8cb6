package host_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/protocol"
)

// TestReadAgreesWithSed reads random ranges of random files of the Go
// tree and holds each answer to sed -n 'A,Bp' (the lines) and cat -n (the
// file's line count): every line's text, its number, the count, and the
// notice's next offset. A file with a NUL byte must be refused as binary
// (grep -c finds the NUL), one over the size cap as too large.
func TestReadAgreesWithSed(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("no sed")
	}
	src := goroot(t)
	var files []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	const maxSize = 8 << 20
	r := newRunner(t, host.NewConfig().WithRoot("/go", src).WithMaxTextBytes(maxSize).WithMaxResultBytes(64<<20))
	rng := rand.New(rand.NewPCG(21, 1))
	n := 150
	if testing.Short() {
		n = 30
	}
	compared, refused, lineCount := 0, 0, 0
	defer func() {
		t.Logf("%d reads compared with sed (%d lines), %d refused as binary or too large", compared, lineCount, refused)
	}()
	for range n {
		file := files[rng.IntN(len(files))]
		rel, _ := filepath.Rel(src, file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := catLines(t, file)
		first := 1 + rng.IntN(max(lines, 1)+2) // past the end sometimes
		limit := 1 + rng.IntN(2000)
		res, err := r.Read(context.Background(), host.ReadArgs{Path: filepath.ToSlash(rel), Offset: first, Limit: limit, MaxBytes: 1 << 20})
		name := fmt.Sprintf("%s:%d+%d", rel, first, limit)
		switch {
		case bytes.IndexByte(data, 0) >= 0 && !utf16(data):
			if code(err) != host.CodeBinary {
				t.Errorf("%s: a file with a NUL byte: %v, want binary", name, err)
			}
			refused++
			continue
		case len(data) > maxSize:
			if code(err) != host.CodeTooLarge {
				t.Errorf("%s: %d bytes: %v, want too_large", name, len(data), err)
			}
			refused++
			continue
		case utf16(data):
			continue // decoded: sed prints its bytes
		case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
			continue // the byte order mark is not text: sed prints it
		case err != nil:
			t.Errorf("%s: %v", name, err)
			continue
		}
		if res.Done.Lines != lines {
			t.Errorf("%s: %d lines, cat -n counts %d", name, res.Done.Lines, lines)
		}
		want := sedLines(t, file, first, first+limit-1)
		var got []string
		for i, it := range res.Items {
			if it.LineNumber != first+i || it.Text == nil {
				t.Fatalf("%s: item %d: line %d (text %v), want line %d", name, i, it.LineNumber, it.Text != nil, first+i)
			}
			got = append(got, string(*it.Text))
		}
		if len(got) < len(want) && !res.Done.Truncated {
			t.Errorf("%s: %d lines of sed's %d, and not truncated", name, len(got), len(want))
		}
		if !slices.Equal(got, want[:min(len(got), len(want))]) {
			t.Errorf("%s: the lines differ from sed's:\n%q\n%q", name, head(got), head(want))
		}
		compared, lineCount = compared+1, lineCount+len(got)
		last := first + len(got) - 1
		switch {
		case last < lines && (!res.Done.Truncated || res.Done.NextOffset != last+1):
			t.Errorf("%s: ends at line %d of %d: truncated %v, next offset %d", name, last, lines, res.Done.Truncated, res.Done.NextOffset)
		case last >= lines && res.Done.Truncated:
			t.Errorf("%s: ends at its last line and says truncated", name)
		}
	}
}

// TestStatAgreesWithCat says what random files and directories of the Go
// tree are, and holds each answer to the system: the kind and a file's
// size to lstat, its lines to cat -n's count; a file with a NUL byte, or
// over the size cap, has its size and no count, and is counted as skipped.
func TestStatAgreesWithCat(t *testing.T) {
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("no cat")
	}
	src := goroot(t)
	var paths []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (d.IsDir() || d.Type().IsRegular()) {
			paths = append(paths, p)
		}
		return nil
	})
	const maxSize = 64 << 10 // small, so that some files are over it
	r := newRunner(t, host.NewConfig().WithRoot("/go", src).WithMaxFileSize(maxSize))
	rng := rand.New(rand.NewPCG(21, 3))
	kinds := map[string]int{}
	defer func() { t.Logf("150 paths compared with lstat and cat -n: %v", kinds) }()
	for range 150 {
		p := paths[rng.IntN(len(paths))]
		rel, _ := filepath.Rel(src, p)
		call, err := r.Prepare(protocol.Call{Stat: &protocol.StatArgs{Path: filepath.ToSlash(rel)}})
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		res, err := call.Run(context.Background())
		if err != nil || len(res.Items) != 1 {
			t.Fatalf("%s: %d items, %v", rel, len(res.Items), err)
		}
		it, st := res.Items[0], mustLstat(t, filepath.Join(src, rel))
		want := host.Item{Path: protocol.Data(filepath.ToSlash(rel)), Kind: host.KindFile, Size: st.Size()}
		var skipped host.Skipped
		switch data, _ := os.ReadFile(filepath.Join(src, rel)); {
		case st.IsDir():
			want = host.Item{Path: protocol.Data(filepath.ToSlash(rel) + "/"), Kind: host.KindDir} // the root's: "./"
			kinds["directory"]++
		case bytes.IndexByte(data, 0) >= 0 && !utf16(data):
			skipped.Binary = 1
			kinds["binary"]++
		case st.Size() > maxSize:
			skipped.TooLarge = 1
			kinds["too large"]++
		case utf16(data):
			want.Count = it.Count // decoded: cat -n counts its bytes
		default:
			want.Count = catLines(t, filepath.Join(src, rel))
			kinds["text"]++
		}
		if fmt.Sprint(it) != fmt.Sprint(want) || res.Done.Skipped != skipped {
			t.Errorf("%s: %+v skipping %+v, want %+v skipping %+v", rel, it, res.Done.Skipped, want, skipped)
		}
	}
}

func mustLstat(t *testing.T, name string) fs.FileInfo {
	t.Helper()
	st, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestListAgreesWithFind lists random directories of the Go tree, one and
// two levels deep, and holds each answer to ls -A (the names, depth 1) and
// find -printf (each entry's path, kind and a file's size).
func TestListAgreesWithFind(t *testing.T) {
	for _, tool := range []string{"ls", "find"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	src := goroot(t)
	var dirs []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	r := newRunner(t, host.NewConfig().WithRoot("/go", src))
	rng := rand.New(rand.NewPCG(21, 2))
	entries := 0
	defer func() { t.Logf("60 lists compared with find and ls -A, %d entries", entries) }()
	for range 60 {
		dir := dirs[rng.IntN(len(dirs))]
		rel, _ := filepath.Rel(src, dir)
		depth := 1 + rng.IntN(2)
		res, err := r.List(context.Background(), host.ListArgs{Path: filepath.ToSlash(rel), Depth: depth, NoIgnore: true, MaxResults: 1000})
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if res.Done.Truncated {
			continue // a directory of more than 1,000 entries
		}
		prefix := filepath.ToSlash(rel) + "/"
		if rel == "." {
			prefix = ""
		}
		var got []string
		var names []string
		for _, it := range res.Items {
			p := strings.TrimPrefix(string(it.Path), prefix)
			got = append(got, fmt.Sprintf("%s %s %d", strings.TrimSuffix(p, "/"), it.Kind, it.Size))
			if !strings.Contains(strings.TrimSuffix(p, "/"), "/") {
				names = append(names, strings.TrimSuffix(p, "/"))
			}
		}
		out, err := exec.Command("find", dir, "-mindepth", "1", "-maxdepth", strconv.Itoa(depth), "-printf", `%P\t%y\t%s\n`).Output()
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l == "" {
				continue
			}
			f := strings.Split(l, "\t")
			kind, size := map[string]string{"f": host.KindFile, "d": host.KindDir, "l": host.KindSymlink}[f[1]], f[2]
			if kind != host.KindFile {
				size = "0"
			}
			want = append(want, fmt.Sprintf("%s %s %s", f[0], kind, size))
		}
		entries += len(got)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("list %s -d %d: differs from find:\n%q\n%q", rel, depth, head(got), head(want))
		}
		ls, err := exec.Command("ls", "-A", dir).Output()
		if err != nil {
			t.Fatal(err)
		}
		lsNames := strings.Fields(string(ls))
		slices.Sort(lsNames)
		slices.Sort(names)
		if !slices.Equal(names, lsNames) {
			t.Errorf("list %s: names differ from ls -A:\n%q\n%q", rel, head(names), head(lsNames))
		}
	}
}

// catLines is the number of lines cat -n numbers in file.
func catLines(t *testing.T, file string) int {
	out, err := exec.Command("sh", "-c", `cat -n "$1" | tail -n 1`, "sh", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// sedLines are lines a to b of file as sed prints them, without the
// newline and a "\r" before it (which an item never carries).
func sedLines(t *testing.T, file string, a, b int) []string {
	out, err := exec.Command("sed", "-n", fmt.Sprintf("%d,%dp", a, b), file).Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	return lines
}

func utf16(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF)
}

func head(s []string) []string { return s[:min(len(s), 5)] }
