package host

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rootbound/rootbound/protocol"
)

// BenchmarkRangeCut times greps of the Go tree split across two
// instances by ranges cut five ways, in turn in each round: by files
// alone (as before the bytes were counted), at 2, 8 (as the host cuts) or
// 32 KiB a file beside the bytes read of it, and by bytes alone. Its
// metrics are each way's median, and the share of the bytes read that
// the first half of the files holds. RATIONALE.md ("Why split a grep's
// walk by ranges?") quotes it.
//
//	go test ./host -run '^$' -bench RangeCut -benchtime 9x
func BenchmarkRangeCut(b *testing.B) {
	ctx := context.Background()
	r, err := NewRunner(ctx, NewConfig().WithRoot("/go", goRoot(b)).WithTimeout(time.Minute).
		WithBudget(0, 0).WithMaxResultBytes(1<<30).WithParallelism(2))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close(ctx)
	defer func(k int64) { fileCost = k }(fileCost)
	ways := []struct {
		name string
		cost int64
	}{{"files", 1 << 40}, {"2KiB+bytes", 2 << 10}, {"8KiB+bytes", 8 << 10}, {"32KiB+bytes", 32 << 10}, {"bytes", 0}}
	for _, g := range []struct {
		name string
		args GrepArgs
	}{
		{"l-rare-literal", GrepArgs{Pattern: "CanonicalMIMEHeaderKey", Literal: true, OutputMode: protocol.ModeFiles, MaxResults: protocol.MaxResultsCeiling}},
		{"n-return", GrepArgs{Pattern: "return", OutputMode: protocol.ModeContent, MaxResults: protocol.MaxResultsCeiling}},
	} {
		b.Run(g.name, func(b *testing.B) {
			// The first call splits by position and says where the files
			// lie; the ranges of the second plan those of the rest.
			for range 2 {
				if _, err := r.Grep(ctx, g.args); err != nil {
					b.Fatal(err)
				}
			}
			p, ok := r.plans.load(r.planKey(&protocol.Request{Call: protocol.Call{Grep: (*protocol.GrepArgs)(&g.args)}}))
			if !ok {
				b.Fatal("no plan after a split")
			}
			took := make([][]time.Duration, len(ways))
			for b.Loop() {
				for i, w := range ways {
					fileCost = w.cost
					start := time.Now()
					if _, err := r.Grep(ctx, g.args); err != nil {
						b.Fatal(err)
					}
					took[i] = append(took[i], time.Since(start))
				}
			}
			for i, w := range ways {
				slices.Sort(took[i])
				b.ReportMetric(float64(took[i][len(took[i])/2].Microseconds())/1000, "ms/"+w.name)
			}
			for _, s := range p.samples {
				if s.Seq >= p.files/2 {
					b.ReportMetric(100*float64(s.Bytes)/float64(p.bytes), "%bytes-in-first-half")
					break
				}
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}
