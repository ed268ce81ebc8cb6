package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/protocol"
)

// AuditRecord is what a call did, in one record (Config.WithAudit): every
// call that was asked for, run, denied or refused as invalid.
type AuditRecord struct {
	Tool string // "glob", "grep", "read" or "list"
	// Description is what the model said the call is for, when its tool
	// arguments carried a "description" (as DeerFlow's tools do).
	Description string
	Pattern     string     // as given
	Path        string     // the search path, or the default root's name
	Mode        OutputMode // grep's output mode
	// Lines is the range of lines a read returned ("10-59"), or the line
	// it asked to start at when it returned none ("10-"); never contents.
	Lines     string
	Reads     []Read        // what it read (none when it was refused first)
	Status    string        // StatusComplete, StatusPartial or StatusFailed
	Code      string        // the error code, if any
	Results   int           // results sent
	Truncated bool          // more existed
	Duration  time.Duration // from Run to its end
}

// String is the record on one line: tool, pattern, path, mode, then what it
// returned and how long it took. Pattern and path are quoted, with any
// quote or control character escaped, so no argument can break the line.
//
//	grep pattern="TODO\(" path="/workspace" mode=content: complete, 12 results, 35ms
func (a AuditRecord) String() string {
	var b strings.Builder
	b.WriteString(a.Tool)
	if a.Tool == "glob" || a.Tool == "grep" {
		fmt.Fprintf(&b, " pattern=%s", match.Quote(a.Pattern))
	}
	fmt.Fprintf(&b, " path=%s", match.Quote(a.Path))
	if a.Lines != "" {
		fmt.Fprintf(&b, " lines=%s", a.Lines)
	}
	if a.Mode != "" {
		fmt.Fprintf(&b, " mode=%s", a.Mode)
	}
	if a.Description != "" {
		fmt.Fprintf(&b, " description=%s", match.Quote(a.Description))
	}
	fmt.Fprintf(&b, ": %s", a.Status)
	if a.Code != "" {
		fmt.Fprintf(&b, " (%s)", a.Code)
	}
	fmt.Fprintf(&b, ", %d results", a.Results)
	if a.Truncated {
		b.WriteString(", truncated")
	}
	fmt.Fprintf(&b, ", %s", a.Duration.Round(time.Millisecond))
	return b.String()
}

func (p *Prepared) audit(res *Result, d time.Duration) AuditRecord {
	a := AuditRecord{Tool: p.tool, Description: p.description, Pattern: res.Pattern, Path: res.Path, Reads: p.Reads(), Status: res.Done.Status,
		Results: res.Done.Results, Truncated: res.Done.Truncated, Duration: d}
	if p.call.Grep != nil {
		a.Mode = res.Mode
	}
	if p.call.Read != nil {
		first := max(p.call.Read.Offset, 1)
		a.Lines = fmt.Sprintf("%d-", first)
		if n := res.Done.Results; n > 0 {
			a.Lines += fmt.Sprint(first + n - 1)
		}
	}
	if e := res.Done.Error; e != nil {
		a.Code = e.Code
	}
	return a
}

// Progress is how far a running call got: directory entries visited, files
// searched, results sent.
type Progress = protocol.Progress

type progressKey struct{}

type progressFunc struct {
	every time.Duration
	fn    func(Progress)
}

// WithProgress returns a context under which a call reports its progress
// to fn, at most every interval (at least a millisecond) while it runs, from
// the goroutine that runs the call. A call that ends sooner reports none.
func WithProgress(ctx context.Context, every time.Duration, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, progressFunc{every: max(every, time.Millisecond), fn: fn})
}

func progressOf(ctx context.Context) (progressFunc, bool) {
	p, ok := ctx.Value(progressKey{}).(progressFunc)
	return p, ok && p.fn != nil
}
