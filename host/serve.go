package host

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/rootbound/rootbound/guest/protocol"
)

// Serve speaks the module's protocol for programs in any language: it reads
// request lines from in and writes the answer lines to out as the module
// writes them, one request at a time, until in ends (`rootbound serve`).
// Requests pass to the module as they are; the host adds its own limits
// around them: a request runs at most WithTimeout (or its deadline_ms, if
// sooner, or until ctx ends), and past that its answer ends with a
// deadline error the host writes. No input stops it: blank lines are
// skipped, as the module skips them, and a line over protocol.MaxLineBytes
// is cut to one byte over, which the module refuses with the answer every
// host gives. Serve returns nil at the end of in, or the first error
// writing to out.
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

// withPolicy puts the runner's root policies (WithRootPolicy) into a
// request line in place of any the line holds: a program speaking the
// protocol cannot see past what the host allows. A line that is not a JSON
// object passes as it is, for the module to refuse.
func (r *Runner) withPolicy(line []byte) []byte {
	if len(r.policy) == 0 {
		return line
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return line
	}
	pol, err := json.Marshal(r.policy)
	if err != nil {
		return line
	}
	fields["policy"] = pol
	out, err := json.Marshal(fields)
	if err != nil {
		return line
	}
	return out
}

// serveOne answers one request line.
func (r *Runner) serveOne(ctx context.Context, line []byte, enc *protocol.Encoder, bw *bufio.Writer) error {
	line = r.withPolicy(line)
	var req struct {
		ID     string `json:"id"`
		Limits struct {
			DeadlineMS int64 `json:"deadline_ms"`
		} `json:"limits"`
	}
	_ = json.Unmarshal(line, &req) // a bad line is the module's to answer
	requested := time.Duration(0)
	if ms := req.Limits.DeadlineMS; ms > 0 && ms <= protocol.MaxDeadlineMS {
		requested = time.Duration(ms) * time.Millisecond
	}
	results := 0
	var werr error
	done, raw := r.exchange(ctx, line, "", r.deadline(ctx, time.Now(), requested), req.Limits.DeadlineMS,
		func(raw []byte, l *protocol.Line) error {
			if l.Item != nil {
				results++
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
	wire := protocol.Done{Status: done.Status, Results: done.Results, Truncated: done.Truncated, Narrow: done.Narrow,
		Skipped: protocol.Skipped(done.Skipped), Stats: protocol.Stats(done.Stats)}
	if done.Error != nil {
		wire.Error = protocol.NewError(done.Error.Code, done.Error.Message)
	}
	if err := enc.Encode(&protocol.Line{ID: req.ID, Done: &wire}); err != nil {
		return err
	}
	return bw.Flush()
}
