package host_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

// nextOffset reads the offset a truncation notice gives for the next page.
var nextOffset = regexp.MustCompile(`pass offset: (\d+) for the next page`)

// page calls until an answer is not truncated, each time with the offset
// its notice gives, and returns what the pages held, in order.
func page(t *testing.T, call func(offset int) (*host.Result, error)) (items []string, pages int) {
	t.Helper()
	offset := 0
	for {
		res, err := call(offset)
		if err != nil {
			t.Fatal(err)
		}
		if pages++; pages > 1000 {
			t.Fatalf("still truncated after 1,000 pages (offset %d, %d results a page): paging does not move on", offset, res.Done.Results)
		}
		for _, it := range res.Items {
			if !it.Context {
				items = append(items, fmt.Sprintf("%s:%d:%d", it.Path, it.LineNumber, len(it.Submatches)))
			}
		}
		if !res.Done.Truncated {
			return items, pages
		}
		// The notice a model reads gives the next offset, as done does.
		m := nextOffset.FindStringSubmatch(res.Text())
		if m == nil || res.Done.NextOffset != offset+res.Done.Results {
			t.Fatalf("a truncated page without the next offset: next_offset %d, %q", res.Done.NextOffset, res.Text())
		}
		next, _ := strconv.Atoi(m[1])
		if next != offset+res.Done.Results {
			t.Fatalf("next offset %d after %d results from %d", next, res.Done.Results, offset)
		}
		offset = next
	}
}

// TestPaging pages through a 5,000-line result 500 at a time (and with
// context lines around each, which are not results) and a 1,200-file glob:
// the pages hold exactly the whole result, in order, no line twice.
func TestPaging(t *testing.T) {
	spec := map[string]string{}
	for f := range 10 {
		var b strings.Builder
		for l := range 600 {
			if l%6 == 5 {
				b.WriteString("filler\n")
			} else {
				fmt.Fprintf(&b, "match %d %d\n", f, l)
			}
		}
		spec[fmt.Sprintf("d%d/f.txt", f)] = b.String()
	}
	for i := range 1200 {
		spec[fmt.Sprintf("g/%04d.go", i)] = "x\n"
	}
	dir := testtree.New(t, spec)
	// A deadline far past what the calls take on a loaded machine (three
	// of six runs beside CPU-bound loops met the default one): the test is
	// of the pages, not of the time.
	r, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", dir).WithTimeout(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	ctx := context.Background()
	for _, context := range []int{0, 2} {
		whole, err := r.Grep(ctx, host.GrepArgs{Pattern: "match", OutputMode: host.ModeContent, MaxResults: 10_000, Path: "/w"})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, it := range whole.Items {
			want = append(want, fmt.Sprintf("%s:%d:%d", it.Path, it.LineNumber, len(it.Submatches)))
		}
		if len(want) != 5000 {
			t.Fatalf("%d matching lines, want 5000", len(want))
		}
		got, pages := page(t, func(offset int) (*host.Result, error) {
			return r.Grep(ctx, host.GrepArgs{Pattern: "match", OutputMode: host.ModeContent, MaxResults: 500, Offset: offset, Context: context})
		})
		if pages != 10 || !slices.Equal(got, want) {
			t.Errorf("context %d: %d pages, %d lines; want 10 pages and the whole result in order", context, pages, len(got))
		}
	}
	whole, err := r.Glob(ctx, host.GlobArgs{Pattern: "*.go", MaxResults: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, it := range whole.Items {
		want = append(want, fmt.Sprintf("%s:0:0", it.Path))
	}
	got, pages := page(t, func(offset int) (*host.Result, error) {
		return r.Glob(ctx, host.GlobArgs{Pattern: "*.go", MaxResults: 500, Offset: offset})
	})
	if len(want) != 1200 || pages != 3 || !slices.Equal(got, want) {
		t.Errorf("glob: %d pages, %d files; want 3 pages and the %d files in order", pages, len(got), len(want))
	}
	// Newest first pages as path order does (it returned nothing past the
	// first page: the kept newest were capped at max_results and the
	// offset skipped into them); the next offset is also on the wire.
	for _, tool := range []string{"glob", "grep"} {
		call := func(offset, max int) (*host.Result, error) {
			if tool == "glob" {
				return r.Glob(ctx, host.GlobArgs{Pattern: "*.go", Sort: host.SortMTime, MaxResults: max, Offset: offset})
			}
			return r.Grep(ctx, host.GrepArgs{Pattern: "x", Glob: host.Strings{"*.go"}, Sort: host.SortMTime, MaxResults: max, Offset: offset})
		}
		whole, err := call(0, 10_000)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, it := range whole.Items {
			want = append(want, fmt.Sprintf("%s:0:0", it.Path))
		}
		got, pages := page(t, func(offset int) (*host.Result, error) {
			res, err := call(offset, 500)
			if res.Done.Truncated && res.Done.NextOffset != offset+res.Done.Results {
				t.Errorf("%s sorted: next_offset %d after %d results from %d", tool, res.Done.NextOffset, res.Done.Results, offset)
			}
			return res, err
		})
		if len(want) != 1200 || pages != 3 || !slices.Equal(got, want) {
			t.Errorf("%s sorted by mtime: %d pages, %d files; want 3 pages and the %d files in order", tool, pages, len(got), len(want))
		}
	}
}
