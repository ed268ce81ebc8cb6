package host

import (
	"context"

	"github.com/tetratelabs/wazero/experimental"
)

// withMemory caps the memory of the instance started with ctx at limit
// (memoryOf).
func withMemory(ctx context.Context, limit uint64) context.Context {
	return experimental.WithMemoryAllocator(ctx, memoryOf(limit))
}

// sliceMemory is linear memory in a Go slice that grows by copying, as
// wazero's own allocator does: the fallback when a reservation is refused.
type sliceMemory struct {
	buf []byte
	max uint64
}

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		grown := make([]byte, size, min(max(size, 2*uint64(cap(m.buf))), m.max))
		copy(grown, m.buf)
		m.buf = grown
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
