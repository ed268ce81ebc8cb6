package host

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/rootbound/rootbound/protocol"
)

// Serve speaks the module's protocol for programs in any language: it reads
// request lines from in and writes the answer lines to out as the module
// writes them, one request at a time, until in ends (`rootbound serve`).
// Each request is decoded as strictly as the module decodes it (a line it
// refuses goes to it as it is, for the answer every host gives), and runs
// under the runner's limits as a call of the library does: its policy in
// place of any the line holds, a budget, file size cap and result bytes no
// looser than the runner's, and at most WithTimeout (or its deadline_ms,
// if sooner, or until ctx ends); past that its answer ends with a deadline
// error. No input stops it: blank lines are skipped, as the module skips
// them, and a line over protocol.MaxLineBytes is cut to one byte over,
// which the module refuses with the answer every host gives. The read
// guard is not consulted: Serve passes a host's own requests through.
// Serve returns nil at the end of in, or the first error writing to out.
func (r *Runner) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	bw := bufio.NewWriterSize(out, 64<<10)
	enc := protocol.NewEncoder(bw)
	for {
		line, err := protocol.ReadLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			if werr := r.serveOne(ctx, line, enc, bw); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			return err
		}
	}
}

// served is a request as the runner sends it: its root policies
// (WithRootPolicy) in place of any the request holds, so a program
// speaking the protocol cannot see past what the host allows, and its
// limits no looser than the runner's (WithBudget, WithMaxFileSize,
// WithMaxResultBytes, as a call of the library gets them), its deadline
// the host's.
func (r *Runner) served(req protocol.Request, deadlineMS int64) (protocol.Request, []byte) {
	l := protocol.Limits{}
	if req.Limits != nil {
		l = *req.Limits
	}
	l.DeadlineMS = deadlineMS // the module ends the request at the host's deadline by itself
	l.MaxEntries = tighter(l.MaxEntries, r.cfg.maxEntries)
	l.MaxBytes = tighter(l.MaxBytes, r.cfg.maxBytes)
	l.MaxFileSize = tighter(l.MaxFileSize, r.cfg.maxFileSize)
	l.MaxOutputBytes = tighter(l.MaxOutputBytes, r.cfg.maxResultBytes)
	if l.MaxTextBytes == 0 {
		l.MaxTextBytes = r.cfg.maxTextBytes
	}
	req.Limits = &l
	switch {
	case len(r.cfg.policies) > 0:
		req.Policy = r.policy
	case !r.cfg.noDefaultSkips:
		// No policy of the host's but its default skips: the program's
		// own policies hold, with the default skips added.
		req.Policy = r.cfg.withDefaultSkips(req.Policy)
	}
	// What only the host sets, it sets: a shard, an index request, a
	// piece of a saved index or a change feed's changes from the program
	// are dropped (an index or load request alone names no tool, and is
	// refused as such).
	req.Shard, req.Index, req.Load, req.Changes = nil, nil, nil, nil
	line, _ := json.Marshal(req) // it was decoded from JSON
	return req, line
}

// tighter is the tighter of two limits, 0 meaning none. A negative one
// asked stays, for the module to refuse.
func tighter(asked, host int64) int64 {
	if host > 0 && (asked == 0 || asked > host) {
		return host
	}
	return asked
}

// serveOne answers one request line.
func (r *Runner) serveOne(ctx context.Context, line []byte, enc *protocol.Encoder, bw *bufio.Writer) error {
	// A line the module would refuse goes to it as it is, for the answer
	// every host gives; any other is decoded here as strictly, and sent
	// with the runner's policy and limits. Other agents' names for the
	// options are taken, as the MCP server takes them.
	line, aerr := unaliasLine(line)
	req, perr := protocol.DecodeRequest(line)
	if aerr != nil {
		if err := enc.Encode(&protocol.Line{ID: req.ID, Done: &protocol.Done{Status: protocol.StatusFailed, Error: errAliases(aerr)}}); err != nil {
			return err
		}
		return bw.Flush()
	}
	if perr == nil {
		// Lists too long are refused here, as Prepare refuses them for a
		// call of the library: sent on, 100,000 globs were marshalled
		// again and decoded by the module, past a 1 s deadline.
		if e := tooLong(req); e != nil {
			if err := enc.Encode(&protocol.Line{ID: req.ID, Done: &protocol.Done{Status: protocol.StatusFailed, Error: e}}); err != nil {
				return err
			}
			return bw.Flush()
		}
	}
	requested := time.Duration(0)
	if perr == nil && req.Limits != nil && req.Limits.DeadlineMS > 0 && req.Limits.DeadlineMS <= protocol.MaxDeadlineMS {
		requested = time.Duration(req.Limits.DeadlineMS) * time.Millisecond
	}
	deadline := r.deadline(ctx, time.Now(), requested)
	moduleMS := int64(0)
	var sent *protocol.Request
	if perr == nil {
		moduleMS = max(1, time.Until(deadline).Milliseconds())
		req, line = r.served(req, moduleMS)
		sent = &req
	}
	results := 0
	var werr error
	done, raw := r.run(ctx, sent, line, "", deadline, moduleMS,
		func(raw []byte, l *protocol.Line) error {
			if l.Item != nil && !l.Item.Context {
				results++ // context lines are not results
			}
			_, werr = bw.Write(raw)
			return werr
		})
	if werr != nil {
		return werr
	}
	if raw != nil {
		_, err := bw.Write(raw)
		if err == nil {
			err = bw.Flush()
		}
		return err
	}
	// The host ended the request: its final line says why.
	done.Results = results
	wire := protocol.Done{Status: done.Status, Error: done.Error, Results: done.Results, Truncated: done.Truncated, Capped: done.Capped, NextOffset: done.NextOffset,
		Skipped: done.Skipped, Stats: done.Stats}
	if err := enc.Encode(&protocol.Line{ID: req.ID, Done: &wire}); err != nil {
		return err
	}
	return bw.Flush()
}

// tooLong refuses a request whose lists are longer than a call may carry.
func tooLong(req protocol.Request) *protocol.Error { return req.Call.CheckLists() }
